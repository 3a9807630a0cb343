"""Speed: a player's five-card hand and the stock they draw from (S2, S3, S5).

The hand has five slots, `pileN` naming slot N; a slot is None when empty. The stock is face down,
top first. A card played from the hand is replaced at once by the stock's top card; once the stock
is empty the player plays on from the hand, and with hand and stock both empty they win the deal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cards import Card

HAND_SIZE = 5


@dataclass
class SpeedSeat:
    hand: list[Card | None]
    stock: list[Card]  # top first
    score: int = 0
    selected: int | None = None  # the hand slot picked up, 1-based
    called: bool = False  # has called "Spit!" in this ready/stalemate

    @classmethod
    def dealt(cls, cards: list[Card], score: int = 0) -> SpeedSeat:
        """A player's stock, top first: the top five make the hand (S2)."""
        hand: list[Card | None] = list(cards[:HAND_SIZE])
        hand += [None] * (HAND_SIZE - len(hand))
        return cls(hand, list(cards[HAND_SIZE:]), score)

    def copy(self) -> SpeedSeat:
        return replace(self, hand=list(self.hand), stock=list(self.stock))

    def hand_cards(self) -> list[Card]:
        return [card for card in self.hand if card is not None]

    def all_cards(self) -> list[Card]:
        """Every card the player holds: hand (slot by slot), then stock (top first)."""
        return self.hand_cards() + self.stock

    def card_count(self) -> int:
        """What the opponent scores if this player loses the deal: hand and stock (S5)."""
        return sum(1 for card in self.hand if card is not None) + len(self.stock)

    def can_draw(self) -> bool:
        """An empty slot and a card in the stock to draw into it."""
        return bool(self.stock) and None in self.hand

    def draw(self, slot: int) -> Card | None:
        """The stock's top card into empty slot `slot` (1-based); None if there is none to draw."""
        if self.hand[slot - 1] is not None or not self.stock:
            return None
        card = self.stock.pop(0)
        self.hand[slot - 1] = card
        return card

    def take(self, slot: int) -> Card:
        """The card in slot `slot`, out of the hand (the slot must hold one)."""
        card = self.hand[slot - 1]
        assert card is not None
        self.hand[slot - 1] = None
        return card

    def played_out(self) -> bool:
        """Hand and stock both empty: this player has won the deal (S5)."""
        return not self.stock and all(card is None for card in self.hand)

    def let_go(self) -> None:
        self.selected = None
        self.called = False
