"""`spit-arcade bench inputs`: edge to press applied by the rules core, over every kind of link.

Three measurements, each with a consumer thread that plays the game loop: it spins on pure-Python work
in chunks of `--work-ms` (holding the GIL, as drawing does) and between chunks calls `Merger.ready` and
applies every pressed edge to a real rules-core Game. A press's latency is the time from its true edge
to the moment `game.press` has returned.

gpio    gpiozero's MockFactory pins driven low/high by another thread; the edge is the mock pin's
        own change time (what gpiozero passes `_pin_changed` as ticks).
serial  a PadEmulator on a pseudo-terminal with its own clock (random offset, 25 ppm drift) and
        asymmetric simulated delays on the clock-sync path (host->pad 0.2 ms + exp(mean 1.5 ms),
        pad->host 0.05 ms + exp(mean 0.2 ms)); the edge is the pad's true edge time, so the clock-sync
        error is |host stamp - true edge| of every press. GPIO sources are merged alongside (idle),
        so serial presses pay the merge's wait for GPIO too.
corrupt a PadEmulator whose line corrupts `--corrupt-rate` of the frames each way at a random byte
        (the 0x00 delimiter too), `--corrupt-edges` edges 1 ms apart over nine controls: how many were
        lost or came twice at the merger, and whether the presses the rules core applied kept edge
        order (recovered presses included).
loss    how long after the pad falls silent, or the line carries nothing but noise, the link says lost.
race    two slaps 1 ms apart from different players racing their 8s onto the same 9, `--trials` times,
        alternately first: GPIO vs GPIO (both stamped by the "kernel" 1 ms apart, delivered in stamp
        order as lgpio does) and serial pad vs GPIO (the pad's edge first or second), each pad press
        delivered `--pad-delay-ms` (0 to 50 ms, uniform) late as a sprinting runner's long or noisy
        link does, so it often reaches the game after the GPIO slap was applied; `--load` processes
        keep every CPU busy besides the game loop's own busy work. Every press goes through
        `Match.press`, which rolls back to put a late press in its place. Correct = the race was
        decided in edge order: the earlier slap's card is on the pile, the other one told `too_late`.
        Reported with the rollbacks per 1,000 presses and their depth (presses undone and redone).
flood   (only with `--only flood`: it draws) a live game's frames, as `bench render` times them (SDL's
        dummy driver without a display), for `--flood-seconds` with a pad link up and quiet, then as
        long with random bytes poured onto the pad's pty as fast as it takes them (a process of
        their own, as a device's bytes cost the game nothing): the frame p99 of each, the reader
        thread's share of a core during the flood (its CPU time from /proc), the bytes a second it
        took off the line or dropped, and what the link said.
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import itertools
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

from appliance.inputs.debounce import Timing
from appliance.inputs.gpio import GpioSource, PinControl
from appliance.inputs.merge import SWITCH_INTERVAL_S, Merger, favour_input_threads
from appliance.inputs.press import GAME_CONTROLS, Press, PressSink
from appliance.inputs.serial_link import DEGRADED, SerialSource
from appliance.inputs.source import SourceStatus
from appliance.match import Match
from appliance.rules import Game, deck, game_from_state

from ..pad_emulator import PadEmulator
from .figures import print_figures
from .press_log import PressLog

Applied = tuple[Press, int]  # the press and the monotonic ns when game.press returned


def spin(work_ns: int) -> None:
    """Busy pure-Python work (holds the GIL), like a frame being drawn."""
    end = time.monotonic_ns() + work_ns
    x = 0
    while time.monotonic_ns() < end:
        for i in range(50):
            x += i * i


class Consumer:
    """The game loop: busy work, then merger.ready(), then game.press for each pressed edge."""

    def __init__(self, merger: Merger, work_ns: int) -> None:
        self.merger = merger
        self.work_ns = work_ns
        self.applied: queue.SimpleQueue[Applied] = queue.SimpleQueue()
        self.stopping = threading.Event()
        self.game, _ = Game.new(seed=7)
        self.start_ns = time.monotonic_ns()
        self.thread = threading.Thread(target=self.run, name="consumer", daemon=True)

    def run(self) -> None:
        while not self.stopping.is_set():
            spin(self.work_ns)
            for press in self.merger.ready(time.monotonic_ns()):
                if press.is_game_press:
                    t = max(0.0, (press.t_ns - self.start_ns) / 1e9)
                    self.game.press(t, press.player, press.control)
                    if self.game.phase == "over":
                        self.game, _ = Game.new(seed=8)
                    self.applied.put((press, time.monotonic_ns()))

    def take(self, count: int, timeout_s: float = 5.0) -> list[Applied]:
        return [self.applied.get(timeout=timeout_s) for _ in range(count)]

    def __enter__(self) -> Consumer:
        self.merger.start()
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)
        self.merger.stop()


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def summary(latencies_ms: list[float]) -> dict[str, float]:
    return {
        "p50": round(pct(latencies_ms, 0.50), 3),
        "p99": round(pct(latencies_ms, 0.99), 3),
        "max": round(max(latencies_ms), 3),
    }


def wait_until(t_ns: int) -> None:
    """Sleep (releasing the GIL, as a real outside world would not need it) until t_ns."""
    while (left := t_ns - time.monotonic_ns()) > 0:
        time.sleep(left / 1e9)


def mock_factory() -> Any:
    from gpiozero.pins.mock import MockFactory

    return MockFactory()


def gpio_controls() -> list[PinControl]:
    return [
        PinControl(pin, player, f"pile{n}") for n, (pin, player) in enumerate([(4, 1), (17, 1), (23, 2), (24, 2)], 1)
    ]


def bench_gpio(presses: int, work_ns: int, rng: random.Random) -> dict[str, float]:
    factory = mock_factory()
    source = GpioSource(gpio_controls(), pin_factory=factory)
    with Consumer(Merger([source]), work_ns) as consumer:
        pins = [source.button(c.player, c.control).pin for c in source.controls]
        latencies = []
        for n in range(presses):
            pin = pins[n % len(pins)]  # each pin every 4th press: 4 x >= 3 ms apart, past its 10 ms lockout
            time.sleep(rng.uniform(0.0015, 0.003))
            pin.drive_low()
            press, applied = consumer.take(1)[0]
            latencies.append((applied - press.t_ns) / 1e6)
            time.sleep(0.0005)
            pin.drive_high()
            pin.clear_states()  # the mock pin keeps a history; keep it short
    return summary(latencies)


class PadProcess:
    """`spit-arcade pad-emulator` in its own process (as a real pad is its own machine), driven by lines."""

    def __init__(self, link: str, *options: str) -> None:
        command = [sys.executable, "-m", "lab.pad_emulator", "--realtime", "--link", link, *options]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in, self._out = self.proc.stdin, self.proc.stdout
        first = self._out.readline()
        if not first.startswith("pad "):
            raise RuntimeError(f"pad emulator did not start: {first!r}")
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()  # what it says, read as it says it
        threading.Thread(target=self._read, name="pad emulator output", daemon=True).start()

    def _read(self) -> None:
        for line in self._out:
            self.lines.put(line)

    def command(self, line: str) -> None:
        self._in.write(line + "\n")
        self._in.flush()

    def send(self, control: str, pressed: bool, at_ns: int | None = None) -> None:
        verb = "press" if pressed else "release"
        self.command(f"{verb} {control}{'' if at_ns is None else f' {at_ns}'}")

    def said(self, first_word: str, timeout_s: float = 5.0) -> list[str]:
        """The words of the next line it says that starts with `first_word` (others are passed over)."""
        while True:
            words = self.lines.get(timeout=timeout_s).split()
            if words and words[0] == first_word:
                return words

    def edge_time(self) -> int:
        """The true time of the last edge sent, as the emulator echoes it."""
        return int(self.said("edge")[4])

    def stats(self) -> dict[str, int]:
        self.command("stats")
        return {k: int(v) for k, _, v in (word.partition("=") for word in self.said("stats")[1:])}

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._in.write("quit\n")
            self._in.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def bench_serial(presses: int, work_ns: int, rng: random.Random, link: str) -> dict[str, Any]:
    pad = PadProcess(link, "--drift-ppm", "25", "--to-pad-delay", "0.2,1.5", "--to-host-delay", "0.05,0.2")
    serial = SerialSource(link, player=2)
    gpio = GpioSource(gpio_controls(), pin_factory=mock_factory())
    controls = ["left", "right", "spit", "pile1"]
    try:
        with Consumer(Merger([gpio, serial]), work_ns) as consumer:
            if not serial.wait_for(lambda s: s.link == "up", 5.0):
                raise RuntimeError(f"pad link never came up: {serial.link}")
            time.sleep(2.0)  # let the clock sync take more than its first burst
            latencies, errors = [], []
            for n in range(presses):
                control = controls[n % len(controls)]  # each control every 4th press: past the pad lockout
                time.sleep(rng.uniform(0.008, 0.012))
                pad.send(control, True)
                press, applied = consumer.take(1)[0]
                edge_ns = pad.edge_time()
                latencies.append((applied - edge_ns) / 1e6)
                errors.append(abs(press.t_ns - edge_ns) / 1e6)
                pad.send(control, False)
                pad.edge_time()
            sync = serial.clock_sync
            return {
                **summary(latencies),
                "clock_error_p99": round(pct(errors, 0.99), 3),
                "clock_error_max": round(max(errors), 3),
                "clock_error_bound": round((sync.error_bound_ns or 0) / 1e6, 3),
                "garbage": serial.decoder.garbage,
            }
    finally:
        pad.close()


class RecordingMerger(Merger):
    """A Merger that also keeps every press put to it, in arrival order."""

    def __init__(self, sources: list[Any]) -> None:
        super().__init__(sources)
        self.arrived: list[Press] = []

    def put(self, press: Press) -> None:
        self.arrived.append(press)
        super().put(press)


def bench_corrupt(edges: int, rate: float, work_ns: int, seed: int, link: str) -> dict[str, Any]:
    """Every edge sent over a corrupting line, matched with what reached the merger and the rules core."""
    controls = [c for c in GAME_CONTROLS if c in ("left", "right", "spit") or c.startswith("pile")]
    gap_ns = 1_000_000
    pad = PadProcess(link, "--drift-ppm", "20", "--corrupt", str(rate * 100), "--seed", str(seed), "--keep", "256")
    # each control's edges are len(controls) ms apart: past a 1 ms lockout, so every edge is a press or release
    serial = SerialSource(link, player=1, timing=Timing(lockout_ns=gap_ns))
    merger = RecordingMerger([serial])
    sent: list[tuple[str, bool, int]] = []
    try:
        with Consumer(merger, work_ns) as consumer:
            if not serial.wait_for(lambda s: s.link == "up", 5.0):
                raise RuntimeError(f"pad link never came up: {serial.link}")
            serial.wait_for(lambda s: s.clock_sync.samples_taken >= 8, 5.0)  # the first burst of pings
            down = dict.fromkeys(controls, False)
            t0 = time.monotonic_ns() + 50_000_000
            for n in range(edges):  # all told at once: the emulator waits for each one's time
                control = controls[n % len(controls)]
                down[control] = not down[control]
                pad.send(control, down[control], at_ns=t0 + n * gap_ns)
            for _ in range(edges):
                words = pad.said("edge", timeout_s=10.0)
                sent.append((words[2], words[3] == "1", int(words[4])))
            serial.wait_for(lambda s: s.edges + s.stale + s.missing >= edges and s.receiver.gap() is None, 10.0)
            expected = sum(1 for _, pressed, _ in sent if pressed)
            applied: list[Applied] = []
            with contextlib.suppress(queue.Empty):
                while len(applied) < expected:
                    applied.append(consumer.applied.get(timeout=2.0))
            stats = pad.stats()
    finally:
        pad.close()
    # match each arrival with the sent edge of the same control and level nearest in time: those are
    # 2 * len(controls) ms apart, so anything within `reach` (the clock sync's error is far less) is it
    index = {(c, p, at // gap_ns): i for i, (c, p, at) in enumerate(sent)}
    reach = len(controls) - 1
    hits = [0] * len(sent)
    spurious = 0

    def match(press: Press) -> int | None:
        near = round(press.t_ns / gap_ns)
        found = [index.get((press.control, press.pressed, near + step)) for step in range(-reach, reach + 1)]
        candidates = [i for i in found if i is not None and abs(sent[i][2] - press.t_ns) < reach * gap_ns]
        return min(candidates, key=lambda i: abs(sent[i][2] - press.t_ns), default=None)

    for press in merger.arrived:
        i = match(press)
        if i is None:
            spurious += 1
        else:
            hits[i] += 1
    order = [match(press) for press, _ in applied]
    latencies = [(done - sent[i][2]) / 1e6 for (press, done), i in zip(applied, order, strict=True) if i is not None]
    known = [i for i in order if i is not None]
    return {
        "trials": len(sent),
        "lost": sum(1 for h in hits if h == 0),
        "duplicated": sum(h - 1 for h in hits if h > 1) + spurious,
        "out_of_order": sum(1 for a, b in itertools.pairwise(known) if b < a),
        "applied": len(applied),
        "frames_corrupted": stats.get("corrupted", 0),
        "resend_requests": serial.receiver.nacks,
        "recovered": serial.receiver.recovered,
        "missing": serial.missing,
        "stale": serial.stale,
        "late": merger.late,
        "p50_ms": round(pct(latencies, 0.50), 3) if latencies else None,
        "p99_ms": round(pct(latencies, 0.99), 3) if latencies else None,
        "max_ms": round(max(latencies), 3) if latencies else None,
        "degraded": DEGRADED in serial.link_events,
    }


def bench_loss(trials: int, link: str) -> dict[str, float]:
    """How long after silence, and after garbage only, the link reports lost (the worst of `trials`)."""
    pad = PadEmulator(link, boot_id=1, seed=1)
    pad.plug()
    serial = SerialSource(link, player=1, reopen_ns=20_000_000)
    silence: list[float] = []
    garbage: list[float] = []
    degraded: list[bool] = []
    try:
        serial.start(Merger())
        for _ in range(trials):
            for kind in ("silence", "garbage"):
                if not serial.wait_for(lambda s: s.link == "up", 5.0):
                    raise RuntimeError(f"pad link never came up: {serial.link}")
                before = len(serial.link_events)
                t0 = time.monotonic_ns()
                if kind == "silence":
                    pad.freeze()
                else:
                    pad.babble()
                serial.wait_for(lambda s: s.link.startswith("lost"), 5.0)
                lost_ns = time.monotonic_ns() - t0
                (silence if kind == "silence" else garbage).append(lost_ns / 1e6)
                if kind == "garbage":
                    degraded.append(DEGRADED in serial.link_events[before:])
                pad.thaw()
                pad.babble(False)
    finally:
        serial.stop()
        pad.close()
    return {
        "silence_ms": round(max(silence), 1),
        "garbage_ms": round(max(garbage), 1),
        "degraded_first": all(degraded),
    }


def thread_cpu_s(native_id: int) -> float:
    """CPU seconds (user + system) a thread of this process has used, from /proc."""
    with open(f"/proc/self/task/{native_id}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_flood(seconds: float, link: str, size: tuple[int, int] = (1280, 720)) -> dict[str, Any]:
    """The frame p99 of a live game with a pad link up and quiet, then under a flood of random bytes
    onto the pad's line; the reader's CPU and the bytes it handled during the flood."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # stdout is the figures
    import pygame

    from .render import _percentile, frame_times

    pad = PadEmulator(link, boot_id=1, seed=1)
    pad.plug()
    serial = SerialSource(link, player=1, reopen_ns=20_000_000)
    pygame.display.init()
    pygame.font.init()
    try:
        pygame.display.set_mode(size)
        serial.start(Merger())
        if not serial.wait_for(lambda s: s.link == "up", 10.0):
            raise RuntimeError(f"pad link never came up: {serial.link}")
        quiet, _ = frame_times(size, "tabletop", seconds, full=False)
        reader = serial._thread
        assert reader is not None and reader.native_id is not None
        flood = getattr(serial, "flood", None)  # (the guard: absent from a reader without one)
        handled_before = serial.decoder.garbage + (flood.dropped if flood is not None else 0)
        cpu_before, wall_before = thread_cpu_s(reader.native_id), time.monotonic()
        pad.flood()
        flooded, _ = frame_times(size, "tabletop", seconds, full=False)
        cpu = thread_cpu_s(reader.native_id) - cpu_before
        wall = time.monotonic() - wall_before
        pad.flood(False)
        handled = serial.decoder.garbage + (flood.dropped if flood is not None else 0) - handled_before
        link_during = sorted({event for event in serial.link_events if event != "up"})
        driver = pygame.display.get_driver()
    finally:
        serial.stop()
        pad.close()
        pygame.quit()
    return {
        "seconds": seconds,
        "video_driver": driver,
        "frame_p99_ms_quiet": round(_percentile(quiet, 0.99), 3),
        "frame_p99_ms": round(_percentile(flooded, 0.99), 3),
        "reader_cpu_pct": round(100 * cpu / wall, 1),
        "bytes_per_s": round(handled / wall),
        "dropped_bytes": flood.dropped if flood is not None else None,
        "link": link_during,
    }


def kernel_edge(pin: Any, ticks_s: float, level: bool) -> None:
    """Deliver an edge the way lgpio does: the kernel's stamp, handed over when the callback runs."""
    from gpiozero.pins.pi import PiPin

    pin._state = level
    PiPin._call_when_changed(pin, ticks_s, level)


class SlowLink:
    """A source whose presses (and clock promises) reach the merger `delay()` seconds after the source
    delivered them, in the order delivered, as over a long or noisy link: a sprinting runner's pad."""

    def __init__(self, source: SerialSource, delay: Any) -> None:
        self.source = source
        self.name = source.name
        self.latency_ns = source.latency_ns  # what the merger is told: it does not know the link is slow
        self.delay = delay
        self._sink: PressSink | None = None
        self._queue: list[tuple[int, int, Press | int]] = []
        self._seq = 0
        self._last_due = 0
        self._wake = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._deliver, name="slow link", daemon=True)

    def start(self, sink: PressSink) -> None:
        self._sink = sink
        self._thread.start()
        self.source.start(self)

    def stop(self) -> None:
        self.source.stop()
        with self._wake:
            self._stopping = True
            self._wake.notify_all()
        self._thread.join(timeout=2)

    def poll(self, now_ns: int) -> None:
        self.source.poll(now_ns)

    def status(self, now_ns: int) -> SourceStatus:
        return self.source.status(now_ns)

    def _later(self, item: Press | int) -> None:
        with self._wake:
            due = max(self._last_due, time.monotonic_ns() + int(self.delay() * 1e9))
            self._last_due = due
            heapq.heappush(self._queue, (due, self._seq, item))
            self._seq += 1
            self._wake.notify_all()

    def put(self, press: Press) -> None:
        self._later(press)

    def advance(self, source: str, t_ns: int) -> None:
        self._later(t_ns)

    def _deliver(self) -> None:
        while True:
            with self._wake:
                while not self._stopping and (not self._queue or self._queue[0][0] > time.monotonic_ns()):
                    wait = (self._queue[0][0] - time.monotonic_ns()) / 1e9 if self._queue else 0.1
                    self._wake.wait(max(wait, 0.0))
                if self._stopping:
                    return
                _, _, item = heapq.heappop(self._queue)
            sink = self._sink
            if sink is None:
                continue
            if isinstance(item, Press):
                sink.put(item)
            else:
                sink.advance(self.name, item)


def race_game() -> Game:
    """Each player holds an 8 (player 1 8H, player 2 8C) that fits the 9S on spit pile 0: player 1's
    `left`, player 2's `right`. The first slap plays; the second is `too_late`."""
    stocks = [["2C", "8H"], ["3C"], ["4C"], ["5C"], ["6C"]], [["2D", "8C"], ["3D"], ["4D"], ["5D"], ["6D"]]
    used = {card for seat in stocks for pile in seat for card in pile} | {"9S", "KS"}
    state = {
        "variant": "classic",
        "phase": "playing",
        "spit_piles": [[c for c in deck() if c not in used] + ["9S"], ["KS"]],
        "players": [
            {"stock": [{"cards": pile, "up": 1} for pile in seat], "spit_cards": [], "selected": 1}
            for seat in stocks
        ],
    }
    game = game_from_state(state)
    assert isinstance(game, Game)
    return game


class RaceConsumer:
    """The game loop of the race: busy work, then merger.ready(), then `Match.press` for each
    pressed edge, into the match of the trial being run."""

    def __init__(self, merger: Merger, work_ns: int) -> None:
        self.merger = merger
        self.work_ns = work_ns
        self.applied: queue.SimpleQueue[Applied] = queue.SimpleQueue()
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.match: Match | None = None
        self.thread = threading.Thread(target=self.run, name="race consumer", daemon=True)

    def run(self) -> None:
        while not self.stopping.is_set():
            spin(self.work_ns)
            for press in self.merger.ready(time.monotonic_ns()):
                if press.is_game_press:
                    with self.lock:
                        if self.match is not None:
                            self.match.press(press.t_ns, press.player, press.control, press.source)
                    self.applied.put((press, time.monotonic_ns()))

    def take(self, count: int, timeout_s: float = 5.0) -> list[Applied]:
        return [self.applied.get(timeout=timeout_s) for _ in range(count)]

    def __enter__(self) -> RaceConsumer:
        self.merger.start()
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)
        self.merger.stop()


def load_cpus(count: int) -> list[subprocess.Popen[bytes]]:
    """`count` processes spinning on pure Python, as a loaded machine."""
    spinner = "import os\nos.nice(0)\nwhile True:\n    pass\n"
    return [subprocess.Popen([sys.executable, "-c", spinner]) for _ in range(count)]


def winner_of(match: Match) -> int | None:
    """Who played their 8 onto the 9 (the race's decision), as the match has it after any rollback."""
    return next((e.player for e in match.events if e.kind == "play"), None)  # type: ignore[attr-defined]


def bench_race(trials: int, work_ns: int, rng: random.Random, link: str, pad_delay_ms: float = 50.0,
               load: int = 0, horizon_ms: float | None = None) -> dict[str, Any]:
    pad = PadProcess(link, "--drift-ppm", "-15")
    serial = SerialSource(link, player=2)
    slow = SlowLink(serial, lambda: rng.uniform(0, pad_delay_ms / 1000))
    gpio = GpioSource([PinControl(13, 1, "left"), PinControl(21, 2, "right")], pin_factory=mock_factory())
    correct = {"gpio-gpio": 0, "pad-gpio": 0}
    done = {"gpio-gpio": 0, "pad-gpio": 0}
    misses: list[dict[str, Any]] = []
    presses = rollbacks = late = 0
    depths: list[int] = []
    loaders = load_cpus(load)
    merger = Merger([gpio, slow])
    try:
        with RaceConsumer(merger, work_ns) as consumer:
            if not serial.wait_for(lambda s: s.link == "up", 5.0):
                raise RuntimeError(f"pad link never came up: {serial.link}")
            time.sleep(1.0)
            p1 = gpio.button(1, "left").pin
            p2 = gpio.button(2, "right").pin
            for trial in range(trials):
                kind = "gpio-gpio" if trial % 2 == 0 else "pad-gpio"
                first = 1 if (trial // 2) % 2 == 0 else 2
                time.sleep(0.035 + rng.uniform(0, 0.005))  # past the pads' 30 ms lockout
                t0 = time.monotonic_ns() + 3_000_000  # a moment ahead, so the pad can be told in time
                t1 = t0 + 1_000_000
                match = Match(0, t0 - 1_000_000_000, game=race_game())
                if horizon_ms is not None:
                    match.horizon_s = horizon_ms / 1000
                with consumer.lock:
                    consumer.match = match
                if kind == "gpio-gpio":
                    a, b = (p1, p2) if first == 1 else (p2, p1)
                    kernel_edge(a, t0 / 1e9, False)
                    wait_until(t1)
                    kernel_edge(b, t1 / 1e9, False)
                    got = consumer.take(2)
                    kernel_edge(a, time.monotonic_ns() / 1e9, True)
                    kernel_edge(b, time.monotonic_ns() / 1e9, True)
                else:  # player 2 on the pad, player 1 on GPIO
                    if first == 2:
                        pad.send("right", True, at_ns=t0)  # the emulator waits for t0, then sends
                        wait_until(t1)
                        kernel_edge(p1, t1 / 1e9, False)
                    else:
                        pad.send("right", True, at_ns=t1)
                        wait_until(t0)
                        kernel_edge(p1, t0 / 1e9, False)
                    got = consumer.take(2, timeout_s=5.0 + pad_delay_ms / 1000)
                    pad.edge_time()
                    kernel_edge(p1, time.monotonic_ns() / 1e9, True)
                    pad.send("right", False)
                    pad.edge_time()
                with consumer.lock:
                    consumer.match = None
                done[kind] += 1
                presses += match.presses
                rollbacks += match.rollbacks
                late += match.late_presses
                depths += match.rollback_depths
                if winner_of(match) == first:
                    correct[kind] += 1
                else:
                    misses.append(
                        {
                            "kind": kind,
                            "first": first,
                            "won": winner_of(match),
                            "rollbacks": match.rollbacks,
                            "got": [
                                {
                                    "player": p.player,
                                    "edge_ms": round((p.t_ns - t0) / 1e6, 3),
                                    "applied_ms": round((a - t0) / 1e6, 3),
                                }
                                for p, a in got
                            ],
                        }
                    )
    finally:
        pad.close()
        for loader in loaders:
            loader.kill()
            loader.wait()
    return {
        "trials": trials,
        "correct": sum(correct.values()),
        "misses": misses[:5],
        **{f"correct_{k}": v for k, v in correct.items()},
        **{f"trials_{k}": v for k, v in done.items()},
        "presses": presses,
        "rollbacks": rollbacks,
        "rollbacks_per_1000_presses": round(1000 * rollbacks / presses, 1) if presses else None,
        "rollback_depth_mean": round(sum(depths) / len(depths), 2) if depths else None,
        "rollback_depth_max": max(depths, default=None),
        "late_presses": late,
        "merger_late": merger.late,
        "pad_delay_max_ms": pad_delay_ms,
        "load": load,
    }


def bench_rollback(games: int, pad_delay_ms: float, seed: int, variant: str = "running") -> dict[str, Any]:
    """Rollbacks in whole games, in virtual time: two computer players (level 5) play `variant`; their
    presses are then handed to a match each 0 to `pad_delay_ms` late (both seats on pads), with a
    frame every 1/60 s, and the match puts every late one in its place. How often it rolls back, how
    deep, and what a press costs on this machine, rollbacks included."""
    from appliance.bots import make_bot

    rng = random.Random(seed)
    presses = rollbacks = late = 0
    depths: list[int] = []
    busy_ns = 0
    rolled_ns: list[int] = []  # each press that rolled the game back: what it cost
    second = 1_000_000_000
    for game_number in range(games):
        log = PressLog()
        bots: dict[int, Any] = {n: make_bot("5", n, seed + game_number * 2 + n) for n in (1, 2)}
        original = Match(seed + game_number, 0, log, bots, variant=variant)
        frame = 0
        while not original.finished and frame < 60 * 600:
            frame += 1
            original.tick(frame * second // 60)
        arrivals = sorted(
            (round(t * second) + int(rng.uniform(0, pad_delay_ms) * 1e6), n, round(t * second), player, control)
            for n, (t, player, control, _) in enumerate(log.presses)
        )
        match = Match(seed + game_number, 0, variant=variant)
        next_frame = 0
        for arrival, _, edge, player, control in arrivals:
            while next_frame <= arrival:
                match.tick(next_frame)
                next_frame += second // 60
            before, rolled = time.perf_counter_ns(), match.rollbacks
            match.press(edge, player, control, "pad")
            took = time.perf_counter_ns() - before
            busy_ns += took
            if match.rollbacks > rolled:
                rolled_ns.append(took)
        presses += match.presses
        rollbacks += match.rollbacks
        late += match.late_presses
        depths += match.rollback_depths
    return {
        "games": games,
        "presses": presses,
        "rollbacks_per_1000_presses": round(1000 * rollbacks / presses, 1) if presses else None,
        "depth_mean": round(sum(depths) / len(depths), 2) if depths else None,
        "depth_p99": pct([float(d) for d in depths], 0.99) if depths else None,
        "depth_max": max(depths, default=None),
        "late_presses": late,
        "press_us_mean": round(busy_ns / presses / 1000, 2) if presses else None,
        "rollback_us_mean": round(sum(rolled_ns) / len(rolled_ns) / 1000, 1) if rolled_ns else None,
        "rollback_us_p99": round(pct([float(n) for n in rolled_ns], 0.99) / 1000, 1) if rolled_ns else None,
        "pad_delay_max_ms": pad_delay_ms,
        "variant": variant,
    }


def raise_priority(nice: int) -> int:
    """Set this thread's (and so every thread it starts afterwards) nice level; returns what it is."""
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    return os.getpriority(os.PRIO_PROCESS, 0)


PARTS = ("gpio", "serial", "corrupt", "loss", "race", "rollback")  # the default
ALL_PARTS = (*PARTS, "flood")  # flood draws: only when asked for


def _check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A usage error (exit 2) for any figure the benchmarks cannot run with."""
    for name in ("presses", "trials", "corrupt_edges", "loss_trials", "rollback_games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    for name in ("work_ms", "pad_delay_ms"):
        value = getattr(args, name)
        if not 0 <= value <= 1000:
            parser.error(f"--{name.replace('_', '-')} must be from 0 to 1000")
    if not 0.01 <= args.switch_interval_ms <= 100:
        parser.error("--switch-interval-ms must be from 0.01 to 100")
    if args.horizon_ms is not None and not 0 <= args.horizon_ms <= 10_000:
        parser.error("--horizon-ms must be from 0 to 10000")
    if not 0 <= args.corrupt_rate <= 1:
        parser.error("--corrupt-rate must be from 0 to 1")
    if not 0 <= args.load <= 64:
        parser.error("--load must be from 0 to 64")
    unknown = [part for part in args.only if part not in ALL_PARTS]
    if unknown:
        parser.error(f"--only: unknown part(s) {', '.join(unknown)} (parts: {','.join(ALL_PARTS)})")
    if not 0.5 <= args.flood_seconds <= 600:
        parser.error("--flood-seconds must be from 0.5 to 600")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade bench inputs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--presses", type=int, default=1000, help="presses per latency measurement")
    parser.add_argument("--trials", type=int, default=1000, help="race trials")
    parser.add_argument("--work-ms", type=float, default=0.5, help="consumer's busy chunk between polls")
    parser.add_argument(
        "--switch-interval-ms",
        type=float,
        default=SWITCH_INTERVAL_S * 1000,
        help="the GIL switch interval for the run, as the game sets it with "
        "favour_input_threads() (Python's own default is 5 ms)",
    )
    parser.add_argument("--pad-delay-ms", type=float, default=50.0,
                        help="race: each pad press reaches the game 0 to this many ms late (uniform)")
    parser.add_argument("--load", type=int, default=os.cpu_count() or 1,
                        help="race: processes spinning on pure Python meanwhile (a loaded machine)")
    parser.add_argument("--horizon-ms", type=float, default=None,
                        help="race: the match's rollback horizon (default the match's own, 250 ms; 0: no rollback)")
    parser.add_argument("--rollback-games", type=int, default=20,
                        help="rollback: whole computer-vs-computer Running Spit games replayed with late pads")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corrupt-edges", type=int, default=10_000, help="edges sent over the corrupting line")
    parser.add_argument("--corrupt-rate", type=float, default=0.01, help="share of frames corrupted, each way")
    parser.add_argument("--loss-trials", type=int, default=3, help="times the link is silenced, and jammed")
    parser.add_argument(
        "--only",
        type=lambda text: text.split(","),
        default=list(PARTS),
        help="comma-separated subset of gpio,serial,corrupt,loss,race,rollback (the default), or flood",
    )
    parser.add_argument("--flood-seconds", type=float, default=8.0,
                        help="flood: seconds of frames quiet, then as many under the flood")
    parser.add_argument(
        "--nice",
        type=int,
        default=-10,
        help="run at this nice level where allowed (root/CAP_SYS_NICE), as the cabinet's one "
        "application does; 0 to leave it",
    )
    args = parser.parse_args(argv)
    _check_arguments(parser, args)
    favour_input_threads(args.switch_interval_ms / 1000)
    niced = raise_priority(args.nice)
    rng = random.Random(args.seed)
    work_ns = int(args.work_ms * 1e6)
    with tempfile.TemporaryDirectory(prefix="spit-bench-") as tmp:
        link = os.path.join(tmp, "pad")
        skipped = {
            "p50": None,
            "p99": None,
            "max": None,
            "clock_error_max": None,
            "clock_error_p99": None,
            "clock_error_bound": None,
        }
        gpio = bench_gpio(args.presses, work_ns, rng) if "gpio" in args.only else skipped
        serial = bench_serial(args.presses, work_ns, rng, link) if "serial" in args.only else skipped
        corrupt: dict[str, Any] = (
            bench_corrupt(args.corrupt_edges, args.corrupt_rate, work_ns, args.seed, link + "-corrupt")
            if "corrupt" in args.only
            else {"trials": 0, "lost": None, "duplicated": None, "out_of_order": None}
        )
        loss: dict[str, Any] = (
            bench_loss(args.loss_trials, link + "-loss")
            if "loss" in args.only
            else {"silence_ms": None, "garbage_ms": None, "degraded_first": None}
        )
        race = (
            bench_race(args.trials, work_ns, rng, link, args.pad_delay_ms, args.load, args.horizon_ms)
            if "race" in args.only
            else {"trials": 0, "correct": 0, "misses": [], "correct_gpio-gpio": 0, "correct_pad-gpio": 0,
                  "rollbacks_per_1000_presses": None, "rollback_depth_mean": None, "rollback_depth_max": None,
                  "late_presses": None, "merger_late": None, "pad_delay_max_ms": None, "load": None}
        )
    rollback: dict[str, Any] = (
        bench_rollback(args.rollback_games, args.pad_delay_ms, args.seed)
        if "rollback" in args.only
        else {}
    )
    flood: dict[str, Any] = {}
    if "flood" in args.only:
        with tempfile.TemporaryDirectory(prefix="spit-bench-") as tmp:
            flood = bench_flood(args.flood_seconds, os.path.join(tmp, "pad-flood"))
    result = {
        "gpio_p50_ms": gpio["p50"],
        "gpio_p99_ms": gpio["p99"],
        "gpio_max_ms": gpio["max"],
        "serial_p50_ms": serial["p50"],
        "serial_p99_ms": serial["p99"],
        "serial_max_ms": serial["max"],
        "clock_sync_error_ms": serial["clock_error_max"],
        "clock_sync_error_p99_ms": serial["clock_error_p99"],
        "clock_sync_error_bound_ms": serial["clock_error_bound"],
        "corrupt_trials": corrupt["trials"],
        "corrupt_lost": corrupt["lost"],
        "corrupt_duplicated": corrupt["duplicated"],
        "corrupt_out_of_order": corrupt["out_of_order"],
        "corrupt_rate": args.corrupt_rate,
        **{f"corrupt_{k}": v for k, v in corrupt.items() if k not in ("trials", "lost", "duplicated", "out_of_order")},
        "link_lost_after_silence_ms": loss["silence_ms"],
        "link_lost_after_garbage_ms": loss["garbage_ms"],
        "link_degraded_before_lost": loss["degraded_first"],
        "race_trials": race["trials"],
        "race_correct": race["correct"],
        "race_correct_gpio_gpio": race["correct_gpio-gpio"],
        "race_correct_pad_gpio": race["correct_pad-gpio"],
        "race_misses": race["misses"],
        "race_pad_delay_max_ms": race["pad_delay_max_ms"],
        "race_load_processes": race["load"],
        "race_merger_late": race["merger_late"],
        "race_late_presses": race["late_presses"],
        "rollbacks_per_1000_presses": race["rollbacks_per_1000_presses"],
        "rollback_depth_mean": race["rollback_depth_mean"],
        "rollback_depth_max": race["rollback_depth_max"],
        **{f"game_rollback_{k}": v for k, v in rollback.items()},
        **{f"flood_{k}": v for k, v in flood.items()},
        "presses": args.presses,
        "work_ms": args.work_ms,
        "switch_interval_ms": round(sys.getswitchinterval() * 1000, 3),
        "nice": niced,
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    print_figures(result, args.json)
    checks = [
        result["gpio_p99_ms"] is None or result["gpio_p99_ms"] <= 2,
        result["serial_p99_ms"] is None or result["serial_p99_ms"] <= 5,
        result["clock_sync_error_ms"] is None or result["clock_sync_error_ms"] <= 1,
        result["race_correct"] == result["race_trials"],
        result["corrupt_lost"] in (None, 0),
        result["corrupt_duplicated"] in (None, 0),
        result["corrupt_out_of_order"] in (None, 0),
        result["link_lost_after_silence_ms"] is None or result["link_lost_after_silence_ms"] <= 1000,
        result["link_lost_after_garbage_ms"] is None or result["link_lost_after_garbage_ms"] <= 1000,
    ]
    ok = all(checks)
    return 0 if ok else 1
