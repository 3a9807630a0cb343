"""Speed: the middle row, two face-down side stacks at its ends and the two spit piles between (S1, S4).

Side stack i lies beside spit pile i. At a deal the two single middle cards are the tops of the
side stacks; "Spit!" from both turns one card from each side stack onto the spit pile beside it,
at once. When the side stacks can't each give a card, the spit piles but their top cards (and any
card a side stack still holds) are shuffled into two new side stacks first.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from .cards import RANK_VALUE, Card


@dataclass
class MiddleRow:
    spit_piles: list[list[Card]]  # bottom to top
    side_stacks: list[list[Card]]  # top first

    def copy(self) -> MiddleRow:
        return MiddleRow([list(pile) for pile in self.spit_piles], [list(stack) for stack in self.side_stacks])

    def tops(self) -> list[Card]:
        return [pile[-1] for pile in self.spit_piles if pile]

    def all_cards(self) -> list[Card]:
        return [card for pile in self.spit_piles for card in pile] + \
            [card for stack in self.side_stacks for card in stack]

    def hidden(self) -> list[Card]:
        """The cards a reveal can still bring to the top: the side stacks and the spit piles under
        their tops (a top, once covered, goes into the next reshuffle like any other)."""
        return [card for stack in self.side_stacks for card in stack] + \
            [card for pile in self.spit_piles for card in pile[:-1]]

    def must_reshuffle(self) -> bool:
        """A reveal needs a card from each side stack."""
        return not all(self.side_stacks)

    def reshuffle(self, rng: random.Random) -> list[int]:
        """The side stacks' cards and the spit piles but their tops, shuffled by the game's RNG into
        two new side stacks (an odd card to side stack 0). Returns the new sizes."""
        cards = [card for stack in self.side_stacks for card in stack]
        for pile in self.spit_piles:
            cards += pile[:-1]
            del pile[:-1]
        rng.shuffle(cards)
        half = (len(cards) + 1) // 2
        self.side_stacks = [cards[:half], cards[half:]]
        return [len(stack) for stack in self.side_stacks]

    def turn_up(self) -> list[tuple[Card, int]]:
        """One card from each side stack onto the spit pile beside it: (card, spit pile) each."""
        turned = []
        for index, stack in enumerate(self.side_stacks):
            if stack:
                card = stack.pop(0)
                self.spit_piles[index].append(card)
                turned.append((card, index))
        return turned

    def can_ever_fit(self, hands: Iterable[Card]) -> bool:
        """Could some reveal, now or after reshuffles, bring up a card one rank from a hand card?

        With every hand stuck (nobody can play or draw), hands change only by playing, so when no
        card the middle can still turn up is next in rank to a hand card, the deal can never go on."""
        wanted = {(RANK_VALUE[card[0]] + step - 1) % 13 + 1 for card in hands for step in (1, -1)}
        return any(RANK_VALUE[card[0]] in wanted for card in self.hidden())
