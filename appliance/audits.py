"""The operator's audits: what the cabinet has played, as pinball and arcade machines count it.

Kept in a small JSON file beside the settings (`audits/audits.json` in the settings' directory: on
the cabinet /var/lib/spit-arcade/audits/), written atomically (a temporary file, synced, renamed).
Two sets of totals: `lifetime` is never reset; `since` is reset from the service menu, and
`cleared` says when (a date).

The figures come from the journals, the cabinet's one record of every game: `update_from_journals`
reads each game closed since it last looked (by name: journal names sort by start time) and counts
it, so a game is counted whichever way it ended, and a crash or a power cut loses no count. The
game still going on (the newest unfinished journal) is left for next time. Counted per game:

- games, and games per variant; finished and abandoned (left at the title, or by nobody playing);
- play time (the game's own clock at its end), hence the average game length;
- races decided: two players pressing for the same pile, the loser told "too late" (a `reject`
  event with reason `too_late`), and by how many milliseconds (`by_ms`), in MARGIN_BUCKETS.

Coins come from the coin box's own file (appliance/credits.py), which counts every coin it has taken:
`count_coins` adds those it has not counted yet (it keeps the box's name and count it got to, as it
keeps the last journal), so a coin is counted once, a crash between the two files counts it later,
and a new box (its file lost or junk) is counted from its first coin.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FILE = "audits.json"
LOCK = threading.Lock()  # one writer of the file at a time: the start's count and the service menu
STEP = 16  # journals counted while the lock is held (a frame of the service menu waits at most this)
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


def save_audits(path: Path, audits: Audits) -> str | None:
    """Write the audits atomically; None, or why they could not be written."""
    from appliance.shared.files import write_atomically

    try:
        write_atomically(path, json.dumps(audits.to_json(), indent=1, sort_keys=True) + "\n")
    except OSError as error:
        return str(error)
    return None


def count_coins(audits: Audits, box: str, coins: int) -> int:
    """Count the coins the box `box` has taken since the audits last looked (`coins`: every coin it
    has taken); the number counted. Another box (a new credits file) is counted from its start."""
    if box != audits.coin_box:
        audits.coin_box, audits.coins_through = box, 0
    new = max(0, coins - audits.coins_through)
    audits.add_coins(new)
    audits.coins_through = max(audits.coins_through, coins)
    return new


def game_figures(path: Path) -> GameFigures | None:
    """A closed journal's figures (None if it can't be read or replayed: not counted)."""
    from appliance.journal import read_journal
    from appliance.scripting import parse_script, run

    try:
        lines, _ = read_journal(path)
        script = parse_script(lines)
        events, game = run(script)
    except Exception:  # a journal of another version, a bad line: not a game to count
        return None
    closing = json.loads(lines[-1]) if lines else {}
    abandoned = bool(isinstance(closing, dict) and closing.get("abandoned"))
    margins: list[float] = []
    for event in events:
        data = event.to_json() if hasattr(event, "to_json") else {}
        if data.get("event") == "reject" and data.get("reason") == "too_late" and data.get("by_ms") is not None:
            margins.append(float(data["by_ms"]))
    variant = str(script.setup.get("variant", "classic"))
    sprints: list[float] = []
    rules = getattr(game, "rules", None)
    if rules is not None and rules.moves.carry:  # Running Spit: each runner's sprints
        from appliance.running_stats import runner_figures

        for figures in runner_figures(events, rules.options.runners).values():
            sprints += figures.sprints
    return GameFigures(variant, round(float(game.now), 3), abandoned, margins, sprints)


def update_from_journals(audits: Audits, directory: Path | None) -> int:
    """Count every game closed in `directory` since the audits last looked; the number counted."""
    return update_some(audits, directory, None)[0]


def update_some(audits: Audits, directory: Path | None, limit: int | None) -> tuple[int, bool]:
    """Count the games closed in `directory` since the audits last looked, at most `limit` journals
    read (None: all); (the number counted, whether every one is counted now). A journal left
    unfinished that is not the newest one (a game that was never resumed) is passed over; the
    newest unfinished one is a game still going on: counting stops before it."""
    from appliance.journal import is_finished, journals, newest_unfinished

    if directory is None:
        return 0, True
    current = newest_unfinished(directory)
    counted = read = 0
    for path in sorted(journals(directory), key=lambda p: p.name):
        if path.name <= audits.through:
            continue
        if path == current:
            break
        if limit is not None and read >= limit:
            return counted, False
        read += 1
        try:
            finished = is_finished(path)
        except OSError:
            finished = False
        if finished:
            figures = game_figures(path)
            if figures is not None:
                audits.add(figures)
                counted += 1
        audits.through = path.name
    return counted, True


def refresh(path: Path, directory: Path | None, step: int = STEP) -> int:
    """Count every game closed since the audits file last looked, and save it: a few journals at a
    time, each step under LOCK on a fresh read of the file (so a reset made meanwhile is kept).
    The number of games counted."""
    total = 0
    while True:
        with LOCK:
            audits = load_audits(path)
            before = audits.through
            counted, done = update_some(audits, directory, step)
            if audits.through != before:
                failed = save_audits(path, audits)
                if failed:
                    raise OSError(failed)
        total += counted
        if done:
            return total


def refresh_in_background(path: Path, directory: Path | None) -> threading.Thread:
    """`refresh` on a thread of its own (the start: thousands of old games never delay a frame)."""

    def quietly() -> None:
        try:
            refresh(path, directory)
        except Exception as error:  # housekeeping: it never stops a game
            import sys

            print(f"spit-arcade: the audits were not updated ({error})", file=sys.stderr)

    thread = threading.Thread(target=quietly, name="audits", daemon=True)
    thread.start()
    return thread
