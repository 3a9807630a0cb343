"""Two players mashing buttons at random: a seeded stream of presses for tests and the rules bench.

The masher presses what a player with no plan presses in each phase (piles and spit piles while
playing, "Spit!" or a spit pile when stuck, a spit pile when choosing), so its games do reach the
end; every press is still a real press, and many are rejected.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .rules import Event, Game

PLAYING = ("pile1", "pile2", "pile3", "pile4", "pile5", "pile1", "pile2", "pile3", "pile4", "pile5",
           "left", "right", "left", "right", "spit", "pile6")
WAITING = ("spit", "spit", "spit", "left", "right", "pile1", "pile3")
CHOOSING = ("left", "right", "pile2")


def mash(game: Game, rng: random.Random) -> tuple[float, int, str]:
    """The next press: (seconds after the last one, player, control)."""
    player = rng.randint(1, len(game.players))
    phase = game.phase
    controls = PLAYING if phase == "playing" else CHOOSING if phase == "choosing" else WAITING
    return rng.expovariate(20.0), player, rng.choice(controls)


def random_game(seed: int, max_presses: int = 1_000_000) -> Iterator[tuple[tuple[float, int, str], list[Event]]]:
    """Play one seeded game of mashing: yields ((t, player, control), events) until it is over."""
    rng = random.Random(seed ^ 0x5EED)
    game, _ = Game.new(seed)
    t = 0.0
    for _ in range(max_presses):
        if game.phase == "over":
            return
        dt, player, control = mash(game, rng)
        t = round(t + dt, 6)
        yield (t, player, control), game.press(t, player, control)
