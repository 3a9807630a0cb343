"""The journal: every game the appliance runs, written as it happens, in the script format.

One file a game: the setup line, then one line a press as presses arrive, and when the game is over
the closing `{"state": ...}` line that `spit-arcade replay` checks its replay against.

Surviving the bar:

- Every line is flushed to the operating system at once (a crash of the program loses nothing) and
  synced to the card (`fsync`) whenever `sync_every_s` (0.5 s) has passed since the last sync, at
  every round's end and at the game's end. The screen's games hand the sync to the store's writer
  thread (`syncer`: the frame loop never waits on the card); the others sync where they are.
  `tick()` syncs what is waiting once its time has come: the frame loop calls it so a press followed
  by a lull is on the card within 0.5 s too. A power cut loses at most the last half second of presses.
- A journal appears under its name only with its setup line in it: the file is written unnamed
  (`O_TMPFILE`) and then linked to its name, or where the file system cannot, written under a
  temporary name (.NAME.jsonl.XXXXXXXX.new, never read as a journal) and linked or renamed to its
  own. A kill at any moment leaves no journal or one that replays, never an empty one; a temporary
  name a kill left is taken away by the next game's housekeeping (`_remove_strays`).
- A power cut can cut the last line in two. `read_journal` gives the complete lines and says whether
  a torn tail was dropped; `newest_unfinished` finds the game a power cut interrupted.
- Journals are named, ordered and pruned by the boot and sequence number the operator's store gives
  each game (`journal_path`, `journals`), never by the wall clock: a cabinet has no real-time clock.
- Journals never fill the disk: opening a new one starts a background job that deletes the oldest
  journals while the directory holds more than its budget (finished games first, then unfinished
  ones; never the one being written). The budget is `max_dir_bytes`, and never more than the
  journals have now plus the partition's free space less `store_reserve` (a tenth of the
  partition, kept for the operator's store: a full state partition never happens by design).

A press is written with the time the game applied it, so a replay, which sorts by `t` (equal `t`:
file order), applies presses in the order the live game did. That is its edge time where the match
put it in its place by rolling back (`exact=True`: the line's `t` may then be before the last
line's); a press the core applied late, at the last time, is written at that time with its edge
time kept as `edge_t` (readers ignore keys they don't know).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import secrets
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO

from appliance.operator import fsyncs

SYNC_EVERY_S = 0.5  # the most a power cut may lose of a game being played
Syncer = Callable[[Callable[[], None]], None]  # runs a sync on another thread (the store's writer: Writer.call)
MAX_DIR_BYTES = 256 * 1024 * 1024  # ~3,000 games of ~80 KB; a Pi's card holds gigabytes
MIB = 1024 * 1024
SUFFIX = ".jsonl"
TEMPORARY = ".new"  # a journal being started under a temporary name: .NAME.jsonl.XXXXXXXX.new
_ORDERED = re.compile(r"boot(\d+)-seq(\d+)-")
_TAIL_BYTES = 16 * 1024  # a closing state line is 1-2 KB: look this far back for it


def default_journal_dir() -> Path:
    """$SPIT_ARCADE_JOURNALS, else the user's data directory: ~/.local/share/spit-arcade/journals."""
    override = os.environ.get("SPIT_ARCADE_JOURNALS")
    if override:
        return Path(override)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "spit-arcade" / "journals"


def journal_dir(configured: str = "") -> Path:
    """Where games are journalled: the settings' `journal_dir` (with ~ expanded), else the default."""
    return Path(configured).expanduser() if configured else default_journal_dir()


def journal_path(directory: Path, seed: int, now: float | None = None, order: tuple[int, int] | None = None) -> Path:
    """A new file name (never reused). With `order`, the boot and sequence number the operator's store
    gave the game (`Office.stamp`): boot12-seq40-20261121-203015-seed7.jsonl, ordered by them, never by
    the clock (the date is for the reader). Without (no store that counts boots): the name of the
    release before, 20261121-203015-seed7.jsonl, which sorts by the clock."""
    date = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    stem = f"{date}-seed{seed}" if order is None else f"boot{order[0]}-seq{order[1]}-{date}-seed{seed}"
    path = directory / f"{stem}{SUFFIX}"
    n = 1
    while path.exists():
        n += 1
        path = directory / f"{stem}-{n}{SUFFIX}"
    return path


def journal_order(name: str) -> tuple[int, int] | None:
    """The boot and sequence number in a journal's name (`journal_path` with `order`); None for a
    name without them (the release before's, or any other)."""
    found = _ORDERED.match(name)
    return None if found is None else (int(found[1]), int(found[2]))


class Journal:
    """One game's journal, open for writing.

    `clock` (seconds, monotonic) decides when a sync is due; tests pass a fake one. `max_dir_bytes`
    bounds the directory the journal is written in (None: no bound).
    """

    pruner: threading.Thread | None  # the background job keeping the directory within its bound

    def __init__(
        self,
        path: Path | str,
        setup: dict[str, Any],
        *,
        clock: Callable[[], float] = time.monotonic,
        sync_every_s: float = SYNC_EVERY_S,
        max_dir_bytes: int | None = MAX_DIR_BYTES,
        syncer: Syncer | None = None,
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = _create_with(self.path, _line({"setup": setup}).encode("utf-8"))
        self._open(os.fdopen(fd, "a", encoding="utf-8"), clock, sync_every_s, syncer)
        self._unsynced = True
        self.sync()  # (synced where it always was: on the syncer's thread when there is one)
        directory = self.path.parent
        self._run(lambda: _sync_directory(directory))  # the new file's name survives a power cut too
        # Keeping the directory within its bound reads every journal's size: a background job, so
        # that thousands of old games cost the game's start nothing.
        if max_dir_bytes is not None:
            self.pruner = threading.Thread(
                target=_prune_quietly, args=(self.path.parent, max_dir_bytes, self.path), name="journal-prune"
            )
            self.pruner.daemon = True
            self.pruner.start()

    def _open(self, handle: TextIO, clock: Callable[[], float], sync_every_s: float, syncer: Syncer | None) -> None:
        self._clock = clock
        self._syncer = syncer
        self.sync_every_s = sync_every_s
        self.syncs = 0  # fsyncs made (the bench and the tests count them)
        self._file: TextIO | None = handle
        self.last_t = 0.0
        self._unsynced = False
        self._synced_at = clock()
        self.pruner = None

    @classmethod
    def reopen(
        cls, path: Path | str, *, clock: Callable[[], float] = time.monotonic, sync_every_s: float = SYNC_EVERY_S,
        syncer: Syncer | None = None,
    ) -> Journal:
        """An unfinished journal, open to go on writing (a game resumed after a crash or a power
        cut). A torn tail is cut off first, so the next line starts on a line of its own; `last_t`
        is where the journal left off. ValueError if it has no setup line or is finished."""
        journal = cls.__new__(cls)
        journal.path = Path(path)
        data = journal.path.read_bytes()
        lines, torn = split_journal(data)
        values = [_loads(line) for line in lines]
        if not values or not (isinstance(values[0], dict) and isinstance(values[0].get("setup"), dict)):
            raise ValueError(f"journal {journal.path} has no setup line")
        if len(values) > 1 and _closing_line(values[-1]):
            raise ValueError(f"journal {journal.path} is finished")
        if torn:  # the complete lines are the first len(lines) of the file's newline-separated pieces
            os.truncate(journal.path, sum(len(piece) + 1 for piece in data.split(b"\n")[: len(lines)]))
        journal._open(open(journal.path, "a", encoding="utf-8"), clock, sync_every_s, syncer)  # noqa: SIM115 (held open)
        times = [v["t"] for v in values if isinstance(v, dict) and isinstance(v.get("t"), int | float)]
        journal.last_t = round(float(max(times, default=0.0)), 6)
        journal.sync()
        return journal

    def record(self, t: float, player: int, control: str, *, exact: bool = False, **extra: Any) -> float:
        """Write one press; returns the `t` written (the time the game will apply it at): `t`, or the
        last line's time if that is later, unless `exact` (the match rolled back to apply it at `t`)."""
        applied = round(float(t) if exact else max(float(t), self.last_t), 6)
        line: dict[str, Any] = {"t": applied, "player": player, "press": control}
        if applied != round(float(t), 6):
            line["edge_t"] = round(float(t), 6)
        line.update(extra)
        self._write(line)
        self.last_t = max(self.last_t, applied)
        self.tick()
        return applied

    def record_time(self, t: float) -> float:
        """Write a time line: passing time decided something at `t` (a table slap's window closed)."""
        applied = round(max(float(t), self.last_t), 6)
        self._write({"t": applied})
        self.last_t = applied
        self.tick()
        return applied

    def tick(self) -> bool:
        """Sync what is written if `sync_every_s` has passed since the last sync; True if it synced.
        Cheap when nothing is waiting: call it every frame."""
        if self._unsynced and self._clock() - self._synced_at >= self.sync_every_s:
            self.sync()
            return True
        return False

    def sync(self) -> None:
        """Make what is written survive a power cut (due by time, at a round's end, at the game's end):
        handed to the operating system now, synced to the card here or, with a `syncer`, on its thread."""
        if self._file is not None:
            self._file.flush()
            fd = self._file.fileno()
            self._run(lambda: fsyncs.fsync(fd))
            self.syncs += 1
            self._unsynced = False
            self._synced_at = self._clock()

    def _run(self, job: Callable[[], None]) -> None:
        if self._syncer is None:
            job()
        else:
            self._syncer(job)

    def finish(self, state: dict[str, Any], **extra: Any) -> None:
        """Close the journal with the game's final state: a finished game, or (`abandoned=True`) one
        left at the title, which a restarted cabinet must not resume. A replay checks either."""
        self._write({"state": state, **extra})
        self.close()

    def close(self) -> None:
        if self._file is not None:
            handle, self._file = self._file, None
            handle.flush()
            self.syncs += 1
            if self._syncer is None:
                fsyncs.fsync(handle.fileno())
                handle.close()
            else:  # synced and closed on the syncer's thread, after the syncs handed to it before
                def sync_and_close() -> None:
                    try:
                        fsyncs.fsync(handle.fileno())
                    finally:
                        handle.close()

                self._syncer(sync_and_close)

    def _write(self, value: dict[str, Any]) -> None:
        if self._file is None:
            raise ValueError(f"journal {self.path} is closed")
        self._file.write(_line(value))
        self._file.flush()
        self._unsynced = True

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False) + "\n"


def _create_with(path: Path, first: bytes) -> int:
    """A new file at `path` that appears under its name only with `first` in it, never replacing
    another (FileExistsError, as open's mode "x"): written unnamed and linked to its name, or where
    the file system cannot, written under a temporary name and linked (or renamed) to it. Returns a
    descriptor open for writing at its end. A kill at any moment leaves no file at `path` or one
    holding `first`; at most a temporary name, which `_remove_strays` takes away."""
    directory = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fd = _create_unnamed(path, directory, first)
        return fd if fd is not None else _create_named(path, directory, first)
    finally:
        os.close(directory)


def _create_unnamed(path: Path, directory: int, first: bytes) -> int | None:
    """`_create_with` by an unnamed file (O_TMPFILE) linked to its name through /proc/self/fd (linkat
    with AT_SYMLINK_FOLLOW, which needs no privilege; os.link makes that call only when given a
    directory's descriptor). None where either cannot be done here."""
    flag = getattr(os, "O_TMPFILE", None)
    try:
        if flag is None:
            raise OSError(errno.EOPNOTSUPP, "no O_TMPFILE here")
        fd = os.open(".", flag | os.O_WRONLY, 0o666, dir_fd=directory)
    except OSError as error:
        if error.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
            raise  # (no room, no permission: said as they are)
        _say_named(path.parent, error)  # a file system (or kernel) without unnamed files
        return None
    try:
        _write_all(fd, first)
        os.link(f"/proc/self/fd/{fd}", path.name, dst_dir_fd=directory, follow_symlinks=True)
    except FileExistsError:
        os.close(fd)
        raise
    except OSError as error:  # no /proc here: the file is dropped unnamed, and written again
        os.close(fd)
        _say_named(path.parent, error)
        return None
    except BaseException:
        os.close(fd)
        raise
    return fd


_said = threading.Event()  # that journals start under a temporary name: said once a process


def _say_named(directory: Path, why: OSError) -> None:
    if not _said.is_set():
        _said.set()
        print(f"spit-arcade: journals in {directory} start under a temporary name ({why})", file=sys.stderr)


def _create_named(path: Path, directory: int, first: bytes, tries: int = 3) -> int:
    """`_create_with` by a temporary name, held locked (flock) until the journal is closed, so that
    another game's housekeeping takes away only the names a kill left (`_remove_strays`)."""
    for attempt in range(tries):
        temporary = f".{path.name}.{secrets.token_hex(4)}{TEMPORARY}"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=directory)
        try:
            with contextlib.suppress(OSError):  # (a file system without locks: its strays stay)
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            _write_all(fd, first)
            try:
                os.link(temporary, path.name, src_dir_fd=directory, dst_dir_fd=directory, follow_symlinks=False)
            except (FileExistsError, FileNotFoundError):
                raise
            except OSError:  # a file system without hard links: renamed, unless that would replace one
                if os.path.lexists(path):
                    raise FileExistsError(errno.EEXIST, "File exists", str(path)) from None
                os.rename(temporary, path.name, src_dir_fd=directory, dst_dir_fd=directory)
            else:
                with contextlib.suppress(OSError):  # (a stray, locked for as long as the journal is open)
                    os.unlink(temporary, dir_fd=directory)
            return fd
        except FileNotFoundError:  # housekeeping took the name before it was locked: once more
            os.close(fd)
            if attempt == tries - 1:
                raise
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=directory)
            raise
    raise AssertionError("unreachable")


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


def _remove_strays(directory: Path) -> None:
    """Take away the temporary names (`_create_named`) that a kill left: those no process holds."""
    for stray in directory.glob(f".*{SUFFIX}.*{TEMPORARY}"):
        try:
            fd = os.open(stray, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            stray.unlink(missing_ok=True)
        except OSError:  # held: a journal being started (or one open) in this or another process
            pass
        finally:
            os.close(fd)


def store_reserve(partition_bytes: int) -> int:
    """The room kept free on a partition for the operator's store: a tenth of it, and at least 16 MiB
    (at most a quarter of a small one)."""
    return max(partition_bytes // 10, min(16 * MIB, partition_bytes // 4))


def journal_budget(directory: Path, max_bytes: int, journals_bytes: int) -> int:
    """What the journals in `directory` may take: `max_bytes`, and no more than they take now
    (`journals_bytes`) plus the partition's free space less the room kept for the store."""
    try:
        found = os.statvfs(directory)
    except OSError:
        return max_bytes
    free, total = found.f_bavail * found.f_frsize, found.f_blocks * found.f_frsize
    return max(0, min(max_bytes, journals_bytes + free - store_reserve(total)))


def _prune_quietly(directory: Path, max_bytes: int, keep: Path) -> None:
    with contextlib.suppress(OSError):  # housekeeping: it never stops a game
        _remove_strays(directory)
        prune_journals(directory, max_bytes, keep=keep, budget=True)


def _sync_directory(directory: Path) -> None:
    with contextlib.suppress(OSError):  # not every file system lets a directory be opened and synced
        fd = os.open(directory, os.O_RDONLY)
        try:
            fsyncs.fsync(fd)
        finally:
            os.close(fd)


def _loads(line: str) -> Any:
    """A line's JSON value; None where it is not JSON (or JSON nested too deeply to read)."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def _is_torn(line: str) -> bool:
    """Whether a trailing line is the torn tail of a power cut: not JSON. A line nested too deeply
    to read is not torn (the appliance never writes one): it is kept, for the reader to name."""
    try:
        json.loads(line)
    except ValueError:
        return True
    except RecursionError:
        return False
    return False


def split_journal(data: bytes) -> tuple[list[str], bool]:
    """The complete lines of a journal's bytes, and whether a torn tail was dropped.

    A power cut can leave the last line cut short, or the file's end as a run of zero bytes that
    never got written: everything after the last newline, and any trailing lines that are not JSON,
    is that torn tail. Lines before it are returned as they are (a bad line in the middle is not a
    power cut: the script reader reports it with its line number).
    """
    lines = data.decode("utf-8", errors="replace").split("\n")
    torn = lines.pop() != ""  # the text after the last newline: "" when the file ends in one
    while lines and lines[-1].strip() and _is_torn(lines[-1]):
        lines.pop()
        torn = True
    while lines and not lines[-1].strip():
        lines.pop()
    return lines, torn


def read_journal(path: Path | str) -> tuple[list[str], bool]:
    """The complete lines of the journal at `path` and whether a torn last line was dropped
    (see `split_journal`). OSError if it cannot be read."""
    return split_journal(Path(path).read_bytes())


def _closing_line(value: Any) -> bool:
    return isinstance(value, dict) and "state" in value and "press" not in value


def is_finished(path: Path) -> bool:
    """Whether the journal ends in its game's closing `{"state": ...}` line (read from its tail)."""
    with open(path, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        size = handle.tell()
        handle.seek(max(0, size - _TAIL_BYTES))
        tail = handle.read()
    lines, _ = split_journal(tail)
    if not lines:
        return False
    try:
        return _closing_line(json.loads(lines[-1]))
    except (ValueError, RecursionError):
        return False


def _scan(directory: Path) -> list[tuple[Path, int]]:
    """The journals in `directory` with their sizes, oldest first: by the boot and sequence number in
    their names (a clock set back changes nothing), after every journal named without them (those of
    the release before, ordered as it did: by the time each was last written, names breaking ties).
    One stat a file."""
    found: list[tuple[tuple[int, int, int, float], str, int]] = []
    with contextlib.suppress(OSError), os.scandir(directory) as entries:
        for entry in entries:
            if entry.name.endswith(SUFFIX):
                with contextlib.suppress(OSError):
                    info = entry.stat(follow_symlinks=False)
                    if stat.S_ISREG(info.st_mode):
                        order = journal_order(entry.name)
                        key = (0, 0, 0, info.st_mtime) if order is None else (1, *order, 0.0)
                        found.append((key, entry.name, info.st_size))
    return [(directory / name, size) for _, name, size in sorted(found)]


def journals(directory: Path) -> list[Path]:
    """The journals in `directory`, oldest first (`_scan`: by boot and sequence number, never the clock)."""
    return [path for path, _ in _scan(directory)]


def newest_unfinished(directory: Path) -> Path | None:
    """The newest journal with a setup line but no closing state line: the game a crash or a power
    cut interrupted (or one left unfinished at the title). None if every game finished."""
    for path in reversed(journals(directory)):
        try:
            if is_finished(path):
                continue
            with open(path, "rb") as handle:
                first = handle.readline()
        except OSError:
            continue
        try:
            value = json.loads(first) if first.endswith(b"\n") else None
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict) and isinstance(value.get("setup"), dict):
            return path
    return None


def prune_journals(directory: Path, max_bytes: int, keep: Path | Iterable[Path] = (),
                   budget: bool = False) -> list[Path]:
    """Delete the oldest journals until `directory`'s journals take at most `max_bytes` (with
    `budget`, no more than the partition's free space allows: `journal_budget`): finished games
    first, then unfinished ones; never a path in `keep` (the journal being written). Returns the
    paths deleted."""
    kept = {Path(keep)} if isinstance(keep, Path | str) else {Path(p) for p in keep}
    sizes = dict(_scan(directory))
    total = sum(sizes.values())
    if budget:
        max_bytes = journal_budget(directory, max_bytes, total)
    if total <= max_bytes:
        return []
    deleted: list[Path] = []
    unfinished: list[Path] = []
    for path in sizes:  # oldest first; a finished game is read only until enough is deleted
        if total <= max_bytes:
            break
        if path in kept:
            continue
        try:
            finished = is_finished(path)
        except OSError:
            finished = False
        if not finished:
            unfinished.append(path)
            continue
        total -= _delete(path, sizes[path], deleted)
    for path in unfinished:
        if total <= max_bytes:
            break
        total -= _delete(path, sizes[path], deleted)
    return deleted


def _delete(path: Path, size: int, deleted: list[Path]) -> int:
    """Delete one journal; the bytes it freed (0 if it could not be deleted: the next one goes)."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError:
        return 0
    deleted.append(path)
    return size
