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

The booted slot's boot-check bound (spit-arcade-boot-ok: 300 s, 3 failed starts) is in the words.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

from .bundles import Cabinet, Run, run_rauc

ENTRIES = Path("/boot/efi/loader/entries")  # systemd-boot's loader entries (spit-a.conf, spit-b+0-3.conf)
BOUND_S = 300  # systemd/image/boot-ok.sh: the game's title within this much of power-on
STARTS = 3  # ... or this many failed starts
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


def fallback_words(version: str, back_to: str, tried: int | None) -> str:
    times = "" if tried is None else f" (tried on {tried} boot{'s' if tried != 1 else ''})"
    return (f"{version or 'the new version'} did not come up{times}: its game did not show the title within "
            f"{BOUND_S} s of power-on, or failed {STARTS} starts; the cabinet went back to {back_to} by itself")


def outcome(status: dict[str, Any], version: str, entries: Path = ENTRIES) -> dict[str, Any]:
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
            why = fallback_words(theirs["version"], version, tried)
            last = {"outcome": "rolled_back", "from": version, "to": theirs["version"], "why": why,
                    "installed": theirs_at, "tries": tried, "bound_s": BOUND_S, "starts": STARTS}  # fmt: skip
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


def read_status(cabinet: Cabinet, run: Run = run_rauc, entries: Path = ENTRIES) -> dict[str, Any]:
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
    return {"ok": True, **outcome(status, cabinet.version, entries)}
