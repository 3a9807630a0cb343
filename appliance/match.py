"""One game being played: the rules core, its journal, and any computer players. No pygame here.

The one implementation of "journal first, then apply" that the screen, `simulate` and the
benchmarks use. Every change to the game goes through `Match.press` (or the computer players'
presses in `tick`), which journals the press first (the journal says the time the game will apply it
at) and then hands exactly that to `game.press`. Presses arrive stamped on the host's monotonic clock
(ns); game time is seconds since the match started. Each frame, `tick` lets the computer make the
presses that are due and lets time pass (`game.advance`): where passing time decided something
(a table slap's window closing), the journal gets a time line, so a replay decides it at the same
moment. What happened is appended to `events`; screens read what is new since they last looked.

A match resumes from its journal (`Match.resume`): the presses are replayed (a line torn by a power
cut is left out), and the journal goes on in the same file.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from appliance.bots import LEVELS, make_bot
from appliance.rules import CONTROLS, Event, FamilyGame, Game, new_game

__all__ = ["Bot", "Match", "bots_available", "level_words", "make_bot", "open_journal", "setup_line"]


class Bot(Protocol):
    def next_press(self, game: Any, now: float) -> tuple[float, str] | None: ...


class Recorder(Protocol):
    def record(self, t: float, player: int, control: str, **extra: Any) -> float: ...
    def sync(self) -> None: ...
    def finish(self, state: dict[str, Any], **extra: Any) -> None: ...
    def close(self) -> None: ...


def bots_available() -> tuple[str, ...]:
    """The computer's levels a player can choose ("1".."5")."""
    return tuple(LEVELS)


def level_words(level: str) -> str:
    """What a computer level is like, as appliance.bots describes it."""
    return LEVELS.get(level, "")


def setup_line(seed: int, variant: str = "classic", options: Mapping[str, Any] | None = None,
               bots: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The journal's setup: the variant, the seed, the house rules, and which seats the computer plays
    (at which level), so `spit-arcade replay` is exact and says who played."""
    setup: dict[str, Any] = {"variant": variant, "seed": seed}
    if options:
        setup["options"] = dict(options)
    if bots:
        setup["bots"] = {str(seat): spec for seat, spec in sorted(bots.items())}
    return setup


def open_journal(directory: Path, seed: int, variant: str = "classic", options: Mapping[str, Any] | None = None,
                 bots: Mapping[int, str] | None = None) -> Recorder:
    from appliance.journal import Journal, journal_path

    journal: Recorder = Journal(journal_path(directory, seed), setup_line(seed, variant, options, bots))
    return journal


class Match:
    """A game from its first deal to game over (or until abandoned)."""

    def __init__(
        self,
        seed: int,
        start_ns: int,
        journal: Recorder | None = None,
        bots: Mapping[int, Bot] | None = None,
        game: FamilyGame | None = None,
        variant: str = "classic",
        options: Mapping[str, Any] | None = None,
        events: list[Event] | None = None,
    ) -> None:
        """A new seeded deal of `variant` with `options`, or `game` (a position set up elsewhere: a
        resumed journal, tests, the reference images) with the `events` that led to it."""
        self.seed = seed
        self.game: FamilyGame
        if game is None:
            self.game, self.events = new_game(variant, seed, options)
        else:
            self.game, self.events = game, list(events or [])
        self.start_ns = start_ns
        self.journal = journal
        self.bots: dict[int, Bot] = dict(bots or {})
        self.last_human_ns = start_ns
        self.presses = 0  # presses applied (the journal's press lines, resumed ones included)
        self.finished = self.game.phase == "over"

    @property
    def variant(self) -> str:
        return self.game.variant

    @property
    def spit(self) -> Game:
        """The game, for a screen that draws a Spit table (every preset but Speed)."""
        if not isinstance(self.game, Game):
            raise TypeError(f"{self.game.variant} is not played on a Spit table")
        return self.game

    @property
    def seats(self) -> int:
        return self.game.table.seats

    def game_time(self, t_ns: int) -> float:
        return max(0.0, (t_ns - self.start_ns) / 1e9)

    def press(self, t_ns: int, player: int, control: str, source: str = "keyboard") -> list[Event]:
        """One pressed edge of a game control, from a person or the computer."""
        if self.finished or control not in CONTROLS or not 1 <= player <= self.seats:
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
        self.presses += 1
        self._happened(events)
        return events

    def _happened(self, events: list[Event]) -> None:
        self.events += events
        if self.journal is not None:
            try:
                if self.game.phase == "over":
                    self.journal.finish(self.game.state())
                    self.journal = None
                elif any(e.kind == "round_over" for e in events):
                    self.journal.sync()
            except OSError as error:
                self._journal_failed(error)
        if self.game.phase == "over":
            self.finished = True

    def _journal_failed(self, error: OSError) -> None:
        """A disk that fills up mid-game: the game goes on unjournalled, and says so once."""
        print(f"spit-arcade: the journal stopped ({error}); this game goes on unrecorded", file=sys.stderr)
        journal, self.journal = self.journal, None
        if journal is not None:
            with contextlib.suppress(OSError, ValueError):
                journal.close()

    def tick(self, now_ns: int) -> list[Event]:
        """Let computer players make the presses that are due by now, and time pass."""
        if self.finished:
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
        if not self.finished:
            happened += self._advance(now)
        self._journal_tick()
        return happened

    def _advance(self, now: float) -> list[Event]:
        """Time passes, but only where it decides something: the game's clock is not moved for
        nothing, so a late-arriving press is not pushed later than it was made."""
        deadline = getattr(self.game, "deadline", lambda: None)()
        if deadline is None or now <= deadline:
            return []
        events = self.game.advance(now)
        if events:
            record_time = getattr(self.journal, "record_time", None)
            if record_time is not None:
                try:
                    record_time(self.game.now)
                except OSError as error:
                    self._journal_failed(error)
            self._happened(events)
        return events

    def _journal_tick(self) -> None:
        tick = getattr(self.journal, "tick", None)
        if tick is not None:
            try:
                tick()
            except OSError as error:
                self._journal_failed(error)

    def idle_s(self, now_ns: int) -> float:
        return (now_ns - self.last_human_ns) / 1e9

    def abandon(self) -> None:
        """Stop without finishing (back to the title): the journal keeps what happened, closed with
        the state it was left in, so a restarted cabinet does not take it for a game a crash cut."""
        if self.journal is not None:
            try:
                self.journal.finish(self.game.state(), abandoned=True)
            except (OSError, ValueError):
                with contextlib.suppress(OSError, ValueError):
                    self.journal.close()
            self.journal = None
        self.finished = True

    @classmethod
    def resume(cls, path: Path, now_ns: int) -> Match:
        """The game a journal was cut off in (a crash, a power cut), at the position it reached: its
        presses replayed (a torn last line left out), its computer players back in their seats, its
        game clock going on from where it stopped, and its journal going on in the same file.
        ValueError if the journal is finished or can't be read (bad input, the line named)."""
        from appliance.journal import Journal, read_journal
        from appliance.scripting import ScriptError, parse_script, run

        lines, _ = read_journal(path)
        try:
            script = parse_script(lines)
        except ScriptError as error:
            raise ValueError(f"{path.name}: {error}") from None
        if script.final_state is not None:
            raise ValueError(f"{path.name} is a finished game")
        events, game = run(script)
        seed = int(script.setup.get("seed", 0))
        seats = script.setup.get("bots") or {}
        bots = {int(seat): make_bot(str(spec), int(seat), seed) for seat, spec in seats.items()}
        journal = Journal.reopen(path)
        match = cls(seed, now_ns - round(game.now * 1e9), journal, bots, game=game, events=events)
        match.presses = sum(1 for press in script.presses if press.press is not None)
        print(f"spit-arcade: resumed {path.name} at press {match.presses}", file=sys.stderr)
        return match
