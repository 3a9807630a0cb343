"""The game and its house rules, chosen before a game (from choosing players).

The first row is the game (a preset of `spit-arcade variants`); below it the house rules that apply
to it: at a table of three or four, those for two only are left out; beside a table slap, the ghost
card and "Spit card, please" (which use the slap too), and the other way round; runners only where
cards are carried. Only the layout (`stock_piles`) is not offered: it comes with the preset. The
up/down arrow keys or a seat's pile 1 / pile 2 buttons move between rows; left/right (the arrow keys
or the spit pile pads) change the row's value. Under the rows the chosen row's one line of
explanation (the rules core's, in the players' language). SPIT or START keeps the choice (in the
settings, and written back to the settings file) and goes back to choosing players; Escape goes
back without it.

A click or a tap on a row goes to it; on the row already chosen it steps the value, as right does;
on the line of keys under the rows it is START, keeping the choice (menu_taps.py).

A choice the rules core refuses (say, two decks with a layout that needs more cards) is never kept:
the rows always show the options that would be played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from appliance.rules import PRESETS

from ..captions import Caption, Line
from ..compositor import Canvas
from ..i18n import _
from ..menu_taps import row_tap, tapped_row
from ..rules_words import (
    MENU_VALUES,
    GameChoice,
    choice_of,
    game_choice,
    given_value,
    in_force,
    menu_options,
    menu_value,
    option_help,
    option_label,
    preset_explain,
    preset_name,
    value_words,
)
from ..table_view import GOLD, SOFT, WHITE
from .base import BACK, Context, Input, Replace, Transition, draw_scene, is_press, make

VISIBLE = 5  # rows shown at once (the chosen one among them)
IDLE_S = 60.0


class GameMenuScene:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        chosen = game_choice(ctx.settings)
        self.preset = chosen.preset
        self.rules: dict[str, Any] = dict(chosen.given)
        self.row = 0
        self.now_ns = ctx.clock()
        self.last_ns = self.now_ns
        # told, on the operator layer's writer thread, when the choice is in the file (None) or why not
        self.on_saved: Callable[[str | None], None] | None = None

    @property
    def choice(self) -> GameChoice:
        return choice_of(self.preset, self.rules)

    def rows(self) -> list[str]:
        """"game", then the option names shown."""
        chosen = self.choice
        return ["game", *menu_options(self.preset, chosen.seats, chosen.options)]

    def background(self) -> pygame.Surface:
        return self.ctx.view(show_keys=False).background()

    def _value(self, name: str) -> Any:
        return menu_value(self.choice.options, name)

    def _change(self, step: int) -> None:
        rows = self.rows()
        name = rows[min(self.row, len(rows) - 1)]
        if name == "game":
            names = list(PRESETS)
            self.preset = names[(names.index(self.preset) + step) % len(names)]
        else:
            values = MENU_VALUES[name]
            now = self._value(name)
            index = values.index(now) if now in values else 0
            seats = self.choice.seats
            for k in range(1, len(values) + 1):  # the next value the core accepts with the others
                value = values[(index + step * k) % len(values)]
                trial = {k: v for k, v in self.rules.items() if k != name}
                trial[name] = given_value(name, value, seats)  # last: the one left out if the core refuses it
                if menu_value(choice_of(self.preset, trial).options, name) == value:
                    self.rules = trial
                    break
        self.rules = dict(self.choice.given)
        rows = self.rows()  # the cursor stays on the rule changed, when rows above it come or go
        self.row = rows.index(name) if name in rows else min(self.row, len(rows) - 1)
        self.ctx.sound.play("select")

    def keep(self) -> None:
        """The choice into the settings, and the settings file when there is one."""
        chosen = self.choice
        self.ctx.settings.game = chosen.preset
        self.ctx.settings.house_rules = dict(chosen.given)
        if self.ctx.config_path is not None:
            from ..coins import office

            office(self.ctx).adjust_later({"game": chosen.preset}, chosen.given, self.on_saved)  # off the frame

    def on_event(self, press: Input) -> Transition | None:
        if not press.pressed:
            return None
        self.last_ns = press.t_ns
        if press.control == BACK:
            return Replace(make("choose", self.ctx))
        if is_press(press, "spit", "start"):
            self.keep()
            return Replace(make("choose", self.ctx))
        rows = len(self.rows())
        tapped = tapped_row(press)
        if tapped is not None:  # a tap on a row: to it
            self.row = tapped % rows
            self.ctx.sound.play("select")
        elif press.control in ("up", "pile1"):
            self.row = (self.row - 1) % rows
            self.ctx.sound.play("select")
        elif press.control in ("down", "pile2"):
            self.row = (self.row + 1) % rows
            self.ctx.sound.play("select")
        elif press.control in ("left", "far_left"):
            self._change(-1)
        elif press.control in ("right", "far_right"):
            self._change(1)
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if now_ns - self.last_ns > IDLE_S * 1e9:
            return Replace(make("title", self.ctx))
        return None

    def row_words(self, name: str) -> str:
        if name == "game":
            return _("Game: {name}").format(name=preset_name(self.preset))
        return _("{option}: {value}").format(option=option_label(name), value=value_words(name, self._value(name)))

    def explain(self) -> str:
        name = self.rows()[self.row]
        return preset_explain(self.preset) if name == "game" else option_help(name, self._value(name))

    def captions(self) -> list[Caption]:
        rows = self.rows()
        first = max(0, min(self.row - VISIBLE // 2, len(rows) - VISIBLE))
        lines = [Line(_("Game and house rules"), 0.2, GOLD), Line(in_force(self.choice), 0.12, SOFT)]
        for index in range(first, min(len(rows), first + VISIBLE)):
            words = self.row_words(rows[index])
            if index == self.row:  # tapped again: the next value, as right
                lines.append(Line(f"▶  {words}  ◀", 0.15, GOLD, "right"))
            else:
                lines.append(Line(words, 0.13, WHITE, row_tap(index)))
        lines.append(Line(self.explain(), 0.11, SOFT))
        keys = _("up / down (pile 1 / pile 2) to move, left / right to change, SPIT or START to keep")
        lines.append(Line(keys, 0.1, SOFT, "start"))
        return [Caption("panel", None, tuple(lines), 220)]

    def draw(self, canvas: Canvas) -> None:
        draw_scene(canvas, self.ctx, self.captions())
