"""The operator's audits as pinball and arcade machines count them: the totals, and the release before's
audits file, read once when the store takes it in (appliance/operator/migrate.py).

The audits themselves are kept in the operator's store (appliance/operator/store.py: a row a game
and a row a coin, counted as they happen) and added up by appliance/operator/books.py into `Totals`:
two sets, `lifetime` (never reset) and since the last reset from the service menu. Counted per game:

- games, and games per variant; finished and abandoned (left at the title, or by nobody playing);
- play time (the game's own clock at its end), hence the average game length;
- races decided: two players pressing for the same pile, the loser told "too late" (a `reject`
  event with reason `too_late`), and by how many milliseconds (`by_ms`), in MARGIN_BUCKETS;
- Running Spit's sprints (fastest and average); coins.

The release before kept them in `audits/audits.json` beside the settings, the coins counted from the
coin box's file (`count_coins`: a coin once, a new box from its first coin); `load_audits` reads it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FILE = "audits.json"
MARGIN_BUCKETS = (10, 25, 50, 100, 250)  # ms: races won by under 10 ms, under 25 ms, ...; then "250+"


def audits_path(config_path: Path) -> Path:
    """Where the audits are kept for a settings file: `audits/audits.json` beside it."""
    return config_path.parent / "audits" / FILE


def bucket(by_ms: float) -> str:
    for edge in MARGIN_BUCKETS:
        if by_ms < edge:
            return f"<{edge}"
    return f"{MARGIN_BUCKETS[-1]}+"


@dataclass
class Totals:
    games: int = 0
    finished: int = 0
    abandoned: int = 0
    play_s: float = 0.0
    variants: dict[str, int] = field(default_factory=dict)
    races: int = 0
    race_margin_ms: float = 0.0  # the margins summed (their mean: race_margin_ms / races)
    margins: dict[str, int] = field(default_factory=dict)  # MARGIN_BUCKETS -> races
    sprints: int = 0  # Running Spit: runs from the stock to a pad with a card
    sprint_ms: float = 0.0  # their times summed (their mean: sprint_ms / sprints)
    fastest_sprint_ms: float = 0.0  # 0: none yet
    coins: int = 0  # coins in the coin input (credited or not: the money in the box)

    @property
    def average_game_s(self) -> float:
        return self.play_s / self.games if self.games else 0.0

    @property
    def average_margin_ms(self) -> float:
        return self.race_margin_ms / self.races if self.races else 0.0

    def add(self, game: GameFigures) -> None:
        self.games += 1
        self.finished += not game.abandoned
        self.abandoned += game.abandoned
        self.play_s = round(self.play_s + game.play_s, 3)
        self.variants[game.variant] = self.variants.get(game.variant, 0) + 1
        for margin in game.margins_ms:
            self.races += 1
            self.race_margin_ms = round(self.race_margin_ms + margin, 3)
            key = bucket(margin)
            self.margins[key] = self.margins.get(key, 0) + 1
        for sprint in game.sprints_ms:
            self.sprints += 1
            self.sprint_ms = round(self.sprint_ms + sprint, 3)
            if not self.fastest_sprint_ms or sprint < self.fastest_sprint_ms:
                self.fastest_sprint_ms = sprint

    @property
    def average_sprint_ms(self) -> float:
        return self.sprint_ms / self.sprints if self.sprints else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games, "finished": self.finished, "abandoned": self.abandoned, "play_s": self.play_s,
            "variants": dict(self.variants), "races": self.races, "race_margin_ms": self.race_margin_ms,
            "margins": dict(self.margins), "sprints": self.sprints, "sprint_ms": self.sprint_ms,
            "fastest_sprint_ms": self.fastest_sprint_ms, "coins": self.coins,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: Any) -> Totals:
        if not isinstance(data, dict):
            return cls()
        totals = cls()
        for name in ("games", "finished", "abandoned", "races", "sprints", "coins"):
            value = data.get(name)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                setattr(totals, name, value)
        for name in ("play_s", "race_margin_ms", "sprint_ms", "fastest_sprint_ms"):
            value = data.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
                setattr(totals, name, float(value))
        for name in ("variants", "margins"):
            value = data.get(name)
            if isinstance(value, dict):
                setattr(totals, name, {str(k): v for k, v in value.items() if isinstance(v, int) and v >= 0})
        return totals


@dataclass
class GameFigures:
    """One game's contribution to the audits."""

    variant: str
    play_s: float
    abandoned: bool
    margins_ms: list[float]
    sprints_ms: list[float] = field(default_factory=list)  # Running Spit: every sprint of the game


@dataclass
class Audits:
    lifetime: Totals = field(default_factory=Totals)  # never reset
    since: Totals = field(default_factory=Totals)  # since `cleared`
    cleared: str | None = None  # the date the resettable totals were last cleared (None: never)
    through: str = ""  # the last journal counted (journal names sort by start time)
    coin_box: str = ""  # the coin box counted from (credits.json's `box`), and how far
    coins_through: int = 0

    def add(self, game: GameFigures) -> None:
        self.lifetime.add(game)
        self.since.add(game)

    def add_coins(self, coins: int) -> None:
        self.lifetime.coins += coins
        self.since.coins += coins

    def reset(self, today: str | None = None) -> None:
        """Clear the resettable totals (the lifetime ones stay), noting the date."""
        self.since = Totals()
        self.cleared = today or time.strftime("%Y-%m-%d")

    def to_json(self) -> dict[str, Any]:
        return {
            "lifetime": self.lifetime.to_json(),
            "since": self.since.to_json(),
            "cleared": self.cleared,
            "through": self.through,
            "coin_box": self.coin_box,
            "coins_through": self.coins_through,
        }

    @classmethod
    def from_json(cls, data: Any) -> Audits:
        if not isinstance(data, dict):
            return cls()
        cleared = data.get("cleared")
        through = data.get("through")
        box = data.get("coin_box")
        coins = data.get("coins_through")
        return cls(
            Totals.from_json(data.get("lifetime")),
            Totals.from_json(data.get("since")),
            cleared if isinstance(cleared, str) else None,
            through if isinstance(through, str) else "",
            box if isinstance(box, str) else "",
            coins if isinstance(coins, int) and not isinstance(coins, bool) and coins >= 0 else 0,
        )


def load_audits(path: Path) -> Audits:
    """The audits in `path`; empty ones if it is missing or unreadable (never raises)."""
    try:
        return Audits.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, RecursionError):
        return Audits()


def count_coins(audits: Audits, box: str, coins: int) -> int:
    """Count the coins the box `box` has taken since the audits last looked (`coins`: every coin it
    has taken); the number counted. Another box (a new credits file) is counted from its start."""
    if box != audits.coin_box:
        audits.coin_box, audits.coins_through = box, 0
    new = max(0, coins - audits.coins_through)
    audits.add_coins(new)
    audits.coins_through = max(audits.coins_through, coins)
    return new
