"""'Spit card, please' (V13): the short player borrows a spit card, and slaps it to win.

000: "wenn ein Spieler ihr Lager nicht füllen und mindestens eine Spieß-Karte übrighaben kann,
bitten sie oder nehmen eine Spieß-Karte oder anderen Gegenstand vom anderen Spieler. Sie müssen dann
die Spieß-Karte zuschlagen, um [zu gewinnen] … Wenn der gewinnende Spieler scheitert, die Spieß-Karte
rechtzeitig zuzuschlagen, dann bekommen sie den ganzen Spieß-Stapel, und der andere Spieler bekommt
die Spieß-Karte." Our reading (seeds/README.md):

- At a new layout that leaves one player short (rule 9: they can't lay a full layout and keep a
  spit card), they borrow the lender's top spit card; it lies face down by them. Nothing else
  happens at the deal: play goes on as in rules 9-10, the lender spitting alone.
- When the short player plays out their stock, the borrowed card is their claim to victory: they
  must slap it (`slap`) in time, that is before the lender slaps it and within `window` seconds.
  In time: the lender gets the card back and the short player, holding no card, wins the game.
  Not in time: they take the whole spit pile, the lender gets the card back, and the next layout
  is dealt.
- Any other end of the round (the lender plays out, play is blocked): the round ends as rules 8-10
  say, and the card stays the borrower's (the seed gives it back to the lender only when the claim
  fails): it goes into their cards for the new layout.

A house rule (house_rule.py): this object holds the lent card, who holds it, who lent it, and when
its holder played out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Self

from .cards import Card
from .events import Event, SpitCardLent, SpitCardLost, SpitCardWon
from .house_rule import Prompt, Verdict, Verdicts
from .moves import SLAP_TABLE, Action
from .setup_values import card as read_card
from .setup_values import seat_number
from .terms import Phase, Reason

if TYPE_CHECKING:
    from .engine import Engine


@dataclass
class SpitCardPlease:
    key: ClassVar[str] = "please"
    slaps: ClassVar[str] = "card"  # what the slap control slaps in this game (the legends name it)
    window: ClassVar[float] = 2.0  # seconds after playing out in which the short player's slap claims the win

    player: int = 0  # the short player who borrowed the card (0: no card is lent)
    giver: int = 0  # who lent it
    card: Card | None = None
    since: float | None = None  # when its holder played out: the card is slapped for
    said: Verdicts = field(default_factory=Verdicts, compare=False, repr=False)  # what its slaps decided

    # ------------------------------------------------------------------ reading

    @property
    def lent(self) -> bool:
        return self.card is not None

    @property
    def claiming(self) -> bool:
        """Is the window to slap the lent card open?"""
        return self.since is not None

    # ------------------------------------------------------------------ the protocol

    def copy(self) -> Self:
        return replace(self, said=self.said.copy())

    def begin(self, game: Engine, rng: random.Random) -> None:
        pass

    def dealt(self, game: Engine, events: list[Event], t: float) -> None:
        """A layout leaves exactly one player short: they borrow a spit card from one who can spare
        one (holding two or more, so the lender still starts the spit pile)."""
        short = [n for n in game.table.players if not game.player(n).spit_cards]
        lenders = [n for n in game.table.players if len(game.player(n).spit_cards) > 1]
        if len(short) == 1 and lenders:
            self.player, self.giver = short[0], lenders[0]
            self.card, self.since = game.player(self.giver).spit_cards.pop(0), None
            events.append(SpitCardLent(t, self.player, self.giver))

    def revealed(self, game: Engine, events: list[Event], t: float) -> None:
        pass

    def played_out(self, game: Engine, player: int, t: float) -> bool:
        """`player` played out: if they hold the lent card, the window to slap it opens (True)."""
        if self.card is None or player != self.player:
            return False
        self.since = t
        return True

    def deadline(self) -> float | None:
        return None if self.since is None else self.since + self.window

    def press(self, game: Engine, events: list[Event], t: float, player: int, control: str) -> bool:
        if self.card is None:
            return False
        if self.since is None:
            if control == "slap":  # nothing to slap yet: the card counts once its holder plays out
                game.reject(events, t, player, control, Reason.WRONG_PHASE)
                return True
            return False
        if control != "slap":
            game.reject(events, t, player, control, Reason.CARD_FIRST)
            return True
        by_ms = round((t - self.since) * 1000, 3)
        if player == self.player:
            short, giver, card = self.player, self.giver, self.card
            self._let_go()
            game.player(giver).spit_cards.insert(0, card)  # the lender gets the card back
            won = SpitCardWon(t, short, by_ms)
            events.append(won)
            self.said.say(won, Verdict("lent_won", short, ms=by_ms, late=_others(game, short), good=True))
            game.win_now(events, t, short)
        else:
            self._lose(game, events, t, player, by_ms)
        return True

    def close(self, game: Engine, events: list[Event], t: float) -> None:
        """The window closed with no slap: the short player was not in time."""
        self._lose(game, events, t, None, None)

    def _lose(self, game: Engine, events: list[Event], t: float, slapper: int | None, by_ms: float | None) -> None:
        """The short player takes the whole spit pile; the lender gets the card back; a new layout."""
        assert self.card is not None
        short, giver, card = self.player, self.giver, self.card
        self._let_go()
        game.player(giver).spit_cards.insert(0, card)
        middle = [i for i, pile in enumerate(game.spit_piles) if pile]
        cards = sum(len(game.spit_piles[i]) for i in middle)
        lost = SpitCardLost(t, short, giver, cards, slapper, by_ms)
        events.append(lost)
        self.said.say(lost, Verdict("lent_too_slow", short, ms=self.window * 1000, cards=cards) if slapper is None
                      else Verdict("lent_slapped_first", short, slapper, by_ms, cards, late=_others(game, slapper)))
        game.new_layout(events, t, {short: middle})

    def _let_go(self) -> None:
        self.player = self.giver = 0
        self.card = self.since = None

    def actions(self, game: Engine, player: int) -> list[Action] | None:
        return [SLAP_TABLE] if self.since is not None else None  # both slap for the lent card

    def also(self, game: Engine, player: int) -> list[Action]:
        return []

    def holds_play(self) -> bool:
        return False

    def prompt(self, game: Engine, player: int) -> Prompt | None:
        """While a card is lent: the borrower is to play out and slap it, the lender to slap it first;
        once the borrower has played out, both: now."""
        if self.card is None:
            return None
        if self.since is not None:
            return Prompt("slap_now", urgent=True) if player == self.player else \
                Prompt("slap_before", self.player, urgent=True)
        if game.phase != Phase.PLAYING:
            return None
        if player == self.player:
            return Prompt("play_out_then_slap_lent")
        return Prompt("slap_lent_first", self.player) if player == self.giver else None

    def verdict(self, event: Event) -> Verdict | None:
        """The lent card slapped for: `lent_won` (the borrower in time, in `ms`: a win), or the
        borrower takes the spit pile's `cards`, `other` having slapped it first (`lent_slapped_first`)
        or nobody within `ms` (`lent_too_slow`)."""
        return self.said.of(event)

    def cards(self) -> list[Card]:
        return [] if self.card is None else [self.card]

    def gather(self, player: int) -> list[Card]:
        """At a new layout a lent card stays its borrower's; the rule lets go of it."""
        card, holder = self.card, self.player
        if card is None or player != holder:
            return []
        self._let_go()
        return [card]

    def to_state(self) -> Any:
        if self.card is None:
            return None
        return {"player": self.player, "giver": self.giver, "card": self.card, "since": self.since}

    def read_state(self, game: Engine, value: Any) -> None:
        """Its part of a setup position: absent or null, no card is lent."""
        if value is None:
            return
        if not isinstance(value, dict):
            raise ValueError("please must be an object {player, giver, card, since}")
        card = read_card(value.get("card"), "please.card", game.decks)
        since = value.get("since")
        if since is not None and (isinstance(since, bool) or not isinstance(since, int | float)):
            raise ValueError("please.since must be a time (when its holder played out) or null")
        if since is not None and game.phase != Phase.CHOOSING:
            raise ValueError("please.since is set only in phase 'choosing' (the card is being slapped for)")
        seats = game.table.seats
        player, giver = (seat_number(value.get(name), f"please.{name}", seats) for name in ("player", "giver"))
        self.player, self.giver, self.card = player, giver, card
        self.since = None if since is None else float(since)


def _others(game: Engine, player: int) -> tuple[int, ...]:
    """Everybody but `player`: who may slap just after it, and be told by how much they were late."""
    return tuple(n for n in game.table.players if n != player)
