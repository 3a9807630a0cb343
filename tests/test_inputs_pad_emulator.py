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
from lab.pad_emulator import PadClock, PadEmulator, main

WAIT = 5.0


class Host:
    """The host's end of the pty, by hand."""

    def __init__(self, link: str) -> None:
        self.fd = os.open(link, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        termios.tcflush(self.fd, termios.TCIFLUSH)  # as the host does: not the HELLO the pad said at plug-in
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
        host.send(p.ACK, 0xABCD, first)
        host.send(p.HOST_HELLO)
        assert host.expect(p.HELLO) == (0xABCD, 2, 3, first + 1, first + 1)  # keeps first + 1, made first + 1
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
        boot_id, beat_us, _last, _first_kept = host.expect(p.HEARTBEAT)
        assert boot_id == 0xABCD and p.us_diff(beat_us, t3) >= 0
    finally:
        host.close()


def test_a_nack_brings_a_heartbeat_and_the_edges_asked_for(pad):
    host = Host(pad.link)
    try:
        seqs = [pad.press(control, True) for control in ("left", "right", "spit")]
        while host.expect(p.HEARTBEAT)[2] != seqs[2]:  # past the heartbeat that follows the last edge
            pass
        host.send(p.ACK, 0x1234, seqs[-1])  # another boot's ACK: the pad keeps everything
        host.send(p.NACK, 0xABCD, seqs[1], seqs[2])
        assert host.expect(p.HEARTBEAT)[2:] == (seqs[2], seqs[0])  # last made, first kept
        assert [host.expect(p.EDGE)[0] for _ in range(2)] == seqs[1:]
        assert [e[0] for e in pad.unacked] == seqs
    finally:
        host.close()


@pytest.mark.parametrize("transport", ["usb", "uart"])
def test_a_spoiling_line_corrupts_frames_and_noise_has_no_delimiters(tmp_path, transport):
    pad = PadEmulator(str(tmp_path / "pad"), boot_id=1, transport=transport, corrupt_to_host=1.0, seed=1)
    try:
        pad.plug()
        host = Host(pad.link)
        try:
            pad.press("left", True)
            deadline = time.monotonic() + WAIT
            while host.decoder.errors() < 2 and time.monotonic() < deadline:  # (bounded by WAIT)
                if select.select([host.fd], [], [], WAIT)[0]:
                    assert host.decoder.feed(os.read(host.fd, 512)) == []  # nothing gets through
            assert host.decoder.errors() >= 2 and pad.corrupted >= 2
            pad.corrupt_to_host = 0.0
            noise = pad.noise(50)
            # What is still on the line before it (the tail of a spoiled heartbeat the uart had not yet
            # sent, one written as the loop above ended) comes first: read until the noise has come whole.
            line = b""
            deadline = time.monotonic() + WAIT
            while noise not in line and time.monotonic() < deadline:  # (bounded by WAIT)
                if select.select([host.fd], [], [], WAIT)[0]:
                    line += os.read(host.fd, 512)
            assert noise in line and len(noise) == 50 and 0 not in noise  # on the line as sent, no delimiter
        finally:
            host.close()
    finally:
        pad.close()


def test_an_unknown_transport_is_refused(tmp_path):
    with pytest.raises(ValueError, match="usb, uart"):
        PadEmulator(str(tmp_path / "pad"), transport="carrier pigeon")


def test_unplug_removes_the_stable_name_and_plug_brings_a_new_pty(pad):
    old = os.readlink(pad.link)
    pad.unplug()
    assert not os.path.lexists(pad.link) and not pad.plugged
    new = pad.plug()
    assert os.readlink(pad.link) == new
    assert new != old or os.path.exists(new)


def test_the_command_line_plays_edges_from_stdin(tmp_path, monkeypatch, capsys):
    link = str(tmp_path / "cli-pad")
    commands = "press spit 5\nrelease spit\nfreeze\nbogus\nnoise 3\nstats\nquit\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(commands))
    assert main(["--link", link, "--offset-us", "0"]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert lines[0].startswith("pad 1 on /dev/pts/") and lines[0].endswith(link)
    assert lines[1].startswith("edge 1 spit 1 5 ")
    assert lines[2].startswith("edge 2 spit 0 ")
    assert lines[3] == "freeze"
    assert lines[4] == "noise 3"
    assert lines[5] == "stats corrupted=0 unacked=2 edges=2"
    assert "unknown command 'bogus'" in out.err
    assert not os.path.lexists(link)  # closing unplugs
    assert termios  # (the interactive mode needs a terminal; it is not exercised here)


def test_help_says_how_to_connect_it_and_which_keys_it_reads(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    for needed in ("[[serial]]", 'port = "/tmp/spit-pad-1"', "play --inputs", "spit-arcade inputs --config"):
        assert needed in text
    for key, control in (("a", "left"), ("s", "Spit!"), ("d", "right"), ("1-6", "stock piles")):
        assert f"{key}  {control}" in text
