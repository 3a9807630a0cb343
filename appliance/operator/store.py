"""The one store: the operator's money, games, audits, high scores and adjustments in one SQLite file.

    store, problems = Store.open(path)         # never raises: a damaged file is kept aside, said
    store.add_coin(Stamp(boot, seq, ...), "gpio", credited=True)   # one transaction a coin
    store.spend(stamp, 2, "game")
    store.add_game(stamp, GameRow(...))
    store.credits()  /  store.totals(since_reset=True)  /  store.high_scores("sprint")

`store.sqlite` on the state partition (beside the settings: /var/lib/spit-arcade/ on the cabinet),
in WAL mode with `synchronous=FULL`: a transaction committed is on the card, a power cut leaves the
store before it or after it. The schema has a version (`PRAGMA user_version`) and `MIGRATIONS` take
an older file up to it, each in one transaction.

Order and counting never depend on the wall clock: every row carries the boot it was made in (a
counter kept here, one more at every start) and a sequence number in that boot (`Stamp`); the wall
clock is written beside them for the operator's reading (earnings by day), and never decides order.
A row is inserted once: (boot, seq) is unique and a second insert of it changes nothing, so a write
retried after a failure counts once.

What can go wrong, each said in `problems` (the service menu and the screen show them):
- a file that is not a database, or a damaged one: renamed aside (`store.sqlite.damaged-1`, never
  overwritten), a new store made, and every row that can still be read from the old one copied in;
- a file from a newer version (a rollback after an update): see "Across versions";
- a state partition that cannot be written (read-only, full): the store is read as far as it can be,
  and writes fail with OSError for the caller (the writer) to hold and retry.

Across versions (an update, then a rollback to the slot before: the older version must go on counting
coins). Like SQLite's own file format, with its read and write version bytes, the store carries its
schema version (`user_version`) and the oldest version that may still write it (`meta`
`writable_from`):
- An additive migration (a new table, an index, a column that may be NULL or has a DEFAULT) leaves
  `writable_from` as it was: after a rollback the older version opens the newer store and writes it
  in place (its inserts name their columns; the new ones take their defaults), leaving the schema
  version as it is.
- Any other migration (`additive=False`) raises `writable_from` to its own version. Before it runs,
  the store is copied whole to `store.sqlite.before-vN` (N the version it migrates to), kept until
  the new slot is marked good (systemd/image/boot-ok.sh deletes the copies then).
- An older version that finds a store it may not write (`_rolled_back`) makes its own: from the
  newest copy it may write (or a new store), then every row the newer version recorded since that it
  can read by its column names (rows are unique by boot and sequence: nothing counted twice), the
  credits as the newer version left them, and it checks that every coin and payment came over. Only
  then is the newer file set aside as `store.sqlite.newer-vV` (renamed, never changed) and the new one
  takes the name; a power cut between the renamings is finished at the next start. If the money
  cannot be carried, the newer store is read only and this run's coins are held in memory, said on
  the screen and in the service menu.
- When the newer version runs again (the update installed once more), it migrates the older version's
  store and then merges back what it had kept in `store.sqlite.newer-vV` (V up to its own schema): every
  row of a table with a boot and sequence number, the columns both files know, added where missing and
  taking the newer values where the row is there (a row is made once: what differs is what the older
  version could not hold — a table it does not know, a column it does not know). Then the file is
  renamed `….merged` (a power cut before that merges it again, to the same result).
The rule for a migration that is not additive, so that rule keeps working: the tables coins, spends,
credits and boots stay readable by the column names this file uses (a view of the same name will do),
and no column keeps its name with a new meaning.
Beside the store, across the same rollback: `config.toml` is read by each version with what it knows
(a setting only a newer version knows is named as unknown and ignored, every other one holds, and an
adjustment keeps its bytes: tomlkit); journals are JSON lines whose readers ignore keys they do not
know, named by boot and sequence (appliance/journal.py); an unfinished game of a variant this version
cannot replay is left as it is, said at the start.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import fsyncs

FILE = "store.sqlite"
MAX_CREDITS = 99  # the arcade's two digits: a coin beyond that is counted (the money is in the box), no credit


@dataclass(frozen=True)
class Migration:
    """One step of the schema, from version n to n + 1, in one transaction. `additive`: it only adds
    (a table, an index, a column that may be NULL or has a DEFAULT), so a version that knows only
    the schema before it may still write the store (see "Across versions" above)."""

    sql: str
    additive: bool


# Each entry takes the store from version n to n + 1, in one transaction.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(additive=False, sql="""
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE boots (boot INTEGER PRIMARY KEY, wall TEXT NOT NULL, version TEXT NOT NULL);
    CREATE TABLE credits (id INTEGER PRIMARY KEY CHECK (id = 1), credits INTEGER NOT NULL,
                          boot INTEGER NOT NULL, seq INTEGER NOT NULL, wall REAL NOT NULL);
    INSERT INTO credits VALUES (1, 0, 0, 0, 0);
    CREATE TABLE coins (id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, seq INTEGER NOT NULL,
                        mono_ns INTEGER NOT NULL, wall REAL NOT NULL, source TEXT NOT NULL,
                        credited INTEGER NOT NULL, UNIQUE (boot, seq));
    CREATE TABLE spends (id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, seq INTEGER NOT NULL,
                         mono_ns INTEGER NOT NULL, wall REAL NOT NULL, credits INTEGER NOT NULL,
                         reason TEXT NOT NULL, UNIQUE (boot, seq));
    CREATE TABLE games (id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, seq INTEGER NOT NULL,
                        mono_ns INTEGER NOT NULL, wall REAL NOT NULL, variant TEXT NOT NULL,
                        seats INTEGER NOT NULL, length_s REAL NOT NULL, winner INTEGER,
                        abandoned INTEGER NOT NULL, margins TEXT NOT NULL, sprints TEXT NOT NULL,
                        controls TEXT NOT NULL, seed INTEGER, UNIQUE (boot, seq));
    CREATE TABLE high_scores (id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, seq INTEGER NOT NULL,
                              wall REAL NOT NULL, kind TEXT NOT NULL, initials TEXT NOT NULL,
                              ms REAL NOT NULL, team INTEGER NOT NULL, runner INTEGER NOT NULL,
                              date TEXT NOT NULL, UNIQUE (boot, seq));
    CREATE TABLE adjustments (id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, seq INTEGER NOT NULL,
                              wall REAL NOT NULL, key TEXT NOT NULL, old TEXT, new TEXT,
                              UNIQUE (boot, seq));
    CREATE TABLE audit_resets (id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, seq INTEGER NOT NULL,
                               wall REAL NOT NULL, games_through INTEGER NOT NULL,
                               coins_through INTEGER NOT NULL, UNIQUE (boot, seq));
    CREATE TABLE carried (scope TEXT PRIMARY KEY, totals TEXT NOT NULL);
    CREATE TABLE updates (id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, seq INTEGER NOT NULL,
                          wall REAL NOT NULL, from_version TEXT NOT NULL, to_version TEXT NOT NULL,
                          outcome TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '', UNIQUE (boot, seq));
    CREATE TABLE rollbacks (id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, seq INTEGER NOT NULL,
                            wall REAL NOT NULL, from_version TEXT NOT NULL, to_version TEXT NOT NULL,
                            reason TEXT NOT NULL, UNIQUE (boot, seq));
    """),
)
SCHEMA_VERSION = len(MIGRATIONS)
WRITABLE_FROM = "writable_from"  # meta: the oldest schema version that may still write this store
BEFORE = ".before-v"  # store.sqlite.before-v2: the store as it was before the (not additive) migration to 2
NEWER = ".newer-v"  # store.sqlite.newer-v3: a newer version's store, set aside after a rollback, never changed
ROLLED_BACK = ".rolled-back"  # this version's store made from a newer one's, before it takes the name
MERGED = ".merged"  # store.sqlite.newer-v3.merged: a set-aside newer store whose rows came back
TABLES = ("meta", "boots", "credits", "coins", "spends", "games", "high_scores", "adjustments", "audit_resets",
          "carried", "updates", "rollbacks")  # fmt: skip


ROW_TABLES = ("boots", "coins", "spends", "games", "high_scores", "adjustments", "audit_resets", "updates",
              "rollbacks")  # each row made once, by its boot (and sequence number)
MONEY = ("coins", "spends")  # what a rollback must carry whole, or not at all


def writable_from(version: int) -> int:
    """The oldest schema version that may write a store at `version` (of those this version knows):
    the version the last migration that was not additive took it to."""
    return max((n + 1 for n, step in enumerate(MIGRATIONS[:version]) if not step.additive), default=0)


class CannotCarry(Exception):
    """A newer version's store whose money this version cannot carry into its own."""


def store_path(config_path: Path) -> Path:
    """Where the store is kept for a settings file: `store.sqlite` beside it."""
    return config_path.parent / FILE


@dataclass(frozen=True, slots=True)
class Stamp:
    """When a row was made: the boot and the sequence number in it (the order), the monotonic clock
    and the wall clock (for the operator's reading only)."""

    boot: int
    seq: int
    mono_ns: int = 0
    wall: float = 0.0


@dataclass(frozen=True)
class GameRow:
    """A game as the audits count it."""

    variant: str
    seats: int
    length_s: float
    winner: int | None  # the seat that won (None: abandoned, or a game with no winner)
    abandoned: bool
    margins_ms: tuple[float, ...] = ()  # every race decided: by how much
    sprints_ms: tuple[float, ...] = ()  # Running Spit: every sprint
    controls: tuple[tuple[int, str], ...] = ()  # (player, control) of every control pressed (switch health)
    seed: int | None = None


@dataclass(frozen=True)
class Score:
    kind: str  # "sprint" (Running Spit's fastest sprints) or "reaction" (the fastest race won)
    initials: str
    ms: float
    team: int = 0
    runner: int = 0
    date: str = ""


class StoreError(OSError):
    """A write the store could not make (the caller holds it and tries again)."""


@dataclass
class Store:
    path: Path | None  # None: in memory (tests, a desktop without a settings file)
    connection: sqlite3.Connection
    read_only: bool = False
    problems: list[str] = field(default_factory=list)
    merged: dict[str, dict[str, int]] = field(default_factory=dict)  # newer stores merged back at the start: rows
    lock: threading.Lock = field(default_factory=threading.Lock)  # one user of the connection at a time

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, path: Path | None) -> Store:
        """The store at `path` (made if missing), up to the current schema. Never raises: what was
        wrong is in `problems`, and the store is then new, read-only or in memory as it must be."""
        if path is None:
            return cls.in_memory([])
        problems: list[str] = []
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as error:  # (ValueError: a name with a NUL in it)
            problems.append(f"{path}: cannot make it ({error})")
        _finish_rolling_back(path)
        try:
            connection = _connect(str(path), False)
            version = _version(connection)
            bar = _writable_from(connection, version)
        except sqlite3.DatabaseError as error:
            with contextlib.suppress(Exception):
                connection.close()
            return cls._damaged(path, error, problems)
        except (sqlite3.Error, ValueError) as error:  # cannot be opened at all (no such directory, no permission)
            problems.append(f"{path}: cannot open it ({error}); the books are kept in memory for this run")
            return cls.in_memory(problems)
        if bar > SCHEMA_VERSION:  # a newer version changed more than it added: this one may not write it
            connection.close()
            return cls._rolled_back(path, version, bar, problems)
        store = cls(path, connection, problems=problems)
        try:
            store._migrate(version)
            store._check()
            store._merge_back()
        except sqlite3.DatabaseError as error:
            connection.close()
            return cls._damaged(path, error, problems)
        except sqlite3.Error as error:  # read-only partition, full partition: read what there is
            problems.append(f"{path}: cannot be written ({error}); read as it is")
            store.read_only = True
        return store

    @classmethod
    def in_memory(cls, problems: list[str]) -> Store:
        """A store kept for this run only (no settings file; or the card cannot hold one)."""
        store = cls(None, _connect(":memory:", False), problems=problems)
        store._migrate(0)
        return store

    @classmethod
    def _damaged(cls, path: Path, error: Exception, problems: list[str]) -> Store:
        """A damaged file: kept aside under a new name, a new store made, what can be read copied in."""
        aside = set_aside(path)
        if aside is None:
            problems.append(f"{path}: damaged ({error}) and cannot be moved aside; the books are kept in memory")
            return cls.in_memory(problems)
        store = cls.open(path)
        store.problems[:0] = problems
        recovered = store.recover_from(aside)
        store.problems.append(f"{path}: damaged ({error}); kept as {aside.name}, a new store made"
                              f" ({recovered} rows recovered from it)")
        return store

    def recover_from(self, old: Path) -> int:
        """Copy every row that can still be read from a damaged store at `old`; how many."""
        copied = 0
        try:
            source = _connect(f"file:{old}?mode=ro", True)
        except sqlite3.Error:
            return 0
        with source, self.transaction() as db:
            for table in TABLES:
                if table in ("meta", "boots"):
                    continue
                try:
                    rows = source.execute(f"SELECT * FROM {table}").fetchall()
                except sqlite3.Error:
                    continue
                for row in rows:
                    marks = ",".join("?" * len(row))
                    try:
                        cursor = db.execute(f"INSERT OR REPLACE INTO {table} VALUES ({marks})", tuple(row))
                    except sqlite3.Error:
                        continue
                    copied += cursor.rowcount
            with contextlib.suppress(sqlite3.Error):
                boots = source.execute("SELECT MAX(boot) FROM boots").fetchone()[0] or 0
                db.execute("INSERT OR IGNORE INTO boots VALUES (?, ?, ?)", (boots, "recovered", "?"))
        return copied

    def carry_from(self, newer: sqlite3.Connection) -> dict[str, int]:
        """Every row of a newer version's store (`newer`, read only) that this store lacks and this
        version can read (the columns it knows, by name), added; the credits, the totals carried from
        the old files and the notes as the newer version left them. How many rows of each table.
        CannotCarry if a coin or a payment cannot be read, or is missing after."""
        added: dict[str, int] = {}
        given = spent = 0
        with self.transaction() as db:
            for table in ROW_TABLES:
                known = db.execute(f"PRAGMA table_info({table})").fetchall()
                try:
                    theirs = {str(c[1]) for c in newer.execute(f"PRAGMA table_info({table})").fetchall()}
                except sqlite3.Error:
                    theirs = set()
                names = [str(c[1]) for c in known if c[1] != "id" and c[1] in theirs]
                missing = [str(c[1]) for c in known if c[1] != "id" and c[3] and c[4] is None and c[1] not in theirs]
                if missing or not names:
                    if table in MONEY:
                        raise CannotCarry(f"its {table} cannot be read by this version (no "
                                          f"{', '.join(missing) or 'such table'})")
                    added[table] = 0
                    continue
                columns, marks = ",".join(names), ",".join("?" * len(names))
                order = "boot, seq" if "seq" in names else "boot"
                try:
                    rows = newer.execute(f"SELECT {columns} FROM {table} ORDER BY {order}").fetchall()
                except sqlite3.Error as error:
                    if table in MONEY:
                        raise CannotCarry(f"its {table} cannot be read ({error})") from error
                    rows = []
                added[table] = 0
                for row in rows:
                    if db.execute(f"INSERT OR IGNORE INTO {table} ({columns}) VALUES ({marks})", tuple(row)).rowcount:
                        added[table] += 1
                        if table == "coins":
                            given += int(row[names.index("credited")])
                        elif table == "spends":
                            spent += int(row[names.index("credits")])
            # The boot counter never goes back: a boot seen in any row is a boot the next start is after.
            seen = max(int(db.execute(f"SELECT COALESCE(MAX(boot), 0) FROM {table}").fetchone()[0])
                       for table in ROW_TABLES)
            if seen:
                db.execute("INSERT OR IGNORE INTO boots VALUES (?, 'carried', '?')", (seen,))
            try:
                credits = newer.execute("SELECT credits, boot, seq, wall FROM credits WHERE id = 1").fetchone()
            except sqlite3.Error:
                credits = None
            if credits is not None:
                db.execute("UPDATE credits SET credits = ?, boot = ?, seq = ?, wall = ? WHERE id = 1", tuple(credits))
            else:  # moved by what was carried, as the newer version moved them
                db.execute("UPDATE credits SET credits = MAX(0, MIN(?, credits + ?)) WHERE id = 1",
                           (MAX_CREDITS, given - spent))
            with contextlib.suppress(sqlite3.Error):
                carried = newer.execute("SELECT scope, totals FROM carried").fetchall()
                db.execute("DELETE FROM carried")
                db.executemany("INSERT INTO carried VALUES (?, ?)", carried)
            with contextlib.suppress(sqlite3.Error):
                notes = newer.execute("SELECT key, value FROM meta WHERE key != ?", (WRITABLE_FROM,)).fetchall()
                db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", notes)
            for table in MONEY:
                theirs_rows = set(newer.execute(f"SELECT boot, seq FROM {table}").fetchall())
                lacking = theirs_rows - set(db.execute(f"SELECT boot, seq FROM {table}").fetchall())
                if lacking:
                    raise CannotCarry(f"{len(lacking)} of its {table} could not be carried")
        return added

    def _migrate(self, version: int) -> None:
        for number in range(version, SCHEMA_VERSION):
            if not MIGRATIONS[number].additive and version > 0:  # (a new store has nothing to keep)
                self._keep_copy(number + 1)
            with self.transaction() as db:
                for statement in MIGRATIONS[number].sql.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (WRITABLE_FROM, writable_from(number + 1)))
                db.execute(f"PRAGMA user_version = {number + 1}")

    def _merge_back(self) -> None:
        """The stores this version set aside as newer after a rollback (`store.sqlite.newer-vV`, V up
        to this version's schema: its own, from before the rollback), merged back into this one
        (module docstring, "Across versions"), then renamed `….merged`. One that cannot be read or
        merged is said and left as it is."""
        if self.path is None or self.read_only:
            return
        for version, aside in _asides(self.path):
            if version > SCHEMA_VERSION:  # (a version newer than this one's: not this one's to take)
                continue
            try:
                merged = self.merge_from(aside)
                _rename_with_logs(aside, _free_name(aside, MERGED))
            except (OSError, sqlite3.Error) as error:
                self.problems.append(f"{aside.name}: what this version kept there before a rollback could not be "
                                     f"merged back ({error}); it is kept as it is")
                continue
            self.merged[aside.name] = merged  # (not a problem: nothing for the screen to say)

    def merge_from(self, aside: Path) -> dict[str, int]:
        """Every row of the store at `aside` (read only) in the tables both have with a boot and a
        sequence number: added when missing, its values taken when the row is there (the columns
        both know; never `id`). How many rows of each table were added or changed. In one
        transaction: merged again, it comes to the same."""
        changed: dict[str, int] = {}
        source = _connect(f"file:{aside}?mode=ro", True)
        try:
            theirs = {str(row[0]) for row in
                      source.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}
            with self.transaction() as db:
                mine = {str(row[0]) for row in
                        db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}
                for table in sorted(theirs & mine):
                    if table.startswith("sqlite_"):
                        continue
                    known = {str(c[1]) for c in db.execute(f'PRAGMA table_info("{table}")').fetchall()}
                    names = [str(c[1]) for c in source.execute(f'PRAGMA table_info("{table}")').fetchall()
                             if c[1] != "id" and c[1] in known]
                    if not {"boot", "seq"} <= set(names) or not _unique_by_boot_and_seq(db, table):
                        continue  # (meta, boots, credits, carried: not rows made once by a boot and a sequence)
                    columns = ", ".join(f'"{n}"' for n in names)
                    marks = ", ".join("?" * len(names))
                    others = [n for n in names if n not in ("boot", "seq")]
                    update = ", ".join(f'"{n}" = excluded."{n}"' for n in others)
                    differs = " OR ".join(f'"{n}" IS NOT excluded."{n}"' for n in others) or "0"
                    sql = (f'INSERT INTO "{table}" ({columns}) VALUES ({marks}) ON CONFLICT (boot, seq) DO UPDATE '
                           f"SET {update or 'boot = excluded.boot'} WHERE {differs}")
                    count = 0
                    for row in source.execute(f'SELECT {columns} FROM "{table}" ORDER BY boot, seq'):
                        count += db.execute(sql, tuple(row)).rowcount
                    changed[table] = count
        finally:
            source.close()
        return changed

    def _keep_copy(self, target: int) -> None:
        """Before a migration to `target` that is not additive: the store as it is, copied whole to
        `store.sqlite.before-vTARGET` (kept until the new slot is marked good), for the version before
        to go on from after a rollback. A copy that cannot be made is said; the migration goes on (a
        rollback then rebuilds the older version's store from this one's rows alone)."""
        if self.path is None:
            return
        copy = self.path.with_name(f"{self.path.name}{BEFORE}{target}")
        part = copy.with_name(copy.name + ".part")
        try:
            _remove(part)
            out = sqlite3.connect(part)
            try:
                with self.lock:
                    self.connection.backup(out)
            finally:
                out.close()
            _sync_file(part)
            part.replace(copy)
            _sync_file(copy.parent)
        except (OSError, sqlite3.Error) as error:
            _remove(part)
            self.problems.append(f"{copy.name}: the copy of the books before schema {target} could not be made "
                                 f"({error}); a rollback will rebuild them from the newer store's rows")

    @classmethod
    def _rolled_back(cls, path: Path, version: int, bar: int, problems: list[str]) -> Store:
        """A store a newer version made and changed past what this one may write (a rollback after an
        update): this version's store is made from the copy kept before that change (or a new one)
        and every row recorded since that this version can read, checked to hold every coin and
        payment; the newer file is kept aside, never changed. If the money cannot be carried, the
        newer store is read only and this run's books are held in memory, said."""
        words = (f"{path.name} was made by a newer version of spit-arcade (schema {version}, written only by "
                 f"schema {bar} and later; this version knows {SCHEMA_VERSION})")
        built = path.with_name(path.name + ROLLED_BACK)
        aside = _free_name(path, f"{NEWER}{version}")
        try:
            base, carried = _build_for_this_version(path, built)
            _rename_with_logs(path, aside)
        except (OSError, sqlite3.Error, CannotCarry) as error:
            _remove(built.with_name(built.name + ".part"))
            _remove(built)
            problems.append(f"{words}: {error}. It is read, never changed; the coins and games of this run are "
                            "held in memory, and lost if the cabinet is switched off before the newer version "
                            "runs again")
            return cls(path, _connect(f"file:{path}?mode=ro", True), read_only=True, problems=problems)
        try:
            _rename_with_logs(built, path)
            target = path
        except OSError:  # written where it is for this run; it takes the name at the next start
            target = built
        store = cls.open(target)
        store.problems[:0] = problems
        rows = ", ".join(f"{n} {table}" for table, n in carried.items() if n) or "no rows"
        store.problems.append(f"{words}: kept as {aside.name}, never changed. This version's books go on from "
                              f"{base or 'a new store'} with what was recorded since ({rows}); "
                              f"credits {store.credits()[0]}")
        return store

    def _check(self) -> None:
        found = self.connection.execute("PRAGMA quick_check").fetchone()[0]
        if found != "ok":
            raise sqlite3.DatabaseError(str(found))

    def close(self) -> None:
        with self.lock:
            self.connection.close()

    # ------------------------------------------------------------------ writing

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction, committed (and synced: WAL, synchronous=FULL) or rolled back whole.
        StoreError if it cannot be written."""
        if self.read_only:
            raise StoreError(f"{self.path}: the store is read-only")
        with self.lock:
            db = self.connection
            try:
                db.execute("BEGIN IMMEDIATE")
                yield db
                db.execute("COMMIT")
            except sqlite3.Error as error:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise StoreError(f"{self.path or 'the store'}: {error}") from error
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise
        fsyncs.committed()

    def new_boot(self, version: str = "", leave: int = 0) -> int:
        """The next boot's number (one more than any boot the store has seen, `leave` numbers after
        that left free), kept."""
        with self.transaction() as db:
            boot = int(db.execute("SELECT COALESCE(MAX(boot), 0) + 1 + ? FROM boots", (leave,)).fetchone()[0])
            db.execute("INSERT INTO boots VALUES (?, ?, ?)", (boot, time.strftime("%Y-%m-%d %H:%M:%S"), version))
        return boot

    def add_boot(self, boot: int, version: str = "") -> bool:
        """A boot whose start could not be written then (the card was full), written now."""
        with self.transaction() as db:
            cursor = db.execute("INSERT OR IGNORE INTO boots VALUES (?, ?, ?)",
                                (boot, time.strftime("%Y-%m-%d %H:%M:%S"), version))
            return bool(cursor.rowcount)

    def last_boot(self) -> int:
        with self.lock:
            return int(self.connection.execute("SELECT COALESCE(MAX(boot), 0) FROM boots").fetchone()[0])

    def add_coin(self, stamp: Stamp, source: str, credited: bool) -> bool:
        """One coin, and its credit if `credited`, in one transaction; False if it was kept already."""
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO coins (boot, seq, mono_ns, wall, source, credited) VALUES (?,?,?,?,?,?)",
                (stamp.boot, stamp.seq, stamp.mono_ns, stamp.wall, source, int(credited)))
            if cursor.rowcount and credited:
                self._move_credits(db, stamp, 1)
            return bool(cursor.rowcount)

    def spend(self, stamp: Stamp, credits: int, reason: str) -> bool:
        """Credits taken (a game paid for, credits expired while the cabinet was off)."""
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO spends (boot, seq, mono_ns, wall, credits, reason) VALUES (?,?,?,?,?,?)",
                (stamp.boot, stamp.seq, stamp.mono_ns, stamp.wall, credits, reason))
            if cursor.rowcount:
                self._move_credits(db, stamp, -credits)
            return bool(cursor.rowcount)

    @staticmethod
    def _move_credits(db: sqlite3.Connection, stamp: Stamp, by: int) -> None:
        db.execute("UPDATE credits SET credits = MAX(0, MIN(?, credits + ?)), boot = ?, seq = ?, wall = ?"
                   " WHERE id = 1", (MAX_CREDITS, by, stamp.boot, stamp.seq, stamp.wall))

    def add_game(self, stamp: Stamp, game: GameRow) -> bool:
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO games (boot, seq, mono_ns, wall, variant, seats, length_s, winner, abandoned,"
                " margins, sprints, controls, seed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (stamp.boot, stamp.seq, stamp.mono_ns, stamp.wall, game.variant, game.seats, round(game.length_s, 3),
                 game.winner, int(game.abandoned), json.dumps(list(game.margins_ms)),
                 json.dumps(list(game.sprints_ms)), json.dumps([f"{p} {c}" for p, c in game.controls]), game.seed))
            return bool(cursor.rowcount)

    def add_score(self, stamp: Stamp, score: Score) -> bool:
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO high_scores (boot, seq, wall, kind, initials, ms, team, runner, date)"
                " VALUES (?,?,?,?,?,?,?,?,?)",
                (stamp.boot, stamp.seq, stamp.wall, score.kind, score.initials, score.ms, score.team, score.runner,
                 score.date))
            return bool(cursor.rowcount)

    def add_adjustment(self, stamp: Stamp, key: str, old: Any, new: Any) -> bool:
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO adjustments (boot, seq, wall, key, old, new) VALUES (?,?,?,?,?,?)",
                (stamp.boot, stamp.seq, stamp.wall, key, json.dumps(old), json.dumps(new)))
            return bool(cursor.rowcount)

    def reset_audits(self, stamp: Stamp) -> bool:
        """The resettable audits start again from here (the lifetime ones stay)."""
        with self.transaction() as db:
            games = db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
            coins = db.execute("SELECT COALESCE(MAX(id), 0) FROM coins").fetchone()[0]
            cursor = db.execute(
                "INSERT OR IGNORE INTO audit_resets (boot, seq, wall, games_through, coins_through)"
                " VALUES (?,?,?,?,?)",
                (stamp.boot, stamp.seq, stamp.wall, games, coins))
            if cursor.rowcount:
                db.execute("DELETE FROM carried WHERE scope = 'since'")
            return bool(cursor.rowcount)

    def add_update(self, stamp: Stamp, from_version: str, to_version: str, outcome: str, detail: str = "") -> bool:
        """An update installed or refused (the updates unit fills this)."""
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO updates (boot, seq, wall, from_version, to_version, outcome, detail)"
                " VALUES (?,?,?,?,?,?,?)",
                (stamp.boot, stamp.seq, stamp.wall, from_version, to_version, outcome, detail))
            return bool(cursor.rowcount)

    def add_rollback(self, stamp: Stamp, from_version: str, to_version: str, reason: str) -> bool:
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO rollbacks (boot, seq, wall, from_version, to_version, reason)"
                " VALUES (?,?,?,?,?,?)",
                (stamp.boot, stamp.seq, stamp.wall, from_version, to_version, reason))
            return bool(cursor.rowcount)

    def get_meta(self, key: str) -> str | None:
        with self.lock:
            row = self.connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    # ------------------------------------------------------------------ reading

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self.lock:
            return [tuple(row) for row in self.connection.execute(sql, args).fetchall()]

    def credits(self) -> tuple[int, float]:
        """The credits there are, and when (wall clock) they last changed."""
        found = self.rows("SELECT credits, wall FROM credits WHERE id = 1")
        return (int(found[0][0]), float(found[0][1])) if found else (0, 0.0)

    def count(self, table: str) -> int:
        assert table in TABLES
        return int(self.rows(f"SELECT COUNT(*) FROM {table}")[0][0])

    def high_scores(self, kind: str, size: int = 10) -> list[Score]:
        """The table of `kind`, fastest first; equal times: the one set first on top."""
        found = self.rows("SELECT kind, initials, ms, team, runner, date FROM high_scores WHERE kind = ?"
                          " ORDER BY ms, boot, seq LIMIT ?", (kind, size))
        return [Score(str(k), str(i), float(ms), int(t), int(r), str(d)) for k, i, ms, t, r, d in found]


def _connect(target: str, read_only: bool) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are begun by hand), WAL, synchronous=FULL."""
    connection = sqlite3.connect(target, uri=target.startswith("file:"), isolation_level=None,
                                 check_same_thread=False, timeout=5.0)
    if not read_only and target != ":memory:":
        connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    return connection


def _version(connection: sqlite3.Connection) -> int:
    version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # a file that is not a database fails here
    return version


def _writable_from(connection: sqlite3.Connection, version: int) -> int:
    """The oldest schema version that may write the store behind `connection` (at `version`): as
    the store says; for a store that does not say, as this version's migrations say, and for a newer
    one that does not say, only its own version."""
    row = None
    if version:
        with contextlib.suppress(sqlite3.Error):
            row = connection.execute("SELECT value FROM meta WHERE key = ?", (WRITABLE_FROM,)).fetchone()
    if row is not None and str(row[0]).isdigit():
        return int(row[0])
    return writable_from(version) if version <= SCHEMA_VERSION else version


def _copies(path: Path) -> list[tuple[int, Path]]:
    """The copies kept before migrations (`store.sqlite.before-vN`), newest (highest N) first."""
    found = []
    for copy in path.parent.glob(f"{path.name}{BEFORE}*"):
        number = copy.name[len(path.name) + len(BEFORE):]
        if number.isdigit():
            found.append((int(number), copy))
    return sorted(found, reverse=True)


def _asides(path: Path) -> list[tuple[int, Path]]:
    """The newer stores set aside after rollbacks (`store.sqlite.newer-vV`, `…-vV-2`), by V."""
    found = []
    for aside in path.parent.glob(f"{path.name}{NEWER}*"):
        named = re.fullmatch(r"(\d+)(?:-\d+)?", aside.name[len(path.name) + len(NEWER):])
        if named:  # (not its -wal or -shm, not one merged already)
            found.append((int(named.group(1)), aside))
    return sorted(found)


def _unique_by_boot_and_seq(db: sqlite3.Connection, table: str) -> bool:
    """Whether `table` holds each (boot, seq) once (a UNIQUE constraint on just those two)."""
    for index in db.execute(f'PRAGMA index_list("{table}")').fetchall():
        columns = [str(c[2]) for c in db.execute(f'PRAGMA index_info("{index[1]}")').fetchall()]
        if index[2] and columns == ["boot", "seq"]:
            return True
    return False


def _usable_copy(path: Path) -> Path | None:
    """The newest copy kept before a migration that this version may write and that reads whole."""
    for _, copy in _copies(path):
        try:
            connection = _connect(f"file:{copy}?mode=ro", True)
        except sqlite3.Error:
            continue
        try:
            version = _version(connection)
            if _writable_from(connection, version) <= SCHEMA_VERSION and \
                    connection.execute("PRAGMA quick_check").fetchone()[0] == "ok":
                return copy
        except sqlite3.Error:
            continue
        finally:
            connection.close()
    return None


def _build_for_this_version(newer_path: Path, built: Path) -> tuple[str | None, dict[str, int]]:
    """This version's store at `built`, made from the newest usable copy kept before a migration (or
    a new one) and every row of the newer store at `newer_path` it can read (`Store.carry_from`).
    The copy it started from (its name) and the rows carried."""
    part = built.with_name(built.name + ".part")
    _remove(part)
    base = _usable_copy(newer_path)
    if base is not None:
        source = _connect(f"file:{base}?mode=ro", True)
        out = sqlite3.connect(part)
        try:
            source.backup(out)
        finally:
            out.close()
            source.close()
    target = Store.open(part)
    try:
        if target.read_only or target.path is None or target.problems:
            raise CannotCarry("; ".join(target.problems) or "its copy cannot be written")
        newer = _connect(f"file:{newer_path}?mode=ro", True)
        try:
            carried = target.carry_from(newer)
        finally:
            newer.close()
    finally:
        target.close()
        for _, stray in _copies(part):  # (a copy the migration of the copy kept: not wanted here)
            _remove(stray)
    _sync_file(part)
    _rename_with_logs(part, built)
    _sync_file(built.parent)
    return (None if base is None else base.name), carried


def _finish_rolling_back(path: Path) -> None:
    """A power cut in the middle of a rollback's renaming: finished here. This version's store made
    (`store.sqlite.rolled-back`) with the newer one already set aside takes the name; made with the
    newer one still in place, it is made again."""
    built = path.with_name(path.name + ROLLED_BACK)
    with contextlib.suppress(OSError, ValueError):  # (a path that cannot be: said when it is opened)
        _remove(built.with_name(built.name + ".part"))
        if built.exists():
            if path.exists():
                _remove(built)
            else:
                _rename_with_logs(built, path)


def _free_name(path: Path, suffix: str) -> Path:
    """`NAME{suffix}`, or `NAME{suffix}-2`, ...: the first not taken."""
    target, n = path.with_name(path.name + suffix), 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}{suffix}-{n}")
    return target


def _rename_with_logs(path: Path, target: Path) -> None:
    """Rename a store with its write-ahead log and shared-memory files."""
    path.replace(target)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            path.with_name(path.name + suffix).replace(target.with_name(target.name + suffix))


def _remove(path: Path) -> None:
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"),
                 path.with_name(path.name + "-journal")):
        with contextlib.suppress(FileNotFoundError):
            each.unlink()


def _sync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def set_aside(path: Path) -> Path | None:
    """Rename a damaged file (and its WAL and shared-memory files) to `NAME.damaged-N`, N the first
    number not taken: never over an older one. The new name, or None if it cannot be renamed."""
    n = 1
    while path.with_name(f"{path.name}.damaged-{n}").exists():
        n += 1
    aside = path.with_name(f"{path.name}.damaged-{n}")
    try:
        path.rename(aside)
    except (OSError, ValueError):
        return None
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(OSError):
            path.with_name(path.name + suffix).rename(aside.with_name(aside.name + suffix))
    return aside
