"""Three initials for the fastest reactions, the arcade way, as Running Spit's sprints take them.

Registered as "reaction_initials", pushed over the game-over screen (game_over.py) when a player's
fastest reaction of the game makes the cabinet's table of reactions: each such player in turn, on
their own side, picks three letters (the slap pads step through A-Z and a space, SPIT! or START
takes the letter; nothing in `ENTRY_S`: the letters shown). The entry goes into the operator's store
(`Office.add_score`, kind "reaction"), which the venue uplink publishes to the venue's board. Then
back to the game-over screen, its figures and its rematch.

A reaction is the game-over screen's own figure (display/stats.py: from a spit pile's top changing
to the player's next card on it); one under `MIN_MS` is a press made before the change was seen (the
rules' least human reaction is 150 ms), and no record.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping

from appliance import high_scores
from appliance.operator.store import Score

from ..i18n import _
from .base import Pop, Transition
from .running_initials import RunningInitialsScene

MIN_MS = 100.0


def reaction_qualifiers(fastest: Mapping[int, float | None], table: Iterable[float],
                        computer: Iterable[int] = ()) -> list[tuple[int, int, float]]:
    """The seats whose fastest reaction makes the table (its times: `table`) (people only), fastest
    first, as they would enter it one after another: (seat, 0, ms)."""
    bots = set(computer)
    trial = sorted(table)[:high_scores.SIZE]
    out: list[tuple[int, int, float]] = []
    for ms, seat in sorted((ms, seat) for seat, ms in fastest.items() if ms is not None and seat not in bots):
        if ms >= MIN_MS and (len(trial) < high_scores.SIZE or ms < trial[-1]):
            out.append((seat, 0, ms))
            trial = sorted([*trial, ms])[:high_scores.SIZE]
    return out


class ReactionInitialsScene(RunningInitialsScene):
    def keep(self, team: int, runner: int, ms: float) -> None:
        from ..coins import office

        entry = Score("reaction", high_scores.clean_initials(self.initials), round(ms, 1), team, 0,
                      time.strftime("%Y-%m-%d"))
        office(self.ctx).add_score(entry)  # kept by the operator layer (a failure to write it is its notice)

    def done(self) -> Transition:
        return Pop()  # back to the game-over screen

    def headline(self, team: int, runner: int, ms: float) -> str:
        return _("Player {n}: a reaction of {ms} ms!").format(n=team, ms=f"{ms:.0f}")
