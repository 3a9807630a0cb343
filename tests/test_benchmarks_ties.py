"""`bench ties`: a scripted person mashing keys against the computer, through the live match."""

from __future__ import annotations

import json

import pytest

from lab.benchmarks.ties import bench_ties, main, mash_game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_person_mashing_against_level_5_meets_the_computer_at_equal_times_only_in_true_ties(seed: int) -> None:
    game = mash_game(seed, level="5", rate=25.0, seconds=120.0)
    assert game["computer_presses"] > 40 and game["person_presses"] > 1000  # a real race, both pressing
    assert game["false_ties"] == 0  # every computer press at a key press's time was made then
    assert game["moved"] == 0 and game["late_presses"] == 0  # every one applied at its own time
    assert game["rollbacks"] > 0  # some fell due before a key press and were polled after it


def test_the_totals_add_the_games_up(capsys: pytest.CaptureFixture[str]) -> None:
    one, two = mash_game(5, seconds=30.0), mash_game(6, seconds=30.0)
    both = bench_ties(2, "5", 25.0, 5, seconds=30.0)
    assert both["computer_presses"] == one["computer_presses"] + two["computer_presses"]
    assert both["games"] == 2 and both["level"] == "5"
    assert main(["--games", "1", "--seconds", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1
