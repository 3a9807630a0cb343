"""Playing: the table, every seat's presses, and the in-game moments that need no scene of their own.

One scene for every game played at the table: what is a game's own (its table, its sounds, what
each seat is asked and told) is its `TableGame` (table_game.py: spit_words.py for Spit and its
family, speed_words.py for Speed). Each seat is told in its own prompt place what it is asked to do
now, and the info place holds what the game says about itself (the rules in force; Speed: the
score). A seat the computer plays is told nothing and shows no keys. Rejects go to the seat's own
reject place, races to everybody's race place.

The ghost card (V14) and "Spit card, please" (V13) add their own (duel_view.py): their verdicts
(the rules say them as data, `Game.verdict`; the table says them in words) big for everybody. The
scene shows a verdict out before it moves on (game over, the round summary), and waits while a
window the rules hold open is still open.
A new layout (Speed: a new deal) goes to the round summary, the game's end to game over (Running
Spit: its own). Nobody touching the game for the idle time goes back to the title; the journal keeps
the abandoned game.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pygame

from appliance.match import Match

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..duel_view import PROMPT_SIZE
from ..events import EventReader
from ..hints import StuckWatch
from .at_table import AtTable
from .base import Context, Replace, Transition, draw_scene, make
from .table_game import table_game


class PlayScene(AtTable):
    def __init__(
        self, ctx: Context, match: Match, view: Any = None, events_from: int | None = None
    ) -> None:
        """`view`: the game's table, as the scene before left it (default: a new one); `events_from`:
        the first of the match's events this scene has to take in (default: those still to come)."""
        self.ctx = ctx
        self.match = match
        self.words = table_game(match)  # what is the game's own
        self.sounds = self.words.sounds
        self.view = view or self.words.table(ctx, match)
        self.now_ns = ctx.clock()
        self.round_events: list[Any] = []
        self.reader = EventReader(match, events_from)
        self._summary_due = False
        self.overlays, self.duel = self.words.extras(match, self.view)
        self.watch = StuckWatch(self.now_ns)  # who has done nothing for a while

    @property
    def game(self) -> Any:
        return self.match.game

    def background(self) -> pygame.Surface:
        return self.view.background()

    def notice(self, events: list[Any]) -> None:
        self.watch.notice(events, self.now_ns)
        self.view.notice(events, self.now_ns, self.game)  # (the game: what a misfit card would fit)
        if self.duel is not None:
            self.duel.notice(events, self.now_ns)

    def seat_numbers(self) -> Collection[int]:
        return self.view.layout.seats

    def _next(self) -> Transition | None:
        if self.duel is not None and (self.duel.holding(self.now_ns) or self.match.spit.deadline() is not None):
            return None  # a verdict is shown out, a race or a slap for a card played out, before the game moves on
        if self.game.phase == "over":
            return Replace(make(self.words.ending(self.match), self.ctx, self.match, self.view))
        if self._summary_due:
            self._summary_due = False
            return Replace(make("round_summary", self.ctx, self.match, self.view, list(self.round_events)))
        return None

    def prompt(self, player: int) -> tuple[str, tuple[int, int, int]] | None:
        """What a seat is asked to do now (None: nothing)."""
        return self.words.prompt(self, player)

    def info(self) -> list[Caption]:
        """The info place's texts (the rules in force; Speed: the score)."""
        return self.words.info(self)

    def captions(self) -> list[Caption]:
        out = []
        layout = self.view.layout
        for player in layout.seats:
            said = self.prompt(player)
            if said is not None:
                size = self.duel.prompt_size(player) if self.duel is not None else PROMPT_SIZE  # (an urgent one: big)
                out.append(caption("prompt", player, Line(said[0], size, said[1]), shade=150))
        out += self.info()
        out += self.view.feedback(self.now_ns)
        if self.duel is not None:
            out += self.duel.captions(self.now_ns)
        out += [c for overlay in self.overlays for c in overlay.captions(self.now_ns)]
        out += self.idle_warning()
        out += self.link_captions()
        return out

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.game, self.now_ns, self.match.version)
        if self.duel is not None:
            self.duel.draw(canvas, self.now_ns)
        for overlay in self.overlays:
            overlay.draw(canvas, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)
