"""The moves a player has with their stock piles (rule 4, V7 same-rank stacking, V8 two hands, V16
carrying).

A `StockMoves` policy says which stock moves a game has and what a `pileN` press does with them; how a
card in hand is held (left on its pile, or carried off it: V16) is its `holding` (carry.py). What a
stock offers as it lies is stock_actions.py's; the actions themselves are actions.py's (named here too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .actions import CALL, FLIPS, LIFTS, MOVES, PLAYS, PROGRESS, SLAP_TABLE, STACKS, Action
from .cards import Card, same_rank
from .carry import InHand
from .seat import Seat
from .stock_pile import StockPile

IN_HAND = InHand()

__all__ = ["CALL", "FLIPS", "LIFTS", "MOVES", "PLAYS", "PROGRESS", "SLAP_TABLE", "STACKS", "Action", "PickUpLast",
           "StockMoves"]


@dataclass(frozen=True)
class StockMoves:
    """Turn a face-down top, move a face-up top into an empty space, optionally stack on the same
    rank (V7); hold one card at a time, or two (V8)."""

    stacking: bool = False
    hands: int = 1
    pick_up: PickUpLast | None = None
    holding: InHand = IN_HAND  # how a card in hand is held: on its pile, or carried off it (V16)
    # V16: a card taken in hand is carried off its pile, in the runner's hand (the holding's answer,
    # kept as a plain field: the stock's actions and the stalemate test ask it after every change)
    carry: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "carry", self.holding.carries)

    def hold(self, seat: Seat, number: int) -> int | None:
        """Take stock pile `number`'s top card in hand (the holding's way); returns the pile whose
        card went back on it first, if any (V16: one card carried at a time)."""
        return self.holding.hold(seat, number, self.hands)

    def lifts(self, reach: Sequence[StockPile]) -> list[Action]:
        """V16: carry a top card off and turn the face-down one under it (none where nothing is carried)."""
        return self.holding.lifts(reach)

    def can_stack(self, card: Card, onto: StockPile) -> bool:
        top = onto.face_up_top
        return self.stacking and top is not None and same_rank(card, top)

    def rearrangements(self, stock: Sequence[StockPile], space: int | None = None) -> list[Action]:
        """Moves that only rearrange the stock: into a space (the first empty one: spaces are
        alike), and same-rank stacking. `space`: the first empty pile (0 for none), where the caller
        has just looked."""
        if space is None:
            space = 0
            for number, pile in enumerate(stock, start=1):
                if not pile.cards:
                    space = number
                    break
        if not self.stacking:
            if not space:
                return []  # the common case, asked after every press: no space, nothing to move
            moves = MOVES
            # moving a lone card only moves it
            return [moves[number][space] for number, pile in enumerate(stock, start=1)
                    if len(pile.cards) > 1 and pile.up]
        found: list[Action] = []
        for number, pile in enumerate(stock, start=1):
            card = pile.face_up_top
            if card is None:
                continue
            if space and len(pile.cards) > 1:  # moving a lone card only moves it
                found.append(MOVES[number][space])
            for other, onto in enumerate(stock, start=1):
                if other != number and self.can_stack(card, onto):
                    found.append(STACKS[number][other])
        return found


@dataclass(frozen=True)
class PickUpLast:
    """V9, hidden last cards: with 3 to 5 stock cards left, every one of them face up, a player may
    pick them up so the others can't see them. On the cabinet's shared screen the player presses
    `spit` while playing; the cards stay where they lie but are drawn face down for everybody, and
    the player plays them from memory."""

    fewest: int = 3
    most: int = 5

    def allowed(self, stock: Sequence[StockPile]) -> bool:
        count = sum(len(pile.cards) for pile in stock)
        return self.fewest <= count <= self.most and all(pile.up == len(pile.cards) for pile in stock)
