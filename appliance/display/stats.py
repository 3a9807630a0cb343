"""Each player's figures for the game-over screen, worked out from the game's events alone.

- cards played: `play` events;
- fastest reaction: the shortest time from a spit pile's top changing (a `reveal`, or the other
  player's `play`) to this player's next play onto either pile, in ms;
- races won: a `reject` with reason `too_late` names the winner and by how many ms;
  slaps that settled a choosing count as `slaps`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from appliance.rules import Event, Reason
from appliance.rules.events import Deal, Play, Reject, Reveal, RoundOver, Slap, Stalemate

from .events import seat_of


@dataclass
class Figures:
    player: int
    cards_played: int = 0
    fastest_reaction_ms: float | None = None
    races_won: int = 0
    races_lost: int = 0
    closest_race_ms: float | None = None
    rejects: int = 0
    slaps: int = 0
    rounds_won: int = 0


def figures(events: Iterable[Event], players: int = 2) -> dict[int, Figures]:
    result = {n: Figures(n) for n in range(1, players + 1)}
    last_change: float | None = None
    for event in events:
        player, t = seat_of(event), event.t
        mine = result.get(player) if player is not None else None
        if isinstance(event, Reveal):
            last_change = t
        elif isinstance(event, Play) and mine is not None:
            mine.cards_played += 1
            if last_change is not None:
                reaction = round((t - last_change) * 1000, 1)
                if reaction > 0 and (mine.fastest_reaction_ms is None or reaction < mine.fastest_reaction_ms):
                    mine.fastest_reaction_ms = reaction
            last_change = t
        elif isinstance(event, Reject) and mine is not None:
            mine.rejects += 1
            if event.reason == Reason.TOO_LATE:
                mine.races_lost += 1
                winner = result.get(event.winner or 0)
                if winner is not None:
                    winner.races_won += 1
                    by_ms = event.by_ms or 0.0
                    if winner.closest_race_ms is None or by_ms < winner.closest_race_ms:
                        winner.closest_race_ms = by_ms
        elif isinstance(event, Slap) and mine is not None:
            mine.slaps += 1
        elif isinstance(event, RoundOver) and mine is not None and event.reason == "stock_out":
            mine.rounds_won += 1
        elif isinstance(event, (Deal, Stalemate)):
            last_change = None
    return result
