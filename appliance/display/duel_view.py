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
- the verdicts, big in the middle for everybody through the table's own verdict (as a Mod Spit
  table slap's): who took the ghost card and how many ms after the round ended; the lent card
  slapped in time (in ms, a win) or not (the lender first, or nobody in time, and the spit pile the
  short player takes). A slap that comes just after a verdict is said as late by so many ms, not as
  a press that did nothing.

The rules core allows both rules at a table of two only; nothing here assumes two seats.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from appliance.rules import Game
from appliance.rules.ghost_card import GhostCard
from appliance.rules.spit_card_please import SpitCardPlease

from .captions import Caption, Drawn, Line, fit_block
from .compositor import Canvas
from .events import detail, kind
from .i18n import _
from .table_view import GOLD, PLAYER_COLOURS, RACE_S, RED, VERDICT_S, WHITE, Flash, TableView, Verdict, seat_name

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


def ghost_verdict(taker: int | None, by_ms: float | None, wins: bool, out: int | None, giver: int | None,
                  late: tuple[int, float] | None = None, computer: Collection[int] = ()) -> list[str]:
    """The race for the ghost card decided: who took it (in how many ms after the round ended)."""
    if taker is None:
        lines = [_("Nobody took the ghost card"), _("it goes back to player {n}").format(n=giver)]
    else:
        ms = "?" if by_ms is None else f"{by_ms:.0f}"
        if wins:
            lines = [_("{who} wins with the ghost card!").format(who=seat_name(taker, computer)),
                     _("took it {ms} ms after playing out").format(ms=ms)]
        else:
            lines = [_("{who} takes the ghost card!").format(who=seat_name(taker, computer)),
                     _("{ms} ms after player {out} played out").format(ms=ms, out=out)]
    if late is not None:
        lines.append(_("{who} was {ms} ms late").format(who=seat_name(late[0], computer), ms=f"{late[1]:.0f}"))
    return lines


def lent_words(player: int, giver: int, computer: Collection[int] = ()) -> str:
    return _("{who} borrows a spit card from player {giver}").format(who=seat_name(player, computer), giver=giver)


def lent_verdict(player: int, giver: int, won: bool, slapper: int | None, ms: float | None, cards: int,
                 window_ms: float, late: tuple[int, float] | None = None, computer: Collection[int] = ()) -> list[str]:
    """The lent spit card slapped for (V13): `player` (who played out) `won` in `ms`, or lost to
    `slapper` (the lender, `ms` after) or to time (`slapper` None), taking `cards` spit-pile cards
    (the lender gets the card back: the table shows it go)."""
    if won:
        who = seat_name(player, computer)
        lines = [_("{who} slapped the spit card in {ms} ms!").format(who=who, ms=f"{ms or 0:.0f}"),
                 _("{who} wins the game!").format(who=who)]
    else:
        if slapper is None:
            lines = [_("Too slow!"), _("no slap within {limit} ms").format(limit=f"{window_ms:.0f}")]
        else:
            lines = [_("{who} slapped it first: {ms} ms").format(who=seat_name(slapper, computer), ms=f"{ms or 0:.0f}")]
        lines.append(_("{who} takes the spit pile: {cards} cards").format(who=seat_name(player, computer), cards=cards))
    if late is not None:
        lines.append(_("{who} was {ms} ms late").format(who=seat_name(late[0], computer), ms=f"{late[1]:.0f}"))
    return lines


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


@dataclass
class _Late:
    """A verdict a slower slap may still add to: who may be late, from when, and how to say it."""

    t: float
    players: frozenset[int]
    say: Callable[[int, float], Callable[[], list[str]]]


class GhostAndDuel:
    """The ghost card and the lent spit card over a Spit table, and their words (see the module)."""

    def __init__(self, match: Any, view: TableView) -> None:
        self.match = match
        self.view = view
        self.layout = view.layout
        self.computer = frozenset(view.computer)
        self.late: _Late | None = None
        self.ends_ns = 0  # until when a verdict of ours is up (the play scene waits for it)
        self.ghost_giver: int | None = None  # who laid the ghost card on the table
        self.played_out: int | None = None  # who played out to open the race for it
        self._ghosts: dict[int, pygame.Surface] = {}
        self._remember()

    @property
    def game(self) -> Game:
        return self.match.spit

    # ------------------------------------------------------------------ events

    def notice(self, events: list[Any], now_ns: int) -> None:
        """Events the table has just taken in: verdicts and notes for them."""
        self._remember()
        window_ms = SpitCardPlease.window * 1000
        for event in events:
            what = kind(event)
            t = float(detail(event, "t", 0.0))
            if what == "ghost_laid":
                giver, beside = int(detail(event, "giver", 0)), int(detail(event, "player", 0))
                self.view.race = Flash(partial(ghost_laid_words, giver, beside), now_ns + int(RACE_S * 1e9),
                                       PLAYER_COLOURS.get(giver, GOLD))
            elif what == "ghost_taken":
                self._ghost_taken(event, t, now_ns)
            elif what == "spit_card_lent":
                player, giver = int(detail(event, "player", 0)), int(detail(event, "giver", 0))
                self.view.race = Flash(partial(lent_words, player, giver, self.computer), now_ns + int(RACE_S * 1e9),
                                       PLAYER_COLOURS.get(giver, GOLD))
            elif what in ("spit_card_won", "spit_card_lost"):
                self._lent_decided(event, what == "spit_card_won", t, now_ns, window_ms)
            elif what == "reject" and detail(event, "press") == "slap":
                self._late_slap(event, t)
            elif what == "deal" and (self.late is None or t > self.late.t):
                self.late = None  # (a deal in the verdict's own instant is the one it dealt)

    def _remember(self) -> None:
        """The ghost card and its race while they are on the table: who laid it, who played out (the
        event that ends the race names neither)."""
        game = self.game
        ghost = game.house_rule(GhostCard)
        if ghost is not None and ghost.card is not None:
            self.ghost_giver = ghost.giver
        if ghost is not None and ghost.race is not None:
            self.played_out = ghost.race[1]

    def _ghost_taken(self, event: Any, t: float, now_ns: int) -> None:
        taker = detail(event, "player")
        by = detail(event, "by_ms")
        by_ms = None if by is None else float(by)
        wins = bool(detail(event, "wins", False))
        say = partial(ghost_verdict, taker, by_ms, wins, self.played_out, self.ghost_giver, computer=self.computer)
        self._verdict(say, GOLD if wins else PLAYER_COLOURS.get(int(taker or 0), GOLD), now_ns)
        self.late = None
        if taker is not None:
            def late_by(n: int, at: float) -> Callable[[], list[str]]:
                return partial(say, late=(n, (at - t) * 1000))
            self.late = _Late(t, frozenset(n for n in self.layout.seats if n != taker), late_by)

    def _lent_decided(self, event: Any, won: bool, t: float, now_ns: int, window_ms: float) -> None:
        player = int(detail(event, "player", 0))
        giver = int(detail(event, "giver", 0)) or next((n for n in self.layout.seats if n != player), 0)
        slapper = detail(event, "slapper")
        by = detail(event, "by_ms")
        say = partial(lent_verdict, player, giver, won, None if slapper is None else int(slapper),
                      None if by is None else float(by), int(detail(event, "cards", 0)), window_ms,
                      computer=self.computer)
        self._verdict(say, GOLD if won else RED, now_ns)
        self.late = None
        if won or slapper is not None:  # the other hand's slap just after is told as late
            first = player if won else int(slapper)

            def late_by(n: int, at: float) -> Callable[[], list[str]]:
                return partial(say, late=(n, (at - t) * 1000))
            self.late = _Late(t, frozenset(n for n in self.layout.seats if n != first), late_by)

    def _verdict(self, lines: Callable[[], list[str]], colour: Colour, now_ns: int) -> None:
        self.view.verdict = Verdict(lines, now_ns + int(VERDICT_S * 1e9), colour)
        self.view.race = None
        self.ends_ns = self.view.verdict.until_ns

    def _late_slap(self, event: Any, t: float) -> None:
        """A slap just after the verdict: by how many ms it was late (never "not now")."""
        player = int(detail(event, "player", 0))
        late = self.late
        if late is None or player not in late.players or t - late.t > LATE_S or self.view.verdict is None:
            return
        self.view.verdict.lines = late.say(player, t)
        self.view.messages.pop(player, None)
        self.view.shakes.pop((player, "slap"), None)
        self.late = None

    def holding(self, now_ns: int) -> bool:
        """A verdict of ours is up: the scene shows it before it moves on (game over, a summary)."""
        return now_ns < self.ends_ns

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
        self._remember()
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
        image, scale, drawn, px, fits = fit_block((Line(words, 0.15, WHITE),), self.layout.card_h, upright, angle, 170)
        placed = canvas.blit(image, image.get_rect(center=box.center).topleft)  # inside `box`, rounding and all
        canvas.text(Drawn("ghost", seat, drawn, placed, box, angle, scale, px, fits))

    def busy(self, now_ns: int) -> bool:
        return self.holding(now_ns)
