"""`bench store`: coins and games through the store, its writer killed with kill -9 and restarted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab.benchmarks.store import bench, main, plan


def test_the_plan_is_the_coins_a_payment_and_a_game_for_each_game() -> None:
    ops = plan(25, 3)
    assert [op.kind for op in ops].count("coin") == 25 and [op.kind for op in ops].count("game") == 3
    assert [op.number for op in ops] == list(range(1, len(ops) + 1))
    assert [(op.kind, op.credits) for op in ops[8:10]] == [("pay", 8), ("game", 0)]


def test_killed_at_random_moments_nothing_is_lost_or_counted_twice(tmp_path: Path) -> None:
    found = bench(120, 6, 4, 3, tmp_path / "k")
    assert (found["coins"], found["games"], found["kills"]) == (120, 6, 4)
    assert (found["lost"], found["counted_twice"], found["payments_refused"]) == (0, 0, 0)
    assert found["credits_exact"] and found["frame_thread_fsyncs"] == 0


def test_one_object_on_stdout_with_the_figures_other_programs_read(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--coins", "20", "--games", "2", "--kills", "1", "--no-hours", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert {"coins", "games", "kills", "lost", "counted_twice", "frame_thread_fsyncs"} <= set(found)
