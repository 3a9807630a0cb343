"""The attract mode: an idle cabinet plays itself, computer against computer, to draw people in.

A demo should look like two good players having a close game, and not the same game every time:
each demo deals with a fresh seed and seats two of the stronger levels, picked by that seed.
"""

from __future__ import annotations

import random

from .levels import make_bot
from .opponent import Bot

# Close, lively pairings: the expert against the watchful player, or two equals.
DEMO_PAIRINGS: tuple[tuple[str, str], ...] = (("5", "4"), ("4", "5"), ("5", "5"), ("4", "4"), ("3", "4"))


def demo_bots(seed: int) -> tuple[Bot, Bot]:
    """The two computer players of an attract-mode game dealt with `seed` (seat 1, seat 2)."""
    one, two = random.Random(f"spit-arcade demo {seed}").choice(DEMO_PAIRINGS)
    return make_bot(one, 1, seed), make_bot(two, 2, seed)
