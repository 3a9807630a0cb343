"""What the uplink reads of the cabinet (appliance/venue/source.py): the operator's store, read only,
never raising."""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from pathlib import Path

from appliance.operator.office import Office
from appliance.operator.store import FILE, GameRow, Score
from appliance.venue import source

EVERY_CONTROL = tuple((player, control) for player in (1, 2) for control in ("left", "right", "spit"))


def books(state: Path) -> Office:
    return Office.open(state / "config.toml")


def test_what_the_game_wrote_is_read_and_nothing_is_written(tmp_path: Path) -> None:
    office = books(tmp_path)
    for _ in range(3):
        office.coin()
    office.add_game(GameRow("classic", 2, 90.0, 1, False, (20.0, 35.0), controls=EVERY_CONTROL))
    office.add_game(GameRow("running", 2, 60.0, 2, False, (), (2700.0,), controls=EVERY_CONTROL))
    office.add_score(Score("sprint", "ABC", 2700.0, 2, 0, "2026-11-25"))
    office.add_score(Score("sprint", "XY", 2300.0, 1, 1, "2026-11-25"))
    assert office.drain(10)
    before = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in tmp_path.iterdir())
    figures = source.read(tmp_path)
    assert (figures.lifetime.coins, figures.lifetime.games, figures.lifetime.variants) == (
        3, 2, {"classic": 1, "running": 1})
    assert (figures.lifetime.races, figures.lifetime.sprints, figures.faults) == (2, 1, [])
    assert [(e.initials, e.sprint_ms, e.team) for e in figures.sprints] == [("XY", 2300.0, 1), ("ABC", 2700.0, 2)]
    assert sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in tmp_path.iterdir()) == before
    office.close()


def test_the_resettable_audits_start_again_and_the_lifetime_ones_do_not(tmp_path: Path) -> None:
    office = books(tmp_path)
    office.coin()
    office.add_game(GameRow("classic", 2, 90.0, 1, False, controls=EVERY_CONTROL))
    assert office.drain(10)
    office.reset_audits()
    office.coin()
    assert office.drain(10)
    figures = source.read(tmp_path)
    assert (figures.lifetime.coins, figures.lifetime.games) == (2, 1)
    assert (figures.since.coins, figures.since.games) == (1, 0) and figures.cleared is not None
    office.close()


def test_a_switch_never_pressed_is_a_fault_in_the_operators_words(tmp_path: Path) -> None:
    office = books(tmp_path)
    no_spit_2 = tuple(c for c in EVERY_CONTROL if c != (2, "spit"))
    for _ in range(30):
        office.add_game(GameRow("classic", 2, 60.0, 1, False, controls=no_spit_2))
    assert office.drain(10)
    assert source.read(tmp_path).faults == ["player 2's SPIT button: not pressed in the last 30 games"]
    office.close()


def test_an_unreadable_store_is_a_fault_and_empty_figures(tmp_path: Path) -> None:
    (tmp_path / FILE).write_bytes(b"this is not a database, not by a long way" * 100)
    figures = source.read(tmp_path)
    assert figures.lifetime.coins == 0 and figures.sprints == []
    assert [f.split(" (")[0] for f in figures.faults] == ["the books unreadable"]


def test_a_store_the_uplink_may_only_read_is_read(tmp_path: Path) -> None:
    office = books(tmp_path)
    office.coin()
    assert office.drain(10)
    os.chmod(tmp_path / FILE, 0o444)  # (root reads it anyway; the point: opened read-only, never written)
    assert source.read(tmp_path).lifetime.coins == 1
    office.close()


def test_nothing_there_is_nothing_wrong(tmp_path: Path) -> None:
    figures = source.read(tmp_path)
    assert (figures.lifetime.games, figures.sprints, figures.faults) == (0, [], [])
    assert list(tmp_path.iterdir()) == []  # and nothing made


def test_the_fastest_reactions_and_the_last_update_or_rollback_are_read(tmp_path: Path) -> None:
    office = books(tmp_path)
    office.add_score(Score("reaction", "SLO", 412.0, 0, 0, "2026-11-24"))
    office.add_score(Score("reaction", "QIK", 198.5, 0, 0, "2026-11-25"))
    office.add_score(Score("sprint", "RUN", 2500.0, 1, 0, "2026-11-25"))
    assert office.drain(10)
    figures = source.read(tmp_path)
    assert figures.reactions_json() == [{"initials": "QIK", "reaction_ms": 198.5, "date": "2026-11-25"},
                                        {"initials": "SLO", "reaction_ms": 412.0, "date": "2026-11-24"}]
    assert figures.last_update is None  # none recorded: nothing, and no fault
    stamp = office.stamp()
    # Stamped later but with a wall clock set back: the store's order (boot, seq) decides, not the clock.
    office.store.add_update(stamp, "0.1.0", "0.2.0", "installed", "spit-arcade-0.2.0.raucb")
    office.store.add_rollback(dataclasses.replace(office.stamp(), wall=stamp.wall - 3600),
                              "0.2.0", "0.1.0", "the game did not come up")
    last = source.read(tmp_path).last_update
    assert last is not None and {k: v for k, v in last.items() if k != "wall"} == {
        "kind": "rollback", "from": "0.2.0", "to": "0.1.0", "reason": "the game did not come up"}
    assert last["wall"] == stamp.wall - 3600
    office.store.add_update(office.stamp(), "0.1.0", "0.2.1", "installed")
    assert source.read(tmp_path).last_update["to"] == "0.2.1"  # type: ignore[index]
    assert source.read(tmp_path).faults == []
    office.close()


def test_a_store_without_the_updates_tables_has_no_last_update_and_its_figures(tmp_path: Path) -> None:
    office = books(tmp_path)
    office.coin()
    assert office.drain(10)
    office.close()
    with sqlite3.connect(tmp_path / FILE) as db:  # a store as an older version left it
        db.execute("DROP TABLE updates")
        db.execute("DROP TABLE rollbacks")
    figures = source.read(tmp_path)
    assert (figures.lifetime.coins, figures.last_update, figures.faults) == (1, None, [])
