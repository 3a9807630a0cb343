"""Telling systemd the game is alive: the sd_notify protocol, standard library only.

The kiosk service is `Type=notify` with `WatchdogSec=`: systemd counts the game as started when it
says READY=1, and kills and restarts it when it has not said WATCHDOG=1 for WatchdogSec (a frame
loop stuck on a dead display, a deadlock). Outside systemd (NOTIFY_SOCKET unset) every call does
nothing, so the desktop and the tests need no switch.

    from appliance import watchdog
    watchdog.progress("the store")  # while starting: one more step done, STEP_S more for the next
    watchdog.ready("title")        # once, when the first frame is on screen
    watchdog.ping()                # every frame: sends WATCHDOG=1 at most every interval_s (cheap)
    watchdog.status("playing")     # a line `systemctl status spit-arcade` shows
    watchdog.stopping()            # on a clean exit

The protocol (sd_notify(3)): newline-separated VAR=value assignments in one datagram to the
AF_UNIX socket named by $NOTIFY_SOCKET (a leading "@" is Linux's abstract namespace);
$WATCHDOG_USEC is the deadline systemd enforces. A failed send is never an error for the game.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable

STEP_S = 60.0  # the most a step of the start may take (the unit's TimeoutStartSec= for the first)
# The steps that draw for the first time (opening the screen, the first frame): where the GPU driver is
# missing, Mesa's software renderer compiles its shaders then, which took 64 s on the virtual cabinet
# (an emulated CPU on a loaded machine). A Pi's GPU takes a moment.
DRAW_STEP_S = 180.0


class Notifier:
    """One connection to systemd's notification socket (or none: every call is a no-op)."""

    def __init__(
        self,
        address: str | None = None,
        watchdog_usec: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`address` and `watchdog_usec` default to $NOTIFY_SOCKET and $WATCHDOG_USEC."""
        address = os.environ.get("NOTIFY_SOCKET") if address is None else address
        usec = os.environ.get("WATCHDOG_USEC") if watchdog_usec is None else watchdog_usec
        self._clock = clock
        self._address: str | bytes | None = None
        self._socket: socket.socket | None = None
        if address and address[0] in "/@":
            self._address = "\0" + address[1:] if address[0] == "@" else address
            try:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                self._socket.setblocking(False)  # a full queue drops a ping, never stalls a frame
            except OSError:
                self._socket = None
        # Ping at half the deadline systemd enforces (sd_watchdog_enabled(3) suggests so); without
        # WATCHDOG_USEC, every 5 s.
        try:
            deadline_s = int(usec) / 1e6 if usec else 10.0
        except ValueError:
            deadline_s = 10.0
        self.interval_s = max(deadline_s / 2, 0.01)
        self._last_ping: float | None = None

    @property
    def enabled(self) -> bool:
        return self._socket is not None

    def notify(self, **fields: str | int) -> bool:
        """Send VAR=value lines (`notify(READY=1, STATUS="title")`); True if systemd got them."""
        if self._socket is None or self._address is None:
            return False
        message = "\n".join(f"{name}={str(value).replace(chr(10), ' ')}" for name, value in fields.items())
        try:
            self._socket.sendto(message.encode("utf-8", "replace"), self._address)
        except OSError:
            return False
        return True

    def progress(self, step: str, next_s: float = STEP_S) -> bool:
        """A step of the start done: systemd's start timeout (TimeoutStartSec=) is extended by `next_s`
        from now (EXTEND_TIMEOUT_USEC=), so a start that is slow but moving (an emulated CPU, a long
        journal to resume) is not killed and restarted for ever, while a start that hangs still is,
        `next_s` after its last step."""
        return self.notify(EXTEND_TIMEOUT_USEC=int(next_s * 1e6), STATUS=f"starting: {step}")

    def ready(self, status: str = "") -> bool:
        """The game is up (the first frame is on screen): systemd's start job is done."""
        return self.notify(READY=1, **({"STATUS": status} if status else {}))

    def ping(self) -> bool:
        """Call every frame: sends WATCHDOG=1 if half the watchdog deadline has passed since the
        last one. True if it sent one."""
        if self._socket is None:
            return False
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < self.interval_s:
            return False
        self._last_ping = now
        return self.notify(WATCHDOG=1)

    def status(self, text: str) -> bool:
        """A one-line status (what the cabinet is doing) for `systemctl status`."""
        return self.notify(STATUS=text)

    def stopping(self) -> bool:
        return self.notify(STOPPING=1)

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


_notifier: Notifier | None = None


def notifier() -> Notifier:
    """The process's notifier, made from the environment on first use."""
    global _notifier
    if _notifier is None:
        _notifier = Notifier()
    return _notifier


def progress(step: str, next_s: float = STEP_S) -> bool:
    return notifier().progress(step, next_s)


def ready(status: str = "") -> bool:
    return notifier().ready(status)


def ping() -> bool:
    return notifier().ping()


def status(text: str) -> bool:
    return notifier().status(text)


def stopping() -> bool:
    return notifier().stopping()
