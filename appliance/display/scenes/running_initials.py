"""Three initials for the high-score table, the arcade way, from the runner's own team's controls.

Registered as "running_initials" (from "running_over"), with the runners whose fastest sprint makes
the table, fastest first: each in turn, on their team's side, picks three letters (initials.py: the
slap pads step through A-Z and a space, SPIT! or START takes the letter). The entry is written to
the table (`high_scores.json` beside the settings) at the third letter; a runner who enters nothing
in `ENTRY_S` is entered with the letters shown. Then the table ("running_scores").
"""

from __future__ import annotations

from typing import Any

from appliance import high_scores
from appliance.operator.store import Score
from appliance.running_stats import runner_name

from ..i18n import _
from ..running_view import split_words
from .base import Context, Replace, Transition, make
from .initials import InitialsScene, Qualifier, sprint_table


class RunningInitialsScene(InitialsScene):
    def __init__(self, ctx: Context, qualifiers: list[Qualifier], view: Any) -> None:
        self.places: list[int] = []  # the places taken, for the table to light them
        super().__init__(ctx, qualifiers, view)

    def keep(self, initials: str, team: int, runner: int, ms: float) -> None:
        """The entry into its table, kept by the operator layer (a failure to write it is its notice)."""
        from ..coins import office

        entry = high_scores.Entry(initials, ms, team, runner)
        place = sprint_table(self.ctx).add(entry)
        if place is not None:
            self.places.append(place)
            entry = high_scores.clean(entry)
            office(self.ctx).add_score(Score("sprint", entry.initials, entry.sprint_ms, team, runner, entry.date))

    def update(self, now_ns: int) -> Transition | None:
        if self.entry.update(now_ns):  # the table, the new places lit
            return Replace(make("running_scores", self.ctx, tuple(self.places)))
        return None

    def headline(self, team: int, runner: int, ms: float) -> str:
        return _("Team {n}, runner {runner}: a sprint of {split}!").format(
            n=team, runner=runner_name(runner), split=split_words(ms))
