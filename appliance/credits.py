"""The release before's coin box (`credits.json`): read once when the operator's store takes it in
(appliance/operator/migrate.py). The cabinet's credits are kept in the store now
(appliance/operator/office.py); what follows describes the file as that release wrote it.

    bank = CreditBank.load(credits_path(config_path))   # never raises: see `problem`
    bank.coin()         # one debounced coin (the inputs' `coin` press): a credit more, saved at once
    bank.pay(cost)      # a game starts: takes `cost` credits (False, and nothing taken, if too few)

A coin is the `coin` control's pressed edge, debounced by the inputs layer (appliance/inputs/debounce.py:
a lockout, and a held or stuck switch is one press). Credits stop at MAX_CREDITS (99, the arcade's
two digits): a coin beyond that is still counted (the money is in the box) but adds no credit.

Kept in `credits.json` beside the settings file (/var/lib/spit-arcade/credits.json on the cabinet),
written atomically at every coin and every game paid for (shared/files.write_atomically: a temporary file,
synced, renamed over it), so a power cut leaves the credits before or after, never half a file. A game
is paid for in the players-choosing scene when it starts; a game resumed after a crash is not started
there, so it is never paid for twice.

The file also counts every coin it has taken (`coins`) and has a name of its own (`box`, made when the
file is new): the audits count coins from these (audits.count_coins), so a coin costs one write on the
game's thread and never waits for the audits. A file that is not what we wrote (torn, junk, edited)
reads as 0 credits and a new box; `problem` says what was wrong, and nothing raises.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FILE = "credits.json"
MAX_CREDITS = 99


def credits_path(config_path: Path) -> Path:
    """Where the credits are kept for a settings file: `credits.json` beside it."""
    return config_path.parent / FILE


def new_box() -> str:
    return secrets.token_hex(4)


def _count(data: dict[str, Any], key: str, high: int | None) -> int | None:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (high is not None and value > high):
        return None
    return value


def _writer(path: Path, text: str) -> None:
    from appliance.shared.files import write_atomically

    write_atomically(path, text)


@dataclass
class CreditBank:
    path: Path | None = None  # None: kept for this run only (no settings file: tests, a bare desktop)
    credits: int = 0
    coins: int = 0  # every coin this box has taken, credited or not (the audits count from it)
    box: str = ""  # this file's name (a new file, or one read as junk, is a new box)
    problem: str | None = None  # what was wrong with the file when it was read
    unsaved: str | None = None  # why the last change could not be written (it holds for this run)
    cap: int = MAX_CREDITS
    write: Callable[[Path, str], None] = _writer

    def __post_init__(self) -> None:
        if not self.box:
            self.box = new_box()

    @classmethod
    def load(cls, path: Path | None, write: Callable[[Path, str], None] = _writer) -> CreditBank:
        """The credits in `path`: 0 and a new box if it is missing; 0, a new box and `problem` if it
        can't be read or isn't what we write. Never raises."""
        bank = cls(path, write=write)
        if path is None:
            return bank
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return bank
        except (OSError, ValueError) as error:  # unreadable, a directory, not UTF-8
            bank.problem = f"{path}: cannot read it ({error}); starting from 0 credits"
            return bank
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        credits = _count(data, "credits", None) if isinstance(data, dict) else None
        coins = _count(data, "coins", None) if isinstance(data, dict) else None
        box = data.get("box") if isinstance(data, dict) else None
        if credits is None or coins is None or not isinstance(box, str) or not box.isalnum():
            bank.problem = f"{path}: not a credits file (torn or edited?); starting from 0 credits"
            return bank
        bank.credits, bank.coins, bank.box = min(credits, bank.cap), coins, box
        return bank

    def to_json(self) -> dict[str, Any]:
        return {"credits": self.credits, "coins": self.coins, "box": self.box}

    def save(self) -> str | None:
        """Write the credits (atomically); None, or why not (then they hold for this run)."""
        if self.path is None:
            return None
        try:
            self.write(self.path, json.dumps(self.to_json(), sort_keys=True) + "\n")
        except (OSError, ValueError) as error:
            self.unsaved = str(error)
            return self.unsaved
        self.unsaved = None
        return None

    @property
    def full(self) -> bool:
        return self.credits >= self.cap

    def coin(self) -> bool:
        """One coin in: a credit more (none past the cap), counted either way, saved. Whether it
        added a credit."""
        self.coins += 1
        added = not self.full
        if added:
            self.credits += 1
        self.save()
        return added

    def enough(self, cost: int) -> bool:
        return self.credits >= cost

    def pay(self, cost: int) -> bool:
        """A game starts: take `cost` credits and save. False (nothing taken) if there are too few."""
        if cost < 0 or not self.enough(cost):
            return False
        self.credits -= cost
        self.save()
        return True
