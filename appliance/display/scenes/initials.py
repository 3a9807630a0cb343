"""Three initials, the arcade way: the entry both high-score scenes take them with (not a scene).

Running Spit's sprints (running_initials.py) and the table games' reactions (reaction_initials.py)
hand `InitialsEntry` who qualified, fastest first, each `(team or seat, runner, ms)`; each in turn,
on their own side, picks three letters: the slap pads (`left` / `right`, the arrows `up` / `down`)
step through A-Z and a space, SPIT! (or START, the cabinet's) takes the letter; a click or a tap on
the letters is `right` (the next letter), on the line of keys under them SPIT!. At the third letter,
or with nothing entered in `ENTRY_S` (the letters shown are taken), the scene's `keep` is given the
initials; BACK leaves the rest out. The scene says what the record is (`headline`), where it goes
after the last one, and keeps the entry where it belongs.

    entry = InitialsEntry(qualifiers, ctx.clock(), keep=self.keep, headline=self.headline)
    entry.on_event(press); if entry.update(now_ns): ...all entered...; entry.captions()
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pygame

from appliance import high_scores

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..i18n import _
from ..table_view import GOLD, PLAYER_COLOURS, WHITE
from .base import BACK, Context, Input, Transition, draw_scene, is_press

ENTRY_S = 30.0
LETTERS = high_scores.LETTERS
MIN_MS = 100.0  # a reaction faster than this was a press made before the change was seen: no record

Qualifier = tuple[int, int, float]  # (team, or the seat; the runner, 0 for a seat; the time, ms)


class InitialsEntry:
    def __init__(self, qualifiers: Iterable[Qualifier], now_ns: int,
                 keep: Callable[[str, int, int, float], None], headline: Callable[[int, int, float], str]) -> None:
        self.waiting = list(qualifiers)
        self.keep = keep  # (initials, team, runner, ms): the entry, to its table
        self.headline = headline  # (team, runner, ms): what the record is, in words
        self._begin(now_ns)

    def _begin(self, now_ns: int) -> None:
        self.letters = [0, 0, 0]  # indices into LETTERS: "AAA"
        self.position = 0
        self.started_ns = now_ns

    @property
    def current(self) -> Qualifier | None:
        return self.waiting[0] if self.waiting else None

    @property
    def initials(self) -> str:
        return "".join(LETTERS[i] for i in self.letters)

    def on_event(self, press: Input) -> None:
        current = self.current
        if current is None or not press.pressed:
            return
        if press.control == BACK:
            self.waiting.clear()  # nobody wants their name up
            return
        if press.player not in (current[0], 0):
            return  # only the record's own side enters (START, the cabinet's, also takes a letter)
        step = {"left": -1, "right": 1, "up": 1, "down": -1}.get(press.control)
        if step is not None:
            self.letters[self.position] = (self.letters[self.position] + step) % len(LETTERS)
        elif is_press(press, "spit", "start"):
            self.position += 1
            if self.position == 3:
                self._enter(press.t_ns)

    def _enter(self, now_ns: int) -> None:
        team, runner, ms = self.waiting.pop(0)
        self.keep(self.initials, team, runner, ms)
        self._begin(now_ns)

    def update(self, now_ns: int) -> bool:
        """Whether every entry is made (the time up for one in `ENTRY_S`: the letters shown)."""
        if self.current is not None and now_ns - self.started_ns >= ENTRY_S * 1e9:
            self._enter(now_ns)
        return self.current is None

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



class InitialsScene:
    """What both high-score scenes share: an `InitialsEntry` over their view, drawn as a scene. A
    scene says what the record is (`headline`), where it is kept (`keep`) and where it goes once all
    have entered (`update`)."""

    def __init__(self, ctx: Context, qualifiers: list[Qualifier], view: Any) -> None:
        self.ctx = ctx
        self.view = view
        self.entry = InitialsEntry(qualifiers, ctx.clock(), self.keep, self.headline)

    @property
    def current(self) -> Qualifier | None:
        return self.entry.current

    @property
    def waiting(self) -> list[Qualifier]:
        return self.entry.waiting

    def keep(self, initials: str, team: int, runner: int, ms: float) -> None:
        raise NotImplementedError

    def headline(self, team: int, runner: int, ms: float) -> str:
        raise NotImplementedError

    def background(self) -> pygame.Surface:
        surface: pygame.Surface = self.view.background()
        return surface

    def on_event(self, press: Input) -> Transition | None:
        self.entry.on_event(press)
        return None

    def captions(self) -> list[Caption]:
        return self.entry.captions()

    def draw(self, canvas: Canvas) -> None:
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)


def sprint_table(ctx: Context) -> high_scores.HighScores:
    """Running Spit's fastest sprints, as the operator layer holds them (the sprints' initials, their
    game's end and their table read it)."""
    from ..coins import office

    return high_scores.HighScores([high_scores.Entry(s.initials, s.ms, s.team, s.runner, s.date)
                                   for s in office(ctx).high_scores("sprint")])


def reaction_qualifiers(fastest: Mapping[int, float | None], table: Iterable[float],
                        computer: Iterable[int] = ()) -> list[Qualifier]:
    """The seats whose fastest reaction makes the table (its times: `table`) (people only), fastest
    first, as they would enter it one after another: (seat, 0, ms)."""
    bots = set(computer)
    trial = sorted(table)[:high_scores.SIZE]
    out: list[Qualifier] = []
    for ms, seat in sorted((ms, seat) for seat, ms in fastest.items() if ms is not None and seat not in bots):
        if ms >= MIN_MS and (len(trial) < high_scores.SIZE or ms < trial[-1]):
            out.append((seat, 0, ms))
            trial = sorted([*trial, ms])[:high_scores.SIZE]
    return out
