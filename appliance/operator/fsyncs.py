"""Syncs to the card, counted by the thread that made them (the frame thread must make none).

    fsync(fd)                   # os.fsync, counted for the calling thread
    committed()                 # a store transaction was committed on this thread (SQLite syncs in C)
    counts()                    # {thread name: syncs}; `bench store` reports the frame thread's

The journal and the store sync through here, so `spit-arcade bench store` can say how many syncs the
frame thread made (it must be 0: the writer thread makes them all). A transaction SQLite commits with
`synchronous=FULL` syncs its write-ahead log in C, out of Python's sight: `committed` counts each
commit as the sync it costs.
"""

from __future__ import annotations

import os
import threading

_lock = threading.Lock()
_counts: dict[str, int] = {}


def _count() -> None:
    name = threading.current_thread().name
    with _lock:
        _counts[name] = _counts.get(name, 0) + 1


def fsync(fd: int) -> None:
    """os.fsync(fd), counted for the calling thread."""
    os.fsync(fd)
    _count()


def committed() -> None:
    """A transaction was committed on this thread (SQLite synced its log)."""
    _count()


def counts() -> dict[str, int]:
    with _lock:
        return dict(_counts)


def main_thread_syncs() -> int:
    """The syncs the main thread (the frame loop's) made so far."""
    return counts().get(threading.main_thread().name, 0)
