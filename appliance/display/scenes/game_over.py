"""Game over: the winner, and each player's figures (Spit: cards played, fastest reaction, races
won; Speed: the score, and every deal), what they mean, and a rematch (SPIT!: the same game and
players again) or the title (START). One scene for every game at the table; the figures and words
are the game's (table_game.py)."""

from __future__ import annotations

from typing import Any

import pygame

from appliance.match import Match

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..i18n import _
from ..table_view import GOLD, PLAYER_COLOURS
from .base import Context, Push, Transition, draw_scene, make
from .ending import Ending
from .table_game import table_game


class GameOverScene(Ending):
    REMATCH = True

    def __init__(self, ctx: Context, match: Match, view: Any) -> None:
        self.ctx = ctx
        self.match = match
        self.view = view
        self.words = table_game(match)
        self.words.over_start(match)
        self.start_ending()
        self.records = self._records()  # reactions for the table: their initials first (reaction_initials.py)
        self._entering = False

    def _records(self) -> list[tuple[int, int, float]]:
        """The players whose fastest reaction makes the cabinet's table (a cabinet keeps one: a
        settings file), as reaction_initials takes them."""
        figures = getattr(self.words, "figures", {})  # (Spit's figures; a game without reactions has none)
        if self.ctx.config_path is None or not figures:
            return []
        from ..coins import office
        from .initials import reaction_qualifiers

        fastest = {seat: getattr(f, "fastest_reaction_ms", None) for seat, f in figures.items()}
        table = [s.ms for s in office(self.ctx).high_scores("reaction")]
        # A linked game's seats at the other cabinet: their players are not here to enter initials.
        elsewhere: frozenset[int] = getattr(getattr(self.match, "table", None), "remote_seats", frozenset())
        return reaction_qualifiers(fastest, table, {*self.match.bots, *elsewhere})

    def update(self, now_ns: int) -> Transition | None:
        if self.records:  # the initials first; then this screen's figures and rematch
            found, self.records = self.records, []
            self._entering = True
            return Push(make("reaction_initials", self.ctx, found, self.view))
        if self._entering:  # back from the initials: shown afresh, for its full time
            self._entering = False
            self.start_ending()
        return super().update(now_ns)

    def background(self) -> pygame.Surface:
        return self.view.background()

    def captions(self) -> list[Caption]:
        winner = self.match.game.winner
        head = _("{name} wins!").format(name=self.name(winner)) if winner is not None else _("Game over")
        out = [caption("panel", None, Line(head, 0.3, GOLD), *self.words.over_why(self), shade=200)]
        for player in self.view.layout.seats:
            if self.ctx.layout.mode == "desktop" or player in self.match.bots:
                mood = self.name(player)
            else:
                mood = _("You win!") if player == winner else _("Well played")
            lines = [Line(mood, 0.15, PLAYER_COLOURS[player]), *self.words.over_seat(self, player)]
            out.append(Caption("panel", player, tuple(lines), 200))
        out.append(Caption("panel", None, tuple(self.words.over_shared(self)), 200))
        out.append(Caption("panel", None, self.go_on_lines()))
        return out

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.game, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)
