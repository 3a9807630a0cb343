"""How a card taken in hand is held: left lying on its stock pile until it is played (every game but
one), or carried off it to the pads (V16, Running Spit), by runners taking turns.

000: in Running Spit the spit piles are pads some 10 feet away; a player picks up a card, runs it to
a pad and slaps it down, "in teams taking turns". Our reading (seeds/README.md): a card picked up is
carried off its pile (`Seat.carried`), so the card under it can be turned (a `lift`: take the top
off, turn the one under it), and it goes back on top of its pile when the runner puts it back; each
card played sends the team's next runner (`Seat.runner`).

A ruleset holds one of these policies (`StockMoves.holding`); the engine asks it and never asks
whether cards are carried. The seat keeps only what its hand holds (the card carried and from
where, which runner runs next); `in_reach` and `under` read that for the stock's actions
(stock_actions.py) and the stalemate test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .actions import LIFTS, Action
from .cards import Card
from .seat import Seat
from .stock_pile import StockPile


@dataclass(frozen=True)
class InHand:
    """A card taken in hand stays on its pile until it is played: one hand, or two (V8)."""

    carries: ClassVar[bool] = False  # are cards carried off their piles (for the players' and the screen's)?

    def hold(self, seat: Seat, number: int, hands: int) -> int | None:
        """Take stock pile `number`'s top card in hand: a free hand, else in place of the card held
        longest. Returns the pile whose card went back first (here: none, it never left its pile)."""
        if seat.selected is None or hands == 1:
            seat.selected = number
        elif seat.second is None:
            seat.second = number
        else:
            seat.selected, seat.second = seat.second, number
        return None

    def retry(self, held: list[int]) -> int | None:
        """The pile whose card stays in hand for a retry, should a play of it not go: the first held."""
        return held[0]

    def landed(self, seat: Seat, player: int) -> None:
        """A card of `player`'s was played onto a spit pile."""

    def lifts(self, reach: Sequence[StockPile]) -> list[Action]:
        """Lifting a top card off to turn the card under it (Running Spit only)."""
        return []

    def seat_part(self, seat: Seat) -> dict[str, Any]:
        """Its part of a seat's state object (nothing here)."""
        return {}


@dataclass(frozen=True)
class Carried(InHand):
    """V16: the card taken in hand is carried off its pile, one at a time, by the team's runners."""

    carries: ClassVar[bool] = True
    runners: tuple[int, ...] = (1, 1)  # runners per team (seat), taking turns

    def hold(self, seat: Seat, number: int, hands: int) -> int | None:
        """Carry stock pile `number`'s top card off; a card carried already goes back on its pile
        first (one card in hand): that pile is returned."""
        back = seat.selected if seat.carried is not None else None
        if back is not None:
            seat.release(back)
        seat.put_back()
        seat.selected = number
        seat.carried = seat.stock[number - 1].take_top()
        return back

    def retry(self, held: list[int]) -> int | None:
        """A runner's card stays in hand anyway (it goes back with a press of its pile): no retry."""
        return None

    def landed(self, seat: Seat, player: int) -> None:
        """The card is slapped down: the team's next runner runs."""
        seat.runner = (seat.runner + 1) % self.runners[player - 1]

    def lifts(self, reach: Sequence[StockPile]) -> list[Action]:
        """Every pile whose one face-up card lies on a face-down one: carry it off, turn that one."""
        return [LIFTS[n] for n, pile in enumerate(reach, start=1) if pile.up == 1 and len(pile.cards) > 1]

    def seat_part(self, seat: Seat) -> dict[str, Any]:
        return {"carried": seat.carried, "runner": seat.runner}


def under(seat: Seat) -> int:
    """The stock pile the seat's carried card came off (0: nothing is carried)."""
    if seat.carried is None:
        return 0
    return seat.selected or 0


def in_reach(stock: Sequence[StockPile], carried: Card | None, under: int) -> Sequence[StockPile]:
    """The stock piles as the player can use them: a card carried off pile `under` counts as back on
    it (it can always be put back, and what lies under it is reached as under any top card)."""
    if carried is None or not under:
        return stock
    piles = list(stock)
    origin = piles[under - 1]
    piles[under - 1] = StockPile([*origin.cards, carried], origin.up + 1)
    return piles


def seat_in_reach(seat: Seat) -> Sequence[StockPile]:
    """`in_reach` of a seat's stock, with the card it carries."""
    return in_reach(seat.stock, seat.carried, under(seat))


def lift_presses(seat: Seat, pile: int) -> list[str]:
    """The presses that lift `pile`'s top off and turn the card under it: pick it up (unless it is
    carried already), then press the pile again."""
    press = f"pile{pile}"
    return [press] if seat.selected == pile and seat.carried is not None else [press, press]
