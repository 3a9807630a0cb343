"""Remote slap pads over a serial link (USB CDC, an RS-485/422 adapter, or a pseudo-terminal).

One SerialSource per pad, each with one reader thread that owns the port: it opens it (exclusively,
low-latency mode where the driver has one), says HOST_HELLO, syncs clocks with a burst of PINGs and one
every `ping_interval_ns` after, turns EDGE messages into presses stamped on the host clock, ACKs them,
and watches the line.

Edges are numbered (receiver.py): one lost to a corrupted frame leaves a gap, which is asked for again
(NACK) until it fills or the pad reports it gone (`missing`); edges after a gap wait for it, so presses
are handed on in edge order, each exactly once, and only the gap-free prefix is ACKed.

Pulling the cable is normal. A read error, or no valid frame for `silence_ns` (default 500 ms; the pad
sends a HEARTBEAT every 100 ms) -- silence, or bytes that are all garbage -- marks the link lost; the
thread closes the port and tries the same stable name (e.g. /dev/serial/by-id/...) every `reopen_ns`
until the pad is back, then says HOST_HELLO again: the pad answers HELLO and resends every edge the host
has not ACKed. If HELLO (or a HEARTBEAT) brings a new boot id (the pad restarted), numbering and clock
sync start over (with a burst of pings, as at a connection); edges wait until the clock is synced. A
link whose frames keep failing their checks (more than 5% of them, and at least 3, in the last second)
is reported "degraded" while presses still flow.

A press stamped before this source started (the host's current run; by more than the clock sync's error
bound) or more than `stale_ns` before it could be handed on (default 1 s: a pad that buffered presses
while the host was down or the cable out) is reported (`stale dropped`) and dropped, never applied to a
game it was not made in.

Garbage on the line is counted (FrameDecoder counters) and skipped, never raised. A flood (bytes at
many times any pad's rate: a babbling device, a runaway pty) is bounded (receiver.FloodGuard): what
comes beyond the allowance is dropped unread from the port's buffer, counted ("flood dropped"), the
reader backs off `FLOOD_BACKOFF_S` between drops, and the link says "degraded: flooded" while it lasts
("lost: flooded" if no valid frame gets through). Edges lost with it are asked for again (NACK) or
resent after HELLO once it stops, as after any garbage.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from collections.abc import Callable
from typing import Any

from . import protocol as p
from .clock_sync import ClockSync
from .debounce import COIN, PAD, Debouncer, Timing
from .press import CABINET_CONTROLS, CABINET_PLAYER, Press, PressSink
from .receiver import Edge, EdgeReceiver, FloodGuard, LinkHealth
from .source import ControlStatus, SourceStatus

SILENCE_NS = 500_000_000
REOPEN_NS = 200_000_000
PING_INTERVAL_NS = 250_000_000
BURST = 8  # pings sent 10 ms apart after (re)connecting
BURST_GAP_NS = 10_000_000
READ_TIMEOUT_S = 0.01
STALE_NS = 1_000_000_000  # a press older than this when it could be handed on is dropped
HELLO_RETRY_NS = 100_000_000  # HOST_HELLO again until the pad's HELLO arrives (either may be corrupted)
ACK_RETRY_NS = 50_000_000  # ACK again if a HEARTBEAT shows the pad still holds edges taken this long ago
DEGRADED = "degraded: frames failing checks"
FLOODED = "degraded: flooded, bytes dropped"
UP = ("up", DEGRADED, FLOODED)  # presses flow
READ_CHUNK = 16_384  # bytes a read takes at most (the flood allowance of a window, at once)
FLOOD_BACKOFF_S = 0.02  # the reader's pause after dropping a flood's bytes
READER_NICE = -10  # the reader thread asks for this priority; a busy game loop must not starve it


def open_serial(port: str, baudrate: int) -> Any:
    """Open a serial port exclusively, in low-latency mode if the driver has one."""
    import serial

    handle = serial.Serial(port, baudrate, timeout=READ_TIMEOUT_S, write_timeout=0.1, exclusive=True)
    try:
        handle.set_low_latency_mode(True)
        handle.low_latency = True
    except (AttributeError, OSError, ValueError, NotImplementedError):
        handle.low_latency = False  # pty and USB CDC ACM have no such mode; nothing is lost
    return handle


def _reason(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    if "disconnected" in text or "Input/output error" in text:
        return "device disconnected"
    if "No such file" in text:
        return "no such device"
    return text[:60]


def read_available(handle: Any) -> bytes:
    """Whatever bytes have arrived, waiting up to READ_TIMEOUT_S for the first.

    Straight to select and os.read on the port's descriptor: every system call gives up the GIL and has
    to win it back from a busy game loop, so the fewer the better (pyserial's own read makes four).
    """
    try:
        fd = handle.fileno()
    except (AttributeError, OSError, ValueError):
        return bytes(handle.read(min(READ_CHUNK, max(1, handle.in_waiting))))
    ready, _, _ = select.select([fd], [], [], READ_TIMEOUT_S)
    if not ready:
        return b""
    try:
        data = os.read(fd, READ_CHUNK)
    except BlockingIOError:
        return b""
    if not data:
        raise OSError("device disconnected (readable but no data)")
    return data


def discard_input(handle: Any) -> int:
    """Drop every byte waiting in the port's input buffer, unread (one ioctl and one tcflush);
    returns how many there were (0 where the port can't say)."""
    try:
        waiting = int(handle.in_waiting)
    except (AttributeError, OSError, TypeError, ValueError):
        waiting = 0
    handle.reset_input_buffer()
    return waiting


class SerialSource:
    """A slap pad on a serial port (a Source)."""

    def __init__(
        self,
        port: str,
        player: int,
        name: str | None = None,
        baudrate: int = 115200,
        timing: Timing = PAD,
        coin_timing: Timing = COIN,
        latency_ns: int = 4_000_000,
        silence_ns: int = SILENCE_NS,
        reopen_ns: int = REOPEN_NS,
        ping_interval_ns: int = PING_INTERVAL_NS,
        stale_ns: int = STALE_NS,
        opener: Callable[[str, int], Any] = open_serial,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.port = port
        self.player = player
        self.name = name or f"serial:{port}"
        self.latency_ns = latency_ns
        self.baudrate = baudrate
        self.silence_ns = silence_ns
        self.reopen_ns = reopen_ns
        self.ping_interval_ns = ping_interval_ns
        self.stale_ns = stale_ns
        self._opener = opener
        self._clock = clock
        self._timings = {"coin": coin_timing}  # by control; every other control: `timing`
        self._timing = timing
        self._sink: PressSink | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._lock = threading.RLock()
        self.changed = threading.Condition(self._lock)  # notified on every link state change
        self.clock_sync = ClockSync()
        self.decoder = p.FrameDecoder()
        self.receiver = EdgeReceiver()
        self.health = LinkHealth()
        self.flood = FloodGuard()
        self._keys = {(self._owner(c), c) for c in p.CONTROL_CODES}
        self._debouncer = self._new_debouncer()
        self._last_edge: dict[tuple[int, str], int] = {}
        self._last_stamp: tuple[int, int] | None = None  # (pad_us, host ns) of this boot's latest edge
        self.link = "closed"
        self.link_events: list[str] = []  # "up", "lost: ...", in order (the switch test and tests read it)
        self.boot_id: int | None = None
        self.pad_id: int | None = None
        self._confirmed = False  # this session has the HELLO of the pad's current boot
        self._ready: list[Edge] = []  # edges in order, waiting for the clock sync
        self._acked: int | None = None  # the last ACK sent
        self._acked_at = 0
        self._hello_sent_ns = 0
        self.run_start_ns = self._clock()  # set again by start(): presses from before it are stale
        self.stale = 0  # presses dropped as older than the run or than stale_ns
        self.last_stale_age_ns = 0
        self.edges = 0
        self.low_latency = False
        self._tx_seq = 0
        self._ping_id = 0
        self._pings: dict[int, int] = {}
        self._known_ns: int | None = None  # every edge made up to here (host clock) has been taken
        self._pings_left = BURST  # pings still to send BURST_GAP_NS apart (after a (re)connection or a pad's reboot)
        self._next_ping_ns = 0
        self.last_rx_ns = 0  # the last valid frame
        self.last_byte_ns = 0  # the last byte of any kind
        self.last_heartbeat_ns = 0

    @property
    def duplicates(self) -> int:
        return self.receiver.duplicates

    @property
    def missing(self) -> int:
        """Edges the pad numbered but reported gone (its buffer overflowed before they were resent)."""
        return self.receiver.missing

    def _new_debouncer(self) -> Debouncer:
        return Debouncer({key: self._timings.get(key[1], self._timing) for key in self._keys})

    def _owner(self, control: str) -> int:
        return CABINET_PLAYER if control in CABINET_CONTROLS else self.player

    # -- Source protocol
    def start(self, sink: PressSink) -> None:
        self._sink = sink
        if self._thread is not None:
            return
        self.run_start_ns = self._clock()
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name=f"pad {self.port}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=2)
        self._sink = None

    def poll(self, now_ns: int) -> None:
        """Nothing to do here: the reader thread delivers presses as they arrive."""

    def status(self, now_ns: int) -> SourceStatus:
        with self._lock:
            controls = []
            for player, control in sorted(self._keys, key=lambda k: p.CONTROL_CODES.index(k[1])):
                key = (player, control)
                presses, bounces = self._debouncer.counts(key)
                if not presses and not bounces and key not in self._last_edge:
                    continue  # show only the inputs this pad actually has
                controls.append(
                    ControlStatus(
                        player,
                        control,
                        f"pad input {p.CONTROL_CODES.index(control)}",
                        self._debouncer.is_down(key),
                        self._debouncer.is_stuck(key),
                        presses,
                        bounces,
                        self._last_edge.get(key),
                    )
                )
            sync = self.clock_sync
            good, bad = self.health.counts(now_ns)
            stale = str(self.stale)
            if self.stale:
                stale += f" (last {self.last_stale_age_ns / 1e9:.1f} s old)"
            details = {
                "port": self.port,
                "pad": "-" if self.pad_id is None else f"{self.pad_id} (boot {self.boot_id:08x})",
                "clock offset": f"{sync.offset_ns / 1e6:+.3f} ms" if sync.synced else "-",
                "clock error": "-" if sync.error_bound_ns is None else f"±{sync.error_bound_ns / 1e6:.3f} ms",
                "drift": f"{sync.drift_ppm:+.1f} ppm" if sync.drift_fitted else "-",
                "edges": str(self.edges),
                "duplicates dropped": str(self.receiver.duplicates),
                "resend requests": str(self.receiver.nacks),
                "recovered": str(self.receiver.recovered),
                "missing": str(self.receiver.missing),
                "stale dropped": stale,
                "bad frames (1 s)": f"{bad} of {good + bad}",
                "flood dropped": f"{self.flood.dropped} bytes in {self.flood.floods} floods",
                "low latency": "yes" if self.low_latency else "n/a",
                **{k: str(v) for k, v in self.decoder.counters().items()},
            }
            return SourceStatus(self.name, self.link, controls, details)

    def wait_for(self, predicate: Callable[[SerialSource], bool], timeout: float) -> bool:
        """Block until predicate(self) holds (checked at every link change, press and frame), or timeout."""
        with self.changed:
            return self.changed.wait_for(lambda: predicate(self), timeout)

    # -- the reader thread
    def _set_link(self, link: str) -> None:
        with self.changed:
            if link != self.link:
                self.link = link
                self.link_events.append(link)
            self.changed.notify_all()

    def _run(self) -> None:
        with contextlib.suppress(AttributeError, OSError):  # allowed as root or with CAP_SYS_NICE only
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), READER_NICE)
        while not self._stopping.is_set():
            try:
                handle = self._opener(self.port, self.baudrate)
            except Exception as error:  # not there (yet): unplugged, or being re-enumerated
                reason = _reason(error)
                if self.link in UP or self.link.startswith("syncing"):
                    self._set_link(f"lost: {reason}")
                elif not self.link.startswith("lost"):
                    self._set_link(f"closed: {reason}")
                self._stopping.wait(self.reopen_ns / 1e9)
                continue
            try:
                self.low_latency = bool(getattr(handle, "low_latency", False))
                self._session(handle)
            finally:
                with contextlib.suppress(Exception):
                    handle.close()
        self._set_link("closed: stopped")

    def _send(self, handle: Any, kind: int, *fields: int) -> None:
        handle.write(p.encode(kind, self._tx_seq, *fields))
        self._tx_seq = (self._tx_seq + 1) % p.SEQ_WRAP

    def _ping(self, handle: Any) -> None:
        self._ping_id = (self._ping_id + 1) % p.SEQ_WRAP
        if len(self._pings) > 64:
            self._pings.clear()
        self._pings[self._ping_id] = self._clock()
        self._send(handle, p.PING, self._ping_id)

    def _host_hello(self, handle: Any, now: int) -> None:
        self._hello_sent_ns = now
        self._send(handle, p.HOST_HELLO)

    def _session(self, handle: Any) -> None:
        """One open port, until it fails, falls silent or only garbage comes, or we stop."""
        self.decoder.clear()
        self.health.clear()
        self.flood.clear()
        self._pings.clear()
        self._confirmed = False
        if not self.link.startswith("lost"):  # after a loss, "syncing" waits for a valid frame
            self._set_link("syncing")
        now = self._clock()
        self.last_rx_ns = self.last_byte_ns = now
        self._pings_left = BURST
        self._next_ping_ns = now
        bad_version = self.decoder.bad_version
        try:
            handle.reset_input_buffer()
            self._host_hello(handle, now)
            while not self._stopping.is_set():
                now = self._clock()
                if self.flood.exhausted(now):  # a flood: drop what waits, unread, and back off
                    dropped = discard_input(handle)
                    if dropped:
                        self.flood.drop(now, dropped)
                        self.last_byte_ns = now
                    self._stopping.wait(FLOOD_BACKOFF_S)
                    data = b""
                else:
                    data = read_available(handle)
                now = self._clock()
                if data:
                    data = self.flood.admit(now, data)
                    self.last_byte_ns = now
                    errors = self.decoder.errors()
                    messages = self.decoder.feed(data)
                    self.health.record(now, len(messages), self.decoder.errors() - errors)
                    if messages:
                        self.last_rx_ns = now
                        if self.link.startswith("lost"):
                            self._set_link("syncing")
                    for message in messages:
                        self._handle(handle, message, now)
                    self._ack(handle, now)  # once for the whole read: each write costs a GIL hand-over
                if now - self.last_rx_ns > self.silence_ns:
                    self._set_link(self._silent_reason(now, bad_version))
                    return
                if not self._confirmed and now - self._hello_sent_ns >= HELLO_RETRY_NS:
                    self._host_hello(handle, now)
                if now >= self._next_ping_ns:
                    self._ping(handle)
                    self._pings_left -= 1
                    self._next_ping_ns = now + (BURST_GAP_NS if self._pings_left > 0 else self.ping_interval_ns)
                if self._confirmed:
                    gap = self.receiver.nack_due(now)
                    if gap is not None and self.boot_id is not None:
                        self._send(handle, p.NACK, self.boot_id, *gap)
                self._tick(now)
                self._update_link(now)
        except Exception as error:  # the cable came out (SerialException, OSError, EIO on a pty)
            if not self._stopping.is_set():
                self._set_link(f"lost: {_reason(error)}")

    def _silent_reason(self, now: int, bad_version_before: int) -> str:
        if now - self.last_byte_ns > self.silence_ns:
            return "lost: no heartbeat"
        if self.flood.active(now):
            return f"lost: flooded ({self.flood.dropped} bytes dropped unread)"
        if self.decoder.bad_version > bad_version_before:
            return f"lost: the pad speaks another protocol version (this host speaks {p.VERSION}: reflash it)"
        return "lost: only garbage on the line"

    def _up_state(self, now: int) -> str:
        """Presses flow: "up", or how the line is failing meanwhile."""
        if self.flood.active(now):
            return FLOODED
        return DEGRADED if self.health.degraded(now) else "up"

    def _update_link(self, now: int) -> None:
        if self.link in UP:
            self._set_link(self._up_state(now))

    def _handle(self, handle: Any, message: tuple[int, int, tuple[int, ...]], now: int) -> None:
        kind, _seq, fields = message
        if kind == p.HELLO:
            boot_id, pad_id, _inputs, first_kept, last_edge = fields
            with self._lock:
                if boot_id != self.boot_id:
                    self.boot_id, self.pad_id = boot_id, pad_id
                    self.receiver.start(first_kept, last_edge)
                    self._ready.clear()
                    self._acked = None
                    self.clock_sync.reset()
                    self._last_stamp = None
                    self._known_ns = None
                    # a burst of pings now, as after a (re)connection: its edges wait for the clock sync,
                    # and the next regular ping could be 250 ms off (a press older than the bound is
                    # dropped). Pings sent before it are forgotten: the old boot's clock is gone.
                    self._pings.clear()
                    self._pings_left, self._next_ping_ns = BURST, now
                    # a restarted pad starts with every input up, whatever we last heard
                    self._debouncer = self._new_debouncer()
                    if self.link in UP:
                        self._set_link("syncing")
                else:
                    self._ready += self.receiver.report(first_kept, last_edge)
                self.receiver.asked(now)  # a HELLO comes with every edge the pad holds
                self._confirmed = True
            self._release(now)
        elif kind == p.PONG:
            ping_id, t2, t3 = fields
            t1 = self._pings.pop(ping_id, None)
            if t1 is not None:
                with self._lock:
                    self.clock_sync.add(t1, t2, t3, now)
                self._release(now)
        elif kind == p.EDGE:
            if self._confirmed:  # before HELLO, the numbering may be another boot's: it will be resent
                with self._lock:
                    self._ready += self.receiver.edge(fields)  # type: ignore[arg-type]
                self._release(now)
        elif kind == p.HEARTBEAT:
            boot_id, pad_us, last_edge, first_kept = fields
            if boot_id != self.boot_id:  # the pad restarted and its HELLO was lost: ask again
                if self._confirmed:
                    self._confirmed = False
                    self._hello_sent_ns = now - HELLO_RETRY_NS
            elif self._confirmed:
                with self._lock:
                    self._ready += self.receiver.report(first_kept, last_edge)
                    acked = self.receiver.acked
                    holds_taken = acked is not None and (acked - first_kept) % p.SEQ_WRAP < p.SEQ_WRAP >> 1
                    if holds_taken and now - self._acked_at > ACK_RETRY_NS:
                        self._acked = None  # the pad still holds edges we took: our ACK was lost
                self._release(now)
                if self.clock_sync.synced and not self._ready and self.receiver.gap() is None:
                    known = self._known_ns = self.clock_sync.to_host_ns(pad_us)
                    sink = self._sink
                    if sink is not None:
                        sink.advance(self.name, known)
            with self.changed:
                self.last_heartbeat_ns = now
                self.changed.notify_all()

    def _release(self, now: int) -> None:
        """Hand on every edge taken in order, once the clock is synced (the read's end ACKs them)."""
        if not (self._confirmed and self.clock_sync.synced and self.boot_id is not None):
            return
        if self.link not in UP:
            self._set_link(self._up_state(now))
        ready, self._ready = self._ready, []
        out: list[Press] = []
        with self._lock:
            for _edge_seq, pad_us, code, pressed in ready:
                if code >= len(p.CONTROL_CODES):
                    continue
                t_ns = self._edge_host_ns(pad_us)
                # Before this run only if certainly so: a press made just after the run's start, taken
                # on the clock sync's first sample (its error bound: half that exchange's delay, ms
                # under load), may be stamped a few ms before it.
                before_run = t_ns + (self.clock_sync.error_bound_ns or 0) < self.run_start_ns
                if before_run or now - t_ns > self.stale_ns:
                    self.stale += 1  # made before this run, or held too long to be fair now
                    self.last_stale_age_ns = now - t_ns
                    continue
                key = (self._owner(p.CONTROL_CODES[code]), p.CONTROL_CODES[code])
                self._last_edge[key] = t_ns
                self.edges += 1
                for (player, control), down, t in self._debouncer.edge(key, bool(pressed), t_ns):
                    out.append(Press(player, control, down, t, self.name))
        if ready and not out:
            with self.changed:
                self.changed.notify_all()  # (a stale press, or a bounce: still news to a waiter)
        self._deliver(out)  # before the ACK: its write gives up the GIL, and a busy game loop may keep it

    def _edge_host_ns(self, pad_us: int) -> int:
        """An edge's pad stamp on the host clock, never before the edge the pad made before it. The
        clock sync's estimate moves as its samples come in (by milliseconds early on, and on a busy
        host), so without this a release handed on after a PONG (recovered by a NACK, say) could be
        stamped before its press, and the merger would hand them on the wrong way round."""
        t_ns = self.clock_sync.to_host_ns(pad_us)
        last = self._last_stamp
        if last is not None and p.us_diff(pad_us, last[0]) >= 0:
            t_ns = max(t_ns, last[1])
        self._last_stamp = (pad_us, t_ns)
        return t_ns

    def _ack(self, handle: Any, now: int) -> None:
        """ACK the gap-free prefix handed on (not edges still waiting for the clock sync)."""
        acked = self.receiver.acked
        if acked is None or acked == self._acked or self._ready or self.boot_id is None:
            return
        if not (self._confirmed and self.clock_sync.synced):
            return
        self._acked, self._acked_at = acked, now
        self._send(handle, p.ACK, self.boot_id, acked)

    def _tick(self, now: int) -> None:
        # A control is judged held too long (stuck) only up to the pad's last word with nothing
        # missing before it: its release may still be on the way (a gap asked for again, a
        # link lost and back), and a release taken for a stuck switch's is never reported.
        known = -(2**63) if self._known_ns is None else self._known_ns
        with self._lock:
            edges = self._debouncer.tick(now, known)
        self._deliver([Press(pl, c, down, t, self.name) for (pl, c), down, t in edges])

    def _deliver(self, presses: list[Press]) -> None:
        sink = self._sink
        if sink is not None:
            for press in presses:
                sink.put(press)
        if presses:
            with self.changed:
                self.changed.notify_all()
