"""What a player is after: get rid of your cards (rule 10) or win them all (V15, Reverse Spit)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Card

if TYPE_CHECKING:
    from .engine import Engine


@dataclass(frozen=True)
class FewestCards:
    """Rule 10: the first player left with no cards at all wins. Players aim for the smaller pile."""

    larger_pile_wanted: bool = False

    def single_pile_taker(self, game: Engine, reason: str, player: int | None, index: int) -> int:
        """With one spit pile nobody slaps: who picks it up.

        The player who played out takes nothing and the player who did not picks it up (rule 10).
        Blocked (the seeds are silent): the player with more stock cards left takes it, as in David
        Shapp's rule where fewer stock cards choose first; equal counts: the player who started it."""
        candidates = [n for n in game.table.players if n != player]
        return max(candidates, key=lambda n: (game.player(n).stock_count(), game.table.owner(index) == n))

    def winner(self, game: Engine, hands: list[list[Card]]) -> int | None:
        """At a new layout: the game's winner, if these gathered hands end it."""
        for number, hand in enumerate(hands, start=1):
            if not hand:
                return number
        return None


@dataclass(frozen=True)
class AllCards(FewestCards):
    """V15, Reverse Spit: the winner ends up with every card, so players aim for the larger pile.
    The game ends as rule 10 ends it, when a player is left with no cards; the player holding the
    cards wins."""

    larger_pile_wanted: bool = True

    def winner(self, game: Engine, hands: list[list[Card]]) -> int | None:
        if all(hands):
            return None
        return max(range(1, len(hands) + 1), key=lambda n: len(hands[n - 1]))


GOALS: dict[str, FewestCards] = {"fewest": FewestCards(), "all": AllCards()}
