"""Between Speed's deals: who won the deal and by how many cards, the scores, the next deal.

Shown after a deal is played out (or thrown in: nobody could ever play again) and the cards are
dealt again; a player's press for the new deal (SPIT!, a card) ends it and counts, as in Spit's
round summary. Registered as "speed_summary".
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pygame

from appliance.match import Match
from appliance.rules import Event
from appliance.rules.events import RoundOver, Score

from ..captions import Caption, Line
from ..compositor import Canvas
from ..i18n import _
from ..speed_view import SpeedTable
from ..table_view import GOLD, PLAYER_COLOURS, WHITE
from .base import Context, draw_scene, make
from .between_rounds import BetweenRounds


def deal_lines(events: list[Event], computer: frozenset[int] = frozenset()) -> list[tuple[str, int | None]]:
    """(words, whose colour) for the deal that just ended."""
    lines: list[tuple[str, int | None]] = []
    for event in events:
        if isinstance(event, RoundOver):
            number = event.round
            if event.reason == "played_out":
                player = event.player or 0
                name = _("The computer") if player in computer else _("Player {n}").format(n=player)
                lines.append((_("Deal {round}: {name} played out!").format(round=number, name=name), player))
            else:
                lines.append((_("Deal {round}: nobody can ever play, dealt again").format(round=number), None))
        elif isinstance(event, Score):
            words = _("Player {n} scores {points}")
            lines.append((words.format(points=event.points, n=event.player), event.player))
    return lines


class SpeedSummaryScene(BetweenRounds):
    def __init__(self, ctx: Context, match: Match, table: SpeedTable, events: list[Any]) -> None:
        self.ctx = ctx
        self.match = match
        self.table = table
        self.lines = deal_lines(events, frozenset(match.bots))
        self.start_summary()

    def background(self) -> pygame.Surface:
        return self.table.background()

    def seat_numbers(self) -> Collection[int]:
        return self.table.layout.seats

    def back_to_play(self) -> Any:
        return make("speed_play", self.ctx, self.match, self.table, self.events_from)

    def captions(self) -> list[Caption]:
        game: Any = self.match.game
        lines = [Line(_("Deal {round}").format(round=game.round), 0.2, GOLD)]
        lines += [Line(words, 0.13, PLAYER_COLOURS.get(player or 0, WHITE)) for words, player in self.lines]
        one, two = (p.score for p in game.players)
        lines.append(Line(_("Score {one} – {two}, first to {target}").format(
            one=one, two=two, target=game.options.target), 0.13, WHITE))
        return [Caption("panel", None, tuple(lines), 190)]

    def draw(self, canvas: Canvas) -> None:
        self.table.draw(canvas, self.match.game, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.table.layout)
