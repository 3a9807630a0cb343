"""A slap pad played over a pseudo-terminal: for desktop play without a Pico, and for tests.

    spit-arcade pad-emulator --link /tmp/spit-pad-1

makes a pseudo-terminal, points the stable name /tmp/spit-pad-1 at it, and behaves like the Pico
firmware (hardware/pad_firmware/main.py) on the other end: HELLO, HEARTBEAT every 100 ms, PONG with its
own microsecond clock, every edge numbered and resent until ACKed. Point a `[[serial]]` source of the
inputs configuration at the same name (`--help` shows how, and the keys it reads). The pad's half of
the protocol is protocol.PadLink, the very code the firmware runs.

In code (tests and the bench), `PadEmulator` does the same with methods: plug(), unplug(), press(),
freeze(), thaw(), noise(), babble(), flood(), close(). Its clock is the host's monotonic clock, shifted by
`offset_us` and stretched by `drift_ppm`, so the truth is known; `to_pad_delay`/`to_host_delay` add
(asymmetric) delays to the link. A long cable's faults: `corrupt_to_host`/`corrupt_to_pad` spoil that
share of frames at a random byte, and `transport="uart"` delivers bytes at the baud rate, a few at a time
(as a UART behind an RS-485/422 adapter does) instead of whole frames at once (USB CDC).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import select
import subprocess
import sys
import threading
import time
import tty
from collections import deque
from collections.abc import Callable

from appliance.inputs import protocol as p

# The flood's own process: random bytes (fresh every 64 KiB block) onto the pty's master, which is
# non-blocking (shared with the emulator: a full buffer waits for room, it never blocks the pad).
FLOODER = """
import os, select, sys
fd = int(sys.argv[1])
while True:
    block = os.urandom(65536)
    view = memoryview(block)
    while view:
        try:
            view = view[os.write(fd, view):]
        except BlockingIOError:
            select.select([], [fd], [], 0.01)
        except OSError:
            sys.exit(0)
"""

HEARTBEAT_NS = 100_000_000
TAP_NS = 60_000_000
KEEP = 256  # unacknowledged edges kept (as the firmware keeps)
TRANSPORTS = ("usb", "uart")
UART_CHUNK = 4  # bytes the uart transport hands over at a time
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
        keep: int = KEEP,
        transport: str = "usb",
        baudrate: int = 115200,
        corrupt_to_host: float = 0.0,
        corrupt_to_pad: float = 0.0,
        seed: int | None = None,
    ) -> None:
        if transport not in TRANSPORTS:
            raise ValueError(f"transport is one of {', '.join(TRANSPORTS)}, not {transport!r}")
        self.link = link
        self.pad_id = pad_id
        self.boot_id = random.getrandbits(32) if boot_id is None else boot_id
        self.pad_clock = pad_clock or PadClock(offset_us=random.getrandbits(31))
        self._clock = clock
        self.heartbeat_ns = heartbeat_ns
        self.to_pad_delay = to_pad_delay
        self.to_host_delay = to_host_delay
        self.inputs = inputs
        self.transport = transport
        self.baudrate = baudrate
        self.corrupt_to_host = corrupt_to_host
        self.corrupt_to_pad = corrupt_to_pad
        self.rng = random.Random(seed)
        self.corrupted = 0  # frames (to the host) and reads (to the pad) spoiled on purpose
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._frozen = False
        self._babbling = False
        self._flood: subprocess.Popen[bytes] | None = None
        self._closing = threading.Event()
        self.pad = p.PadLink(self.boot_id, pad_id, inputs, keep)
        self.decoder = p.FrameDecoder()
        self.pings = 0
        self._wire: deque[bytes] = deque()  # the uart transport's bytes still to go down the wire
        self._wire_ready = threading.Condition(self._lock)
        self._threads = [threading.Thread(target=self._run, name="pad emulator", daemon=True)]
        if transport == "uart":
            self._threads.append(threading.Thread(target=self._uart, name="pad emulator uart", daemon=True))
        for thread in self._threads:
            thread.start()

    @property
    def unacked(self) -> list[tuple[int, int, int, int]]:
        """(edge_seq, pad_us, code, pressed) of every edge the host has not ACKed, oldest first."""
        return list(self.pad.unacked)

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
            self._write(self.pad.hello())  # as the firmware does when it starts
            return name

    def unplug(self) -> None:
        """Pull the cable: the pty goes away (the host's reads fail) and so does the stable name."""
        self.flood(False)
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
            self._wire.clear()

    def freeze(self) -> None:
        """The pad hangs: no heartbeats, no answers, nothing sent (edges are still recorded)."""
        self._frozen = True

    def thaw(self) -> None:
        self._frozen = False

    def babble(self, on: bool = True) -> None:
        """The line carries nothing but noise (no 0x00 delimiters): frozen, and random bytes instead."""
        self._babbling = on

    def flood(self, on: bool = True) -> None:
        """Random bytes onto the line to the host as fast as it takes them (a runaway device at line
        rate), from a process of their own, as a device's bytes cost this process nothing; the pad's
        own frames go on among them. `flood(False)` stops it."""
        with self._lock:
            if self._flood is not None:
                self._flood.kill()
                self._flood.wait()
                self._flood = None
            if on and self._master is not None:
                self._flood = subprocess.Popen(
                    [sys.executable, "-c", FLOODER, str(self._master)], pass_fds=(self._master,))

    def noise(self, count: int) -> bytes:
        """`count` random bytes with no 0x00 among them onto the line to the host (they spoil the next
        frame); returns them, so that a test can find them in what the host reads."""
        with self._lock:
            data = bytes(self.rng.randrange(1, 256) for _ in range(count))
            self._write(data, spoil=False)
            return data

    def close(self) -> None:
        self.flood(False)
        self._closing.set()
        with self._wire_ready:
            self._wire_ready.notify_all()
        for thread in self._threads:
            thread.join(timeout=2)
        self.unplug()

    # -- the pad's side
    def now_us(self) -> int:
        return self.pad_clock.pad_us(self._clock())

    def press(self, control: str, pressed: bool = True, at_ns: int | None = None, noise: int = 0) -> int:
        """An edge on one of the pad's inputs, at host time `at_ns` (default now). Returns its edge_seq.
        `noise`: that many random bytes go onto the line just before the edge's frame, nothing between
        them (a HEARTBEAT or PONG could come between a `noise()` and the frame), so they spoil it."""
        pad_us = self.pad_clock.pad_us(self._clock() if at_ns is None else at_ns)
        with self._lock:
            frames = self.pad.edge(pad_us, p.CONTROL_CODES.index(control), int(pressed))
            if not self._frozen:
                if noise:
                    self.noise(noise)
                self._write(frames)
            return self.pad.edge_seq

    def tap(self, control: str, hold_ns: int = TAP_NS) -> None:
        """Press now and release `hold_ns` later (a timer thread)."""
        self.press(control, True)
        timer = threading.Timer(hold_ns / 1e9, self.press, args=(control, False))
        timer.daemon = True
        timer.start()

    def _spoil(self, data: bytes, chance: float) -> bytes:
        """Bytes as the line delivers them: each frame in them (up to and with its 0x00) corrupted at a
        random byte with probability `chance`."""
        if not chance:
            return data
        out = []
        for piece in data.split(b"\x00"):
            out.append(bytearray(piece + b"\x00"))
        out[-1] = out[-1][:-1]  # the last piece had no 0x00 of its own
        for frame in out:
            if frame and self.rng.random() < chance:
                frame[self.rng.randrange(len(frame))] ^= self.rng.randrange(1, 256)
                self.corrupted += 1
        return b"".join(bytes(frame) for frame in out)

    def _write(self, data: bytes, spoil: bool = True) -> None:
        """Frames (each ending in 0x00) onto the line, if the cable is in. Call with the lock held."""
        if self._master is None or not data:
            return
        if spoil:
            data = self._spoil(data, self.corrupt_to_host)
        if self.transport == "uart":
            self._wire.append(data)
            self._wire_ready.notify_all()
            return
        with contextlib.suppress(OSError):  # nobody reading and the buffer full, or the host hung up
            os.write(self._master, data)

    def _uart(self) -> None:
        """The uart transport: bytes leave at the baud rate (10 bits each, 8N1), a few at a time, so the
        host reads frames in pieces as it does from a UART adapter. Paced against the clock, not by
        summing sleeps: a thread woken late (a loaded machine) sends what the wire would have sent by
        then in one piece, as a real UART's FIFO hands it over, instead of falling ever further behind."""
        byte_ns = 10 * 1_000_000_000 // self.baudrate
        free_ns = time.monotonic_ns()  # when the wire has sent everything handed to it so far
        while not self._closing.is_set():
            with self._wire_ready:
                while not self._wire and not self._closing.is_set():
                    self._wire_ready.wait(0.1)
                if self._closing.is_set():
                    return
                now = time.monotonic_ns()
                free_ns = max(free_ns, now - byte_ns * UART_CHUNK)  # (an idle wire saves up no bytes)
                budget = max(UART_CHUNK, (now - free_ns) // byte_ns)
                chunk = self._wire.popleft()
                piece, rest = chunk[:budget], chunk[budget:]
                if rest:
                    self._wire.appendleft(rest)
                master = self._master
            if master is not None:
                with contextlib.suppress(OSError):
                    os.write(master, piece)
            free_ns += len(piece) * byte_ns
            time.sleep(max(0, free_ns - time.monotonic_ns()) / 1e9)  # the wire's own pace, not a wait for a thread

    def _run(self) -> None:
        next_beat = self._clock()
        while not self._closing.is_set():
            master = self._master
            now = self._clock()
            if self._babbling and master is not None:
                self.noise(64)
                self._closing.wait(0.002)
                continue
            if now >= next_beat:
                if not self._frozen:
                    with self._lock:
                        self._write(self.pad.heartbeat(self.now_us()))
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
            data = self._spoil(data, self.corrupt_to_pad)
            if data:
                for message in self.decoder.feed(data):
                    self._handle(message)

    def _handle(self, message: tuple[int, int, tuple[int, ...]]) -> None:
        kind, _seq, fields = message
        if kind == p.PING:
            if self.to_pad_delay is not None:
                time.sleep(self.to_pad_delay())
            t2 = self.now_us()
            self.pings += 1
            t3 = self.now_us()
            if self.to_host_delay is not None:
                time.sleep(self.to_host_delay())
            with self._lock:
                self._write(self.pad.frame(p.PONG, fields[0], t2, t3))
            return
        with self._lock:
            self._write(self.pad.handle(message, self.now_us(), self.now_us))


KEYS = {"a": "left", "d": "right", "s": "spit", **{str(n): f"pile{n}" for n in range(1, 7)}}

HOW_TO = """\
connecting it (one emulator per pad, each in its own terminal):
  spit-arcade pad-emulator --link /tmp/spit-pad-1
  spit-arcade pad-emulator --link /tmp/spit-pad-2 --pad-id 2
then an inputs file, say pads.toml, with one [[serial]] table per pad:
  sources = ["serial"]
  [[serial]]
  port = "/tmp/spit-pad-1"
  player = 1
  [[serial]]
  port = "/tmp/spit-pad-2"
  player = 2
and play with it (the keyboard still plays too):  spit-arcade play --inputs pads.toml
or watch the link and every slap:                 spit-arcade inputs --config pads.toml

keys it reads (in a terminal; the terminal with the emulator must have the focus):
  a  left slap pad     s  Spit!     d  right slap pad     1-6  stock piles 1-6 (a tap: press, release 60 ms later)
  u  unplug / plug the cable        f  freeze / thaw the pad (no heartbeats: the link goes lost)
  n  a burst of line noise (the next frame is spoiled and must be asked for again)
  q  quit
with standard input not a terminal it reads commands, one a line:
  tap CONTROL | press CONTROL [T_NS] | release CONTROL [T_NS] | noise N | babble | quiet |
  unplug | plug | freeze | thaw | stats | quit
  (CONTROL: {controls};
   T_NS: when, on this machine's monotonic clock)

a long cable's faults, to try the link:  --corrupt 1 (per cent of frames spoiled each way), --transport uart
"""


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
            elif key == "n":
                pad.noise(3)
                print("line noise (3 bytes)", flush=True)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _wait_until(t_ns: int) -> None:
    while (left := t_ns - time.monotonic_ns()) > 0:
        time.sleep(left / 1e9)


def _commands(pad: PadEmulator) -> int:
    """Line commands; `press`/`release` may name a monotonic-clock ns to do it at. Each edge is echoed
    as `edge SEQ CONTROL 1|0 T_NS SENT_NS` (T_NS: its true time on this machine's monotonic clock;
    SENT_NS: when its frame was written); `stats` prints `stats corrupted=N unacked=N edges=N`."""
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
        elif verb == "noise" and arg.isdigit():
            pad.noise(int(arg))
            print(f"noise {arg}", flush=True)
        elif verb in ("babble", "quiet"):
            pad.babble(verb == "babble")
            print(verb, flush=True)
        elif verb in ("unplug", "plug", "freeze", "thaw"):
            getattr(pad, verb)()
            print(verb, flush=True)
        elif verb == "stats":
            print(f"stats corrupted={pad.corrupted} unacked={len(pad.unacked)} edges={pad.pad.edge_seq}", flush=True)
        elif verb == "quit":
            break
        else:
            print(f"unknown command {verb!r}", file=sys.stderr)
    return 0


def _delay(text: str | None) -> Delay | None:
    """ "BASE_MS,MEAN_MS": a fixed delay plus an exponentially distributed one (ValueError saying
    what is wrong with it)."""
    if not text:
        return None
    base, _, mean = text.partition(",")
    try:
        base_s, mean_s = float(base) / 1000, float(mean or 0) / 1000
    except ValueError:
        raise ValueError(f"expected BASE_MS,MEAN_MS, e.g. 2,1, not {text!r}") from None
    if not (0 <= base_s <= 10 and 0 <= mean_s <= 10):
        raise ValueError(f"each delay must be from 0 to 10000 ms, not {text!r}")
    if mean_s <= 0:
        return lambda: base_s
    return lambda: base_s + random.expovariate(1 / mean_s)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="spit-arcade pad-emulator",
        description=__doc__.split("\n\n")[0] + " It speaks hardware/serial-protocol.md as the Pico firmware does.",
        epilog=HOW_TO.format(controls=", ".join(p.CONTROL_CODES)),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--link", default="/tmp/spit-pad-1", help="the stable name to point at the pty (the port)")
    parser.add_argument("--pad-id", type=int, default=1)
    parser.add_argument("--drift-ppm", type=float, default=0.0, help="make the pad's clock run fast/slow")
    parser.add_argument("--offset-us", type=int, default=None, help="the pad clock's start (default random)")
    parser.add_argument("--to-pad-delay", metavar="BASE_MS,MEAN_MS", help="simulated delay host->pad")
    parser.add_argument("--to-host-delay", metavar="BASE_MS,MEAN_MS", help="simulated delay pad->host")
    parser.add_argument(
        "--transport",
        choices=TRANSPORTS,
        default="usb",
        help="usb: whole frames at once (USB CDC); uart: bytes at --baudrate, as over RS-485/422",
    )
    parser.add_argument("--baudrate", type=int, default=115200, help="the uart transport's speed")
    parser.add_argument("--corrupt", type=float, default=0.0, metavar="PERCENT", help="frames spoiled, each way")
    parser.add_argument("--keep", type=int, default=KEEP, help="unacknowledged edges kept (the firmware: 256)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the spoiled frames and noise")
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="run at real-time priority where allowed (a real pad is its own machine)",
    )
    args = parser.parse_args(argv)
    try:
        to_pad, to_host = _delay(args.to_pad_delay), _delay(args.to_host_delay)
    except ValueError as error:
        parser.error(f"--to-pad-delay/--to-host-delay: {error}")
    if not 0 <= args.pad_id <= 255:
        parser.error("--pad-id must be from 0 to 255 (one byte in the HELLO frame)")
    if not 1 <= args.keep <= 65535:
        parser.error("--keep must be from 1 to 65535")
    if not 0 <= args.corrupt <= 100:
        parser.error("--corrupt must be a percentage from 0 to 100")
    if not 300 <= args.baudrate <= 4_000_000:
        parser.error("--baudrate must be from 300 to 4000000")
    if not -10_000 <= args.drift_ppm <= 10_000:
        parser.error("--drift-ppm must be from -10000 to 10000")
    if args.offset_us is not None and not 0 <= args.offset_us < 2**32:
        parser.error("--offset-us must be from 0 to 2**32-1 (the pad's microsecond clock)")
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
        to_pad_delay=to_pad,
        to_host_delay=to_host,
        keep=args.keep,
        transport=args.transport,
        baudrate=args.baudrate,
        corrupt_to_host=args.corrupt / 100,
        corrupt_to_pad=args.corrupt / 100,
        seed=args.seed,
    )
    try:
        try:
            port = pad.plug()
        except OSError as error:
            print(f"spit-arcade pad-emulator: --link {args.link}: cannot make the link: {error}", file=sys.stderr)
            return 2
        print(f"pad {args.pad_id} on {port} via {args.link}", flush=True)
        if sys.stdin.isatty():
            print(f'connect: [[serial]] port = "{args.link}" in an inputs file (--help says more)')
            print("keys: a left, s spit, d right, 1-6 piles; u unplug/replug, f freeze/thaw, n noise, q quit")
            _interactive(pad)
            return 0
        return _commands(pad)
    finally:
        pad.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
