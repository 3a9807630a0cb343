"""Can a player still do something that moves the game on?

Rule 6: stalemate is when no face-up stock card fits either spit pile, and no face-down card can be
turned, even after moving cards into empty spaces. Moving a card into a space is not progress by
itself; it counts only for what it uncovers.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .stock_pile import StockPile
from .variant import Variant


def can_progress(stock: Sequence[StockPile], spit_tops: Sequence[Card], variant: Variant) -> bool:
    """True if this stock can play a card, turn a card, or uncover one by moving into spaces.

    With k empty spaces a player can peel up to k cards off any pile, so each pile's top k+1 cards
    are within reach: a face-down one among them can be turned, a face-up one may fit a spit pile.
    (V7, same-rank stacking, would add equal-rank face-up tops as further places to peel onto.)
    """
    spaces = sum(1 for pile in stock if not pile.cards)
    for pile in stock:
        cards = pile.cards
        if not cards:
            continue
        reach = min(len(cards), spaces + 1)
        for depth in range(reach):  # depth 0 is the top card
            if depth >= pile.up:
                return True  # a face-down card that can be turned once uncovered
            card = cards[-1 - depth]
            for top in spit_tops:
                if variant.fits(card, top):
                    return True
    return False


def playable(stock: Sequence[StockPile], spit_piles: Sequence[Sequence[Card]], variant: Variant
             ) -> list[tuple[int, int]]:
    """Every (stock pile number 1-based, spit pile index) where a face-up top fits right now."""
    found: list[tuple[int, int]] = []
    for number, pile in enumerate(stock, start=1):
        card = pile.face_up_top
        if card is None:
            continue
        for index, spit_pile in enumerate(spit_piles):
            if spit_pile and variant.fits(card, spit_pile[-1]):
                found.append((number, index))
    return found
