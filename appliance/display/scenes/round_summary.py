"""Between rounds (Speed: between deals): why the round ended, who took which spit pile (Speed: who
played out and what it scored), and the new counts (Speed: the score). One scene for every game at
the table; the words are the game's (table_game.py). A player's press for the new round ends it and
counts."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pygame

from appliance.match import Match

from ..captions import Caption, Line
from ..compositor import Canvas
from ..table_view import GOLD, PLAYER_COLOURS, WHITE
from .base import Context, draw_scene, make
from .between_rounds import BetweenRounds
from .table_game import table_game


class RoundSummaryScene(BetweenRounds):
    def __init__(self, ctx: Context, match: Match, view: Any, events: list[Any]) -> None:
        self.ctx = ctx
        self.match = match
        self.view = view
        self.words = table_game(match)
        self.lines = self.words.summary_lines(events, view, match.bots)
        self.start_summary()

    def background(self) -> pygame.Surface:
        return self.view.background()

    def seat_numbers(self) -> Collection[int]:
        return self.view.layout.seats

    def back_to_play(self) -> Any:
        return make("play", self.ctx, self.match, self.view, self.events_from)

    def captions(self) -> list[Caption]:
        game = self.match.game
        lines = [Line(self.words.summary_head(game), 0.2, GOLD)]
        lines += [Line(words, 0.13, PLAYER_COLOURS.get(player or 0, WHITE)) for words, player in self.lines]
        lines.append(self.words.summary_foot(game))
        return [Caption("panel", None, tuple(lines), 190)]

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.game, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)
