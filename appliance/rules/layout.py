"""The deal and the layout: stock piles row by row, as at a table, the rest kept as spit cards.

Two layout policies: `RowByRow` (rule 2 and the layouts of V1-V4) and `Refilled` (V5: a stock pile
that is played from is refilled at once from the player's spit cards).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .seat import Seat
from .stock_pile import StockPile


def deal_layout(cards: list[Card], stock_layout: tuple[int, ...]) -> tuple[list[StockPile], list[Card]]:
    """Deal `cards` (top of the hand first) into stock piles of the sizes in `stock_layout`.

    Row 1 puts a card on every pile, row 2 on every pile that takes two or more, and so on, as far
    as the cards go: a player with fewer cards than a full layout fills the rows they can (rule 9)
    and keeps no spit cards. The top card of every pile is face up. Returns (stock piles, spit cards
    top first).
    """
    piles = [StockPile() for _ in stock_layout]
    position = 0
    for row in range(max(stock_layout, default=0)):
        for pile, size in zip(piles, stock_layout, strict=True):
            if row < size and position < len(cards):
                pile.cards.append(cards[position])
                position += 1
    for pile in piles:
        pile.up = 1 if pile.cards else 0
    return piles, list(cards[position:])


@dataclass(frozen=True)
class RowByRow:
    """Rule 2: stock piles of the given sizes dealt row by row; what is left are the spit cards."""

    sizes: tuple[int, ...]

    @property
    def full(self) -> int:
        """Cards in a full layout (15 in classic); fewer than this and a player has no spit cards."""
        return sum(self.sizes)

    def deal(self, cards: list[Card]) -> tuple[list[StockPile], list[Card]]:
        return deal_layout(cards, self.sizes)

    def after_play(self, seat: Seat, number: int) -> Card | None:
        """What lands on stock pile `number` after its top was played: nothing."""
        return None


@dataclass(frozen=True)
class Refilled(RowByRow):
    """V5: a stock pile played from is refilled at once, face up, from the player's spit cards."""

    def after_play(self, seat: Seat, number: int) -> Card | None:
        if not seat.spit_cards:
            return None
        card = seat.spit_cards.pop(0)
        seat.stock[number - 1].put_face_up(card)
        return card
