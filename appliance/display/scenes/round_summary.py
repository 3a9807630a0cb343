"""Between rounds: why the round ended, who took which spit pile (and its size), the new counts."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pygame

from appliance.match import Match

from ..captions import Caption, Line
from ..compositor import Canvas
from ..events import detail, kind
from ..i18n import _
from ..legend import pile_side
from ..table_view import GOLD, PLAYER_COLOURS, WHITE, TableView, seat_name
from .base import Context, draw_scene, make
from .between_rounds import BetweenRounds


def summary_lines(events: list[Any], layout_mode: str = "tabletop", seats: int = 2,
                  computer: Collection[int] = ()) -> list[tuple[str, int | None]]:
    """(words, player whose colour it is in) for the round that just ended (`computer`: the seats
    the computer plays, named so)."""
    lines: list[tuple[str, int | None]] = []
    for event in events:
        what = kind(event)
        player = int(detail(event, "player", 0)) or None
        if what == "round_over":
            number = detail(event, "round", "")
            if detail(event, "reason") == "stock_out":
                words = _("Round {round}: player {n} played out their stock!")
                lines.append((words.format(round=number, n=player), player))
            else:
                lines.append((_("Round {round}: blocked, nobody can play").format(round=number), None))
        elif what == "out" and player is not None:
            place = int(detail(event, "place", 0))
            words = _("{who} is out: place {place}").format(who=seat_name(player, computer), place=place)
            lines.append((words, player))
        elif what == "table_slap_judged":
            taker = detail(event, "taker") or detail(event, "chooser")
            lines.append((_("Table slap: player {n} takes the piles").format(n=taker), taker))
        elif what == "slap":
            lines.append((_("{who} slapped first").format(who=seat_name(player, computer)), player))
        elif what == "take" and player is not None:
            side = pile_side(layout_mode, player, int(detail(event, "spit_pile")), seats)
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
            lines.append((words.format(who=seat_name(player, computer), cards=detail(event, "cards", 0)), player))
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
