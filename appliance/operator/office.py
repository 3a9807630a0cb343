"""The operator's office: coins and credits, games, high scores, adjustments and resets, as the title,
the service menu, the screen and the command line ask for them. Outside the screen: no pygame.

    office = Office.open(config_path)     # at start: the store opened, the old files moved in, a new boot
    office.coin("gpio")                   # a credit more, now (in memory); written by the writer thread
    office.pay(2)                         # a game starts: False, nothing taken, if too few
    office.game_over(match)               # a game ended (or was abandoned): its figures into the store
    office.notices                        # what went wrong with the books: the screen and the service menu say it

The credits the screen shows are held here, in memory, and are the truth of this run: each change is
handed to the writer thread (appliance/operator/writer.py), which writes it in one transaction and
syncs, so the frame loop never waits on the card. A write that fails (the state partition full) is
held in memory and written when it can; `notices` says so, on the screen and in the service menu.

A coin while the service menu is open gives no credit and is not counted as money: the switch test
shows it (`service=True`). Credits kept while the cabinet was off expire after `keep_credits_s`
(0: kept for ever, the default), by the wall clock of the last change: with no real-time clock on
the cabinet, a clock that went back keeps them.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .store import MAX_CREDITS, GameRow, Score, Stamp, Store, store_path
from .writer import Write, Writer

__all__ = ["Office", "game_row", "record_adjustments"]

SCORE_KINDS = ("sprint", "reaction")  # Running Spit's fastest sprints; the fastest races won
SCORES_KEPT = 10


@dataclass
class Office:
    store: Store
    boot: int
    credits: int = 0
    keep_credits_s: float = 0.0
    clock: Callable[[], int] = time.monotonic_ns
    wall: Callable[[], float] = time.time
    notices: list[str] = field(default_factory=list)  # what went wrong with the books, for the screen
    config_path: Path | None = None  # the settings file the store is kept beside (None: in memory)
    writer: Writer = field(init=False)
    scores: dict[str, list[Score]] = field(init=False, default_factory=dict)  # the tables, held for the screen
    _seq: int = field(init=False, default=0)
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock)
    _notices_lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.notices = list(self.store.problems) + self.notices
        for words in self.notices:  # the start's: on stderr (the system journal) too
            print(f"spit-arcade: {words}", file=sys.stderr)
        self.writer = Writer(self.store, self.notice)
        for kind in SCORE_KINDS:
            try:
                self.scores[kind] = self.store.high_scores(kind, SCORES_KEPT)
            except Exception as error:  # an unreadable table is an empty one, said
                self.scores[kind] = []
                self.notices.append(f"the {kind} high scores could not be read ({error})")

    @classmethod
    def open(cls, config_path: Path | None, *, keep_credits_s: float = 0.0, version: str = "",
             migrate: bool = True, clock: Callable[[], int] = time.monotonic_ns,
             wall: Callable[[], float] = time.time) -> Office:
        """The office for a settings file: its store beside it (in memory without one), the files
        of the release before moved in once, a new boot counted, credits expired if they were kept
        off too long. Never raises: what was wrong is in `notices`."""
        store = Store.open(store_path(config_path) if config_path is not None else None)
        said: list[str] = []
        if migrate and config_path is not None and store.path is not None and not store.read_only:
            from .migrate import migrate_files

            try:
                said += migrate_files(store, config_path.parent)
            except OSError as error:  # the old files stay where they are: moved at the next start
                said.append(f"the old books could not be moved into the store ({error}); they are kept as they are")
        unwritten = False
        try:
            boot = store.new_boot(version)
        except OSError as error:
            boot, unwritten = store.last_boot() + 1, True
            said.append(f"the start could not be written ({error}); the books are held in memory")
        office = cls(store, boot, store.credits()[0], keep_credits_s, clock, wall, said, config_path)
        if unwritten:  # written before any row of this boot (in order), so the next start never reuses it
            office._write("start", lambda s: s.add_boot(boot, version))
        office._expire()
        return office

    # ------------------------------------------------------------------ notices

    def notice(self, words: str) -> None:
        """Something went wrong with (or came right again in) the books: kept for the screen and the
        service menu, and said on stderr (the system journal)."""
        print(f"spit-arcade: {words}", file=sys.stderr)
        with self._notices_lock:
            self.notices.append(words)
            del self.notices[:-50]  # a flood of failures never grows without bound

    @property
    def failure(self) -> str | None:
        """Why writes are held in memory now (None: every change is written)."""
        return self.writer.failure

    @property
    def held(self) -> int:
        return len(self.writer.held)

    # ------------------------------------------------------------------ stamps

    def stamp(self) -> Stamp:
        with self._lock:
            self._seq += 1
            return Stamp(self.boot, self._seq, self.clock(), self.wall())

    def journal_order(self) -> tuple[int, int] | None:
        """A new game's journal's boot and sequence number (its name's order, never the clock's);
        None where boots are not counted across starts (a store kept in memory)."""
        if self.store.path is None:
            return None
        found = self.stamp()
        return found.boot, found.seq

    def _write(self, what: str, apply: Callable[[Store], Any], done: Callable[[Any], None] | None = None) -> None:
        self.writer.put(Write(what, apply, done))

    # ------------------------------------------------------------------ coins and credits

    @property
    def full(self) -> bool:
        return self.credits >= MAX_CREDITS

    def coin(self, source: str = "coin", service: bool = False, done: Callable[[Any], None] | None = None) -> bool:
        """One coin (a debounced `coin` press): a credit more now (none past the cap, the coin
        counted either way), written by the writer. In service mode nothing: the switch test shows
        it. Whether it added a credit."""
        if service:
            return False
        added = not self.full
        if added:
            self.credits += 1
        stamp = self.stamp()
        self._write("coin", lambda store: store.add_coin(stamp, source, added), done)
        return added

    def enough(self, cost: int) -> bool:
        return self.credits >= cost

    def pay(self, cost: int, reason: str = "game", done: Callable[[Any], None] | None = None) -> bool:
        """A game starts: take `cost` credits. False (nothing taken) if there are too few."""
        if cost < 0 or not self.enough(cost):
            return False
        if cost:
            self.credits -= cost
            stamp = self.stamp()
            self._write("payment", lambda store: store.spend(stamp, cost, reason), done)
        return True

    def _expire(self) -> None:
        """Credits kept while the cabinet was off longer than `keep_credits_s` are taken (written)."""
        if not self.keep_credits_s or not self.credits:
            return
        _, changed = self.store.credits()
        off = self.wall() - changed
        if changed and off > self.keep_credits_s:  # a clock set back (off < 0) keeps them
            self.notice(f"{self.credits} credits expired: kept {off / 3600:.1f} h while off, the limit is "
                        f"{self.keep_credits_s / 3600:.1f} h")
            self.pay(self.credits, "expired")

    # ------------------------------------------------------------------ games, scores, adjustments

    def game_over(self, match: Any, abandoned: bool = False, done: Callable[[Any], None] | None = None) -> None:
        """A game ended (or was left): its figures from the match's events, written by the writer."""
        try:
            row = game_row(match, abandoned)
        except Exception as error:  # the figures of an odd game never stop the cabinet: said, not lost silently
            self.notice(f"a game could not be counted ({type(error).__name__}: {error})")
            return
        self.add_game(row, done)

    def add_game(self, row: GameRow, done: Callable[[Any], None] | None = None) -> None:
        stamp = self.stamp()
        self._write("game", lambda store: store.add_game(stamp, row), done)

    def add_score(self, score: Score) -> None:
        """A high score: in the table held here at once (after those as fast: the first set stays on
        top), written by the writer."""
        table = self.scores.setdefault(score.kind, [])
        place = sum(1 for s in table if s.ms <= score.ms)
        table.insert(place, score)
        del table[SCORES_KEPT:]
        stamp = self.stamp()
        self._write("high score", lambda store: store.add_score(stamp, score))

    def record_adjustment(self, key: str, old: Any, new: Any) -> None:
        """The operator changed a setting (the service menu, `spit-arcade settings set`): kept with when."""
        stamp = self.stamp()
        self._write("adjustment", lambda store: store.add_adjustment(stamp, key, old, new))

    def adjust(self, values: Mapping[str, Any], house_rules: Mapping[str, Any] | None = None,
               tables: Mapping[str, Mapping[str, Any]] | None = None) -> str | None:
        """An operator's (or the players' game menu's) adjustment: into the settings file, every other
        byte of it kept (`config_file.adjust`), and each change into the store with when it was made.
        None where it was saved; else why not (it then holds for this session only)."""
        from appliance.shared.config_file import adjust
        from appliance.shared.link_setting import hidden

        if self.config_path is None:
            return "no settings file"
        done = adjust(self.config_path, values, house_rules, tables)
        for change in done.changes:  # (the link word only as whether one is set)
            self.record_adjustment(change.key, hidden(change.key, change.old), hidden(change.key, change.new))
        return done.why_not()

    def adjust_later(self, values: Mapping[str, Any], house_rules: Mapping[str, Any] | None = None,
                     done: Callable[[str | None], None] | None = None,
                     tables: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        """`adjust` on the writer's thread, after every write handed over before (two syncs of the
        card, some 30 ms: the frame never waits on them); `done` gets its answer there (None: saved)."""
        values, rules = dict(values), None if house_rules is None else dict(house_rules)
        tables = {name: dict(entries) for name, entries in (tables or {}).items()}

        def job() -> None:
            try:
                answer = self.adjust(values, rules, tables)
            except Exception as error:  # said where it was asked, never lost on this thread
                answer = f"{type(error).__name__}: {error}"
            if done is not None:
                done(answer)

        self.writer.call(job)

    def export_audits(self, done: Callable[[Any], None], stick: Path | None = None) -> None:
        """The audits as CSV onto the operator's USB stick (`export.py`): read on the writer's thread
        (after every write handed over before), written to the stick on a thread of its own (a slow
        stick never holds back a coin or a journal's sync). `done` gets the `Export` there."""
        from . import books
        from .export import Export, cabinet_name, write_export

        stamp = self.stamp()

        def write(found: dict[str, Any] | Export) -> None:
            if isinstance(found, Export):  # the books could not be read
                done(found)
                return

            def run() -> None:
                try:
                    answer = write_export(found, cabinet_name(), stamp, stick)
                except Exception as error:  # never lost on this thread: said where it was asked
                    answer = Export("failed", detail=f"{type(error).__name__}: {error}")
                done(answer)

            threading.Thread(target=run, name="audits-export", daemon=True).start()

        def report(store: Store) -> dict[str, Any] | Export:
            try:
                return books.report(store)
            except Exception as error:
                return Export("failed", detail=f"the books could not be read: {error}")

        self.ask(report, write)

    def record_update(self, from_version: str, to_version: str, outcome: str, detail: str = "",
                      once: str = "") -> None:
        """An update tried (refused, failed, installed) or what became of it (applied, rolled_back):
        into the store's `updates`. With `once`: not again if a row of this outcome names it."""
        stamp = self.stamp()

        def write(store: Store) -> bool:
            if once and _names(store, "updates", "detail", once, outcome):
                return False
            return store.add_update(stamp, from_version, to_version, outcome, detail)

        self._write("update", write)

    def record_rollback(self, from_version: str, to_version: str, reason: str, once: str = "") -> None:
        """The cabinet went back from `from_version` (which did not come up) to `to_version`."""
        stamp = self.stamp()

        def write(store: Store) -> bool:
            if once and _names(store, "rollbacks", "reason", once):
                return False
            return store.add_rollback(stamp, from_version, to_version, reason)

        self._write("rollback", write)

    def reset_audits(self) -> None:
        stamp = self.stamp()
        self._write("audit reset", lambda store: store.reset_audits(stamp))

    def ask(self, question: Callable[[Store], Any], answer: Callable[[Any], None]) -> None:
        """Read the store on the writer's thread (after every write handed over before) and hand the
        answer to `answer` there: the frame thread never reads the card."""
        def read(store: Store) -> None:
            try:
                answer(question(store))
            except Exception as error:  # a read that fails is said, never retried for ever
                self.notice(f"the books could not be read ({error})")

        self.writer.call(lambda: read(self.store))

    def high_scores(self, kind: str = "sprint") -> list[Score]:
        """The table of `kind`, fastest first (held in memory: no read of the card)."""
        return list(self.scores.get(kind, []))

    def drain(self, timeout: float | None = None) -> bool:
        return self.writer.drain(timeout)

    def close(self) -> None:
        self.writer.stop()
        with contextlib.suppress(Exception):
            self.store.close()


def record_adjustments(config_path: Path, changes: Iterable[tuple[str, Any, Any]], made_by: str) -> str | None:
    """Adjustments made outside the game (`spit-arcade settings set`: another process, perhaps while
    the game runs) into the store beside `config_path`, each `(key, old, new)`, with when. They are
    stamped by a boot of their own (`made_by` in the boots table, the boot number after next): never a
    (boot, sequence) the game uses, even one it holds in memory while the card is full. SQLite keeps
    the two processes' writes apart. Written by root, the store stays the game's own (its owner: the
    settings directory's). None, or why not."""
    changes = list(changes)
    if not changes:
        return None
    store = Store.open(store_path(config_path))
    try:
        if store.path is None or store.read_only:
            return "; ".join(store.problems) or "the books cannot be written"
        # One number left free: a game whose start could not be written (the card full) holds the next
        # one in memory, and writes it before any row of its own once the card takes it.
        boot = store.new_boot(made_by, leave=1)
        for seq, (key, old, new) in enumerate(changes, start=1):
            store.add_adjustment(Stamp(boot, seq, time.monotonic_ns(), time.time()), key, old, new)
        return None
    except OSError as error:
        return str(error)
    finally:
        store.close()
        _keep_owner(store_path(config_path))


def _keep_owner(path: Path) -> None:
    """Root made or wrote the store (and its log files): given back to the owner of its directory."""
    if os.geteuid() != 0:
        return
    with contextlib.suppress(OSError):
        owner = path.parent.stat()
        for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            with contextlib.suppress(FileNotFoundError):
                if each.stat().st_uid != owner.st_uid:
                    os.chown(each, owner.st_uid, owner.st_gid)


def _names(store: Store, table: str, column: str, mark: str, outcome: str = "") -> bool:
    """Whether a row of `table` (of this outcome) has `mark` in `column` (a row written once)."""
    query = f"SELECT 1 FROM {table} WHERE instr({column}, ?) > 0" + (" AND outcome = ?" if outcome else "")
    with store.lock:
        return store.connection.execute(query, (mark, outcome) if outcome else (mark,)).fetchone() is not None


def game_row(match: Any, abandoned: bool = False) -> GameRow:
    """A match's figures for the audits, from its events: who won, the races and their margins,
    Running Spit's sprints, and which controls each seat pressed (switch health)."""
    events: list[Any] = list(match.events)
    winner = next((int(getattr(e, "winner", 0)) for e in reversed(events) if e.kind == "game_over"), None)
    margins = tuple(float(e.by_ms) for e in events if e.kind == "reject" and getattr(e, "reason", "") == "too_late"
                    and getattr(e, "by_ms", None) is not None)
    sprints: tuple[float, ...] = ()
    rules = getattr(match.game, "rules", None)
    if rules is not None and rules.moves.carry:
        from appliance.running_stats import runner_figures

        sprints = tuple(s for f in runner_figures(events, rules.options.runners).values() for s in f.sprints)
    controls = tuple(sorted(getattr(match, "pressed", ()) or ()))
    return GameRow(match.variant, match.seats, round(float(match.game.now), 3), None if abandoned else winner,
                   abandoned, margins, sprints, controls, getattr(match, "seed", None))
