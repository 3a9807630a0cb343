"""A stock pile: cards bottom to top, of which the top `up` are face up."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card


@dataclass
class StockPile:
    cards: list[Card] = field(default_factory=list)
    up: int = 0

    @property
    def top(self) -> Card | None:
        return self.cards[-1] if self.cards else None

    @property
    def face_up_top(self) -> Card | None:
        """The top card if a player can see and pick it up, else None."""
        return self.cards[-1] if self.cards and self.up > 0 else None

    @property
    def face_down_top(self) -> bool:
        """True when the top card is face down, waiting to be turned."""
        return bool(self.cards) and self.up == 0

    def take_top(self) -> Card:
        card = self.cards.pop()
        self.up = max(0, self.up - 1)
        return card

    def put_face_up(self, card: Card) -> None:
        self.cards.append(card)
        self.up += 1

    def copy(self) -> StockPile:
        return StockPile(list(self.cards), self.up)

    def to_json(self) -> dict[str, object]:
        return {"cards": list(self.cards), "up": self.up}
