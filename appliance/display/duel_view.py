"""The ghost card (V14) and "Spit card, please" (V13) on the table, at a table of any size.

The play scene draws this over its table, after the table (`draw`), and feeds it the events its table
has just taken in (`notice`), so what it adds is there in the same frame:

- the ghost card: face down and pale in the spit-card place of the player it lies beside (whose
  spit cards have run out), "GHOST" written on it facing them; lit while it is raced for;
- the lent spit card (V13): face down in the spit-card place of the short player who borrowed it
  (they have no spit cards of their own), "LENT" written on it facing them; lit while it is slapped
  for, from the moment they play out;
- each seat's prompt (`seat_prompt`): while a card is lent, the borrower's "play out, then SLAP" and
  the lender's "SLAP it first when they play out"; once they have played out, "SLAP IT NOW!" and
  "SLAP it before player N!"; in the race for the ghost card, "SLAP the GHOST first to win!";
- a card lent is told to everybody, as a ghost card laid is (the table's race place);
- the verdicts are the rules' (`Game.verdict`, as data) and the table's to show (TableView: big in the
  middle for everybody, as a Mod Spit table slap's): who took the ghost card and how many ms after the
  round ended; the lent card slapped in time (in ms, a win) or not (the lender first, or nobody in
  time, and the spit pile the short player takes); a slap just after one is said as late by so many ms.

The rules core allows both rules at a table of two only; nothing here assumes two seats.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from appliance.rules import Event, Game
from appliance.rules.events import GhostLaid, SpitCardLent
from appliance.rules.ghost_card import GhostCard
from appliance.rules.spit_card_please import SpitCardPlease

from .captions import Caption, Drawn, Line, fit_block
from .compositor import Canvas
from .i18n import _
from .table_view import GOLD, PLAYER_COLOURS, RACE_S, WHITE, Flash, TableView, seat_name

Colour = tuple[int, int, int]
PROMPT_SIZE = 0.13  # every prompt's size, as a share of the text height
URGENT_SIZE = 0.2  # "SLAP IT NOW!": a prompt read in a fraction of a second
LATE_S = 1.5  # a slap this long after the verdict's moment is told as late; later ones are presses again
GHOST_ALPHA = 150  # the ghost card: a face-down card you can almost see through


@dataclass(frozen=True)
class Prompt:
    words: str
    colour: Colour
    size: float = PROMPT_SIZE


# ---------------------------------------------------------------------- words


def ghost_laid_words(giver: int, beside: int) -> str:
    return _("Player {giver} lays a ghost card by player {n}").format(giver=giver, n=beside)


def lent_words(player: int, giver: int, computer: Collection[int] = ()) -> str:
    return _("{who} borrows a spit card from player {giver}").format(who=seat_name(player, computer), giver=giver)


# What a house rule asks of a seat, by the key of its prompt (rules/house_rule.py `Prompt`).
HOUSE_WORDS = {
    "slap_now": lambda: _("SLAP IT NOW!"),
    "slap_before": lambda: _("SLAP it before player {n}!"),
    "play_out_then_slap_lent": lambda: _("play out, then SLAP the lent spit card first to win"),
    "slap_lent_first": lambda: _("when player {n} plays out, SLAP the lent card first"),
    "slap_ghost_to_win": lambda: _("SLAP the GHOST first to win!"),
    "ghost_out": lambda: _("a ghost card is out: play out, then SLAP it first to win"),
    "you_choose_a_pile_to_take": lambda: _("you choose: press the spit pile you take"),
    "they_choose_a_pile_to_take": lambda: _("{who} chooses a pile to take"),
}
TOLD_THE_COMPUTER = ("they_choose_a_pile_to_take",)  # (a computer's seat is told who chooses, nothing else)


def seat_prompt(game: Game, player: int, computer: bool, computers: Collection[int] = ()) -> Prompt | None:
    """What a house rule asks of a seat now (None: nothing of theirs), in the seat's words: the rule
    says what (`Game.house_prompt`), the screen how (the player it names: "Computer" for a seat of
    `computers`)."""
    asked = game.house_prompt(player)
    if asked is None:
        return None
    key, named = asked.key, asked.player
    if computer:
        if key == "you_choose_a_pile_to_take":
            key, named = "they_choose_a_pile_to_take", player
        if key not in TOLD_THE_COMPUTER:
            return None
    words = HOUSE_WORDS[key]().format(n=named, who=seat_name(named, computers))
    if asked.urgent:
        return Prompt(words, GOLD, URGENT_SIZE)
    return Prompt(words, GOLD if key == "you_choose_a_pile_to_take" else PLAYER_COLOURS.get(player, WHITE))


# ---------------------------------------------------------------------- on the table


class GhostAndDuel:
    """The ghost card and the lent spit card over a Spit table, and their words (see the module)."""

    def __init__(self, match: Any, view: TableView) -> None:
        self.match = match
        self.view = view
        self.layout = view.layout
        self.computer = frozenset(view.computer)
        self._ghosts: dict[int, pygame.Surface] = {}

    @property
    def game(self) -> Game:
        return self.match.spit

    # ------------------------------------------------------------------ events

    def notice(self, events: list[Event], now_ns: int) -> None:
        """Events the table has just taken in: a ghost card laid, a spit card lent, told to everybody.
        (The races' verdicts are the rules' to say, and the table's to show: TableView.notice.)"""
        for event in events:
            if isinstance(event, GhostLaid):
                giver, beside = event.giver, event.player
                self.view.race = Flash(partial(ghost_laid_words, giver, beside), now_ns + int(RACE_S * 1e9),
                                       PLAYER_COLOURS.get(giver, GOLD))
            elif isinstance(event, SpitCardLent):
                player, giver = event.player, event.giver
                self.view.race = Flash(partial(lent_words, player, giver, self.computer), now_ns + int(RACE_S * 1e9),
                                       PLAYER_COLOURS.get(giver, GOLD))

    def holding(self, now_ns: int) -> bool:
        """A verdict is up: the scene shows it before it moves on (game over, a summary)."""
        return self.view.verdict_up(now_ns)

    # ------------------------------------------------------------------ what it adds

    def prompt_size(self, player: int) -> float:
        """How big a seat's prompt is drawn: an urgent one bigger, at a table of two (a round table's
        side strips are too narrow for it: there it is drawn as every prompt is)."""
        found = seat_prompt(self.game, player, player in self.computer, self.computer)
        return found.size if found is not None and len(self.layout.seats) == 2 else PROMPT_SIZE

    def captions(self, now_ns: int) -> list[Caption]:
        """Nothing of its own beyond the prompts and the verdicts (kept for the scene's asking)."""
        return []

    def ghost_rect(self, player: int) -> pygame.Rect:
        """Where the ghost card lies: in the spit-card place of the player it lies beside."""
        return pygame.Rect(self.layout.seat(player).spit_cards)

    def lent_rect(self, player: int) -> pygame.Rect:
        """Where a lent spit card lies: in the spit-card place of the short player who borrowed it."""
        return pygame.Rect(self.layout.seat(player).spit_cards)

    def _ghost_image(self, player: int) -> pygame.Surface:
        image = self._ghosts.get(player)
        if image is None:
            image = self.view.card_image("back", self.layout.seat(player)).copy()
            image.set_alpha(GHOST_ALPHA)
            self._ghosts[player] = image
        return image

    def draw(self, canvas: Canvas, now_ns: int) -> None:
        game = self.game
        art = self.view.art
        ghost = game.house_rule(GhostCard)
        if ghost is not None and ghost.card is not None and ghost.beside in self.layout.seats:
            beside = ghost.beside
            seat = self.layout.seat(beside)
            rect = self.ghost_rect(beside)
            if ghost.race is not None:
                off = art.glow_offset()
                canvas.blit(self.view.card_image("select", seat), (rect.x - off, rect.y - off))
            canvas.card(self._ghost_image(beside), rect.topleft)
            self._label(canvas, _("GHOST"), rect, seat.angle, beside)
        please = game.house_rule(SpitCardPlease)
        if please is not None and please.lent and please.player in self.layout.seats:
            short = please.player
            seat = self.layout.seat(short)
            rect = self.lent_rect(short)
            if please.claiming:  # slapped for now
                off = art.glow_offset()
                canvas.blit(self.view.card_image("select", seat), (rect.x - off, rect.y - off))
            canvas.card(self.view.card_image("back", seat), rect.topleft)
            self._label(canvas, _("LENT"), rect, seat.angle, short)

    def _label(self, canvas: Canvas, words: str, rect: pygame.Rect, angle: int, seat: int) -> None:
        """A word written on a card (sized by the card, not the table's texts), facing `seat`, recorded
        on the canvas for the tests."""
        box = rect.inflate(-max(4, rect.width // 10), -max(4, rect.height // 10))
        upright = (box.width, box.height) if angle % 180 == 0 else (box.height, box.width)
        block = fit_block((Line(words, 0.15, WHITE),), self.layout.card_h, upright, angle, 170)
        image, scale, drawn, px, fits, _taps = block
        placed = canvas.blit(image, image.get_rect(center=box.center).topleft)  # inside `box`, rounding and all
        canvas.text(Drawn("ghost", seat, drawn, placed, box, angle, scale, px, fits))

    def busy(self, now_ns: int) -> bool:
        return self.holding(now_ns)
