"""What the uplink reads of the cabinet: the operator's store, read only, the one reader of it here.

The game keeps its books in one SQLite file on the state partition (appliance/operator/store.py,
`store.sqlite` beside `config.toml`); the uplink's unit may only read the state, so this opens the
store read-only (`mode=ro`: WAL readers need the `-shm` the running game keeps) and never changes
it. It never raises: a store missing is nothing played yet; one unreadable is empty figures and a
fault.

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
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5.0, check_same_thread=False)
    except sqlite3.Error as error:
        return Figures(faults=[f"the books unreadable ({path.name}: {error})"])
    store = Store(path, connection, read_only=True)
    try:
        sprints = [high_scores.Entry(s.initials, s.ms, s.team, s.runner, s.date)
                   for s in store.high_scores("sprint", SPRINTS)]
        faults = [str(found["words"]) for found in books.switch_health(store)]
        return Figures(books.totals(store), books.totals(store, since_reset=True), books.cleared(store), sprints,
                       faults, store.high_scores("reaction", REACTIONS), last_update(store))
    except (sqlite3.Error, ValueError, TypeError, KeyError) as error:  # damaged, or not the game's store
        return Figures(faults=[f"the books unreadable ({path.name}: {error})"])
    finally:
        store.close()
