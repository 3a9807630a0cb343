"""Between Speed's deals: who won the deal and by how many cards, the scores, the next deal.

Shown after a deal is played out (or thrown in: nobody could ever play again) and the cards are
dealt again; a player's press for the new deal (SPIT!, a card) ends it and counts, as in Spit's
round summary. Registered as "speed_summary".
"""

from __future__ import annotations

from typing import Any

import pygame

from appliance.match import Match
from appliance.rules import CONTROLS

from ..captions import Caption, Line
from ..compositor import Canvas
from ..events import detail, kind
from ..i18n import _
from ..speed_view import SpeedTable
from ..table_view import GOLD, PLAYER_COLOURS, WHITE
from .base import BACK, Context, Input, Replace, Transition, draw_scene, leave_game, make

SHOW_S = 4.0


def deal_lines(events: list[Any], computer: frozenset[int] = frozenset()) -> list[tuple[str, int | None]]:
    """(words, whose colour) for the deal that just ended."""
    lines: list[tuple[str, int | None]] = []
    for event in events:
        what = kind(event)
        if what == "round_over":
            number = detail(event, "round", "")
            if detail(event, "reason") == "played_out":
                player = int(detail(event, "player", 0))
                name = _("The computer") if player in computer else _("Player {n}").format(n=player)
                lines.append((_("Deal {round}: {name} played out!").format(round=number, name=name), player))
            else:
                lines.append((_("Deal {round}: nobody can ever play, dealt again").format(round=number), None))
        elif what == "score":
            player = int(detail(event, "player", 0))
            words = _("Player {n} scores {points}")
            lines.append((words.format(points=detail(event, "points", 0), n=player), player))
    return lines


class SpeedSummaryScene:
    def __init__(self, ctx: Context, match: Match, table: SpeedTable, events: list[Any]) -> None:
        self.ctx = ctx
        self.match = match
        self.table = table
        self.lines = deal_lines(events, frozenset(match.bots))
        self.start_ns = ctx.clock()
        self.now_ns = self.start_ns
        self._leave = False
        self.events_from = len(match.events)

    def background(self) -> pygame.Surface:
        return self.table.background()

    def on_event(self, press: Input) -> Transition | None:
        if press.control == BACK and press.pressed:
            return leave_game(self.ctx, self.match)
        if not press.pressed or press.player in self.match.bots:
            return None
        if press.control == "start":
            self._leave = True
        elif press.player in self.table.layout.seats and press.control in CONTROLS:
            self.match.press(press.t_ns, press.player, press.control, press.source)
            self._leave = True
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if self._leave or now_ns - self.start_ns >= SHOW_S * 1e9:
            self.match.last_human_ns = now_ns
            return Replace(make("speed_play", self.ctx, self.match, self.table, self.events_from))
        return None

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
