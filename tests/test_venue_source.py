"""What the uplink reads of the game's files (appliance/venue/source.py): read only, never raising."""

from __future__ import annotations

import json
from pathlib import Path

from appliance.venue import source


def write(state: Path, audits: object = None, credits: object = None, scores: object = None) -> None:
    (state / "audits").mkdir(parents=True, exist_ok=True)
    for path, data in ((state / "audits" / "audits.json", audits), (state / "credits.json", credits),
                       (state / "high_scores.json", scores)):
        if data is not None:
            path.write_text(data if isinstance(data, str) else json.dumps(data))


def test_coins_in_the_box_count_at_once_even_before_the_audits_count_them(tmp_path):
    write(tmp_path, {"lifetime": {"coins": 5, "games": 2}, "coin_box": "ab12", "coins_through": 5},
          {"credits": 3, "coins": 8, "box": "ab12"})
    before = sorted(p.stat().st_mtime_ns for p in tmp_path.rglob("*.json"))
    figures = source.read(tmp_path)
    assert (figures.lifetime.coins, figures.lifetime.games, figures.faults) == (8, 2, [])
    assert sorted(p.stat().st_mtime_ns for p in tmp_path.rglob("*.json")) == before  # nothing written


def test_a_new_coin_box_is_counted_from_its_first_coin(tmp_path):
    write(tmp_path, {"lifetime": {"coins": 5}, "coin_box": "ab12", "coins_through": 5}, {"coins": 2, "box": "cd34"})
    assert source.read(tmp_path).lifetime.coins == 7


def test_unreadable_files_are_faults_and_empty_figures(tmp_path):
    write(tmp_path, "{torn", "junk", [1, 2])
    figures = source.read(tmp_path)
    assert figures.lifetime.coins == 0 and figures.sprints == []
    assert [f.split(" (")[0] for f in figures.faults] == ["the audits unreadable", "the high scores unreadable",
                                                         "the coin box unreadable"]


def test_nothing_there_is_nothing_wrong(tmp_path):
    figures = source.read(tmp_path)
    assert (figures.lifetime.games, figures.sprints, figures.faults) == (0, [], [])
