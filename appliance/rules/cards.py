"""Cards as the script format writes them: rank then suit, `TD` is the ten of diamonds.

A card is a plain `str` everywhere in the core: it is what the state object holds, it hashes and
compares fast, and it needs no conversion at the edges. Two-deck variants (V4) would add a deck index
behind the card (`TD1`); `rank_of`/`suit_of` only look at the first two characters, so they keep working.
"""

from __future__ import annotations

import re

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED_SUITS = frozenset("HD")

# A=1 ... K=13: the card values Mod Spit (V18) multiplies.
RANK_VALUE: dict[str, int] = {rank: index + 1 for index, rank in enumerate(RANKS)}

CARD_PATTERN = re.compile(r"^[A23456789TJQK][SHDC]$")

Card = str


def deck(decks: int = 1) -> list[Card]:
    """A fresh deck in a fixed order (suits then ranks); the game's RNG shuffles it."""
    if decks != 1:
        # V4 (two decks shuffled together) plugs in here: cards gain a deck index, `TD1`, `TD2`.
        raise ValueError("only one deck is built so far")
    return [rank + suit for suit in SUITS for rank in RANKS]


def is_card(text: object) -> bool:
    return isinstance(text, str) and CARD_PATTERN.match(text) is not None


def rank_of(card: Card) -> int:
    """1 for an ace up to 13 for a king."""
    return RANK_VALUE[card[0]]


def suit_of(card: Card) -> str:
    return card[1]


def is_red(card: Card) -> bool:
    return card[1] in RED_SUITS


def next_in_rank(card: Card, top: Card) -> bool:
    """One rank above or below, wrapping: an ace sits between the king and the two."""
    return (RANK_VALUE[card[0]] - RANK_VALUE[top[0]]) % 13 in (1, 12)
