from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from appliance.high_scores import (
    SIZE,
    Entry,
    HighScores,
    clean_initials,
    high_scores_path,
    load,
    save,
)


def test_the_table_keeps_the_fastest_sprints_fastest_first_and_no_more_than_ten() -> None:
    table = HighScores()
    for n, ms in enumerate([5000.0, 3000.0, 4000.0, 3000.0]):
        assert table.add(Entry("R" + "ABCD"[n], ms, 1, 0, "2026-11-22")) is not None
    assert [(e.initials, e.sprint_ms) for e in table.entries] == [
        ("RB ", 3000.0), ("RD ", 3000.0), ("RC ", 4000.0), ("RA ", 5000.0)]  # a tie: the first set stays on top
    for n in range(20):
        table.add(Entry("ZZZ", 6000.0 + n))
    assert len(table.entries) == SIZE and table.entries[-1].sprint_ms == 6005.0
    assert not table.qualifies(6005.0) and table.qualifies(6004.9)
    assert table.place(1.0) == 1 and table.add(Entry("SLO", 9999.0)) is None
    assert not table.qualifies(None) and not table.qualifies(0.0)


def test_initials_are_three_capital_letters_or_spaces() -> None:
    assert clean_initials("ab") == "AB " and clean_initials("x-y!z#w") == "XYZ" and clean_initials("") == "   "


@given(st.lists(st.floats(min_value=0.1, max_value=60_000, allow_nan=False), max_size=30))
def test_whatever_is_added_the_table_is_sorted_and_bounded(times: list[float]) -> None:
    table = HighScores()
    for ms in times:
        table.add(Entry("AAA", ms))
    kept = [e.sprint_ms for e in table.entries]
    assert kept == sorted(kept) and len(kept) == min(SIZE, len(times))
    assert kept == sorted(round(ms, 1) for ms in times)[: len(kept)]


def test_saved_atomically_beside_the_settings_and_read_back(tmp_path: Path) -> None:
    path = high_scores_path(tmp_path / "config.toml")
    assert path == tmp_path / "high_scores.json"
    assert load(path).entries == []  # no file yet: an empty table
    table = HighScores()
    table.add(Entry("ann", 4210.04, 2, 1, "2026-11-22"))
    assert save(path, table) is None
    assert load(path).entries == [Entry("ANN", 4210.0, 2, 1, "2026-11-22")]
    assert [p.name for p in tmp_path.iterdir()] == ["high_scores.json"]  # no temporary file left


def test_a_damaged_file_is_an_empty_table_and_bad_rows_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "high_scores.json"
    path.write_text("{not json")
    assert load(path).entries == []
    path.write_text(json.dumps({"fastest_sprints": [
        {"initials": "BOB", "sprint_ms": 5000}, {"initials": 7, "sprint_ms": 1}, {"initials": "X", "sprint_ms": -1},
        {"initials": "TOM", "sprint_ms": True}, "junk", {"initials": "AMY", "sprint_ms": 3000.5, "team": 9}]}))
    assert [(e.initials, e.sprint_ms, e.team) for e in load(path).entries] == [("AMY", 3000.5, 0), ("BOB", 5000.0, 0)]


def test_a_table_that_cannot_be_written_says_why(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert save(blocker / "high_scores.json", HighScores()) is not None
