"""The Pico firmware (hardware/pad_firmware/main.py) run on CPython with stand-ins for MicroPython's
`machine`, `micropython` and `time.ticks_*`, against the host's own decoder and serial link: the two
ends of the protocol must agree."""

import contextlib
import importlib.util
import os
import sys
import threading
import time
import tty
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.inputs import protocol as p
from appliance.inputs.serial_link import SerialSource

FIRMWARE = Path(__file__).parent.parent / "hardware" / "pad_firmware" / "main.py"
WAIT = 5.0
TICKS_US = 1 << 30  # rp2's ticks_us() period
TICKS_MS = 1 << 30


class Ticks(types.ModuleType):
    """MicroPython's time: ticks_us/ticks_ms that wrap, from a clock the test may drive."""

    def __init__(self, clock_ns=time.monotonic_ns) -> None:
        super().__init__("time")
        self.clock_ns = clock_ns

    def ticks_us(self) -> int:
        return (self.clock_ns() // 1000) % TICKS_US

    def ticks_ms(self) -> int:
        return (self.clock_ns() // 1_000_000) % TICKS_MS

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        return ((a - b + TICKS_US // 2) % TICKS_US) - TICKS_US // 2

    @staticmethod
    def ticks_add(a: int, delta: int) -> int:
        return (a + delta) % TICKS_MS

    @staticmethod
    def sleep_us(us: int) -> None:
        time.sleep(us / 1e6)  # sleep-ok: the firmware's own 100 µs poll pacing, not a test waiting on a thread


class Pin:
    IN, PULL_UP, IRQ_FALLING, IRQ_RISING = 0, 1, 2, 4

    def __init__(self, gp: int, *args: int) -> None:
        self.gp = gp
        self.level = 1

    def value(self) -> int:
        return self.level

    def irq(self, handler: object, trigger: int, hard: bool = False) -> None:
        self.handler = handler


def load_firmware(monkeypatch: pytest.MonkeyPatch, ticks: Ticks) -> types.ModuleType:
    machine = types.ModuleType("machine")
    machine.Pin = Pin  # type: ignore[attr-defined]
    micro = types.ModuleType("micropython")
    micro.alloc_emergency_exception_buf = lambda size: None  # type: ignore[attr-defined]
    micro.kbd_intr = lambda char: None  # type: ignore[attr-defined]
    for name, module in (("machine", machine), ("micropython", micro), ("protocol", p), ("time", ticks)):
        monkeypatch.setitem(sys.modules, name, module)
    spec = importlib.util.spec_from_file_location("pad_firmware_main", FIRMWARE)
    assert spec is not None and spec.loader is not None
    firmware = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(firmware)  # its `import time` takes the stand-in
    monkeypatch.setitem(sys.modules, "time", time)  # the stand-in stays the firmware's own `time`
    return firmware


class Port:
    """The firmware's port, as a list of frames written and bytes to read."""

    def __init__(self) -> None:
        self.written = b""
        self.incoming = b""

    def write(self, data: bytes) -> None:
        self.written += data

    def read(self) -> bytes:
        data, self.incoming = self.incoming, b""
        return data

    def messages(self) -> list[tuple[int, int, tuple[int, ...]]]:
        data, self.written = self.written, b""
        return p.FrameDecoder().feed(data)


def slap(firmware: types.ModuleType, index: int, level: int) -> None:
    """The pin interrupt of input `index`, the contact now at `level` (0: pressed)."""
    firmware._irq_for(index)(types.SimpleNamespace(value=lambda: level))


def test_the_firmware_speaks_the_hosts_protocol(monkeypatch):
    now = [10_000_000_000]
    firmware = load_firmware(monkeypatch, Ticks(lambda: now[0]))
    assert {control for _, control in firmware.INPUTS} <= set(p.CONTROL_CODES)
    port = Port()
    pad = firmware.Pad(port)
    pad.step()  # its first heartbeat
    (kind, _, hello), (beat_kind, _, _) = port.messages()
    assert kind == p.HELLO and hello[1:] == (firmware.PAD_ID, len(firmware.INPUTS), 1, 0)
    assert beat_kind == p.HEARTBEAT
    boot_id = hello[0]

    slap(firmware, 0, 0)
    pad.step()
    edge, beat = port.messages()
    assert edge[0] == p.EDGE and edge[2][0] == 1 and p.CONTROL_CODES[edge[2][2]] == firmware.INPUTS[0][1]
    assert edge[2][3] == 1  # pressed
    assert beat[0] == p.HEARTBEAT and beat[2][0] == boot_id and beat[2][2:] == (1, 1)

    now[0] += 40_000_000  # past the lockout
    slap(firmware, 0, 1)
    pad.step()
    port.messages()
    port.incoming = p.encode(p.NACK, 0, boot_id, 1, 1) + p.encode(p.PING, 1, 9)
    pad.step()
    out = port.messages()
    assert [m[0] for m in out] == [p.HEARTBEAT, p.EDGE, p.PONG]
    assert out[1][2] == edge[2]  # the very edge asked for, resent
    port.incoming = p.encode(p.ACK, 2, boot_id, 2)
    pad.step()
    assert pad.link.unacked == [] and pad.link.first_kept() == 3

    now[0] += 200_000_000
    pad.step()
    assert [m[0] for m in port.messages()] == [p.HEARTBEAT]  # the periodic one


class PtyPort:
    """The firmware's port on a pseudo-terminal's master side (the host opens the slave)."""

    def __init__(self, master: int) -> None:
        self.master = master

    def write(self, data: bytes) -> None:
        if data:
            with contextlib.suppress(OSError):
                os.write(self.master, data)

    def read(self) -> bytes:
        try:
            return os.read(self.master, 512)
        except BlockingIOError:
            return b""


@pytest.fixture
def firmware_on_a_pty(monkeypatch, tmp_path) -> Iterator[tuple[types.ModuleType, object, str]]:
    firmware = load_firmware(monkeypatch, Ticks())
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    link = str(tmp_path / "pico")
    os.symlink(os.ttyname(slave), link)
    pad = firmware.Pad(PtyPort(master))
    stopping = threading.Event()
    lock = threading.Lock()

    def loop() -> None:  # the Pico's main loop, on its own "core"
        while not stopping.is_set():
            with lock:
                pad.step()
            stopping.wait(0.0005)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    yield firmware, (pad, lock), link
    stopping.set()
    thread.join(timeout=2)
    os.close(master)
    os.close(slave)


def test_the_firmware_and_the_host_link_agree_over_a_pty(firmware_on_a_pty):
    firmware, (pad, lock), link = firmware_on_a_pty
    source = SerialSource(link, player=2, reopen_ns=20_000_000)
    got: list[tuple[str, bool]] = []
    arrived = threading.Condition()

    class Sink:
        def put(self, press: object) -> None:
            with arrived:
                got.append((press.control, press.pressed))  # type: ignore[attr-defined]
                arrived.notify_all()

        def advance(self, source: str, t_ns: int) -> None:
            pass

    source.start(Sink())
    try:
        assert source.wait_for(lambda s: s.link == "up", WAIT), source.link_events
        with lock:
            os.write(pad.port.master, b"\x13\x37\x42")  # line noise: the next frame is spoiled...
            slap(firmware, 0, 0)
            pad.step()
        with arrived:  # ...and asked for again
            assert arrived.wait_for(lambda: got == [(firmware.INPUTS[0][1], True)], WAIT)
        assert source.receiver.recovered == 1 and source.missing == 0
        assert source.wait_for(lambda s: not pad.link.unacked, WAIT)  # ACKed on the pad
    finally:
        source.stop()
