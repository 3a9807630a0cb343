import os
import queue
import time
from collections.abc import Iterator

import pytest

from appliance.inputs import protocol as p
from appliance.inputs.pad_emulator import PadClock, PadEmulator
from appliance.inputs.press import Press
from appliance.inputs.serial_link import SerialSource

WAIT = 5.0  # seconds: a bound on waiting for the link's threads, never a sleep


class Sink:
    def __init__(self) -> None:
        self.presses: queue.Queue[Press] = queue.Queue()
        self.watermarks: list[int] = []

    def put(self, press: Press) -> None:
        self.presses.put(press)

    def advance(self, source: str, t_ns: int) -> None:
        self.watermarks.append(t_ns)

    def take(self, count: int) -> list[tuple[str, bool]]:
        """The next `count` presses in edge-time order (a release inside the pad's debounce lockout is
        handed on when the lockout ends, after later presses of other controls)."""
        got = sorted((self.presses.get(timeout=WAIT) for _ in range(count)), key=lambda press: press.t_ns)
        return [(press.control, press.pressed) for press in got]


@pytest.fixture
def link(tmp_path) -> str:
    return str(tmp_path / "pad")


@pytest.fixture
def pad(link) -> Iterator[PadEmulator]:
    pad = PadEmulator(link, pad_clock=PadClock(offset_us=3_000_000_000, drift_ppm=30), boot_id=7)
    pad.plug()
    yield pad
    pad.close()


def start(link: str, **options: int) -> tuple[SerialSource, Sink]:
    source = SerialSource(link, player=2, reopen_ns=20_000_000, **options)
    sink = Sink()
    source.start(sink)
    assert source.wait_for(lambda s: s.link == "up", WAIT), source.link_events
    return source, sink


def test_a_pad_edge_arrives_stamped_on_the_host_clock(pad, link):
    source, sink = start(link)
    try:
        edge_ns = time.monotonic_ns()
        pad.press("left", True, at_ns=edge_ns)
        press = sink.presses.get(timeout=WAIT)
        assert (press.player, press.control, press.pressed) == (2, "left", True)
        assert press.source == f"serial:{link}"
        bound = source.clock_sync.error_bound_ns or 0
        assert abs(press.t_ns - edge_ns) <= bound + 2_000_000
        status = source.status(time.monotonic_ns())
        assert status.link == "up" and status.details["pad"].startswith("1 (boot 00000007)")
        assert [c.control for c in status.controls] == ["left"]
    finally:
        source.stop()


def test_unplug_and_replug_mid_game_loses_and_duplicates_nothing(pad, link):
    source, sink = start(link)
    try:
        pad.press("left", True)
        assert sink.take(1) == [("left", True)]
        pad.unplug()
        assert source.wait_for(lambda s: s.link.startswith("lost"), WAIT)
        pad.press("left", False)  # played while the cable is out
        pad.press("right", True)
        pad.plug()
        assert source.wait_for(lambda s: s.link == "up", WAIT)
        pad.press("spit", True)
        assert sink.take(3) == [("left", False), ("right", True), ("spit", True)]
        assert sink.presses.empty()
        assert source.link_events[:2] == ["syncing", "up"] and "up" in source.link_events[3:]
        assert source.missing == 0
    finally:
        source.stop()


def test_a_silent_pad_is_reported_lost_and_recovered(pad, link):
    source, sink = start(link, silence_ns=300_000_000)
    try:
        pad.freeze()
        assert source.wait_for(lambda s: s.link == "lost: no heartbeat", WAIT)
        pad.press("right", True)  # the pad records it but sends nothing
        pad.thaw()
        assert source.wait_for(lambda s: s.link == "up", WAIT)
        pad.press("spit", True)
        assert sink.take(2) == [("right", True), ("spit", True)]
        assert sink.presses.empty()
    finally:
        source.stop()


def test_garbage_on_the_line_is_counted_and_skipped(pad, link):
    source, sink = start(link)
    try:
        assert pad._master is not None
        os.write(pad._master, os.urandom(300) + b"\x00")
        pad.press("left", True)
        assert sink.take(1) == [("left", True)]
        assert source.decoder.garbage > 0
        assert source.link == "up"
    finally:
        source.stop()


def test_a_rebooted_pad_is_resynced_and_its_edges_taken(pad, link):
    source, sink = start(link)
    try:
        pad.press("left", True)
        assert sink.take(1) == [("left", True)]
        pad.unplug()
        assert source.wait_for(lambda s: s.link.startswith("lost"), WAIT)
        reborn = PadEmulator(link, boot_id=8, pad_clock=PadClock(offset_us=5))
        try:
            reborn.plug()
            assert source.wait_for(lambda s: s.link == "up" and s.boot_id == 8, WAIT)
            edge_ns = time.monotonic_ns()
            reborn.press("left", True, at_ns=edge_ns)  # edge_seq 1 again: a new boot, so not a duplicate
            press = sink.presses.get(timeout=WAIT)
            assert (press.control, press.pressed) == ("left", True)
            assert abs(press.t_ns - edge_ns) <= (source.clock_sync.error_bound_ns or 0) + 2_000_000
        finally:
            reborn.close()
    finally:
        source.stop()


def test_a_missing_port_is_reported_and_taken_when_it_appears(link):
    source = SerialSource(link, player=1, reopen_ns=20_000_000)
    sink = Sink()
    source.start(sink)
    try:
        assert source.wait_for(lambda s: s.link.startswith("closed"), WAIT)
        pad = PadEmulator(link, boot_id=1)
        try:
            pad.plug()
            assert source.wait_for(lambda s: s.link == "up", WAIT)
            pad.press("start", True)
            press = sink.presses.get(timeout=WAIT)
            assert (press.player, press.control) == (0, "start")  # cabinet buttons belong to no seat
        finally:
            pad.close()
    finally:
        source.stop()
    assert source.link == "closed: stopped"


def test_heartbeats_advance_the_watermark(pad, link):
    source, sink = start(link)
    try:
        before = time.monotonic_ns()
        assert source.wait_for(lambda s: bool(sink.watermarks) and sink.watermarks[-1] > before, WAIT)
    finally:
        source.stop()


def test_the_port_is_opened_exclusively(pad, link):
    source, _ = start(link)
    try:
        import serial

        with pytest.raises(serial.SerialException):
            serial.Serial(link, exclusive=True)
    finally:
        source.stop()
    assert p.VERSION == 1
