"""Running Spit's high-score table: the fastest sprints, each with three initials (the arcade way).

The table is kept in the operator's store (appliance/operator/: `Office.high_scores`, `add_score`);
`HighScores` places an entry, and `load` reads the release before's `high_scores.json` once when the
store takes it in (appliance/operator/migrate.py). What follows describes that file.

Kept in a small JSON file beside the settings (`high_scores.json` in the settings' directory: on the
cabinet /var/lib/spit-arcade/), written atomically (a temporary file, synced, renamed), so a power
cut leaves the old table or the new one. A table that is missing or unreadable is an empty one, and
a bad entry in it is left out: the table never stops a game. At most `SIZE` entries, fastest first;
equal times keep the one set first on top.

    table = load(path)
    if table.qualifies(4210.0):
        table.add(Entry("ANN", 4210.0, team=1, runner=0, date="2026-11-22"))
        save(path, table)
"""

from __future__ import annotations

import json
import string
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FILE = "high_scores.json"
SIZE = 10
LETTERS = string.ascii_uppercase + " "  # what an initial can be: the arcade's letters and a space
MAX_MS = 3_600_000.0  # an hour: anything slower is not a sprint


def high_scores_path(config_path: Path) -> Path:
    """Where the table is kept for a settings file: `high_scores.json` beside it."""
    return config_path.parent / FILE


def clean_initials(text: str) -> str:
    """Three initials: upper case, letters and spaces only, padded or cut to three."""
    kept = "".join(c for c in text.upper() if c in LETTERS)
    return (kept + "   ")[:3]


@dataclass(frozen=True)
class Entry:
    initials: str
    sprint_ms: float
    team: int = 0  # the seat the runner ran for (0: unknown)
    runner: int = 0  # which of the team's runners (0-based)
    date: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"initials": self.initials, "sprint_ms": self.sprint_ms, "team": self.team,
                "runner": self.runner, "date": self.date}

    @classmethod
    def from_json(cls, data: Any) -> Entry | None:
        if not isinstance(data, dict):
            return None
        initials, ms = data.get("initials"), data.get("sprint_ms")
        if not isinstance(initials, str) or isinstance(ms, bool) or not isinstance(ms, int | float):
            return None
        if not 0 < float(ms) <= MAX_MS:
            return None
        team, runner, date = data.get("team", 0), data.get("runner", 0), data.get("date", "")
        return cls(
            clean_initials(initials),
            round(float(ms), 1),
            team if isinstance(team, int) and not isinstance(team, bool) and 0 <= team <= 4 else 0,
            runner if isinstance(runner, int) and not isinstance(runner, bool) and 0 <= runner < 4 else 0,
            date if isinstance(date, str) else "",
        )


def clean(entry: Entry) -> Entry:
    """An entry as the table keeps it: three initials, the time to a tenth of a ms, today's date if none."""
    return Entry(clean_initials(entry.initials), round(entry.sprint_ms, 1), entry.team, entry.runner,
                 entry.date or time.strftime("%Y-%m-%d"))


@dataclass
class HighScores:
    entries: list[Entry] = field(default_factory=list)  # fastest first, at most SIZE

    def qualifies(self, sprint_ms: float | None) -> bool:
        """Whether a sprint this fast gets onto the table."""
        if sprint_ms is None or not 0 < sprint_ms <= MAX_MS:
            return False
        return len(self.entries) < SIZE or sprint_ms < self.entries[-1].sprint_ms

    def place(self, sprint_ms: float) -> int | None:
        """The place (1-based) a sprint this fast would take, or None if it does not qualify."""
        if not self.qualifies(sprint_ms):
            return None
        return 1 + sum(1 for e in self.entries if e.sprint_ms <= sprint_ms)

    def add(self, entry: Entry) -> int | None:
        """Put `entry` in its place; the place it took (1-based), or None if it is not fast enough."""
        place = self.place(entry.sprint_ms)
        if place is None:
            return None
        self.entries.insert(place - 1, clean(entry))
        del self.entries[SIZE:]
        return place

    def to_json(self) -> dict[str, Any]:
        return {"fastest_sprints": [e.to_json() for e in self.entries]}

    @classmethod
    def from_json(cls, data: Any) -> HighScores:
        table = cls()
        rows = data.get("fastest_sprints") if isinstance(data, dict) else None
        if isinstance(rows, list):
            entries = [e for e in (Entry.from_json(row) for row in rows) if e is not None]
            table.entries = sorted(entries, key=lambda e: e.sprint_ms)[:SIZE]  # stable: first set stays on top
        return table


def load(path: Path) -> HighScores:
    """The table in `path`; an empty one if it is missing or unreadable (never raises)."""
    try:
        return HighScores.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, RecursionError):
        return HighScores()


def save(path: Path, table: HighScores) -> str | None:
    """Write the table atomically; None, or why it could not be written."""
    from appliance.shared.files import write_atomically

    try:
        write_atomically(path, json.dumps(table.to_json(), indent=1, ensure_ascii=False) + "\n")
    except OSError as error:
        return str(error)
    return None
