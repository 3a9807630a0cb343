"""The first start of the store: the files the release before kept, moved into it once.

`credits.json` (the credits and the coin box's count), `audits/audits.json` (the lifetime and
resettable totals) and `high_scores.json` (Running Spit's fastest sprints) are read with the release's
own readers, written into the store in one transaction, and then renamed `NAME.moved-to-store` (kept,
never deleted). The store remembers each file it took (`meta`), so a power cut between the
transaction and the renaming never counts one twice. Coins the coin box took that the audits had not
counted yet (a crash between the two files) are counted here, once.

A file that cannot be read as what it should be is renamed `NAME.damaged-N` (never overwritten) and
said; the cabinet starts with what the others held.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from .store import Store, set_aside

MOVED = ".moved-to-store"


def _read(path: Path) -> Any:
    """The JSON in `path`; None if it is missing. ValueError if it is there but not readable JSON."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise ValueError(str(error)) from error
    try:
        return json.loads(text)
    except RecursionError as error:
        raise ValueError("nested too deeply") from error


def migrate_files(store: Store, directory: Path) -> list[str]:
    """Move the release before's files in `directory` into `store`; what was said (a damaged file)."""
    from appliance import audits as old_audits
    from appliance import credits as old_credits
    from appliance import high_scores as old_scores

    said: list[str] = []
    files = {"credits": directory / old_credits.FILE, "audits": old_audits.audits_path(directory / "x"),
             "high_scores": directory / old_scores.FILE}
    found: dict[str, Any] = {}
    for name, path in files.items():
        if store.get_meta(f"migrated {name}") is not None:
            if path.exists():  # taken in before a power cut cut the renaming: only renamed now
                _move(path)
            continue
        problem: str | None = None
        try:
            data = _read(path)
        except ValueError as error:
            data, problem = None, str(error)
        if data is not None and not _valid(name, data):
            problem = "not what the release wrote (torn or edited?)"
        if problem is not None:
            aside = set_aside(path)
            said.append(f"{path}: {problem}; kept as {aside.name if aside else path.name}, not moved into the store")
            continue
        if data is not None:
            found[name] = data
    if not found:
        return said
    bank = old_credits.CreditBank.load(None)
    if "credits" in found:
        bank.credits = min(int(found["credits"]["credits"]), old_credits.MAX_CREDITS)
        bank.coins, bank.box = int(found["credits"]["coins"]), str(found["credits"]["box"] or "")
    audits = old_audits.Audits.from_json(found.get("audits"))
    if "credits" in found:
        old_audits.count_coins(audits, bank.box, bank.coins)  # the coins the audits had not counted yet
    table = old_scores.HighScores.from_json(found.get("high_scores"))
    with store.transaction() as db:
        if "credits" in found:
            db.execute("UPDATE credits SET credits = ? WHERE id = 1", (bank.credits,))
        if "audits" in found or "credits" in found:
            for scope, totals in (("lifetime", audits.lifetime), ("since", audits.since)):
                db.execute("INSERT OR REPLACE INTO carried VALUES (?, ?)", (scope, json.dumps(totals.to_json())))
            if audits.cleared:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('audits cleared', ?)", (audits.cleared,))
        for n, entry in enumerate(table.entries):
            db.execute("INSERT INTO high_scores (boot, seq, wall, kind, initials, ms, team, runner, date)"
                       " VALUES (0, ?, 0, 'sprint', ?, ?, ?, ?, ?)",
                       (n + 1, entry.initials, entry.sprint_ms, entry.team, entry.runner, entry.date))
        for name in found:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"migrated {name}", str(files[name])))
    for name in found:
        _move(files[name])
    return said


def _valid(name: str, data: Any) -> bool:
    if not isinstance(data, dict):
        return False
    if name == "credits":
        return all(isinstance(data.get(k), int) and not isinstance(data.get(k), bool) and data[k] >= 0
                   for k in ("credits", "coins")) and isinstance(data.get("box"), str)
    if name == "audits":
        return isinstance(data.get("lifetime"), dict)
    return isinstance(data.get("fastest_sprints"), list)


def _move(path: Path) -> None:
    with contextlib.suppress(OSError):
        target = path.with_name(path.name + MOVED)
        n = 1
        while target.exists():
            n += 1
            target = path.with_name(f"{path.name}{MOVED}-{n}")
        path.rename(target)
