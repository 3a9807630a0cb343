"""One game being played: the rules core, its journal, and any computer players. No pygame here.

The screen never changes game state: every change goes through `Match.press`, which journals the
press first (the journal says the time the game will apply it at) and then hands exactly that to
`game.press`. Presses arrive stamped on the host's monotonic clock (ns); game time is seconds since
the match started. Computer players are asked every frame for their next press (`tick`).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from appliance.bots import LEVELS, make_bot
from appliance.rules import CONTROLS, Event, Game

__all__ = ["Bot", "Match", "bots_available", "level_words", "make_bot", "open_journal"]


class Bot(Protocol):
    def next_press(self, game: Game, now: float) -> tuple[float, str] | None: ...


class Recorder(Protocol):
    def record(self, t: float, player: int, control: str, **extra: Any) -> float: ...
    def sync(self) -> None: ...
    def finish(self, state: dict[str, Any]) -> None: ...
    def close(self) -> None: ...


def bots_available() -> tuple[str, ...]:
    """The computer's levels a player can choose ("1".."5")."""
    return tuple(LEVELS)


def level_words(level: str) -> str:
    """What a computer level is like, as appliance.bots describes it."""
    return LEVELS.get(level, "")


def open_journal(directory: Path, seed: int) -> Recorder:
    from appliance.journal import Journal, journal_path

    journal: Recorder = Journal(journal_path(directory, seed), {"variant": "classic", "seed": seed})
    return journal


class Match:
    """A game from its first deal to game over (or until abandoned)."""

    def __init__(
        self,
        seed: int,
        start_ns: int,
        journal: Recorder | None = None,
        bots: Mapping[int, Bot] | None = None,
        on_events: Callable[[list[Event]], None] | None = None,
        game: Game | None = None,
    ) -> None:
        """A new seeded deal, or `game` (a position set up elsewhere: tests, the reference images)."""
        self.seed = seed
        if game is None:
            self.game, self.events = Game.new(seed=seed)
        else:
            self.game, self.events = game, []
        self.start_ns = start_ns
        self.journal = journal
        self.bots: dict[int, Bot] = dict(bots or {})
        self.on_events = on_events
        self.last_human_ns = start_ns
        self.finished = False

    def game_time(self, t_ns: int) -> float:
        return max(0.0, (t_ns - self.start_ns) / 1e9)

    def press(self, t_ns: int, player: int, control: str, source: str = "keyboard") -> list[Event]:
        """One pressed edge of a game control, from a person or the computer."""
        if self.finished or control not in CONTROLS or player not in (1, 2):
            return []
        if source != "bot":
            self.last_human_ns = max(self.last_human_ns, t_ns)
        return self._apply(self.game_time(t_ns), player, control, source)

    def _apply(self, t: float, player: int, control: str, source: str) -> list[Event]:
        if self.journal is not None:
            try:
                t = self.journal.record(t, player, control, source=source)
            except OSError as error:
                self._journal_failed(error)
        events = self.game.press(t, player, control)
        self.events += events
        if self.journal is not None:
            try:
                if self.game.phase == "over":
                    self.journal.finish(self.game.state())
                    self.journal = None
                elif any(e["event"] == "round_over" for e in events):
                    self.journal.sync()
            except OSError as error:
                self._journal_failed(error)
        if self.game.phase == "over":
            self.finished = True
        if self.on_events is not None and events:
            self.on_events(events)
        return events

    def _journal_failed(self, error: OSError) -> None:
        """A disk that fills up mid-game: the game goes on unjournalled, and says so once."""
        print(f"spit-arcade: the journal stopped ({error}); this game goes on unrecorded", file=sys.stderr)
        journal, self.journal = self.journal, None
        if journal is not None:
            with contextlib.suppress(OSError, ValueError):
                journal.close()

    def tick(self, now_ns: int) -> list[Event]:
        """Let computer players make the presses that are due by now."""
        if self.finished or not self.bots:
            return []
        now = self.game_time(now_ns)
        happened: list[Event] = []
        for _ in range(64):  # bound: a bot cannot stall a frame
            due: list[tuple[float, int, str]] = []
            for player, bot in self.bots.items():
                move = bot.next_press(self.game, now)
                if move is not None and move[0] <= now:
                    due.append((move[0], player, move[1]))  # the bot counts it as made: apply it
            if not due:
                break
            for t, player, control in sorted(due):
                if not self.finished:
                    happened += self._apply(max(t, self.game.now), player, control, "bot")
            if self.finished:
                break
        return happened

    def idle_s(self, now_ns: int) -> float:
        return (now_ns - self.last_human_ns) / 1e9

    def abandon(self) -> None:
        """Stop without finishing (back to the title): the journal keeps what happened."""
        if self.journal is not None:
            self.journal.close()
            self.journal = None
        self.finished = True
