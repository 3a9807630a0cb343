"""A linked game (`play --link-listen PORT` / `--link HOST:PORT`): waiting for the other cabinet.

Says what the link is doing ("waiting for the other cabinet on port 7000", "looking for a game on the
venue" while a find tries again and again (appliance/linked/finding.py), "setting the clocks",
that the other table's link word is not this one's, or why the other cabinet was refused: another
version, another variant, the same seats), ticking
the link every frame. When the leader deals, the game's table takes over (the play scene of its
type), with this cabinet's seats; the link's pause notice and its corrections are drawn there
(AtTable.link_captions). Escape (or a click or a tap on its line) closes the link and goes to the title.
"""

from __future__ import annotations

from typing import Any

import pygame

from ..captions import Caption, Line
from ..compositor import Canvas
from ..i18n import _
from ..table_view import GOLD, WHITE
from .at_table import link_said
from .base import BACK, Context, Input, Replace, Transition, draw_scene, make, ready_for_play

NOT_YET = "no linked game offered"  # a find's try that ended with nothing offered yet: not worth a line


class LinkedWaitScene:
    def __init__(self, ctx: Context, table: Any, where: str = "") -> None:
        self.ctx = ctx
        self.table = table
        self.where = where  # "port 7000", "cabinet-2.local:7000": for the words
        self.view = ctx.view(assist=False, show_keys=False, names=False)

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Input) -> Transition | None:
        if press.control == BACK and press.pressed:
            self.table.close()
            return Replace(make("title", self.ctx))
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.table.tick(now_ns)
        match = self.table.match
        if match is not None and self.table.state in ("starting", "playing"):
            ready_for_play(self.ctx)
            return Replace(make("play", self.ctx, match))  # Spit's table or Speed's: the play scene's
        return None

    def words(self) -> tuple[str, str]:
        state = self.table.state
        if state == "finding":  # looked for on the venue (appliance/linked/finding.py), try after try
            refusal = self.table.refusal
            if refusal:  # what was offered does not fit (check_offer's words, English as every refusal's)
                return _("The linked game cannot start"), refusal
            return _("Waiting for the other cabinet"), _("Looking for a game on the venue")
        where = getattr(self.table, "where", "") or self.where
        if state == "connecting":
            head = _("Waiting for the other cabinet")
            problem = getattr(self.table, "problem", "")  # (the link words differ: peer.py's OTHER_WORD)
            return head, _(problem) if problem else where
        if state == "syncing":
            return _("Linked: setting the clocks"), where
        if state.startswith(("refused", "closed")):
            return _("The linked game cannot start"), self.table.notice or state
        return _("Linked"), link_said(self.table.notice)

    def captions(self) -> list[Caption]:
        head, detail = self.words()
        back = Line(_("Escape: back to the title"), 0.05, WHITE, BACK)  # (a click or a tap on it: Escape)
        lines: tuple[Line, ...] = (Line(head, 0.12, GOLD), Line(detail, 0.06, WHITE))
        if self.table.state == "finding" and self.table.refusal:
            lines += (Line(_("Still looking for a game on the venue"), 0.05, WHITE),)
        elif self.table.state == "finding" and self.table.said and NOT_YET not in self.table.said:
            lines += (Line(self.table.said, 0.05, WHITE),)  # the unit or the broker not answering: why, in English
        lines += (back,)
        return [Caption("centre", None, lines, 200)]

    def draw(self, canvas: Canvas) -> None:
        draw_scene(canvas, self.ctx, self.captions())
