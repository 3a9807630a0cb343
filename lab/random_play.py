"""Players mashing buttons at random: a seeded stream of presses for tests and the rules bench.

The masher presses what a player with no plan presses in each phase (their stock piles and the spit
piles they can reach while playing, "Spit!" or a spit pile when stuck, a spit pile or "Spit!" when
choosing), so its games do reach the end, whatever the variant; every press is still a real press,
and many are rejected.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from appliance.rules import Event, FamilyGame, new_game


def _controls(game: FamilyGame, phase: str) -> tuple[str, ...]:
    sides = game.table.sides()
    if phase == "playing":
        piles = tuple(f"pile{n}" for n in range(1, game.pile_controls(1) + 1))
        return (*piles, *piles, *sides, *sides, "spit", "pile6", "slap")
    if phase == "choosing":
        return (*sides, "pile2", "spit", "slap")
    return ("spit", "spit", "spit", *sides, "pile1", "pile3")


def mash(game: FamilyGame, rng: random.Random) -> tuple[float, int, str]:
    """The next press: (seconds after the last one, player, control)."""
    player = rng.randint(1, game.table.seats)
    return rng.expovariate(20.0), player, rng.choice(_controls(game, game.phase))


def random_game(seed: int, max_presses: int = 1_000_000, variant: str = "classic",
                options: Mapping[str, Any] | None = None) -> Iterator[tuple[tuple[float, int, str], list[Event]]]:
    """Play one seeded game of mashing: yields ((t, player, control), events) until it is over."""
    rng = random.Random(seed ^ 0x5EED)
    game, _ = new_game(variant, seed, options)
    t = 0.0
    for _ in range(max_presses):
        if game.phase == "over":
            return
        dt, player, control = mash(game, rng)
        t = round(t + dt, 6)
        yield (t, player, control), game.press(t, player, control)
