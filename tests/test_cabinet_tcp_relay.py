"""The venue step's relay (lab/cabinet/tcp_relay.py), as QEMU's guestfwd runs it: a process whose
standard input and output are the guest's connection, carried to a TCP port on the host, both ways,
and closed when the guest closes."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path

RELAY = Path(__file__).resolve().parent.parent / "lab" / "cabinet" / "tcp_relay.py"


def read_exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def test_the_relay_carries_a_connection_both_ways_and_closes_with_it() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(30)
    got: list[bytes] = []

    def host_side() -> None:  # the broker's part: reads what the guest sent, answers, sees the close
        connection, _ = server.accept()
        with connection:
            connection.settimeout(30)
            got.append(read_exactly(connection, 5))
            connection.sendall(b"CONNACK" * 10000)  # larger than one read
            got.append(connection.recv(10))  # b"": the guest closed

    thread = threading.Thread(target=host_side)
    thread.start()
    guest, relayed = socket.socketpair()
    guest.settimeout(30)
    process = subprocess.Popen([sys.executable, str(RELAY), "127.0.0.1", str(server.getsockname()[1])],
                               stdin=relayed.fileno(), stdout=relayed.fileno())
    relayed.close()
    try:
        guest.sendall(b"HELLO")
        assert read_exactly(guest, 70000) == b"CONNACK" * 10000
        guest.shutdown(socket.SHUT_WR)
        assert process.wait(timeout=30) == 0
        thread.join(timeout=30)
        assert got == [b"HELLO", b""]
    finally:
        if process.poll() is None:
            process.kill()
        guest.close()
        server.close()


def test_with_nothing_listening_the_guest_sees_its_connection_close_and_nothing_else() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # bound, never listening: refused
        guest, relayed = socket.socketpair()
        guest.settimeout(30)
        process = subprocess.Popen([sys.executable, str(RELAY), "127.0.0.1", str(port)],
                                   stdin=relayed.fileno(), stdout=relayed.fileno(), stderr=relayed.fileno())
        relayed.close()
        try:
            assert process.wait(timeout=30) == 1
            assert guest.recv(100) == b""  # no traceback sent to the guest as if the broker had said it
        finally:
            guest.close()
