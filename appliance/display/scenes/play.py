"""Playing: the table, both players' presses, and the in-game moments that need no scene of their own.

Each seat is told, in its own prompt place, what it is asked to do now:
- ready and stalemate: "press SPIT!" until it has called ("you called SPIT!");
- lone spitter: "slap the pile you will spit onto";
- choosing: "SLAP!" a spit pile, with both pile sizes as that seat sees them.
A seat the computer plays is told nothing and shows no keys; its calls are said as the computer's.
Rejects go to the seat's own reject place, races to everybody's race place.
A slap (or a round played out with one spit pile) deals a new layout: the round summary says who took
which pile. Game over goes to the game-over scene. Nobody touching the game for the idle time goes
back to the title; the journal keeps the abandoned game.
"""

from __future__ import annotations

from typing import Any

import pygame

from appliance.match import Match

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..events import EventReader, kind
from ..i18n import _
from ..legend import pile_side
from ..table_view import GOLD, PLAYER_COLOURS, TableView
from .base import BACK, Context, Input, Push, Replace, Transition, draw_scene, is_press, leave_game, make

SOUNDS = {
    "play": "play",
    "reject": "reject",
    "call": "spit",
    "slap": "slap",
    "select": "select",
    "flip": "flip",
    "game_over": "win",
}


class PlayScene:
    def __init__(
        self, ctx: Context, match: Match, view: TableView | None = None, events_from: int | None = None
    ) -> None:
        """`events_from`: the first of the match's events this scene has to take in (default: those
        still to come)."""
        self.ctx = ctx
        self.match = match
        self.view = view or ctx.view(computer=frozenset(match.bots))
        self.now_ns = ctx.clock()
        self.round_events: list[Any] = []
        self.reader = EventReader(match, events_from)
        self._summary_due = False

    def background(self) -> pygame.Surface:
        return self.view.background()

    def _take_events(self) -> None:
        events = self.reader.new_events()
        if not events:
            return
        self.view.notice(events, self.now_ns, self.match.spit)
        for event in events:
            name = kind(event)
            sound = SOUNDS.get(name)
            if sound is not None:
                self.ctx.sound.play(sound)
            if name == "round_over":
                self.round_events = []
            self.round_events.append(event)
            if name == "deal":
                self._summary_due = True

    def on_event(self, press: Input) -> Transition | None:
        if press.control == BACK and press.pressed:
            return Push(make("pause", self.ctx, self.match))
        if is_press(press, "service"):
            return Push(make("settings", self.ctx))
        if not press.pressed or press.player not in (1, 2) or press.player in self.match.bots:
            return None
        if press.control in ("start", "service"):
            return None
        self.now_ns = max(self.now_ns, press.t_ns)
        self.match.press(press.t_ns, press.player, press.control, press.source)
        self._take_events()
        return self._next()

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        self.match.tick(now_ns)
        self._take_events()
        if (
            not self.match.finished
            and self.match.idle_s(now_ns) > self.ctx.settings.idle_timeout_s
            and len(self.match.bots) < 2
        ):
            return leave_game(self.ctx, self.match)
        return self._next()

    def _next(self) -> Transition | None:
        if self.match.spit.phase == "over":
            return Replace(make("game_over", self.ctx, self.match, self.view))
        if self._summary_due:
            self._summary_due = False
            return Replace(make("round_summary", self.ctx, self.match, self.view, list(self.round_events)))
        return None

    def prompt(self, player: int) -> tuple[str, tuple[int, int, int]] | None:
        """What a seat is asked to do now (None: nothing)."""
        game = self.match.spit
        me = game.player(player)
        computer = player in self.match.bots
        if game.phase in ("ready", "stalemate"):
            if me.called:
                return (_("the computer called SPIT!") if computer else _("you called SPIT!")), GOLD
            if computer:
                return None
            if not me.spit_cards:
                return _("no spit cards: wait"), PLAYER_COLOURS[player]
            lone = game.lone_spitter()
            if lone == player and game.lone_pile is None:
                return _("you spit alone: slap the pile you want"), PLAYER_COLOURS[player]
            if game.phase == "stalemate":
                return _("Nobody can play: press SPIT!"), PLAYER_COLOURS[player]
            return _("Ready? press SPIT!"), PLAYER_COLOURS[player]
        if game.phase == "choosing" and not computer:
            sizes = {pile_side(self.ctx.layout.mode, player, i): len(game.spit_piles[i]) for i in (0, 1)}
            words = _("SLAP the smaller pile! left {left} cards, right {right} cards").format(
                left=sizes["left"], right=sizes["right"]
            )
            return words, GOLD
        return None

    def captions(self) -> list[Caption]:
        out = []
        for player in self.ctx.layout.seats:
            said = self.prompt(player)
            if said is not None:
                out.append(caption("prompt", player, Line(said[0], 0.13, said[1]), shade=150))
        out += self.view.feedback(self.now_ns)
        return out

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.spit, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions())
