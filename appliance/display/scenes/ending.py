"""What every end-of-game scene shares: it stays `SHOW_S` seconds, or until a press (after `MIN_S`,
so a press meant for the game doesn't skip the result) or BACK, then goes on to `next_scene` (the
title, unless the scene says otherwise).

Where the scene offers a rematch (`REMATCH`), SPIT! plays the same game again at once: the same
rules, the same seats, the computer at the same levels, a new deal (paid for like any game when
play is not free: with too few credits it says "insert coin" and stays); START or BACK goes on.
A click or a tap on a line that offers one is that press: the rematch's line SPIT!, the title's START
(with no rematch, the one line offers both and is START).
A linked game's rematch (appliance/linked/game.py) starts when both tables want it: the scene ticks
the link meanwhile, says what the other table wants, and plays the new game the leader deals.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..captions import Line
from ..coins import insert_coin_words, pay_for_game
from ..i18n import _
from ..table_view import RED, WHITE
from .at_table import link_said
from .base import BACK, Context, Input, Replace, Transition, is_press, make
from .new_game import rematch

SHOW_S = 30.0
MIN_S = 1.5


class Ending:
    REMATCH: ClassVar[bool] = False  # SPIT! plays the same game again (START goes on)
    ctx: Context
    match: Any

    def start_ending(self) -> None:
        self.start_ns = self.ctx.clock()
        self.now_ns = self.start_ns
        self._leave = False
        self._again = False
        self.refused = False  # a rematch found too few credits
        self._shown_from = self.start_ns  # the result stays SHOW_S from here (a refused rematch: from then)

    def on_event(self, press: Input) -> Transition | None:
        late_enough = press.t_ns - self.start_ns >= MIN_S * 1e9
        if press.control == BACK and press.pressed:
            self._leave = True
        elif is_press(press, "spit") and late_enough and self.REMATCH:
            self._again = True
        elif is_press(press, "start", "spit") and late_enough:
            self._leave = True
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        table = getattr(self.match, "table", None)  # a linked game's (appliance/linked/game.py)
        if table is not None:
            table.tick(now_ns)
            if table.match is not None and table.match is not self.match:  # the rematch both wanted
                return Replace(make("play", self.ctx, table.match))
        if self._again:
            self._again = False
            if table is not None and table.rematch_wanted == table.game_no:
                pass  # (said already: waiting for the other table)
            elif pay_for_game(self.ctx):  # (nothing on free play)
                self.ctx.sound.play("select")
                if table is not None:
                    table.want_rematch(now_ns)
                    self._shown_from = now_ns
                    return None
                return Replace(rematch(self.ctx, self.match))
            self.refused = True
            self.ctx.sound.play("reject")
            self._shown_from = now_ns  # the result stays a while longer, for a coin
        if self._leave or now_ns - self._shown_from >= SHOW_S * 1e9:
            return Replace(self.next_scene())
        return None

    def next_scene(self) -> Any:
        return make("title", self.ctx)

    def name(self, player: int) -> str:
        return _("The computer") if player in self.match.bots else _("Player {n}").format(n=player)

    def go_on_lines(self) -> tuple[Line, ...]:
        """What the players can press now: a rematch or the title (with too few credits, "insert coin")."""
        if not self.REMATCH:
            return (Line(_("press START or SPIT for the title"), 0.1, WHITE, "start"),)
        lines = [
            Line(_("SPIT: a rematch, the same game and players"), 0.11, WHITE, "spit"),
            Line(_("START: the title"), 0.11, WHITE, "start"),  # a line of its own: a tap on it is START
        ]
        table = getattr(self.match, "table", None)
        if table is not None and table.notice:  # a linked game: who wants the rematch
            lines.append(Line(link_said(table.notice), 0.11, WHITE))
        if self.refused:
            lines.append(Line(insert_coin_words(self.ctx), 0.11, RED))
        return tuple(lines)
