"""A slap pad played over a pseudo-terminal: for desktop play without a Pico, and for tests.

    spit-arcade pad-emulator --link /tmp/spit-pad-1

makes a pseudo-terminal, points the stable name /tmp/spit-pad-1 at it, and behaves like the Pico
firmware (hardware/pad_firmware/main.py) on the other end: HELLO, HEARTBEAT every 100 ms, PONG with its
own microsecond clock, every edge numbered and resent until ACKed. Point a `[[serial]]` source of the
inputs configuration at the same name. In a terminal, keys slap: a = left, d = right, s = spit,
1-6 = piles; u unplugs/replugs the cable, f freezes/thaws the pad (no heartbeats), q quits. With stdin not
a terminal it reads commands a line at a time: `tap left`, `press spit`, `release spit`, `unplug`,
`plug`, `freeze`, `thaw`, `quit`.

In code (tests and the bench), `PadEmulator` does the same with methods: plug(), unplug(), press(),
freeze(), thaw(), close(). Its clock is the host's monotonic clock, shifted by `offset_us` and
stretched by `drift_ppm`, so the truth is known; `to_pad_delay`/`to_host_delay` add (asymmetric)
delays to the link.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import select
import sys
import threading
import time
import tty
from collections.abc import Callable

from . import protocol as p

HEARTBEAT_NS = 100_000_000
TAP_NS = 60_000_000
Delay = Callable[[], float]  # seconds


class PadClock:
    """The pad's microsecond clock, derived from the host's so tests know the truth."""

    def __init__(self, offset_us: int = 0, drift_ppm: float = 0.0, base_ns: int | None = None) -> None:
        self.offset_us = offset_us
        self.drift = drift_ppm * 1e-6
        self.base_ns = time.monotonic_ns() if base_ns is None else base_ns

    def pad_us(self, host_ns: int) -> int:
        return int((host_ns - self.base_ns) * (1 + self.drift) / 1000 + self.offset_us) % p.US_WRAP

    def host_ns(self, pad_ext_us: int) -> int:
        """The true host time of an (unwrapped, i.e. small enough) pad stamp."""
        return round((pad_ext_us - self.offset_us) * 1000 / (1 + self.drift) + self.base_ns)


class PadEmulator:
    def __init__(
        self,
        link: str,
        pad_id: int = 1,
        boot_id: int | None = None,
        pad_clock: PadClock | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        heartbeat_ns: int = HEARTBEAT_NS,
        to_pad_delay: Delay | None = None,
        to_host_delay: Delay | None = None,
        inputs: int = 3,
    ) -> None:
        self.link = link
        self.pad_id = pad_id
        self.boot_id = random.getrandbits(32) if boot_id is None else boot_id
        self.pad_clock = pad_clock or PadClock(offset_us=random.getrandbits(31))
        self._clock = clock
        self.heartbeat_ns = heartbeat_ns
        self.to_pad_delay = to_pad_delay
        self.to_host_delay = to_host_delay
        self.inputs = inputs
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._frozen = False
        self._closing = threading.Event()
        self._tx_seq = 0
        self._edge_seq = 0
        self.unacked: list[tuple[int, int, int, int]] = []  # (edge_seq, pad_us, code, pressed)
        self.decoder = p.FrameDecoder()
        self.pings = 0
        self._thread = threading.Thread(target=self._run, name="pad emulator", daemon=True)
        self._thread.start()

    # -- the cable
    @property
    def plugged(self) -> bool:
        return self._master is not None

    def plug(self) -> str:
        """Make a fresh pseudo-terminal and point the stable name at it; returns the pty's own path."""
        with self._lock:
            if self._master is not None:
                return os.ttyname(self._slave) if self._slave is not None else self.link
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)  # a pad with nobody listening drops bytes, never blocks
            name = os.ttyname(slave)
            tmp = f"{self.link}.tmp{os.getpid()}"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(name, tmp)
            os.replace(tmp, self.link)
            self._master, self._slave = master, slave
            self.decoder.clear()
            return name

    def unplug(self) -> None:
        """Pull the cable: the pty goes away (the host's reads fail) and so does the stable name."""
        with self._lock:
            if self._master is None:
                return
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.link)
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None

    def freeze(self) -> None:
        """The pad hangs: no heartbeats, no answers, nothing sent (edges are still recorded)."""
        self._frozen = True

    def thaw(self) -> None:
        self._frozen = False

    def close(self) -> None:
        self._closing.set()
        self._thread.join(timeout=2)
        self.unplug()

    # -- the pad's side
    def now_us(self) -> int:
        return self.pad_clock.pad_us(self._clock())

    def press(self, control: str, pressed: bool = True, at_ns: int | None = None) -> int:
        """An edge on one of the pad's inputs, at host time `at_ns` (default now). Returns its edge_seq."""
        pad_us = self.pad_clock.pad_us(self._clock() if at_ns is None else at_ns)
        with self._lock:
            self._edge_seq = (self._edge_seq + 1) % p.SEQ_WRAP
            edge = (self._edge_seq, pad_us, p.CONTROL_CODES.index(control), int(pressed))
            self.unacked.append(edge)
            del self.unacked[:-256]  # the firmware's ring buffer
            if not self._frozen:
                self._send(p.EDGE, *edge)
            return self._edge_seq

    def tap(self, control: str, hold_ns: int = TAP_NS) -> None:
        """Press now and release `hold_ns` later (a timer thread)."""
        self.press(control, True)
        timer = threading.Timer(hold_ns / 1e9, self.press, args=(control, False))
        timer.daemon = True
        timer.start()

    def _send(self, kind: int, *fields: int) -> None:
        with self._lock:
            frame = p.encode(kind, self._tx_seq, *fields)
            self._tx_seq = (self._tx_seq + 1) % p.SEQ_WRAP
            if self._master is None:
                return
            with contextlib.suppress(OSError):  # nobody reading and the buffer full, or the host hung up
                os.write(self._master, frame)

    def _run(self) -> None:
        next_beat = self._clock()
        while not self._closing.is_set():
            master = self._master
            now = self._clock()
            if now >= next_beat:
                if not self._frozen:
                    self._send(p.HEARTBEAT, self.now_us(), self._edge_seq)
                next_beat = now + self.heartbeat_ns
            if master is None or self._frozen:
                self._closing.wait(0.005)
                continue
            wait = max(0.0, (next_beat - now) / 1e9)
            try:
                readable, _, _ = select.select([master], [], [], min(wait, 0.05))
                data = os.read(master, 512) if readable else b""
            except (OSError, ValueError):  # unplugged under us, or the host closed its end
                self._closing.wait(0.005)
                continue
            if data:
                for message in self.decoder.feed(data):
                    self._handle(message)

    def _handle(self, message: tuple[int, int, tuple[int, ...]]) -> None:
        kind, _seq, fields = message
        if kind == p.HOST_HELLO:
            with self._lock:
                self._send(p.HELLO, self.boot_id, self.pad_id, self.inputs)
                for edge in self.unacked:
                    self._send(p.EDGE, *edge)
        elif kind == p.PING:
            if self.to_pad_delay is not None:
                time.sleep(self.to_pad_delay())
            t2 = self.now_us()
            self.pings += 1
            t3 = self.now_us()
            if self.to_host_delay is not None:
                time.sleep(self.to_host_delay())
            self._send(p.PONG, fields[0], t2, t3)
        elif kind == p.ACK:
            with self._lock:
                self.unacked = [e for e in self.unacked if p.seq_after(e[0], fields[0])]


KEYS = {"a": "left", "d": "right", "s": "spit", **{str(n): f"pile{n}" for n in range(1, 7)}}


def _interactive(pad: PadEmulator) -> None:
    import termios

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        while True:
            key = sys.stdin.read(1)
            if key in ("q", ""):
                return
            if key in KEYS:
                pad.tap(KEYS[key])
                print(f"slap {KEYS[key]}", flush=True)
            elif key == "u":
                if pad.plugged:
                    pad.unplug()
                    print("unplugged", flush=True)
                else:
                    print(f"plugged in: {pad.plug()}", flush=True)
            elif key == "f":
                if pad._frozen:
                    pad.thaw()
                    print("thawed", flush=True)
                else:
                    pad.freeze()
                    print("frozen (no heartbeats)", flush=True)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _wait_until(t_ns: int) -> None:
    while (left := t_ns - time.monotonic_ns()) > 0:
        time.sleep(left / 1e9)


def _commands(pad: PadEmulator) -> int:
    """Line commands; `press`/`release` may name a monotonic-clock ns to do it at. Each edge is echoed
    as `edge SEQ CONTROL 1|0 T_NS SENT_NS` (T_NS: its true time on this machine's monotonic clock;
    SENT_NS: when its frame was written)."""
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        verb, arg = words[0], (words[1] if len(words) > 1 else "")
        if verb in ("tap", "press", "release") and arg not in p.CONTROL_CODES:
            print(f"unknown control {arg!r}; one of {', '.join(p.CONTROL_CODES)}", file=sys.stderr)
        elif verb == "tap":
            pad.tap(arg)
        elif verb in ("press", "release"):
            at_ns = int(words[2]) if len(words) > 2 else time.monotonic_ns()
            _wait_until(at_ns)
            seq = pad.press(arg, verb == "press", at_ns=at_ns)
            sent_ns = time.monotonic_ns()
            print(f"edge {seq} {arg} {int(verb == 'press')} {at_ns} {sent_ns}", flush=True)
        elif verb in ("unplug", "plug", "freeze", "thaw"):
            getattr(pad, verb)()
            print(verb, flush=True)
        elif verb == "quit":
            break
        else:
            print(f"unknown command {verb!r}", file=sys.stderr)
    return 0


def _delay(text: str | None) -> Delay | None:
    """ "BASE_MS,MEAN_MS": a fixed delay plus an exponentially distributed one."""
    if not text:
        return None
    base, _, mean = text.partition(",")
    base_s, mean_s = float(base) / 1000, float(mean or 0) / 1000
    if mean_s <= 0:
        return lambda: base_s
    return lambda: base_s + random.expovariate(1 / mean_s)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade pad-emulator", description=__doc__.split("\n\n")[0])
    parser.add_argument("--link", default="/tmp/spit-pad-1", help="the stable name to point at the pty")
    parser.add_argument("--pad-id", type=int, default=1)
    parser.add_argument("--drift-ppm", type=float, default=0.0, help="make the pad's clock run fast/slow")
    parser.add_argument("--offset-us", type=int, default=None, help="the pad clock's start (default random)")
    parser.add_argument("--to-pad-delay", metavar="BASE_MS,MEAN_MS", help="simulated delay host->pad")
    parser.add_argument("--to-host-delay", metavar="BASE_MS,MEAN_MS", help="simulated delay pad->host")
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="run at real-time priority where allowed (a real pad is its own machine)",
    )
    args = parser.parse_args(argv)
    if args.realtime:
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        except (AttributeError, OSError) as error:
            print(f"pad-emulator: no real-time priority ({error})", file=sys.stderr)
    offset = random.getrandbits(31) if args.offset_us is None else args.offset_us
    pad = PadEmulator(
        args.link,
        pad_id=args.pad_id,
        pad_clock=PadClock(offset, args.drift_ppm),
        to_pad_delay=_delay(args.to_pad_delay),
        to_host_delay=_delay(args.to_host_delay),
    )
    try:
        print(f"pad {args.pad_id} on {pad.plug()} via {args.link}", flush=True)
        if sys.stdin.isatty():
            print("keys: a left, s spit, d right, 1-6 piles; u unplug/replug, f freeze/thaw, q quit")
            _interactive(pad)
            return 0
        return _commands(pad)
    finally:
        pad.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
