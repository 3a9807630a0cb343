"""How fast a computer opponent's hands move: a human reaction-time model, one per level.

A press comes no sooner than the level's *floor* (about 150 ms for the expert: nobody at a table
reacts faster) after the moment the bot saw the position it is answering. On top of the floor:

- a fresh decision (the position changed and the bot picks what to do) takes an ex-Gaussian time
  (a normal part, never negative, plus an exponential tail: the long, slow reactions people have),
  plus Hick's law, `hick * log2(choices)`: more cards that could be played, longer to choose;
- now and then the bot misses what it could do and looks away (`miss_chance`, for an
  exponentially distributed `miss_mean` seconds), as a player glancing at the bar does;
- a continuation (the second press of a move already decided: the spit pile after picking a card,
  or the next card of a run planned ahead) is only the hand's movement: a shorter ex-Gaussian.

In Running Spit (V16, option `carry`) the spit piles are pads about 3 m (the seed's 10 feet) from
the stock piles, and the runner's legs come on top of the hands: `sprint` seconds for each run one
way (start, 3 m, stop and bend to slap or to pick up), from 1.5 s for the expert to 3 s for the
casual player; see `opponent.Bot` for when a runner runs.

Each bot draws from its own seeded `random.Random`, so a seeded game plays the same every time.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    """One level's hands. All times in seconds."""

    floor: float  # no press sooner than this after the position it answers
    mu: float  # a fresh decision: normal part (mean, spread) ...
    sigma: float
    tau: float  # ... plus an exponential tail of this mean
    hick: float  # seconds per doubling of the choices on offer
    motor_mu: float  # a continuation: normal part (mean, spread) ...
    motor_sigma: float
    motor_tau: float  # ... plus an exponential tail
    miss_chance: float  # chance a fresh decision is overlooked for a while
    miss_mean: float  # how long, on average, an overlooked chance stays overlooked
    sprint: float = 2.0  # V16: one run between the stock piles and the spit pads, 3 m, one way

    def decision(self, rng: random.Random, choices: int) -> float:
        """Seconds from seeing a position to pressing, for a fresh decision among `choices`."""
        delay = self.floor + max(0.0, rng.gauss(self.mu, self.sigma)) + rng.expovariate(1.0 / self.tau)
        if choices > 1:
            delay += self.hick * math.log2(choices)
        if rng.random() < self.miss_chance:
            delay += rng.expovariate(1.0 / self.miss_mean)
        return delay

    def continuation(self, rng: random.Random) -> float:
        """Seconds for the next press of a move already decided (the hand only has to move)."""
        return self.floor + max(0.0, rng.gauss(self.motor_mu, self.motor_sigma)) + rng.expovariate(1.0 / self.motor_tau)

    def mean_decision(self, choices: int = 1) -> float:
        """The expected fresh-decision time (ignoring the clipping of the normal part at zero)."""
        hick = self.hick * math.log2(choices) if choices > 1 else 0.0
        return self.floor + self.mu + self.tau + hick + self.miss_chance * self.miss_mean

    def mean_continuation(self) -> float:
        return self.floor + self.motor_mu + self.motor_tau


# Level 1 is someone who has just learnt the game with a drink in hand; level 5 a practised,
# fast player. Every level stays human: a floor of 150 ms or more, and a fresh play about 0.4 s
# (expert) to 1.2 s (casual) on average.
TIMINGS: dict[int, Timing] = {
    1: Timing(
        floor=0.30,
        mu=0.45,
        sigma=0.15,
        tau=0.30,
        hick=0.20,
        motor_mu=0.20,
        motor_sigma=0.06,
        motor_tau=0.10,
        miss_chance=0.12,
        miss_mean=1.5,
        sprint=3.0,
    ),
    2: Timing(
        floor=0.25,
        mu=0.35,
        sigma=0.12,
        tau=0.22,
        hick=0.16,
        motor_mu=0.15,
        motor_sigma=0.05,
        motor_tau=0.08,
        miss_chance=0.08,
        miss_mean=1.2,
        sprint=2.6,
    ),
    3: Timing(
        floor=0.20,
        mu=0.26,
        sigma=0.09,
        tau=0.16,
        hick=0.12,
        motor_mu=0.11,
        motor_sigma=0.04,
        motor_tau=0.06,
        miss_chance=0.05,
        miss_mean=1.0,
        sprint=2.2,
    ),
    4: Timing(
        floor=0.17,
        mu=0.19,
        sigma=0.06,
        tau=0.11,
        hick=0.09,
        motor_mu=0.08,
        motor_sigma=0.03,
        motor_tau=0.04,
        miss_chance=0.03,
        miss_mean=0.8,
        sprint=1.8,
    ),
    5: Timing(
        floor=0.15,
        mu=0.14,
        sigma=0.04,
        tau=0.08,
        hick=0.07,
        motor_mu=0.06,
        motor_sigma=0.02,
        motor_tau=0.03,
        miss_chance=0.02,
        miss_mean=0.6,
        sprint=1.5,
    ),
}


def timing_for(level: int) -> Timing:
    try:
        return TIMINGS[level]
    except KeyError:
        raise ValueError(f"no timing for level {level!r} (levels: {', '.join(map(str, TIMINGS))})") from None
