"""A seat at the table: the player's stock piles, spit cards, and what their hands hold (how a card
is held, on its pile or carried off it, V16, is carry.py's)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

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
    carried: Card | None = None  # V16: the card carried off stock pile `selected`, in the runner's hand
    runner: int = 0  # V16: which of the team's runners runs next (0-based)
    retry: int | None = None  # the held pile whose card this seat's last press failed to play: pressed
    # again it stays in hand (picked up again, to try the other pile), rather than being let go

    def copy(self) -> Seat:
        """This seat with lists of its own (the cards are strings, shared)."""
        return replace(self, stock=[pile.copy() for pile in self.stock], spit_cards=list(self.spit_cards),
                       taken=list(self.taken))

    @property
    def playing(self) -> bool:
        return self.out == 0

    def stock_count(self) -> int:
        """Stock cards, the one carried in hand included (it is not played until it lands)."""
        return sum([len(pile.cards) for pile in self.stock]) + (self.carried is not None)

    def all_cards(self) -> list[Card]:
        carried = [] if self.carried is None else [self.carried]
        return [card for pile in self.stock for card in pile.cards] + list(self.spit_cards) + list(self.taken) \
            + carried

    def held_card(self, number: int) -> Card:
        """The card held from stock pile `number`: carried off it, or still lying on top of it."""
        if self.carried is not None and number == self.selected:
            return self.carried
        return self.stock[number - 1].cards[-1]

    def take_held(self, number: int) -> Card:
        """Take the card held from stock pile `number` out of the hand (to play or move it)."""
        if self.carried is not None and number == self.selected:
            card, self.carried = self.carried, None
            return card
        return self.stock[number - 1].take_top()

    def put_back(self) -> None:
        """A carried card goes back on top of the pile it came from."""
        if self.carried is not None and self.selected is not None:
            self.stock[self.selected - 1].put_face_up(self.carried)
            self.carried = None

    def held(self) -> list[int]:
        """The stock piles in this player's hands, the first taken first."""
        if self.selected is None:
            return []
        return [self.selected] if self.second is None else [self.selected, self.second]

    def release(self, number: int) -> None:
        """Let go of stock pile `number`; the second hand's card moves up to first."""
        if self.selected == number:
            self.put_back()
            self.selected, self.second = self.second, None
        elif self.second == number:
            self.second = None

    def let_go(self) -> None:
        self.put_back()
        self.selected = self.second = None
