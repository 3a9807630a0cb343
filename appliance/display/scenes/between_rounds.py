"""What the summaries between rounds (Spit) and deals (Speed) share: they stay `SHOW_S` seconds or
until a player goes on. START goes on; a seat's game press goes on too, and counts (a call of
"Spit!" for the new layout, a card picked up); BACK leaves the game. Back at the table, the play
scene reads the events of the press that ended the summary too."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from appliance.match import Match
from appliance.rules import CONTROLS

from .base import BACK, Context, Input, Replace, Transition, leave_game

SHOW_S = 4.0


class BetweenRounds:
    ctx: Context
    match: Match

    def start_summary(self) -> None:
        self.start_ns = self.ctx.clock()
        self.now_ns = self.start_ns
        self._leave = False
        self.events_from = len(self.match.events)

    def seat_numbers(self) -> Collection[int]:
        raise NotImplementedError

    def back_to_play(self) -> Any:
        """The play scene to go back to, reading the match's events from `events_from`."""
        raise NotImplementedError

    def on_event(self, press: Input) -> Transition | None:
        if press.control == BACK and press.pressed:
            return leave_game(self.ctx, self.match)
        if not press.pressed or press.player in self.match.bots:
            return None
        if press.control == "start":
            self._leave = True
        elif press.player in self.seat_numbers() and press.control in CONTROLS:
            self.match.press(press.t_ns, press.player, press.control, press.source)
            self._leave = True
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if self._leave or now_ns - self.start_ns >= SHOW_S * 1e9:
            self.match.players_present(now_ns)
            return Replace(self.back_to_play())
        return None
