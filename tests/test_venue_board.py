"""The venue's board on the cabinet's screen: the uplink writes it (board.BoardFile), the game reads
it read-only (board.read_board) on the high-score screen and, through it, in attract mode."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from headless import Harness
from screen_facts import problems

from appliance.display.coins import office
from appliance.display.scenes.base import make
from appliance.operator.store import Score
from appliance.venue.board import BoardFile, board_path, read_board


def board_of(config: Path, boards: dict[str, list[tuple[str, float]]]) -> Path:
    path = board_path(config)
    writer = BoardFile(path)
    for seq, (cabinet, rows) in enumerate(boards.items(), start=1):
        writer.take(cabinet, 1, seq, {"fastest_sprints": [{"initials": i, "sprint_ms": ms} for i, ms in rows]})
    writer.close()
    return path


def test_the_board_is_the_venues_fastest_across_cabinets_and_a_new_board_replaces_a_cabinets_old(tmp_path):
    path = board_of(tmp_path / "config.toml", {"table-1": [("ann", 5100.0), ("BOB", 3000.0)],
                                              "table-2": [("CY", 3000.0), ("DEE", 4000.0)]})
    assert [(p.initials, p.sprint_ms, p.cabinet) for p in read_board(path)] == \
        [("BOB", 3000.0, "table-1"), ("CY ", 3000.0, "table-2"), ("DEE", 4000.0, "table-2"), ("ANN", 5100.0, "table-1")]
    writer = BoardFile(path)
    writer.take("table-1", 1, 9, {"fastest_sprints": [{"initials": "EVE", "sprint_ms": 6000.0}, "junk",
                                                      {"initials": "X", "sprint_ms": -1}]})
    writer.close()
    assert [(p.initials, p.cabinet) for p in read_board(path, 2)] == [("CY ", "table-2"), ("DEE", "table-2")]
    assert [p.initials for p in read_board(path)] == ["CY ", "DEE", "EVE"]


def test_the_game_reads_the_board_without_writing_anything(tmp_path):
    path = board_of(tmp_path / "config.toml", {"table-2": [("ANN", 4000.0)]})
    os.chmod(path, stat.S_IRUSR)
    os.chmod(path.parent, stat.S_IRUSR | stat.S_IXUSR)
    try:
        before = sorted(path.parent.iterdir())
        assert [p.initials for p in read_board(path)] == ["ANN"]
        assert sorted(path.parent.iterdir()) == before
    finally:
        os.chmod(path.parent, stat.S_IRWXU)
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)


def test_no_board_or_a_broken_one_is_an_empty_board(tmp_path):
    assert read_board(tmp_path / "none.sqlite") == []
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all" * 100)
    assert read_board(tmp_path / "junk.sqlite") == []


def texts(h: Harness) -> list[str]:
    return [words for drawn in h.canvas().texts for words in drawn.words]


def test_the_high_score_screen_shows_the_venues_board_with_each_cabinets_name(tmp_path):
    h = Harness((1280, 720), "tabletop")
    h.ctx.config_path = tmp_path / "config.toml"
    office(h.ctx).add_score(Score("sprint", "ANN", 4210.0, 1))  # the cabinet's own table
    board_of(h.ctx.config_path, {"table-2": [("BOB", 3900.5)], "table-1": [("ANN", 4210.0)]})
    h.runner.apply_scene(make("running_scores", h.ctx))
    h.frame()
    shown = texts(h)
    venue = shown.index("THE VENUE — FASTEST SPRINTS")
    assert shown[venue + 1:venue + 3] == [" 1. BOB  3.90\u00a0s  table-2", " 2. ANN  4.21\u00a0s  table-1"]
    own = shown.index("RUNNING SPIT — FASTEST SPRINTS")
    assert shown[own + 1].startswith(" 1. ANN  4.21\u00a0s") and own + 1 < venue  # the cabinet's own table first
    assert problems(h.canvas()) == []


def test_a_lone_cabinet_shows_no_venue(tmp_path):
    h = Harness((1280, 720))
    h.ctx.config_path = tmp_path / "config.toml"
    h.runner.apply_scene(make("running_scores", h.ctx))
    h.frame()
    assert "THE VENUE — FASTEST SPRINTS" not in texts(h)


def test_attract_mode_shows_the_board_when_only_the_venue_has_sprints(tmp_path):
    h = Harness((480, 270))
    h.ctx.config_path = tmp_path / "config.toml"
    board_of(h.ctx.config_path, {"table-3": [("CY", 3000.0)]})
    scene = make("title", h.ctx)
    assert scene._has_high_scores()  # type: ignore[attr-defined]
    (board_path(h.ctx.config_path)).unlink()
    assert not scene._has_high_scores()  # type: ignore[attr-defined]
