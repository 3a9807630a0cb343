"""What the uplink reads of the cabinet: the one reader of the game's own files.

Today the game keeps its figures in small JSON files on the state partition (appliance/audits.py:
`audits/audits.json`; appliance/credits.py: `credits.json`, the coins the box has taken, which the
audits count now and then; appliance/high_scores.py: `high_scores.json`); when the operator's store
lands, this module is the one to point at it. It only reads (the uplink's unit cannot write the
game's state), and never raises: a file missing or unreadable is an empty figure and a fault.

    figures = read(Path("/var/lib/spit-arcade"))
    figures.lifetime   # audits.Totals: coins, games, games per variant, sprints, ...
    figures.sprints    # the cabinet's fastest sprints, as high_scores.Entry
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from appliance import audits, credits, high_scores


@dataclass
class Figures:
    lifetime: audits.Totals = field(default_factory=audits.Totals)
    since: audits.Totals = field(default_factory=audits.Totals)
    cleared: str | None = None
    sprints: list[high_scores.Entry] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)  # what the cabinet itself finds wrong, in words

    def sprints_json(self) -> list[dict[str, Any]]:
        return [entry.to_json() for entry in self.sprints]


def _readable(path: Path, what: str, faults: list[str]) -> None:
    """A fault when `path` exists but is not a JSON object (the game then starts its file afresh)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError, RecursionError) as error:
        faults.append(f"{what} unreadable ({path.name}: {error})")
        return
    if not isinstance(data, dict):
        faults.append(f"{what} unreadable ({path.name}: not what the game writes)")


def _count_new_coins(book: audits.Audits, path: Path, faults: list[str]) -> None:
    """Add the coins the coin box has taken since the audits last counted (the game counts them into
    its audits file now and then; the money is in the box at once), in memory only."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError, RecursionError) as error:
        faults.append(f"the coin box unreadable ({path.name}: {error})")
        return
    box, coins = (data.get("box"), data.get("coins")) if isinstance(data, dict) else (None, None)
    if isinstance(box, str) and isinstance(coins, int) and not isinstance(coins, bool) and coins >= 0:
        audits.count_coins(book, box, coins)


def read(state: Path) -> Figures:
    """The cabinet's figures in its state directory (where config.toml is)."""
    config = state / "config.toml"
    faults: list[str] = []
    audits_file = audits.audits_path(config)
    scores_file = high_scores.high_scores_path(config)
    _readable(audits_file, "the audits", faults)
    _readable(scores_file, "the high scores", faults)
    book = audits.load_audits(audits_file)
    _count_new_coins(book, credits.credits_path(config), faults)
    table = high_scores.load(scores_file)
    return Figures(book.lifetime, book.since, book.cleared, list(table.entries), faults)
