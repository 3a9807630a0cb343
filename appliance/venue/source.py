"""What the uplink reads of the cabinet: the operator's store, read only, the one reader of it here.

The game keeps its books in one SQLite file on the state partition (appliance/operator/store.py,
`store.sqlite` beside `config.toml`); the uplink's unit may only read the state, so this opens the
store read-only (`mode=ro`: WAL readers need the `-shm` the running game keeps) and never changes
it. It never raises: a store missing is nothing played yet; one unreadable is empty figures and a
fault.

    figures = read(Path("/var/lib/spit-arcade"))
    figures.lifetime   # audits.Totals: coins, games, games per variant, sprints, ...
    figures.sprints    # the cabinet's fastest sprints, as high_scores.Entry
    figures.faults     # e.g. "player 2's SPIT button: not pressed in the last 30 games"
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from appliance import audits, high_scores
from appliance.operator import books
from appliance.operator.store import FILE, Store

SPRINTS = 10  # the cabinet's own best sprints, published for the venue's board


@dataclass
class Figures:
    lifetime: audits.Totals = field(default_factory=audits.Totals)
    since: audits.Totals = field(default_factory=audits.Totals)
    cleared: str | None = None
    sprints: list[high_scores.Entry] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)  # what the cabinet itself finds wrong, in words

    def sprints_json(self) -> list[dict[str, Any]]:
        return [entry.to_json() for entry in self.sprints]


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
                       faults)
    except (sqlite3.Error, ValueError, TypeError, KeyError) as error:  # damaged, or not the game's store
        return Figures(faults=[f"the books unreadable ({path.name}: {error})"])
    finally:
        store.close()
