"""The store's one writer: a thread that makes every write, so the frame loop never waits on the card.

    writer = Writer(store, on_failure=notices.append)
    writer.put(Write("coin", lambda s: s.add_coin(stamp, "gpio", True)), done=ack)   # returns at once
    writer.call(lambda: journal_file_sync())    # any other sync (the journal's): on this thread too
    writer.drain()                              # tests and a clean exit: wait until all is written

A write that fails (the state partition full, read-only, a card error) is held, in order, and tried
again before the next one and every `RETRY_S`: nothing is lost while the program runs, and nothing
is written twice (the store ignores a row it has, by its boot and sequence number). The first failure
of a run, and the recovery, are told to `on_failure` (the operator layer's notices: the screen and the
service menu say them); `held` says how many writes wait.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .store import Store

RETRY_S = 5.0


@dataclass
class Write:
    what: str  # "coin", "spend", "game", ... (for the notices)
    apply: Callable[[Store], Any]
    done: Callable[[Any], None] | None = None  # called on the writer's thread once it is written


class Writer:
    def __init__(self, store: Store, on_failure: Callable[[str], None] | None = None,
                 name: str = "store-writer") -> None:
        self.store = store
        self.on_failure = on_failure or (lambda words: None)
        self._queue: queue.Queue[Write | Callable[[], None] | None] = queue.Queue()
        self.held: deque[Write] = deque()  # writes that failed, oldest first, tried again in order
        self.failure: str | None = None  # why the held writes wait (None: all is written)
        self.written = 0
        self._idle = threading.Condition()
        self._busy = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def put(self, write: Write) -> None:
        """Hand a write to the thread; returns at once."""
        with self._idle:
            self._busy += 1
        self._queue.put(write)

    def call(self, job: Callable[[], None]) -> None:
        """Any other job that touches the card (the journal's sync): on this thread, in order."""
        with self._idle:
            self._busy += 1
        self._queue.put(job)

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every write handed over is written or held; whether it came to that in time."""
        with self._idle:
            return self._idle.wait_for(lambda: self._busy == 0, timeout)

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=RETRY_S if self.held else None)
            except queue.Empty:
                self._retry()
                continue
            if item is None:
                self._retry()
                return
            try:
                if isinstance(item, Write):
                    self.held.append(item)
                    self._retry()
                else:
                    try:
                        item()
                    except Exception as error:  # a job's failure is its own to report; the thread goes on
                        self._failed(f"a sync of the card failed ({error})")
            finally:
                with self._idle:
                    self._busy -= 1
                    self._idle.notify_all()

    def _retry(self) -> None:
        """Write the held writes in order, stopping at the first that fails (it stays held)."""
        while self.held:
            write = self.held[0]
            try:
                result = write.apply(self.store)
            except Exception as error:  # the card is full, read-only, gone: held, said once
                self._failed(f"the {write.what} could not be written ({error}); {len(self.held)} held in "
                             "memory, written when the card takes them")
                return
            self.held.popleft()
            self.written += 1
            if write.done is not None:
                write.done(result)
        if self.failure is not None:
            self.failure = None
            self.on_failure("the books are written again: nothing held in memory")

    def _failed(self, words: str) -> None:
        if self.failure is None:
            self.failure = words
            self.on_failure(words)
        else:
            self.failure = words
        time.sleep(0)  # let the frame thread run before the next try
