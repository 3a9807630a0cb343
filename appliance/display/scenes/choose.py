"""Choose players and game: two players, or against the computer at a level (when it is installed).

Either player moves the choice with left/right (or a pile button: 1 two players, 2..6 computer
levels) and confirms with SPIT or START. The game is classic Spit.
"""

from __future__ import annotations

import sys
from typing import Any

import pygame

from ..compositor import Canvas
from ..match import Match, bots_available, level_words, make_bot, open_journal
from ..table_view import GOLD, SOFT, WHITE, TableView
from .base import BACK, Context, Replace, Transition, banner, is_press

IDLE_S = 60.0


class ChooseScene:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.view: TableView = ctx.view(show_keys=False)
        levels = [level for level in bots_available() if level.isdigit()]
        self.options: list[tuple[str, str | None]] = [("Two players", None)]
        self.options += [(f"Against the computer, level {level}", level) for level in levels]
        self.index = 0
        self.now_ns = ctx.clock()
        self.last_ns = self.now_ns

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Any) -> Transition | None:
        if not press.pressed:
            return None
        self.last_ns = press.t_ns
        if press.control == BACK:
            from .title import TitleScene

            return Replace(TitleScene(self.ctx))
        if press.control == "left":
            self.index = (self.index - 1) % len(self.options)
            self.ctx.sound.play("select")
        elif press.control == "right":
            self.index = (self.index + 1) % len(self.options)
            self.ctx.sound.play("select")
        elif press.control.startswith("pile"):
            self.index = min(int(press.control[4:]) - 1, len(self.options) - 1)
            self.ctx.sound.play("select")
        elif is_press(press, "spit", "start"):
            return Replace(self.start(self.options[self.index][1]))
        return None

    def start(self, level: str | None) -> Any:
        from .countdown import CountdownScene

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
        return CountdownScene(ctx, match)

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if now_ns - self.last_ns > IDLE_S * 1e9:
            from .title import TitleScene

            return Replace(TitleScene(self.ctx))
        return None

    def draw(self, canvas: Canvas) -> None:
        lines: list[tuple[str, float, tuple[int, int, int]]] = [("Choose a game: classic Spit", 0.26, GOLD)]
        for i, (words, _) in enumerate(self.options):
            if i == self.index:
                lines.append((f">  {words}  <", 0.19, GOLD))
            else:
                lines.append((words, 0.16, WHITE))
        level = self.options[self.index][1]
        if level is not None:
            lines.append((level_words(level), 0.13, SOFT))
        elif len(self.options) == 1:
            lines.append(("(the computer opponent is not installed)", 0.12, SOFT))
        else:
            lines.append(("you two, on one keyboard", 0.13, SOFT))
        lines.append(("left / right to choose, SPIT or START to play, Esc back", 0.12, SOFT))
        banner(canvas, self.view, lines, self.ctx.layout.centre, alpha=210)
