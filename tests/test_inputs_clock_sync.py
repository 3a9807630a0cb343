import random

from appliance.inputs.clock_sync import ClockSync
from appliance.inputs.protocol import US_WRAP


class Pad:
    """A pad clock with a known offset and drift against virtual host time (ns)."""

    def __init__(self, offset_us: int, drift_ppm: float) -> None:
        self.offset_us, self.rate = offset_us, 1 + drift_ppm * 1e-6

    def us(self, host_ns: float) -> int:
        return int(host_ns * self.rate / 1000 + self.offset_us) % US_WRAP


def exchange(sync: ClockSync, pad: Pad, t1: float, rng: random.Random) -> float:
    """One ping/pong with asymmetric delays: host->pad slow and jittery, pad->host quick."""
    to_pad = 300_000 + rng.expovariate(1 / 2_000_000)
    to_host = 60_000 + rng.expovariate(1 / 300_000)
    t2 = t1 + to_pad
    t3 = t2 + 20_000
    t4 = t3 + to_host
    sync.add(int(t1), pad.us(t2), pad.us(t3), int(t4))
    return t4


def error_ms(sync: ClockSync, pad: Pad, host_ns: float) -> float:
    return abs(sync.to_host_ns(pad.us(host_ns)) - host_ns) / 1e6


def test_not_synced_until_a_sample():
    sync = ClockSync()
    assert not sync.synced
    assert sync.add(100, 5, 4, 200) is None  # a pong leaving before its ping arrived is impossible
    assert not sync.synced


def test_asymmetric_delays_give_sub_millisecond_error_within_the_bound():
    rng = random.Random(3)
    pad = Pad(offset_us=1_234_567_890, drift_ppm=0)
    sync = ClockSync()
    t = 1e12
    for _ in range(20):
        t = exchange(sync, pad, t + 10e6, rng)
    assert sync.synced
    err = error_ms(sync, pad, t + 1e6)
    assert err <= 1.0
    assert err * 1e6 <= sync.error_bound_ns + 1_000


def test_drift_is_tracked_over_minutes():
    rng = random.Random(4)
    pad = Pad(offset_us=7, drift_ppm=40)
    sync = ClockSync()
    t = 5e12
    worst = 0.0
    for n in range(4 * 240):  # four minutes at four pings a second
        t = exchange(sync, pad, t + 250e6, rng)
        if n > 8:
            worst = max(worst, error_ms(sync, pad, t + 100e6))
    assert worst <= 1.0
    assert sync.drift_fitted and abs(sync.drift_ppm - 40) < 5


def test_pad_stamps_unwrap_across_the_u32_boundary():
    sync = ClockSync()
    assert sync.unwrap(US_WRAP - 10) == US_WRAP - 10
    assert sync.unwrap(5) == US_WRAP + 5
    assert sync.unwrap(US_WRAP - 20) == US_WRAP - 20  # an older stamp stays older


def test_reset_forgets():
    sync = ClockSync()
    sync.add(0, 10, 11, 50_000)
    sync.reset()
    assert not sync.synced and sync.samples_taken == 0
