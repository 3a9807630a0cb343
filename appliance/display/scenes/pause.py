"""The pause (Escape during a game): pushed over the game, which waits under it as it was.

SPIT or START goes back to the game (the idle clock starts again from then); Escape again leaves
the game for the title (its journal keeps what happened). The computer does not play while the
game is paused: only the scene on top of the stack is given time. The game's clock is held
(`Match.hold`) from the pause to the press that plays on, so a window the rules hold open (a race
for the ghost card, a table slap being judged, a lent card slapped for) has the time it had left.
"""

from __future__ import annotations

from typing import Any

import pygame

from ..captions import Caption, Line
from ..compositor import Canvas
from ..i18n import _
from ..table_view import GOLD, WHITE
from .base import BACK, Context, Input, Pop, Transition, draw_overlay, is_press, leave_game


class PauseScene:
    holds_clock = True  # the match's clock stands still under it already (the service menu need not)
    calm = True  # changes only when pressed: drawn runner.CALM_FPS times a second

    def __init__(self, ctx: Context, match: Any) -> None:
        self.ctx = ctx
        self.match = match
        match.hold(ctx.clock())

    def background(self) -> pygame.Surface:  # only drawn over a game; alone, the plain table
        return self.ctx.view(show_keys=False).background()

    def on_event(self, press: Input) -> Transition | None:
        if press.control == BACK and press.pressed:
            return leave_game(self.ctx, self.match)
        if is_press(press, "spit", "start"):
            self.match.release(press.t_ns)
            return Pop()
        return None

    def update(self, now_ns: int) -> Transition | None:
        return None

    def captions(self) -> list[Caption]:
        lines = (
            Line(_("Paused"), 0.3, GOLD),
            Line(_("SPIT or START: play on"), 0.14, WHITE, "start"),  # (a click or a tap on it: START)
            Line(_("Esc: leave the game"), 0.12, WHITE, BACK),
        )
        return [Caption("panel", None, lines, 200)]

    def draw(self, canvas: Canvas) -> None:
        draw_overlay(canvas, self.ctx, self.captions())
