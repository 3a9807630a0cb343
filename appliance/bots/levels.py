"""The computer's levels: the strategy and the hands of each level a player can choose, and the
one door that makes a computer player (`make_bot`), used by the game, `simulate`, the benchmarks and
the attract mode's pairings (demo.py).
"""

from __future__ import annotations

from ..rules.table import MAX_SEATS
from .opponent import Bot
from .speed import AnyGameBot
from .strategy import STRATEGIES, Strategy
from .timing import TIMINGS, Timing, timing_for

# The levels a player can choose, with what each is like.
LEVELS: dict[str, str] = {
    "1": "casual: slow, picks any card, sometimes looks away",
    "2": "steady: first card that fits, slaps the smaller pile",
    "3": "runs: thinks ahead through runs of cards",
    "4": "watchful: watches your cards, plays runs in quick pairs",
    "5": "expert: fast, ready to slap when you play out, slow only when you are stuck",
}

MIN_SEAT = 1
BASELINE = "first"  # the first legal card it sees; timing of level 3 unless `first@T`
BASELINE_TIMING = 3


def parse_spec(spec: str) -> tuple[Strategy, Timing]:
    """ "1".."5", "first", or "S@T" (strategy S with level T's timing)."""
    name, at, level = spec.strip().partition("@")
    if name not in STRATEGIES:
        raise ValueError(f"unknown bot {spec!r}: use 1..5 or first, optionally @1..@5 for the timing")
    if at:
        if not level.isdigit() or int(level) not in TIMINGS:
            raise ValueError(f"unknown timing level in {spec!r}: use @1..@5")
        return STRATEGIES[name], TIMINGS[int(level)]
    return STRATEGIES[name], timing_for(BASELINE_TIMING if name == BASELINE else int(name))


def make_bot(spec: str, player: int, seed: int, *, keep_log: bool = False) -> Bot:
    """A computer opponent in seat `player` (1 to 4: the game's table says which seats it has), its
    reaction times seeded by `seed`. It plays Speed too (bots/speed.py), told by the game it is given."""
    if isinstance(player, bool) or not isinstance(player, int) or not MIN_SEAT <= player <= MAX_SEATS:
        raise ValueError(f"player must be a seat from {MIN_SEAT} to {MAX_SEATS}, not {player!r}")
    strategy, timing = parse_spec(spec)
    return AnyGameBot(spec.strip(), player, strategy, timing, seed, keep_log=keep_log)
