"""A unit's listening Unix socket: the one systemd passed (socket activation), or one bound here.

The updater (appliance/updater/server.py) and the link unit (appliance/linked/relay.py) are started by
their sockets on a cabinet; from a clone, a test or a desktop they bind their own.
"""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path

LISTEN_FD = 3  # sd_listen_fds(3): the first socket systemd passes


def from_systemd() -> socket.socket | None:
    """The listening socket systemd passed (LISTEN_PID/LISTEN_FDS), if any."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()) or int(os.environ.get("LISTEN_FDS", "0") or 0) < 1:
        return None
    return socket.socket(fileno=LISTEN_FD)


def bind(path: Path, kind: int = socket.SOCK_STREAM, backlog: int = 4) -> socket.socket:
    """A listening Unix socket at `path` (one left there by an earlier run replaced)."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    sock = socket.socket(socket.AF_UNIX, kind)
    sock.bind(str(path))
    sock.listen(backlog)
    return sock
