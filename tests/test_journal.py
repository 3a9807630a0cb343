"""The journal: written as presses arrive, never going back in time, closed with the final state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from appliance.journal import Journal, default_journal_dir, journal_path


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
