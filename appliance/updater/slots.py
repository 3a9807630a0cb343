"""The slots as RAUC sees them, and what became of the last update.

    state = read_status(cabinet)        # `rauc status --detailed --output-format=json`, then:
    state["booted"], state["other"], state["last"]

The last update's outcome, from RAUC's slot status (what was installed into each slot, when: kept
in the slot itself, `statusfile=per-slot`) and its boot status (systemd-boot's counted tries, read
by spit-slot-switch):

    none         nothing was ever installed (the slot the card was made with)
    installed    the other slot holds a new version and boots next: restart to use it
    applied      the booted slot was installed last, and it is good
    rolled_back  the other slot was installed last and is bad: its version did not come up and the
                 cabinet went back to this one by itself (`why`: from its loader entry's tries)

The rolled-back slot's boot check (spit-arcade-boot-ok: by default 300 s, 3 failed starts) is in the
words: the bound and starts it used and which of them ran out, as it wrote them on the shared state
partition when it marked the slot bad (`boot_check_record`); the defaults when it wrote nothing.
"""

from __future__ import annotations

import json
import re
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

from .bundles import Cabinet, Run, run_rauc

ENTRIES = Path("/boot/efi/loader/entries")  # systemd-boot's loader entries (spit-a.conf, spit-b+0-3.conf)
BOUND_S = 300  # systemd/image/boot-ok.sh: the game's title within this much of power-on
STARTS = 3  # ... or this many failed starts
BOOT_CHECK = Path("/var/lib/spit-arcade/boot-ok-failed")  # boot-ok.sh's record of the last slot it marked bad
TRIES = re.compile(r"^spit-([a-z])(?:\+(\d+)(?:-(\d+))?)?\.conf$")


def _slots(status: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for each in status.get("slots") or []:
        for name, slot in each.items():
            out.append({"name": name, **slot})
    return out


def _summary(slot: dict[str, Any] | None) -> dict[str, Any] | None:
    if slot is None:
        return None
    status = slot.get("slot_status") or {}
    bundle = status.get("bundle") or {}
    installed = status.get("installed") or {}
    return {
        "slot": slot.get("bootname") or slot.get("name"),
        "boot_status": slot.get("boot_status") or "",
        "version": bundle.get("version"),
        "installed": installed.get("timestamp"),
        "status": status.get("status"),
    }


def tries(bootname: str, entries: Path = ENTRIES) -> int | None:
    """How many boots a bad slot was tried for (its entry `spit-b+0-N.conf`); None when unknown."""
    try:
        names = [path.name for path in entries.iterdir()]
    except OSError:
        return None
    for name in names:
        found = TRIES.match(name)
        if found and found.group(1) == bootname.lower() and found.group(2) == "0" and found.group(3):
            return int(found.group(3))
    return None


def boot_check_record(slot: str, installed: str, path: Path = BOOT_CHECK) -> dict[str, Any] | None:
    """What the boot check wrote when it marked `slot` bad (boot-ok.sh: slot=, bound_s=, starts=,
    failed=bound|starts): {"bound_s", "starts", "failed"}; None when it wrote nothing since that slot
    was installed (`installed`: RAUC's timestamp of it), or nothing readable. (The state partition's
    folder is the game's: only whole numbers and a known word are taken from it.)"""
    try:
        text, written = path.read_text(), path.stat().st_mtime
    except OSError:
        return None
    fields = {key.strip(): value.strip() for key, _, value in (line.partition("=") for line in text.splitlines())}
    if not slot or fields.get("slot", "").upper() != slot.upper():
        return None
    try:
        if installed and written < datetime.fromisoformat(installed.replace("Z", "+00:00")).timestamp():
            return None  # (an earlier installation's record)
        bound_s, starts = int(fields.get("bound_s", "")), int(fields.get("starts", ""))
    except ValueError:
        return None
    failed = fields.get("failed", "")
    return {"bound_s": bound_s, "starts": starts, "failed": failed if failed in ("bound", "starts") else ""}


def fallback_words(version: str, back_to: str, tried: int | None, bound_s: int = BOUND_S, starts: int = STARTS,
                   failed: str = "") -> str:
    """Why the cabinet went back: the versions, and the boot check's bound and starts (with which ran
    out, when its record says)."""
    times = "" if tried is None else f" (tried on {tried} boot{'s' if tried != 1 else ''})"
    here = {"bound": f" (here: no title within {bound_s} s)", "starts": f" (here: {starts} starts failed)"}
    return (f"{version or 'the new version'} did not come up{times}: its game did not show the title within "
            f"{bound_s} s of power-on, or failed {starts} starts{here.get(failed, '')}; the cabinet went back to "
            f"{back_to} by itself")


def outcome(status: dict[str, Any], version: str, entries: Path = ENTRIES,
            boot_check: Path = BOOT_CHECK) -> dict[str, Any]:
    """The booted slot, the other one, and the last update's outcome (module docstring)."""
    slots = [s for s in _slots(status) if s.get("class", "rootfs") == "rootfs"]
    booted_name = status.get("booted")
    booted = next((s for s in slots if s.get("bootname") == booted_name or s.get("state") == "booted"), None)
    other = next((s for s in slots if s is not booted), None)
    mine, theirs = _summary(booted), _summary(other)
    primary = next((s.get("bootname") for s in slots if s.get("name") == status.get("boot_primary")), None)
    last: dict[str, Any] = {"outcome": "none"}
    mine_at = (mine or {}).get("installed") or ""
    theirs_at = (theirs or {}).get("installed") or ""
    if theirs and theirs["version"] and theirs_at > mine_at:
        if theirs["boot_status"] == "bad":
            tried = tries(str(theirs["slot"]), entries)
            check = boot_check_record(str(theirs["slot"]), theirs_at, boot_check) or {}
            bound_s, starts = int(check.get("bound_s", BOUND_S)), int(check.get("starts", STARTS))
            why = fallback_words(theirs["version"], version, tried, bound_s, starts, str(check.get("failed", "")))
            last = {"outcome": "rolled_back", "from": version, "to": theirs["version"], "why": why,
                    "installed": theirs_at, "tries": tried, "bound_s": bound_s, "starts": starts}  # fmt: skip
        elif primary == theirs["slot"]:
            last = {"outcome": "installed", "from": version, "to": theirs["version"], "installed": theirs_at}
    elif mine and mine["version"] and mine_at:
        last = {"outcome": "applied", "to": mine["version"], "installed": mine_at}
    return {
        "booted": {"slot": booted_name, "version": version, "boot_status": (mine or {}).get("boot_status", "")},
        "primary": primary,
        "other": theirs,
        "last": last,
    }


def read_status(cabinet: Cabinet, run: Run = run_rauc, entries: Path = ENTRIES,
                boot_check: Path = BOOT_CHECK) -> dict[str, Any]:
    """RAUC's view of the slots, summed up; `refused` in plain words when RAUC cannot say."""
    if cabinet.problem:
        return {"ok": False, "refused": cabinet.problem, "booted": {"version": cabinet.version}}
    args = ["status", "--detailed", "--output-format=json"]
    if cabinet.conf is not None:
        args.insert(1, f"--conf={cabinet.conf}")
    try:
        done = run(args)
    except (OSError, subprocess.SubprocessError) as error:
        return {"ok": False, "refused": f"RAUC could not be asked ({error})", "booted": {"version": cabinet.version}}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no reason given"])[-1]
        return {"ok": False, "refused": f"RAUC could not say the slots' status: {last}",
                "booted": {"version": cabinet.version}}  # fmt: skip
    try:
        status = json.loads(done.stdout)
    except ValueError:
        return {"ok": False, "refused": "RAUC's status could not be read", "booted": {"version": cabinet.version}}
    return {"ok": True, **outcome(status, cabinet.version, entries, boot_check)}
