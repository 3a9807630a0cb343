"""The `spit-arcade` command: a thin dispatcher.

Each sub-command lives in its own module and parses its own arguments, so the rules core can be
used without pygame, GPIO or serial being importable: a module is imported only when its command runs.
The lab's commands (the virtual cabinet, the benchmarks, the pad emulator: lab/commands.py) are listed
and run beside these where the lab is there, beside this package in a clone; the cabinet's wheel holds
the game alone, so there they are neither listed nor offered.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import sys
from pathlib import Path

# command -> "module:function"; each function takes the remaining argv and returns an exit status.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("appliance.display.app:main", "play Spit on screen (the game itself)"),
    "script": ("appliance.scripting:script_main", "play a JSON Lines script headless, print what happened"),
    "replay": ("appliance.cli:replay_main", "play a journal back (--show: on screen, at real speed)"),
    "variants": ("appliance.variants_cli:main", "the presets and house rules, one line each (--json)"),
    "inputs": ("appliance.inputs.switch_test:main", "switch test: every control of every input source, live"),
    "simulate": ("appliance.bots.simulate:main", "computer-vs-computer games in virtual time, JSON summary"),
    "check-config": ("appliance.check_config:main", "check config.toml and inputs.toml: exit 0 right, 2 wrong"),
    "audits": ("appliance.operator.audits_cli:main", "the operator's books: earnings, games, switch health"),
    "settings": ("appliance.settings_cli:main", "the operator's settings: list, get KEY, set KEY VALUE"),
    "uplink": ("appliance.venue.uplink:main", "the cabinet's link to its venue's broker (its own unit)"),
    "link-relay": ("appliance.linked.relay:main", "the linked game's datagrams to and from the network (its own unit)"),
    "venue": ("appliance.venue.view:main", "venue init/revoke: certificates; venue --broker: the operator's page"),
}

# Where a clone's lab keeps its command table; looked up by name, here only, and only beside this package.
LAB_COMMANDS = "lab.commands"
NO_LAB = ("this install holds the game alone: the lab's commands (the virtual cabinet, the benchmarks, "
          "the pad emulator) run from a clone of the repository, `./spit COMMAND`")


def lab_commands() -> dict[str, tuple[str, str]]:
    """The lab's commands where the lab is the one beside this package (a clone); {} elsewhere (the
    cabinet, whose wheel has no lab, nor a `lab` package of someone else's on the path)."""
    spec = importlib.util.find_spec(LAB_COMMANDS.partition(".")[0])
    here = Path(__file__).resolve().parent.parent
    if spec is None or spec.origin is None or Path(spec.origin).resolve().parent.parent != here:
        return {}
    table: dict[str, tuple[str, str]] = importlib.import_module(LAB_COMMANDS).COMMANDS
    return table


def _call(target: str, argv: list[str]) -> int:
    module_name, _, func_name = target.partition(":")
    module = importlib.import_module(module_name)
    result = getattr(module, func_name)(argv)
    return int(result or 0)


def replay_main(argv: list[str]) -> int:
    """`replay`: the file format's command, with the display's player for `--show` (the command
    line is the one place outside appliance/display/ that starts the screen)."""
    from appliance.scripting import replay_main as replay

    def show(args: list[str]) -> int:
        from appliance.display.replay_show import main as show_main

        return int(show_main(args) or 0)

    return replay(argv, show=show)


def usage() -> str:
    lines = ["usage: spit-arcade COMMAND [ARGS...]   (options alone, e.g. --config FILE: play)", "", "commands:"]
    lines += [f"  {name:<13} {help_text}" for name, (_, help_text) in COMMANDS.items()]
    lab = lab_commands()
    if lab:
        lines += ["", "the lab's commands (in this clone; not on a cabinet):"]
        lines += [f"  {name:<13} {help_text}" for name, (_, help_text) in lab.items()]
    lines += ["", "Run `spit-arcade COMMAND --help` for a command's options."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    command, rest = args[0], args[1:]
    if command.startswith("-"):  # `./spit --config FILE`, `--fullscreen`: play's options, as the README has it
        command, rest = "play", args
    lab = lab_commands()
    commands = {**COMMANDS, **lab}
    if command not in commands:
        near = difflib.get_close_matches(command, commands, n=1, cutoff=0.6)
        hint = f" (did you mean {near[0]!r}?)" if near else "" if lab else f"; {NO_LAB}"
        print(f"spit-arcade: unknown command {command!r}{hint}\n\n{usage()}", file=sys.stderr)
        return 2
    try:
        return _call(commands[command][0], rest)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
