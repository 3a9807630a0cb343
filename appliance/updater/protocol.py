"""The updater's protocol: one JSON object a line, both ways, over a Unix stream socket.

    -> {"v": 1, "req": "look"}
    <- {"v": 1, "req": "look", "ok": true, "booted": {...}, "stick": true, "bundles": [...]}
    -> {"v": 1, "req": "install", "name": "spit-arcade-0.2.0-amd64.raucb", "confirm_downgrade": false}
    <- {"v": 1, "req": "install", "event": "progress", "percent": 40, "step": "Checking bundle"}   (many)
    <- {"v": 1, "req": "install", "event": "done", "ok": true, ...}
    -> {"v": 1, "req": "status"}
    <- {"v": 1, "req": "status", "ok": true, "booted": {...}, "last": {...}, ...}
    -> {"v": 1, "req": "reboot"}
    <- {"v": 1, "req": "reboot", "ok": true}

Every reply carries `ok`; a refusal is `"ok": false` with `refused` in plain words (the service menu
shows them as they are). A line is at most `MAX_LINE` bytes; a longer one, or one that is not a JSON
object of this version, is refused and the connection closed. systemd/README.md, "The updater".
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["MAX_LINE", "REQUESTS", "SOCKET", "VERSION", "Client", "ProtocolError", "decode", "encode"]

VERSION = 1
SOCKET = Path("/run/spit-arcade-updater.sock")  # systemd/spit-arcade-updater.socket: root:spit, 0660
MAX_LINE = 64 * 1024
REQUESTS = ("look", "install", "status", "reboot")


class ProtocolError(ValueError):
    """A line that is not a request or reply of this protocol."""


def encode(message: dict[str, Any]) -> bytes:
    line = json.dumps({"v": VERSION, **message}, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a message of {len(line)} bytes (at most {MAX_LINE})")
    return line


def decode(line: bytes) -> dict[str, Any]:
    if len(line) > MAX_LINE:
        raise ProtocolError(f"a line longer than {MAX_LINE} bytes")
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise ProtocolError(f"not JSON ({error})") from error
    if not isinstance(message, dict):
        raise ProtocolError("not a JSON object")
    if message.get("v") != VERSION:
        raise ProtocolError(f"protocol version {message.get('v')!r}; this updater speaks {VERSION}")
    return message


class Client:
    """The game's end: one connection, requests written, replies read a line at a time (blocking:
    the operator layer calls it on its own thread, never the frame's)."""

    def __init__(self, path: Path = SOCKET, timeout_s: float | None = 30.0) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout_s)
        try:
            self.sock.connect(str(path))
        except OSError:
            self.sock.close()
            raise
        self.file = self.sock.makefile("rb")

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.file.close()
        self.sock.close()

    def send(self, req: str, **fields: Any) -> None:
        self.sock.sendall(encode({"req": req, **fields}))

    def replies(self) -> Iterator[dict[str, Any]]:
        """Replies as they come, until the connection ends."""
        while True:
            line = self.file.readline(MAX_LINE + 1)
            if not line:
                return
            yield decode(line)

    def ask(self, req: str, **fields: Any) -> dict[str, Any]:
        """One request, its one reply (for look, status, reboot)."""
        self.send(req, **fields)
        for reply in self.replies():
            return reply
        raise ConnectionError("the updater closed the connection without a reply")
