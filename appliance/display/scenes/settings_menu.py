"""The settings (the cabinet's SERVICE button, F2): pushed over whatever is showing, popped back.

The players' language is chosen here (left/right, the arrow keys or a pile button); the layout and
volume are shown as the settings file has them. START, SPIT, SERVICE or Escape go back to the
scene underneath, as it was.
"""

from __future__ import annotations

import pygame

from ..captions import Caption, Line
from ..compositor import Canvas
from ..i18n import LANGUAGE_NAMES, LANGUAGES, _, language, set_language
from ..table_view import GOLD, SOFT, WHITE
from .base import BACK, Context, Input, Pop, Transition, draw_overlay, is_press


class SettingsScene:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def background(self) -> pygame.Surface:  # only drawn over another scene; alone, the plain table
        return self.ctx.view(show_keys=False).background()

    def on_event(self, press: Input) -> Transition | None:
        if not press.pressed:
            return None
        if press.control == BACK or is_press(press, "start", "spit", "service"):
            return Pop()
        step = {"left": -1, "up": -1, "right": 1, "down": 1}.get(press.control)
        if step is not None:
            index = LANGUAGES.index(language())
            set_language(LANGUAGES[(index + step) % len(LANGUAGES)])
            self.ctx.sound.play("select")
        elif press.control.startswith("pile") and press.control[4:].isdigit():
            number = int(press.control[4:])
            if number <= len(LANGUAGES):
                set_language(LANGUAGES[number - 1])
                self.ctx.sound.play("select")
        return None

    def update(self, now_ns: int) -> Transition | None:
        return None

    def captions(self) -> list[Caption]:
        lines = [Line(_("Settings"), 0.24, GOLD)]
        for code in LANGUAGES:
            words = LANGUAGE_NAMES[code]
            if code == language():
                lines.append(Line(f"▶  {words}  ◀", 0.17, GOLD, "start"))  # (a tap: chosen, back)
            else:
                lines.append(Line(words, 0.14, WHITE, f"pile{LANGUAGES.index(code) + 1}"))  # (a tap: this one)
        settings = self.ctx.settings
        layout = _("tabletop") if settings.layout == "tabletop" else _("desktop")
        lines.append(
            Line(_("layout: {layout}, volume {volume:.0%}").format(layout=layout, volume=settings.volume), 0.11, SOFT)
        )
        lines.append(Line(_("left / right to choose the language, START or Esc back"), 0.11, SOFT, "start"))
        return [Caption("panel", None, tuple(lines), 220)]

    def draw(self, canvas: Canvas) -> None:
        draw_overlay(canvas, self.ctx, self.captions())
