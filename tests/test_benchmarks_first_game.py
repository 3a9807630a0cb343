"""`bench first-game`: the scripted newcomer reaches the first card played through the real scenes,
with and without the guide, in Spit and in Speed (the figures themselves are the benchmark's, not
asserted here)."""

from __future__ import annotations

import json

import pytest

from lab.benchmarks.first_game import main, measure, with_guide, without_guide


def test_both_ways_reach_a_card_played_and_count_the_presses() -> None:
    assert without_guide(0.0)[0] == 6  # START, SPIT (two players), both SPIT!, pick up, play
    assert with_guide(0.0)[0] == 4  # the first pile key, SPIT!, pick up, play
    figures = measure(0.5)
    assert set(figures) == {"game", "pace_s", "without_guide_presses", "without_guide_s", "with_guide_presses",
                            "with_guide_s"}  # fmt: skip
    assert figures["game"] == "spit"


def test_speed_both_ways_reach_a_card_played() -> None:
    assert without_guide(0.0, "speed")[0] == 6  # START, SPIT (two players), both SPIT!, pick up, play
    assert with_guide(0.0, "speed")[0] == 5  # the first pile key, SPIT!, draw into a slot, pick up, play


def test_the_command_takes_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "speed", "--pace", "0", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["game"] == "speed" and figures["with_guide_presses"] == 5
    with pytest.raises(SystemExit):
        main(["--game", "running"])
