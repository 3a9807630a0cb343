"""What may be played onto a spit pile: one rank up or down, wrapping (rule 4), and V6's colours."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, is_red, next_in_rank


@dataclass(frozen=True)
class OneRankApart:
    """Rule 4: one rank above or below the top, whatever the suit; A sits between K and 2."""

    def fits(self, card: Card, top: Card) -> bool:
        return next_in_rank(card, top)

    def misfit(self, card: Card, top: Card) -> str:
        """The reject reason for a card that does not fit."""
        return "not_adjacent"


@dataclass(frozen=True)
class AlternateColours(OneRankApart):
    """V6: also red on black and black on red: on a black 5 only a red 4 or a red 6."""

    def fits(self, card: Card, top: Card) -> bool:
        return next_in_rank(card, top) and is_red(card) != is_red(top)

    def misfit(self, card: Card, top: Card) -> str:
        return "wrong_colour" if next_in_rank(card, top) else "not_adjacent"
