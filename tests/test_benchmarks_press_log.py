"""The benchmarks' journal kept in memory (benchmarks/press_log.py): the one stand-in for a journal,
keeping every press a match applied, enough to play the match again."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from appliance.bots import make_bot
from appliance.match import Match, setup_line
from appliance.scripting import parse_script, run
from lab.benchmarks import inputs, ties
from lab.benchmarks.press_log import PressLog

ROOT = Path(__file__).resolve().parent.parent
JOURNAL = {"record", "record_time", "sync", "finish", "close"}
SECOND = 1_000_000_000


def test_the_presses_kept_play_the_match_again() -> None:
    log = PressLog()
    match = Match(11, 0, log, {n: make_bot("5", n, 11 + n) for n in (1, 2)})
    for frame in range(1, 60 * 40):
        match.tick(frame * SECOND // 60)
    assert len(log.presses) > 50 and {source for *_, source in log.presses} == {"bot"}
    lines = [json.dumps({"setup": setup_line(11)})]
    lines += [json.dumps({"t": t, "player": player, "press": control}) for t, player, control, _ in log.presses]
    _, game = run(parse_script(lines))
    assert game.state() == match.game.state()


def test_one_journal_stand_in_serves_every_benchmark() -> None:
    assert ties.PressLog is PressLog and inputs.PressLog is PressLog
    shaped = []  # every class with the journal's five methods: the journal itself and this one
    for path in sorted([*(ROOT / "appliance").rglob("*.py"), *(ROOT / "lab").rglob("*.py")]):
        classes = [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.ClassDef)]
        shaped += [f"{path.relative_to(ROOT)}:{c.name}" for c in classes
                   if {f.name for f in c.body if isinstance(f, ast.FunctionDef)} >= JOURNAL]
    assert sorted(shaped) == ["appliance/journal.py:Journal", "lab/benchmarks/press_log.py:PressLog"]
