"""The title and attract loop: the computer playing itself behind the title, how to play, keys.

With the computer opponent installed the attract game is computer against computer (never
journalled); without it, a built-in script deals and calls "Spit!", and a new deal follows.
Any player's SPIT or the cabinet's START goes to choosing players; Escape leaves the program.
"""

from __future__ import annotations

from typing import Any

import pygame

from appliance.bots import demo_bots

from ..compositor import Canvas
from ..keys import legend
from ..match import Match
from ..table_view import GOLD, SOFT, WHITE, TableView
from .base import BACK, Context, Quit, Replace, Transition, banner, is_press

HOW_TO_PLAY = [
    "Get rid of your cards first. Both play at once: no turns!",
    "Pick a stock card, then play it onto a spit pile one rank up or down (A is next to 2 and K).",
    "Nobody can play? Both press SPIT! and turn a new card.",
    "A round is over: slap the smaller spit pile!",
]
ATTRACT_GAME_S = 600.0  # a demo game still going after ten minutes is dealt again


class TitleScene:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.view: TableView = ctx.view(assist=False, show_keys=False)
        self.now_ns = ctx.clock()
        self.deals = 0
        self.match = self._attract_match(self.now_ns)

    def _attract_match(self, now_ns: int) -> Match:
        self.deals += 1
        seed = 1000 + self.deals
        one, two = demo_bots(seed)
        match = Match(seed, now_ns, None, {1: one, 2: two})
        match.on_events = lambda events: self.view.notice(events, self.now_ns, match.game)
        return match

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Any) -> Transition | None:
        if press.control == BACK and press.pressed:
            return None if self.ctx.settings.kiosk else Quit(0)
        if is_press(press, "start", "spit"):
            from .choose import ChooseScene

            self.ctx.sound.play("select")
            return Replace(ChooseScene(self.ctx))
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        match = self.match
        match.tick(now_ns)
        over_for = match.game_time(now_ns) - match.game.now
        if (match.finished and over_for > 5.0) or match.game_time(now_ns) > ATTRACT_GAME_S:
            self.match = self._attract_match(now_ns)
        return None

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.game, self.now_ns)
        lay = self.ctx.layout
        lines: list[tuple[str, float, tuple[int, int, int]]] = [("SPIT ARCADE", 0.42, GOLD)]
        lines += [(line, 0.14, WHITE) for line in HOW_TO_PLAY]
        lines += [(line, 0.12, SOFT) for line in legend(self.ctx.keymap)]
        blink = (self.now_ns // 600_000_000) % 2 == 0
        lines.append(("press SPIT or START to play" if blink else " ", 0.14, GOLD))
        banner(canvas, self.view, lines, lay.centre, alpha=200)
        if lay.mode == "tabletop":
            seat = lay.seat(2)
            banner(canvas, self.view, [("SPIT ARCADE: press SPIT to play", 0.12, GOLD)], seat.message, True)
