"""`spit-arcade replay FILE --show`: a journal played back on screen at real speed.

The presses are applied to a fresh game from the journal's setup when their time comes, exactly as
`spit-arcade replay` applies them, and drawn with the same table and feedback as a live game; so
are its time lines (`{"t": ...}`: passing time decided something, a Mod Spit verdict, the piles a
slow slap takes), so what time decided shows when it was decided, not at the next press.
The arrow keys, shown on screen, fast-forward and seek: Right and Left jump `SEEK_S` seconds on or
back (back: the game is played again from the start up to there, silently), Up and Down double or
halve the speed (x1/8 to x64). At the end of the journal it stays on the result (who won, whether
the replay matched the live game) until Escape or the window is closed (`--hold S`: it closes S
seconds after the end); the same verdict is then the last line on standard error.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from appliance.rules import Game

from .captions import Caption, Drawn, Line, draw_captions, fit_block
from .compositor import Canvas
from .events import kind
from .i18n import _
from .scenes.base import BACK, Context, Input, MenuKey, Quit, Transition
from .scenes.table_game import table_game_of
from .speed_view import SpeedTable
from .table_view import GOLD, SOFT, WHITE, TableView, seat_name

END_HOLD_S: float | None = None  # stay on the result until Escape
SEEK_S = 10.0  # Left / Right: this many seconds of the game back / on
SPEEDS = (0.125, 64.0)  # Down / Up halve / double the speed, within these


class ReplayScene:
    """Applies a script's presses as the clock passes their times (times `speed`)."""

    def __init__(
        self, ctx: Context, script: Any, speed: float = 1.0, hold_s: float | None = END_HOLD_S, name: str = ""
    ) -> None:
        self.ctx = ctx
        self.script = script
        self.speed = speed
        self.hold_s = hold_s
        self.name = name
        self.computer = frozenset(int(seat) for seat in script.setup.get("bots") or {})  # named so
        self.game: Game
        self.game, _ = script.new_game()
        self.presses = script.ordered()
        self.end_t = self.presses[-1].t if self.presses else 0.0
        self.next = 0
        self.view: TableView | SpeedTable = self._new_view()
        self.start_ns = ctx.clock()
        self.now_ns = self.start_ns
        self.position = 0.0  # the game's time shown now, in seconds
        self.events: list[Any] = []
        self.ended_ns: int | None = None
        self.paused = False

    def _new_view(self) -> TableView | SpeedTable:
        """The table the journal's game is played on, as the live game's (its TableGame's: Spit's
        seats and stock piles, Speed's own table)."""
        view: TableView | SpeedTable = table_game_of(self.game).replay_table(self.ctx, self.game, self.computer)
        return view

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Input) -> Transition | None:
        if not press.pressed:
            return None
        if press.control == BACK:
            return Quit(1 if self.ended_ns is not None and self.matches() is False else 0)
        if not isinstance(press, MenuKey) or press.player != 0:
            return None  # the players' keys: nobody plays a replay
        if press.control == "right":
            self.seek(self.position + SEEK_S)
        elif press.control == "left":
            self.seek(self.position - SEEK_S)
        elif press.control == "up":
            self.speed = min(SPEEDS[1], self.speed * 2)
        elif press.control == "down":
            self.speed = max(SPEEDS[0], self.speed / 2)
        return None

    def replay_time(self) -> float:
        return self.position

    def seek(self, t: float) -> None:
        """Show the game at time `t` (within the journal): played on from here, or played again from
        the start, without sounds or slides; what happened at `t` is shown from there on."""
        t = max(0.0, min(t, self.end_t))
        if t < self.position:
            self.game, _ = self.script.new_game()
            self.next = 0
            self.events = []
        self.position = t
        self._apply_until(t, shown=False)
        self.view = self._new_view()
        if self.next < len(self.presses):
            self.ended_ns = None

    def _apply_until(self, t: float, shown: bool = True) -> None:
        """Every line due by `t`: presses, and time lines (time passing decided something)."""
        while self.next < len(self.presses) and self.presses[self.next].t <= t:
            line = self.presses[self.next]
            self.next += 1
            if line.press is None:
                events = self.game.advance(line.t)
            else:
                events = self.game.press(line.t, line.player, line.press)
            self.events += events
            if not shown:
                continue
            self.view.notice(events, self.now_ns, self.game)
            for event in events:
                what = kind(event)
                if what in ("play", "reject", "slap", "game_over"):
                    self.ctx.sound.play("win" if what == "game_over" else what)

    def update(self, now_ns: int) -> Transition | None:
        elapsed = max(0, now_ns - self.now_ns)
        self.now_ns = now_ns
        if self.ended_ns is None:
            self.position = min(self.end_t, self.position + elapsed / 1e9 * self.speed)
        self._apply_until(self.position)
        if self.next >= len(self.presses) and self.ended_ns is None:
            self.ended_ns = now_ns
        if self.ended_ns is not None and self.hold_s is not None and now_ns - self.ended_ns > self.hold_s * 1e9:
            return Quit(0 if self.matches() is not False else 1)
        return None

    def matches(self) -> bool | None:
        """Does the replay end in the state the journal recorded? None if it recorded none."""
        if self.script.final_state is None:
            return None
        return bool(self.script.final_state == self.game.state())

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.game, self.now_ns)
        lay = self.view.layout
        # the replay's name, where it is in the journal and its speed in the top left corner, where a
        # seat's key legend goes in a game (none is drawn here): clear of every card
        box = min((seat.legend for seat in self.view.layout.seats.values()), key=lambda r: (r.y, r.x))
        lines = (*(Line(words, 0.09, SOFT) for words in name_lines(_("Replay {name}").format(name=self.name))),
                 Line(f"{self.replay_time():.1f} / {self.end_t:.1f} s  x{self.speed:g}", 0.09, SOFT))  # fmt: skip
        image, scale, words, px, fits, _taps = fit_block(lines, lay.text_h, box.size, 0, 0)
        rect = canvas.blit(image, image.get_rect(midtop=box.midtop).topleft)
        canvas.text(Drawn("replay", None, words, rect, box, 0, scale, px, fits))
        draw_captions(canvas, lay, self.captions())

    def captions(self) -> list[Caption]:
        keys = Caption("info", None, tuple(Line(words, 0.1, SOFT) for words in keys_words()), 130)
        if self.ended_ns is None:
            return [keys, *self.view.feedback(self.now_ns)]
        words = {
            True: _("ends in the recorded state"),
            False: _("does NOT end in the recorded state"),
            None: _("(the journal recorded no final state)"),
        }[self.matches()]
        lines = [Line(_("End of the replay"), 0.2, GOLD)]
        if self.game.winner is not None:
            lines.append(Line(_("{who} won").format(who=seat_name(self.game.winner, self.computer)), 0.14, WHITE))
        lines.append(Line(words, 0.1, WHITE))
        return [keys, Caption("panel", None, tuple(lines), 190)]


def name_lines(words: str, most: int = 16) -> list[str]:
    """A journal's name ("Replay 20261124-081530-seed123456.jsonl") in lines of about `most`
    letters, broken after its spaces and dashes, so the corner shows it at the size every text is
    held to rather than shrunk to fit one line."""
    lines: list[str] = []
    for part in re.split(r"(?<=[ -])", words):
        if lines and len(lines[-1]) + len(part) <= most:
            lines[-1] += part
        else:
            lines.append(part)
    return [line.strip() for line in lines if line.strip()]


def keys_words() -> list[str]:
    """The replay's keys, as the screen shows them."""
    return [_("Left/Right: -{s} s/+{s} s").format(s=f"{SEEK_S:g}"), _("Up/Down: speed ×2/÷2"), _("Esc: end")]


def main(argv: list[str] | None = None) -> int:
    from appliance.scripting import load_script, replay_verdict
    from appliance.shared.settings import LAYOUTS, SettingsError, load_settings

    from .app import DisplayError, open_screen, size_from
    from .keys import default_keymap, for_desktop
    from .runner import Runner
    from .sound import Sound

    parser = argparse.ArgumentParser(
        prog="spit-arcade replay FILE --show", description="Play a journal back on screen, at real speed."
    )
    parser.add_argument("file", help="the journal (or any game script)")
    parser.add_argument("--speed", type=float, default=1.0, help="1 = real speed (default), 2 = twice as fast")
    parser.add_argument(
        "--hold",
        type=float,
        default=END_HOLD_S,
        help="close this many seconds after the end (default: stay on the result until Escape)",
    )
    parser.add_argument("--layout", choices=LAYOUTS)
    parser.add_argument("--size", help="window size WxH (default 1280x720)")
    parser.add_argument("--fullscreen", action="store_true")
    parser.add_argument("--config", type=Path)
    parser.add_argument("--volume", type=float)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    prog = "spit-arcade replay"
    if not args.speed > 0:
        print(f"{prog}: --speed must be more than 0", file=sys.stderr)
        return 2
    script = load_script(args.file, prog, journal=True)
    if isinstance(script, int):
        return script
    try:
        settings = load_settings(args.config)
        size = size_from(args.size)
    except SettingsError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    if args.layout:
        settings.layout = args.layout
    if args.volume is not None:
        settings.volume = max(0.0, min(1.0, args.volume))
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        screen = open_screen(size, args.fullscreen, "Spit Arcade replay")
    except DisplayError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 1
    try:
        assert isinstance(screen, pygame.Surface)
        pygame.font.init()
        keymap = default_keymap()
        if settings.layout == "desktop":
            keymap = for_desktop(keymap)
        ctx = Context(settings, screen.get_size(), keymap, Sound.open(settings.volume), None)
        hold = None if args.hold is None else max(0.0, args.hold)
        scene = ReplayScene(ctx, script, args.speed, hold, name=Path(args.file).name)
        status = Runner(ctx, scene, screen).run()
        if scene.ended_ns is None:
            print(f"{prog}: {args.file}: left at {scene.position:.1f} s of {scene.end_t:.1f} s, before the end",
                  file=sys.stderr)
        else:
            print(f"{prog}: {args.file}: {replay_verdict(scene.matches())}", file=sys.stderr)
        return status
    except KeyboardInterrupt:
        return 130
    except pygame.error as error:
        print(f"{prog}: the display stopped working ({error})", file=sys.stderr)
        return 1
    finally:
        pygame.quit()
