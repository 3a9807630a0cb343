"""What the uplink reads of the cabinet (appliance/venue/source.py): the operator's store, read only,
never raising."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

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


# -- the store as the uplink's unit sees it: the game's state folder through a read-only view ---------
# (ProtectSystem=strict bind-mounts it read-only; the game's user keeps the store in WAL mode.)

READ_FIGURES = ("import json, sys; from pathlib import Path; from appliance.venue import source; "
                "f = source.read(Path(sys.argv[1])); "
                "print(json.dumps({'coins': f.lifetime.coins, 'games': f.lifetime.games, 'faults': f.faults}))")
# In a mount namespace of its own: the folder bound read-only over itself, shown to be so (a file
# cannot be made in it, not even by root), then the figures read there.
IN_A_READ_ONLY_VIEW = ('mount --bind -o ro "$1" "$1" || exit 4; '
                       'if touch "$1/made" 2>/dev/null; then exit 3; fi; exec "$2" -c "$3" "$1"')


def read_through_a_read_only_view(state: Path) -> dict[str, Any]:
    if shutil.which("unshare") is None:
        why = "needs unshare (util-linux) for a read-only view of the state folder"
    else:
        mapped = [] if os.geteuid() == 0 else ["--map-root-user"]  # (elsewhere: a user namespace of its own)
        done = subprocess.run(["unshare", *mapped, "--mount", "--propagation", "private", "sh", "-c",
                               IN_A_READ_ONLY_VIEW, "sh", str(state), sys.executable, READ_FIGURES],
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
        assert done.returncode != 3, "the view was not read-only"
        if done.returncode == 0:
            found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
            return found
        why = f"no read-only view could be made (exit {done.returncode}: {done.stderr.strip()[-300:]})"
        assert done.returncode in (1, 4), why  # (1: unshare refused; 4: the mount refused)
    if os.environ.get("CI") == "true":
        pytest.fail(why)
    pytest.skip(why)


def beside(state: Path) -> list[str]:
    return sorted(p.name for p in state.iterdir() if p.name.startswith(f"{FILE}-"))


def test_the_store_at_rest_is_read_through_a_read_only_view(tmp_path: Path) -> None:
    """The game stopped (or restarting, or not yet up after a boot): its last connection closed,
    SQLite checkpointed the WAL and deleted -wal and -shm. A read-only reader cannot make the -shm
    a WAL reader needs ("unable to open database file", the fault the booted cabinet's uplink sent):
    it reads the file alone, at rest."""
    office = books(tmp_path)
    for _ in range(2):
        office.coin()
    office.add_game(GameRow("classic", 2, 90.0, 1, False, controls=EVERY_CONTROL))
    assert office.drain(10)
    assert beside(tmp_path) == [f"{FILE}-shm", f"{FILE}-wal"]
    office.close()
    assert beside(tmp_path) == []
    assert read_through_a_read_only_view(tmp_path) == {"coins": 2, "games": 1, "faults": []}


def test_the_store_the_game_has_open_is_read_through_a_read_only_view(tmp_path: Path) -> None:
    """The game running: its -shm and -wal beside the store, what it wrote last still in the WAL
    (not yet in the file), read through them."""
    office = books(tmp_path)
    office.coin()
    assert office.drain(10)
    office.store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    office.coin()
    office.add_game(GameRow("classic", 2, 90.0, 1, False, controls=EVERY_CONTROL))
    assert office.drain(10)
    assert (tmp_path / f"{FILE}-wal").stat().st_size > 0  # the second coin and the game only in the WAL
    assert read_through_a_read_only_view(tmp_path) == {"coins": 2, "games": 1, "faults": []}
    office.close()


def test_the_store_of_a_game_killed_is_read_through_a_read_only_view(tmp_path: Path) -> None:
    """The game killed (kill -9, or the power cut): -shm and -wal left, no connection holding them;
    SQLite rebuilds the wal-index in the reader's memory."""
    code = ("import sys, os; from pathlib import Path; from appliance.operator.office import Office; "
            "o = Office.open(Path(sys.argv[1]) / 'config.toml'); o.coin(); o.coin(); o.coin(); "
            "assert o.drain(10); os._exit(0)")
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True, timeout=60,
                   env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert beside(tmp_path) == [f"{FILE}-shm", f"{FILE}-wal"]
    assert read_through_a_read_only_view(tmp_path) == {"coins": 3, "games": 0, "faults": []}


def test_a_store_that_changes_while_read_at_rest_is_read_again(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Immutable promises that the file does not change while it is read: when the game opens and
    writes the store meanwhile, that read is not used; it is read again, through the game's -shm."""
    office = books(tmp_path)
    office.coin()
    assert office.drain(10)
    office.close()
    assert beside(tmp_path) == []
    reads: list[bool] = []
    real = source._read
    game: list[Office] = []

    def read_while_the_game_starts(path: Path, immutable: bool) -> source.Figures:
        reads.append(immutable)
        figures = real(path, immutable)
        if not game:
            game.append(books(tmp_path))
            game[0].coin()
            assert game[0].drain(10)
        return figures

    monkeypatch.setattr(source, "_read", read_while_the_game_starts)
    figures = source.read(tmp_path)
    assert reads == [True, False] and (figures.lifetime.coins, figures.faults) == (2, [])
    game[0].close()
