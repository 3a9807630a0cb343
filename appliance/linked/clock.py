"""The other cabinet's clock on this one's: NTP's four timestamps, a minimum-delay filter, an error bound.

This cabinet sends PING at t1 (its clock); the peer stamps its arrival t2 and the PONG's departure
t3 (its clock); the PONG arrives here at t4. Then

    delay  = (t4 - t1) - (t3 - t2)           time the two datagrams spent on the wire and in queues
    offset = ((t2 - t1) + (t3 - t4)) / 2     the peer's clock minus this one's, at the sample

and the true offset lies within +/- delay/2 of it however the delay splits between the directions.
Every recent sample (`WINDOW`) says so, each widened by what two quartz clocks can drift apart
since it was taken (`DRIFT_ALLOWANCE`) and by `STAMP_NS` for the stamping itself (a thread woken by
its socket): the truth lies in all of those intervals at once, so in their intersection. The
estimate is the middle of the intersection and the error bound half its width (plus the drift since
the newest sample). Queues only ever add delay, so the intersection is as narrow as the least
delayed samples make it: one sample quick on the way out bounds it from one side, another quick on
the way back from the other, which over a few seconds of jittery network is far narrower than half
the least round trip. Should the intervals not meet (a clock stepped, a stamp gone wrong), the least
delayed sample alone is trusted, as NTP's minimum filter does.

A clock that jumps (a peer whose clock was stepped, a machine suspended and woken): when the newest
`JUMP_SAMPLES` samples all lie outside the estimate's bound by more than their own, on the same side,
the old samples are forgotten and the sync starts again from them; `jumps` counts it and `jumped_ns`
says by how much, for the notice.

The game clock is the leader's (the cabinet that listened): the other maps its presses onto it with
`to_peer`. Nothing here reads a clock.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

WINDOW = 128  # samples the filter looks at (at 50 pings a second, 2.6 s): the more, the less queued the best
MIN_SAMPLES = 8  # before this many, the clock is not synced
DRIFT_ALLOWANCE = 100e-6  # two crystals, unmeasured: 100 ppm
STAMP_NS = 50_000  # the stamping itself: a reader thread woken by its socket
JUMP_SAMPLES = 3
JUMP_MARGIN_NS = 2_000_000


@dataclass(frozen=True, slots=True)
class Sample:
    at_ns: int  # this cabinet's clock at the sample (t4)
    offset_ns: float  # peer minus this cabinet
    delay_ns: int


class LinkClock:
    def __init__(self) -> None:
        self._samples: deque[Sample] = deque(maxlen=WINDOW)
        self.samples_taken = 0
        self.refused = 0  # impossible samples (negative delay, t3 before t2)
        self.jumps = 0
        self.jumped_ns = 0
        self._best: Sample | None = None
        self._disagree = 0
        self._estimate = 0.0
        self._half = 0.0
        self._at = 0
        self.disjoint = 0  # times the intervals did not meet (the least delayed sample was used)

    @property
    def synced(self) -> bool:
        return self._best is not None and len(self._samples) >= MIN_SAMPLES

    def add(self, t1: int, t2: int, t3: int, t4: int) -> Sample | None:
        delay = (t4 - t1) - (t3 - t2)
        if delay < 0 or t3 < t2 or t4 < t1:
            self.refused += 1
            return None
        sample = Sample(t4, ((t2 - t1) + (t3 - t4)) / 2, delay)
        self.samples_taken += 1
        best = self._best
        if best is not None and len(self._samples) >= MIN_SAMPLES:
            reach = self.error_bound_ns(t4) + delay // 2 + JUMP_MARGIN_NS
            off = sample.offset_ns - self._estimate
            if abs(off) > reach:
                sign = 1 if off > 0 else -1
                self._disagree = self._disagree + sign if self._disagree * sign > 0 else sign
            else:
                self._disagree = 0
            if abs(self._disagree) >= JUMP_SAMPLES:
                self.jumps += 1
                self.jumped_ns = round(off)
                recent = list(self._samples)[-(JUMP_SAMPLES - 1):]
                self._samples.clear()
                self._samples.extend(recent)
                self._disagree = 0
        self._samples.append(sample)
        self._best = min(list(self._samples)[: max(1, len(self._samples) - abs(self._disagree))],
                         key=lambda s: s.delay_ns)
        self._intersect(t4)
        return sample

    def _intersect(self, now_ns: int) -> None:
        lo, hi = -float("inf"), float("inf")
        samples = list(self._samples)
        if 0 < abs(self._disagree) < len(samples):  # the newest disagree: held out until they make a jump
            samples = samples[: len(samples) - abs(self._disagree)]
        for s in samples:
            reach = s.delay_ns / 2 + STAMP_NS + (now_ns - s.at_ns) * DRIFT_ALLOWANCE
            lo, hi = max(lo, s.offset_ns - reach), min(hi, s.offset_ns + reach)
        best = self._best
        assert best is not None
        if lo <= hi:
            self._estimate, self._half = (lo + hi) / 2, (hi - lo) / 2
        else:
            self._estimate, self._half = best.offset_ns, best.delay_ns / 2 + STAMP_NS
            self.disjoint += 1
        self._at = now_ns

    @property
    def offset_ns(self) -> float:
        """The peer's clock minus this one's (0 before the first sample)."""
        return self._estimate

    @property
    def delay_ns(self) -> int | None:
        return self._best.delay_ns if self._best is not None else None

    def error_bound_ns(self, now_ns: int) -> int:
        """How far `offset_ns` may be from the truth now (a large number before the first sample)."""
        if self._best is None:
            return 10**12
        return int(self._half + max(0, now_ns - self._at) * DRIFT_ALLOWANCE)

    def to_peer(self, local_ns: int) -> int:
        return round(local_ns + self.offset_ns)

    def to_local(self, peer_ns: int) -> int:
        return round(peer_ns - self.offset_ns)
