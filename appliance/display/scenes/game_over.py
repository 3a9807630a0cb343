"""Game over: the winner, and each player's figures (cards played, fastest reaction, races won)."""

from __future__ import annotations

import pygame

from appliance.match import Match

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..i18n import _
from ..stats import Figures, figures
from ..table_view import GOLD, PLAYER_COLOURS, WHITE, TableView
from .base import BACK, Context, Input, Replace, Transition, draw_scene, is_press, make

SHOW_S = 30.0
MIN_S = 1.5  # a press meant for the game doesn't skip the result


def figure_lines(f: Figures) -> list[str]:
    fastest = f"{f.fastest_reaction_ms:.0f} ms" if f.fastest_reaction_ms is not None else "-"
    return [
        _("cards played {n}").format(n=f.cards_played),
        _("fastest reaction {ms}").format(ms=fastest),
        _("races won {n}").format(n=f.races_won),
        _("rounds won {n}").format(n=f.rounds_won),
    ]


class GameOverScene:
    def __init__(self, ctx: Context, match: Match, view: TableView) -> None:
        self.ctx = ctx
        self.match = match
        self.view = view
        self.figures = figures(match.events, match.seats)
        self.start_ns = ctx.clock()
        self.now_ns = self.start_ns
        self._leave = False

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Input) -> Transition | None:
        late_enough = press.t_ns - self.start_ns >= MIN_S * 1e9
        if (press.control == BACK and press.pressed) or (is_press(press, "start", "spit") and late_enough):
            self._leave = True
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if self._leave or now_ns - self.start_ns >= SHOW_S * 1e9:
            return Replace(make("title", self.ctx))
        return None

    def name(self, player: int) -> str:
        return _("The computer") if player in self.match.bots else _("Player {n}").format(n=player)

    def captions(self) -> list[Caption]:
        winner = self.match.spit.winner
        head = _("{name} wins!").format(name=self.name(winner)) if winner is not None else _("Game over")
        out = [caption("panel", None, Line(head, 0.3, GOLD), shade=200)]
        for player in self.view.layout.seats:
            f = self.figures[player]
            if self.ctx.layout.mode == "desktop" or player in self.match.bots:
                mood = self.name(player)
            else:
                mood = _("You win!") if player == winner else _("Well played")
            lines = [Line(mood, 0.15, PLAYER_COLOURS[player])]
            lines += [Line(words, 0.12, WHITE) for words in figure_lines(f)]
            out.append(Caption("panel", player, tuple(lines), 200))
        out.append(caption("panel", None, Line(_("press START or SPIT for the title"), 0.1, WHITE)))
        return out

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.spit, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)
