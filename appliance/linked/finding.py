"""A linked table still being found on the venue (`[link] join = "venue"`, `play --link venue`).

A find waits up to 30 s for a game on the venue's broker (on a cabinet, the link unit does the finding:
relay.py; on a desktop, venue.py's `find_on_venue`). So that the screen opens at once and two cabinets
powered on minutes apart still pair, the finding runs here on a thread of its own and keeps trying
(each try bounded by the find's own 30 s, again after RETRY_S) until it pairs or the players go back
to the title (`close`). The wait scene ticks this as it ticks a LinkedTable: until a table is found
its state is "finding", and `said` holds the last try's words (a refusal: `refusal`). Once found,
everything is the table's. Nothing here touches the network itself.

Leaving (`close`, on the frame loop) never waits: it calls the running try off (`Cancel`: the try's
waits on the venue's broker and on the link unit are woken at once and end it with `Cancelled`), and
the try's thread ends by itself. A try that paired all the same (its call was on the way as the
players left) says goodbye on that thread: a BYE, resent until acknowledged (at most BYE_LINGER_S),
so the other cabinet, which took the hello, shows that this table left instead of waiting for it.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable
from typing import Any

RETRY_S = 2.0  # the pause between two tries (each try itself waits up to the find's 30 s)
FITS = "offered that fits: "  # venue.py's words before the offers that did not fit (check_offer's)
BYE_LINGER_S = 2.0  # a pairing found after the players left: its BYE resent this long at most (off the frame loop)


class Cancelled(OSError):
    """A find called off: the players left the wait."""

    def __init__(self) -> None:
        super().__init__("the find was called off: the players left")


class Cancel:
    """A threading.Event that also calls what a running try registered (`when_set`) the moment it is
    set: so a try waiting on a condition or a socket is woken at once, not at its next timeout."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._calls: list[Callable[[], None]] = []

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._event.wait(timeout)

    def set(self) -> None:
        with self._lock:
            self._event.set()
            calls, self._calls = self._calls, []
        for call in calls:  # (each quick: a notify, a shutdown; never a wait)
            with contextlib.suppress(Exception):
                call()

    def when_set(self, call: Callable[[], None]) -> Callable[[], None]:
        """Call `call` when this is set (at once if it is); returns what takes it back."""
        with self._lock:
            if not self._event.is_set():
                self._calls.append(call)
                return lambda: self._forget(call)
        call()
        return lambda: None

    def _forget(self, call: Callable[[], None]) -> None:
        with self._lock, contextlib.suppress(ValueError):
            self._calls.remove(call)

    def check(self) -> None:
        """Cancelled if set."""
        if self._event.is_set():
            raise Cancelled


class Finding:
    """The LinkedTable that `open_once` returns, looked for again and again on a thread of its own."""

    def __init__(self, open_once: Callable[[Cancel], tuple[Any, str]]) -> None:
        self.open_once = open_once  # one try; it ends at once (Cancelled) when its Cancel is set
        self.table: Any = None  # the LinkedTable, once found
        self.where = ""  # the found table's words ("table-1 (10.0.0.5:50070, through the venue)")
        self.tries = 0  # tries ended without a table
        self.said = ""  # why the last try ended without a table ("" before the first ends)
        self.said_bye = False  # a pairing found after the players left was told goodbye
        self.done = False  # the finding's thread has ended
        self._changed = threading.Condition()
        self._stop = Cancel()
        self._thread = threading.Thread(target=self._find, name="link-find", daemon=True)
        self._thread.start()

    def _find(self) -> None:
        try:
            self._tries()
        finally:
            with self._changed:
                self.done = True
                self._changed.notify_all()

    def _tries(self) -> None:
        while not self._stop.is_set():
            try:
                table, where = self.open_once(self._stop)
            except (OSError, ValueError) as error:
                if self._stop.is_set():  # the players went back to the title meanwhile
                    return
                with self._changed:
                    self.tries += 1
                    if str(error) != self.said:
                        print(f"spit-arcade play: no linked game yet ({error}); looking again", file=sys.stderr)
                    self.said = str(error)
                    self._changed.notify_all()
                if self._stop.wait(RETRY_S):
                    return
                continue
            with self._changed:
                left = self._stop.is_set()
                if not left:
                    self.table, self.where = table, where
                    self._changed.notify_all()
                    return
            # The players went back to the title while the call was on the way: the other cabinet may
            # have taken its hello, so it is told goodbye (here, on this thread: the frame loop goes on).
            print(f"spit-arcade play: a linked game was found ({where}) after the players left: said goodbye",
                  file=sys.stderr)
            table.close(linger=BYE_LINGER_S)
            with self._changed:
                self.said_bye = True
                self._changed.notify_all()
            return

    @property
    def refusal(self) -> str:
        """The last try's refusal: which cabinets offered a game that does not fit, in check_offer's words."""
        said = self.said
        return said.partition(FITS)[2] if FITS in said else ""

    def wait_for(self, predicate: Callable[[Finding], bool], timeout: float) -> bool:
        """Until `predicate(self)`, at most `timeout` seconds (for tests and tools: never the frame loop)."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self), timeout)

    # ---- what the wait scene (and the app) use of a LinkedTable

    @property
    def state(self) -> str:
        table = self.table
        return str(table.state) if table is not None else "finding"

    @property
    def notice(self) -> Any:
        table = self.table
        return table.notice if table is not None else self.said

    @property
    def match(self) -> Any:
        table = self.table
        return table.match if table is not None else None

    def tick(self, now_ns: int) -> list[Any]:
        table = self.table
        return list(table.tick(now_ns)) if table is not None else []

    def close(self) -> None:
        """Leave: the running try called off (never waited for), the table closed if one was found."""
        self._stop.set()
        with self._changed:
            table = self.table
        if table is not None:
            table.close()

    def __getattr__(self, name: str) -> Any:  # anything else of the table's, once found
        table = self.__dict__.get("table")
        if table is None:
            raise AttributeError(name)
        return getattr(table, name)
