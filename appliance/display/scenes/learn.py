"""The guided first game on screen (issue 25): the play scene of Spit or Speed, with a guide.

The lesson is appliance/first_game.py's: a prepared deal played by the rules core in a match, and
its steps. The learner's seat is told in its prompt place what to press now, with its own key; the
card or pile to press is lit; a press the step asks for goes to the match and is praised for
everybody (in the race place) once the step is done; any other press is held back and the learner
is told why, kindly (in their reject place). A tap on a card does what its key does, and a tap on
the prompt what the prompt asks. The info place says which step it is and that START
leaves the guide (Escape pauses it, as any game). The other seat is the partner, which only calls
SPIT! after the learner. When the last step is done the lesson ends on the `learned` scene, which
offers a real game.

Registered as "learn" (`make("learn", ctx, learner, game)`: game "spit" or "speed", learner the
seat, 1 or 2) and "learned".
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pygame

from appliance.first_game import Guide, Wrong, lesson_match
from appliance.match import Match

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..guide import asked_words, guide_lines, learned_lines, praise_words, wrong_words
from ..i18n import _
from ..table_view import GOLD, SOFT, WHITE, TableView, owned_lines
from .base import BACK, Context, Input, Replace, Reset, Transition, draw_scene, is_press, leave_game, make
from .play import PlayScene

PRAISE_S = 2.0  # the praise for a step done stays this long
WRONG_S = 3.0  # why a press was held back stays this long
FINISH_S = 2.0  # the last step's praise is shown this long before the lesson ends
LEARNED_IDLE_S = 30.0  # the end of the lesson goes back to the title by itself after this long


class Guided:
    """What the guided Spit and Speed scenes share: the guide between the learner's presses and the
    match, and its texts and lights. Mixed into the play scenes, before them."""

    ctx: Context
    match: Match
    now_ns: int
    guide: Guide
    game_name: str
    learner: int
    praise: tuple[str, int] | None  # the lesson praised, until when
    wrong: tuple[Wrong, int] | None  # why the last press was held back, until when
    done_ns: int | None  # when the last step was done

    def _set_up_guide(self, guide: Guide, game_name: str) -> None:
        self.guide = guide
        self.game_name = game_name
        self.learner = guide.learner
        self.praise = None
        self.wrong = None
        self.done_ns = None

    def _guided_event(self, press: Input, play_on: Any) -> Transition | None:
        """A press: the learner's game presses are judged by the guide first; START leaves."""
        if is_press(press, "start"):
            return leave_game(self.ctx, self.match)
        if press.control == BACK or not press.pressed or press.player != self.learner or press.control == "service":
            return play_on(press)  # (Escape pauses, SERVICE opens the menu, the partner's keys do nothing)
        self.now_ns = max(self.now_ns, press.t_ns)
        if self.guide.done:
            return None
        wrong = self.guide.judge(self.match.game, press.control)
        if wrong is not None:
            self.match.players_present(press.t_ns)  # (somebody is there: the idle clock starts again)
            self.wrong = (wrong, self.now_ns + int(WRONG_S * 1e9))
            self.ctx.sound.play("reject")
            return None
        self.wrong = None
        result: Transition | None = play_on(press)
        taught = self.guide.passed()
        if taught is not None:
            self.praise = (taught, self.now_ns + int(PRAISE_S * 1e9))
        if self.guide.done:
            self.done_ns = self.now_ns
        return result

    def _guided_next(self) -> Transition | None:
        """The lesson ends once its last step has been praised a moment (never a round summary or a
        game over: the lesson's own end says what was learnt)."""
        if self.done_ns is not None and self.now_ns - self.done_ns >= FINISH_S * 1e9:
            return Replace(make("learned", self.ctx, self.game_name, self.learner))
        return None

    def _asked(self, keymap: Any) -> str:
        ask = self.guide.ask(self.match.game)
        if ask is None:  # (the last step done: shown a moment before the lesson's end)
            return _("Well done!")
        return asked_words(ask, keymap, self.learner, self.game_name)

    def guide_captions(self) -> list[Caption]:
        """The praise (for everybody) and why a press was held back (the learner's own)."""
        out = []
        if self.praise is not None and self.praise[1] > self.now_ns:
            out.append(Caption("race", None, (Line(praise_words(self.praise[0]), 0.13, GOLD),), 170))
        if self.wrong is not None and self.wrong[1] > self.now_ns:
            lines = owned_lines(self.layout_now(), self.learner, wrong_words(self.wrong[0]), WHITE)
            out.append(Caption("reject", self.learner, lines, 170))
        return out

    def layout_now(self) -> Any:
        raise NotImplementedError

    def guide_info(self) -> list[str]:
        step = min(self.guide.index + 1, len(self.guide.steps))
        return guide_lines(self.game_name, step, len(self.guide.steps))

    def light(self, canvas: Canvas, view: Any) -> None:
        """The card or pile the learner is asked to press, lit (drawn over the table, round it)."""
        ask = self.guide.ask(self.match.game)
        if ask is None or self.guide.waiting(self.match.game):
            return
        layout = view.layout
        seat = layout.seat(self.learner)
        if ask.pile is not None and ask.pile <= len(seat.stock):
            rect = seat.stock[ask.pile - 1]
        elif ask.spit_pile is not None:
            rect = layout.spit_piles[ask.spit_pile]
        elif ask.control == "spit":
            rect = seat.spit_cards
        else:
            return
        off = view.art.glow_offset()
        canvas.blit(view.art.glow("assist"), (rect.x - off, rect.y - off))  # (a frame: the same turned 180°)


class LearnScene(Guided, PlayScene):
    """The guided first game of Spit or of Speed (`game_name`): the play scene of the game, with its guide."""

    def __init__(self, ctx: Context, learner: int = 1, game_name: str = "spit") -> None:
        match, guide = lesson_match(game_name, learner, ctx.clock())
        super().__init__(ctx, match)
        self._set_up_guide(guide, game_name)

    def layout_now(self) -> Any:
        return self.view.layout

    def on_event(self, press: Input) -> Transition | None:
        return self._guided_event(press, super().on_event)

    def touch_target(self, x: float, y: float, last: int | None) -> tuple[int, str] | None:
        """A card or pile tapped, as in any game; a tap on the learner's prompt is the press it asks
        for (what its key does)."""
        found = super().touch_target(x, y, last)
        if found is None and self.view.layout.seat(self.learner).places["prompt"].collidepoint(x, y):
            ask = self.guide.ask(self.match.game)
            if ask is not None and not self.guide.waiting(self.match.game):
                return self.learner, ask.control
        return found

    def _next(self) -> Transition | None:
        self._summary_due = False  # (the lesson's round ends with the lesson)
        return self._guided_next()

    def prompt(self, player: int) -> tuple[str, tuple[int, int, int]] | None:
        if player == self.learner:
            return self._asked(self.view.keymap), GOLD
        return super().prompt(player)

    def info(self) -> list[Caption]:
        """The guide's lines instead of the game's (the rules in force, Speed's score): the step, and
        how to leave the guide."""
        lines = self.guide_info()
        layout = self.view.layout
        owners: Collection[int | None] = [None] if layout.mode == "desktop" else layout.seats
        return [caption("info", owner, Line(lines[0], 0.11, WHITE), Line(lines[1], 0.1, SOFT, "start"), shade=130)
                for owner in owners]

    def captions(self) -> list[Caption]:
        return super().captions() + self.guide_captions()

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.game, self.now_ns)
        self.light(canvas, self.view)
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)


def learn_scene(ctx: Context, learner: int = 1, game: str = "spit") -> LearnScene:
    """The guided first game of `game` ("spit" or "speed") for the seat `learner` (1 or 2)."""
    learner = learner if learner in (1, 2) else 1
    return LearnScene(ctx, learner, "speed" if game == "speed" else "spit")


class LearnedScene:
    """The end of the guided first game: well done, what a real game is like, SPIT or START for one
    (choosing the players), Escape (or a while untouched) back to the title."""

    def __init__(self, ctx: Context, game: str = "spit", learner: int = 1) -> None:
        self.ctx = ctx
        self.game = game
        self.learner = learner
        self.view: TableView = ctx.view(assist=False, show_keys=False, names=False)
        self.since_ns = ctx.clock()
        self.now_ns = self.since_ns

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Input) -> Transition | None:
        if press.control == BACK and press.pressed:
            return Reset(make("title", self.ctx))
        if is_press(press, "start", "spit"):
            self.ctx.sound.play("select")
            return Replace(make("choose", self.ctx))
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        if now_ns - self.since_ns > LEARNED_IDLE_S * 1e9:
            return Reset(make("title", self.ctx))
        return None

    def captions(self) -> list[Caption]:
        lines = [Line(_("Well done!"), 0.3, GOLD)]
        lines += [Line(words, 0.14, WHITE) for words in learned_lines(self.game)]
        lines.append(Line(_("press SPIT or START to play a real game"), 0.14, GOLD, "start"))  # (a tap: START)
        return [Caption("panel", None, tuple(lines), 200)]

    def draw(self, canvas: Canvas) -> None:
        draw_scene(canvas, self.ctx, self.captions())
