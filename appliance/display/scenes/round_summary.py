"""Between rounds: why the round ended, who took which spit pile (and its size), the new counts."""

from __future__ import annotations

from typing import Any

import pygame

from appliance.rules import CONTROLS, Event, side_for

from ..compositor import Canvas
from ..match import Match
from ..table_view import GOLD, PLAYER_COLOURS, WHITE, TableView
from .base import BACK, Context, Replace, Transition, banner, leave_game

SHOW_S = 4.0


def summary_lines(events: list[Event], layout_mode: str = "tabletop") -> list[tuple[str, int | None]]:
    """(words, player whose colour it is in) for the round that just ended."""
    lines: list[tuple[str, int | None]] = []
    for event in events:
        kind = event["event"]
        if kind == "round_over":
            if event["reason"] == "stock_out":
                lines.append(
                    (
                        f"Round {event['round']}: player {event['player']} played out their stock!",
                        event["player"],
                    )
                )
            else:
                lines.append((f"Round {event['round']}: blocked, nobody can play", None))
        elif kind == "slap":
            lines.append((f"Player {event['player']} slapped first", event["player"]))
        elif kind == "take":
            player, index = event["player"], event["spit_pile"]
            if layout_mode == "desktop":  # both read the screen the same way: the screen's sides
                side = "the left" if index == 0 else "the right"
            else:
                side = f"their {side_for(player, index)}"
            lines.append((f"Player {player} takes {side} pile: {event['cards']} cards", player))
    return lines


class RoundSummaryScene:
    def __init__(self, ctx: Context, match: Match, view: TableView, events: list[Event]) -> None:
        self.ctx = ctx
        self.match = match
        self.view = view
        self.lines = summary_lines(events, ctx.layout.mode)
        self.start_ns = ctx.clock()
        self.now_ns = self.start_ns
        self._leave = False

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Any) -> Transition | None:
        if press.control == BACK and press.pressed:
            return leave_game(self.ctx, self.match)
        if not press.pressed or press.player in self.match.bots:
            return None
        if press.control == "start":
            self._leave = True
        elif press.player in (1, 2) and press.control in CONTROLS:
            # a player who goes on (calls Spit! for the new layout, picks a card) ends the summary,
            # and the press counts
            self.match.press(press.t_ns, press.player, press.control, press.source)
            self._leave = True
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if self._leave or now_ns - self.start_ns >= SHOW_S * 1e9:
            from .play import PlayScene

            self.match.last_human_ns = now_ns
            return Replace(PlayScene(self.ctx, self.match, self.view))
        return None

    def draw(self, canvas: Canvas) -> None:
        game = self.match.game
        self.view.draw(canvas, game, self.now_ns)
        lines: list[tuple[str, float, tuple[int, int, int]]] = [("New layout", 0.2, GOLD)]
        lines += [(words, 0.14, PLAYER_COLOURS.get(player or 0, WHITE)) for words, player in self.lines]
        counts = ", ".join(f"player {n}: {len(p.all_cards())} cards" for n, p in enumerate(game.players, 1))
        lines.append((counts, 0.12, WHITE))
        banner(canvas, self.view, lines, self.ctx.layout.centre)
