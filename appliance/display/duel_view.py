"""The ghost card (V14) and "Spit card, please" (V13) on the table, at a table of any size.

The play scene draws this over its table, after the table (`draw`), and feeds it the events its table
has just taken in (`notice`), so what it adds is there in the same frame:

- the ghost card: face down and pale in the spit-card place of the player it lies beside (whose
  spit cards have run out), "GHOST" written on it facing them; lit while it is raced for;
- the lent spit card: face up in the middle of the table once the lender has turned it, lit while
  the short player may slap it;
- each seat's prompt (`seat_prompt`): who turns the card (the lender presses SPIT!), the short
  player's "wait", then "SLAP IT NOW!"; in the race for the ghost card, "SLAP the ghost card";
- while the card is still to be turned, "Spit card, please!" for everybody (`captions`);
- the verdicts, big in the middle for everybody through the table's own verdict (as a Mod Spit
  table slap's): who took the ghost card and how many ms after the round ended, the duel caught
  (reaction in ms) or missed (a false start, or too slow, and what the short player takes). A slap
  that comes just after a verdict is said as late by so many ms, not as a press that did nothing.

The rules core allows both rules at a table of two only; nothing here assumes two seats.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from .captions import Caption, Drawn, Line, fit_block
from .compositor import Canvas
from .events import detail, kind
from .i18n import _
from .table_view import GOLD, PLAYER_COLOURS, RACE_S, RED, VERDICT_S, WHITE, Flash, TableView, Verdict, seat_name

Colour = tuple[int, int, int]
PROMPT_SIZE = 0.13  # every prompt's size, as a share of the text height
URGENT_SIZE = 0.2  # "SLAP IT NOW!": a prompt read in a fraction of a second
BANNER_SIZE = 0.22  # as the first line of a table slap's verdict
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


def duel_verdict(result: str, player: int, giver: int, ms: float | None, cards: int, window_ms: float,
                 computer: Collection[int] = ()) -> list[str]:
    """The duel decided: `result` "caught" (in `ms`), "early" (a false start) or "slow" (`ms`: the
    slap that came too late, None if none came)."""
    if result == "caught":
        return [_("Caught in {ms} ms!").format(ms=f"{ms or 0:.0f}"),
                _("{who} wins the game!").format(who=seat_name(player, computer))]
    takes = _("{who} takes {cards} spit cards from player {giver}").format(
        who=seat_name(player, computer), cards=cards, giver=giver)
    if result == "early":
        return [_("False start!"), _("slapped before the card was turned"), takes]
    limit = f"{window_ms:.0f}"
    if ms is None:
        return [_("Too slow!"), _("no slap within {limit} ms").format(limit=limit), takes]
    return [_("Too slow!"), _("slapped after {ms} ms: {limit} ms allowed").format(ms=f"{ms:.0f}", limit=limit), takes]


def seat_prompt(game: Any, player: int, computer: bool, computers: Collection[int] = ()) -> Prompt | None:
    """What the ghost card or the duel asks of a seat now (None: nothing of theirs)."""
    colour = PLAYER_COLOURS.get(player, WHITE)
    please = getattr(game, "please", None)
    if please is not None:
        short, lender, card, _since = please
        if computer:
            return None
        if player == lender:
            if card is None:
                return Prompt(_("Spit card, please! press SPIT! to turn one for player {n}").format(n=short), GOLD)
            window = getattr(getattr(game.rules, "please", None), "window", 0.0) * 1000
            who = seat_name(short, computers)
            return Prompt(_("{who} must slap it within {ms} ms").format(who=who, ms=f"{window:.0f}"), colour)
        if player == short:
            if card is None:
                return Prompt(_("wait for the spit card, then SLAP it: not before!"), colour)
            return Prompt(_("SLAP IT NOW!"), GOLD, URGENT_SIZE)
        return None
    race = getattr(game, "ghost_race", None)
    if race is not None:
        if computer:
            return None
        if player == race[1]:
            return Prompt(_("SLAP the GHOST first to win!"), GOLD, URGENT_SIZE)
        return Prompt(_("SLAP it before player {n}!").format(n=race[1]), GOLD, URGENT_SIZE)
    if getattr(game, "ghost", None) is not None and game.phase == "playing" and not computer:
        return Prompt(_("a ghost card is out: play out, then SLAP it first to win"), colour)
    return None


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
        self.computer = frozenset(getattr(view, "computer", ()))
        self.turned_t: float | None = None  # when the lent spit card was turned (game time)
        self.late: _Late | None = None
        self.ends_ns = 0  # until when a verdict of ours is up (the play scene waits for it)
        self.ghost_giver: int | None = None  # who laid the ghost card on the table
        self.played_out: int | None = None  # who played out to open the race for it
        self._ghosts: dict[int, pygame.Surface] = {}
        self._remember()

    @property
    def game(self) -> Any:
        return self.match.spit

    # ------------------------------------------------------------------ events

    def notice(self, events: list[Any], now_ns: int) -> None:
        """Events the table has just taken in: verdicts and notes for them."""
        self._remember()
        rules = self.game.rules
        window_ms = getattr(getattr(rules, "please", None), "window", 0.0) * 1000
        for event in events:
            what = kind(event)
            t = float(detail(event, "t", 0.0))
            if what == "ghost_laid":
                giver, beside = int(detail(event, "giver", 0)), int(detail(event, "player", 0))
                self.view.race = Flash(partial(ghost_laid_words, giver, beside), now_ns + int(RACE_S * 1e9),
                                       PLAYER_COLOURS.get(giver, GOLD))
            elif what == "ghost_taken":
                self._ghost_taken(event, t, now_ns)
            elif what == "spit_card_turned":
                self.turned_t = t
            elif what == "spit_card_won":
                player = int(detail(event, "player", 0))
                ms = float(detail(event, "by_ms", 0.0))
                self._verdict(partial(duel_verdict, "caught", player, 0, ms, 0, window_ms, self.computer), GOLD, now_ns)
                self.late = None
            elif what == "spit_card_lost":
                player, giver = int(detail(event, "player", 0)), int(detail(event, "giver", 0))
                cards = int(detail(event, "cards", 0))
                result = "early" if detail(event, "early", False) else "slow"
                self._verdict(partial(duel_verdict, result, player, giver, None, cards, window_ms, self.computer),
                              RED, now_ns)
                self.late = None
                turned = self.turned_t
                if result == "slow" and turned is not None:
                    def too_slow(_n: int, at: float, player: int = player, giver: int = giver, cards: int = cards,
                                 turned: float = turned) -> Callable[[], list[str]]:
                        return partial(duel_verdict, "slow", player, giver, (at - turned) * 1000, cards, window_ms,
                                       self.computer)
                    self.late = _Late(t, frozenset({player}), too_slow)
                self.turned_t = None
            elif what == "reject" and detail(event, "press") == "slap":
                self._late_slap(event, t)
            elif what == "deal":
                self.late = None

    def _remember(self) -> None:
        """The ghost card and its race while they are on the table: who laid it, who played out (the
        event that ends the race names neither)."""
        game = self.game
        if game.ghost is not None:
            self.ghost_giver = int(game.ghost[2])
        if game.ghost_race is not None:
            self.played_out = int(game.ghost_race[1])

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
        """While the lender has not turned the card: "Spit card, please!" for everybody."""
        please = self.game.please
        if please is None or please[2] is not None or self.holding(now_ns):
            return []
        short, lender = please[0], please[1]
        lines = (Line(_("Spit card, please!"), BANNER_SIZE, GOLD),
                 Line(_("player {giver} turns a spit card for player {n}").format(giver=lender, n=short), 0.14, WHITE))
        return [Caption("centre", None, lines, 200)]

    def ghost_rect(self, player: int) -> pygame.Rect:
        """Where the ghost card lies: in the spit-card place of the player it lies beside."""
        return pygame.Rect(self.layout.seat(player).spit_cards)

    def lent_rect(self) -> pygame.Rect:
        """Where the turned spit card shows: the middle of the table, or where it is clear of the
        spit piles (between the first two, at a table of three)."""
        lay = self.layout
        rect = pygame.Rect(0, 0, lay.card_w, lay.card_h)
        piles = [pygame.Rect(r) for r in lay.spit_piles]
        rect.center = lay.centre
        if rect.collidelist(piles) >= 0 and len(piles) >= 2:
            a, b = piles[0].center, piles[1].center
            rect.center = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        return rect

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
        ghost = game.ghost
        if ghost is not None and ghost[1] in self.layout.seats:
            beside = int(ghost[1])
            seat = self.layout.seat(beside)
            rect = self.ghost_rect(beside)
            if game.ghost_race is not None:
                off = art.glow_offset()
                canvas.blit(self.view.card_image("select", seat), (rect.x - off, rect.y - off))
            canvas.card(self._ghost_image(beside), rect.topleft)
            self._label(canvas, _("GHOST"), rect, seat.angle, beside)
        please = game.please
        if please is not None and please[2] is not None:
            rect = self.lent_rect()
            off = art.glow_offset()
            canvas.blit(art.glow("select"), (rect.x - off, rect.y - off))
            canvas.card(art.face(str(please[2])), rect.topleft)

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
