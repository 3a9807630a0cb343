"""One guest connection carried to a TCP port on the host: QEMU's user network runs this for each
connection the guest makes to a `guestfwd` address (`guestfwd=tcp:ADDR:PORT-cmd:python tcp_relay.py
HOST PORT`), with the guest's side of the connection as its standard input and output.

The virtual cabinet's network is restricted (nothing of the guest reaches the host's network); this
is how its venue step lets the cabinet's uplink reach one broker on the host's loopback, and nothing
else.

    python lab/cabinet/tcp_relay.py 127.0.0.1 8883
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading


def relay(host: str, port: int, guest_in: int = 0, guest_out: int = 1) -> None:
    """Copy both ways until either side closes."""
    with socket.create_connection((host, port), timeout=30) as upstream:
        upstream.settimeout(None)

        def to_host() -> None:
            try:
                while data := os.read(guest_in, 65536):
                    upstream.sendall(data)
            except OSError:
                pass
            finally:
                with contextlib.suppress(OSError):
                    upstream.shutdown(socket.SHUT_WR)

        threading.Thread(target=to_host, daemon=True).start()
        try:
            while data := upstream.recv(65536):
                os.write(guest_out, data)
        except OSError:
            pass


if __name__ == "__main__":
    try:
        relay(sys.argv[1], int(sys.argv[2]))
    except OSError:  # nothing listens (the broker stopped): the guest's connection just closes. Nothing is
        sys.exit(1)  # printed: the standard error is the guest's connection too, where a traceback is garbage
