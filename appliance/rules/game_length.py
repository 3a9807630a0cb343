"""How long a game lasts: as the sources play it, until a player has no cards left (rule 10); or, an
adjustment of ours (not the sources'), bounded in rounds or in minutes for a bar.

`limit_rounds` N: the game ends at the new layout after round N. `limit_minutes` M: once M minutes
of game time have passed (the time of the presses: paused time does not count), the round being
played is the last; it ends at that round's new layout. Either way the winner is then the player
left with the fewest cards (Reverse Spit, whose goal is every card: the most), counted in the hands
gathered for the new layout; a tie plays another round, and the next layout decides again.

Time reaches the rules only with the presses (a round ends on a slap or a play), so a journal
replays the end exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True)
class GameLength:
    rounds: int = 0  # 0: no limit
    minutes: int = 0  # 0: no limit

    def reached(self, round_: int, t: float) -> str | None:
        """At the new layout after round `round_`, at game time `t`: which limit is reached
        ("rounds" or "minutes"), or None."""
        if self.rounds and round_ >= self.rounds:
            return "rounds"
        if self.minutes and t >= self.minutes * 60.0:
            return "minutes"
        return None

    def winner(self, hands: Sequence[Sequence[Card]], most_wanted: bool) -> int | None:
        """The player with the fewest cards (`most_wanted`: the most); None for a tie at the top."""
        counts = [len(hand) for hand in hands]
        best = max(counts) if most_wanted else min(counts)
        leaders = [number for number, count in enumerate(counts, start=1) if count == best]
        return leaders[0] if len(leaders) == 1 else None


UNLIMITED = GameLength()
