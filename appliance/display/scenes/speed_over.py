"""Speed's game over: the winner, every deal (who played out, the points it scored) and the scores.

Registered as "speed_over"; START or SPIT! (after a moment, so a press meant for the game doesn't
skip it) goes back to the title.
"""

from __future__ import annotations

from typing import Any

import pygame

from appliance.match import Match
from appliance.rules import Event
from appliance.rules.events import RoundOver, Score

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..i18n import _
from ..speed_view import SpeedTable
from ..table_view import GOLD, PLAYER_COLOURS, WHITE
from .base import Context, draw_scene
from .ending import Ending

MAX_DEALS_SHOWN = 8  # the last deals, where a long game had more


def deals_of(events: list[Event]) -> list[tuple[int, int | None, int]]:
    """(deal, who played out (None: thrown in), points) for every deal that ended."""
    deals: list[tuple[int, int | None, int]] = []
    for event in events:
        if isinstance(event, RoundOver):
            deals.append((event.round, event.player, 0))
        elif isinstance(event, Score) and deals:
            number, player, _points = deals[-1]
            deals[-1] = (number, player, event.points)
    return deals


def deal_words(deal: tuple[int, int | None, int]) -> str:
    number, player, points = deal
    if player is None:
        return _("Deal {round}: dealt again, no score").format(round=number)
    return _("Deal {round}: player {n} +{points}").format(round=number, n=player, points=points)


class SpeedOverScene(Ending):
    REMATCH = True

    def __init__(self, ctx: Context, match: Match, table: SpeedTable) -> None:
        self.ctx = ctx
        self.match = match
        self.table = table
        self.deals = deals_of(match.events)
        self.start_ending()

    def background(self) -> pygame.Surface:
        return self.table.background()




    def captions(self) -> list[Caption]:
        game: Any = self.match.game
        winner = game.winner
        head = _("{name} wins!").format(name=self.name(winner)) if winner is not None else _("Game over")
        out = [caption("panel", None, Line(head, 0.3, GOLD), shade=200)]
        deals = [Line(deal_words(d), 0.12, PLAYER_COLOURS.get(d[1] or 0, WHITE)) for d in self.deals[-MAX_DEALS_SHOWN:]]
        for player in self.table.layout.seats:
            me = game.player(player)
            if self.table.layout.mode == "desktop" or player in self.match.bots:
                mood = self.name(player)
            else:
                mood = _("You win!") if player == winner else _("Well played")
            lines = [Line(mood, 0.15, PLAYER_COLOURS[player]),
                     Line(_("score {n}").format(n=me.score), 0.14, WHITE)]
            out.append(Caption("panel", player, tuple(lines), 200))
        out.append(Caption("panel", None, tuple(deals), 200))
        out.append(Caption("panel", None, self.go_on_lines()))
        return out

    def draw(self, canvas: Canvas) -> None:
        self.table.draw(canvas, self.match.game, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.table.layout)
