"""The "Spit!" countdown: the dealt table, 3, 2, 1, then play (where both players call Spit!)."""

from __future__ import annotations

from typing import Any

import pygame

from ..compositor import Canvas
from ..match import Match
from ..table_view import GOLD, TableView
from .base import BACK, Context, Replace, Transition, banner, leave_game

STEP_S = 0.7
STEPS = ("3", "2", "1")


class CountdownScene:
    def __init__(self, ctx: Context, match: Match, view: TableView | None = None) -> None:
        self.ctx = ctx
        self.match = match
        self.view = view or ctx.view()
        self.start_ns = ctx.clock()
        self.now_ns = self.start_ns
        self.shown = -1

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Any) -> Transition | None:
        if press.control == BACK and press.pressed:
            return leave_game(self.ctx, self.match)
        return None

    def step(self) -> int:
        return int((self.now_ns - self.start_ns) / (STEP_S * 1e9))

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        step = self.step()
        if step >= len(STEPS):
            from .play import PlayScene

            self.match.last_human_ns = now_ns
            return Replace(PlayScene(self.ctx, self.match, self.view))
        if step != self.shown:
            self.shown = step
            self.ctx.sound.play("count")
        return None

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.game, self.now_ns)
        step = min(self.step(), len(STEPS) - 1)
        banner(canvas, self.view, [(STEPS[step], 0.6, GOLD)], self.ctx.layout.centre)
