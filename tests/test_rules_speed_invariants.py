"""Speed under random presses (hypothesis): from seeded deals of both side-stack sizes and from random
explicit positions. After every press: no exception, every card in exactly one place, the phase,
hands, calls and scores consistent with the position. Then: the same setup and presses give
byte-identical output, the script (and the journal) of the game replay to the live output, and a
game resumed from a snapshot taken at any point goes on exactly as the uninterrupted game."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from appliance.journal import Journal
from appliance.rules import CONTROLS, SetupError, deck, game_from_setup, new_game, restore
from appliance.rules.events import Event, GameOver
from appliance.rules.speed import SpeedGame
from appliance.scripting import output_lines, parse_script, run
from lab.random_play import mash, random_game

FULL_DECK = Counter(deck())
Press = tuple[float, int, str]


def check_position(game: SpeedGame, dealt: bool = True) -> None:
    """Everything that must hold in any position the game reaches. `dealt`: the game started from a
    seeded deal, so its hands are full while the stock lasts (every played slot refilled at once)."""
    assert Counter(game.all_cards()) == FULL_DECK, "every card in exactly one place"
    state = game.state()
    assert Counter(c for p in state["players"] for c in p["hand"] if c) + Counter(
        c for p in state["players"] for c in p["stock"]) + Counter(
        c for pile in state["spit_piles"] + state["side_stacks"] for c in pile) == FULL_DECK
    phase, target = game.phase, game.options.target
    assert (phase == "over") == (game.winner is not None)
    for p in game.players:
        assert len(p.hand) == 5
        if dealt:
            assert None not in p.hand or not p.stock, "a hand is refilled while the stock lasts"
        if p.selected is not None:
            assert phase != "over" and p.hand[p.selected - 1] is not None
        if p.called:
            assert phase in ("ready", "stalemate")
        if phase != "over":
            assert p.score < target and not p.played_out()
    if phase == "ready":
        assert state["spit_piles"] == [[], []] and all(state["side_stacks"])
    if phase in ("playing", "stalemate"):
        assert all(state["spit_piles"])
    if phase == "stalemate":
        assert not game.can_move(1) and not game.can_move(2), "nobody can play or draw in a stalemate"
    if phase == "playing":
        assert game.can_move(1) or game.can_move(2), "a stuck deal is a stalemate"
    if phase == "over":
        assert game.winner is not None
        winner = game.player(game.winner)
        assert winner.score >= target and winner.played_out()


def play(setup: dict[str, Any], presses: list[Press], dealt: bool = True) -> tuple[SpeedGame, list[Event]]:
    game, events = game_from_setup(setup)
    assert isinstance(game, SpeedGame)
    check_position(game, dealt)
    for t, player, control in presses:
        happened = game.press(t, player, control)
        assert happened, "every press has an outcome"
        assert all(e.t == game.now for e in happened)
        events += happened
        check_position(game, dealt)
    return game, events


def script_lines(setup: dict[str, Any], presses: list[Press]) -> list[str]:
    """The game's script as the journal writes it: each press at the time the game applied it (a
    press stamped before the last one applied goes in at that time)."""
    lines = [json.dumps({"setup": setup})]
    last = 0.0
    for t, p, c in presses:
        last = max(last, t)
        lines.append(json.dumps({"t": last, "player": p, "press": c}))
    return lines


def check_replays(setup: dict[str, Any], presses: list[Press], cut: float, dealt: bool = True) -> None:
    game, events = play(setup, presses, dealt)
    live = list(output_lines(events, game))
    for kind in sorted({e.kind for e in events} & {"stalemate", "reshuffle", "score", "game_over", "draw"}):
        event(kind)  # what the examples reached (pytest --hypothesis-show-statistics)
    event(f"blocked: {any(e.kind == 'round_over' and e.to_json()['reason'] == 'blocked' for e in events)}")
    # Deterministic: the same again, byte for byte.
    again, again_events = play(setup, presses, dealt)
    assert list(output_lines(again_events, again)) == live
    # Replay = live: the game's script gives the same output.
    replayed, replayed_game = run(parse_script(script_lines(setup, presses)))
    assert list(output_lines(replayed, replayed_game)) == live
    # Snapshot resume = live, cut anywhere (through JSON, as the cabinet stores it).
    k = int(cut * len(presses))
    first, before = play(setup, presses[:k], dealt)
    resumed = restore(json.loads(json.dumps(first.snapshot())))
    assert resumed.state() == first.state()
    after: list[Event] = []
    for t, p, c in presses[k:]:
        after += resumed.press(t, p, c)
    assert list(output_lines(before + after, resumed)) == live


def mashed(setup: dict[str, Any], seed: int, count: int) -> list[Press]:
    """`count` presses of two players mashing (random_play), t rising."""
    game, _ = game_from_setup(setup)
    rng = random.Random(seed)
    presses: list[Press] = []
    t = 0.0
    for _ in range(count):
        if game.phase == "over":
            break
        dt, player, control = mash(game, rng)
        t = round(t + dt, 6)
        game.press(t, player, control)
        presses.append((t, player, control))
    return presses


speed_options = st.fixed_dictionaries({}, optional={"side_stacks": st.sampled_from([10, 5]),
                                                    "target": st.integers(1, 30)})
any_press = st.tuples(st.floats(-0.05, 0.4, allow_nan=False), st.integers(1, 2), st.sampled_from(CONTROLS))


def timed(steps: list[tuple[float, int, str]], start: float = 0.0) -> list[Press]:
    """Presses whose times mostly rise, sometimes step back (an edge stamped a little earlier)."""
    out = []
    t = start
    for dt, player, control in steps:
        t = max(0.0, round(t + dt, 6))
        out.append((t, player, control))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=speed_options, mashing=st.integers(0, 8000),
       steps=st.lists(any_press, max_size=150), cut=st.floats(0, 1))
def test_mashing_from_a_seeded_deal_keeps_every_invariant_and_replays(
        seed: int, options: dict[str, Any], mashing: int, steps: list[tuple[float, int, str]], cut: float) -> None:
    setup = {"variant": "speed", "seed": seed, "options": options}
    presses = mashed(setup, seed, mashing)
    presses += timed(steps, presses[-1][0] if presses else 0.0)
    check_replays(setup, presses, cut)


@st.composite
def speed_positions(draw: st.DrawFn) -> dict[str, Any]:
    """A random explicit position: the deck dealt at random into hands, stocks, spit piles and side
    stacks (whatever the loader refuses, hypothesis throws away)."""
    cards = list(draw(st.permutations(deck())))
    phase = draw(st.sampled_from(["ready", "playing", "playing", "stalemate"]))
    cuts = sorted(draw(st.lists(st.integers(0, len(cards)), min_size=5, max_size=5)))
    parts = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)]
    stocks, spit, side = parts[0:2], parts[2:4], [parts[4], parts[5]]
    players = []
    for stock in stocks:
        empty = draw(st.sets(st.integers(0, 4), max_size=5))
        hand: list[str | None] = []
        for slot in range(5):
            hand.append(None if slot in empty or not stock else stock.pop())
        selectable = [n for n, c in enumerate(hand, start=1) if c]
        players.append({"hand": hand, "stock": stock, "score": draw(st.integers(0, 24)),
                        "selected": draw(st.sampled_from([None, *selectable]))})
    if phase == "ready":
        side = [side[0] + spit[0], side[1] + spit[1]]
        spit = [[], []]
    return {"variant": "speed", "phase": phase, "spit_piles": spit, "side_stacks": side, "players": players}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=speed_positions(), seed=st.integers(0, 2**16), mashing=st.integers(0, 2000),
       steps=st.lists(any_press, max_size=120), cut=st.floats(0, 1))
def test_random_presses_from_random_positions_keep_every_invariant_and_replay(
        state: dict[str, Any], seed: int, mashing: int, steps: list[tuple[float, int, str]], cut: float) -> None:
    setup = {"variant": "speed", "seed": seed, "state": state}
    try:
        game_from_setup(setup)
    except SetupError:
        assume(False)
    presses = mashed(setup, seed, mashing)
    presses += timed(steps, presses[-1][0] if presses else 0.0)
    check_replays(setup, presses, cut, dealt=False)


def test_the_journal_of_a_speed_game_replays_to_the_live_state(tmp_path: Path) -> None:
    path = tmp_path / "speed.jsonl"
    setup = {"variant": "speed", "seed": 12, "options": {"side_stacks": 5, "target": 10}}
    game, _ = new_game("speed", 12, {"side_stacks": 5, "target": 10})
    rng = random.Random(12)
    t = 0.0
    with Journal(path, setup, max_dir_bytes=None) as journal:
        for _ in range(200_000):
            if game.phase == "over":
                break
            dt, player, control = mash(game, rng)
            t = round(t + dt - 0.01, 6)  # edges a little out of order now and then
            game.press(journal.record(t, player, control), player, control)
        journal.finish(game.state())
    assert game.phase == "over"
    script = parse_script(path.read_text().splitlines())
    _, replayed = run(script)
    assert replayed.state() == game.state() == script.final_state


def test_random_mashing_plays_speed_to_the_end() -> None:
    for seed, options in [(0, None), (1, {"side_stacks": 5}), (2, {"target": 60})]:
        game, _ = new_game("speed", seed, options)
        assert isinstance(game, SpeedGame)
        winner: int | None = None
        presses = 0
        for (t, player, control), events in random_game(seed, variant="speed", options=options,
                                                        max_presses=400_000):
            presses += 1
            assert game.press(t, player, control) == events
            winner = next((e.winner for e in events if isinstance(e, GameOver)), winner)
        assert game.phase == "over" and winner == game.winner in (1, 2), f"seed {seed}: {presses} presses"
        assert winner is not None and game.player(winner).score >= game.options.target
        check_position(game)
