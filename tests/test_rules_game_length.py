"""A game bounded in rounds or minutes (rules/game_length.py; ours, not the sources'): off by default,
an option the core gets like any other, decided by the fewest cards (Reverse Spit: the most), a tie
playing on, the end replayed exactly from the presses."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.rules import OptionError, deck, new_game, read_options
from appliance.rules.game_length import GameLength
from lab.random_play import random_game


def play_out(seed: int, variant: str = "classic", options: dict[str, Any] | None = None) -> tuple[Any, list[Any]]:
    """A seeded game of mashing to its end: the game and every event."""
    events: list[Any] = []
    presses = []
    for press, happened in random_game(seed, 400_000, variant, options):
        presses.append(press)
        events += happened
    game, start = new_game(variant, seed, options)
    for t, player, control in presses:  # the same presses again: the same game
        start += game.press(t, player, control)
    assert [e.to_json() for e in start[1:]] == [e.to_json() for e in events]
    return game, events


def test_off_by_default_and_left_out_of_the_state_while_off() -> None:
    options = read_options("classic")
    assert (options.limit_rounds, options.limit_minutes) == (0, 0)
    game, _ = new_game("four-piles", 3)
    assert "limit_rounds" not in game.state()["options"] and "limit_minutes" not in game.state()["options"]
    game, _ = new_game("classic", 3, {"limit_rounds": 4})
    assert game.state()["options"]["limit_rounds"] == 4


def test_options_are_checked_and_not_for_speed() -> None:
    with pytest.raises(OptionError, match="limit_rounds"):
        read_options("classic", {"limit_rounds": -1})
    with pytest.raises(OptionError, match="limit_minutes"):
        read_options("classic", {"limit_minutes": 121})
    with pytest.raises(OptionError, match="not an option of 'speed'"):
        read_options("speed", {"limit_rounds": 3})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_game_of_n_rounds_ends_at_the_layout_after_round_n_with_the_fewest_cards_winning(seed: int) -> None:
    game, events = play_out(seed, options={"limit_rounds": 2})
    said = [e.to_json() for e in events]
    over = said[-1]
    assert over["event"] == "game_over" and game.phase == "over"
    rounds = [e for e in said if e["event"] == "round_over"]
    if "limit" in over:  # (a player may have played out of every card first: the sources' end)
        assert over["limit"] == "rounds" and len(rounds) >= 2
        cards = over["cards"]
        assert cards[over["winner"] - 1] < min(c for n, c in enumerate(cards, 1) if n != over["winner"])
        assert [len(p["spit_cards"]) for p in game.state()["players"]] == cards  # what each holds
        if len(rounds) > 2:  # played on only for a tie
            assert game.round > 2
    else:
        assert len(rounds) <= 2
    assert Counter(game.all_cards()) == Counter(deck())


def test_reverse_spit_bounded_the_most_cards_win() -> None:
    won = 0
    for seed in range(1, 6):
        _, events = play_out(seed, "reverse", {"limit_rounds": 1})
        over = events[-1].to_json()
        if "limit" in over:
            cards = over["cards"]
            assert cards[over["winner"] - 1] == max(cards) and cards.count(max(cards)) == 1
            won += 1
    assert won > 0


def test_a_game_of_m_minutes_plays_its_last_round_out_after_the_time() -> None:
    _, events = play_out(5, options={"limit_minutes": 1})
    said = [e.to_json() for e in events]
    over = said[-1]
    assert over.get("limit") == "minutes"
    deals = [e["t"] for e in said if e["event"] == "deal"]
    assert over["t"] >= 60.0 and all(t < 60.0 for t in deals)  # every new layout before it came earlier


def test_a_tie_plays_another_round() -> None:
    length = GameLength(rounds=1)
    assert length.winner([["AS"] * 3, ["2S"] * 3], most_wanted=False) is None
    assert length.winner([["AS"] * 3, ["2S"] * 4], most_wanted=False) == 1
    assert length.winner([["AS"] * 3, ["2S"] * 4], most_wanted=True) == 2
    assert length.winner([["AS"], ["2S"] * 4, ["3S"]], most_wanted=False) is None
    assert length.reached(1, 0.0) == "rounds" and length.reached(0, 1e9) is None
    assert GameLength(minutes=2).reached(9, 119.9) is None and GameLength(minutes=2).reached(1, 120.0) == "minutes"
    assert GameLength().reached(1000, 1e9) is None


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), seats=st.sampled_from([2, 3, 4]), rounds=st.integers(1, 3))
def test_every_bounded_game_ends_with_every_card_once(seed: int, seats: int, rounds: int) -> None:
    game, events = play_out(seed, options={"seats": seats, "limit_rounds": rounds})
    assert game.phase == "over" and Counter(game.all_cards()) == Counter(deck())
    over = events[-1].to_json()
    assert over["event"] == "game_over"
    if "limit" in over:
        assert game.round >= rounds
