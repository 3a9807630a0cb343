"""Mod Spit's table slap (V18) and its advanced rule deck (V19): a rule that watches the table.

Whenever the two spit piles' top values (A=1, 2-10, J=11, Q=12, K=13) meet the slap rule, either
player may slap the table (control `slap`). The first slap opens a window (`window` seconds) in
which the other may slap too; when it closes (a later press, or time passing: `advance`), or when
everybody has slapped, the slaps are judged:

- a wrong slap (the rule was not met at the moment of that slap): the wrong slapper takes both spit
  piles; both wrong: the later slapper chooses which pile to take, and the other takes the other;
- right slaps only: the slower player takes both piles (the one who did not slap, or the second
  slapper); slaps at the same instant are told apart by the game's seeded RNG.

Taken piles go under the taker's spit cards (pile 0, then pile 1, each bottom to top); the middle is
then empty and the game waits for the "Spit!" calls, as at a stalemate. While a slap is being judged
nothing is played onto the spit piles.

V18 plays the one rule "the product mod 7 is a prime". V19 draws its modulus and its rule at the
start of the game: cards are drawn until one of 7 or higher (its value is the modulus, 7 to 13);
it goes back, and the next card drawn picks one of the 13 rules below by its rank. The seed gives
no rules: these are ours, each checkable at a glance from two numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

PRIMES = frozenset({2, 3, 5, 7, 11, 13})


@dataclass(frozen=True)
class SlapRule:
    rank: int  # 1 (ace) .. 13 (king): the card that picks it in V19
    name: str
    words: str  # what the screen shows; {m} is the modulus
    test: Callable[[int, int, int], bool]  # (a, b, modulus) -> slap?

    def says(self, modulus: int) -> str:
        return self.words.format(m=modulus)


RULE_DECK: tuple[SlapRule, ...] = (
    SlapRule(1, "product_prime", "the product mod {m} is a prime", lambda a, b, m: (a * b) % m in PRIMES),
    SlapRule(2, "sum_prime", "the sum mod {m} is a prime", lambda a, b, m: (a + b) % m in PRIMES),
    SlapRule(3, "sum_13", "the two add up to 13", lambda a, b, m: a + b == 13),
    SlapRule(4, "both_odd", "both are odd", lambda a, b, m: a % 2 == 1 and b % 2 == 1),
    SlapRule(5, "both_even", "both are even", lambda a, b, m: a % 2 == 0 and b % 2 == 0),
    SlapRule(6, "neighbours", "they differ by 1 mod {m}", lambda a, b, m: (a - b) % m in (1, m - 1)),
    SlapRule(7, "pair", "the same value (mod {m})", lambda a, b, m: a % m == b % m),
    SlapRule(8, "divides", "one divides the other", lambda a, b, m: a % b == 0 or b % a == 0),
    SlapRule(9, "sum_multiple_3", "the sum is a multiple of 3", lambda a, b, m: (a + b) % 3 == 0),
    SlapRule(10, "difference_prime", "the difference is a prime", lambda a, b, m: abs(a - b) in PRIMES),
    SlapRule(11, "sum_zero", "the sum is a multiple of {m}", lambda a, b, m: (a + b) % m == 0),
    SlapRule(12, "product_one", "the product mod {m} is 1", lambda a, b, m: (a * b) % m == 1),
    SlapRule(13, "big_sum", "the sum is more than {m}", lambda a, b, m: a + b > m),
)
MOD7 = RULE_DECK[0]


@dataclass(frozen=True)
class TableSlap:
    """V18: the one rule, product mod 7 prime."""

    window: float = 0.75  # seconds after the first slap in which another slap still counts
    name: str = "mod7"

    def draw(self, deal_values: list[int]) -> tuple[int, int]:
        """(modulus, rule rank) for a new game; `deal_values` are card values from a shuffled deck."""
        return 7, MOD7.rank

    def rule(self, rank: int) -> SlapRule:
        return RULE_DECK[rank - 1]


@dataclass(frozen=True)
class RuleDeck(TableSlap):
    """V19: draw the modulus (the first card of 7 or more) and, after putting it back, the rule."""

    name: str = "rule_deck"

    def draw(self, deal_values: list[int]) -> tuple[int, int]:
        position = next(i for i, value in enumerate(deal_values) if value >= 7)
        modulus = deal_values[position]
        # "Then draw another card after replacing the first": the cards drawn go back under the
        # deck, and the next card drawn picks the rule.
        rest = deal_values[position + 1:] + deal_values[: position + 1]
        return modulus, rest[0]


TABLE_SLAPS: dict[str, TableSlap] = {"mod7": TableSlap(), "rule_deck": RuleDeck()}
