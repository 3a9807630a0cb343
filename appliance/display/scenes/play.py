"""Playing: the table, both players' presses, and the in-game moments that need no scene of their own.

- ready: "Both press SPIT!" with each player's call shown;
- stalemate: "SPIT!" — nobody can play — with each player's call shown;
- lone spitter: "slap the pile you will spit onto";
- choosing: "SLAP!" a spit pile, with both pile sizes.
A slap (or a round played out with one spit pile) deals a new layout: the round summary says who took
which pile. Game over goes to the game-over scene. Nobody touching the game for the idle time goes
back to the title; the journal keeps the abandoned game.
"""

from __future__ import annotations

from typing import Any

import pygame

from appliance.rules import Event, side_for

from ..compositor import Canvas
from ..match import Match
from ..table_view import GOLD, PLAYER_COLOURS, WHITE, TableView
from .base import BACK, Context, Replace, Transition, banner, leave_game

SOUNDS = {
    "play": "play",
    "reject": "reject",
    "call": "spit",
    "slap": "slap",
    "select": "select",
    "flip": "select",
    "game_over": "win",
}


class PlayScene:
    def __init__(self, ctx: Context, match: Match, view: TableView | None = None) -> None:
        self.ctx = ctx
        self.match = match
        self.view = view or ctx.view()
        self.now_ns = ctx.clock()
        self.round_events: list[Event] = []
        match.on_events = self._on_match_events
        self._summary_due = False

    def background(self) -> pygame.Surface:
        return self.view.background()

    def _on_match_events(self, events: list[Event]) -> None:
        self.view.notice(events, self.now_ns, self.match.game)
        for event in events:
            sound = SOUNDS.get(event["event"])
            if sound is not None:
                self.ctx.sound.play(sound)
            if event["event"] == "round_over":
                self.round_events = []
            self.round_events.append(event)
            if event["event"] == "deal":
                self._summary_due = True

    def on_event(self, press: Any) -> Transition | None:
        if press.control == BACK and press.pressed:
            return leave_game(self.ctx, self.match)
        if not press.pressed or press.player not in (1, 2) or press.player in self.match.bots:
            return None
        if press.control in ("start", "service"):
            return None
        self.now_ns = max(self.now_ns, press.t_ns)
        self.match.press(press.t_ns, press.player, press.control, press.source)
        return self._next()

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        self.match.tick(now_ns)
        if (
            not self.match.finished
            and self.match.idle_s(now_ns) > self.ctx.settings.idle_timeout_s
            and len(self.match.bots) < 2
        ):
            return leave_game(self.ctx, self.match)
        return self._next()

    def _next(self) -> Transition | None:
        if self.match.game.phase == "over":
            from .game_over import GameOverScene

            return Replace(GameOverScene(self.ctx, self.match, self.view))
        if self._summary_due:
            self._summary_due = False
            from .round_summary import RoundSummaryScene

            return Replace(RoundSummaryScene(self.ctx, self.match, self.view, list(self.round_events)))
        return None

    def draw(self, canvas: Canvas) -> None:
        game = self.match.game
        self.view.draw(canvas, game, self.now_ns)
        lay = self.ctx.layout
        if game.phase in ("ready", "stalemate"):
            lone = game.lone_spitter()
            title = "SPIT!" if game.phase == "stalemate" else "Ready?"
            lines: list[tuple[str, float, tuple[int, int, int]]] = [(title, 0.3, GOLD)]
            if game.phase == "stalemate":
                lines.append(("nobody can play", 0.1, WHITE))
            banner(canvas, self.view, lines, lay.centre)
            for player, seat in lay.seats.items():
                me = game.player(player)
                if not me.spit_cards:
                    words = "no spit cards: wait"
                elif me.called:
                    words = "you called SPIT!"
                elif lone == player and game.lone_pile is None:
                    words = "you spit alone: slap the pile you want"
                else:
                    words = "press SPIT!"
                colour = GOLD if me.called else PLAYER_COLOURS[player]
                banner(canvas, self.view, [(words, 0.13, colour)], seat.message, seat.turned, 150)
        elif game.phase == "choosing":
            banner(
                canvas,
                self.view,
                [("SLAP!", 0.3, GOLD), ("a spit pile:", 0.08, WHITE), ("smaller is best", 0.08, WHITE)],
                lay.centre,
            )
            for player, seat in lay.seats.items():
                sizes = [len(game.spit_piles[0]), len(game.spit_piles[1])]
                own_left = lay.mode == "desktop" or side_for(player, 0) == "left"  # desktop: screen's left
                left, right = (sizes[0], sizes[1]) if own_left else (sizes[1], sizes[0])
                words = f"left pile {left} cards, right pile {right} cards"
                banner(canvas, self.view, [(words, 0.12, PLAYER_COLOURS[player])], seat.message, seat.turned, 150)


