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
from appliance.venue.board import BoardFile, board_path, read_board, read_reactions


def board_of(config: Path, boards: dict[str, list[tuple[str, float]]],
             reactions: dict[str, list[tuple[str, float]]] | None = None) -> Path:
    path = board_path(config)
    writer = BoardFile(path)
    for seq, cabinet in enumerate(sorted(set(boards) | set(reactions or {})), start=1):
        writer.take(cabinet, 1, seq, {
            "fastest_sprints": [{"initials": i, "sprint_ms": ms} for i, ms in boards.get(cabinet, [])],
            "fastest_reactions": [{"initials": i, "reaction_ms": ms, "date": "2026-11-25"}
                                  for i, ms in (reactions or {}).get(cabinet, [])]})
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


def test_the_fastest_reactions_across_cabinets_beside_the_sprints(tmp_path):
    path = board_of(tmp_path / "config.toml", {"table-1": [("ANN", 5100.0)]},
                    {"table-1": [("ann", 250.0), ("BOB", 180.5)], "table-2": [("CY", 180.5), ("DEE", 301.0)]})
    assert [(r.initials, r.reaction_ms, r.cabinet) for r in read_reactions(path)] == \
        [("BOB", 180.5, "table-1"), ("CY ", 180.5, "table-2"), ("ANN", 250.0, "table-1"), ("DEE", 301.0, "table-2")]
    assert [p.initials for p in read_board(path)] == ["ANN"]  # the sprints, apart
    writer = BoardFile(path)  # table-2's next board: junk and nonsense refused, the rest replaces its old
    writer.take("table-2", 1, 9, {"fastest_sprints": [], "fastest_reactions": [
        {"initials": "EVE", "reaction_ms": 222.0}, "junk", {"initials": "X", "reaction_ms": -1},
        {"initials": "Y", "reaction_ms": True}, {"initials": "Z", "reaction_ms": 1e9}]})
    writer.take("table-3", 1, 1, {"fastest_sprints": [{"initials": "OLD", "sprint_ms": 4000.0}]})  # no reactions
    writer.close()
    assert [(r.initials, r.cabinet) for r in read_reactions(path)] == \
        [("BOB", "table-1"), ("EVE", "table-2"), ("ANN", "table-1")]
    assert [r.initials for r in read_reactions(path, 1)] == ["BOB"]


def test_a_board_written_before_reactions_has_none(tmp_path):
    import sqlite3

    path = tmp_path / "board.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE sprints (cabinet TEXT, place INTEGER, initials TEXT, sprint_ms REAL, date TEXT)")
        db.execute("INSERT INTO sprints VALUES ('table-1', 0, 'ANN', 4000.0, '')")
    assert (len(read_board(path)), read_reactions(path)) == (1, [])


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
    board_of(h.ctx.config_path, {"table-2": [("BOB", 3900.5)], "table-1": [("ANN", 4210.0)]},
             {"table-2": [("CY", 187.4), ("DEE", 240.0)], "table-1": [("ANN", 199.0), ("EVE", 500.0)]})
    h.runner.apply_scene(make("running_scores", h.ctx))
    h.frame()
    shown = texts(h)
    venue = shown.index("THE VENUE — FASTEST SPRINTS")
    assert shown[venue + 1:venue + 3] == [" 1. BOB  3.90\u00a0s  table-2", " 2. ANN  4.21\u00a0s  table-1"]
    reactions = shown.index("THE VENUE — FASTEST REACTIONS")
    assert shown[reactions + 1:reactions + 4] == [" 1. CY   187\u00a0ms  table-2", " 2. ANN  199\u00a0ms  table-1",
                                                  " 3. DEE  240\u00a0ms  table-2"]  # the best three
    assert venue < reactions and "EVE" not in " ".join(shown[reactions:])
    own = shown.index("RUNNING SPIT — FASTEST SPRINTS")
    assert shown[own + 1].startswith(" 1. ANN  4.21\u00a0s") and own + 1 < venue  # the cabinet's own table first
    assert problems(h.canvas()) == []


def test_a_lone_cabinet_shows_no_venue(tmp_path):
    h = Harness((1280, 720))
    h.ctx.config_path = tmp_path / "config.toml"
    h.runner.apply_scene(make("running_scores", h.ctx))
    h.frame()
    assert "THE VENUE — FASTEST SPRINTS" not in texts(h) and "THE VENUE — FASTEST REACTIONS" not in texts(h)


def test_attract_mode_shows_the_board_when_only_the_venue_has_sprints(tmp_path):
    h = Harness((480, 270))
    h.ctx.config_path = tmp_path / "config.toml"
    board_of(h.ctx.config_path, {"table-3": [("CY", 3000.0)]})
    scene = make("title", h.ctx)
    assert scene._has_high_scores()  # type: ignore[attr-defined]
    (board_path(h.ctx.config_path)).unlink()
    assert not scene._has_high_scores()  # type: ignore[attr-defined]
    board_of(h.ctx.config_path, {}, {"table-3": [("QIK", 190.0)]})  # only reactions: shown too
    assert scene._has_high_scores()  # type: ignore[attr-defined]
