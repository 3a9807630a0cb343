"""Choose players and game: two players, or against the computer at a level (when it is installed).

Either player moves the choice with left/right (the arrow keys too, or a pile button: 1 two
players, 2..6 computer levels) and confirms with SPIT or START. The game is classic Spit.
"""

from __future__ import annotations

import sys

import pygame

from appliance.match import Match, bots_available, level_words, make_bot, open_journal

from ..captions import Caption, Line
from ..compositor import Canvas
from ..i18n import _
from ..table_view import GOLD, SOFT, WHITE, TableView
from .base import BACK, Context, Input, Push, Replace, Scene, Transition, draw_scene, is_press, make

IDLE_S = 60.0


def level_description(level: str) -> str:
    """What a computer level is like, in the players' language (appliance.bots' words otherwise)."""
    words = {
        "1": _("casual: slow, picks any card, sometimes looks away"),
        "2": _("steady: first card that fits, slaps the smaller pile"),
        "3": _("runs: thinks ahead through runs of cards"),
        "4": _("watchful: watches your cards, plays runs in quick pairs"),
        "5": _("expert: fast, ready to slap when you play out, slow only when you are stuck"),
    }
    return words.get(level) or level_words(level)


class ChooseScene:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.view: TableView = ctx.view(show_keys=False)
        self.levels: list[str | None] = [None] + [level for level in bots_available() if level.isdigit()]
        self.index = 0
        self.now_ns = ctx.clock()
        self.last_ns = self.now_ns

    @property
    def options(self) -> list[tuple[str, str | None]]:
        """(words, computer level or None for two players), in the players' language."""
        return [
            (_("Two players") if level is None else _("Against the computer, level {n}").format(n=level), level)
            for level in self.levels
        ]

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Input) -> Transition | None:
        if not press.pressed:
            return None
        self.last_ns = press.t_ns
        if press.control == BACK:
            return Replace(make("title", self.ctx))
        if press.control in ("left", "up"):
            self.index = (self.index - 1) % len(self.levels)
            self.ctx.sound.play("select")
        elif press.control in ("right", "down"):
            self.index = (self.index + 1) % len(self.levels)
            self.ctx.sound.play("select")
        elif press.control.startswith("pile"):
            self.index = min(int(press.control[4:]) - 1, len(self.levels) - 1)
            self.ctx.sound.play("select")
        elif is_press(press, "service"):
            return Push(make("settings", self.ctx))
        elif is_press(press, "spit", "start"):
            return Replace(self.start(self.levels[self.index]))
        return None

    def start(self, level: str | None) -> Scene:
        ctx = self.ctx
        seed = ctx.seed_source()
        bots = {}
        if level is not None:
            bot = make_bot(level, 2, seed)
            if bot is not None:
                bots[2] = bot
        journal = None
        if ctx.journal_dir is not None:
            try:
                journal = open_journal(ctx.journal_dir, seed)
            except OSError as error:  # a full disk, a read-only card: play on, say so once
                print(f"spit-arcade play: cannot journal this game ({error})", file=sys.stderr)
        match = Match(seed, ctx.clock(), journal, bots)
        return make("countdown", ctx, match)

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if now_ns - self.last_ns > IDLE_S * 1e9:
            return Replace(make("title", self.ctx))
        return None

    def captions(self) -> list[Caption]:
        lines = [Line(_("Choose a game: classic Spit"), 0.24, GOLD)]
        for i, (words, _level) in enumerate(self.options):
            if i == self.index:
                lines.append(Line(f"▶  {words}  ◀", 0.18, GOLD))
            else:
                lines.append(Line(words, 0.15, WHITE))
        level = self.levels[self.index]
        if level is not None:
            lines.append(Line(level_description(level), 0.12, SOFT))
        elif len(self.levels) == 1:
            lines.append(Line(_("(the computer opponent is not installed)"), 0.12, SOFT))
        else:
            lines.append(Line(_("you two, on one keyboard"), 0.12, SOFT))
        lines.append(Line(_("left / right or the arrow keys to choose, SPIT or START to play, Esc back"), 0.11, SOFT))
        return [Caption("panel", None, tuple(lines), 210)]

    def draw(self, canvas: Canvas) -> None:
        draw_scene(canvas, self.ctx, self.captions())
