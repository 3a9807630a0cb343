"""What every end-of-game scene shares: it stays `SHOW_S` seconds, or until START or SPIT! (after
`MIN_S`, so a press meant for the game doesn't skip the result) or BACK, then goes on to `next_scene`
(the title, unless the scene says otherwise)."""

from __future__ import annotations

from typing import Any

from ..i18n import _
from .base import BACK, Context, Input, Replace, Transition, is_press, make

SHOW_S = 30.0
MIN_S = 1.5


class Ending:
    ctx: Context
    match: Any

    def start_ending(self) -> None:
        self.start_ns = self.ctx.clock()
        self.now_ns = self.start_ns
        self._leave = False

    def on_event(self, press: Input) -> Transition | None:
        late_enough = press.t_ns - self.start_ns >= MIN_S * 1e9
        if (press.control == BACK and press.pressed) or (is_press(press, "start", "spit") and late_enough):
            self._leave = True
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if self._leave or now_ns - self.start_ns >= SHOW_S * 1e9:
            return Replace(self.next_scene())
        return None

    def next_scene(self) -> Any:
        return make("title", self.ctx)

    def name(self, player: int) -> str:
        return _("The computer") if player in self.match.bots else _("Player {n}").format(n=player)
