"""The sd_notify client: READY/WATCHDOG/STATUS datagrams to $NOTIFY_SOCKET, at most one ping per half
watchdog period, and nothing at all outside systemd."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance import watchdog
from appliance.watchdog import DRAW_STEP_S, Notifier


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    """A stand-in for systemd's notification socket: (address, the socket it reads)."""
    path = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.setblocking(False)
    try:
        yield path, server
    finally:
        server.close()


def received(server: socket.socket) -> list[str]:
    messages = []
    while True:
        try:
            messages.append(server.recv(4096).decode())
        except BlockingIOError:
            return messages


def test_ready_status_and_stopping_reach_systemd(systemd: tuple[str, socket.socket]) -> None:
    address, server = systemd
    notifier = Notifier(address, "10000000")
    assert notifier.enabled
    assert notifier.ready("title")
    assert notifier.status("playing: round 2\nsecond line")
    assert notifier.stopping()
    assert received(server) == ["READY=1\nSTATUS=title", "STATUS=playing: round 2 second line", "STOPPING=1"]
    notifier.close()


def test_each_step_of_the_start_gives_systemd_a_minute_more_and_says_the_step(
    systemd: tuple[str, socket.socket],
) -> None:
    """A slow start that moves on (an emulated CPU, a long journal to resume) is not killed at the
    unit's TimeoutStartSec=; one that hangs still is, a minute after its last step."""
    address, server = systemd
    notifier = Notifier(address, "10000000")
    assert notifier.progress("the store open")
    assert notifier.progress("the first frame", DRAW_STEP_S)  # what comes next draws: three minutes
    assert received(server) == [
        "EXTEND_TIMEOUT_USEC=60000000\nSTATUS=starting: the store open",
        "EXTEND_TIMEOUT_USEC=180000000\nSTATUS=starting: the first frame",
    ]
    notifier.close()


def test_pings_go_at_half_the_watchdog_period_however_often_it_is_called(systemd: tuple[str, socket.socket]) -> None:
    address, server = systemd
    clock = FakeClock()
    notifier = Notifier(address, "2000000", clock=clock)  # WatchdogSec=2s: ping every second
    sent = []
    for frame in range(300):  # five seconds at 60 frames a second
        clock.now = 100.0 + frame / 60
        sent.append(notifier.ping())
    assert received(server) == ["WATCHDOG=1"] * 5
    assert [frame for frame, ping in enumerate(sent) if ping] == [0, 60, 120, 180, 240]


def test_the_abstract_namespace_is_understood() -> None:
    name = f"spit-arcade-test-{os.getpid()}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind("\0" + name)
    server.setblocking(False)
    try:
        assert Notifier("@" + name, "").ready()
        assert received(server) == ["READY=1"]
    finally:
        server.close()


def test_outside_systemd_every_call_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setattr(watchdog, "_notifier", None)
    assert not watchdog.notifier().enabled
    assert not watchdog.ready("title") and not watchdog.ping() and not watchdog.status("x") and not watchdog.stopping()
    for bad in ("relative/path", "x"):
        assert not Notifier(bad, "").enabled


def test_a_systemd_that_went_away_is_not_an_error(tmp_path: Path) -> None:
    notifier = Notifier(str(tmp_path / "gone"), "1000000")
    assert notifier.enabled and not notifier.ping() and not notifier.ready()


def test_the_module_functions_use_the_environment(
    systemd: tuple[str, socket.socket], monkeypatch: pytest.MonkeyPatch
) -> None:
    address, server = systemd
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.setattr(watchdog, "_notifier", None)
    assert watchdog.ready() and watchdog.ping()
    assert watchdog.notifier().interval_s == 5.0
    assert received(server) == ["READY=1", "WATCHDOG=1"]
    watchdog.notifier().close()
