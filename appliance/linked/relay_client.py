"""The game's end of the link unit (relay.py): a UDP socket as peer.py's `Peer` uses one, over the
unit's Unix socket, and the packets both ends speak (relay.py's docstring says them). Kept apart from
the unit's own code, which peer.py must not import (the unit finds games on the venue through
venue.py, which imports peer.py).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import wire
from .finding import Cancel

SOCKET = Path("/run/spit-arcade-link.sock")
ENV = "SPIT_ARCADE_LINK_RELAY"  # the game's unit names the socket here: the link goes through the relay
VERSION = 1
ADDR = struct.Struct("!4sH")
STAMP = struct.Struct("!Q")
ERRNO = struct.Struct("!H")
MAX_PACKET = 1 + STAMP.size + ADDR.size + wire.MAX_DATAGRAM
RCVBUF = 256 * 1024
OPEN_S = 45.0  # the longest an open may take (finding a game on the venue: 30 s, and the broker's connect)


def addr(address: tuple[str, int]) -> bytes:
    return ADDR.pack(socket.inet_aton(address[0]), address[1])


def address_at(data: bytes, at: int) -> tuple[str, int]:
    raw, port = ADDR.unpack_from(data, at)
    return socket.inet_ntoa(raw), int(port)


class RelayError(OSError):
    """The relay refused the link, or is not there (the words say which)."""


class RelaySocket:
    """A UDP socket as peer.py uses one, through the relay. `stamp_ns`: the relay's clock when the last
    datagram `recvfrom` returned was taken off the network."""

    def __init__(self, path: str | Path, request: Mapping[str, Any], timeout: float = OPEN_S,
                 cancel: Cancel | None = None) -> None:
        self.path = str(path)
        self.request = {"v": VERSION, **request}
        self.stamp_ns = 0
        self.peer: tuple[str, int] | None = None
        self.port = 0
        self.where = ""
        self.reconnects = 0
        self.hops_ns: deque[int] = deque(maxlen=100_000)  # network -> this reader, each datagram (the hop's cost)
        self._timeout: float | None = None
        self._rcvbuf = RCVBUF
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._sock = self._open(timeout, cancel)

    def _open(self, timeout: float, cancel: Cancel | None = None) -> socket.socket:
        """Open the link through the unit (`cancel`: an open still waiting, a find, ends at once in
        Cancelled when it is set: its Unix socket is shut down under the wait, and the unit, seeing
        the game's end go, calls its find off too)."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            sock.settimeout(timeout)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self._rcvbuf)
            try:
                sock.connect(self.path)
            except OSError as error:
                raise RelayError(f"the link unit at {self.path} does not answer ({error.strerror or error})") from None
            sock.sendall(b"O" + json.dumps(self.request, separators=(",", ":")).encode())
            forget = cancel.when_set(lambda: sock.shutdown(socket.SHUT_RDWR)) if cancel is not None else None
            try:
                reply = sock.recv(MAX_PACKET)
            except TimeoutError:
                raise RelayError(f"the link unit at {self.path} did not open the link within {timeout:g} s") from None
            finally:
                if forget is not None:
                    forget()
            if cancel is not None:
                cancel.check()  # (called off: whatever the unit answered is not taken)
            if reply[:1] != b"R":
                raise RelayError(f"the link unit at {self.path} closed without opening the link")
            body = json.loads(reply[1:])
            if "error" in body:
                raise RelayError(f"the link unit: {body['error']}")
            self.port = int(body["port"])
            self.where = str(body.get("where", ""))
            if body.get("peer"):
                self.peer = (str(body["peer"][0]), int(body["peer"][1]))
            sock.settimeout(self._timeout)
            return sock
        except BaseException:
            sock.close()
            raise

    # ---- what peer.py calls

    def setsockopt(self, level: int, option: int, value: int) -> None:
        if (level, option) == (socket.SOL_SOCKET, socket.SO_RCVBUF):
            self._rcvbuf = value
        self._sock.setsockopt(level, option, value)

    def settimeout(self, timeout: float | None) -> None:
        self._timeout = timeout
        self._sock.settimeout(timeout)

    def getsockname(self) -> tuple[str, int]:
        return ("0.0.0.0", self.port)

    def fileno(self) -> int:
        return self._sock.fileno()

    def sendto(self, data: bytes, address: tuple[str, int]) -> int:
        self._send(b"S" + addr(address) + data)
        return len(data)

    def connect(self, address: tuple[str, int]) -> None:
        self._send(b"C" + addr(address))
        if "listen" in self.request:
            self.peer = address

    def unconnect(self) -> None:
        self._send(b"U")
        if "listen" in self.request:
            self.peer = None

    def recvfrom(self, size: int) -> tuple[bytes, tuple[str, int]]:
        while True:
            sock = self._sock
            try:
                packet = sock.recv(MAX_PACKET)
            except TimeoutError:
                raise
            except OSError:
                if self._closed.is_set():
                    raise
                packet = b""
            if not packet:
                self._again()  # the relay went away (its unit restarted): call it again
                raise TimeoutError("the link unit went away")
            kind = packet[:1]
            if kind == b"D":
                (self.stamp_ns,) = STAMP.unpack_from(packet, 1)
                self.hops_ns.append(time.monotonic_ns() - self.stamp_ns)
                return packet[1 + STAMP.size + ADDR.size:][:size], address_at(packet, 1 + STAMP.size)
            if kind == b"E":
                code = ERRNO.unpack_from(packet, 1)[0]
                raise OSError(code, os.strerror(code))
            # (anything else: not for the reader)

    def close(self) -> None:
        self._closed.set()
        with contextlib.suppress(OSError):
            self._sock.close()

    # ----

    def _send(self, packet: bytes) -> None:
        try:
            self._sock.send(packet, socket.MSG_DONTWAIT)
        except BlockingIOError:
            raise OSError(errno.ENOBUFS, "the link unit is behind") from None

    def _again(self) -> None:
        """(The reader.) Open the same link again through a relay that restarted, once per timeout."""
        if self._closed.is_set():
            return
        wait = self._timeout or 0.05
        with contextlib.suppress(OSError):
            self._sock.close()
        try:
            request = dict(self.request)
            if "listen" in request:  # the same port (the other cabinet calls it); paired again by peer.py
                request["listen"] = self.port
                request.pop("offer", None)
            else:  # the same address, from the same port: the other cabinet hears the same caller
                request = {"v": VERSION, "connect": list(self.peer or ("127.0.0.1", 0)), "from": self.port}
            self.request = request
            sock = self._open(max(wait, 1.0))
        except (OSError, ValueError, KeyError):
            self._sock = _dead_socket()
            self._closed.wait(max(wait, 0.5))
            return
        self.reconnects += 1
        if self.peer is not None and "listen" in request:
            with contextlib.suppress(OSError):
                sock.send(b"C" + addr(self.peer), socket.MSG_DONTWAIT)
        self._sock = sock


def _dead_socket() -> socket.socket:
    """A socket whose reads end at once (EOF), so the reader tries the relay again on its next read."""
    one, other = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    other.close()
    return one
