"""A small state partition (a tmpfs with size=, mounted by the test as root): the journals' budget
keeps room for the store however many games are played, and a partition filled all the same
holds the coins in memory, says so, and writes them when there is room again."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmpfs import small_tmpfs

from appliance.journal import Journal, store_reserve
from appliance.operator.office import Office
from appliance.operator.store import GameRow

SIZE_MIB = 8


@pytest.fixture
def partition(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of SIZE_MIB mounted at tmp_path/state (root only; in CI it must work)."""
    with small_tmpfs(tmp_path / "state", SIZE_MIB, "the state partition") as where:
        yield where


def free(path: Path) -> int:
    found = os.statvfs(path)
    return found.f_bavail * found.f_frsize


def a_game(path: Path, presses: int) -> tuple[int, int]:
    """A journal of `presses` press lines, finished: the partition's free space once the pruning its
    start began is done (before the game is played), and the journal's size."""
    journal = Journal(path, {"seed": 1})
    if journal.pruner is not None:
        journal.pruner.join()
    room = free(path.parent)
    for n in range(presses):
        journal.record(n * 0.05, 1 + n % 2, "spit", source="gpio")
    journal.finish({"phase": "over"})
    return room, path.stat().st_size


def test_the_journals_never_take_the_room_kept_for_the_store(partition: Path) -> None:
    office = Office.open(partition / "config.toml")
    journals = partition / "journals"
    reserve = store_reserve(SIZE_MIB * 1024 * 1024)
    size = 0
    for game in range(60):  # ~7 MB of journals in all: more than the partition has room for
        room, size = a_game(journals / f"game{game:03d}.jsonl", 2_000)
        assert room >= reserve - 4096  # each game starts with the store's room free (less its setup line)
        office.coin("gpio")
        office.add_game(GameRow("classic", 2, 120.0, 1, False))
        assert office.drain(30) and office.held == 0, office.failure
    assert 60 * size > SIZE_MIB * 1024 * 1024 - reserve  # (the games played would not have fitted)
    assert (journals / "game059.jsonl").exists() and not (journals / "game000.jsonl").exists()
    assert office.store.count("coins") == 60 and office.store.count("games") == 60
    office.close()


def test_a_full_partition_holds_the_coins_in_memory_says_so_and_writes_them_later(partition: Path) -> None:
    office = Office.open(partition / "config.toml")
    office.coin("gpio")
    assert office.drain(30) and office.store.credits()[0] == 1
    filler = partition / "filler"
    with open(filler, "wb") as handle, contextlib.suppress(OSError):
        while True:  # fill it to the last byte, as a runaway log would
            handle.write(b"\0" * 65536)
            handle.flush()
    with contextlib.suppress(OSError), open(partition / "filler2", "wb") as more:
        while True:
            more.write(b"\0")
            more.flush()
    assert free(partition) == 0
    for _ in range(5):
        office.coin("gpio")  # the game plays on: each coin is its credit at once
    assert office.drain(30)
    assert office.credits == 6 and office.held >= 1 and office.failure is not None
    assert any("held in memory" in notice for notice in office.notices)  # the service menu's line, the title's
    filler.unlink()
    (partition / "filler2").unlink()
    office.coin("gpio")  # room again: the held coins go first, in order
    assert office.drain(30)
    assert office.held == 0 and office.failure is None and office.store.credits()[0] == office.credits == 7
    assert office.store.count("coins") == 7
    office.close()
    again = Office.open(partition / "config.toml")
    assert again.credits == 7  # nothing lost across a restart either
    again.close()
