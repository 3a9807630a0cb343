"""The uplink's outbox: every message kept in SQLite until the broker acknowledged it.

One file on the state partition (/var/lib/spit-arcade/venue/outbox.sqlite), written only by the
uplink. Each message gets its place in the cabinet's order when it is put in: `boot` (the uplink's
starts, counted here) and `seq` (its messages within the start), and it keeps them however often it
is sent, so a receiver drops what it has had (messages.Seen). Sent in that order (`pending`), taken
out when the broker's PUBACK comes (`done`).

Bounded at `limit` messages: when it is full, the oldest message of the first kind in DROP_ORDER
that has any goes: heartbeats first (a newer one says the same), then switch health, then the board
(each one carries the whole table). Money (the audits) is never dropped: an outbox holding only
audits grows past its bound, and says so.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appliance.venue.messages import MONEY, Message

LIMIT = 20_000  # messages: a day of outage at one heartbeat a minute is 1,440
DROP_ORDER = ("health", "switches", "board")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS messages (
    row INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
    topic TEXT NOT NULL, payload BLOB NOT NULL, retain INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS messages_kind ON messages (kind, row);
CREATE TABLE IF NOT EXISTS dropped (kind TEXT PRIMARY KEY, count INTEGER NOT NULL);
"""


@dataclass(frozen=True)
class Pending:
    row: int
    id: str
    topic: str
    payload: bytes
    retain: bool


def utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Outbox:
    def __init__(self, path: Path, cabinet: str, limit: int = LIMIT) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.cabinet = cabinet
        self.limit = limit
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # a message put in survives a power cut
        self.db.executescript(SCHEMA)
        with self.transaction():
            self.boot = int(self.get("boot", "0")) + 1
            self.set("boot", str(self.boot))
        self.seq = 0
        self.over_bound_said = False

    def close(self) -> None:
        self.db.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction, committed whole or rolled back whole. (With `isolation_level=None`, `with
        self.db:` begins none, so each statement would commit, and sync, on its own: a message put in
        without its bound applied, or a drop without its count, after a power cut between them.)"""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def get(self, key: str, default: str) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else default

    def set(self, key: str, value: str) -> None:
        self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = ?",
                        (key, value, value))

    def put(self, kind: str, body: dict[str, Any], retain: bool = False) -> Message:
        """Keep a new message (in the cabinet's order); drop what DROP_ORDER says when full."""
        message = Message(self.cabinet, self.boot, self.seq + 1, kind, utc_now(), body)
        with self.transaction():  # the message and what its bound drops (with the count), or neither
            self.db.execute("INSERT INTO messages (id, kind, topic, payload, retain) VALUES (?, ?, ?, ?, ?)",
                            (message.id, kind, message.topic, message.encode(), int(retain)))
            self._bound()
        self.seq += 1  # (a put that failed leaves no gap in the cabinet's order)
        return message

    def _bound(self) -> None:
        excess = len(self) - self.limit
        for kind in DROP_ORDER:
            if excess <= 0:
                return
            rows = [r for (r,) in self.db.execute("SELECT row FROM messages WHERE kind = ? ORDER BY row LIMIT ?",
                                                  (kind, excess))]
            if rows:
                self.db.executemany("DELETE FROM messages WHERE row = ?", [(r,) for r in rows])
                self.db.execute("INSERT INTO dropped (kind, count) VALUES (?, ?) ON CONFLICT (kind) "
                                "DO UPDATE SET count = count + ?", (kind, len(rows), len(rows)))
                print(f"spit-arcade uplink: outbox full ({self.limit} messages): dropped the {len(rows)} oldest "
                      f"{kind} message(s); money is never dropped", flush=True)
                excess -= len(rows)
        if excess > 0 and not self.over_bound_said:
            self.over_bound_said = True
            print(f"spit-arcade uplink: outbox past its bound ({len(self)} of {self.limit}), all of it money "
                  f"({', '.join(MONEY)}): kept until the broker takes it", flush=True)

    def __len__(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM messages").fetchone()[0])

    def pending(self, after: int, limit: int) -> list[Pending]:
        """Up to `limit` messages after row `after`, in order."""
        rows = self.db.execute("SELECT row, id, topic, payload, retain FROM messages WHERE row > ? ORDER BY row "
                               "LIMIT ?", (after, limit)).fetchall()
        return [Pending(int(r), str(i), str(t), bytes(p), bool(k)) for r, i, t, p, k in rows]

    def done(self, row: int) -> None:
        """The broker has it: out of the outbox."""
        with self.transaction():
            self.db.execute("DELETE FROM messages WHERE row = ?", (row,))

    def dropped(self) -> dict[str, int]:
        return {str(k): int(n) for k, n in self.db.execute("SELECT kind, count FROM dropped ORDER BY kind")}

    def remember(self, key: str, value: Any) -> None:
        with self.transaction():
            self.set(key, json.dumps(value, sort_keys=True))

    def recall(self, key: str) -> Any:
        try:
            return json.loads(self.get(key, "null"))
        except ValueError:
            return None
