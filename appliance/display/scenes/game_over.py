"""Game over: the winner, and each player's figures (cards played, fastest reaction, races won)."""

from __future__ import annotations

from typing import Any

import pygame

from ..compositor import Canvas
from ..match import Match
from ..stats import Figures, figures
from ..table_view import GOLD, PLAYER_COLOURS, WHITE, TableView
from .base import BACK, Context, Replace, Transition, banner, is_press

SHOW_S = 30.0
MIN_S = 1.5  # a press meant for the game doesn't skip the result


def figure_lines(f: Figures) -> list[str]:
    fastest = f"{f.fastest_reaction_ms:.0f} ms" if f.fastest_reaction_ms is not None else "-"
    return [
        f"cards played {f.cards_played}",
        f"fastest reaction {fastest}",
        f"races won {f.races_won}",
        f"rounds won {f.rounds_won}",
    ]


class GameOverScene:
    def __init__(self, ctx: Context, match: Match, view: TableView) -> None:
        self.ctx = ctx
        self.match = match
        self.view = view
        self.figures = figures(match.events)
        self.start_ns = ctx.clock()
        self.now_ns = self.start_ns
        self._leave = False

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Any) -> Transition | None:
        late_enough = press.t_ns - self.start_ns >= MIN_S * 1e9
        if (press.control == BACK and press.pressed) or (is_press(press, "start", "spit") and late_enough):
            self._leave = True
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if self._leave or now_ns - self.start_ns >= SHOW_S * 1e9:
            from .title import TitleScene

            return Replace(TitleScene(self.ctx))
        return None

    def draw(self, canvas: Canvas) -> None:
        game = self.match.game
        self.view.draw(canvas, game, self.now_ns)
        lay = self.ctx.layout
        winner = game.winner
        banner(
            canvas,
            self.view,
            [(f"Player {winner} wins!", 0.3, GOLD), ("press START or SPIT for the title", 0.09, WHITE)],
            lay.centre,
        )
        for player, seat in lay.seats.items():
            f = self.figures[player]
            head = "You win!" if player == winner else "Well played"
            lines: list[tuple[str, float, tuple[int, int, int]]] = [(head, 0.15, PLAYER_COLOURS[player])]
            lines += [(line, 0.13, WHITE) for line in figure_lines(f)]
            banner(canvas, self.view, lines, seat.stock[2].center, seat.turned)  # over the emptied stock row
