"""The audits exported to the operator's USB stick (a folder, or a small tmpfs mounted by the test
as root for a full and a read-only stick): the CSV `spit-arcade audits --csv` writes, named by
cabinet, boot and sequence number, with words for no stick, a full one and a read-only one."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmpfs import small_tmpfs

from appliance.operator import audits_cli, books
from appliance.operator.export import Export, cabinet_name, write_export
from appliance.operator.office import Office
from appliance.operator.store import GameRow, Stamp
from appliance.shared.usb_stick import STICK_ENV


def books_with_figures(tmp_path: Path) -> Office:
    office = Office.open(tmp_path / "config.toml")
    office.coin("gpio")
    office.coin("gpio")
    office.add_game(GameRow("classic", 2, 61.0, 1, False, (12.0,)))
    assert office.drain(10)
    return office


def exported(office: Office) -> Export:
    """Ask for an export and wait (bounded) for its answer."""
    answers: list[Export] = []
    got = threading.Event()
    office.export_audits(lambda found: (answers.append(found), got.set()))
    assert got.wait(10)
    return answers[0]


def test_the_stick_gets_the_same_csv_as_the_command_line_named_by_cabinet_boot_and_sequence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    office = books_with_figures(tmp_path)
    stick = tmp_path / "stick"
    stick.mkdir()
    monkeypatch.setenv(STICK_ENV, str(stick))
    first, second = exported(office), exported(office)
    assert first.outcome == second.outcome == "written" and first.path is not None and second.path is not None
    assert first.path.parent == stick / "spit-arcade"
    assert first.path.name == f"audits-{cabinet_name()}-boot1-seq4.csv"  # two coins, a game, then the export
    assert second.path.name == f"audits-{cabinet_name()}-boot1-seq5.csv"  # never one over another
    office.close()
    assert audits_cli.main(["--config", str(tmp_path / "config.toml"), "--csv", str(tmp_path / "cli.csv")]) == 0
    assert first.path.read_bytes() == (tmp_path / "cli.csv").read_bytes()
    assert b"totals,coins,2,2" in first.path.read_bytes()
    assert sorted(p.name for p in (stick / "spit-arcade").iterdir()) == [first.path.name, second.path.name]


def test_no_stick_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    office = books_with_figures(tmp_path)
    monkeypatch.setenv(STICK_ENV, str(tmp_path / "pulled"))
    found = exported(office)
    assert found.outcome == "no_stick" and found.words == "no USB stick: plug one in and try again"
    office.close()


def test_the_cabinet_is_named_as_the_venue_knows_it_else_by_its_host(tmp_path: Path) -> None:
    venue = tmp_path / "venue.toml"
    venue.write_text('[venue]\ncabinet = "bar 7/back"\nbroker = "x"\n')
    assert cabinet_name(venue) == "bar-7-back"
    assert cabinet_name(tmp_path / "none.toml") == cabinet_name(tmp_path / "none.toml").strip("-") != ""


@pytest.fixture
def small_stick(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs standing for a stick (root only; in CI it must work)."""
    with small_tmpfs(tmp_path / "stick", 1, "the stick") as where:
        yield where


def test_a_full_stick_is_said_and_no_part_file_left(small_stick: Path, tmp_path: Path) -> None:
    filler = small_stick / "holiday-photos.bin"
    with open(filler, "wb") as handle, pytest.raises(OSError):
        while True:
            handle.write(b"\0" * 65536)
            handle.flush()
    (small_stick / "spit-arcade").mkdir(exist_ok=True)
    office = books_with_figures(tmp_path / "books")
    found = write_export(books.report(office.store), "bar", Stamp(1, 9), small_stick)
    office.close()
    assert found.outcome == "full" and found.words.startswith("the USB stick is full")
    assert list((small_stick / "spit-arcade").iterdir()) == []


def test_a_read_only_stick_is_said(small_stick: Path, tmp_path: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(small_stick)], check=True)
    office = books_with_figures(tmp_path / "books")
    found = write_export(books.report(office.store), "bar", Stamp(1, 9), small_stick)
    office.close()
    assert found.outcome == "read_only" and "lock switch" in found.words
