"""A seat at the table: the player's stock piles, spit cards, and what their hands hold."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .stock_pile import StockPile


@dataclass
class Seat:
    stock: list[StockPile]
    spit_cards: list[Card]  # top first
    selected: int | None = None  # the stock pile in the (first) hand, 1-based
    called: bool = False  # has called "Spit!" in this ready/stalemate
    second: int | None = None  # V8: the stock pile in the second hand (only while `selected` is set)
    hidden: bool = False  # V9: picked up their last cards, shown face down from now on
    out: int = 0  # V17: out of this round in this place (1 = first out), 0 while playing
    taken: list[Card] = field(default_factory=list)  # V17: the spit pile taken on going out

    @property
    def playing(self) -> bool:
        return self.out == 0

    def stock_count(self) -> int:
        return sum(len(pile.cards) for pile in self.stock)

    def all_cards(self) -> list[Card]:
        return [card for pile in self.stock for card in pile.cards] + list(self.spit_cards) + list(self.taken)

    def held(self) -> list[int]:
        """The stock piles in this player's hands, the first taken first."""
        if self.selected is None:
            return []
        return [self.selected] if self.second is None else [self.selected, self.second]

    def release(self, number: int) -> None:
        """Let go of stock pile `number`; the second hand's card moves up to first."""
        if self.selected == number:
            self.selected, self.second = self.second, None
        elif self.second == number:
            self.second = None

    def let_go(self) -> None:
        self.selected = self.second = None
