"""Races decided by edge time, and the game clock: the machinery every game of the family shares.

A card counts as played the moment it touches (rule 5): presses are applied in order of their
edge time, and a card that fitted the top it was aimed at but arrives after another player covered
that top (within the race window) lost a race; the reject says who won and by how many ms.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .cards import Card
from .events import Reject
from .terms import Reason


@dataclass(frozen=True, slots=True)
class Race:
    """The last play onto a spit pile, so a card that fitted the covered top is told it was late (a
    value: a new play makes a new one, so copies of a game share it)."""

    t: float
    player: int
    covered: Card


def misfit(race: Race | None, t: float, player: int, side: str, card: Card, index: int, top: Card,
           window: float, fits: Callable[[Card, Card], bool], reason: Reason = Reason.NOT_ADJACENT) -> Reject:
    """The reject for `card`, which does not fit `top` on spit pile `index`: `too_late` if it fitted
    the top another player covered less than `window` seconds ago, else `reason`."""
    if race is not None and race.player != player and t - race.t <= window and fits(card, race.covered):
        return Reject(t, player, side, Reason.TOO_LATE, card=card, spit_pile=index, winner=race.player,
                      by_ms=round((t - race.t) * 1000, 3))
    return Reject(t, player, side, reason, card=card, spit_pile=index, onto=top)


def clock(now: float, t: float) -> float:
    """The time a press or a time line takes effect: its own, or `now` if it is older (or NaN)."""
    t = float(t)
    return t if t >= now else now
