"""The human reaction-time model: floors, means, Hick's law, misses, one seeded RNG per bot."""

import random
import statistics

import pytest

from appliance.bots.timing import TIMINGS, Timing, timing_for


@pytest.mark.parametrize("level", sorted(TIMINGS))
def test_no_press_comes_sooner_than_the_floor(level: int) -> None:
    timing = TIMINGS[level]
    rng = random.Random(level)
    for choices in (1, 2, 5, 10):
        assert min(timing.decision(rng, choices) for _ in range(2000)) >= timing.floor
    assert min(timing.continuation(rng) for _ in range(2000)) >= timing.floor


def test_every_floor_is_human() -> None:
    assert all(timing.floor >= 0.15 for timing in TIMINGS.values())
    assert TIMINGS[5].floor == pytest.approx(0.15)


@pytest.mark.parametrize("level", sorted(TIMINGS))
def test_decisions_follow_the_level_distribution(level: int) -> None:
    timing = TIMINGS[level]
    rng = random.Random(100 + level)
    draws = [timing.decision(rng, 1) for _ in range(20000)]
    # The normal part is clipped at zero a few times in a thousand at most: the mean holds to 3%.
    assert statistics.fmean(draws) == pytest.approx(timing.mean_decision(1), rel=0.03)
    moves = [timing.continuation(rng) for _ in range(20000)]
    assert statistics.fmean(moves) == pytest.approx(timing.mean_continuation(), rel=0.03)
    # A right-skewed distribution (the exponential tail): the mean lies above the median.
    assert statistics.fmean(draws) > statistics.median(draws)


def test_more_choices_take_longer_by_hicks_law() -> None:
    timing = TIMINGS[3]
    one = statistics.fmean(timing.decision(random.Random(1), 1) for _ in range(1))
    rng_a, rng_b = random.Random(7), random.Random(7)
    few = statistics.fmean(timing.decision(rng_a, 1) for _ in range(20000))
    many = statistics.fmean(timing.decision(rng_b, 8) for _ in range(20000))
    assert one > timing.floor
    assert many - few == pytest.approx(timing.hick * 3, rel=0.05)  # log2(8) = 3


def test_a_bot_sometimes_looks_away() -> None:
    timing = TIMINGS[1]
    rng = random.Random(3)
    draws = [timing.decision(rng, 1) for _ in range(20000)]
    slow = sum(1 for d in draws if d > 3.0) / len(draws)
    assert 0.015 < slow < timing.miss_chance
    attentive = Timing(**{**timing.__dict__, "miss_chance": 0.0})
    rng = random.Random(3)
    draws = [attentive.decision(rng, 1) for _ in range(20000)]
    assert sum(1 for d in draws if d > 3.0) / len(draws) < 0.003


def test_higher_levels_are_faster() -> None:
    means = [TIMINGS[level].mean_decision(2) for level in sorted(TIMINGS)]
    moves = [TIMINGS[level].mean_continuation() for level in sorted(TIMINGS)]
    assert means == sorted(means, reverse=True) and len(set(means)) == len(means)
    assert moves == sorted(moves, reverse=True) and len(set(moves)) == len(moves)


def test_seeded_draws_repeat() -> None:
    a, b = random.Random(42), random.Random(42)
    assert [TIMINGS[4].decision(a, 3) for _ in range(50)] == [TIMINGS[4].decision(b, 3) for _ in range(50)]


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match="no timing for level 9"):
        timing_for(9)
