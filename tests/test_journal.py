"""The journal: written as presses arrive, never going back in time, closed with the final state;
synced often enough that a power cut loses at most half a second; readable after a power cut
tore its last line; never filling the disk."""

from __future__ import annotations

import errno
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance import journal as journal_module
from appliance.journal import (
    Journal,
    default_journal_dir,
    is_finished,
    journal_order,
    journal_path,
    journals,
    newest_unfinished,
    prune_journals,
    read_journal,
    split_journal,
)
from appliance.match import setup_line
from appliance.scripting import parse_script, run


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_each_press_is_on_disk_as_soon_as_it_is_recorded(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    journal = Journal(path, {"variant": "classic", "seed": 4})
    journal.record(0.25, 1, "spit", source="keyboard")
    lines = path.read_text().splitlines()  # read while the journal is still open
    assert json.loads(lines[0]) == {"setup": {"variant": "classic", "seed": 4}}
    assert json.loads(lines[1]) == {"t": 0.25, "player": 1, "press": "spit", "source": "keyboard"}
    journal.close()


def test_a_late_edge_is_written_at_the_time_the_game_applies_it(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    with Journal(path, {"variant": "classic", "seed": 4}) as journal:
        assert journal.record(1.0, 1, "pile1") == 1.0
        assert journal.record(0.998, 2, "left") == 1.0
    late = json.loads(path.read_text().splitlines()[2])
    assert late == {"t": 1.0, "player": 2, "press": "left", "edge_t": 0.998}


def test_finish_writes_the_state_and_closes(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    journal = Journal(path, {"variant": "classic", "seed": 4})
    journal.finish({"phase": "over"})
    assert json.loads(path.read_text().splitlines()[-1]) == {"state": {"phase": "over"}}
    with pytest.raises(ValueError, match="closed"):
        journal.record(2.0, 1, "spit")


def test_journal_files_are_never_overwritten(tmp_path: Path) -> None:
    first = journal_path(tmp_path, 3, now=0)
    Journal(first, {"seed": 3}).close()
    second = journal_path(tmp_path, 3, now=0)
    assert second != first and second.name.endswith("-seed3-2.jsonl")
    with pytest.raises(FileExistsError):
        Journal(first, {"seed": 3})


def test_the_journal_directory_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SPIT_ARCADE_JOURNALS", str(tmp_path / "j"))
    assert default_journal_dir() == tmp_path / "j"
    monkeypatch.delenv("SPIT_ARCADE_JOURNALS")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_journal_dir() == tmp_path / "data" / "spit-arcade" / "journals"


# --- syncing: a power cut loses at most the last half second -------------------------------------


class Disk:
    """Stands in for os.fsync: what of each file would survive a power cut (its size at its last fsync)."""

    def __init__(self) -> None:
        self.durable: dict[int, int] = {}
        self.calls = 0

    def fsync(self, fd: int) -> None:
        self.calls += 1
        self.durable[fd] = os.fstat(fd).st_size


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Disk:
    fake = Disk()
    monkeypatch.setattr(journal_module.os, "fsync", fake.fsync)
    return fake


@settings(max_examples=60, deadline=None)
@given(
    gaps=st.lists(
        st.tuples(st.floats(0.0, 2.0), st.booleans()),  # time to the next frame; a press in it or not
        min_size=1,
        max_size=120,
    )
)
def test_nothing_older_than_half_a_second_is_left_unsynced(
    tmp_path_factory: pytest.TempPathFactory, gaps: list[tuple[float, bool]]
) -> None:
    fake = Disk()
    with pytest.MonkeyPatch.context() as patch:  # (hypothesis: no function-scoped fixture)
        patch.setattr(journal_module.os, "fsync", fake.fsync)
        clock = FakeClock()
        path = tmp_path_factory.mktemp("j") / "g.jsonl"
        journal = Journal(path, {"seed": 1}, clock=clock, max_dir_bytes=None)
        fd = journal._file.fileno()  # type: ignore[union-attr]
        written: list[tuple[float, int]] = []  # (time written, file size once written)
        for gap, press in gaps:
            clock.now += gap
            if press:
                journal.record(clock.now, 1, "spit")
                written.append((clock.now, path.stat().st_size))
            journal.tick()  # the frame loop
            due = [size for at, size in written if at <= clock.now - journal.sync_every_s]
            if due:
                assert fake.durable[fd] >= max(due), "a press older than half a second is not on the card"
        journal.close()


def test_a_busy_game_syncs_about_twice_a_second_not_on_every_press(tmp_path: Path, disk: Disk) -> None:
    clock = FakeClock()
    journal = Journal(tmp_path / "g.jsonl", {"seed": 1}, clock=clock)
    for _ in range(1_000):  # ten seconds of presses every 10 ms
        clock.now += 0.01
        journal.record(clock.now, 1, "spit")
    journal.close()
    assert 19 <= disk.calls <= 24  # setup, ~20 by time, close


def test_a_press_before_a_lull_is_synced_by_the_next_frame_after_half_a_second(tmp_path: Path, disk: Disk) -> None:
    clock = FakeClock()
    journal = Journal(tmp_path / "g.jsonl", {"seed": 1}, clock=clock)
    clock.now = 0.1
    journal.record(0.1, 1, "pile1")
    assert not journal.tick()  # too soon after the setup's sync
    clock.now = 0.5
    assert journal.tick()
    assert not journal.tick()  # nothing waiting
    clock.now = 5.0
    assert not journal.tick()
    journal.close()


# --- reading a journal a power cut tore ----------------------------------------------------------


def _journal_bytes(presses: int) -> bytes:
    lines = [json.dumps({"setup": {"variant": "classic", "seed": 7}})]
    lines += [json.dumps({"t": i / 10, "player": 1 + i % 2, "press": "spit", "source": "gpio"}) for i in range(presses)]
    return ("\n".join(lines) + "\n").encode()


@settings(max_examples=300, deadline=None)
@given(presses=st.integers(0, 12), cut=st.floats(0.0, 1.0), zeros=st.integers(0, 600), newline=st.booleans())
def test_a_journal_cut_anywhere_gives_its_complete_lines(presses: int, cut: float, zeros: int, newline: bool) -> None:
    whole = _journal_bytes(presses)
    original = whole.decode().splitlines()
    at = int(len(whole) * cut)
    # A power cut: the end cut short, maybe a block of never-written zeros, maybe a newline after them.
    data = whole[:at] + b"\0" * zeros + (b"\n" if newline else b"")
    lines, torn = split_journal(data)
    complete = whole[:at].decode().split("\n")[:-1]  # the lines whose newline made it
    assert lines[: len(complete)] == complete
    assert lines == original[: len(lines)] and len(lines) <= len(complete) + 1  # nothing made up
    assert all(json.loads(line) for line in lines)
    assert torn == (data.rstrip(b"\n") != "\n".join(lines).encode())  # torn: something was dropped


def test_read_journal_drops_only_the_torn_tail(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(_journal_bytes(3) + b'{"t": 0.4, "pla')
    lines, torn = read_journal(path)
    assert torn and len(lines) == 4 and json.loads(lines[-1])["t"] == 0.2
    path.write_bytes(_journal_bytes(3))
    assert read_journal(path) == (_journal_bytes(3).decode().splitlines(), False)


def test_a_bad_line_in_the_middle_is_kept_for_the_reader_to_report(tmp_path: Path) -> None:
    data = _journal_bytes(1) + b"garbage\n" + _journal_bytes(1).split(b"\n", 1)[1]
    lines, torn = split_journal(data)
    assert "garbage" in lines and not torn


# --- finding the interrupted game, bounding the directory ----------------------------------------


def _write(path: Path, finished: bool, size: int = 0, mtime: float = 0.0) -> Path:
    text = json.dumps({"setup": {"seed": 1}}) + "\n"
    text += json.dumps({"t": 0.1, "player": 1, "press": "spit", "pad": "x" * size}) + "\n"
    if finished:
        text += json.dumps({"state": {"phase": "over"}}) + "\n"
    path.write_text(text)
    os.utime(path, (mtime, mtime))
    return path


def test_the_newest_unfinished_journal_is_found(tmp_path: Path) -> None:
    assert newest_unfinished(tmp_path) is None
    old = _write(tmp_path / "a.jsonl", finished=False, mtime=100)
    _write(tmp_path / "b.jsonl", finished=True, mtime=200)
    assert newest_unfinished(tmp_path) == old
    torn = _write(tmp_path / "c.jsonl", finished=False, mtime=300)
    with open(torn, "ab") as handle:
        handle.write(b'{"state": {"pha')  # the power cut came while the state line was written
    assert newest_unfinished(tmp_path) == torn
    (tmp_path / "d.jsonl").write_bytes(b"\0\0\0")  # created, never written: nothing to resume
    os.utime(tmp_path / "d.jsonl", (400, 400))
    (tmp_path / "notes.txt").write_text("not a journal")
    assert newest_unfinished(tmp_path) == torn
    assert not is_finished(torn) and is_finished(tmp_path / "b.jsonl")


def test_the_oldest_finished_games_go_first_and_never_the_open_one(tmp_path: Path) -> None:
    unfinished_old = _write(tmp_path / "0.jsonl", finished=False, size=1000, mtime=10)
    finished = [_write(tmp_path / f"{i}.jsonl", finished=True, size=1000, mtime=10 + i) for i in range(1, 5)]
    current = _write(tmp_path / "9.jsonl", finished=False, size=1000, mtime=5)  # even if its clock is off
    sizes = {p: p.stat().st_size for p in journals(tmp_path)}
    budget = sum(sizes.values()) - 2 * sizes[finished[0]]
    deleted = prune_journals(tmp_path, budget, keep=current)
    assert deleted == finished[:2]
    assert sum(p.stat().st_size for p in journals(tmp_path)) <= budget
    # Only finished games are left to go before the abandoned one; then the abandoned one; never the current one.
    deleted = prune_journals(tmp_path, 0, keep=current)
    assert deleted == [*finished[2:], unfinished_old]
    assert journals(tmp_path) == [current]


def test_opening_a_journal_keeps_the_directory_within_its_bound(tmp_path: Path) -> None:
    for i in range(20):
        _write(tmp_path / f"{i:02}.jsonl", finished=True, size=1000, mtime=i)
    journal = Journal(tmp_path / "new.jsonl", {"seed": 1}, max_dir_bytes=5_000)
    assert journal.pruner is not None
    journal.pruner.join(timeout=30)  # a background job: wait for it, with a bound
    assert not journal.pruner.is_alive()
    left = journals(tmp_path)
    assert sum(p.stat().st_size for p in left) <= 5_000
    assert journal.path in left and tmp_path / "19.jsonl" in left and tmp_path / "00.jsonl" not in left
    journal.close()


# --- going on with an unfinished journal (crash resume) --------------------------------------------


def test_a_torn_journal_is_reopened_on_a_line_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    with Journal(path, {"seed": 3}, max_dir_bytes=None) as journal:
        journal.record(0.5, 1, "spit")
        journal.record_time(0.75)
    with open(path, "ab") as handle:
        handle.write(b'{"t": 0.9, "player": 2, "pre')  # the power cut
    journal = Journal.reopen(path)
    assert journal.last_t == 0.75
    assert journal.record(0.7, 2, "left") == 0.75  # never back in time across the restart
    journal.finish({"phase": "over"})
    lines, torn = read_journal(path)
    assert not torn and [json.loads(line) for line in lines] == [
        {"setup": {"seed": 3}},
        {"t": 0.5, "player": 1, "press": "spit"},
        {"t": 0.75},
        {"t": 0.75, "player": 2, "press": "left", "edge_t": 0.7},
        {"state": {"phase": "over"}},
    ]


def test_only_an_unfinished_journal_with_a_setup_can_be_reopened(tmp_path: Path) -> None:
    finished = tmp_path / "done.jsonl"
    Journal(finished, {"seed": 1}, max_dir_bytes=None).finish({"phase": "over"})
    with pytest.raises(ValueError, match="finished"):
        Journal.reopen(finished)
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b'{"setup": {"se')
    with pytest.raises(ValueError, match="no setup"):
        Journal.reopen(empty)


def test_with_a_syncer_the_journal_syncs_on_its_thread_and_never_on_the_callers(tmp_path: Path) -> None:
    from appliance.operator import fsyncs
    from appliance.operator.store import Store
    from appliance.operator.writer import Writer

    writer = Writer(Store.open(None), name="journal-syncer-test")
    now = [0.0]
    before = fsyncs.counts()
    journal = Journal(tmp_path / "g.jsonl", {"seed": 1}, clock=lambda: now[0], max_dir_bytes=None, syncer=writer.call)
    journal.record(0.1, 1, "spit")
    now[0] = 0.6  # half a second on: a sync is due
    assert journal.tick() and journal.syncs == 2
    journal.finish({"over": True})
    assert writer.drain(10)
    after = fsyncs.counts()
    assert after.get("MainThread", 0) == before.get("MainThread", 0)  # the caller's thread synced nothing
    assert after["journal-syncer-test"] - before.get("journal-syncer-test", 0) == 4  # 3 syncs and the directory
    assert read_journal(tmp_path / "g.jsonl")[0][-1] == '{"state": {"over": true}}'
    writer.stop()


# --- order by the store's boot and sequence number, never the clock ---------------------------------


def test_journals_are_named_by_boot_and_sequence_number_and_old_names_still_read(tmp_path: Path) -> None:
    named = journal_path(tmp_path, 7, now=0, order=(12, 40))
    assert named.name.startswith("boot12-seq40-") and named.name.endswith("-seed7.jsonl")
    assert journal_order(named.name) == (12, 40)
    assert journal_order(journal_path(tmp_path, 7, now=0).name) is None  # the release before's name


def test_a_clock_set_back_neither_reorders_nor_prunes_the_newest_games(tmp_path: Path) -> None:
    # The release before's journals, then boots 2 and 10 (boot 10 after the clock was set back a year:
    # its files have the oldest times of all), then boot 9 (sorting "boot10" before "boot9" as text is wrong).
    legacy = [_write(tmp_path / f"2026111{i}-200000-seed1.jsonl", finished=True, size=1000, mtime=2000 + i)
              for i in range(2)]
    ordered = [_write(tmp_path / f"boot{b}-seq{s}-20261120-200000-seed1.jsonl", finished=True, size=1000,
                      mtime=mtime) for b, s, mtime in ((2, 3, 3000), (2, 11, 3001), (9, 1, 500), (10, 2, 10))]
    newest = _write(tmp_path / "boot10-seq5-20251120-200000-seed1.jsonl", finished=False, size=1000, mtime=5)
    expected = [*legacy, ordered[0], ordered[1], ordered[2], ordered[3], newest]
    assert journals(tmp_path) == expected
    assert newest_unfinished(tmp_path) == newest
    budget = sum(p.stat().st_size for p in expected[4:])
    deleted = prune_journals(tmp_path, budget, keep=newest)
    assert deleted == expected[:4]  # the oldest by boot and sequence, the release before's first
    assert journals(tmp_path) == expected[4:]
    assert prune_journals(tmp_path, budget, keep=newest) == []  # nothing pruned again


# --- a journal's start, killed at any moment -------------------------------------------------------

KILLED = 137  # a child's exit status when it died at the step it was told to


def _start_killed_at(step: int, directory: Path, seed: int) -> int:
    """In a child process, start a journal and die after the `step`-th call into C it makes (every
    system call is one): os._exit, which runs no `finally` and no cleanup, as kill -9. The child's
    exit status: KILLED, or 0 when the journal was started in fewer steps."""
    pid = os.fork()
    if pid == 0:  # (the child: nothing it does returns to pytest)
        status = 1
        try:
            steps = 0

            def die_at_step(frame: object, event: str, arg: object) -> None:
                nonlocal steps
                if event == "c_return":
                    steps += 1
                    if steps == step:
                        os._exit(KILLED)

            sys.setprofile(die_at_step)
            Journal(journal_path(directory, seed), setup_line(seed), max_dir_bytes=None)
            sys.setprofile(None)
            status = 0
        finally:
            os._exit(status)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _replays(path: Path) -> bool:
    try:
        lines, _ = read_journal(path)
        run(parse_script(lines))
    except Exception:
        return False
    return True


WAYS = ["unnamed (O_TMPFILE)", "no O_TMPFILE", "no /proc"]


def _take_way(way: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Journals started the way named: where the file system has no unnamed files, or no /proc to
    link one through, under a temporary name."""
    said = threading.Event()
    said.set()  # (quiet: and a child forked while another thread holds stderr's lock never prints)
    monkeypatch.setattr(journal_module, "_said", said)
    if way == "no O_TMPFILE":
        monkeypatch.delattr(os, "O_TMPFILE", raising=False)
    elif way == "no /proc":
        link = os.link

        def no_proc(src: str, dst: str, **kwargs: Any) -> None:
            if str(src).startswith("/proc/"):
                raise FileNotFoundError(errno.ENOENT, "No such file or directory", src)
            link(src, dst, **kwargs)

        monkeypatch.setattr(os, "link", no_proc)


@pytest.mark.parametrize("way", WAYS)
def test_a_kill_at_any_moment_of_a_journals_start_leaves_no_journal_or_one_that_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    # (a kill -9 between creating the file and writing its setup line left an empty journal that no
    # replay can read: the kill -9 test's "line 1: empty script")
    _take_way(way, monkeypatch)
    seen: dict[str, int] = {"no journal": 0, "a journal that replays": 0, "a stray": 0}
    step = 0
    while True:
        step += 1
        directory = tmp_path / f"step{step}"
        directory.mkdir()
        status = _start_killed_at(step, directory, seed=step)
        assert status in (KILLED, 0), f"step {step}: the child failed ({status})"
        names = sorted(p.name for p in directory.iterdir())
        found = journals(directory)
        assert all(_replays(path) for path in found), f"killed at step {step}: {names}"
        seen["a journal that replays" if found else "no journal"] += 1
        strays = [name for name in names if not name.endswith(".jsonl")]
        seen["a stray"] += bool(strays)
        # the next game's housekeeping takes a stray away; the journals stay
        following = Journal(journal_path(directory, 0), setup_line(0), max_dir_bytes=10**9)
        assert following.pruner is not None
        following.pruner.join(timeout=30)
        following.close()
        assert sorted(p.name for p in directory.iterdir()) == sorted(p.name for p in [*found, following.path])
        if status == 0:  # the start ran to its end before the step came
            break
    assert seen["no journal"] > 0 and seen["a journal that replays"] > 1, seen
    assert (seen["a stray"] > 0) == (way != WAYS[0] or not _unnamed_files(tmp_path)), seen


def _unnamed_files(directory: Path) -> bool:
    try:
        os.close(os.open(directory, os.O_TMPFILE | os.O_WRONLY))
    except (AttributeError, OSError):
        return False
    return True


@pytest.mark.parametrize("way", WAYS)
def test_a_journal_never_replaces_another_whichever_way_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    _take_way(way, monkeypatch)
    path = journal_path(tmp_path, 3)
    path.write_text("another's\n")
    with pytest.raises(FileExistsError):
        Journal(path, {"seed": 3}, max_dir_bytes=None)
    assert [p.name for p in tmp_path.iterdir()] == [path.name] and path.read_text() == "another's\n"


def test_housekeeping_leaves_a_journal_being_started_under_a_temporary_name_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (an earlier game's housekeeping may still run as the next game's journal starts)
    _take_way("no O_TMPFILE", monkeypatch)
    link = os.link
    started: list[str] = []

    def housekeeping_then_link(src: str, dst: str, **kwargs: Any) -> None:
        journal_module._remove_strays(tmp_path)  # another thread's, at the worst moment
        started.extend(p.name for p in tmp_path.iterdir())
        link(src, dst, **kwargs)

    monkeypatch.setattr(os, "link", housekeeping_then_link)
    with Journal(tmp_path / "g.jsonl", {"seed": 1}, max_dir_bytes=None) as journal:
        assert read_journal(journal.path)[0] == ['{"setup": {"seed": 1}}']
    assert len(started) == 1 and started[0].startswith(".g.jsonl.") and started[0].endswith(".new")
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]


def test_journals_started_under_a_temporary_name_say_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # (the virtual cabinet's kill step looks for these words in the game's log: its sandbox must let
    # journals start unnamed)
    monkeypatch.delattr(os, "O_TMPFILE", raising=False)
    monkeypatch.setattr(journal_module, "_said", threading.Event())
    for seed in (1, 2):
        Journal(journal_path(tmp_path, seed), {"seed": seed}, max_dir_bytes=None).close()
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 1 and f"journals in {tmp_path} start under a temporary name" in said[0], said
