"""The `spit-arcade` command: a thin dispatcher.

Each sub-command lives in its own module and parses its own arguments, so the rules core can be
used without pygame, GPIO or serial being importable: a module is imported only when its command runs.
"""

from __future__ import annotations

import difflib
import importlib
import sys

# command -> "module:function"; each function takes the remaining argv and returns an exit status.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("appliance.display.app:main", "play Spit on screen (the game itself)"),
    "script": ("appliance.scripting:script_main", "play a JSON Lines script headless, print what happened"),
    "replay": ("appliance.cli:replay_main", "play a journal back (--show: on screen, at real speed)"),
    "variants": ("appliance.variants_cli:main", "the presets and house rules, one line each (--json)"),
    "bench": ("appliance.cli:bench_main", "benchmarks: bench rules | bench inputs | bench render | bench ties"),
    "inputs": ("appliance.inputs.switch_test:main", "switch test: every control of every input source, live"),
    "pad-emulator": ("appliance.inputs.pad_emulator:main", "play a remote slap pad over a pseudo-terminal"),
    "simulate": ("appliance.bots.simulate:main", "computer-vs-computer games in virtual time, JSON summary"),
    "check-config": ("appliance.check_config:main", "check config.toml and inputs.toml: exit 0 right, 2 wrong"),
    "cabinet-test": ("appliance.cabinet.main:main", "boot the cabinet's image under QEMU, play it from outside"),
}

BENCHES: dict[str, str] = {
    "rules": "appliance.benchmarks.rules:main",
    "inputs": "appliance.benchmarks.inputs:main",
    "render": "appliance.benchmarks.render:main",
    "resume": "appliance.benchmarks.resume:main",
    "ties": "appliance.benchmarks.ties:main",
    "first-game": "appliance.benchmarks.first_game:main",
}


def _call(target: str, argv: list[str]) -> int:
    module_name, _, func_name = target.partition(":")
    module = importlib.import_module(module_name)
    result = getattr(module, func_name)(argv)
    return int(result or 0)


def bench_main(argv: list[str]) -> int:
    if not argv or argv[0] not in BENCHES:
        near = difflib.get_close_matches(argv[0], BENCHES, n=1, cutoff=0.6) if argv else []
        hint = f"spit-arcade bench: unknown benchmark {argv[0]!r} (did you mean {near[0]!r}?)\n" if near else ""
        print(f"{hint}usage: spit-arcade bench {{{'|'.join(BENCHES)}}} [--json] ...", file=sys.stderr)
        return 2
    return _call(BENCHES[argv[0]], argv[1:])


def replay_main(argv: list[str]) -> int:
    """`replay`: the file format's command, with the display's player for `--show` (the command
    line is the one place outside appliance/display/ that starts the screen)."""
    from appliance.scripting import replay_main as replay

    def show(args: list[str]) -> int:
        from appliance.display.replay_show import main as show_main

        return int(show_main(args) or 0)

    return replay(argv, show=show)


def usage() -> str:
    lines = ["usage: spit-arcade COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<13} {help_text}" for name, (_, help_text) in COMMANDS.items()]
    lines += ["", "Run `spit-arcade COMMAND --help` for a command's options."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    command, rest = args[0], args[1:]
    if command not in COMMANDS:
        near = difflib.get_close_matches(command, COMMANDS, n=1, cutoff=0.6)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        print(f"spit-arcade: unknown command {command!r}{hint}\n\n{usage()}", file=sys.stderr)
        return 2
    try:
        return _call(COMMANDS[command][0], rest)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
