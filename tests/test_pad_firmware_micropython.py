"""The pad's firmware on a real MicroPython: hardware/pad_firmware/main.py with appliance/inputs/protocol.py
run by MicroPython's WebAssembly port (npm: @micropython/micropython-webassembly-pyscript) under Node,
with only `machine` stubbed at the pin and UART level (tests/micropython/machine.py), its UART the other
end of a pty that the host's real serial link (SerialSource) reads. What a hobbyist flashing a Pico
would otherwise be the first to run: the firmware's imports, its ring of edges filled from the pin IRQ,
its debounce, and the framing, CRC and struct code of protocol.py, all on MicroPython.

`.ci/run` installs Node and the npm package (cached under .cache/npm, git-ignored); elsewhere the test
skips, saying what is missing (CI=true: it fails instead)."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import tempfile
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.inputs.press import Press
from appliance.inputs.serial_link import SerialSource

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "@micropython/micropython-webassembly-pyscript"
MICROPYTHON = Path(os.environ.get(
    "SPIT_MICROPYTHON_WASM", ROOT / ".cache" / "npm" / "node_modules" / PACKAGE / "micropython.mjs"))
RUNNER = Path(__file__).parent / "micropython" / "run_pad.mjs"
WAIT = 30.0  # seconds: a bound on waiting for the link's threads and the WebAssembly start, never a sleep


def missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed (apt-get install nodejs; .ci/run does)"
    if not MICROPYTHON.is_file():
        return (f"MicroPython's WebAssembly port is not at {MICROPYTHON} "
                f"(npm install --prefix .cache/npm {PACKAGE}; .ci/run does)")
    return None


class Sink:
    def __init__(self) -> None:
        self.presses: queue.Queue[Press] = queue.Queue()

    def put(self, press: Press) -> None:
        self.presses.put(press)

    def advance(self, source: str, t_ns: int) -> None:
        pass


@pytest.fixture
def firmware() -> Iterator[tuple[str, int, subprocess.Popen[str]]]:
    """The firmware running on MicroPython: (the pty's stable name, the pin control pipe, node)."""
    reason = missing()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the firmware on MicroPython: {reason}")
        pytest.skip(reason)
    with tempfile.TemporaryDirectory(prefix="spit-mpy-") as tmp:
        code = Path(tmp) / "firmware"
        code.mkdir()
        shutil.copy(ROOT / "appliance" / "inputs" / "protocol.py", code / "protocol.py")
        shutil.copy(ROOT / "hardware" / "pad_firmware" / "main.py", code / "main.py")
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        link = str(Path(tmp) / "pad")
        os.symlink(os.ttyname(slave), link)
        pins_r, pins_w = os.pipe()
        os.set_blocking(pins_r, False)
        node = subprocess.Popen(
            ["node", str(RUNNER), MICROPYTHON.as_uri(), str(code), str(master), str(pins_r)],
            pass_fds=(master, pins_r), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        os.close(pins_r)
        try:
            yield link, pins_w, node
        finally:
            node.kill()
            output = node.communicate(timeout=WAIT)[0]
            print(output)  # shown with a failure: what MicroPython said
            for fd in (pins_w, master, slave):
                with contextlib.suppress(OSError):
                    os.close(fd)


def drive(pins: int, gp: int, level: int) -> None:
    os.write(pins, f"{gp} {level}\n".encode())


def test_the_firmware_on_micropython_brings_the_link_up_and_sends_its_presses_in_order(firmware):
    link, pins, node = firmware
    source = SerialSource(link, player=1, reopen_ns=20_000_000)
    sink = Sink()
    source.start(sink)
    try:
        up = source.wait_for(lambda s: s.link == "up" or node.poll() is not None, WAIT)
        assert up and node.poll() is None, (source.link_events, node.poll())
        assert source.pad_id == 1 and source.clock_sync.synced
        drive(pins, 14, 0)  # GP14, "left": pressed (pulled low)
        drive(pins, 15, 0)  # GP15, "right"
        got = [sink.presses.get(timeout=WAIT) for _ in range(2)]
        assert [(press.control, press.pressed) for press in got] == [("left", True), ("right", True)]
        assert got[0].t_ns <= got[1].t_ns  # stamped by the firmware's own clock, in the order made
        drive(pins, 13, 0)  # GP13, "spit"
        spit = sink.presses.get(timeout=WAIT)
        assert (spit.control, spit.pressed) == ("spit", True)
        assert source.edges == 3 and source.missing == 0 and source.decoder.errors() == 0
    finally:
        source.stop()
