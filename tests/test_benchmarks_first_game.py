"""`bench first-game`: the scripted newcomer reaches the first card played through the real scenes,
with and without the guide (the figures themselves are the benchmark's, not asserted here)."""

from __future__ import annotations

from lab.benchmarks.first_game import measure, with_guide, without_guide


def test_both_ways_reach_a_card_played_and_count_the_presses() -> None:
    assert without_guide(0.0)[0] == 6  # START, SPIT (two players), both SPIT!, pick up, play
    assert with_guide(0.0)[0] == 4  # the first pile key, SPIT!, pick up, play
    figures = measure(0.5)
    assert set(figures) == {"pace_s", "without_guide_presses", "without_guide_s", "with_guide_presses", "with_guide_s"}
