"""Playing Speed: the table (speed_view.py), both players' presses, the running score.

Each seat is told in its own prompt place what it is asked to do now: in `ready` and in a stalemate
"press SPIT!" until it has called; while playing with nothing that fits, to wait for the other
player. Its info place holds the deal and the score as it reads them (mine first; on the desktop one
shared line, player 1 first), and the target. A seat the computer plays is told nothing. A deal won
(or thrown in) goes to the deal summary (`speed_summary`), the game's end to `speed_over`.
Registered as "speed_play": `make("speed_play", ctx, match)`, as the Spit "play" scene.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pygame

from appliance.match import Match

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..events import EventReader
from ..hints import StuckWatch
from ..i18n import _
from ..speed_view import SpeedTable
from ..table_view import GOLD, PLAYER_COLOURS, SOFT
from .at_table import AtTable
from .base import Context, Replace, Transition, draw_scene, make

SOUNDS = {"play": "play", "reject": "reject", "call": "spit", "select": "select", "turn_up": "flip",
          "draw": "select", "game_over": "win"}


def speed_table(ctx: Context, match: Match) -> SpeedTable:
    """The Speed table for this screen (its layout and card art are the classic two-seat table's)."""
    layout, art = ctx.table_for(None)
    return SpeedTable(layout, art, ctx.keymap, True, frozenset(match.bots))


def score_lines(game: Any, seat: int, desktop: bool = False) -> tuple[str, str]:
    """The running score as `seat` reads it (on the desktop, where both read the screen alike, by
    player: each seat's own beside it), and the deal."""
    deal = _("deal {round} · first to {target}").format(round=game.round, target=game.options.target)
    (other,) = game.table.others(seat)  # Speed is for two
    mine, theirs = game.player(seat).score, game.player(other).score
    if desktop:
        return _("player {n}: {score}").format(n=seat, score=mine), deal
    return _("you {mine} · them {theirs}").format(mine=mine, theirs=theirs), deal


class SpeedPlayScene(AtTable):
    SOUNDS = SOUNDS

    def __init__(self, ctx: Context, match: Match, table: SpeedTable | None = None,
                 events_from: int | None = None) -> None:
        self.ctx = ctx
        self.match = match
        if match.variant != "speed" and type(match.game).__name__ != "SpeedGame":
            raise TypeError(f"{match.variant} is not played on a Speed table")
        self.table = table or speed_table(ctx, match)
        self.now_ns = ctx.clock()
        self.reader = EventReader(match, events_from)
        self.round_events: list[Any] = []
        self._summary_due = False
        self.watch = StuckWatch(self.now_ns)  # who has done nothing for a while

    @property
    def game(self) -> Any:
        return self.match.game

    def background(self) -> pygame.Surface:
        return self.table.background()

    def notice(self, events: list[Any]) -> None:
        self.watch.notice(events, self.now_ns)
        self.table.notice(events, self.now_ns, self.game)  # (the game: what a misfit card would fit)

    def seat_numbers(self) -> Collection[int]:
        return self.table.layout.seats

    def _next(self) -> Transition | None:
        if self.game.phase == "over":
            return Replace(make("speed_over", self.ctx, self.match, self.table))
        if self._summary_due:
            self._summary_due = False
            return Replace(make("speed_summary", self.ctx, self.match, self.table, list(self.round_events)))
        return None

    def prompt(self, player: int) -> tuple[str, tuple[int, int, int]] | None:
        """What a seat is asked to do now (None: nothing)."""
        game = self.game
        me = game.player(player)
        computer = player in self.match.bots
        colour = PLAYER_COLOURS[player]
        if game.phase in ("ready", "stalemate"):
            if me.called:
                return (_("the computer called SPIT!") if computer else _("you called SPIT!")), GOLD
            if computer:
                return None
            if game.phase == "stalemate":
                return _("Nobody can play: press SPIT!"), colour
            return _("Ready? press SPIT!"), colour
        if game.phase == "playing" and not computer and not game.can_move(player):
            return _("nothing of yours fits: watch for a card"), colour
        if game.phase == "playing" and not computer:  # stuck a while: the move that is there (a draw)
            keymap = self.table.keymap if self.table.show_keys else None
            told = self.watch.stuck(game, player, self.now_ns, keymap, (len(self.match.events), id(game)))
            if told is not None:
                return told.words(), colour
        return None

    def captions(self) -> list[Caption]:
        out = []
        layout = self.table.layout
        for player in layout.seats:
            said = self.prompt(player)
            if said is not None:
                out.append(caption("prompt", player, Line(said[0], 0.13, said[1]), shade=150))
        for owner in layout.seats:
            score, deal = score_lines(self.game, owner, layout.mode == "desktop")
            out.append(caption("info", owner, Line(score, 0.13, GOLD), Line(deal, 0.1, SOFT), shade=130))
        out += self.table.feedback(self.now_ns)
        out += self.idle_warning()
        out += self.link_captions()
        return out

    def draw(self, canvas: Canvas) -> None:
        self.table.draw(canvas, self.game, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.table.layout)
