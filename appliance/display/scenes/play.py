"""Playing: the table, both players' presses, and the in-game moments that need no scene of their own.

Each seat is told, in its own prompt place, what it is asked to do now:
- ready and stalemate: "press SPIT!" until it has called ("you called SPIT!");
- lone spitter: "slap the pile you will spit onto";
- choosing: "SLAP!" a spit pile, with both pile sizes as that seat sees them.
A seat the computer plays is told nothing and shows no keys; its calls are said as the computer's.
Rejects go to the seat's own reject place, races to everybody's race place.
The ghost card (V14) and "Spit card, please" (V13) add their own (duel_view.py): in the race for the
ghost card "SLAP the GHOST first to win!" to whoever played out, "SLAP it before player N!" to the
other; a lent spit card's "play out, then SLAP", then "SLAP IT NOW!" and "SLAP it before player N!";
their verdicts (the rules say them as data, `Game.verdict`; the table says them in words) big for
everybody. The scene shows a verdict out before it moves on (game over, the round summary), and waits
while a window the rules hold open is still open.
A slap (or a round played out with one spit pile) deals a new layout: the round summary says who took
which pile. Game over goes to the game-over scene. Nobody touching the game for the idle time goes
back to the title; the journal keeps the abandoned game.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pygame

from appliance.match import Match
from appliance.rules.table_slap import TableSlap

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..duel_view import PROMPT_SIZE, GhostAndDuel, seat_prompt
from ..events import EventReader
from ..game_length import length_in_force
from ..hints import StuckWatch, Told
from ..i18n import _, language
from ..rules_words import choice_of, in_force, slap_rule_words
from ..running_view import overlays_for
from ..table_view import GOLD, PLAYER_COLOURS, SOFT, WHITE, TableView, seat_name
from .at_table import AtTable
from .base import Context, Replace, Transition, draw_scene, make

SOUNDS = {
    "play": "play",
    "reject": "reject",
    "call": "spit",
    "slap": "slap",
    "select": "select",
    "flip": "flip",
    "game_over": "win",
    "table_slap": "slap",
    "table_slap_judged": "reject",
    "choose": "select",
    "out": "win",
    "ghost_laid": "flip",
    "ghost_taken": "slap",
    "spit_card_lent": "flip",
    "spit_card_won": "win",
    "spit_card_lost": "reject",
}


# What a seat is asked while the piles are chosen, by the choosing rule's key (rules/choosing.py).
CHOOSING_WORDS = {
    "slap_smaller": lambda: _("SLAP the smaller pile! left {left} cards, right {right} cards"),
    "slap_larger": lambda: _("SLAP the larger pile! left {left} cards, right {right} cards"),
    "call_first": lambda: _("call SPIT! first to choose the pile: left {left}, right {right} cards"),
    "you_played_out": lambda: _("you played out: choose a spit pile! left {left} cards, right {right} cards"),
    "you_called_first": lambda: _("you called first: choose a spit pile! left {left} cards, right {right} cards"),
    "they_played_out": lambda: _("{who} played out: they choose a pile"),
    "they_called_first": lambda: _("{who} called first: they choose a pile"),
    "you_played_out_slap_larger": lambda: _("you played out: SLAP the larger pile! left {left}, right {right} cards"),
    "they_played_out_take_larger": lambda: _("{who} played out: the larger pile is theirs"),
}


def place_words(place: int) -> str:
    """1st, 2nd ... in the players' language."""
    words = {1: _("1st"), 2: _("2nd"), 3: _("3rd"), 4: _("4th")}
    return words.get(place, str(place))


class PlayScene(AtTable):
    SOUNDS = SOUNDS

    def __init__(
        self, ctx: Context, match: Match, view: TableView | None = None, events_from: int | None = None
    ) -> None:
        """`events_from`: the first of the match's events this scene has to take in (default: those
        still to come)."""
        self.ctx = ctx
        self.match = match
        self.view = view or ctx.view(computer=frozenset(match.bots), game=match.spit)
        self.now_ns = ctx.clock()
        self.round_events: list[Any] = []
        self.reader = EventReader(match, events_from)
        self._summary_due = False
        self._in_force: tuple[str, str] | None = None
        self.overlays = overlays_for(match, self.view)  # Running Spit's runner board; the late-pad note
        self.duel = GhostAndDuel(match, self.view) if match.spit.house else None  # a house rule with a card
        self.watch = StuckWatch(self.now_ns)  # who has done nothing for a while

    def background(self) -> pygame.Surface:
        return self.view.background()

    def notice(self, events: list[Any]) -> None:
        self.watch.notice(events, self.now_ns)
        self.view.notice(events, self.now_ns, self.match.spit)
        if self.duel is not None:
            self.duel.notice(events, self.now_ns)

    def seat_numbers(self) -> Collection[int]:
        return self.view.layout.seats

    def _next(self) -> Transition | None:
        if self.duel is not None and (self.duel.holding(self.now_ns) or self.match.spit.deadline() is not None):
            return None  # a verdict is shown out, a race or a slap for a card played out, before the game moves on
        if self.match.spit.phase == "over":
            ending = "running_over" if self.match.spit.rules.moves.carry else "game_over"
            return Replace(make(ending, self.ctx, self.match, self.view))
        if self._summary_due:
            self._summary_due = False
            return Replace(make("round_summary", self.ctx, self.match, self.view, list(self.round_events)))
        return None

    def sides(self, player: int) -> tuple[int, int]:
        """The spit piles on the seat's left and right, as it sees them (the screen's on the desktop)."""
        game = self.match.spit
        seats = game.table.seats
        if self.view.layout.mode == "desktop" and seats == 2:
            return 0, 1
        left, right = game.table.spit_pile_for(player, "left"), game.table.spit_pile_for(player, "right")
        return (left or 0), (right or 0)

    def prompt(self, player: int) -> tuple[str, tuple[int, int, int]] | None:
        """What a seat is asked to do now (None: nothing)."""
        game = self.match.spit
        me = game.player(player)
        computer = player in self.match.bots
        colour = PLAYER_COLOURS[player]
        if me.out:
            place = place_words(me.out)
            if computer:
                return _("the computer is out: {place}").format(place=place), GOLD
            if game.round_end.may_choose_now(game, player):  # (the rules say: a pile to take)
                return _("out — {place}! press a spit pile to take it").format(place=place), GOLD
            return _("out — {place}").format(place=place), GOLD
        asked = seat_prompt(game, player, computer, self.match.bots)  # what a house rule asks, in this seat's words
        if asked is not None:
            return asked.words, asked.colour
        if game.phase in ("ready", "stalemate"):
            if me.called:
                return (_("the computer called SPIT!") if computer else _("you called SPIT!")), GOLD
            if computer:
                return None
            if not me.spit_cards:
                return _("no spit cards: wait"), colour
            lone = game.lone_spitter()
            if lone == player and game.lone_pile is None:
                return _("you spit alone: slap the pile you want"), colour
            if game.phase == "stalemate":
                return _("Nobody can play: press SPIT!"), colour
            return _("Ready? press SPIT!"), colour
        if game.phase == "choosing" and not computer:
            return self.choosing_prompt(player)
        if game.phase == "playing" and not me.hidden and self._may_pick_up(player):  # (V9: the rules offer it)
            return _("press SPIT! to pick up your last cards"), colour
        told = self.stuck(player)
        if told is not None:
            return told.words(), colour
        return None

    def stuck(self, player: int) -> Told | None:
        """The move that is there (`hints.tell`), for a seat the people play that has done nothing
        for `HINT_AFTER_S` while the cards are played; None otherwise."""
        game = self.match.spit
        if game.phase != "playing" or player in self.match.bots:
            return None
        keymap = self.view.keymap if self.view.show_keys else None
        return self.watch.stuck(game, player, self.now_ns, keymap, (len(self.match.events), id(game)))

    def _may_pick_up(self, player: int) -> bool:
        game = self.match.spit
        return any(action.kind == "pick_up" for action in game.legal_actions(player))

    def seat_name(self, player: int | None) -> str:
        return seat_name(player, self.match.bots)

    def rules_in_force(self) -> str:
        """The line of the rules in force (worked out once a game, in the language of the moment)."""
        game = self.match.spit
        key = language()
        if self._in_force is None or self._in_force[0] != key:
            lines = [in_force(choice_of(game.variant, game.rules.options.to_json()))]
            lines += length_in_force(game.rules.options)  # the operator's game length (ours)
            self._in_force = (key, " · ".join(lines))
        return self._in_force[1]

    def choosing_prompt(self, player: int) -> tuple[str, tuple[int, int, int]]:
        """The choosing rule says what this seat is asked (game.choosing_prompt); the screen has the
        words, with the pile sizes as the seat sees them."""
        game = self.match.spit
        left, right = self.sides(player)
        sizes = {"left": len(game.spit_piles[left]), "right": len(game.spit_piles[right])}
        asked = game.choosing_prompt(player)
        if asked.player is not None:  # another player chooses
            return CHOOSING_WORDS[asked.key]().format(who=self.seat_name(asked.player)), PLAYER_COLOURS[player]
        return CHOOSING_WORDS[asked.key]().format(**sizes), GOLD

    def info(self, player: int | None) -> list[str]:
        """The rules in force, and with a table slap its rule and the two top values (never whether
        they meet it: the players do the arithmetic) and the slaps waiting."""
        game = self.match.spit
        lines = [self.rules_in_force()]
        slap = game.house_rule(TableSlap)
        if slap is not None:
            lines.append(_("slap when {rule}").format(rule=slap_rule_words(slap.in_force.name, slap.modulus)))
            values = game.spit_values()
            if values is not None:
                if player is not None:
                    left, right = self.sides(player)
                    values = [values[left], values[right]]
                lines.append(_("tops: {a} and {b}").format(a=values[0], b=values[1]))
            waiting = [hit.player for hit in slap.hits]
            if waiting:
                names = ", ".join(str(n) for n in waiting)
                lines.append(_("slapped: player {names}").format(names=names))
        return lines

    def captions(self) -> list[Caption]:
        out = []
        layout = self.view.layout
        for player in layout.seats:
            said = self.prompt(player)
            if said is not None:
                size = self.duel.prompt_size(player) if self.duel is not None else PROMPT_SIZE  # (an urgent one: big)
                out.append(caption("prompt", player, Line(said[0], size, said[1]), shade=150))
        owners: list[int | None] = [None] if layout.mode == "desktop" else list(layout.seats)
        for owner in owners:
            lines = self.info(owner)
            shown = (Line(lines[0], 0.1, SOFT), *(Line(w, 0.11, WHITE) for w in lines[1:]))
            out.append(Caption("info", owner, shown, 130))
        out += self.view.feedback(self.now_ns)
        if self.duel is not None:
            out += self.duel.captions(self.now_ns)
        out += [c for overlay in self.overlays for c in overlay.captions(self.now_ns)]
        out += self.idle_warning()
        out += self.link_captions()
        return out

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.spit, self.now_ns)
        if self.duel is not None:
            self.duel.draw(canvas, self.now_ns)
        for overlay in self.overlays:
            overlay.draw(canvas, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)
