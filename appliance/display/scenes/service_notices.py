"""What was wrong at start, on screen: settings problems, inputs left out, a game that can't resume.

Pushed over the first scene by the app when there is anything wrong (each thing is on stderr, the
system journal, too). The cabinet plays on: with the built-in defaults for a setting that is wrong,
without an input that cannot start; the footer says which is true of what is listed. Any button (or
Escape) puts it away, and it goes by itself after NOTICE_S so an unattended cabinet is never left on
it. The service menu's diagnostics list them again.

A device that is only waiting to be plugged in (Running Spit's slap pad, put away at night) is not
a problem: it joins the game when it is plugged in, and nobody has anything to do about it. A start
with only such things goes straight to the title, without a panel (base.py's `worth_a_panel`): a panel on
every ordinary start teaches the bar's staff to press it away unread, the day a real problem is on
it too. They are listed in the service menu's diagnostics all the same, and on stderr. A start with
real problems shows them, with the things waiting listed apart, under their own heading.
"""

from __future__ import annotations

import pygame

from ..captions import Caption, Line
from ..compositor import Canvas
from ..i18n import _
from ..table_view import GOLD, SOFT, WHITE
from .base import (
    LEFT_OUT,
    SETTINGS,
    WAITING,
    Context,
    Input,
    Pop,
    Transition,
    draw_overlay,
    notice_kind,
    startup_notices,
)

NOTICE_S = 60.0
SHOWN = 6  # lines at most; the rest are counted ("and 3 more")


class NoticesScene:
    service = False  # not part of the service menu: SERVICE opens it over this
    calm = True  # changes only when pressed (or when it goes, after NOTICE_S): drawn runner.CALM_FPS times a second

    def __init__(self, ctx: Context, notices: list[str]) -> None:
        self.ctx = ctx
        self.notices = list(notices)
        self.since_ns = ctx.clock()
        startup_notices(ctx)[:] = self.notices  # the service menu shows them again

    def background(self) -> pygame.Surface:
        return self.ctx.view(show_keys=False).background()

    def on_event(self, press: Input) -> Transition | None:
        return Pop() if press.pressed else None

    def update(self, now_ns: int) -> Transition | None:
        return Pop() if (now_ns - self.since_ns) / 1e9 > NOTICE_S else None

    def lines(self) -> tuple[Line, ...]:
        problems = [n for n in self.notices if notice_kind(n) != WAITING]
        waiting = [n for n in self.notices if notice_kind(n) == WAITING]
        shown = problems[:SHOWN]
        shown_waiting = waiting[: max(0, SHOWN - len(shown))]
        out = [Line(_("The cabinet started with problems"), 0.18, GOLD)]
        out += [Line(words, 0.1, WHITE) for words in shown]
        if shown_waiting:
            out.append(Line(_("waiting to be plugged in:"), 0.11, GOLD))
            out += [Line(words, 0.1, WHITE) for words in shown_waiting]
        more = len(self.notices) - len(shown) - len(shown_waiting)
        if more:
            out.append(Line(_("and {n} more (see the service menu)").format(n=more), 0.1, SOFT))
        kinds = {notice_kind(n) for n in self.notices}
        footer = [words for kind, words in (
            (SETTINGS, _("settings: the built-in defaults are used")),
            (LEFT_OUT, _("an input left out: the cabinet plays without it")),
            (WAITING, _("waiting: it joins when it is plugged in")),
        ) if kind in kinds] + [_("any button: go on")]  # fmt: skip
        out += [Line(words, 0.1, SOFT) for words in footer]
        return tuple(out)

    def captions(self) -> list[Caption]:
        return [Caption("panel", None, self.lines(), 220)]

    def draw(self, canvas: Canvas) -> None:
        draw_overlay(canvas, self.ctx, self.captions())
