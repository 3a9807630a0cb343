"""Three initials for the fastest reactions, the arcade way, as Running Spit's sprints take them.

Registered as "reaction_initials", pushed over the game-over screen (game_over.py) when a player's
fastest reaction of the game makes the cabinet's table of reactions (`initials.reaction_qualifiers`):
each such player in turn, on their own side, picks three letters (initials.py: the slap pads step
through A-Z and a space, SPIT! or START takes the letter; nothing in `ENTRY_S`: the letters shown).
The entry goes into the operator's store (`Office.add_score`, kind "reaction"), which the venue
uplink publishes to the venue's board. Then back to the game-over screen, its figures and its rematch.

A reaction is the game-over screen's own figure (display/stats.py: from a spit pile's top changing
to the player's next card on it); one under `MIN_MS` is a press made before the change was seen (the
rules' least human reaction is 150 ms), and no record.
"""

from __future__ import annotations

import time

from appliance import high_scores
from appliance.operator.store import Score

from ..i18n import _
from .base import Pop, Transition
from .initials import InitialsScene


class ReactionInitialsScene(InitialsScene):
    def keep(self, initials: str, seat: int, runner: int, ms: float) -> None:
        from ..coins import office

        entry = Score("reaction", high_scores.clean_initials(initials), round(ms, 1), seat, 0,
                      time.strftime("%Y-%m-%d"))
        office(self.ctx).add_score(entry)  # kept by the operator layer (a failure to write it is its notice)

    def update(self, now_ns: int) -> Transition | None:
        return Pop() if self.entry.update(now_ns) else None  # back to the game-over screen

    def headline(self, seat: int, runner: int, ms: float) -> str:
        return _("Player {n}: a reaction of {ms} ms!").format(n=seat, ms=f"{ms:.0f}")
