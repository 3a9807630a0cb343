"""Choose the game and the players.

The first row is the game with its house rules in force ("Four piles · alternating colours"): SPIT
or START on it opens the game menu (scenes/game_menu.py). At a table of two the rows below are "Two
players" and "Against the computer, level N" (pile buttons: 1 two players, 2..6 the levels); at a
table of three or four each seat has a row, a person or the computer at a level, changed with
left/right (pile N moves to seat N's row). The computer's levels are offered from the easiest, 1 to
5; the operator's (the setting `computer_level`, the service menu's Adjustments) is marked
"recommended", and it is the level a seat changed from a person to the computer gets. Up/down (the arrow keys) or
left/right move between rows at a table of two; SPIT or START plays. A game the computer cannot play
yet offers people only, and says so.

The menu offers again the seats the computer played last, at their levels (`Context.computer_seats`,
kept while the program runs), so the same players start the next game with one press; the game-over
screen's rematch (ending.py) plays the same game and seats without coming here.

A click or a tap on a row goes to it; on the row already chosen it does what SPIT does there (the
game menu, or play), and on a seat's row (three or four) it changes that seat, as right does; on the
line of keys under the rows it is START (menu_taps.py).

When a game costs credits (not on free play) they are taken here, as the game starts (coins.py);
with too few the menu says "insert coin" and stays. A game resumed after a crash never comes here, so
it is never paid for twice.
"""

from __future__ import annotations

import pygame

from appliance.match import bots_available, level_words, make_bot

from ..captions import Caption, Line
from ..coins import credit_words, insert_coin_words, pay_for_game
from ..compositor import Canvas
from ..i18n import _
from ..menu_taps import row_tap, tapped_row
from ..rules_words import GameChoice, game_choice, in_force
from ..table_view import GOLD, RED, SOFT, WHITE, TableView
from .base import (
    BACK,
    Context,
    Input,
    Push,
    Replace,
    Scene,
    Transition,
    draw_scene,
    is_press,
    make,
)
from .new_game import start_game

IDLE_S = 60.0
GAME_ROW = 0


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


def house_level(installed: list[str], chosen: str) -> str | None:
    """The level the operator chose (`computer_level`), where it is installed; else the first."""
    return chosen if chosen in installed else (installed[0] if installed else None)


def computer_can_play(choice: GameChoice, level: str = "1") -> bool:
    """Can the computer take a seat in this game? (It is asked to think once about a fresh deal.)"""
    from appliance.rules import new_game

    try:
        game, _events = new_game(choice.preset, 0, choice.given)
        bot = make_bot(level, game.table.seats, 0)
        bot.next_press(game, 0.0)
    except Exception:  # a bot that cannot play this variant yet, whatever it raises
        return False
    return True


class ChooseScene:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.view: TableView = ctx.view(show_keys=False)
        self.game = game_choice(ctx.settings)
        levels = [level for level in bots_available() if level.isdigit()]
        installed = sorted(levels, key=int)  # offered from the easiest: 1, 2, 3, 4, 5
        self.house_level = house_level(installed, ctx.settings.computer_level)
        self.computer = self.house_level is not None and computer_can_play(self.game, self.house_level)
        self.levels: list[str | None] = [None] + (installed if self.computer else [])
        self.installed = bool(installed)
        self.seats: list[str | None] = [None] * self.game.seats  # per seat: None a person, else a level
        self.index = 1  # the first row below the game: "Two players", or seat 1
        self.remember(ctx.computer_seats or {})
        self.now_ns = ctx.clock()
        self.last_ns = self.now_ns
        self.notice: str | None = None

    def remember(self, computer: dict[int, str]) -> None:
        """The seats the computer played last, at their levels, chosen again where this game offers
        them (the players need not choose again for the next game)."""
        offered = [level for level in self.levels if level is not None]
        if self.many:
            for seat, level in computer.items():
                if 1 <= seat <= len(self.seats) and level in offered:
                    self.seats[seat - 1] = level
        elif set(computer) == {2} and computer[2] in offered:
            self.index = self.levels.index(computer[2]) + 1

    @property
    def many(self) -> bool:
        return self.game.seats > 2

    @property
    def options(self) -> list[tuple[str, str | None]]:
        """(words, computer level or None for two players), in the players' language (two seats)."""
        def words(level: str | None) -> str:
            if level is None:
                return _("Two players")
            if level == self.house_level:
                return _("Against the computer, level {n} (recommended)").format(n=level)
            return _("Against the computer, level {n}").format(n=level)

        return [(words(level), level) for level in self.levels]

    def rows(self) -> int:
        return 1 + (self.game.seats if self.many else len(self.levels))

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Input) -> Transition | None:
        if not press.pressed:
            return None
        self.last_ns = press.t_ns
        self.notice = None
        if press.control == BACK:
            return Replace(make("title", self.ctx))
        if is_press(press, "service"):
            return Push(make("settings", self.ctx))
        row = tapped_row(press)
        if row is not None:  # a tap on a row: to it
            self.index = row % self.rows()
            self.ctx.sound.play("select")
            return None
        if is_press(press, "spit", "start"):
            if self.index == GAME_ROW:
                self.ctx.sound.play("select")
                return Replace(make("game_menu", self.ctx))
            return self.play()
        if self.many:
            self._seat_event(press.control)
        elif press.control in ("left", "up"):
            self.index = (self.index - 1) % self.rows()
            self.ctx.sound.play("select")
        elif press.control in ("right", "down"):
            self.index = (self.index + 1) % self.rows()
            self.ctx.sound.play("select")
        elif press.control.startswith("pile") and press.control[4:].isdigit():
            self.index = min(int(press.control[4:]), len(self.levels))
            self.ctx.sound.play("select")
        return None

    def _seat_event(self, control: str) -> None:
        if control == "up":
            self.index = (self.index - 1) % self.rows()
        elif control == "down":
            self.index = (self.index + 1) % self.rows()
        elif control.startswith("pile") and control[4:].isdigit():
            self.index = min(int(control[4:]), self.game.seats + 1) % self.rows()
        elif control in ("left", "right", "far_left", "far_right") and self.index != GAME_ROW:
            step = -1 if control in ("left", "far_left") else 1
            seat = self.index - 1
            cycle = self.seat_cycle()
            now = cycle.index(self.seats[seat])
            self.seats[seat] = cycle[(now + step) % len(cycle)]
        elif control in ("left", "right", "far_left", "far_right"):
            self.index = 1
        else:
            return
        self.ctx.sound.play("select")

    def seat_cycle(self) -> list[str | None]:
        """What left/right go through for a seat: a person, then the operator's level (a person gives
        way to the computer at it), the levels above it and round to those below."""
        levels = [level for level in self.levels if level is not None]
        start = levels.index(self.house_level) if self.house_level in levels else 0
        return [None, *levels[start:], *levels[:start]]

    def computer_seats(self) -> dict[int, str]:
        """The seats the computer plays, and at which level."""
        if self.many:
            return {seat: level for seat, level in enumerate(self.seats, start=1) if level is not None}
        level = self.levels[self.index - 1] if self.index >= 1 else None
        return {} if level is None else {2: level}

    def play(self) -> Transition | None:
        if not pay_for_game(self.ctx):  # the credits are taken here, as the game starts
            self.notice = insert_coin_words(self.ctx)
            self.ctx.sound.play("reject")
            return None
        return Replace(self.start(self.computer_seats()))

    def start(self, computer: dict[int, str]) -> Scene:
        return start_game(self.ctx, self.game, computer)

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if now_ns - self.last_ns > IDLE_S * 1e9:
            return Replace(make("title", self.ctx))
        return None

    def _row(self, index: int, words: str) -> Line:
        if index == self.index:  # tapped again: what SPIT does on it (a seat's row: changed, as right)
            again = "right" if self.many and index != GAME_ROW else "spit"
            return Line(f"▶  {words}  ◀", 0.16, GOLD, again)
        return Line(words, 0.14, WHITE, row_tap(index))

    def captions(self) -> list[Caption]:
        lines = [self._row(GAME_ROW, _("Game: {rules}").format(rules=in_force(self.game)))]
        if self.many:
            for seat, level in enumerate(self.seats, start=1):
                who = _("a person") if level is None else _("the computer, level {n}").format(n=level)
                lines.append(self._row(seat, _("Player {n}: {who}").format(n=seat, who=who)))
        else:
            for i, (words, _level) in enumerate(self.options, start=1):
                lines.append(self._row(i, words))
        lines.append(Line(self.hint(), 0.11, SOFT))
        if not self.ctx.settings.free_play:
            lines.append(Line(credit_words(self.ctx), 0.11, WHITE))
        if self.notice:
            lines.append(Line(self.notice, 0.13, RED))
        lines.append(Line(self.controls(), 0.1, SOFT, "start"))
        return [Caption("panel", None, tuple(lines), 210)]

    def hint(self) -> str:
        if self.index == GAME_ROW:
            return _("SPIT or START: choose the game and its house rules")
        if self.installed and not self.computer:
            return _("the computer cannot play this game yet: people only")
        level = self.seats[self.index - 1] if self.many else self.levels[self.index - 1]
        if level is not None:
            return level_description(level)
        if not self.installed:
            return _("(the computer opponent is not installed)")
        if self.many:
            return _("left / right: a person or the computer")
        return _("you two, on one keyboard")

    def controls(self) -> str:
        if self.many:
            return _("up / down or a pile button to pick a seat, left / right to change, SPIT or START to play")
        return _("left / right or the arrow keys to choose, SPIT or START to play, Esc back")

    def draw(self, canvas: Canvas) -> None:
        draw_scene(canvas, self.ctx, self.captions())
