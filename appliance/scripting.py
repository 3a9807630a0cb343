"""Scripts, journals and replays: the one JSON Lines format of SCRIPT-FORMAT.md.

`spit-arcade script FILE` plays a script headless and prints what happened; `spit-arcade replay
FILE` plays a journal back the same way and, where the journal ends in the `{"state": ...}` line
the appliance writes when a game finishes, checks that the replay ends in exactly that state.

Bad input (a line that is not JSON, an unknown control or player, a missing `t`, a setup whose
cards do not add up) is found before anything is played: the message names the line, goes to
standard error, no state is printed, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from .rules import CONTROLS, Event, Game, SetupError, game_from_state, variant_named


class ScriptError(ValueError):
    """Bad input in a script: which line (1-based) and what is wrong."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class ScriptPress:
    t: float
    player: int
    press: str
    line: int


@dataclass
class Script:
    setup: dict[str, Any]
    presses: list[ScriptPress] = field(default_factory=list)
    final_state: dict[str, Any] | None = None  # a journal's closing {"state": ...}, if it has one

    def new_game(self) -> tuple[Game, list[Event]]:
        """The game this script starts from, with the events of its setup (a deal, or a settle)."""
        seed = self.setup.get("seed", 0)
        variant = variant_named(self.setup.get("variant", "classic"))
        if "state" in self.setup:
            game = game_from_state(self.setup["state"], seed=seed, variant_name=variant.name)
            return game, game.settle(0.0)
        return Game.new(seed=seed, variant=variant)

    def ordered(self) -> list[ScriptPress]:
        """Presses in the order the game applies them: by `t`, equal `t` in file order."""
        return sorted(self.presses, key=lambda p: (p.t, p.line))


def parse_setup(value: Any, line: int = 1) -> dict[str, Any]:
    if not isinstance(value, dict) or not isinstance(value.get("setup"), dict):
        raise ScriptError(line, 'the first line must be the setup, {"setup": {"variant": ..., "seed": ...}}')
    setup: dict[str, Any] = value["setup"]
    variant = setup.get("variant", "classic")
    if not isinstance(variant, str):
        raise ScriptError(line, "setup.variant must be a string")
    try:
        variant_named(variant)
    except ValueError as error:
        raise ScriptError(line, str(error)) from None
    seed = setup.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ScriptError(line, f"setup.seed must be a whole number, not {seed!r}")
    if "state" in setup:
        try:
            game_from_state(setup["state"], seed=seed, variant_name=variant)
        except SetupError as error:
            raise ScriptError(line, f"setup.state: {error}") from None
    return setup


def parse_press(value: Any, line: int, seats: int = 2) -> ScriptPress:
    if not isinstance(value, dict):
        raise ScriptError(line, "a press must be a JSON object")
    if "t" not in value:
        raise ScriptError(line, "missing t (seconds since the setup)")
    t = value["t"]
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t < 0:
        raise ScriptError(line, f"t must be a number of seconds, 0 or more, not {t!r}")
    if "player" not in value:
        raise ScriptError(line, "missing player")
    player = value["player"]
    if isinstance(player, bool) or not isinstance(player, int) or not 1 <= player <= seats:
        raise ScriptError(line, f"unknown player {player!r} (players are 1 to {seats})")
    if "press" not in value:
        raise ScriptError(line, "missing press")
    press = value["press"]
    if press not in CONTROLS:
        raise ScriptError(line, f"unknown control {press!r} (controls: {', '.join(CONTROLS)})")
    return ScriptPress(round(float(t), 6), player, press, line)


def parse_script(lines: Iterable[str], *, journal: bool = False) -> Script:
    """Read a whole script; raise ScriptError for the first bad line. `journal` allows the
    closing `{"state": ...}` line that the appliance writes when a game finishes."""
    script: Script | None = None
    seats = 2
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise ScriptError(number, f"not JSON ({error.msg} at column {error.colno})") from None
        if script is None:
            setup = parse_setup(value, number)
            seats = variant_named(setup.get("variant", "classic")).seats
            script = Script(setup)
            continue
        if script.final_state is not None:
            raise ScriptError(number, "nothing may follow the closing state line")
        if journal and isinstance(value, dict) and "state" in value and "press" not in value:
            if not isinstance(value["state"], dict):
                raise ScriptError(number, "the closing state must be a state object")
            script.final_state = value["state"]
            continue
        script.presses.append(parse_press(value, number, seats))
    if script is None:
        raise ScriptError(1, "empty script: the first line must be the setup")
    return script


def run(script: Script) -> tuple[list[Event], Game]:
    """Play a script: every event in order, and the game at the end."""
    game, events = script.new_game()
    for press in script.ordered():
        events += game.press(press.t, press.player, press.press)
    return events, game


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def output_lines(events: list[Event], game: Game) -> Iterator[str]:
    for event in events:
        yield dumps(event)
    yield dumps({"state": game.state()})


def _read(path: str) -> list[str]:
    if path == "-":
        return sys.stdin.read().splitlines()
    with open(path, encoding="utf-8") as handle:
        return handle.read().splitlines()


def load_script(path: str, prog: str, journal: bool) -> Script | int:
    """The script at `path` (- for standard input), or the exit status 2 after saying on standard
    error what is wrong with it."""
    try:
        return parse_script(_read(path), journal=journal)
    except ScriptError as error:
        print(f"{prog}: {path}: {error}", file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError) as error:
        print(f"{prog}: {path}: cannot read: {error}", file=sys.stderr)
        return 2


def _write(lines: Iterable[str], out: TextIO) -> None:
    out.write("".join(line + "\n" for line in lines))


def script_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade script",
                                     description="Play a JSON Lines game script headless and print what happened.")
    parser.add_argument("file", help="the script; - reads standard input")
    args = parser.parse_args(argv)
    script = load_script(args.file, "spit-arcade script", journal=False)
    if isinstance(script, int):
        return script
    events, game = run(script)
    _write(output_lines(events, game), sys.stdout)
    return 0


def replay_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="spit-arcade replay",
        description="Play a journal back. Prints what happened, as `script` does; where the journal "
                    "ends in the state the live game had, checks the replay ends in exactly that state.")
    parser.add_argument("file", help="the journal; - reads standard input")
    parser.add_argument("--show", action="store_true", help="play it back on screen, at real speed")
    args, rest = parser.parse_known_args(argv)
    if args.show:
        from .display.replay_show import main as show_main

        return int(show_main([args.file, *rest]) or 0)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    script = load_script(args.file, "spit-arcade replay", journal=True)
    if isinstance(script, int):
        return script
    events, game = run(script)
    _write(output_lines(events, game), sys.stdout)
    if script.final_state is not None and script.final_state != game.state():
        print("spit-arcade replay: the replay does not end in the state the journal recorded", file=sys.stderr)
        return 1
    return 0
