import io
import os
import select
import sys
import termios
import time
import tty
from collections.abc import Iterator

import pytest

from appliance.inputs import protocol as p
from appliance.inputs.pad_emulator import PadClock, PadEmulator, main

WAIT = 5.0


class Host:
    """The host's end of the pty, by hand."""

    def __init__(self, link: str) -> None:
        self.fd = os.open(link, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.decoder = p.FrameDecoder()
        self.seq = 0
        self.inbox: list[tuple[int, int, tuple[int, ...]]] = []

    def send(self, kind: int, *fields: int) -> None:
        os.write(self.fd, p.encode(kind, self.seq, *fields))
        self.seq += 1

    def expect(self, kind: int) -> tuple[int, ...]:
        """The next message of this kind (others before it, such as heartbeats, are passed over)."""
        deadline = time.monotonic() + WAIT
        while True:
            while self.inbox:
                message = self.inbox.pop(0)
                if message[0] == kind:
                    return message[2]
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.fd], [], [], max(0.0, left))
            assert ready and left > 0, f"no {p.NAMES[kind]} within {WAIT} s"
            self.inbox += self.decoder.feed(os.read(self.fd, 512))

    def close(self) -> None:
        os.close(self.fd)


@pytest.fixture
def pad(tmp_path) -> Iterator[PadEmulator]:
    pad = PadEmulator(str(tmp_path / "pad"), pad_id=2, boot_id=0xABCD, pad_clock=PadClock(offset_us=100))
    pad.plug()
    yield pad
    pad.close()


def test_pad_clock_round_trips():
    clock = PadClock(offset_us=1_000, drift_ppm=50, base_ns=0)
    assert clock.pad_us(1_000_000_000) == 1_000 + 1_000_050
    assert abs(clock.host_ns(1_000 + 1_000_050) - 1_000_000_000) < 1_000


def test_hello_then_every_unacked_edge(pad):
    host = Host(pad.link)
    try:
        first = pad.press("left", True)
        pad.press("left", False)
        host.send(p.ACK, first)
        host.send(p.HOST_HELLO)
        assert host.expect(p.HELLO) == (0xABCD, 2, 3)
        edge_seq, _us, code, pressed = host.expect(p.EDGE)
        assert (edge_seq, p.CONTROL_CODES[code], pressed) == (first + 1, "left", 0)
    finally:
        host.close()


def test_ping_is_answered_with_the_pads_own_times(pad):
    host = Host(pad.link)
    try:
        host.send(p.PING, 41)
        ping_id, t2, t3 = host.expect(p.PONG)
        assert ping_id == 41 and 0 <= p.us_diff(t3, t2) < 1_000_000
        beat_us, _ = host.expect(p.HEARTBEAT)
        assert p.us_diff(beat_us, t3) >= 0
    finally:
        host.close()


def test_unplug_removes_the_stable_name_and_plug_brings_a_new_pty(pad):
    old = os.readlink(pad.link)
    pad.unplug()
    assert not os.path.lexists(pad.link) and not pad.plugged
    new = pad.plug()
    assert os.readlink(pad.link) == new
    assert new != old or os.path.exists(new)


def test_the_command_line_plays_edges_from_stdin(tmp_path, monkeypatch, capsys):
    link = str(tmp_path / "cli-pad")
    monkeypatch.setattr(sys, "stdin", io.StringIO("press spit 5\nrelease spit\nfreeze\nbogus\nquit\n"))
    assert main(["--link", link, "--offset-us", "0"]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert lines[0].startswith("pad 1 on /dev/pts/") and lines[0].endswith(link)
    assert lines[1].startswith("edge 1 spit 1 5 ")
    assert lines[2].startswith("edge 2 spit 0 ")
    assert lines[3] == "freeze"
    assert "unknown command 'bogus'" in out.err
    assert not os.path.lexists(link)  # closing unplugs
    assert termios  # (the interactive mode needs a terminal; it is not exercised here)
