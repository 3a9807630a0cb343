"""Reading the values of a house rule's part of a setup position: a card, a seat, a whole number.

The ghost card (V14), the lent spit card (V13) and the table slap (V18) read their part of the state
object with these, so a bad value is told the same way whichever rule it belongs to: where it is
(`ghost.giver`), what it must be, and what it was. They raise ValueError; state.py says which
position it was.
"""

from __future__ import annotations

from typing import Any

from .cards import Card, is_card


def whole(value: Any, where: str, low: int, high: int) -> int:
    """A whole number from `low` to `high` (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{where} must be a whole number from {low} to {high}, not {value!r}")
    return value


def seat_number(value: Any, where: str, seats: int) -> int:
    """A player's number at a table of `seats`."""
    return whole(value, where, 1, seats)


def card(value: Any, where: str, decks: int) -> Card:
    """A card of a game of `decks` decks."""
    if not is_card(value, decks):
        raise ValueError(f"{where}: {value!r} is not a card")
    return str(value)
