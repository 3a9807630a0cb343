"""The lab's commands, which `spit-arcade` lists and runs beside the game's own where this package is
there (a clone, whose ./spit puts it on the path), and nowhere else: the cabinet's wheel holds the
game alone, so its `spit-arcade --help` names none of these."""

from __future__ import annotations

import difflib
import importlib
import sys

BENCHES: dict[str, str] = {
    "rules": "lab.benchmarks.rules:main",
    "inputs": "lab.benchmarks.inputs:main",
    "render": "lab.benchmarks.render:main",
    "resume": "lab.benchmarks.resume:main",
    "ties": "lab.benchmarks.ties:main",
    "store": "lab.benchmarks.store:main",
    "venue": "lab.benchmarks.venue:main",
    "first-game": "lab.benchmarks.first_game:main",
    "linked": "lab.benchmarks.linked:main",
}

# command -> ("module:function", help); each function takes the remaining argv and returns an exit status.
COMMANDS: dict[str, tuple[str, str]] = {
    "bench": ("lab.commands:bench_main", f"benchmarks: bench {'|'.join(BENCHES)} (--json: one object)"),
    "pad-emulator": ("lab.pad_emulator:main", "play a remote slap pad over a pseudo-terminal"),
    "cabinet-test": ("lab.cabinet.main:main", "boot the cabinet's image under QEMU, play it from outside"),
}


def bench_main(argv: list[str]) -> int:
    if not argv or argv[0] not in BENCHES:
        near = difflib.get_close_matches(argv[0], BENCHES, n=1, cutoff=0.6) if argv else []
        hint = f"spit-arcade bench: unknown benchmark {argv[0]!r} (did you mean {near[0]!r}?)\n" if near else ""
        print(f"{hint}usage: spit-arcade bench {{{'|'.join(BENCHES)}}} [--json] ...", file=sys.stderr)
        return 2
    module_name, _, func_name = BENCHES[argv[0]].partition(":")
    return int(getattr(importlib.import_module(module_name), func_name)(argv[1:]) or 0)
