"""On a desktop, a game left unfinished (the window killed, the computer switched off): asked once
whether to play it on, with the keys named, before it is resumed.

Pushed over the resumed game's play scene at start instead of "game resumed" when the program is
not the cabinet's kiosk (appliance/display/app.py); the cabinet resumes every game as it always
has, for a power cut must never lose one. Yes (START or a player's SPIT!) goes on to "game resumed",
where everybody presses SPIT! to play on; no (Escape) leaves the game for the title, its journal
closed as abandoned with what happened, so it is not asked about again at the next start. The
game's clock stands still meanwhile (`Match.hold`).
"""

from __future__ import annotations

from typing import Any

import pygame

from ..captions import Caption, Line
from ..compositor import Canvas
from ..hints import seat_key
from ..i18n import _
from ..keys import key_label
from ..rules_words import choice_of, in_force
from ..table_view import GOLD, SOFT, WHITE
from .base import BACK, Context, Input, Replace, Transition, draw_overlay, is_press, leave_game, make


class ResumeAskScene:
    holds_clock = True  # the match's clock stands still under it already (the service menu need not)
    calm = True  # changes only when pressed: drawn runner.CALM_FPS times a second

    def __init__(self, ctx: Context, match: Any, journal_name: str = "") -> None:
        self.ctx = ctx
        self.match = match
        self.journal_name = journal_name
        match.hold(ctx.clock())

    def background(self) -> pygame.Surface:  # only drawn over the game; alone, the plain table
        return self.ctx.view(show_keys=False).background()

    def on_event(self, press: Input) -> Transition | None:
        if press.control == BACK and press.pressed:
            self.match.release(press.t_ns)
            return leave_game(self.ctx, self.match)
        if is_press(press, "start", "spit"):
            self.ctx.sound.play("select")
            self.match.release(press.t_ns)
            return Replace(make("resumed", self.ctx, self.match, self.journal_name))
        return None

    def update(self, now_ns: int) -> Transition | None:
        return None

    def yes_keys(self) -> str:
        """The keys that say yes: START's, and each person's SPIT! (as the keyboard has them)."""
        keymap = self.ctx.keymap
        people = [seat for seat in range(1, self.match.seats + 1) if seat not in self.match.bots]
        keys = [key_label(keymap, 0, "start"), *(seat_key(keymap, seat, "spit") for seat in people)]
        return " / ".join(k for k in keys if k)

    def rules(self) -> str:
        game = self.match.game
        options = game.rules.options.to_json() if hasattr(game, "rules") else game.options.to_json("speed")
        return in_force(choice_of(game.variant, options))

    def captions(self) -> list[Caption]:
        lines = (
            Line(_("A game was left unfinished"), 0.24, GOLD),
            Line(_("Game: {rules}").format(rules=self.rules()), 0.13, SOFT),
            Line(_("Play it on?"), 0.18, WHITE),
            Line(_("yes, play on: {keys}").format(keys=self.yes_keys()), 0.14, WHITE, "start"),  # (a tap: START)
            Line(_("no, leave it for the title: {key}").format(key="Esc"), 0.14, WHITE, BACK),
        )
        return [Caption("panel", None, lines, 210)]

    def draw(self, canvas: Canvas) -> None:
        draw_overlay(canvas, self.ctx, self.captions())  # the whole table covered: nothing under it is cut
