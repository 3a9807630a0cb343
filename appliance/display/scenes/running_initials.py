"""Three initials for the high-score table, the arcade way, from the runner's own team's controls.

Registered as "running_initials" (from "running_over"), with the runners whose fastest sprint makes
the table, fastest first: each in turn, on their team's side, picks three letters: the slap pads
(`left` / `right`) step through A-Z and a space, SPIT! (or START) takes the letter; a click or a tap
on the letters is `right` (the next letter), on the line of keys under them SPIT!. The entry is
written to the table (`high_scores.json` beside the settings) at the third letter; a runner who
enters nothing in `ENTRY_S` is entered with the letters shown. Then the table ("running_scores").
"""

from __future__ import annotations

from typing import Any

import pygame

from appliance import high_scores
from appliance.operator.store import Score
from appliance.running_stats import runner_name

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..i18n import _
from ..running_view import split_words
from ..table_view import GOLD, PLAYER_COLOURS, WHITE
from .base import BACK, Context, Input, Replace, Transition, draw_scene, is_press, make

ENTRY_S = 30.0
LETTERS = high_scores.LETTERS


class RunningInitialsScene:
    def __init__(self, ctx: Context, qualifiers: list[tuple[int, int, float]], view: Any) -> None:
        self.ctx = ctx
        self.view = view
        self.waiting = list(qualifiers)
        self.places: list[int] = []  # the places taken, for the table to light them
        self.now_ns = ctx.clock()
        self._begin(self.now_ns)

    def _begin(self, now_ns: int) -> None:
        self.letters = [0, 0, 0]  # indices into LETTERS: "AAA"
        self.position = 0
        self.started_ns = now_ns

    @property
    def current(self) -> tuple[int, int, float] | None:
        return self.waiting[0] if self.waiting else None

    @property
    def initials(self) -> str:
        return "".join(LETTERS[i] for i in self.letters)

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Input) -> Transition | None:
        current = self.current
        if current is None or not press.pressed:
            return None
        if press.control == BACK:
            self.waiting.clear()  # nobody wants their name up: straight to the table
            return None
        if press.player not in (current[0], 0):
            return None  # only the runner's own team enters (START, the cabinet's, also takes a letter)
        step = {"left": -1, "right": 1, "up": 1, "down": -1}.get(press.control)
        if step is not None:
            self.letters[self.position] = (self.letters[self.position] + step) % len(LETTERS)
        elif is_press(press, "spit", "start"):
            self.position += 1
            if self.position == 3:
                self._enter(press.t_ns)
        return None

    def _enter(self, now_ns: int) -> None:
        team, runner, ms = self.waiting.pop(0)
        self.keep(team, runner, ms)
        self._begin(now_ns)

    def keep(self, team: int, runner: int, ms: float) -> None:
        """The entry into its table, kept by the operator layer (a failure to write it is its notice)."""
        from ..coins import office
        from .running_scores import sprint_table

        entry = high_scores.Entry(self.initials, ms, team, runner)
        place = sprint_table(self.ctx).add(entry)
        if place is not None:
            self.places.append(place)
            entry = high_scores.clean(entry)
            office(self.ctx).add_score(Score("sprint", entry.initials, entry.sprint_ms, team, runner, entry.date))

    def done(self) -> Transition:
        """Where the entries lead: the table, the new places lit."""
        return Replace(make("running_scores", self.ctx, tuple(self.places)))

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if self.current is not None and now_ns - self.started_ns >= ENTRY_S * 1e9:
            self._enter(now_ns)
        if self.current is None:
            return self.done()
        return None

    def headline(self, team: int, runner: int, ms: float) -> str:
        return _("Team {n}, runner {runner}: a sprint of {split}!").format(
            n=team, runner=runner_name(runner), split=split_words(ms))

    def captions(self) -> list[Caption]:
        current = self.current
        if current is None:
            return []
        team, runner, ms = current
        colour = PLAYER_COLOURS.get(team, WHITE)
        letters = self.initials.replace(" ", "·")  # a space, visible
        shown = " ".join(c if n < self.position else f"[{c}]" if n == self.position else "_"
                         for n, c in enumerate(letters))
        lines = (
            Line(self.headline(team, runner, ms), 0.13, colour),
            Line(_("enter your initials"), 0.12, WHITE),
            Line(shown, 0.45, GOLD, "right"),  # (a tap: the next letter)
            Line(_("pads: letter   SPIT!: next"), 0.1, WHITE, "spit"),  # (a tap: take it)
        )
        out = [Caption("panel", team, lines, 210)]
        out.append(caption("panel", None, Line(_("a new high score"), 0.2, GOLD), shade=200))
        return out

    def draw(self, canvas: Canvas) -> None:
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)
