"""The linked cabinets' datagrams, and the promises made over them: nothing lost, nothing twice.

One UDP datagram is one message; no I/O here (peer.py owns the socket). A datagram is

    header  "<2sBBIIIIQ": magic b"SL", version (u8), kind (u8), session (u32, the sender's: a new
            one each time a cabinet starts a link, so a restarted peer is seen at once), seq (u32,
            the message's number among the sender's reliable messages; 0 for the others), last
            (u32, the sender's newest reliable seq: a lost last message shows as a gap), ack (u32:
            every reliable message up to this one has arrived), sack (u64: bit i set, message
            ack + 2 + i has arrived too)
    body    JSON (UTF-8), at most MAX_BODY bytes: a press in the journals' press format, a hello,...
    tag     8 bytes: HMAC-SHA256 of header and body under the link's key, cut to its first 8 bytes.
            A hello's key is the operator's link word's (`key(word)`: both cabinets set the same word
            in `[link]`), or, with no word, a fixed one (`NO_WORD`: then a hello's tag proves nothing
            but that both have no word, and a cabinet with a word refuses a cabinet without). Every
            other datagram's key, once the two cabinets have paired, is the *datagram key*
            (`Link.data_key`, pairing.py's `datagram_key`: derived from the pairing's secret and the
            word's key, so it takes both); before that (a refusal of a hello that does not fit), the
            word's key
    crc     CRC-32 (zlib's, in C: a flood of garbage costs a few microseconds a datagram) of all above

Version 2 added the tag (version 1 had none: header, body, crc); version 3 keys every datagram but
the hello with the datagram key (in version 2 all had the word's key), the layout unchanged. The CRC
is checked before the tag, so a datagram whose CRC holds but whose tag does not was sent with
another word, or by someone who does not hold the pairing's secret (forged): it is refused as
"word" where the key was the word's (peer.py says so on the screen) and as "tag" where it was the
datagram key. A hello is the one datagram a stranger can tag (with no word, anyone can), so a link
with a datagram key takes nothing from a hello but the hello itself, once a session: its
acknowledgements are not read, and another hello of the same session is refused ("hello").

Every datagram carries the acknowledgements (piggybacked), so a busy link needs no separate acks; a
gap (a `last` or a `seq` past a message not yet here) is answered at once with an ACK datagram, and
the sender resends what its peer's `sack` shows missing at once, and anything unacknowledged for
`rto_ns` again (a lost resend). A message is delivered exactly once (the receiver keeps the numbers
it has, as `ack` plus a bitmap), in whatever order it arrives: the linked match puts presses in
edge order itself. The receiver takes a message only while it has room (`MAX_WINDOW`): one it
cannot take is not acknowledged, so the sender sends it again later; none is dropped once taken.

Nothing here reads a clock: every time comes in as an argument.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

MAGIC = b"SL"
VERSION = 3  # the datagrams (2: the tag; 3: keyed by the pairing); the game protocol's own version is in the hello
HEADER = struct.Struct("<2sBBIIIIQ")
CRC = struct.Struct("<I")
TAG = 8  # bytes of the HMAC kept: a forger's chance is 2**-64 a datagram
MAX_BODY = 1024
MAX_DATAGRAM = HEADER.size + MAX_BODY + TAG + CRC.size
NO_WORD = hashlib.sha256(b"spit-link: no link word").digest()  # the key of two cabinets with no word
MAX_WINDOW = 512  # reliable messages in flight, each way: far above any table's press rate
SACK_BITS = 64
U32 = 1 << 32

# Reliable kinds (numbered, acknowledged, resent): what changes a game.
HELLO = 1  # the offer: protocol and game versions, variant, options, seats (peer.py)
PRESS = 2  # one press, in the journals' press format plus the game it belongs to
START = 3  # the leader starts a game: seed, epoch (the leader's clock at game time 0)
RESUME = 4  # the leader ends a pause: the game's clock goes on from `from` at the leader's `at_ns`
REFUSE = 5  # the offer is refused: why, in words (then the link is closed)
BYE = 6  # the other cabinet leaves (its game abandoned)
REMATCH = 8  # after a game over: this table wants the same game again (`g`: the game just over)
SYNC = 7  # after a restart (or the other's): the game this table is in, and which of the other's presses it has
# Unreliable kinds: superseded by the next one, never resent.
BEAT = 16  # every BEAT_NS: the sender's watermark (every press stamped before it has been sent), paused or not
PING = 17  # t1 (ns, sender's clock)
PONG = 18  # t1, t2, t3 (ns): NTP's four timestamps, the fourth taken on arrival
ACK = 19  # no body: the acknowledgement fields alone
RELIABLE = frozenset({HELLO, PRESS, START, RESUME, REFUSE, BYE, SYNC, REMATCH})
KINDS = {HELLO: "hello", PRESS: "press", START: "start", RESUME: "resume", REFUSE: "refuse", BYE: "bye", SYNC: "sync",
         REMATCH: "rematch",
         BEAT: "beat", PING: "ping", PONG: "pong", ACK: "ack"}


class WireError(ValueError):
    """A datagram that is not one of ours, or is damaged (the reason names which check failed)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Datagram:
    kind: int
    session: int
    seq: int
    last: int
    ack: int
    sack: int
    body: dict[str, Any]


def key(word: str) -> bytes:
    """The datagrams' key for the operator's link word (`[link] word`); "" is no word (`NO_WORD`)."""
    if not word:
        return NO_WORD
    return hashlib.sha256(b"spit-link word\0" + word.encode("utf-8")).digest()


def tag(key_: bytes, data: bytes) -> bytes:
    return hmac.digest(key_, data, "sha256")[:TAG]


def encode(kind: int, session: int, seq: int, last: int, ack: int, sack: int, body: bytes,
           key_: bytes = NO_WORD, version: int = VERSION) -> bytes:
    """One datagram tagged under `key_` (the caller picks the key for the kind: `Link.key_for`)."""
    if len(body) > MAX_BODY:
        raise ValueError(f"a {KINDS.get(kind, kind)} body of {len(body)} bytes is over {MAX_BODY}")
    signed = HEADER.pack(MAGIC, version, kind, session, seq, last, ack, sack) + body
    signed += tag(key_, signed)
    return signed + CRC.pack(zlib.crc32(signed))


def body_bytes(body: Mapping[str, Any] | None) -> bytes:
    return json.dumps(body, separators=(",", ":")).encode() if body else b""


def decode(data: bytes, key_: bytes = NO_WORD, data_key: bytes | None = None) -> Datagram:
    """One datagram, checked cheapest first (length, magic, CRC, version, the tag, then the JSON);
    WireError if bad ("version": another layout, `other_version` may read it; "word": the CRC holds
    but the tag under the word's key `key_` does not, another link word; "tag": the CRC holds but
    the tag under `data_key` does not, forged by someone without the pairing's secret). A hello's
    tag is checked under `key_`; any other's under `data_key` where there is one, else `key_`."""
    if len(data) < HEADER.size + CRC.size or len(data) > MAX_DATAGRAM:
        raise WireError("length")
    if data[:2] != MAGIC:
        raise WireError("magic")
    if zlib.crc32(data[:-CRC.size]) != CRC.unpack_from(data, len(data) - CRC.size)[0]:
        raise WireError("crc")
    _, version, kind, session, seq, last, ack, sack = HEADER.unpack_from(data)
    if version != VERSION:
        raise WireError("version")
    end = len(data) - CRC.size - TAG
    if end < HEADER.size:
        raise WireError("length")
    keyed = key_ if kind == HELLO or data_key is None else data_key
    if not hmac.compare_digest(tag(keyed, data[:end]), data[end:-CRC.size]):
        raise WireError("word" if keyed is key_ else "tag")
    if kind not in KINDS:
        raise WireError("kind")
    raw = data[HEADER.size:end]
    body: Any = {}
    if raw:
        try:
            body = json.loads(raw)
        except ValueError:
            raise WireError("json") from None
        if not isinstance(body, dict):
            raise WireError("json")
    if (kind in RELIABLE) != (seq != 0):
        raise WireError("seq")
    return Datagram(kind, session, seq, last, ack, sack, body)


def other_version(data: bytes, key_: bytes = NO_WORD) -> tuple[int, dict[str, Any] | None] | None:
    """A datagram of another layout whose magic and CRC hold (a cabinet running another version):
    (its version, its hello's body if it is a hello of version 1 or 2, else None); None if not one.
    Version 2 tagged every datagram with the word's key: one whose tag under `key_` does not hold is
    None (not a cabinet with this one's word); version 1 had no tag, so it is one only with no word."""
    if len(data) < HEADER.size + CRC.size or len(data) > MAX_DATAGRAM + 64 or data[:2] != MAGIC:
        return None
    if zlib.crc32(data[:-CRC.size]) != CRC.unpack_from(data, len(data) - CRC.size)[0]:
        return None
    version, kind = data[2], data[3]
    if version == VERSION:
        return None
    end = len(data) - CRC.size
    if version == 1 and key_ != NO_WORD:
        return None
    if version == 2:
        end -= TAG
        if end < HEADER.size or not hmac.compare_digest(tag(key_, data[:end]), data[end:-CRC.size]):
            return None
    body: Any = None
    if version in (1, 2) and kind == HELLO:
        try:
            body = json.loads(data[HEADER.size:end])
        except ValueError:
            body = None
    return version, body if isinstance(body, dict) else None


def old_hello(session: int, body: Mapping[str, Any], version: int = 1, key_: bytes = NO_WORD) -> bytes:
    """A hello in an older version's layout (1: no tag; 2, and this one's: tagged with the word's key
    `key_`), for a cabinet that speaks only that: its own checks then refuse this one's protocol in
    its own words, on its own screen."""
    raw = body_bytes(body)
    if version >= 2:
        return encode(HELLO, session, 1, 1, 0, 0, raw, key_, version=version)
    head = HEADER.pack(MAGIC, 1, HELLO, session, 1, 1, 0, 0)
    return head + raw + CRC.pack(zlib.crc32(head + raw))


@dataclass
class _Unacked:
    kind: int
    body: bytes
    first_ns: int
    sent_ns: int
    tries: int = 1


@dataclass
class Counters:
    sent: int = 0
    resent: int = 0
    received: int = 0
    duplicates: int = 0  # reliable messages that had arrived already (dropped, acknowledged again)
    out_of_window: int = 0  # reliable messages too far ahead to hold (not acknowledged: resent later)
    bad: dict[str, int] = field(default_factory=dict)  # datagrams refused, by the check that failed
    stale_session: int = 0  # datagrams from an earlier session of the peer


class Link:
    """One side of the reliable channel between two cabinets (no socket, no clock).

    `message(kind, body, now_ns)` -> a datagram to send (a reliable kind is kept until acknowledged);
    `receive(data, now_ns)` -> (the messages it delivers, datagrams to send back at once: an ACK
    for a gap, resends the peer's sack shows missing); `due(now_ns)` -> resends whose time has come.
    """

    def __init__(self, session: int, rto_ns: int = 60_000_000, key_: bytes = NO_WORD,
                 data_key: bytes | None = None) -> None:
        self.session = session
        self.key = key_  # the link word's (`key`): the hellos are tagged and checked with it
        # The pairing's (pairing.datagram_key): every other datagram is tagged and checked with it once
        # set (peer.py sets it as the two cabinets pair); until then with the word's.
        self.data_key = data_key
        self.peer_session: int | None = None
        self.rto_ns = rto_ns  # peer.py sets it from the measured round trip
        self.counters = Counters()
        self._next_seq = 1
        self._unacked: dict[int, _Unacked] = {}
        self._ack = 0  # every peer message up to this has arrived
        self._have: set[int] = set()  # arrived, beyond `_ack`
        self._peer_last = 0
        self._peer_hello: int | None = None  # the number of the peer's hello in its session, once delivered

    # ------------------------------------------------------------------ sending

    @property
    def last_sent(self) -> int:
        """The newest reliable message's number (0: none yet)."""
        return self._next_seq - 1

    @property
    def in_flight(self) -> int:
        return len(self._unacked)

    def can_send(self) -> bool:
        return len(self._unacked) < MAX_WINDOW

    def _sack(self) -> int:
        bits = 0
        for seq in self._have:
            i = seq - self._ack - 2
            if 0 <= i < SACK_BITS:
                bits |= 1 << i
        return bits

    def key_for(self, kind: int) -> bytes:
        """The key a datagram of `kind` is tagged with: a hello's the word's, any other's the pairing's."""
        return self.key if kind == HELLO or self.data_key is None else self.data_key

    def _datagram(self, kind: int, seq: int, body: bytes) -> bytes:
        return encode(kind, self.session, seq, self._next_seq - 1, self._ack, self._sack(), body,
                      self.key_for(kind))

    def decode(self, data: bytes) -> Datagram:
        """`data` checked with this link's keys (wire.decode; WireError if bad, not counted here)."""
        return decode(data, self.key, self.data_key)

    def message(self, kind: int, body: Mapping[str, Any] | None, now_ns: int) -> bytes:
        """A datagram carrying one message; a reliable one is numbered and kept until acknowledged.
        OverflowError if MAX_WINDOW reliable messages are unacknowledged (a peer gone silent)."""
        raw = body_bytes(body)
        self.counters.sent += 1
        if kind not in RELIABLE:
            return self._datagram(kind, 0, raw)
        if not self.can_send():
            raise OverflowError(f"{MAX_WINDOW} messages unacknowledged: the other cabinet is not answering")
        seq = self._next_seq
        self._next_seq += 1
        self._unacked[seq] = _Unacked(kind, raw, now_ns, now_ns)
        return self._datagram(kind, seq, raw)

    def ack_datagram(self) -> bytes:
        return self._datagram(ACK, 0, b"")

    def _resend(self, seq: int, now_ns: int) -> bytes:
        item = self._unacked[seq]
        item.sent_ns = now_ns
        item.tries += 1
        self.counters.resent += 1
        return self._datagram(item.kind, seq, item.body)

    def due(self, now_ns: int) -> list[bytes]:
        """Resends of messages unacknowledged for `rto_ns` since last sent (at most 32 a call)."""
        out = []
        for seq, item in list(self._unacked.items()):
            if now_ns - item.sent_ns >= self.rto_ns:
                out.append(self._resend(seq, now_ns))
                if len(out) >= 32:
                    break
        return out

    def oldest_unacked_ns(self) -> int | None:
        return min((item.first_ns for item in self._unacked.values()), default=None)

    # ------------------------------------------------------------------ receiving

    def reset_peer(self) -> None:
        """The peer started a new session (it restarted): what it sent before is no more."""
        self._ack = 0
        self._have.clear()
        self._peer_last = 0
        self._peer_hello = None

    def _acked(self, ack: int, sack: int, now_ns: int) -> list[bytes]:
        for seq in [s for s in self._unacked if s <= ack]:
            del self._unacked[seq]
        highest = ack
        for i in range(SACK_BITS):
            if sack >> i & 1:
                seq = ack + 2 + i
                self._unacked.pop(seq, None)
                highest = seq
        # Fast resend: a message the peer has not got though it has later ones, not resent within
        # the last half round trip (rto is two: the peer's next ack may not know of the resend yet).
        return [self._resend(seq, now_ns) for seq, item in sorted(self._unacked.items())
                if seq < highest and now_ns - item.sent_ns >= self.rto_ns // 4][:32]

    def receive(self, data: bytes, now_ns: int, room: bool = True) -> tuple[list[Datagram], list[bytes]]:
        """`data` off the socket: the messages it delivers (each reliable one once) and the datagrams
        to send back at once. `room` False: the caller cannot take a reliable message now (it is
        left unacknowledged and will come again). WireError for a bad datagram (counted here).

        With a datagram key, a hello (tagged with the word's key alone, which a stranger may have) is
        taken for its offer and nothing else: its acknowledgements are not read, and a hello of the
        peer's session other than the one delivered is refused ("hello": a cabinet says hello once a
        session), so a forged one can neither acknowledge a message away nor be a second pairing."""
        try:
            datagram = decode(data, self.key, self.data_key)
            open_ = datagram.kind == HELLO and self.data_key is not None
            if (open_ and self._peer_hello is not None and datagram.seq != self._peer_hello
                    and datagram.session == self.peer_session):
                raise WireError("hello")
        except WireError as error:
            self.counters.bad[error.reason] = self.counters.bad.get(error.reason, 0) + 1
            raise
        if self.peer_session is None:
            self.peer_session = datagram.session
        elif datagram.session != self.peer_session:
            if datagram.kind != HELLO:
                self.counters.stale_session += 1
                return [], []
            self.peer_session = datagram.session  # a restarted peer says hello first
            self.reset_peer()
        self.counters.received += 1
        out = [] if open_ else self._acked(datagram.ack, datagram.sack, now_ns)
        delivered: list[Datagram] = []
        gap = False
        if datagram.seq:
            seq = datagram.seq
            if seq <= self._ack or seq in self._have:
                self.counters.duplicates += 1
                gap = True  # our ack was lost: say it again
            elif seq - self._ack > MAX_WINDOW or not room:
                self.counters.out_of_window += 1
            else:
                self._have.add(seq)
                while self._ack + 1 in self._have:
                    self._ack += 1
                    self._have.discard(self._ack)
                delivered.append(datagram)
                if datagram.kind == HELLO:
                    self._peer_hello = seq
                gap = True  # every reliable message is acknowledged at once
        if not open_:
            self._peer_last = max(self._peer_last, datagram.last)
        if self._peer_last > self._ack and datagram.kind != ACK:
            gap = True
        if not datagram.seq and datagram.kind not in (ACK,):
            delivered.append(datagram)
        if gap:
            out.append(self.ack_datagram())
        return delivered, out

    def complete_to(self, seq: int) -> bool:
        """Has every reliable message of the peer up to `seq` arrived?"""
        return seq <= self._ack
