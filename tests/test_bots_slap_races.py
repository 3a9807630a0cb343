"""The computer in the races the slap decides: V14's ghost card and V13's "Spit card, please".

Each test starts from a seed scenario's position (seeds/scenarios/) and lets the bots press in
virtual time, through the rules' own `legal_actions`, as the simulator does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from positions import lent_of, race_of

from appliance.bots import make_bot
from appliance.bots.simulate import play_game
from appliance.rules import Event, Game, game_from_state
from appliance.rules.events import GhostTaken, SpitCardLost, SpitCardWon

SCENARIOS = Path(__file__).parent.parent / "seeds" / "scenarios"


def scenario_game(name: str) -> Game:
    setup = json.loads((SCENARIOS / f"{name}.jsonl").read_text().splitlines()[0])["setup"]
    game = game_from_state(setup["state"], seed=setup["seed"], options=setup.get("options"))
    assert isinstance(game, Game)
    return game


def bot_press(game: Game, bot_level: str, player: int, now: float, seed: int = 0) -> tuple[float, str] | None:
    return make_bot(bot_level, player, seed).next_press(game, now)


def ghost_race(seed: int) -> Game:
    """The ghost card's race: player 1 (beside whom it lies) has just played out."""
    game = scenario_game("ghost-card-the-other-hand-first")
    game.press(1.0, 1, "pile1")
    game.press(1.1, 1, "left")
    assert race_of(game) is not None
    return game


@pytest.mark.parametrize("level", ["1", "3", "5"])
@pytest.mark.parametrize("player", [1, 2])
def test_in_the_ghost_race_every_bot_slaps_a_human_reaction_later(level: str, player: int) -> None:
    for seed in range(20):
        game = ghost_race(seed)
        plan = bot_press(game, level, player, 1.1, seed)
        assert plan is not None and plan[1] == "slap"
        assert 1.1 + 0.15 <= plan[0] <= 1.1 + 3.0  # never faster than a person, never asleep


def test_a_faster_level_takes_the_ghost_card_more_often() -> None:
    """Seat 1 played out (it wins by taking the card); seat 2 races it. Level 5 beats level 1."""
    taken = {"5": 0, "1": 0}
    for seed in range(40):
        for fast, slow in (("5", "1"), ("1", "5")):
            game = ghost_race(seed)
            bots = {1: make_bot(fast, 1, seed), 2: make_bot(slow, 2, seed)}
            plans = {p: bot.next_press(game, 1.1) for p, bot in bots.items()}
            first = min((plan[0], p) for p, plan in plans.items() if plan is not None)
            events = game.press(first[0], first[1], "slap")
            assert [type(e) for e in events if isinstance(e, GhostTaken)] == [GhostTaken]
            taken[fast if first[1] == 1 else slow] += 1
    assert taken["5"] >= 70, taken  # of 80 races


def lent_card_claimed() -> Game:
    """Player 1, short, holds player 2's lent spit card and has just played out: both may slap it."""
    game = scenario_game("spit-card-please-slapped-in-time")
    game.press(1.0, 1, "pile1")
    game.press(1.1, 1, "right")
    assert lent_of(game) is not None and lent_of(game)[3] == 1.1
    return game


@pytest.mark.parametrize("level", ["1", "3", "5"])
@pytest.mark.parametrize("player", [1, 2])
def test_for_the_lent_card_every_bot_slaps_a_human_reaction_later(level: str, player: int) -> None:
    for seed in range(20):
        plan = bot_press(lent_card_claimed(), level, player, 1.1, seed)
        assert plan is not None and plan[1] == "slap"
        assert 1.1 + 0.15 <= plan[0] <= 1.1 + 3.0


def test_no_bot_slaps_the_lent_card_before_its_holder_plays_out() -> None:
    for player in (1, 2):
        game = scenario_game("spit-card-please-slapped-in-time")
        plan = bot_press(game, "5", player, 0.5)
        assert plan is None or plan[1] != "slap"


def test_the_faster_hand_decides_the_lent_card() -> None:
    """Seat 1 played out (its slap wins the game); seat 2 lent the card (its slap hands seat 1 the pile)."""
    won = {"5": 0, "1": 0}
    for seed in range(40):
        for short, lender in (("5", "1"), ("1", "5")):
            game = lent_card_claimed()
            bots = {1: make_bot(short, 1, seed), 2: make_bot(lender, 2, seed)}
            plans = {p: bot.next_press(game, 1.1) for p, bot in bots.items()}
            first = min((plan[0], p) for p, plan in plans.items() if plan is not None)
            events = game.press(first[0], first[1], "slap")
            decided = [e for e in events if isinstance(e, SpitCardWon | SpitCardLost)]
            assert len(decided) == 1
            won[(short if first[1] == 1 else lender)] += 1
    assert won["5"] >= 70, won  # of 80 claims


@pytest.mark.parametrize("option", ["ghost_card", "spit_card_please"])
def test_whole_games_with_the_slap_races_finish_and_the_bots_slap(option: str) -> None:
    slaps = 0
    for seed in range(12):
        specs = ("1", "1") if seed % 2 else ("3", "3")

        def watch(t: float, player: int, control: str, events: list[Event]) -> None:
            nonlocal slaps
            slaps += control == "slap" and any(isinstance(e, GhostTaken | SpitCardWon) for e in events)

        result = play_game(specs, seed, watch=watch, options={option: True})
        assert result.winner is not None and not result.stuck
    assert slaps >= 6  # bots' slaps took ghost cards or claimed lent spit cards
