"""What the scenes where a game is played share, whatever its table (Spit's or Speed's).

Each frame the scene takes the match's new events (sounds, the round's events for its summary, a new
deal due); a press of a seat the people play goes to the match; BACK pauses the game and the service
button opens the menu over it; a game nobody touches for the idle time is left, its last seconds
counted down on the screen (`idle_warning`: "the game ends in 7 s"), and any press at all, a
game's or not, is somebody at the table and starts the idle time again. The scene itself
says how its table takes events in (`notice`), which seats it has (`seat_numbers`), and where the
game goes next (`_next`: the summary, the game over).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from appliance.match import Match

from ..captions import Caption, Line
from ..events import EventReader, kind
from ..i18n import _
from ..table_view import GOLD, WHITE
from ..touch_map import touch_target
from .base import BACK, Context, Input, Push, Transition, is_press, leave_game, make

IDLE_WARNING_S = 10.0  # the idle time's last seconds are counted down (a third of it, if that is shorter)
CORRECTION_SHOWN_S = 1.5  # a race redrawn by a late press from a linked cabinet is said this long


def link_said(words: str) -> str:
    """A linked table's notice in the players' language (appliance/linked/game.py's `Words`; the
    catalogues have each of its `NOTICES`), or as it is (a refusal's sentence: English)."""
    template = getattr(words, "template", None)
    return _(template).format(**words.fields) if isinstance(template, str) else words  # type: ignore[attr-defined]


class AtTable:
    sounds: dict[str, str]  # an event's kind -> the sound it makes (the game's)
    ctx: Context
    match: Match
    reader: EventReader
    now_ns: int
    round_events: list[Any]
    _summary_due: bool

    def notice(self, events: list[Any]) -> None:
        """The table takes the events in (slides, messages)."""
        raise NotImplementedError

    def seat_numbers(self) -> Collection[int]:
        raise NotImplementedError

    def _next(self) -> Transition | None:
        raise NotImplementedError

    def _take_events(self) -> None:
        events = self.reader.new_events()
        if self.reader.taken_back:  # a late pad rolled the game back: these did not happen after all
            self.round_events = [e for e in self.round_events if all(e is not b for b in self.reader.taken_back)]
        if not events:
            return
        self.notice(events)
        for event in events:
            name = kind(event)
            sound = self.sounds.get(name)
            if sound is not None:
                self.ctx.sound.play(sound)
            if name == "round_over":
                self.round_events = []
            self.round_events.append(event)
            if name == "deal":
                self._summary_due = True

    def on_event(self, press: Input) -> Transition | None:
        if press.pressed:  # somebody is at the table, whatever they pressed: the idle time starts again
            self.match.players_present(press.t_ns)
        if press.control == BACK and press.pressed:
            return Push(make("pause", self.ctx, self.match))
        if is_press(press, "service"):
            return Push(make("settings", self.ctx))
        if not press.pressed or press.player not in self.seat_numbers() or press.player in self.match.bots:
            return None
        if press.control in ("start", "service"):
            return None
        self.now_ns = max(self.now_ns, press.t_ns)
        self.match.press(press.t_ns, press.player, press.control, press.source)
        self._take_events()
        return self._next()

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        self.match.tick(now_ns)
        self._take_events()
        left = self.idle_left_s(now_ns)
        if left is not None and left < 0:
            return leave_game(self.ctx, self.match)
        return self._next()

    def touch_target(self, x: float, y: float, last: int | None) -> tuple[int, str] | None:
        """What a click or a tap at (x, y) presses on this table (touch_map.touch_target)."""
        table = getattr(self, "view", None) or getattr(self, "table", None)  # Spit's view, Speed's table
        if table is None:
            return None
        return touch_target(table.layout, self.match.seats, self.match.bots, x, y, last)

    def idle_left_s(self, now_ns: int) -> float | None:
        """Seconds left before a game nobody touches is left, in its last seconds (negative: the time
        is up); None while it is played, over, or played by the computer alone."""
        if self.match.finished or len(self.match.bots) >= 2:
            return None
        timeout = self.ctx.settings.idle_timeout_s
        left = timeout - self.match.idle_s(now_ns)
        return left if left <= min(IDLE_WARNING_S, timeout / 3) else None

    def link_captions(self) -> list[Caption]:
        """A linked game (appliance/linked/): the pause notice while the tables wait for the link, and
        a race redrawn by the other table's late press ("Corrected: player 2 was first by 12 ms"),
        short, for everybody. Nothing for a game on this table alone."""
        table = getattr(self.match, "table", None)
        if table is None:
            return []
        out = []
        if table.notice and table.state != "playing":
            out.append(Caption("centre", None, (Line(link_said(table.notice), 0.09, GOLD),), 200))
        seen = getattr(self, "_corrections_seen", None)
        if seen is None or seen[0] > len(table.corrections):
            seen = (len(table.corrections), -(10**18))
        if len(table.corrections) > seen[0]:
            seen = (len(table.corrections), self.now_ns)
        self._corrections_seen = seen
        if table.corrections and self.now_ns - seen[1] < CORRECTION_SHOWN_S * 1e9:
            out.append(Caption("centre", None, (Line(link_said(table.corrections[-1].words()), 0.08, WHITE),), 170))
        return out

    def idle_warning(self) -> list[Caption]:
        """The countdown before a game nobody touches is left, big in the middle for everybody."""
        left = self.idle_left_s(self.now_ns)
        if left is None:
            return []
        ends = _("the game ends in {s} s").format(s=max(1, math.ceil(left)))
        # (short lines: clear of the side seats; a click or a tap on the last is START, which plays
        # on and does nothing else at the table)
        lines = (Line(_("Nobody is playing"), 0.2, GOLD), Line(ends, 0.14, WHITE),
                 Line(_("press any button to play on"), 0.14, WHITE, "start"))
        return [Caption("centre", None, lines, 210)]
