"""`spit-arcade audits`: the books without a screen, read from the store and never changed."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from appliance.operator.audits_cli import main
from appliance.operator.store import FILE, GameRow, Stamp, Store

WALL = 1_764_000_000.0  # 2025-11-24


def books_at(tmp_path: Path) -> Path:
    store = Store.open(tmp_path / FILE)
    for n in range(1, 4):
        store.add_coin(Stamp(1, n, 0, WALL + n), "gpio", True)
    store.spend(Stamp(1, 4, 0, WALL + 4), 2, "game")
    store.add_game(Stamp(1, 5, 0, WALL + 5), GameRow("classic", 2, 90.0, 1, False, (20.0,)))
    store.add_game(Stamp(1, 6, 0, 0.0), GameRow("speed", 2, 30.0, None, True))  # a cabinet whose clock was never set
    store.close()
    return tmp_path / "config.toml"


def test_json_has_the_totals_earnings_by_day_and_week_and_switch_health(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = books_at(tmp_path)
    before = (tmp_path / FILE).read_bytes()
    assert main(["--config", str(config), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["credits"] == 1 and found["lifetime"]["games"] == 2 and found["lifetime"]["coins"] == 3
    assert found["lifetime"]["variants"] == {"classic": 1, "speed": 1}
    assert found["earnings_by_day"] == [
        {"day": "2025-11-24", "coins": 3, "credits_given": 3, "credits_spent": 2, "games": 1, "play_s": 90.0},
        {"day": "clock not set", "coins": 0, "credits_given": 0, "credits_spent": 0, "games": 1, "play_s": 30.0},
    ]
    assert [row["week"] for row in found["earnings_by_week"]] == ["2025-W48", "clock not set"]
    assert found["switch_health"] == []
    assert (tmp_path / FILE).read_bytes() == before  # read, never written


def test_csv_for_a_spreadsheet_and_text_for_a_person(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = books_at(tmp_path)
    out = tmp_path / "books.csv"
    assert main(["--config", str(config), "--csv", str(out)]) == 0
    rows = list(csv.reader(out.open()))
    assert ["totals", "games", "2", "2"] in rows and ["games per variant", "speed", "1", "1"] in rows
    assert ["earnings by day", "2025-11-24", "3", "3", "2", "1", "90.0"] in rows
    capsys.readouterr()
    assert main(["--config", str(config)]) == 0
    text = capsys.readouterr().out
    assert "credits now: 1" in text and "switch health: every control pressed in the last 30 games" in text


def test_no_store_or_a_damaged_one_is_said_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", str(tmp_path / "config.toml")]) == 2
    assert "no store at" in capsys.readouterr().err
    (tmp_path / FILE).write_bytes(b"garbage" * 100)
    assert main(["--config", str(tmp_path / "config.toml"), "--json"]) == 2
    assert "cannot be read" in capsys.readouterr().err and (tmp_path / FILE).read_bytes() == b"garbage" * 100
