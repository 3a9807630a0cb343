"""Pad time to host time: ping/pong clock sync with a minimum-delay filter and drift tracking.

The host sends PING at host time t1; the pad stamps its arrival t2 and the PONG's departure t3 on its
own microsecond clock; the host reads the PONG at t4. Then, NTP-style,

    delay  = (t4 - t1) - (t3 - t2)                     the time the two messages spent on the wire
    offset = ((t1 - t2) + (t4 - t3)) / 2               host minus pad, at the sample

and the true offset lies within +/- delay/2 of that, however the delay splits between the two
directions (asymmetric links). Queuing only ever adds delay, so among recent samples the one with the
least delay is the one to trust (the minimum-delay filter). Over a longer run the pad's crystal drifts
(tens of ppm): the samples are taken in chunks, the least-delayed sample of each chunk is an anchor, and
a least-squares line through the anchors gives offset and drift. The error bound reported is half the
least delay among the latest anchors plus the line's worst residual; before the line is fitted it is
half the best recent sample's delay plus 50 ppm of the time since that sample (and one second more).

Pad stamps are u32 microseconds and wrap (every 71.6 minutes); `unwrap` extends them.
Nothing here reads a clock: the caller passes every time in.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .protocol import US_WRAP, us_diff

CHUNK = 8  # samples per anchor
MAX_SAMPLES = 512  # at 4 pings a second, about two minutes of history
DRIFT_ALLOWANCE = 50e-6  # a Pico's crystal and the Pi's clock together, before drift is measured
MIN_FIT_SPAN_NS = 30_000_000_000  # fit drift once the anchors span this much pad time (noise/span = ppm)


@dataclass(frozen=True)
class Sample:
    pad_ns: int  # pad time of the sample (midpoint of t2 and t3), extended, in ns
    offset_ns: float  # host minus pad
    delay_ns: int


class ClockSync:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget everything (a new pad, or the pad rebooted)."""
        self._last_raw: int | None = None
        self._last_ext = 0
        self._samples: deque[Sample] = deque(maxlen=MAX_SAMPLES)
        self._ref_pad_ns = 0
        self._offset_ns = 0.0  # host - pad at _ref_pad_ns
        self._drift = 0.0  # d(offset)/d(pad time)
        self.error_bound_ns: int | None = None
        self.samples_taken = 0
        self.drift_fitted = False  # True once the anchors span MIN_FIT_SPAN_NS and drift is measured

    @property
    def synced(self) -> bool:
        return self.error_bound_ns is not None

    def unwrap(self, pad_us: int) -> int:
        """A u32 pad stamp as an ever-growing microsecond count (the first stamp seen is near 0..2**32)."""
        pad_us %= US_WRAP
        if self._last_raw is None:
            self._last_raw, self._last_ext = pad_us, pad_us
            return pad_us
        step = us_diff(pad_us, self._last_raw)
        ext = self._last_ext + step
        if step > 0:
            self._last_raw, self._last_ext = pad_us, ext
        return ext

    def add(self, t1_ns: int, t2_us: int, t3_us: int, t4_ns: int) -> Sample | None:
        """One ping/pong exchange. Returns the sample, or None if it is impossible (negative delay)."""
        t2 = self.unwrap(t2_us) * 1000
        t3 = self.unwrap(t3_us) * 1000
        delay = (t4_ns - t1_ns) - (t3 - t2)
        if delay < 0 or t3 < t2:
            return None
        sample = Sample((t2 + t3) // 2, ((t1_ns - t2) + (t4_ns - t3)) / 2, delay)
        self._samples.append(sample)
        self.samples_taken += 1
        self._refit()
        return sample

    def _anchors(self) -> list[Sample]:
        samples = list(self._samples)
        start = len(samples) % CHUNK  # chunks aligned to the newest sample
        anchors = []
        if start:
            anchors.append(min(samples[:start], key=lambda s: s.delay_ns))
        for i in range(start, len(samples), CHUNK):
            anchors.append(min(samples[i : i + CHUNK], key=lambda s: s.delay_ns))
        return anchors

    def _refit(self) -> None:
        anchors = self._anchors()
        span = anchors[-1].pad_ns - anchors[0].pad_ns
        if len(anchors) < 3 or span < MIN_FIT_SPAN_NS:
            recent = list(self._samples)[-CHUNK * 2 :]
            best = min(recent, key=lambda s: s.delay_ns)
            self._ref_pad_ns, self._offset_ns, self._drift = best.pad_ns, best.offset_ns, 0.0
            self.drift_fitted = False
            # no drift estimate yet: allow for the crystals drifting apart since the sample (and a second on)
            reach_ns = self._samples[-1].pad_ns - best.pad_ns + 1_000_000_000
            self.error_bound_ns = best.delay_ns // 2 + int(reach_ns * DRIFT_ALLOWANCE)
            return
        # weighted least squares of offset against pad time; less delay, more weight
        ref = anchors[-1].pad_ns
        weights = [1.0 / (1.0 + a.delay_ns / 1e5) for a in anchors]
        xs = [(a.pad_ns - ref) / 1e9 for a in anchors]
        ys = [a.offset_ns for a in anchors]
        total = sum(weights)
        mx = sum(w * x for w, x in zip(weights, xs, strict=True)) / total
        my = sum(w * y for w, y in zip(weights, ys, strict=True)) / total
        sxx = sum(w * (x - mx) ** 2 for w, x in zip(weights, xs, strict=True))
        sxy = sum(w * (x - mx) * (y - my) for w, x, y in zip(weights, xs, ys, strict=True))
        slope = sxy / sxx if sxx else 0.0  # ns of offset per second of pad time
        self._ref_pad_ns = ref
        self._offset_ns = my + slope * (0.0 - mx)
        self._drift = slope / 1e9
        self.drift_fitted = True
        residual = max(abs(y - (self._offset_ns + slope * x)) for x, y in zip(xs, ys, strict=True))
        recent_delay = min(a.delay_ns for a in anchors[-2:])
        self.error_bound_ns = int(recent_delay / 2 + residual)

    @property
    def offset_ns(self) -> float:
        """Host minus pad at the latest reference point (ns)."""
        return self._offset_ns

    @property
    def drift_ppm(self) -> float:
        """How fast the pad's clock runs against the host's, in parts per million (+: fast)."""
        return -self._drift * 1e6

    def to_host_ns(self, pad_us: int) -> int:
        """A pad stamp (u32 us) on the host's monotonic clock. Only meaningful once `synced`."""
        pad_ns = self.unwrap(pad_us) * 1000
        return round(pad_ns + self._offset_ns + self._drift * (pad_ns - self._ref_pad_ns))
