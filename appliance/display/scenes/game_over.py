"""Game over: the winner, and each player's figures (cards played, fastest reaction, races won),
what they mean, and a rematch (SPIT!: the same game and players again) or the title (START)."""

from __future__ import annotations

import pygame

from appliance.match import Match

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..game_length import ended_words
from ..i18n import _
from ..stats import Figures, figures
from ..table_view import GOLD, PLAYER_COLOURS, SOFT, WHITE, TableView
from .base import Context, draw_scene
from .ending import Ending


def figure_lines(f: Figures) -> list[str]:
    fastest = f"{f.fastest_reaction_ms:.0f} ms" if f.fastest_reaction_ms is not None else "-"
    return [
        _("cards played {n}").format(n=f.cards_played),
        _("fastest reaction {ms}").format(ms=fastest),
        _("races won {n}").format(n=f.races_won),
        _("rounds won {n}").format(n=f.rounds_won),
    ]


def figures_explained() -> list[str]:
    """What the figures mean, said where they are shown (stats.py works them out)."""
    return [
        _("fastest reaction: the quickest card played after a spit pile changed"),
        _("races won: cards played onto a pile just before another player's press for it"),
    ]


class GameOverScene(Ending):
    REMATCH = True

    def __init__(self, ctx: Context, match: Match, view: TableView) -> None:
        self.ctx = ctx
        self.match = match
        self.view = view
        self.figures = figures(match.events, match.seats)
        self.start_ending()

    def background(self) -> pygame.Surface:
        return self.view.background()




    def captions(self) -> list[Caption]:
        winner = self.match.spit.winner
        head = _("{name} wins!").format(name=self.name(winner)) if winner is not None else _("Game over")
        most = self.match.spit.rules.goal.larger_pile_wanted  # (Reverse Spit)
        why = [Line(words, 0.12, WHITE) for words in ended_words(self.match.events, self.name, most)]  # (its length)
        out = [caption("panel", None, Line(head, 0.3, GOLD), *why, shade=200)]
        for player in self.view.layout.seats:
            f = self.figures[player]
            if self.ctx.layout.mode == "desktop" or player in self.match.bots:
                mood = self.name(player)
            else:
                mood = _("You win!") if player == winner else _("Well played")
            lines = [Line(mood, 0.15, PLAYER_COLOURS[player])]
            lines += [Line(words, 0.12, WHITE) for words in figure_lines(f)]
            out.append(Caption("panel", player, tuple(lines), 200))
        out.append(Caption("panel", None, tuple(Line(words, 0.1, SOFT) for words in figures_explained()), 200))
        out.append(Caption("panel", None, self.go_on_lines()))
        return out

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.spit, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)
