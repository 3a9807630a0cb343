"""Cards as the script format writes them: rank then suit, `TD` is the ten of diamonds.

A card is a plain `str` everywhere in the core: it is what the state object holds, it hashes and
compares fast, and it needs no conversion at the edges. With two decks (V4) every card carries its
deck after it, `TD1` and `TD2`; `rank_of`, `is_red` and `next_in_rank` look only at the first two
characters, so they read either form.
"""

from __future__ import annotations

import re

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED_SUITS = frozenset("HD")

# A=1 ... K=13: the card values Mod Spit (V18) multiplies.
RANK_VALUE: dict[str, int] = {rank: index + 1 for index, rank in enumerate(RANKS)}

CARD_PATTERN = re.compile(r"^[A23456789TJQK][SHDC]$")
DECKED_CARD_PATTERN = re.compile(r"^[A23456789TJQK][SHDC][12]$")
MAX_DECKS = 2

Card = str


def deck(decks: int = 1) -> list[Card]:
    """Fresh cards in a fixed order (deck, then suit, then rank); the game's RNG shuffles them.

    One deck is written `TD`; with two, every card names its deck: `TD1`, `TD2`."""
    if decks == 1:
        return [rank + suit for suit in SUITS for rank in RANKS]
    if not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"decks must be 1 or {MAX_DECKS}, not {decks!r}")
    return [rank + suit + str(d) for d in range(1, decks + 1) for suit in SUITS for rank in RANKS]


def is_card(text: object, decks: int = 1) -> bool:
    """Is `text` a card of a game played with `decks` decks?"""
    pattern = CARD_PATTERN if decks == 1 else DECKED_CARD_PATTERN
    return isinstance(text, str) and pattern.match(text) is not None


def card_help(decks: int = 1) -> str:
    """How a card is written, for error messages."""
    if decks == 1:
        return "rank A23456789TJQK then suit SHDC, e.g. 'TD'"
    return "rank A23456789TJQK, suit SHDC, then the deck 1 or 2, e.g. 'TD2'"


def rank_of(card: Card) -> int:
    """1 for an ace up to 13 for a king."""
    return RANK_VALUE[card[0]]


def suit_of(card: Card) -> str:
    return card[1]


def is_red(card: Card) -> bool:
    return card[1] in RED_SUITS


# Every (rank, rank) one apart, wrapping: the question the game asks most, answered by one look-up.
NEIGHBOURS = frozenset((a, b) for a in RANKS for b in RANKS if (RANK_VALUE[a] - RANK_VALUE[b]) % 13 in (1, 12))


def next_in_rank(card: Card, top: Card) -> bool:
    """One rank above or below, wrapping: an ace sits between the king and the two."""
    return (card[0], top[0]) in NEIGHBOURS


def same_rank(a: Card, b: Card) -> bool:
    return a[0] == b[0]
