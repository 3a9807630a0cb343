"""Presses in edge order whatever their delivery delay: Match's rollback, its journal, its replay."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from positions import game_at

from appliance.journal import Journal
from appliance.match import Match, setup_line
from appliance.rules import CONTROLS, Event, FamilyGame, new_game
from appliance.scripting import parse_script, run

MS = 1_000_000
SECOND = 1_000_000_000

Press = tuple[int, int, str]  # edge time (ns since the match started), player, control

VARIANTS: list[tuple[str, dict[str, Any] | None]] = [
    ("classic", None),
    ("running", {"runners": [2, 3]}),
    ("four-piles", {"seats": 3}),
    ("mod-spit", None),
    ("speed", None),
]


def press_stream(variant: str, options: dict[str, Any] | None, seed: int, count: int) -> list[Press]:
    """Presses a game would see: mostly what a player could do at that moment, some at random, at
    edge times that tie now and then and are often a few ms apart (races)."""
    rng = random.Random(seed)
    game, _ = new_game(variant, seed, options)
    seats = game.table.seats
    t_ms = 0
    out: list[Press] = []
    for _ in range(count):
        t_ms += rng.choice([0, 0, 1, 1, 2, 3, 5, 10, 20, 40, 120])
        player = rng.randint(1, seats)
        actions = game.legal_actions(player)
        if actions and rng.random() < 0.85:
            control = game.presses_for(player, rng.choice(actions))[0]
        else:
            control = rng.choice(CONTROLS)
        game.press(t_ms / 1000, player, control)
        out.append((t_ms * MS, player, control))
    return out


def delivered(presses: list[Press], max_delay_ns: int, seed: int) -> list[Press]:
    """The presses in the order they reach the match, each `0..max_delay_ns` after its edge."""
    rng = random.Random(seed)
    arrivals = [(edge + rng.randint(0, max_delay_ns), n) for n, (edge, _, _) in enumerate(presses)]
    return [presses[n] for _, n in sorted(arrivals)]


def in_edge_order(variant: str, options: dict[str, Any] | None, seed: int,
                  arrived: list[Press]) -> tuple[list[Event], FamilyGame]:
    """The game with every press applied in edge order (equal edges: the order they arrived)."""
    game, events = new_game(variant, seed, options)
    for edge, player, control in sorted(arrived, key=lambda p: p[0]):  # sorted() is stable
        events += game.press(round(edge / 1e9, 6), player, control)
    return events, game


def as_json(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events]


def play_live(match: Match, arrived: list[Press], max_delay_ns: int, seed: int,
              shown: list[Event] | None = None) -> None:
    """Each press handed to the match when it arrives, frames (ticks) between; `shown` follows the
    match's events as a screen's EventReader does."""
    from appliance.display.events import EventReader

    reader = EventReader(match)
    rng = random.Random(seed + 1)
    arrival = 0
    for edge, player, control in arrived:
        arrival = max(arrival, edge + rng.randint(0, max_delay_ns))
        match.tick(arrival)
        match.press(edge, player, control, "serial")
        if shown is not None:
            events = reader.new_events()
            if reader.taken_back:
                assert shown[len(shown) - len(reader.taken_back):] == reader.taken_back
                del shown[len(shown) - len(reader.taken_back):]
            shown += events


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    count=st.integers(1, 160),
    max_delay_ms=st.sampled_from([0, 1, 4, 20, 50]),
    snapshot_every=st.sampled_from([1, 3, 32]),
)
# A stalemate the rules declared though a runner could still move a card into a space and lift the
# one under it: its snapshots did not restore, and two presses were applied late (2.79, not 2.789).
@example(case=("running", {"runners": [2, 3]}), seed=9060, count=141, max_delay_ms=50, snapshot_every=1)
def test_the_live_game_after_rollbacks_is_the_game_in_edge_order_and_its_journal_replays_it(
    case: tuple[str, dict[str, Any] | None], seed: int, count: int, max_delay_ms: int, snapshot_every: int
) -> None:
    variant, options = case
    presses = press_stream(variant, options, seed, count)
    arrived = delivered(presses, max_delay_ms * MS, seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        journal = Journal(path, setup_line(seed, variant, options), max_dir_bytes=None)
        match = Match(seed, 0, journal, variant=variant, options=options)
        match.snapshot_every = snapshot_every
        start_events = list(match.events)
        shown = list(start_events)
        play_live(match, arrived, max_delay_ms * MS, seed, shown)
        assert match.late_presses == 0  # 50 ms is well within the horizon
        assert as_json(shown) == as_json(match.events)  # the screen resynced
        if getattr(match.game, "deadline", lambda: None)() is None and not any(
                line.control is None for line in match._log):
            events, game = in_edge_order(variant, options, seed, arrived)
            assert game.state() == match.game.state()
            assert game.snapshot() == match.game.snapshot()
            assert as_json(events) == as_json(match.events)
        if match.journal is not None:
            match.abandon()
        replayed, game = run(parse_script(path.read_text().splitlines()))
        assert game.snapshot() == match.game.snapshot()
        assert as_json(replayed) == as_json(match.events)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), count=st.integers(1, 120), horizon_ms=st.sampled_from([0, 2, 10]))
def test_presses_older_than_the_horizon_are_applied_late_and_the_replay_still_agrees(
    seed: int, count: int, horizon_ms: int
) -> None:
    presses = press_stream("classic", None, seed, count)
    arrived = delivered(presses, 50 * MS, seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        match = Match(seed, 0, Journal(path, setup_line(seed), max_dir_bytes=None))
        match.horizon_s = horizon_ms / 1000
        match.snapshot_every = 4
        play_live(match, arrived, 50 * MS, seed)
        assert match.presses == count
        if match.journal is not None:
            match.abandon()
        replayed, game = run(parse_script(path.read_text().splitlines()))
        assert game.snapshot() == match.game.snapshot()
        assert as_json(replayed) == as_json(match.events)


def race_position() -> FamilyGame:
    """Each player's 8 fits the 9 on spit pile 1 (player 1's right, player 2's left)."""
    return game_at(["2C 8H", "3C", "4C", "5C", "6C"], ["2D 8C", "3D", "4D", "5D", "6D"], spit=("KS", "9S"))


def race_match(journal: Journal | None = None) -> Match:
    """Both players hold their 8, ready to race for spit pile 1."""
    match = Match(0, 0, journal, game=race_position())
    match.press(0, 1, "pile1")
    match.press(0, 2, "pile1")
    return match


def test_a_late_pad_that_slapped_first_wins_the_race_and_the_screen_takes_the_other_card_back(
    tmp_path: Path,
) -> None:
    from appliance.display.events import EventReader

    match = race_match()
    reader = EventReader(match)
    match.press(SECOND + 2 * MS, 1, "right", "gpio")  # the GPIO slap, delivered at once
    [played] = reader.new_events()
    assert (played.kind, getattr(played, "player", None)) == ("play", 1)
    events = match.press(SECOND + 1 * MS, 2, "left", "serial:/dev/pad2")  # the pad's slap, 30 ms late
    assert [e.to_json() for e in events] == [
        {"t": 1.001, "event": "play", "player": 2, "pile": 1, "card": "8C", "spit_pile": 1, "onto": "9S"},
        {"t": 1.002, "event": "reject", "player": 1, "press": "right", "reason": "too_late", "card": "8H",
         "spit_pile": 1, "winner": 2, "by_ms": 1.0},
    ]
    assert match.corrections == 1 and match.rollbacks == 1 and match.rollback_depths == [1]
    assert match.spit.spit_piles[1][-1] == "8C" and match.spit.player(1).selected == 1
    assert reader.new_events() == events and reader.taken_back == [played] and reader.late
    assert reader.new_events() == [] and not reader.late and reader.taken_back == []


def test_the_journal_writes_the_late_press_at_its_edge_and_a_resumed_game_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "race.jsonl"
    setup = {"variant": "classic", "seed": 0, "state": race_position().state()}
    match = race_match(Journal(path, setup, max_dir_bytes=None))
    match.press(SECOND + 2 * MS, 1, "right", "gpio")
    match.press(SECOND + 1 * MS, 2, "left", "serial")
    assert match.journal is not None
    match.journal.sync()
    lines = path.read_text().splitlines()
    assert lines[-2:] == [
        '{"t": 1.002, "player": 1, "press": "right", "source": "gpio"}',
        '{"t": 1.001, "player": 2, "press": "left", "source": "serial"}',
    ]
    resumed = Match.resume(path, 5 * SECOND)
    assert resumed.game.snapshot() == match.game.snapshot()
    assert as_json(resumed.events) == as_json(match.events)
    resumed.press(6 * SECOND, 1, "pile2")
    resumed.press(6 * SECOND - 10 * MS, 2, "pile2")  # late: rolled back within the resumed game
    assert resumed.rollbacks == 1
    resumed.abandon()
    _replayed, game = run(parse_script(path.read_text().splitlines()))
    assert game.snapshot() == resumed.game.snapshot()


def test_a_press_before_the_horizon_is_applied_late_as_the_core_does() -> None:
    match = race_match()
    match.press(2 * SECOND, 1, "right")
    events = match.press(SECOND, 2, "left")  # a whole second late
    assert match.rollbacks == 0 and match.late_presses == 1 and match.corrections == 0
    assert [(e.kind, e.t, getattr(e, "reason", None)) for e in events] == [("reject", 2.0, "too_late")]


def test_checkpoints_older_than_the_horizon_are_let_go() -> None:
    match = Match(3, 0)
    match.snapshot_every = 2
    for n in range(400):
        match.press(n * 10 * MS, 1 + n % 2, ("spit", "pile1", "left", "pile2", "right")[n % 5])
    assert 0 < len(match._checkpoints) <= 2 + 250 // 20 + 1
    assert len(match._log) <= 2 * len(match._checkpoints) + 2
    match.press(3990 * MS - 240 * MS, 1, "pile3")  # still within the horizon
    assert match.rollbacks == 1 and match.late_presses == 0


def test_a_rollback_plays_on_a_copy_and_leaves_its_checkpoint_as_it_was() -> None:
    """A rollback starts from a copy of its checkpoint (`Game.copy`, which cannot fail, where a
    snapshot once had to pass the state loader): the checkpoint is unchanged after it, so a second
    late press that rolls back to the same checkpoint still gives the game in edge order."""
    presses = press_stream("classic", None, 5, 40)
    match = Match(5, 0)
    match.snapshot_every = 8
    for edge, player, control in presses:
        match.press(edge, player, control)
    late: list[Press] = [(presses[-1][0] - 1 * MS, 1, "spit"), (presses[-2][0] - 1 * MS, 2, "spit")]
    assert presses[-3][0] <= late[1][0] < presses[-2][0] <= late[0][0] < presses[-1][0]
    base = max((c for c in match._checkpoints if c.now <= late[1][0] / 1e9), key=lambda c: c.index)
    before = json.dumps(base.game.snapshot())
    match.press(*late[0])
    assert json.dumps(base.game.snapshot()) == before
    assert any(c is base for c in match._checkpoints)
    events = match.press(*late[1])
    assert match.late_presses == 0 and match.rollbacks == 2
    expected, game = in_edge_order("classic", None, 5, [*presses, *late])
    assert game.snapshot() == match.game.snapshot()
    assert as_json(expected) == as_json(match.events)
    assert events and events[-1] == match.events[-1]
