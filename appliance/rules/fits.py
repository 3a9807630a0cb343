"""What may be played onto a spit pile: one rank up or down, wrapping (rule 4), and V6's colours."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .cards import NEIGHBOURS, RED_SUITS, Card, deck, next_in_rank
from .terms import Reason

# `fits` is asked for every card showing against every spit pile's top, after every press: it
# looks the pair up itself rather than calling `next_in_rank` and `is_red`, which say the same.

_EVERY_CARD = (*deck(1), *deck(2))  # the cards of a one-deck game and of a two-deck game (V4)


class Fitting(dict[Card, frozenset[Card]]):
    """top -> every card (of one deck or two) that fits on it, worked out the first time it is asked."""

    def __init__(self, fits: Callable[[Card, Card], bool]) -> None:
        super().__init__()
        self._fits = fits

    def __missing__(self, top: Card) -> frozenset[Card]:
        fits = self._fits
        found = self[top] = frozenset([card for card in _EVERY_CARD if fits(card, top)])
        return found


@dataclass(frozen=True)
class OneRankApart:
    """Rule 4: one rank above or below the top, whatever the suit; A sits between K and 2."""

    # `card in fitting[top]` is `fits(card, top)`: for the engine, which asks about every card
    # showing on the same few tops after every press. Derived from `fits`, not part of the rules.
    fitting: Fitting = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "fitting", Fitting(self.fits))

    def fits(self, card: Card, top: Card) -> bool:
        return (card[0], top[0]) in NEIGHBOURS  # next_in_rank(card, top)

    def misfit(self, card: Card, top: Card) -> Reason:
        """The reject reason for a card that does not fit."""
        return Reason.NOT_ADJACENT


@dataclass(frozen=True)
class AlternateColours(OneRankApart):
    """V6: also red on black and black on red: on a black 5 only a red 4 or a red 6."""

    def fits(self, card: Card, top: Card) -> bool:
        # next_in_rank(card, top) and is_red(card) != is_red(top)
        return (card[0], top[0]) in NEIGHBOURS and (card[1] in RED_SUITS) != (top[1] in RED_SUITS)

    def misfit(self, card: Card, top: Card) -> Reason:
        return Reason.WRONG_COLOUR if next_in_rank(card, top) else Reason.NOT_ADJACENT
