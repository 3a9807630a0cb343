"""A game resumed after a crash or a power cut: "game resumed", until everybody is back at the table.

Pushed over the resumed game's play scene at start (appliance/display/app.py). Every seat is told
the game was resumed; each seat a person plays is asked to press SPIT! and is "ready" once it has
(the computer's seats are ready at once). Those presses only say "I'm here": they are not the
game's and never reach the match. When every person's seat is ready the game goes on where it was.

The game's clock does not run meanwhile (`Match.hold` until everybody is back, then `release`):
the game takes up at the very moment the journal reached. Escape leaves the game for the title (the
journal is closed as abandoned); nobody coming back for the idle time does the same, so a cabinet is
never stuck on an empty game.
"""

from __future__ import annotations

from typing import Any

import pygame

from ..captions import Caption, Line
from ..compositor import Canvas
from ..i18n import _
from ..table_view import GOLD, PLAYER_COLOURS, WHITE
from .base import BACK, Context, Input, Pop, Transition, draw_scene, is_press, leave_game


class ResumedScene:
    holds_clock = True  # the match's clock stands still under it already (the service menu need not)

    def __init__(self, ctx: Context, match: Any, journal_name: str = "") -> None:
        self.ctx = ctx
        self.match = match
        self.journal_name = journal_name
        try:
            self.layout = ctx.table_for(match.game)[0]  # the game's own table: its seats' panels
        except (AttributeError, IndexError, TypeError):  # a table of another shape (Speed)
            self.layout = ctx.layout
        self.since_ns = ctx.clock()  # the match's clock stands still from here until play goes on
        match.hold(self.since_ns)
        seats = range(1, match.seats + 1)
        self.people = tuple(seat for seat in seats if seat not in match.bots)
        self.ready: set[int] = {seat for seat in seats if seat in match.bots}

    def background(self) -> pygame.Surface:  # only drawn over the game; alone, the plain table
        return self.ctx.view(show_keys=False).background()

    def on_event(self, press: Input) -> Transition | None:
        if press.control == BACK and press.pressed:
            return leave_game(self.ctx, self.match)
        if is_press(press, "spit") and press.player in self.people and press.player not in self.ready:
            self.ready.add(press.player)
            self.ctx.sound.play("select")
            if all(seat in self.ready for seat in self.people):
                return self.play_on(press.t_ns)
        return None

    def play_on(self, now_ns: int) -> Transition:
        """Everybody is back: the game's clock goes on from where it stood, and so does the game."""
        self.match.release(now_ns)
        return Pop()

    def update(self, now_ns: int) -> Transition | None:
        if not self.people:  # only the computer plays (never journalled as such, but be sure)
            return self.play_on(now_ns)
        if (now_ns - self.since_ns) / 1e9 > self.ctx.settings.idle_timeout_s:
            return leave_game(self.ctx, self.match)
        return None

    def seat_lines(self, seat: int) -> tuple[Line, ...]:
        """What one seat is told (in its own panel, turned to face it)."""
        head = Line(_("game resumed"), 0.24, GOLD)
        if seat not in self.people:
            return (head, Line(_("the computer is ready"), 0.15, WHITE))
        if seat in self.ready:
            return (head, Line(_("ready: waiting for the others"), 0.15, WHITE))
        return (head, Line(_("press SPIT! to play on"), 0.15, PLAYER_COLOURS[seat], "spit"))  # (a tap: the seat's)

    def captions(self) -> list[Caption]:
        return [Caption("panel", seat, self.seat_lines(seat), 200) for seat in range(1, self.match.seats + 1)]

    def draw(self, canvas: Canvas) -> None:
        draw_scene(canvas, self.ctx, self.captions(), self.layout)
