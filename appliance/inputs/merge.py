"""The merge stage: presses from every source, handed on in edge-time order.

Sources deliver from their own threads (`put` is thread-safe). The game loop calls `ready(now_ns)`
each frame (or more often) and gets the presses it may apply now, oldest edge first; ties keep arrival
order.

When may a press at edge time t go? Once no source can still deliver a press stamped before t. A source
`s` can't if it has already delivered (or promised, with `advance`) something at or after t -- every
source delivers its own presses in edge order -- or if `now - t` exceeds `s.latency_ns`, the longest its
presses take to arrive. So the re-order window is the largest latency among the *other* sources, capped
at `max_window_ns` (default 5 ms): a cabinet with only GPIO panels releases presses as soon as they are
polled; with remote pads (4 ms) a GPIO press waits at most 4 ms for them, and a pad's press at
most 1 ms for the GPIO panels. A press that arrives later than that (a link stalled beyond its
bound) is still handed on, at once, and counted in `late`; the match (appliance/match.py) puts it
back in edge order by rolling the game back, within 250 ms.
"""

from __future__ import annotations

import heapq
import sys
import threading
import time
from collections.abc import Callable, Iterable

from .press import Press
from .source import Source, SourceStatus

MAX_WINDOW_NS = 5_000_000
DEFAULT_LATENCY_NS = 3_000_000  # for a source that delivers without being registered
SWITCH_INTERVAL_S = 0.0005


def favour_input_threads(interval_s: float = SWITCH_INTERVAL_S) -> float:
    """Make Python hand the GIL over sooner (sys.setswitchinterval); returns the old interval.

    Input threads (lgpio's callback thread, each pad's reader) need the GIL for a few microseconds per
    edge. With Python's default 5 ms switch interval, a game loop busy in Python code can keep them
    waiting up to 5 ms per hand-over, which is longer than the merge window: a press could then arrive
    too late to be put in order. Call this once at start-up of the game loop (the bench does).
    """
    old = sys.getswitchinterval()
    sys.setswitchinterval(interval_s)
    return old


class Merger:
    """Collects presses from sources (a PressSink) and releases them in edge-time order."""

    def __init__(
        self,
        sources: Iterable[Source] = (),
        max_window_ns: int = MAX_WINDOW_NS,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.sources: list[Source] = list(sources)
        self.max_window_ns = max_window_ns
        self._clock = clock
        self._lock = threading.Lock()
        self._heap: list[tuple[int, int, Press]] = []
        self._seq = 0
        self._latency: dict[str, int] = {}
        self._watermark: dict[str, int] = {}
        self._released_t = -(2**63)
        self.late = 0  # presses that arrived after a later-stamped press had already been released
        self.released = 0
        self._started = False
        for source in self.sources:
            self.register(source.name, source.latency_ns)

    def register(self, source: str, latency_ns: int) -> None:
        with self._lock:
            self._latency[source] = min(max(0, latency_ns), self.max_window_ns)
            self._watermark.setdefault(source, -(2**63))

    @property
    def window_ns(self) -> int:
        """The longest a press can be held back for re-ordering (the largest registered latency)."""
        with self._lock:
            return max(self._latency.values(), default=0)

    def add(self, source: Source) -> None:
        """Take another source (the display's keyboard, say); started at once if the merger runs."""
        self.sources.append(source)
        self.register(source.name, source.latency_ns)
        if self._started:
            source.start(self)

    def start(self) -> None:
        self._started = True
        for source in self.sources:
            source.start(self)

    def stop(self) -> None:
        self._started = False
        for source in self.sources:
            source.stop()

    def put(self, press: Press) -> None:
        with self._lock:
            if press.source not in self._latency:
                self._latency[press.source] = min(DEFAULT_LATENCY_NS, self.max_window_ns)
            if press.t_ns > self._watermark.get(press.source, -(2**63)):
                self._watermark[press.source] = press.t_ns
            if press.t_ns < self._released_t:
                self.late += 1
            heapq.heappush(self._heap, (press.t_ns, self._seq, press))
            self._seq += 1

    def advance(self, source: str, t_ns: int) -> None:
        with self._lock:
            if t_ns > self._watermark.get(source, -(2**63)):
                self._watermark[source] = t_ns

    def _may_release(self, press: Press, now_ns: int) -> bool:
        age = now_ns - press.t_ns
        for source, latency in self._latency.items():
            if source == press.source or age >= latency:
                continue
            if self._watermark[source] < press.t_ns:
                return False
        return True

    def ready(self, now_ns: int | None = None) -> list[Press]:
        """Presses that may be applied now, in edge-time order. Polls every source first."""
        now = self._clock() if now_ns is None else now_ns
        for source in self.sources:
            source.poll(now)
        out: list[Press] = []
        with self._lock:
            while self._heap and self._may_release(self._heap[0][2], now):
                press = heapq.heappop(self._heap)[2]
                self._released_t = max(self._released_t, press.t_ns)
                out.append(press)
            self.released += len(out)
        return out

    def pending(self) -> int:
        with self._lock:
            return len(self._heap)

    def status(self, now_ns: int | None = None) -> list[SourceStatus]:
        now = self._clock() if now_ns is None else now_ns
        return [source.status(now) for source in self.sources]
