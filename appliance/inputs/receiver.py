"""The host's half of the pad protocol's promises, with no I/O: edges in order and exactly once, and
how healthy the line is.

EdgeReceiver takes a pad's edges as they come off the wire (some lost to corrupted frames, some resent
twice) and hands them on in edge_seq order, each exactly once. An edge that arrives after a gap waits
for the gap to fill; the gap is asked for again (a NACK naming its first and last number) at once, then
after `retry_ns`, 2, 4 and 8 times `retry_ns` (a resend may still be queued behind other bytes on a slow
line: asking faster only piles more resends behind it), until it fills or the pad reports the missing
edges gone (its `first_kept` has moved past them: its buffer overflowed). The pad's HEARTBEAT names its
latest edge, so a lost last edge shows as a gap too. Only the gap-free prefix is acknowledged: the pad
keeps everything after it.

LinkHealth counts good and bad frames over the last second: a link whose frames keep failing their
checks is degraded (and, once no frame at all passes for the silence bound, lost: serial_link.py).

FloodGuard bounds the bytes the host takes off a line: `FLOOD_BYTES` in each `FLOOD_WINDOW_NS`, many
times what a pad sends (a heartbeat every 100 ms, an edge per press: well under 1 KB/s; a 115200-baud
UART carries 11.5 KB/s at most). What comes beyond it in a window is dropped unread and counted, and
the link is reported flooded for a second after: a babbling device or a runaway pty costs the reader a
bounded share of a core, not the game loop its frame.

Nothing here reads a clock: every time comes in as an argument.
"""

from __future__ import annotations

from collections import deque

from .protocol import SEQ_WRAP

Edge = tuple[int, int, int, int]  # (edge_seq, pad_us, control code, pressed)

HALF = SEQ_WRAP >> 1
NACK_RETRY_NS = 20_000_000  # ask for a gap again if it has not filled this long after asking...
MAX_BACKOFF = 3  # ...doubling the wait each time up to 8 times (a slow UART still busy with the answer)
MAX_PENDING = 1024  # edges held behind a gap; beyond this the gap is given up as missing
HEALTH_WINDOW_NS = 1_000_000_000
DEGRADED_RATIO = 0.05  # of the frames in the window, this share failing their checks is "degraded"
DEGRADED_MIN_BAD = 3  # ... and at least this many (one stray bad frame is not a degraded link)
FLOOD_WINDOW_NS = 100_000_000
FLOOD_BYTES = 16_384  # bytes taken off the line in each window (164 KB/s); the rest is dropped unread


class EdgeReceiver:
    """Edges of one pad boot, in order, exactly once. Counters: duplicates (dropped), missing (the pad
    reported them gone), recovered (taken after being asked for again), nacks (requests sent)."""

    def __init__(self, retry_ns: int = NACK_RETRY_NS, max_pending: int = MAX_PENDING) -> None:
        self.retry_ns = retry_ns
        self.max_pending = max_pending
        self.next: int | None = None  # the number of the next edge to hand on
        self.pad_last: int | None = None  # the latest edge number the pad has said it made
        self.pending: dict[int, Edge] = {}  # edges that arrived after a gap
        self.duplicates = 0
        self.missing = 0
        self.recovered = 0
        self.nacks = 0
        self._asked_first: int | None = None  # the first number of the gap last asked for
        self._asked_at = 0
        self._retries = 0  # NACKs of the same gap so far, beyond the first
        self._nacked: tuple[int, int] | None = None  # the range of the last NACK (to count recoveries)

    @property
    def known(self) -> bool:
        return self.next is not None

    @property
    def acked(self) -> int | None:
        """The last number of the gap-free prefix taken (what to ACK), None before the first HELLO."""
        return None if self.next is None else (self.next - 1) % SEQ_WRAP

    def start(self, first_kept: int, last_edge: int) -> None:
        """A new boot of the pad (its HELLO): its numbering starts at the oldest edge it still holds."""
        self.next = first_kept % SEQ_WRAP
        self.pad_last = last_edge % SEQ_WRAP
        self.pending.clear()
        self._asked_first = self._nacked = None

    def asked(self, now_ns: int) -> None:
        """Every edge the pad holds is on its way (HOST_HELLO was answered): no NACK for a while."""
        if self.next is not None:
            self._asked_first, self._asked_at, self._retries = self.next, now_ns, 0

    def _ahead(self, seq: int) -> int:
        """How far seq is past `next` (0: it is next; >= HALF: it is before next, already taken)."""
        assert self.next is not None
        return (seq - self.next) % SEQ_WRAP

    def _take(self, edge: Edge, out: list[Edge]) -> None:
        if self._nacked is not None:
            first, last = self._nacked
            if (edge[0] - first) % SEQ_WRAP <= (last - first) % SEQ_WRAP:
                self.recovered += 1
        out.append(edge)
        self.next = (edge[0] + 1) % SEQ_WRAP

    def _drain(self, out: list[Edge]) -> None:
        while self.next in self.pending:
            self._take(self.pending.pop(self.next), out)

    def edge(self, edge: Edge) -> list[Edge]:
        """One EDGE off the wire. Returns the edges that may now be handed on, in order."""
        if self.next is None:
            return []
        out: list[Edge] = []
        ahead = self._ahead(edge[0])
        if ahead >= HALF or edge[0] in self.pending:
            self.duplicates += 1
            return out
        if self.pad_last is None or (edge[0] - self.pad_last) % SEQ_WRAP < HALF:
            self.pad_last = edge[0]
        if ahead == 0:
            self._take(edge, out)
            self._drain(out)
            return out
        self.pending[edge[0]] = edge
        if len(self.pending) > self.max_pending:  # the gap will not fill: give it up
            first = min(self.pending, key=self._ahead)
            self.missing += self._ahead(first)
            self.next = first
            self._drain(out)
        return out

    def report(self, first_kept: int, last_edge: int) -> list[Edge]:
        """The pad's HEARTBEAT (or a HELLO of the same boot): its latest edge, and the oldest it still
        holds. Edges before `first_kept` that never arrived are gone: counted missing and skipped."""
        out: list[Edge] = []
        if self.next is None:
            return out
        if self.pad_last is None or 0 < (last_edge - self.pad_last) % SEQ_WRAP < HALF:
            self.pad_last = last_edge % SEQ_WRAP
        gone_through = self._ahead(first_kept % SEQ_WRAP)
        if 0 < gone_through < HALF:
            for _ in range(gone_through):
                seq = self.next
                if seq in self.pending:
                    self._take(self.pending.pop(seq), out)
                else:
                    self.missing += 1
                    self.next = (seq + 1) % SEQ_WRAP
            self._drain(out)
        return out

    def gap(self) -> tuple[int, int] | None:
        """The first run of numbers still missing (first, last), or None if nothing is owed."""
        if self.next is None:
            return None
        if self.pending:
            first_held = min(self.pending, key=self._ahead)
            return self.next, (first_held - 1) % SEQ_WRAP
        if self.pad_last is not None and self._ahead(self.pad_last) < HALF:
            return self.next, self.pad_last
        return None

    def nack_due(self, now_ns: int) -> tuple[int, int] | None:
        """The gap to ask for now (a new gap at once, the same one again every `retry_ns`), or None."""
        gap = self.gap()
        if gap is None:
            return None
        if gap[0] == self._asked_first:
            if now_ns - self._asked_at < self.retry_ns << min(self._retries, MAX_BACKOFF):
                return None
            self._retries += 1  # still not filled: ask again, each time waiting twice as long
        else:
            self._retries = 0
        self._asked_first, self._asked_at, self._nacked = gap[0], now_ns, gap
        self.nacks += 1
        return gap


class LinkHealth:
    """Good and bad frames over the last `window_ns`; degraded when too many fail their checks."""

    def __init__(
        self,
        window_ns: int = HEALTH_WINDOW_NS,
        ratio: float = DEGRADED_RATIO,
        min_bad: int = DEGRADED_MIN_BAD,
    ) -> None:
        self.window_ns = window_ns
        self.ratio = ratio
        self.min_bad = min_bad
        self._events: deque[tuple[int, int, int]] = deque()  # (t_ns, good, bad)
        self._good = 0
        self._bad = 0

    def record(self, now_ns: int, good: int, bad: int) -> None:
        if good or bad:
            self._events.append((now_ns, good, bad))
            self._good += good
            self._bad += bad
        self._expire(now_ns)

    def _expire(self, now_ns: int) -> None:
        while self._events and now_ns - self._events[0][0] > self.window_ns:
            _, good, bad = self._events.popleft()
            self._good -= good
            self._bad -= bad

    def counts(self, now_ns: int) -> tuple[int, int]:
        """(good, bad) frames in the window ending now."""
        self._expire(now_ns)
        return self._good, self._bad

    def bad_share(self, now_ns: int) -> float:
        good, bad = self.counts(now_ns)
        return bad / (good + bad) if good + bad else 0.0

    def degraded(self, now_ns: int) -> bool:
        good, bad = self.counts(now_ns)
        return bad >= self.min_bad and bad >= self.ratio * (good + bad)

    def clear(self) -> None:
        self._events.clear()
        self._good = self._bad = 0


class FloodGuard:
    """At most `limit` bytes taken in each `window_ns`; the rest dropped and counted (`dropped` bytes,
    `floods`: windows that hit the limit), and the link flooded for `HEALTH_WINDOW_NS` after the last."""

    def __init__(self, limit: int = FLOOD_BYTES, window_ns: int = FLOOD_WINDOW_NS) -> None:
        self.limit = limit
        self.window_ns = window_ns
        self.dropped = 0
        self.floods = 0
        self._window_start: int | None = None
        self._taken = 0
        self._last_flood_ns: int | None = None
        self._flooded_window: int | None = None  # the window the last flood was counted in

    def _roll(self, now_ns: int) -> None:
        if self._window_start is None or now_ns - self._window_start >= self.window_ns:
            self._window_start = now_ns
            self._taken = 0

    def exhausted(self, now_ns: int) -> bool:
        """Has this window's allowance been taken? (Then drop what is waiting, unread, and back off.)"""
        self._roll(now_ns)
        return self._taken >= self.limit

    def admit(self, now_ns: int, data: bytes) -> bytes:
        """The part of `data` within this window's allowance; the rest is dropped (counted)."""
        self._roll(now_ns)
        room = max(0, self.limit - self._taken)
        if len(data) > room:
            self.drop(now_ns, len(data) - room)
            data = data[:room]
        self._taken += len(data)
        return data

    def drop(self, now_ns: int, count: int) -> None:
        """`count` bytes dropped unread beyond the allowance."""
        if count <= 0:
            return
        self._roll(now_ns)
        if self._flooded_window != self._window_start:
            self.floods += 1  # the first drop in this window
            self._flooded_window = self._window_start
        self._taken = max(self._taken, self.limit)
        self.dropped += count
        self._last_flood_ns = now_ns

    def active(self, now_ns: int) -> bool:
        """Were bytes dropped within the last second?"""
        return self._last_flood_ns is not None and now_ns - self._last_flood_ns <= HEALTH_WINDOW_NS

    def clear(self) -> None:
        """A new session: a fresh allowance (the counters stay)."""
        self._window_start = self._flooded_window = None
        self._taken = 0
