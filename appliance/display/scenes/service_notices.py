"""What was wrong at start, on screen: settings problems, inputs left out, a game that can't resume.

Pushed over the first scene by the app when there is anything to say (each thing is on stderr, the
system journal, too). The cabinet plays on with the built-in defaults for what is broken; this
only says so, to whoever looks: any button (or Escape) puts it away, and it goes by itself after
NOTICE_S so an unattended cabinet is never left on it. The service menu lists them again.
"""

from __future__ import annotations

import pygame

from ..captions import Caption, Line
from ..compositor import Canvas
from ..i18n import _
from ..table_view import GOLD, SOFT, WHITE
from .base import Context, Input, Pop, Transition, draw_overlay, startup_notices

NOTICE_S = 60.0
SHOWN = 6  # lines at most; the rest are counted ("and 3 more")


class NoticesScene:
    service = False  # not part of the service menu: SERVICE opens it over this

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
        out = [Line(_("The cabinet started with problems"), 0.18, GOLD)]
        out += [Line(words, 0.1, WHITE) for words in self.notices[:SHOWN]]
        if len(self.notices) > SHOWN:
            out.append(Line(_("and {n} more (see the service menu)").format(n=len(self.notices) - SHOWN), 0.1, SOFT))
        out.append(Line(_("built-in defaults are used for these; any button: go on"), 0.11, SOFT))
        return tuple(out)

    def captions(self) -> list[Caption]:
        return [Caption("panel", None, self.lines(), 220)]

    def draw(self, canvas: Canvas) -> None:
        draw_overlay(canvas, self.ctx, self.captions())
