"""Between rounds: why the round ended, who took which spit pile (and its size), the new counts."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pygame

from appliance.match import Match
from appliance.rules import Event
from appliance.rules.events import Out, RoundOver, Slap, TableSlapJudged, Take

from ..captions import Caption, Line
from ..compositor import Canvas
from ..events import seat_of
from ..i18n import _
from ..legend import pile_side
from ..table_view import GOLD, PLAYER_COLOURS, WHITE, TableView, seat_name
from .base import Context, draw_scene, make
from .between_rounds import BetweenRounds


def summary_lines(events: list[Event], layout_mode: str = "tabletop", seats: int = 2,
                  computer: Collection[int] = ()) -> list[tuple[str, int | None]]:
    """(words, player whose colour it is in) for the round that just ended (`computer`: the seats
    the computer plays, named so)."""
    lines: list[tuple[str, int | None]] = []
    for event in events:
        player = seat_of(event) or None
        if isinstance(event, RoundOver):
            if event.reason == "stock_out":
                words = _("Round {round}: player {n} played out their stock!")
                lines.append((words.format(round=event.round, n=player), player))
            else:
                lines.append((_("Round {round}: blocked, nobody can play").format(round=event.round), None))
        elif isinstance(event, Out) and player is not None:
            words = _("{who} is out: place {place}").format(who=seat_name(player, computer), place=event.place)
            lines.append((words, player))
        elif isinstance(event, TableSlapJudged):
            taker = event.taker or event.chooser
            lines.append((_("Table slap: player {n} takes the piles").format(n=taker), taker))
        elif isinstance(event, Slap):
            lines.append((_("{who} slapped first").format(who=seat_name(player, computer)), player))
        elif isinstance(event, Take) and player is not None:
            side = pile_side(layout_mode, player, event.spit_pile, seats)
            if side not in ("left", "right"):  # a far pile, at a table of three or four
                words = _("{who} takes a far pile: {cards} cards")
            elif layout_mode == "desktop" and seats == 2:  # both read the screen the same way: the screen's sides
                words = (
                    _("{who} takes the left pile: {cards} cards")
                    if side == "left"
                    else _("{who} takes the right pile: {cards} cards")
                )
            else:
                words = (
                    _("{who} takes their left pile: {cards} cards")
                    if side == "left"
                    else _("{who} takes their right pile: {cards} cards")
                )
            lines.append((words.format(who=seat_name(player, computer), cards=event.cards), player))
    return lines


class RoundSummaryScene(BetweenRounds):
    def __init__(self, ctx: Context, match: Match, view: TableView, events: list[Any]) -> None:
        self.ctx = ctx
        self.match = match
        self.view = view
        self.lines = summary_lines(events, view.layout.mode, len(view.layout.seats), match.bots)
        self.start_summary()

    def background(self) -> pygame.Surface:
        return self.view.background()

    def seat_numbers(self) -> Collection[int]:
        return self.view.layout.seats

    def back_to_play(self) -> Any:
        return make("play", self.ctx, self.match, self.view, self.events_from)

    def captions(self) -> list[Caption]:
        game = self.match.spit
        lines = [Line(_("New layout"), 0.2, GOLD)]
        lines += [Line(words, 0.13, PLAYER_COLOURS.get(player or 0, WHITE)) for words, player in self.lines]
        counts = ", ".join(
            _("player {n}: {cards} cards").format(n=n, cards=len(p.all_cards())) for n, p in enumerate(game.players, 1)
        )
        lines.append(Line(counts, 0.12, WHITE))
        return [Caption("panel", None, tuple(lines), 190)]

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.spit, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)
