"""One game being played: the rules core, its journal, and any computer players. No pygame here.

The one implementation of "journal first, then apply" that the screen, `simulate` and the
benchmarks use. Every change to the game goes through `Match.press` (or the computer players'
presses in `tick`), which journals the press first (the journal says the time the game will apply it
at) and then hands exactly that to `game.press`. Presses arrive stamped on the host's monotonic clock
(ns); game time is seconds since the match started. Each frame, `tick` lets the computer make the
presses that are due and lets time pass (`game.advance`): where passing time decided something
(a table slap's window closing), the journal gets a time line, so a replay decides it at the same
moment. What happened is appended to `events`; screens read what is new since they last looked.

Presses are applied in edge order whatever their delivery delay (rollback, as netcode does): the
match keeps the presses and time lines it applied, with their edge times, and a copy of the game
(`game.copy()`, which cannot fail: no snapshot to parse or check) every `SNAPSHOT_EVERY` of them. A
press stamped before the game's clock (a sprinting runner's pad on a long or noisy link, later than
the merger's window) but within `ROLLBACK_HORIZON_S` of it rolls the game back to a copy of the
newest checkpoint before it, and the presses from there are applied again with it in its place
(equal times: the order they were journalled). `events` is rewritten from the first event that
changed (`corrections` counts the rewrites; `rewritten_from` says where each began) and screens
resync (`display.events.EventReader`). The journal writes the press with its own edge time, so a
replay, which applies lines in order of `t`, is the corrected game. A press older than the horizon
is applied late, at the game's clock, as the core does (`late_presses` counts them).

The computer's presses are pressed at their own time too: one that fell due between two frames is
polled at the next frame, after the key presses that frame delivered, and is put before any that
came later than it, so the computer wins the races it was first to (a press beyond the horizon, a
long stall, is applied late like any other).

A match resumes from its journal (`Match.resume`): the presses are replayed (a line torn by a power
cut is left out), and the journal goes on in the same file.
"""

from __future__ import annotations

import bisect
import contextlib
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from appliance.bots import LEVELS, make_bot
from appliance.rules import CONTROLS, Event, FamilyGame, Game, Phase, new_game
from appliance.rules.events import RoundOver

__all__ = [
    "ROLLBACK_HORIZON_S",
    "SNAPSHOT_EVERY",
    "Applied",
    "Bot",
    "Match",
    "bots_available",
    "level_words",
    "make_bot",
    "open_journal",
    "setup_line",
]

ROLLBACK_HORIZON_S = 0.25  # a press stamped this much before the game's clock is still put in its place
SNAPSHOT_EVERY = 32  # presses and time lines between the checkpoints a rollback starts from
# A game takes this many presses at most (a long game has a few thousand): a chattering pad or a
# mashed, stuck button never grows its memory (~1 KB a press) or its journal (~66 bytes) without
# bound. Presses beyond it are not applied and are nobody at the table: the idle timeout ends it.
MAX_PRESSES = 30_000


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
                 bots: Mapping[int, str] | None = None, syncer: Any = None,
                 order: tuple[int, int] | None = None) -> Recorder:
    """A new journal for a game; `syncer` (the store's writer) syncs it off the caller's thread;
    `order` (the store's boot and sequence number) names it (`journal_path`)."""
    from appliance.journal import Journal, journal_path

    journal: Recorder = Journal(journal_path(directory, seed, order=order), setup_line(seed, variant, options, bots),
                                syncer=syncer)
    return journal


@dataclass(frozen=True, slots=True)
class Applied:
    """A press (or, with `control` None, a time line) as the match applied it: at `t` (the edge
    time, or the game's clock for a press older than the horizon), `seq` the order it was journalled."""

    t: float
    seq: int
    player: int
    control: str | None

    def apply(self, game: FamilyGame) -> list[Event]:
        if self.control is None:
            return game.advance(self.t)
        return game.press(self.t, self.player, self.control)


@dataclass(frozen=True, slots=True)
class _Checkpoint:
    index: int  # entries of the log applied before it
    events: int  # len(events) at it
    now: float  # the game's clock at it
    game: FamilyGame  # a copy of the game at it, never played on (a rollback plays on a copy of it)


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
        rollback: bool = True,
    ) -> None:
        """A new seeded deal of `variant` with `options`, or `game` (a position set up elsewhere: a
        resumed journal, tests, the reference images) with the `events` that led to it. `rollback`
        keeps what a late press needs to be put back in edge order (`simulate`, whose presses are
        never late, does without)."""
        self.seed = seed
        self.game: FamilyGame
        if game is None:
            self.game, self.events = new_game(variant, seed, options)
        else:
            self.game, self.events = game, list(events or [])
        self.start_ns = start_ns
        self.journal = journal
        self.bots: dict[int, Bot] = dict(bots or {})
        self.levels: dict[int, str] = {}  # the computer's level at each seat it plays (the journal's setup says)
        self.last_human_ns = start_ns
        self._holds = 0  # `hold`s not yet released: the game's clock stands still while any is
        self._held_since_ns = 0
        self.presses = 0  # presses applied (the journal's press lines, resumed ones included)
        self.max_presses = MAX_PRESSES
        self.over_limit = 0  # presses not applied: the game had taken `max_presses`
        self.pressed: set[tuple[int, str]] = set()  # (player, control) people pressed: the switch-health audit
        self.ended: Any = None  # called once with (match, abandoned) when the game is over or left
        self.finished = self.game.phase == Phase.OVER
        self.rollback = rollback
        self.horizon_s = ROLLBACK_HORIZON_S if rollback else 0.0
        self.snapshot_every = SNAPSHOT_EVERY
        self.corrections = 0  # times `events` was rewritten by a rollback
        self.rewritten_from: list[int] = []  # for each correction, the index of the first event it changed
        self.rollbacks = 0  # presses put back in their place (a correction or not)
        self.rollback_depths: list[int] = []  # for each, the presses and time lines applied after its place
        self.late_presses = 0  # presses older than the horizon, applied late at the game's clock
        self._log: list[Applied] = []  # what was applied since the oldest checkpoint, in the order applied
        self._times: list[float] = []  # their `t`, for bisecting
        self._seq = 0
        self._checkpoints: list[_Checkpoint] = []
        if rollback:
            self._checkpoint()

    @property
    def variant(self) -> str:
        return self.game.variant

    @property
    def version(self) -> tuple[int, int]:
        """Moves whenever the game may have changed (a press applied or put in its place, time that
        decided something): a screen works out again what it works out from the game only then."""
        return self.presses, len(self.events)

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
        if self._holds:  # the clock stands still where it was held
            t_ns = min(t_ns, self._held_since_ns)
        return max(0.0, (t_ns - self.start_ns) / 1e9)

    # ------------------------------------------------------------------ the game's clock, held

    @property
    def held(self) -> bool:
        """Is the game's clock standing still (a pause, the service menu, ...)?"""
        return self._holds > 0

    def hold(self, now_ns: int) -> None:
        """Stop the game's clock from `now_ns`: a pause, the service menu, the resume screen, the
        countdown. Holds nest: the clock goes on when the last of them is released. A window the
        rules hold open (a race for the ghost card, a table slap being judged, a lent card slapped
        for) keeps the time it had left."""
        if not self._holds:
            self._held_since_ns = now_ns
        self._holds += 1

    def release(self, now_ns: int) -> None:
        """One hold ends; with the last, the clock goes on from where it stood (the time held is
        not game time) and the idle clock starts again from now: somebody is at the table."""
        if not self._holds:
            return
        self._holds -= 1
        if self._holds:
            return
        waited = max(0, now_ns - self._held_since_ns)
        self.start_ns += waited
        self.last_human_ns = max(self.last_human_ns + waited, now_ns)

    def players_present(self, now_ns: int) -> None:
        """Somebody is at the table now (a scene between rounds was pressed through): the idle clock
        starts again from here."""
        self.last_human_ns = max(self.last_human_ns, now_ns)

    def press(self, t_ns: int, player: int, control: str, source: str = "keyboard") -> list[Event]:
        """One pressed edge of a game control, from a person or the computer. Returns what it made
        happen: its events, or after a rollback every event from the first one it changed."""
        if self.finished or control not in CONTROLS or not 1 <= player <= self.seats:
            return []
        if self.presses >= self.max_presses:
            self.over_limit += 1
            return []
        if source != "bot":
            self.last_human_ns = max(self.last_human_ns, t_ns)
            self.pressed.add((player, control))
        return self._apply(self.game_time(t_ns), player, control, source)

    def apply(self, t: float, player: int, control: str, source: str = "bot") -> list[Event]:
        """A press at game time `t` in seconds: `press` for a match played in virtual time (simulate)."""
        if self.finished or control not in CONTROLS or not 1 <= player <= self.seats:
            return []
        return self._apply(t, player, control, source)

    def advance(self, t: float) -> list[Event]:
        """Game time `t` has come with no press: windows that close by then resolve (journalled)."""
        return [] if self.finished else self._advance(t)

    def _apply(self, t: float, player: int, control: str, source: str) -> list[Event]:
        if self.presses >= self.max_presses:
            self.over_limit += 1
            return []
        t = round(t, 6)
        if t < self.game.now:
            inserted = self._insert(t, player, control, source)
            if inserted is not None:
                return inserted
        if self.journal is not None:
            try:
                t = self.journal.record(t, player, control, source=source)
            except OSError as error:
                self._journal_failed(error)
        if t < self.game.now:
            self.late_presses += 1
            t = self.game.now  # as the core does: applied now (and journalled so, with its edge_t)
        entry = Applied(t, self._next_seq(), player, control)
        events = entry.apply(self.game)
        self.presses += 1
        self._happened(events)
        self._logged(entry)
        return events

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def _logged(self, entry: Applied) -> None:
        if not self.rollback:
            return
        self._log.append(entry)
        self._times.append(entry.t)
        last = self._checkpoints[-1].index if self._checkpoints else 0
        if len(self._log) - last >= self.snapshot_every or not self._checkpoints:
            self._checkpoint()

    def _checkpoint(self) -> None:
        """A copy of the game now; checkpoints (and log entries) no press within the horizon can
        need any more are let go."""
        self._checkpoints.append(_Checkpoint(len(self._log), len(self.events), self.game.now, self.game.copy()))
        oldest = self.game.now - self.horizon_s
        keep = 0
        for n, checkpoint in enumerate(self._checkpoints):
            if checkpoint.now <= oldest:
                keep = n  # the newest checkpoint at or before the horizon is the last one needed
        if keep:
            drop = self._checkpoints[keep].index
            del self._checkpoints[:keep]
            del self._log[:drop]
            del self._times[:drop]
            self._checkpoints = [
                _Checkpoint(c.index - drop, c.events, c.now, c.game) for c in self._checkpoints]

    def _insert(self, t: float, player: int, control: str, source: str) -> list[Event] | None:
        """A press stamped before presses already applied: journalled with its own edge time, put in
        its place in edge order, and the game played again from (a copy of) the newest checkpoint
        before it. None (nothing done: it is applied late) if it is older than the horizon or than
        every checkpoint."""
        if self.game.now - t > self.horizon_s + 1e-9:
            return None
        place = bisect.bisect_right(self._times, t)
        base = self._checkpoint_before(place, t)
        if base is None:
            return None
        game = base.game.copy()
        if self.journal is not None:
            try:
                self.journal.record(t, player, control, source=source, exact=True)
            except OSError as error:
                self._journal_failed(error)
        entry = Applied(t, self._next_seq(), player, control)
        self._log.insert(place, entry)
        self._times.insert(place, t)
        self.rollbacks += 1
        self.rollback_depths.append(len(self._log) - 1 - place)
        old = self.events
        events = old[: base.events]
        checkpoints = [c for c in self._checkpoints if c.index <= base.index]
        for index in range(base.index, len(self._log)):
            if index - checkpoints[-1].index >= self.snapshot_every:
                checkpoints.append(_Checkpoint(index, len(events), game.now, game.copy()))
            events += self._log[index].apply(game)
        self.game = game
        self._checkpoints = checkpoints
        self.presses += 1
        first = base.events
        while first < min(len(old), len(events)) and old[first] == events[first]:
            first += 1
        self.events = events  # a new list: the old one stays as readers saw it
        if first < len(old):
            self.corrections += 1
            self.rewritten_from.append(first)
        self._happened([], round_over=any(isinstance(e, RoundOver) for e in events[first:]))
        return events[first:]

    def _checkpoint_before(self, place: int, t: float) -> _Checkpoint | None:
        """The newest checkpoint before log entry `place` and time `t`; None if none is."""
        for base in reversed(self._checkpoints):
            if base.index <= place and base.now <= t:
                return base
        return None

    def _happened(self, events: list[Event], round_over: bool = False) -> None:
        self.events += events
        if self.journal is not None:
            try:
                if self.game.phase == Phase.OVER:
                    self.journal.finish(self.game.state())
                    self.journal = None
                elif round_over or any(isinstance(e, RoundOver) for e in events):
                    self.journal.sync()
            except OSError as error:
                self._journal_failed(error)
        if self.game.phase == Phase.OVER and not self.finished:
            self.finished = True
            self._end(abandoned=False)

    def _end(self, abandoned: bool) -> None:
        ended, self.ended = self.ended, None
        if ended is not None:
            ended(self, abandoned)

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
                    # At its own time, even before a person's press applied meanwhile (the frame
                    # polls the computer after the keys): a rollback puts it in its place.
                    happened += self._apply(t, player, control, "bot")
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
        now = round(now, 6)  # as the journal writes it, so a replay decides it at the same moment
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
            self._logged(Applied(self.game.now, self._next_seq(), 0, None))
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
        if not self.finished:
            self._end(abandoned=True)
        self.finished = True

    @classmethod
    def resume(cls, path: Path, now_ns: int, syncer: Any = None) -> Match:
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
        journal = Journal.reopen(path, syncer=syncer)
        match = cls(seed, now_ns - round(game.now * 1e9), journal, bots, game=game, events=events)
        match.levels = {int(seat): str(spec) for seat, spec in seats.items()}
        match.presses = sum(1 for press in script.presses if press.press is not None)
        print(f"spit-arcade: resumed {path.name} at press {match.presses}", file=sys.stderr)
        return match
