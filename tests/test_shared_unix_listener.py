"""A unit's listening Unix socket: systemd's where it passed one, else bound here (a stale file replaced)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from appliance.shared import unix_listener


def test_a_socket_file_left_by_an_earlier_run_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "unit.sock"
    path.write_text("left over")
    with unix_listener.bind(path, socket.SOCK_SEQPACKET) as listener:
        assert listener.type == socket.SOCK_SEQPACKET
        with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as client:
            client.connect(str(path))  # it listens


def test_systemds_socket_only_when_it_was_passed_to_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LISTEN_PID", raising=False)
    assert unix_listener.from_systemd() is None
    monkeypatch.setenv("LISTEN_PID", str(os.getpid() + 1))  # (passed to another process)
    monkeypatch.setenv("LISTEN_FDS", "1")
    assert unix_listener.from_systemd() is None
    monkeypatch.setenv("LISTEN_PID", str(os.getpid()))
    monkeypatch.setenv("LISTEN_FDS", "0")
    assert unix_listener.from_systemd() is None
