"""The game's length on screen (ours, not the sources': rules/game_length.py): the operator's
adjustment in words and its choices, the options a game gets from it, and why a game ended.

    length_options(settings, speed=False)   # {"limit_rounds": 5} when the operator set 5 rounds
    length_words(settings)                  # "game length: 5 rounds"
    ended_words(events, names)              # ["5 rounds played: the fewest cards win", "Player 1: 12 · ..."]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from appliance.rules.events import GameOver, RoundOver

from .i18n import _

# The service menu's steps: (rounds, minutes), off first.
LENGTHS: tuple[tuple[int, int], ...] = ((0, 0), (3, 0), (5, 0), (10, 0), (0, 5), (0, 10), (0, 15), (0, 20))
LIMITS = ("limit_rounds", "limit_minutes")


def length_options(settings: Any, speed: bool = False) -> dict[str, int]:
    """The limit the operator set, as a game's options (none for Speed, which its target bounds)."""
    if speed:
        return {}
    values = {name: int(getattr(settings, name, 0) or 0) for name in LIMITS}
    return {name: value for name, value in values.items() if value}


def length_words(settings: Any) -> str:
    """The adjustment as the service menu lists it."""
    rounds, minutes = (int(getattr(settings, name, 0) or 0) for name in LIMITS)
    if rounds:
        return _("game length: {n} rounds").format(n=rounds)
    if minutes:
        return _("game length: {n} minutes").format(n=minutes)
    return _("game length: until someone has no cards")


def next_length(settings: Any, step: int) -> tuple[int, int]:
    """The next (rounds, minutes) of `LENGTHS` from the one set (off when it is none of them)."""
    now = tuple(int(getattr(settings, name, 0) or 0) for name in LIMITS)
    index = LENGTHS.index(now) if now in LENGTHS else 0
    return LENGTHS[(index + step) % len(LENGTHS)]


def length_in_force(options: Any) -> list[str]:
    """A game's length among the rules in force shown in play ("a game of 5 rounds"), [] for none."""
    if getattr(options, "limit_rounds", 0):
        return [_("a game of {n} rounds").format(n=options.limit_rounds)]
    if getattr(options, "limit_minutes", 0):
        return [_("a game of {n} minutes").format(n=options.limit_minutes)]
    return []


def ended_words(events: Sequence[Any], name: Callable[[int], str], most: bool = False) -> list[str]:
    """Why the game ended, when its length did (the `game_over` event's `limit` and `cards`), in two
    lines: the limit and how it was decided (`most`: the most cards won, Reverse Spit), then each
    seat's cards left; [] otherwise."""
    over = next((e for e in reversed(events) if isinstance(e, GameOver)), None)
    if over is None or over.limit is None:
        return []
    cards = list(over.cards or [])
    if over.limit == "rounds":
        rounds = (_("Game length reached: {n} rounds played; the most cards win") if most
                  else _("Game length reached: {n} rounds played; the fewest cards left win"))
        head = rounds.format(n=len_rounds(events))
    else:
        head = (_("Time is up: the last round is played; the most cards win") if most
                else _("Time is up: the last round is played; the fewest cards left win"))
    counted = " · ".join(_("{who}: {n} cards").format(who=name(n), n=c) for n, c in enumerate(cards, start=1))
    return [head, counted]


def len_rounds(events: Sequence[Any]) -> int:
    """The rounds a game's events played (its round_over events)."""
    return sum(1 for e in events if isinstance(e, RoundOver))
