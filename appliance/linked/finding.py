"""A linked table still being found on the venue (`[link] join = "venue"`, `play --link venue`).

A find waits up to 30 s for a game on the venue's broker (on a cabinet, the link unit does the finding:
relay.py; on a desktop, venue.py's `find_on_venue`). So that the screen opens at once and two cabinets
powered on minutes apart still pair, the finding runs here on a thread of its own and keeps trying
(each try bounded by the find's own 30 s, again after RETRY_S) until it pairs or the players go back
to the title (`close`). The wait scene ticks this as it ticks a LinkedTable: until a table is found
its state is "finding", and `said` holds the last try's words (a refusal: `refusal`). Once found,
everything is the table's. Nothing here touches the network itself.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

RETRY_S = 2.0  # the pause between two tries (each try itself waits up to the find's 30 s)
FITS = "offered that fits: "  # venue.py's words before the offers that did not fit (check_offer's)


class Finding:
    """The LinkedTable that `open_once` returns, looked for again and again on a thread of its own."""

    def __init__(self, open_once: Callable[[], tuple[Any, str]]) -> None:
        self.open_once = open_once
        self.table: Any = None  # the LinkedTable, once found
        self.where = ""  # the found table's words ("table-1 (10.0.0.5:50070, through the venue)")
        self.tries = 0  # tries ended without a table
        self.said = ""  # why the last try ended without a table ("" before the first ends)
        self._changed = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._find, name="link-find", daemon=True)
        self._thread.start()

    def _find(self) -> None:
        while not self._stop.is_set():
            try:
                table, where = self.open_once()
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
                if self._stop.is_set():  # the players went back to the title meanwhile
                    table.close()
                    self._changed.notify_all()
                    return
                self.table, self.where = table, where
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
