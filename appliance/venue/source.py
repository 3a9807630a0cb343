"""What the uplink reads of the cabinet: the operator's store, read only, the one reader of it here.

The game keeps its books in one SQLite file on the state partition (appliance/operator/store.py,
`store.sqlite` beside `config.toml`), in WAL mode. The uplink's unit sees the state folder read-only
(ProtectSystem=strict: a read-only view, and the game's group without write), so it opens the store
read-only and never changes it. A WAL reader needs the wal-index, `store.sqlite-shm`, beside the
file (https://sqlite.org/wal.html, "Read-Only Databases"):
- while the game has the store open (or after it was killed, or a power cut), `-shm` and `-wal` are
  there: `mode=ro` opens `-shm` read-only, and SQLite reads through it (or, with no writer holding
  it, rebuilds the index in its own memory);
- when the last connection closed cleanly (the game stopped, restarting, not yet started after a
  boot), SQLite checkpointed the WAL into the file and deleted both: `mode=ro` would have to make
  `-shm`, which a read-only view forbids ("unable to open database file", seen in the booted
  cabinet). Then the file alone is the whole store, at rest, and it is read with `immutable=1` (no
  `-shm`, no locks). Immutable is a promise that the file does not change while it is read, so the
  promise is checked: no `-wal` and the same file (inode, size, change times) before and after, else
  it is read again (the game opened it meanwhile: `-shm` is there now).
It never raises: a store missing is nothing played yet; one unreadable is empty figures and a fault.

    figures = read(Path("/var/lib/spit-arcade"))
    figures.lifetime   # audits.Totals: coins, games, games per variant, sprints, ...
    figures.sprints    # the cabinet's fastest sprints, as high_scores.Entry
    figures.reactions  # its fastest reactions (the store's "reaction" scores), fastest first
    figures.last_update  # its last update or rollback (the store's updates and rollbacks), or None
    figures.faults     # e.g. "player 2's SPIT button: not pressed in the last 30 games"
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from appliance import audits, high_scores
from appliance.operator import books
from appliance.operator.store import FILE, Score, Store
from appliance.venue.board import reaction_json

SPRINTS = 10  # the cabinet's own best sprints, published for the venue's board
REACTIONS = 10  # and its fastest reactions


@dataclass
class Figures:
    lifetime: audits.Totals = field(default_factory=audits.Totals)
    since: audits.Totals = field(default_factory=audits.Totals)
    cleared: str | None = None
    sprints: list[high_scores.Entry] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)  # what the cabinet itself finds wrong, in words
    reactions: list[Score] = field(default_factory=list)
    last_update: dict[str, Any] | None = None

    def sprints_json(self) -> list[dict[str, Any]]:
        return [entry.to_json() for entry in self.sprints]

    def reactions_json(self) -> list[dict[str, Any]]:
        return [reaction_json(s.initials, s.ms, s.date) for s in self.reactions]


def last_update(store: Store) -> dict[str, Any] | None:
    """The cabinet's last update or rollback, whichever the store stamped later (its (boot, seq),
    not the wall clock): {"kind": "update", "from", "to", "outcome", "detail", "wall"} or
    {"kind": "rollback", "from", "to", "reason", "wall"}; None when it has neither (or a store whose
    tables are not these: read what exists, never fail for it)."""
    found: list[tuple[int, int, dict[str, Any]]] = []
    with contextlib.suppress(sqlite3.Error, ValueError, TypeError):
        for boot, seq, wall, old, new, outcome, detail in store.rows(
                "SELECT boot, seq, wall, from_version, to_version, outcome, detail FROM updates "
                "ORDER BY boot DESC, seq DESC LIMIT 1"):
            found.append((int(boot), int(seq), {"kind": "update", "from": str(old), "to": str(new),
                                                "outcome": str(outcome), "detail": str(detail or ""),
                                                "wall": float(wall)}))
    with contextlib.suppress(sqlite3.Error, ValueError, TypeError):
        for boot, seq, wall, old, new, reason in store.rows(
                "SELECT boot, seq, wall, from_version, to_version, reason FROM rollbacks "
                "ORDER BY boot DESC, seq DESC LIMIT 1"):
            found.append((int(boot), int(seq), {"kind": "rollback", "from": str(old), "to": str(new),
                                                "reason": str(reason), "wall": float(wall)}))
    return max(found, key=lambda f: (f[0], f[1]))[2] if found else None


def read(state: Path) -> Figures:
    """The cabinet's figures in its state directory (where config.toml and the store are)."""
    path = state / FILE
    if not path.exists():
        return Figures()
    error: sqlite3.Error | OSError | ValueError | TypeError | KeyError | None = None
    for _ in range(TRIES):
        at_rest = None if _beside(path) else _identity(path)
        try:
            figures = _read(path, immutable=at_rest is not None)
        except sqlite3.OperationalError as found:  # (no -shm and none may be made: at rest now, read so)
            error = found
            continue
        except (sqlite3.Error, ValueError, TypeError, KeyError) as found:  # damaged, or not the game's store
            error = found
            break
        if at_rest is None or (not _beside(path) and _identity(path) == at_rest):
            return figures
    return Figures(faults=[f"the books unreadable ({path.name}: {error or 'it changed at every read'})"])


TRIES = 3  # reads of a store that was at rest and changed under the read (the game opened it), or then came to rest


def _beside(path: Path) -> bool:
    """Whether SQLite's WAL or wal-index files are beside the store (a connection has it, or had it
    when the game was killed): then `mode=ro` reads it, through them."""
    return any(path.with_name(path.name + suffix).exists() for suffix in ("-wal", "-shm"))


def _identity(path: Path) -> tuple[int, int, int, int] | None:
    with contextlib.suppress(OSError):
        found = path.stat()
        return found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns
    return None


def _read(path: Path, immutable: bool) -> Figures:
    """The figures, read through a read-only connection (`immutable`: the file alone, at rest)."""
    target = f"file:{path}?mode=ro" + ("&immutable=1" if immutable else "")
    connection = sqlite3.connect(target, uri=True, timeout=5.0, check_same_thread=False)
    store = Store(path, connection, read_only=True)
    try:
        sprints = [high_scores.Entry(s.initials, s.ms, s.team, s.runner, s.date)
                   for s in store.high_scores("sprint", SPRINTS)]
        faults = [str(found["words"]) for found in books.switch_health(store)]
        return Figures(books.totals(store), books.totals(store, since_reset=True), books.cleared(store), sprints,
                       faults, store.high_scores("reaction", REACTIONS), last_update(store))
    finally:
        store.close()
