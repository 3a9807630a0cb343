"""Two players mashing at random play whole games to the end, within a bound on their length."""

from __future__ import annotations

from collections import Counter

from appliance.rules import Game, deck
from appliance.rules.events import GameOver
from lab.random_play import random_game

MAX_PRESSES = 300_000  # measured: 200 seeds took 3,295 to 93,635 presses (median 15,515)


def test_random_games_reach_the_end_of_the_game() -> None:
    for seed in range(12):
        game, _ = Game.new(seed)
        presses = 0
        winner = None
        for (t, player, control), events in random_game(seed, max_presses=MAX_PRESSES):
            presses += 1
            assert game.press(t, player, control) == events  # the same game, pressed alongside
            for event in events:
                if isinstance(event, GameOver):
                    winner = event.winner
        assert game.phase == "over", f"seed {seed}: not over after {presses} presses"
        assert winner == game.winner in (1, 2)
        assert Counter(game.all_cards()) == Counter(deck())
