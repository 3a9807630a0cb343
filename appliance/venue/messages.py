"""The venue's topics and the envelope every message travels in.

Topics: a cabinet publishes only under `spit/venue/<cabinet>/` (the broker's ACL lets it write
nothing else): `health`, `audits`, `switches`, and `board` (retained: its high scores, its best sprints,
which every cabinet reads to make the venue's board). The operator's view reads `spit/venue/#`.

Every message is one JSON object, at most MAX_BYTES:

    {"v": 1, "id": "table-2:7:1041", "cabinet": "table-2", "boot": 7, "seq": 1041,
     "kind": "audits", "sent": "2026-11-25T21:03:11Z", "body": {...}}

`boot` counts the uplink's starts on that cabinet (kept in its outbox) and `seq` counts its messages
within one start, so (boot, seq) orders a cabinet's messages whatever its wall clock says, and a
receiver drops a message whose (boot, seq) it has already seen from that cabinet (`Seen`): a message
sent again after a lost acknowledgement is counted once. `sent` is the cabinet's clock, shown only
to tell the operator when it is off.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

VERSION = 1
ROOT = "spit/venue"
KINDS = ("health", "audits", "switches", "board")
MONEY = ("audits",)  # what is never dropped from a full outbox
MAX_BYTES = 16 * 1024
NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")  # a cabinet's name: a topic level and a certificate's CN


class Refused(ValueError):
    """A message that is not one of ours: `reason` is one word for the counters."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def check_name(name: str) -> str:
    if not NAME.match(name):
        raise ValueError(f"{name!r} is not a cabinet name: 1-32 of a-z, 0-9 and '-', starting with a letter or digit")
    return name


def topic(cabinet: str, kind: str) -> str:
    return f"{ROOT}/{cabinet}/{kind}"


def board_topics() -> str:
    """What a cabinet subscribes to: every cabinet's board (and nothing else of theirs)."""
    return f"{ROOT}/+/board"


@dataclass(frozen=True)
class Message:
    cabinet: str
    boot: int
    seq: int
    kind: str
    sent: str
    body: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.cabinet}:{self.boot}:{self.seq}"

    @property
    def order(self) -> tuple[int, int]:
        return (self.boot, self.seq)

    @property
    def topic(self) -> str:
        return topic(self.cabinet, self.kind)

    def encode(self) -> bytes:
        data = {"v": VERSION, "id": self.id, "cabinet": self.cabinet, "boot": self.boot, "seq": self.seq,
                "kind": self.kind, "sent": self.sent, "body": self.body}
        return json.dumps(data, separators=(",", ":"), sort_keys=True).encode()


def _count(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Refused("malformed", f"{key!r} is not a count")
    return value


def decode(topic_name: str, payload: bytes) -> Message:
    """The message on `topic_name`, or Refused (oversized, malformed, or foreign: not ours, or its
    cabinet is not the one whose topic it came on)."""
    if len(payload) > MAX_BYTES:
        raise Refused("oversized", f"{len(payload)} bytes on {topic_name} (at most {MAX_BYTES})")
    parts = topic_name.split("/")
    if len(parts) != 4 or "/".join(parts[:2]) != ROOT or parts[3] not in KINDS or not NAME.match(parts[2]):
        raise Refused("foreign", f"{topic_name!r} is not a venue topic")
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError) as error:
        raise Refused("malformed", f"not JSON on {topic_name} ({error})") from None
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise Refused("malformed", f"not a version-{VERSION} message on {topic_name}")
    cabinet, kind, sent, body = data.get("cabinet"), data.get("kind"), data.get("sent"), data.get("body")
    if cabinet != parts[2] or kind != parts[3]:
        raise Refused("foreign", f"a message from {cabinet!r} ({kind!r}) on {topic_name}")
    if not isinstance(sent, str) or not isinstance(body, dict):
        raise Refused("malformed", f"no 'sent' or 'body' on {topic_name}")
    message = Message(cabinet, _count(data, "boot"), _count(data, "seq"), kind, sent, body)
    if data.get("id") != message.id:
        raise Refused("malformed", f"id {data.get('id')!r} is not {message.id!r}")
    return message


class Seen:
    """A receiver's memory of what it has had from each cabinet: a message at or before the last
    (boot, seq) it took from that cabinet is a duplicate (the outbox sends in order)."""

    def __init__(self) -> None:
        self.last: dict[str, tuple[int, int]] = {}

    def fresh(self, message: Message) -> bool:
        last = self.last.get(message.cabinet)
        if last is not None and message.order <= last:
            return False
        self.last[message.cabinet] = message.order
        return True
