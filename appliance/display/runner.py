"""The frame loop: events in, scene transitions applied in one place, the difference drawn out.

`Runner.frame(events, now_ns)` is one frame and takes its time from the caller, so tests and the
benchmark drive it with their own clock and events; `Runner.run()` is the real loop at 60 fps.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

import pygame

from .compositor import Canvas, Compositor
from .keys import Keyboard
from .scenes.base import BACK, Context, MenuKey, Quit, Replace, Scene, Transition

FPS = 60
MERGER_POLL_MS = 2
WARM_BUDGET_S = 0.003  # spare time a frame may spend drawing card images ahead of need


class Runner:
    def __init__(
        self,
        ctx: Context,
        scene: Scene,
        screen: pygame.Surface,
        present: Callable[[list[pygame.Rect]], None] | None = None,
        merger: Any = None,
    ) -> None:
        """`merger`: appliance.inputs' Merger of the cabinet's sources (GPIO panels, serial pads);
        the keyboard then joins it, and presses reach the scenes in edge-time order."""
        self.ctx = ctx
        self.scene = scene
        self.screen = screen
        self.keyboard = Keyboard(ctx.keymap, ctx.clock)
        self.merger = merger
        if merger is not None:
            self.keyboard.join(merger)
        self.compositor = Compositor()
        self.present = present or (lambda rects: pygame.display.update(rects))
        self.status: int | None = None  # set when the program should end
        self.frames = 0

    def apply(self, transition: Transition | None) -> None:
        """The one place scene changes happen."""
        if isinstance(transition, Replace):
            self.scene = transition.scene
            self.compositor.invalidate()
        elif isinstance(transition, Quit):
            self.status = transition.status

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
        if press is not None and self.merger is None:
            self.send(press)

    def send(self, press: Any) -> None:
        if self.status is None:
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
        dirty = self.compositor.present(canvas, self.screen)
        if dirty:
            self.present(dirty)
        self.frames += 1
        self.ctx.art.warm(WARM_BUDGET_S)
        return dirty

    def draw(self) -> Canvas:
        canvas = Canvas(self.scene.background())
        self.scene.draw(canvas)
        return canvas

    def run(self, max_frames: int | None = None) -> int:
        """The real loop until Quit (or `max_frames`, for smoke runs).

        Frames come 60 times a second; between them the loop sleeps in SDL's event wait, so a key
        press wakes it and is drawn at once instead of at the next tick."""
        period = 1_000_000_000 // FPS
        next_frame = time.monotonic_ns()
        events: list[Any] = []
        while self.status is None:
            now = time.monotonic_ns()
            if now >= next_frame:  # a scheduled frame (not one woken early by a press)
                next_frame = max(next_frame + period, now)
            self.frame(events + pygame.event.get(), self.ctx.clock())
            if max_frames is not None and self.frames >= max_frames:
                return 0
            events = self.wait(next_frame)
        return self.status

    def wait(self, until_ns: int) -> list[Any]:
        """Sleep until `until_ns` or until an event arrives (returned); with cabinet inputs, until a
        press is waiting in the merger (polled every MERGER_POLL_MS)."""
        while True:
            now = time.monotonic_ns()
            if now >= until_ns:
                return []
            timeout_ms = (until_ns - now) / 1e6
            if self.merger is not None:
                if self.merger.pending():
                    return []
                timeout_ms = min(timeout_ms, MERGER_POLL_MS)
            event = pygame.event.wait(max(1, int(timeout_ms)))
            if event.type != pygame.NOEVENT:
                return [event]
