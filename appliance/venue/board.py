"""The venue's board: every cabinet's best sprints and fastest reactions, as the uplink received them.

The uplink writes it (`BoardFile`) into its own SQLite file on the state partition
(/var/lib/spit-arcade/venue/board.sqlite, beside the settings' directory as `venue/board.sqlite`);
the game only reads it (`read_board`: opened read-only, never raises, empty when there is none).
It also counts what the uplink refused (malformed, oversized, foreign messages), by reason.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appliance import high_scores

FILE = "board.sqlite"
SIZE = 10  # places on the venue's board

SCHEMA = """
CREATE TABLE IF NOT EXISTS sprints (
    cabinet TEXT NOT NULL, place INTEGER NOT NULL, initials TEXT NOT NULL, sprint_ms REAL NOT NULL,
    date TEXT NOT NULL, PRIMARY KEY (cabinet, place));
CREATE TABLE IF NOT EXISTS reactions (
    cabinet TEXT NOT NULL, place INTEGER NOT NULL, initials TEXT NOT NULL, reaction_ms REAL NOT NULL,
    date TEXT NOT NULL, PRIMARY KEY (cabinet, place));
CREATE TABLE IF NOT EXISTS cabinets (cabinet TEXT PRIMARY KEY, boot INTEGER, seq INTEGER, received REAL);
CREATE TABLE IF NOT EXISTS refused (reason TEXT PRIMARY KEY, count INTEGER NOT NULL);
"""


def board_path(config_path: Path) -> Path:
    """Where the board is for a settings file: `venue/board.sqlite` beside it."""
    return config_path.parent / "venue" / FILE


@dataclass(frozen=True)
class Place:
    initials: str
    sprint_ms: float
    cabinet: str


@dataclass(frozen=True)
class Reaction:
    initials: str
    reaction_ms: float
    cabinet: str


MAX_REACTION_MS = 60_000.0  # a reaction slower than a minute is no record: refused as nonsense


def reaction_json(initials: str, ms: float, date: str) -> dict[str, Any]:
    """A fastest reaction as a board message carries it (`fastest_reactions`)."""
    return {"initials": initials, "reaction_ms": round(ms, 1), "date": date}


def _reaction(row: Any) -> tuple[str, float, str] | None:
    """(initials, ms, date) of a `fastest_reactions` row; None for one that is not."""
    if not isinstance(row, dict):
        return None
    initials, ms, date = row.get("initials"), row.get("reaction_ms"), row.get("date", "")
    if not isinstance(initials, str) or isinstance(ms, bool) or not isinstance(ms, int | float):
        return None
    if not 0 < float(ms) <= MAX_REACTION_MS:
        return None
    return high_scores.clean_initials(initials), round(float(ms), 1), date if isinstance(date, str) else ""


class BoardFile:
    """The uplink's side: the one writer."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=DELETE")  # a reader needs no write access (no -shm file)
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def take(self, cabinet: str, boot: int, seq: int, body: dict[str, Any]) -> int:
        """A cabinet's board (its whole table, replacing the last one); the entries kept."""
        return self.write([(cabinet, boot, seq, body)], {})[0]

    def refuse(self, reason: str) -> None:
        self.write([], {reason: 1})

    def write(self, boards: list[tuple[str, int, int, dict[str, Any]]], refusals: dict[str, int]) -> list[int]:
        """Boards (cabinet, boot, seq, body; each replacing that cabinet's last) and refusals (reason ->
        how many more), in one transaction: a reader sees each cabinet's old table or its new one,
        never none, and a burst of messages costs one commit (each is a sync to the card), not one
        each. The entries kept of each board."""
        kept: list[int] = []
        self.db.execute("BEGIN IMMEDIATE")  # (isolation_level None: without it, each statement commits)
        try:
            for cabinet, boot, seq, body in boards:
                kept.append(self._replace(cabinet, boot, seq, body))
            for reason, count in refusals.items():
                self.db.execute("INSERT INTO refused VALUES (?, ?) "
                                "ON CONFLICT (reason) DO UPDATE SET count = count + excluded.count", (reason, count))
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
        return kept

    def _replace(self, cabinet: str, boot: int, seq: int, body: dict[str, Any]) -> int:
        rows = body.get("fastest_sprints")
        entries = [e for e in (high_scores.Entry.from_json(r) for r in rows) if e is not None] \
            if isinstance(rows, list) else []
        entries = sorted(entries, key=lambda e: e.sprint_ms)[:SIZE]
        found = body.get("fastest_reactions")  # (a board from a version before reactions: none)
        reactions = sorted((r for r in (_reaction(x) for x in found) if r is not None),
                           key=lambda r: r[1])[:SIZE] if isinstance(found, list) else []
        self.db.execute("DELETE FROM sprints WHERE cabinet = ?", (cabinet,))
        self.db.executemany("INSERT INTO sprints VALUES (?, ?, ?, ?, ?)",
                            [(cabinet, n, e.initials, e.sprint_ms, e.date) for n, e in enumerate(entries)])
        self.db.execute("DELETE FROM reactions WHERE cabinet = ?", (cabinet,))
        self.db.executemany("INSERT INTO reactions VALUES (?, ?, ?, ?, ?)",
                            [(cabinet, n, i, ms, d) for n, (i, ms, d) in enumerate(reactions)])
        self.db.execute("INSERT OR REPLACE INTO cabinets VALUES (?, ?, ?, ?)", (cabinet, boot, seq, time.time()))
        return len(entries)

    def refused(self) -> dict[str, int]:
        return {str(r): int(n) for r, n in self.db.execute("SELECT reason, count FROM refused ORDER BY reason")}


def _best(path: Path, table: str, ms: str, size: int) -> list[tuple[str, float, str]]:
    """The board's `table`, fastest `ms` first (equal times: the cabinet's name decides), as
    (initials, ms, cabinet); [] when there is no board, it cannot be read, or it has no such table."""
    if not path.exists():
        return []
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.2)) as db:
            rows = db.execute(f"SELECT initials, {ms}, cabinet FROM {table} ORDER BY {ms}, cabinet, place "
                              "LIMIT ?", (size,)).fetchall()
    except sqlite3.Error:
        return []
    return [(str(i), float(t), str(c)) for i, t, c in rows]


def read_board(path: Path, size: int = SIZE) -> list[Place]:
    """The venue's best sprints, fastest first (equal times: the cabinet's name decides); [] when
    there is no board or it cannot be read."""
    return [Place(*row) for row in _best(path, "sprints", "sprint_ms", size)]


def read_reactions(path: Path, size: int = SIZE) -> list[Reaction]:
    """The venue's fastest reactions, fastest first (as read_board: [] when none or unreadable, a
    board written before reactions were published too)."""
    return [Reaction(*row) for row in _best(path, "reactions", "reaction_ms", size)]
