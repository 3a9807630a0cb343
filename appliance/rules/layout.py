"""Dealing a layout: stock piles row by row, as at a table, the rest kept as spit cards."""

from __future__ import annotations

from .cards import Card
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
