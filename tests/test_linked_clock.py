"""The other cabinet's clock: NTP's four timestamps, the least-delayed sample trusted, a clock that jumps."""

from __future__ import annotations

import random

from appliance.linked.clock import MIN_SAMPLES, LinkClock

MS = 1_000_000


def _exchange(clock: LinkClock, rng: random.Random, now: int, offset: int, out_ms: float, back_ms: float) -> None:
    t1 = now
    t2 = now + int(out_ms * MS) + offset
    t3 = t2 + 50_000
    t4 = t3 - offset + int(back_ms * MS)
    clock.add(t1, t2, t3, t4)


def test_the_least_delayed_sample_sets_the_offset_within_its_bound() -> None:
    rng = random.Random(1)
    clock = LinkClock()
    offset = 3_700 * MS
    now = 10**12
    for n in range(40):
        now += 50 * MS
        _exchange(clock, rng, now, offset, 20 + rng.uniform(0, 10), 20 + rng.uniform(0, 10))
        assert clock.synced == (n + 1 >= MIN_SAMPLES)
    error = abs(clock.offset_ns - offset)
    assert error <= clock.error_bound_ns(now)
    assert clock.error_bound_ns(now) < 23 * MS  # half the least round trip (40-60 ms here), and a little
    assert error < 1 * MS  # the jitter is alike both ways: the middle of the intervals is far better than the bound


def test_an_impossible_sample_is_refused() -> None:
    clock = LinkClock()
    assert clock.add(100, 50, 40, 200) is None  # the answer left before the question arrived
    assert clock.add(100, 0, 10, 50) is None  # back before it went
    assert clock.refused == 2 and not clock.synced


def test_a_clock_that_jumps_is_followed_after_a_few_samples_and_counted() -> None:
    rng = random.Random(2)
    clock = LinkClock()
    now = 10**12
    for _ in range(20):
        now += 50 * MS
        _exchange(clock, rng, now, 0, 1, 1)
    for _ in range(3):
        now += 50 * MS
        _exchange(clock, rng, now, 5_000 * MS, 1, 1)  # the peer's clock stepped 5 s
    assert clock.jumps == 1
    assert abs(clock.jumped_ns - 5_000 * MS) < 2 * MS
    assert abs(clock.offset_ns - 5_000 * MS) < 2 * MS
    assert clock.synced is False  # starts again: the game holds until it has MIN_SAMPLES


def test_one_stray_sample_is_not_a_jump() -> None:
    rng = random.Random(3)
    clock = LinkClock()
    now = 10**12
    for n in range(30):
        now += 50 * MS
        _exchange(clock, rng, now, 400 * MS if n == 20 else 0, 1, 1)
    assert clock.jumps == 0 and abs(clock.offset_ns) < MS
