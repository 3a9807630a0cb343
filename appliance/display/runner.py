"""The frame loop: events in, scene transitions applied in one place, the difference drawn out.

`Runner.frame(events, now_ns)` is one frame and takes its time from the caller, so tests and the
benchmark drive it with their own clock and events; `Runner.run()` is the real loop at 60 fps.

Scenes are a stack: the top one takes the presses and the time, and every scene is drawn, bottom
first, so one pushed over a game (the settings) shows the game under it, and popping it goes back
to the game as it was.

The cabinet's SERVICE button (F2) opens the operator's service menu over whatever is on the stack
(`service_menu=True`, which the app sets); closing it gives back the scene underneath as it was.
A click or a tap on a game's table is a press of the card or pile under it (appliance/inputs/touch.py,
display/touch_map.py), stamped and ordered as the keyboard's; elsewhere, on a menu's line, it chooses
that line as its keys do (display/menu_taps.py, read from the texts of the frame last drawn).

A coin (F3, the coin input) is a credit whatever is showing (coins.insert_coin); no scene sees it
but the service menu, whose switch test shows every control (a coin there is no credit and no money).

A scene that changes only when something is pressed (its `calm`: the service menu and its pages,
the pause, the resume question, the start-up notices) is drawn CALM_FPS times a second instead of
FPS while nothing is pressed, and the cabinet's inputs are looked at every CALM_POLL_MS: a press
still wakes the loop and is drawn at once. Under the service menu the held game does not change, so
drawing it 60 times a second was only heat (and, in the virtual cabinet, as much CPU as the update
it waited for).

systemd's watchdog (appliance/watchdog.py) is told READY=1 once the first frame is on screen,
WATCHDOG=1 from every frame, a STATUS line when the scene on top changes, STOPPING=1 on a clean exit.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

import pygame

from appliance import watchdog
from appliance.inputs.touch import TouchSource

from . import fonts
from .coins import insert_coin
from .compositor import Canvas, Compositor
from .keys import Keyboard, Press, at_table, seat_key
from .menu_taps import MenuTaps
from .scenes.base import (
    BACK,
    Context,
    Input,
    MenuKey,
    Pop,
    Push,
    Quit,
    Replace,
    Reset,
    Scene,
    Transition,
    make,
)

# The operator's scenes (registered here until scenes/base.py's SCENES lists them).

FPS = 60
CALM_FPS = 10  # a calm scene on top (scene.calm): drawn this often while nothing is pressed
MERGER_POLL_MS = 2
CALM_POLL_MS = 10  # the cabinet's inputs looked at this often under a calm scene (a press still wakes the loop)
FINAL_SLEEP_MS = 2.0  # the end of the wait for the next frame, slept precisely (Runner.wait)
LOG_RATE_AFTER_S = 5.0
WARM_BUDGET_S = 0.003  # spare time a frame may spend drawing card images ahead of need
ARROWS = {pygame.K_LEFT: "left", pygame.K_RIGHT: "right", pygame.K_UP: "up", pygame.K_DOWN: "down"}
TOUCH_EVENTS = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.FINGERDOWN, pygame.FINGERUP)


class Runner:
    def __init__(
        self,
        ctx: Context,
        scene: Scene,
        screen: pygame.Surface,
        present: Callable[[list[pygame.Rect]], None] | None = None,
        merger: Any = None,
        log_rate: bool = False,
        notifier: watchdog.Notifier | None = None,
        service_menu: bool = False,
        touch: bool = True,
    ) -> None:
        """`merger`: appliance.inputs' Merger of the cabinet's sources (GPIO panels, serial pads);
        the keyboard then joins it, and presses reach the scenes in edge-time order. `log_rate`:
        say on stderr, once after the first seconds, how many frames a second the loop keeps. `touch`:
        a tap or a click is a press (the inputs configuration's source "touch"; off: taps do nothing)."""
        self.ctx = ctx
        self.stack: list[Scene] = [scene]
        self.screen = screen
        self.keyboard = Keyboard(ctx.keymap, ctx.clock)
        self.merger = merger
        ctx.inputs = merger  # the service menu's switch test reads it
        # a click or a tap on the table: the scene on top says what lies there (its `touch_target`)
        self.touch = TouchSource(self.touch_target, screen.get_size(), clock=ctx.clock) if touch else None
        self.menu_taps = MenuTaps(screen.get_size()) if touch else None  # a menu's lines, where no card lies
        self.top_texts: list[Any] = []  # the texts the scene on top drew last (what a tap on a menu finds)
        if merger is not None:
            self.keyboard.join(merger)
            if self.touch is not None:
                merger.add(self.touch)
        self.compositor = Compositor()
        self.present = present or (lambda rects: pygame.display.update(rects))
        self.status: int | None = None  # set when the program should end
        self.frames = 0
        self.log_rate = log_rate
        self.notifier = notifier or watchdog.notifier()  # systemd's (a no-op outside systemd)
        self.service_menu = service_menu  # SERVICE opens the service menu here, not in the scenes
        self._said: str | None = None  # the status line systemd was last told
        self._status_due = False  # the scene on top changed since
        self._top_texts = 0  # the index of the scene on top's first text in the canvas drawn last
        self.ready_said = False  # READY=1 is said once, after the loop's first frame

    @property
    def scene(self) -> Scene:
        """The scene on top: the one that takes presses and time."""
        return self.stack[-1]

    @property
    def calm(self) -> bool:
        """Whether the scene on top changes only when something is pressed (drawn CALM_FPS a second)."""
        return bool(getattr(self.scene, "calm", False))

    def period_ns(self) -> int:
        """From one frame to the next while nothing is pressed, for the scene on top."""
        return 1_000_000_000 // (CALM_FPS if self.calm else FPS)

    def apply(self, transition: Transition | None) -> None:
        """The one place scene changes happen."""
        if isinstance(transition, Replace):
            self.stack[-1] = transition.scene
        elif isinstance(transition, Push):
            self.stack.append(transition.scene)
        elif isinstance(transition, Pop):
            if len(self.stack) > 1:
                self.stack.pop()
        elif isinstance(transition, Reset):
            self.stack = [transition.scene]
        elif isinstance(transition, Quit):
            self.status = transition.status
        if transition is not None:
            self._status_due = True  # said once the new scene is drawn (its words are in that frame)

    def tell_status(self, canvas: Canvas) -> None:
        """systemd's status line: the scene on top and the words it shows first (said once each time
        it changes): what `systemctl status spit-arcade` and the virtual cabinet read of the screen."""
        self._status_due = False
        said = status_line(self.scene, canvas.texts[self._top_texts :])
        if said != self._said:
            self._said = said
            self.notifier.status(said)

    def apply_scene(self, scene: Scene) -> None:
        self.apply(Replace(scene))

    def handle(self, event: Any, now_ns: int) -> None:
        if event.type == pygame.QUIT:
            self.status = 0
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.send(MenuKey(0, BACK, True, now_ns))
            return
        if event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE, pygame.WINDOWRESTORED):
            self.compositor.invalidate()
        press = self.keyboard.feed(event, now_ns)
        if press is None and event.type in TOUCH_EVENTS and self.touch is not None:
            press = self.touch.feed(event, now_ns)
            tap = self.menu_taps.feed(event, now_ns, self.top_texts) if press is None and self.menu_taps else None
            if tap is not None:
                self.send(tap)
                return
        seat = seat_key(event, self.ctx.keymap) if press is None else None
        if seat is not None:  # players 3 and 4 at the keyboard
            self.send(MenuKey(seat[0], seat[1], seat[2], now_ns))
        elif press is None and event.type == pygame.KEYDOWN and event.key in ARROWS:
            self.send(MenuKey(0, ARROWS[event.key], True, now_ns))  # arrow keys nobody mapped: menus
        elif press is not None and self.merger is None:
            self.send(press)

    def touch_target(self, x: float, y: float, last: int | None) -> tuple[int, str] | None:
        """What a tap at (x, y) presses in the scene on top (a game's table; elsewhere nothing)."""
        found = getattr(self.scene, "touch_target", None)
        return None if found is None else found(x, y, last)

    def table_seats(self) -> int:
        """The seats at the table in play (the scene on top's game), else at the next game's."""
        match = getattr(self.scene, "match", None)
        if match is not None:
            return int(getattr(getattr(match.game, "table", None), "seats", 2))
        return int(self.ctx.settings.house_rules.get("seats", 2))

    def send(self, press: Input) -> None:
        if isinstance(press, Press) and press.source == self.keyboard.name:
            press = at_table(press, self.ctx.settings.layout, self.table_seats())  # J: left pile at any size
        if self.status is None:
            if press.control == "coin":  # a credit whatever is showing; no game or menu sees it
                if press.pressed:  # in the service menu: no credit, no money (the switch test shows it)
                    insert_coin(self.ctx, press.source, service=in_service(self.scene))
                if not in_service(self.scene):
                    return  # (the service menu's switch test does: it shows every control)
            if self.service_menu and press.pressed and press.control == "service" and not in_service(self.scene):
                menu = make("service", self.ctx)  # over whatever runs; it gives it back as it was
                hold = getattr(menu, "hold", None)
                if hold is not None and not getattr(self.scene, "holds_clock", False):
                    hold(getattr(self.scene, "match", None))  # a game's clock stands still meanwhile
                self.apply(Push(menu))
                return
            self.apply(self.scene.on_event(press))

    def frame(self, events: Iterable[Any], now_ns: int) -> list[pygame.Rect]:
        """One frame: events, update, draw; returns the rectangles presented."""
        for event in events:
            self.handle(event, now_ns)
        if self.merger is not None:
            for press in self.merger.ready(now_ns):
                self.send(press)
        if self.status is None:
            self.apply(self.scene.update(now_ns))
        canvas = self.draw()
        if self._status_due and self.ready_said:
            self.tell_status(canvas)
        dirty = self.compositor.present(canvas, self.screen)
        if dirty:
            self.present(dirty)
        self.frames += 1
        self.notifier.ping()  # at most every half watchdog period: cheap
        self.ctx.sound.check_device(now_ns)  # a sound card plugged in late (free once sound is on)
        if self.ctx.art.warm(WARM_BUDGET_S):
            fonts.warm(WARM_BUDGET_S)  # the text sizes the tables will use (fonts.want), once the cards are drawn
        return dirty

    def draw(self) -> Canvas:
        canvas = Canvas(self.stack[0].background())
        for scene in self.stack:
            self._top_texts = len(canvas.texts)  # where the scene on top's own texts start
            scene.draw(canvas)
        self.top_texts = canvas.texts[self._top_texts :]
        return canvas

    def run(self, max_frames: int | None = None) -> int:
        """The real loop until Quit (or `max_frames`, for smoke runs).

        Frames come 60 times a second (CALM_FPS under a calm scene); between them the loop sleeps in
        SDL's event wait (under a calm scene, `wait_calm`), so a key press wakes it and is drawn at
        once instead of at the next tick."""
        period = self.period_ns()
        next_frame = time.monotonic_ns()
        events: list[Any] = []
        started = next_frame
        costs: list[float] = []
        if not self.ready_said:
            self.notifier.progress("the first frame", watchdog.DRAW_STEP_S)
        while self.status is None:
            now = time.monotonic_ns()
            if now >= next_frame:  # a scheduled frame (not one woken early by a press)
                next_frame = max(next_frame + period, now)
            self.frame(events + pygame.event.get(), self.ctx.clock())
            period = self.period_ns()  # the scene on top now: a press may have closed a calm menu
            next_frame = min(next_frame, now + period)
            if not self.ready_said:  # the first frame is on screen: systemd's start job is done
                self.ready_said = True
                self._status_due = False
                self._said = status_line(self.scene, self.draw().texts[self._top_texts :])
                self.notifier.ready(self._said)
                print(f"spit-arcade: ready; on the screen: {self._said}", file=sys.stderr)  # (the journal's)
            if self.log_rate:
                done = time.monotonic_ns()
                costs.append((done - now) / 1e6)
                if done - started >= LOG_RATE_AFTER_S * 1e9:
                    self.log_rate = False
                    worst = sorted(costs)[int(0.99 * (len(costs) - 1))]
                    rate = len(costs) / ((done - started) / 1e9)
                    print(f"spit-arcade: {rate:.1f} frames a second, frame p99 {worst:.1f} ms", file=sys.stderr)
            if max_frames is not None and self.frames >= max_frames:
                self.notifier.stopping()
                return 0
            events = self.wait(next_frame)
        self.notifier.stopping()
        return self.status

    def wait(self, until_ns: int) -> list[Any]:
        """Sleep until `until_ns` or until an event arrives (returned); with cabinet inputs, until a
        press is waiting in the merger (polled every MERGER_POLL_MS). The last FINAL_SLEEP_MS are
        slept with the OS's timer: SDL's event wait now and then wakes several ms late, a late frame
        (an event arriving then is taken by the frame, which is due). Under a calm scene: `wait_calm`."""
        if self.calm:
            return self.wait_calm(until_ns)
        while True:
            now = time.monotonic_ns()
            if now >= until_ns:
                return []
            timeout_ms = (until_ns - now) / 1e6
            if self.merger is not None:
                if self.merger.pending():
                    return []
                timeout_ms = min(timeout_ms, MERGER_POLL_MS)
            if (until_ns - now) / 1e6 <= FINAL_SLEEP_MS:
                time.sleep((until_ns - now) / 1e9)
                return []
            event = pygame.event.wait(max(1, int(min(timeout_ms, (until_ns - now) / 1e6 - FINAL_SLEEP_MS))))
            if event.type != pygame.NOEVENT:
                return [event]

    def wait_calm(self, until_ns: int) -> list[Any]:
        """The wait under a calm scene: SDL's events and the cabinet's inputs looked at every
        CALM_POLL_MS, slept between with the OS's timer. (SDL's event wait, where the video driver
        cannot block on its events — KMSDRM, the dummy driver — looks every millisecond: under a menu
        that was 5 % of a core here for nothing.)"""
        while True:
            now = time.monotonic_ns()
            if now >= until_ns:
                return []
            event = pygame.event.poll()
            if event.type != pygame.NOEVENT:
                return [event]
            if self.merger is not None and self.merger.pending():
                return []
            time.sleep(min(CALM_POLL_MS * 1_000_000, until_ns - now) / 1e9)


def scene_status(scene: Scene) -> str:
    """A scene in a word or two, for `systemctl status`: TitleScene -> "title"."""
    name = type(scene).__name__.removesuffix("Scene")
    return "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip() or "?"


STATUS_WORDS = 160  # characters of the scene's words in the status line


def status_line(scene: Scene, texts: list[Any]) -> str:
    """ "title: SPIT ARCADE | Player 1: …": the scene in a word or two, then the first line of each
    text it draws, as data (the texts the screen shows, not a reading of the pixels)."""
    lines: list[str] = []
    for text in texts:
        first = text.words[0] if text.words else ""
        if first and first not in lines:
            lines.append(first)
    words = " | ".join(lines)
    if len(words) > STATUS_WORDS:
        words = words[: STATUS_WORDS - 1] + "…"
    return f"{scene_status(scene)}: {words}" if words else scene_status(scene)


def in_service(scene: Scene) -> bool:
    """Whether the scene on top is the service menu or one of its pages (SERVICE works inside them)."""
    return bool(getattr(scene, "service", False))
