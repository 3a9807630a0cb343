"""Scripts, journals and replays: the one JSON Lines format (docs/script-format.md).

`spit-arcade script FILE` plays a script headless and prints what happened; `spit-arcade replay
FILE` plays a journal back the same way. Both accept the closing `{"state": ...}` line the
appliance writes when a game finishes, and check that the game ends in exactly that state (exit 1
if not). A journal whose last line was cut off (a power cut mid-write) is played up to that line,
with a warning.

Bad input (a line that is not JSON, an unknown control or player, a missing `t`, an unknown variant
or option, a setup whose cards do not add up) is found before anything is played: the message
names the line, goes to standard error, no state is printed, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from .journal import split_journal
from .rules import CONTROLS, Event, FamilyGame, OptionError, SetupError, game_from_setup, seats_of
from .rules.events import Reject
from .rules.player_words import game_reject_words
from .rules.speed import SpeedGame


class ScriptError(ValueError):
    """Bad input in a script: which line (1-based) and what is wrong."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class ScriptPress:
    """A press, or with `press` None a time line (`{"t": 3.5}`): the clock moves to `t`."""

    t: float
    player: int
    press: str | None
    line: int


@dataclass
class Script:
    setup: dict[str, Any]
    presses: list[ScriptPress] = field(default_factory=list)
    final_state: dict[str, Any] | None = None  # a journal's closing {"state": ...}, if it has one

    def new_game(self) -> tuple[FamilyGame, list[Event]]:
        """The game this script starts from, with the events of its setup (a deal, or a settle)."""
        return game_from_setup(self.setup)

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
    seed = setup.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ScriptError(line, f"setup.seed must be a whole number from 0 to 2**63-1, not {seed!r}")
    try:
        game_from_setup(setup)
    except OptionError as error:
        raise ScriptError(line, f"setup: {error}") from None
    except SetupError as error:
        raise ScriptError(line, f"setup.state: {error}") from None
    except RecursionError:
        raise ScriptError(line, "setup.state: nested too deeply") from None
    return setup


def _time(value: Any, line: int) -> float:
    t = value["t"]
    if isinstance(t, bool) or not isinstance(t, int | float):
        raise ScriptError(line, f"t must be a number of seconds, 0 or more, not {t!r}")
    try:
        seconds = float(t)
    except OverflowError:
        seconds = math.inf
    if not math.isfinite(seconds) or seconds < 0 or seconds > MAX_T:
        raise ScriptError(line, f"t must be a number of seconds from 0 to {MAX_T:g}, not {_short(t)}")
    return round(seconds, 6)


MAX_T = 1e9  # about 31 years of seconds: any real game, and exact to the microsecond


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)"


def parse_press(value: Any, line: int, seats: int = 2) -> ScriptPress:
    if not isinstance(value, dict):
        raise ScriptError(line, "a press must be a JSON object")
    if "t" not in value:
        raise ScriptError(line, "missing t (seconds since the setup)")
    t = _time(value, line)
    if "player" not in value and "press" not in value:
        return ScriptPress(t, 0, None, line)  # a time line
    if "player" not in value:
        raise ScriptError(line, "missing player")
    player = value["player"]
    if isinstance(player, bool) or not isinstance(player, int) or not 1 <= player <= seats:
        raise ScriptError(line, f"unknown player {_short(player)} (players are 1 to {seats})")
    if "press" not in value:
        raise ScriptError(line, "missing press")
    press = value["press"]
    if not isinstance(press, str) or press not in CONTROLS:
        raise ScriptError(line, f"unknown control {_short(press)} (controls: {', '.join(CONTROLS)})")
    return ScriptPress(t, player, press, line)


def _json(text: str, number: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ScriptError(number, f"not JSON ({error.msg} at column {error.colno})") from None
    except RecursionError:
        raise ScriptError(number, "not JSON this program reads (nested too deeply)") from None
    except ValueError as error:  # e.g. an integer of more digits than Python converts
        raise ScriptError(number, f"not JSON this program reads ({error})") from None


def parse_script(lines: Iterable[str]) -> Script:
    """Read a whole script; raise ScriptError for the first bad line. A closing `{"state": ...}`
    line, as the appliance writes at a game's end, is kept to check the game against. (A journal's
    torn tail is cut off before: journal.split_journal.)"""
    script: Script | None = None
    seats = 2
    numbered = [(n, text) for n, text in enumerate(lines, start=1) if text.strip()]
    for number, text in numbered:
        value = _json(text, number)
        if script is None:
            setup = parse_setup(value, number)
            seats = seats_of(setup.get("variant", "classic"), setup.get("options"))
            script = Script(setup)
            continue
        if script.final_state is not None:
            raise ScriptError(number, "nothing may follow the closing state line")
        if isinstance(value, dict) and "state" in value and "t" not in value:
            if not isinstance(value["state"], dict):
                raise ScriptError(number, "the closing state must be a state object")
            script.final_state = value["state"]
            continue
        script.presses.append(parse_press(value, number, seats))
    if script is None:
        raise ScriptError(1, "empty script: the first line must be the setup")
    return script


def run(script: Script, said: dict[int, str] | None = None) -> tuple[list[Event], FamilyGame]:
    """Play a script: every event in order, and the game at the end. `said`, if given, gets each
    reject's words in a player's language (by the event's id), asked right after its press."""
    game, events = script.new_game()
    speed = isinstance(game, SpeedGame)
    for press in script.ordered():
        if press.press is None:
            events += game.advance(press.t)
            continue
        happened = game.press(press.t, press.player, press.press)
        if said is not None:
            said.update((id(e), game_reject_words(game, e, speed)) for e in happened if isinstance(e, Reject))
        events += happened
    return events, game


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def output_lines(events: list[Event], game: FamilyGame, said: dict[int, str] | None = None) -> Iterator[str]:
    """The output lines: each event, then the state. A reject `said` has words for gets them as
    `words`, after its fields (`--words`)."""
    for event in events:
        line = event.to_json()
        if said and id(event) in said:
            line["words"] = said[id(event)]
        yield dumps(line)
    yield dumps({"state": game.state()})


def _read(path: str) -> bytes:
    if path == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        return stdin.read() if stdin is not None else sys.stdin.read().encode()
    with open(path, "rb") as handle:
        return handle.read()


def load_script(path: str, prog: str, journal: bool) -> Script | int:
    """The script at `path` (- for standard input), or the exit status 2 after saying on standard
    error what is wrong with it. A `journal` may end torn by a power cut (a line cut short, zero
    bytes never written): that tail is left out (journal.split_journal), with a warning."""
    try:
        data = _read(path)
        if journal:
            lines, torn = split_journal(data)
        else:
            lines, torn = data.decode("utf-8").splitlines(), False
        script = parse_script(lines)
    except ScriptError as error:
        first = next((n for n, text in enumerate(lines, start=1) if text.strip()), 1)
        if journal and error.line == first:  # a settings file, a picture, a log: say what a journal is
            print(f"{prog}: {path}: not a journal ({error}): a journal's first line is its game's setup, "
                  "as `play` writes them (in ~/.local/share/spit-arcade/journals/ unless set otherwise)",
                  file=sys.stderr)
        else:
            print(f"{prog}: {path}: {error}", file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError) as error:
        print(f"{prog}: {path}: cannot read: {error}", file=sys.stderr)
        return 2
    if torn:
        print(f"{prog}: {path}: the last line was cut off (a power cut?): played up to the line before",
              file=sys.stderr)
    return script


def _write(lines: Iterable[str], out: TextIO) -> None:
    out.write("".join(line + "\n" for line in lines))


def replay_verdict(matched: bool | None) -> str:
    """Whether a replay matched the live game, in words (None: the journal recorded no end)."""
    if matched is None:
        return ("no closing state line (the game was not finished, or was cut off): played to its last press, "
                "nothing to check it against")
    if matched:
        return "matched: the replay ends in the state the live game had"
    return "did NOT match: the game does not end in the state its closing line recorded"


def play_and_check(script: Script, prog: str, words: bool = False, verdict: str | None = None) -> int:
    """Play a script, print what happened (`words`: each reject with its words too); exit 1 if it
    ends in another state than its closing line. `verdict` (a replay's file): the last line on
    standard error says whether the replay matched the live game, whatever it was."""
    said: dict[int, str] | None = {} if words else None
    events, game = run(script, said)
    _write(output_lines(events, game, said), sys.stdout)
    matched = None if script.final_state is None else script.final_state == game.state()
    if verdict is not None:
        print(f"{prog}: {verdict}: {replay_verdict(matched)}", file=sys.stderr)
    elif matched is False:
        print(f"{prog}: the game does not end in the state its closing line recorded", file=sys.stderr)
    return 1 if matched is False else 0


WORDS_HELP = ("each reject also says in words why the press did nothing and what to do instead "
              '(a "words" key after its reason code)')


def script_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="spit-arcade script",
        description="Play a JSON Lines game script headless and print what happened. A finished journal "
                    "runs too: its closing state line is checked (exit 1 if the game ends elsewhere).")
    parser.add_argument("file", help="the script; - reads standard input")
    parser.add_argument("--words", action="store_true", help=WORDS_HELP)
    args = parser.parse_args(argv)
    script = load_script(args.file, "spit-arcade script", journal=False)
    if isinstance(script, int):
        return script
    return play_and_check(script, "spit-arcade script", args.words)


def replay_main(argv: list[str], show: Callable[[list[str]], int] | None = None) -> int:
    """`spit-arcade replay`; `show` plays a journal on screen (`--show`): the command line hands in
    the display's player, as this module, the file format, imports no screen."""
    parser = argparse.ArgumentParser(
        prog="spit-arcade replay",
        description="Play a journal back. Prints what happened, as `script` does; where the journal "
                    "ends in the state the live game had, checks the replay ends in exactly that state. "
                    "A last line cut off by a power cut is left out, with a warning.")
    parser.add_argument("file", help="the journal; - reads standard input")
    parser.add_argument("--show", action="store_true", help="play it back on screen, at real speed")
    parser.add_argument("--words", action="store_true", help=WORDS_HELP)
    args, rest = parser.parse_known_args(argv)
    if args.show:
        if show is None:
            parser.error("--show needs a screen: run it as `spit-arcade replay FILE --show`")
        return int(show([args.file, *rest]) or 0)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    script = load_script(args.file, "spit-arcade replay", journal=True)
    if isinstance(script, int):
        return script
    return play_and_check(script, "spit-arcade replay", args.words, verdict=args.file)
