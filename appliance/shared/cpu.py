"""Can this machine's processor run the game's libraries? Asked at the game's start, before any of them loads.

The binary wheels the cabinet installs for x86-64 (lgpio's among them) are built for x86-64-v2:
on an older processor, such as QEMU's default `qemu64`, lgpio's library dies of SIGILL as it is
imported, with no word of why, and systemd started the game again and again. So the game reads the
processor's flags (/proc/cpuinfo) first and, when one that x86-64-v2 requires is missing, says so
in one sentence and ends with `TOO_OLD_EXIT`, which the unit does not restart
(`RestartPreventExitStatus=`); the fallback screen (systemd/fallback.sh) shows that sentence.
Other machines (the Pi's arm64) are not asked: their wheels are built for what every Pi 4 has.
"""

from __future__ import annotations

import platform
from pathlib import Path

# x86-64-v2 beyond the x86-64 baseline, as Linux names the flags in /proc/cpuinfo
# (CMPXCHG16B, LAHF/SAHF, POPCNT, SSE3, SSE4.1, SSE4.2, SSSE3).
X86_64_V2 = ("cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3")
X86_64 = ("x86_64", "amd64")
TOO_OLD_EXIT = 79  # spit-arcade.service: RestartPreventExitStatus=79 SIGILL; fallback.sh reads it
TOO_OLD = "this machine's processor is older than the game's libraries need"


def cpu_flags(cpuinfo: str) -> set[str]:
    """The flags of the first processor listed in a /proc/cpuinfo text (empty if it lists none)."""
    for line in cpuinfo.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "flags":
            return set(value.split())
    return set()


def missing_flags(cpuinfo: str, machine: str) -> list[str]:
    """The x86-64-v2 flags this processor lacks; none on other machines, or where the text names no
    flags at all (a kernel that does not say is not taken to be an old processor)."""
    if machine.lower() not in X86_64:
        return []
    flags = cpu_flags(cpuinfo)
    if not flags:
        return []
    return [flag for flag in X86_64_V2 if flag not in flags]


def processor_too_old(cpuinfo: str | None = None, machine: str | None = None) -> str:
    """'' where the game's libraries can run here; else the sentence that says why not."""
    if machine is None:
        machine = platform.machine()
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(errors="replace")
        except OSError:
            return ""
    missing = missing_flags(cpuinfo, machine)
    if not missing:
        return ""
    return f"{TOO_OLD} (x86-64-v2; it lacks {', '.join(missing)})"
