"""The "Spit!" countdown: the dealt table, 3, 2, 1, then play (where both players call Spit!).

The card images still to be drawn are finished here, so no press in play waits for one. The game's
clock is held meanwhile (`Match.hold`): the game's time starts when play does."""

from __future__ import annotations

import pygame

from appliance.match import Match

from ..captions import Caption, Line
from ..compositor import Canvas
from ..table_view import GOLD, TableView
from .base import BACK, Context, Input, Replace, Transition, draw_scene, leave_game, make, ready_for_play

STEP_S = 0.7
STEPS = ("3", "2", "1")


class CountdownScene:
    def __init__(self, ctx: Context, match: Match, view: TableView | None = None) -> None:
        self.ctx = ctx
        self.match = match
        self.view = view or ctx.view(computer=frozenset(match.bots), game=match.spit)
        self.start_ns = ctx.clock()
        self.now_ns = self.start_ns
        self.shown = -1
        self.view.deal(self.start_ns)
        match.hold(self.start_ns)
        ctx.sound.play("deal")

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Input) -> Transition | None:
        if press.control == BACK and press.pressed:
            return leave_game(self.ctx, self.match)
        return None

    def step(self) -> int:
        return int((self.now_ns - self.start_ns) / (STEP_S * 1e9))

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        step = self.step()
        if step >= len(STEPS):
            ready_for_play(self.ctx)
            self.match.release(now_ns)
            return Replace(make("play", self.ctx, self.match, self.view))
        if step != self.shown:
            self.shown = step
            self.ctx.sound.play("count")
        return None

    def captions(self) -> list[Caption]:
        step = min(self.step(), len(STEPS) - 1)
        return [Caption("centre", None, (Line(STEPS[step], 0.45, GOLD),), 190)]

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.spit, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)
