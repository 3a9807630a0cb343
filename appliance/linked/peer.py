"""The UDP link to the other cabinet: hello and its checks, pings for the clock, a bounded reader.

`Peer.listen(port, offer)` waits for the other cabinet (it leads: its clock is the game's, it deals);
`Peer.connect(host, port, offer)` calls it. Both say hello with their offer (`offer()`): the
protocol's version, the game's version, the variant, its options and the seats this cabinet plays.
`check_offer` compares the two; a mismatch is refused with a sentence saying what differs, sent to
the other side too (`REFUSE`), and the link is closed (`state` says why). The listener pairs with the
first cabinet whose hello arrives; datagrams from any other address are dropped and counted.

A reader thread blocks on the socket, stamps each datagram as it arrives (the clock sync's t2 and t4
are taken there, not a frame later), answers PINGs at once, feeds PONGs to the clock sync, and puts
every other message in a bounded inbox for the game loop (`messages()`); a reliable message the
inbox has no room for is left unacknowledged and comes again. Bounded work under a flood: at most
`FLOOD_DATAGRAMS` datagrams are taken in each `FLOOD_WINDOW_NS` (about 20 times what a busy table
sends); beyond that the reader stops reading for the rest of the window and the kernel drops what
comes (its buffer is `RCVBUF` bytes). Every datagram is checked cheapest first (address, length,
magic, CRC-32 in C, then JSON), so garbage costs a few microseconds each.

The game loop calls `tick(now)` each frame: the pings (every `PING_NS`) and resends that are due.

A cabinet that restarts (a power cut) starts a new session and says hello again. Nothing of the
other's is taken before its hello (the leftovers of an earlier session are dropped), and a hello
from a new session of the paired cabinet is a restart: this side starts a new session too (what it
had not got acknowledged is the game's to send again: game.py's SYNC), sets its clock sync afresh,
answers with its own hello, and passes the hello to the game (`pairings` counts them). A listener
that has heard nothing for `REOPEN_NS` unconnects its socket, so that the other cabinet's hello
from a new address (a restarted caller's new port) reaches it; a restarted listener that hears a
caller's leftovers answers them with its hello, so the caller knows to say hello again.

Strangers (pairing.py): each hello carries a random nonce, and the two first hellos' nonces make the
pairing's secret, kept in the journal directory (`keep`) so that it outlives a power cut. Once paired,
a hello of a new session or from a new address is taken only if it proves the secret (an HMAC over
its sender's role, session and nonce); any other is dropped and counted (`unproven`), never a
pairing. Every other datagram is tagged with the datagram key, derived from the secret (and the
word): one from the paired address whose tag does not hold (a forged press, acknowledgement, ping or
goodbye) is dropped and counted (`forged`), and the game goes on. No pings go out before the pairing
(they would carry no datagram key). A cabinet that comes back with a linked game to resume takes
only a proving hello from its start. With the operator's link word (`word`, `[link] word`), the
hello too is tagged with its key (wire.py), so a cabinet without the word cannot even say hello; a
hello tagged with another word is counted (`other_word`) and said on the wait screen (`problem`),
and a listener answers it with its hello so that the other cabinet says so too. A datagram of
another wire version (an older cabinet), before the pairing, refuses the link with both versions
named, and is answered with a hello in that version's layout, so the older cabinet's own checks say
so on its screen; once paired, one is dropped (forged: the other cabinet says hello first).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from appliance import __version__

from . import pairing, wire
from .clock import LinkClock

if TYPE_CHECKING:
    from .finding import Cancel
    from .relay_client import RelaySocket

PROTOCOL = 4  # the linked game's protocol (docs/linked.md; 2: resuming after a restart; 3: the pairing's
# secret and the link word, wire version 2; 4: every datagram keyed by the pairing, wire version 3); another
# is refused
PING_NS = 20_000_000  # 50 a second: ~3 KB/s each way, and the filter has many to choose the best from
BURST_PING_NS = 10_000_000  # pings this often until the clock is synced
MAX_INBOX = 1024
FLOOD_WINDOW_NS = 100_000_000
FLOOD_DATAGRAMS = 400  # a busy table sends ~150 datagrams a second: this is over 25 times that
RCVBUF = 256 * 1024
READ_TIMEOUT_S = 0.05  # the reader wakes this often to see whether it should stop
MIN_RTO_NS = 20_000_000
REOPEN_NS = 1_500_000_000  # a listener that heard nothing this long takes a hello from a new address
STRAY_HELLO_NS = 100_000_000  # a listener not yet paired answers an earlier session's leftovers this often
OTHER_WORD = "the other table's link word is not this one's"  # (the screen translates it: linked_wait.py)
OTHER_WORD_SHOWN_NS = 5_000_000_000  # said on the wait screen this long after the last such datagram


def offer(variant: str, options: Mapping[str, Any] | None, seats: list[int], seat_count: int,
          name: str = "") -> dict[str, Any]:
    """What this cabinet says in its hello."""
    return {"protocol": PROTOCOL, "game": __version__, "variant": variant, "options": dict(options or {}),
            "seats": sorted(seats), "table": seat_count, "name": name or socket.gethostname()}


def check_offer(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> str | None:
    """None if the two cabinets can play one game; else what differs, in a sentence for both screens."""
    if theirs.get("protocol") != mine["protocol"]:
        return (f"the other cabinet speaks linked protocol {theirs.get('protocol')!r}, this one "
                f"{mine['protocol']}: update both to the same version")
    if theirs.get("game") != mine["game"]:
        return (f"the other cabinet runs Spit Arcade {theirs.get('game')!r}, this one {mine['game']}: "
                "both must run the same version, or a race could be decided by different rules")
    if theirs.get("variant") != mine["variant"]:
        return f"the other cabinet is set for {theirs.get('variant')!r}, this one for {mine['variant']!r}"
    if theirs.get("options") != mine["options"]:
        differ = sorted(k for k in {*mine["options"], *(theirs.get("options") or {})}
                        if mine["options"].get(k) != (theirs.get("options") or {}).get(k))
        return f"the house rules differ ({', '.join(differ)}): set both cabinets the same"
    if theirs.get("table") != mine["table"]:
        return f"the other cabinet sets a table of {theirs.get('table')!r}, this one of {mine['table']}"
    seats = theirs.get("seats")
    if not isinstance(seats, list) or not seats or not all(isinstance(s, int) for s in seats):
        return "the other cabinet named no seats"
    if set(seats) & set(mine["seats"]):
        return f"both cabinets want seat {min(set(seats) & set(mine['seats']))}: give each its own seats"
    if set(seats) | set(mine["seats"]) != set(range(1, mine["table"] + 1)):
        return f"seats {sorted(set(range(1, mine['table'] + 1)) - set(seats) - set(mine['seats']))} have nobody"
    return None


class Peer:
    """One end of the link. Thread-safe where it says; everything else runs on the game loop's thread."""

    def __init__(self, sock: socket.socket | RelaySocket, my_offer: Mapping[str, Any], leader: bool,
                 address: tuple[str, int] | None = None, clock: Callable[[], int] = time.monotonic_ns,
                 word: str = "", keep: Path | None = None) -> None:
        self.sock = sock
        self.offer = dict(my_offer)
        self.leader = leader
        self.address = address  # the other cabinet's; a listener learns it from the first hello
        self.clock = clock
        self.key = wire.key(word)  # every datagram is tagged with it (the operator's link word, or none)
        self.keep = keep  # where the pairing's secret is kept (the journal directory), if anywhere
        self.secret = pairing.load(keep)  # the pairing's (or the one kept from before a restart)
        self.bound = self.secret is not None and pairing.resuming(keep)  # only a hello proving it pairs
        self._nonce = pairing.nonce()  # this session's, in its hello
        self.unproven = 0  # hellos refused: a new session or address that did not prove the pairing's secret
        self.other_word = 0  # hellos tagged with another link word
        self.forged = 0  # datagrams from the paired address, once paired, whose tag is not the pairing's
        self._other_word_ns: int | None = None
        self._unkept = False  # a new secret not yet written to `keep`
        self.link = wire.Link(secrets.randbits(31) | 1, key_=self.key)  # (its datagram key comes as it pairs)
        self.sync = LinkClock()
        self.their_offer: dict[str, Any] | None = None
        self.state = "connecting"  # then "up", or "refused: ..." / "closed"
        self.strangers = 0  # datagrams from other addresses
        self.flood_dropped_windows = 0  # windows in which the reader stopped reading (a flood)
        self.send_errors = 0
        self.restarts = 0  # times the other cabinet came back in a new session
        self.last_heard_ns: int | None = None
        self.reader_cpu_ns = 0  # CPU time of the reader thread so far (its own clock)
        self._lock = threading.RLock()  # wait_for's predicate may read the inbox
        self._changed = threading.Condition(self._lock)
        self._inbox: deque[wire.Datagram] = deque()
        self._stop = threading.Event()
        self._next_ping = 0
        self._ping_sent = 0
        self._hello_sent = False
        self._their_hello = False  # the other's hello of its current session has come: its messages count
        self.pairings = 0  # hellos taken from the other cabinet (more than one: it restarted, or this one did)
        self._reopened = False  # (a listener) the socket takes datagrams from any address again
        self._stray_hello_ns = -(10**18)
        self._stray_hello = b""
        self._old_sessions: set[int] = set()  # the other's sessions before a restart: their late hellos are old news
        self._thread = threading.Thread(target=self._read, name="spit-link-reader", daemon=True)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
        sock.settimeout(READ_TIMEOUT_S)
        self._thread.start()
        if address is not None:
            self._say_hello()

    @classmethod
    def listen(cls, port: int, my_offer: Mapping[str, Any], host: str = "0.0.0.0",
               clock: Callable[[], int] = time.monotonic_ns, word: str = "", keep: Path | None = None) -> Peer:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind((host, port))
        return cls(sock, my_offer, leader=True, clock=clock, word=word, keep=keep)

    @classmethod
    def connect(cls, host: str, port: int, my_offer: Mapping[str, Any],
                clock: Callable[[], int] = time.monotonic_ns, word: str = "", keep: Path | None = None) -> Peer:
        address = socket.getaddrinfo(host, port, socket.AF_INET, socket.SOCK_DGRAM)[0][4]
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("0.0.0.0", 0))
        sock.connect(address)  # the kernel drops datagrams from anyone else
        return cls(sock, my_offer, leader=False, address=(str(address[0]), int(address[1])), clock=clock,
                   word=word, keep=keep)

    @classmethod
    def through(cls, relay: str | Path, request: Mapping[str, Any], my_offer: Mapping[str, Any],
                clock: Callable[[], int] = time.monotonic_ns, word: str = "", keep: Path | None = None,
                cancel: Cancel | None = None) -> Peer:
        """The link through the cabinet's link unit (relay.py), for a game with no network of its own:
        `request` is {"listen": PORT}, {"connect": [HOST, PORT]} or {"find": "venue[:CABINET]"}. The
        unit carries the datagrams; everything else (the hello, the clock sync, resends) is this.
        `cancel` (finding.py) ends an open still waiting (a find) at once."""
        from .relay_client import RelaySocket

        sock = RelaySocket(relay, {**request, "offer": dict(my_offer)}, cancel=cancel)
        leader = "listen" in request
        return cls(sock, my_offer, leader=leader, address=None if leader else sock.peer, clock=clock,
                   word=word, keep=keep)

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    @property
    def up(self) -> bool:
        return self.state == "up"

    @property
    def problem(self) -> str:
        """What keeps the link from pairing that the wait screen should say ("" if nothing): datagrams
        tagged with another link word came lately."""
        at = self._other_word_ns
        if self.up or at is None or self.clock() - at > OTHER_WORD_SHOWN_NS:
            return ""
        return OTHER_WORD

    # ------------------------------------------------------------------ the game loop's side

    def send(self, kind: int, body: Mapping[str, Any] | None = None) -> None:
        """Send one message (a reliable kind is resent until acknowledged). Thread-safe. Before the
        pairing, an unreliable kind (a beat) is not sent: without the datagram key the other, once it
        has one, would take it for forged (a reliable one goes, and is resent keyed once paired)."""
        with self._lock:
            if self.address is None or self.state.startswith(("refused", "closed")):
                return
            if kind not in wire.RELIABLE and self.link.data_key is None:
                return
            data = self.link.message(kind, body, self.clock())
        self._sendto(data)

    def messages(self) -> list[wire.Datagram]:
        """What has arrived for the game since the last call (thread-safe)."""
        with self._lock:
            out = list(self._inbox)
            self._inbox.clear()
            self._changed.notify_all()
        return out

    def tick(self, now_ns: int) -> None:
        """Pings and resends that are due (the game loop calls it every frame); no pings before the
        pairing (without its datagram key the other would take them for forged)."""
        if self.address is None or self.state.startswith(("refused", "closed")):
            return
        out: list[bytes] = []
        with self._lock:
            delay = self.sync.delay_ns
            self.link.rto_ns = max(MIN_RTO_NS, 2 * delay) if delay else 60_000_000
            out += self.link.due(now_ns)
            if now_ns >= self._next_ping and self.link.data_key is not None:
                self._ping_sent = now_ns
                out.append(self.link.message(wire.PING, {"t1": now_ns}, now_ns))
                self._next_ping = now_ns + (PING_NS if self.sync.synced else BURST_PING_NS)
        for data in out:
            self._sendto(data)

    def wait_for(self, predicate: Callable[[Peer], bool], timeout: float) -> bool:
        """Block until `predicate(self)` holds (checked whenever the reader takes something), at most
        `timeout` seconds. For tests and the command line; the game loop never waits."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.05))
        return True

    def close(self, say_bye: bool = True, linger: float = 0.0) -> None:
        """Close the link: with `say_bye`, a BYE first (when this side has said hello: the other may
        have taken it). `linger` > 0: wait up to that long (resending) for the BYE to be acknowledged,
        for a caller that is not the frame loop (a find that paired after the players left)."""
        if say_bye and self._hello_sent and not self.state.startswith(("refused", "closed")):
            self.send(wire.BYE, {"why": "left"})
            deadline = time.monotonic() + linger
            while self.link.in_flight and time.monotonic() < deadline:
                self.tick(self.clock())
                self.wait_for(lambda p: not p.link.in_flight, min(0.02, max(0.0, deadline - time.monotonic())))
        self._stop.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=2)
        self.sock.close()
        with self._lock:
            if not self.state.startswith("refused"):
                self.state = "closed"
            self._changed.notify_all()

    def status(self) -> dict[str, Any]:
        now = self.clock()
        with self._lock:
            counters = self.link.counters
            return {
                "state": self.state,
                "offset_ms": round(self.sync.offset_ns / 1e6, 3),
                "error_bound_ms": round(self.sync.error_bound_ns(now) / 1e6, 3) if self.sync.synced else None,
                "rtt_ms": round(self.sync.delay_ns / 1e6, 3) if self.sync.delay_ns is not None else None,
                "clock_jumps": self.sync.jumps,
                "sent": counters.sent, "resent": counters.resent, "received": counters.received,
                "duplicates": counters.duplicates, "bad": dict(counters.bad), "strangers": self.strangers,
                "flood_windows": self.flood_dropped_windows, "in_flight": self.link.in_flight,
                "unproven": self.unproven, "other_word": self.other_word, "forged": self.forged,
            }

    # ------------------------------------------------------------------ the reader thread

    def _sendto(self, data: bytes) -> None:
        address = self.address
        if address is None:
            return
        try:
            self.sock.sendto(data, address)
        except OSError:
            self.send_errors += 1  # a pulled cable: the resends carry on once it is back

    def _hello_body(self) -> dict[str, Any]:
        """(Under the lock.) This session's hello: the offer, its nonce, and (once there is a pairing's
        secret) the proof of it."""
        body = {**self.offer, "nonce": self._nonce.hex()}
        if self.secret is not None:
            body["proof"] = pairing.proof(self.secret, self.leader, self.link.session, self._nonce)
        return body

    def _say_hello(self) -> None:
        with self._lock:
            if self._hello_sent:
                return
            self._hello_sent = True
            body = self._hello_body()
        self.send(wire.HELLO, body)

    def _read(self) -> None:
        cpu0 = time.thread_time_ns()
        window_start = 0
        taken = 0
        with_nice = getattr(os, "setpriority", None)
        if with_nice is not None:
            with contextlib.suppress(OSError):  # not permitted: an ordinary priority does
                with_nice(os.PRIO_PROCESS, threading.get_native_id(), -10)
        while not self._stop.is_set():
            try:
                data, address = self.sock.recvfrom(wire.MAX_DATAGRAM + 1)
            except TimeoutError:
                self._reopen_if_silent()
                continue
            except OSError:  # (ECONNREFUSED: the dead cabinet's port answered our sends with ICMP)
                if self._stop.is_set():
                    break
                self._reopen_if_silent()  # those errors can come faster than the timeout: check here too
                continue
            now = self.clock()
            if now - window_start >= FLOOD_WINDOW_NS:
                window_start, taken = now, 0
            taken += 1
            if taken > FLOOD_DATAGRAMS:  # a flood: read nothing more this window (the kernel drops)
                self.flood_dropped_windows += 1
                self._stop.wait(max(0.0, (window_start + FLOOD_WINDOW_NS - now) / 1e9))
                continue
            self._take(data, (str(address[0]), int(address[1])), now)
            self.reader_cpu_ns = time.thread_time_ns() - cpu0

    def _take(self, data: bytes, address: tuple[str, int], now: int) -> None:
        stranger = self.address is not None and address != self.address
        if stranger and not self._reopened:
            self.strangers += 1
            return
        hello = len(data) > 3 and data[3] == wire.HELLO
        replies: list[bytes] = []
        kept: bytes | None = None
        with self._lock:
            if stranger or not self._their_hello or hello:
                try:  # (the header's session is only trusted once the datagram checks out)
                    datagram = self.link.decode(data)
                except wire.WireError as error:
                    self.link.counters.bad[error.reason] = self.link.counters.bad.get(error.reason, 0) + 1
                    self._misfit(error.reason, data, address, now)
                    return
                if stranger and datagram.kind != wire.HELLO:
                    self.strangers += 1
                    return
                if datagram.kind != wire.HELLO and not self._their_hello:
                    self._stray(address, now)  # an earlier session's leftovers: taken for nothing
                    return
                if datagram.kind == wire.HELLO and datagram.session in self._old_sessions:
                    return  # a hello of the other's from before its restart, overtaken on the way
                new = datagram.kind == wire.HELLO and datagram.session != self.link.peer_session
                if stranger and not new:  # the current session's hello from elsewhere: a copy, not the other
                    self.strangers += 1
                    return
                if new:
                    if not self._admit(datagram):  # a stranger's (or a forgetful cabinet's): dropped, never a pairing
                        self.unproven += 1
                        return
                    kept, self._unkept = (self.secret if self._unkept else None), False
                if new and self._their_hello:
                    self._restart()  # the other cabinet restarted: this side starts afresh too
                if stranger:
                    self.address = None  # (paired again below, with its new address)
            try:
                delivered, replies = self.link.receive(data, now, room=len(self._inbox) < MAX_INBOX)
            except wire.WireError as error:
                self._misfit(error.reason, data, address, now)
                return
            if self.address is None or self._reopened:  # a listener pairs with the cabinet whose hello came
                self.address = address
                self._reopened = False
                with contextlib.suppress(OSError):
                    self.sock.connect(address)  # from now on the kernel drops datagrams from anyone else
            if not hello or delivered:  # (a hello again, which anyone may send, says nothing of the other)
                self.last_heard_ns = now
            hellos: list[bytes] = []
            for datagram in delivered:
                if datagram.kind == wire.PING:
                    t1 = datagram.body.get("t1")
                    if isinstance(t1, int):
                        replies.append(self.link.message(wire.PONG, {"t1": t1, "t2": now, "t3": self.clock()},
                                                         self.clock()))
                elif datagram.kind == wire.PONG:
                    body = datagram.body
                    if all(isinstance(body.get(k), int) for k in ("t1", "t2", "t3")):
                        self.sync.add(body["t1"], body["t2"], body["t3"], now)
                elif datagram.kind == wire.HELLO:
                    hellos += self._hello(datagram.body)
                    self._their_hello = True
                    self.pairings += 1
                    self._inbox.append(datagram)  # the game learns of a (new) pairing in its order
                elif datagram.kind == wire.REFUSE and not self.state.startswith("refused"):  # the first reason stays
                    self.state = f"refused: {datagram.body.get('why', 'the other cabinet refused')}"
                else:
                    self._inbox.append(datagram)
            replies = hellos + replies  # this side's hello before its acknowledgement, which needs the pairing
            self._changed.notify_all()
        for reply in replies:
            self._sendto(reply)
        if kept is not None:  # (a file written off the lock: the game loop's messages() never waits on it)
            try:
                pairing.save(self.keep, kept)
            except OSError as error:
                print(f"spit-arcade: the linked pairing's secret is not kept ({error}): after a power cut the "
                      "other cabinet will not take this one back", file=sys.stderr)

    def _admit(self, datagram: wire.Datagram) -> bool:
        """(Under the lock.) May this hello of a new session (or from a new address) pair? Once paired
        (or bound: a game to resume), only if it proves the pairing's secret; before, any hello does
        (the secret then new, from both nonces, unless it proves the one kept from before a restart:
        then both go on with that)."""
        body = datagram.body
        theirs = pairing.read_nonce(body.get("nonce"))
        if pairing.proves(self.secret, not self.leader, datagram.session, theirs, body.get("proof")):
            self.bound = True
            self._keyed()
            return True
        if self.bound or self.pairings:
            return False
        if theirs is None or check_offer(self.offer, body) is not None:  # (a hello that does not fit, or
            return check_offer(self.offer, body) is not None  # without a nonce: refused in words, no secret made)
        self.bound, self._unkept = True, True
        pair = (self._nonce, theirs) if self.leader else (theirs, self._nonce)
        self.secret = pairing.combine(*pair, self.key)
        self._keyed()
        return True

    def _keyed(self) -> None:
        """(Under the lock.) The link's datagrams from now on keyed by the pairing's secret (and the word)."""
        assert self.secret is not None
        self.link.data_key = pairing.datagram_key(self.secret, self.key)

    def _misfit(self, reason: str, data: bytes, address: tuple[str, int], now: int) -> None:
        """(Under the lock.) A datagram refused as another link word's, or another version's, from the
        other cabinet or one that may be it (not yet paired): said, where it can be. Once paired, one
        from the paired address whose tag is not the pairing's (or a second hello of its session) is
        forged: counted, and nothing else."""
        if self.address is not None and address != self.address and not self._reopened:
            return
        if self._their_hello and address != self.address:
            return
        if reason == "hello" or (reason in ("word", "tag") and not (len(data) > 3 and data[3] == wire.HELLO)):
            if self._their_hello:
                self.forged += 1
            elif reason != "hello":  # (an earlier session's leftovers, under a datagram key this side lacks)
                self._stray(address, now)
            return
        if reason == "word":
            self.other_word += 1
            self._other_word_ns = now
            if not self._their_hello:  # (a listener answers: the other cabinet sees the words differ too)
                self._stray(address, now)
            return
        if reason == "version" and self._their_hello:  # (once paired, another version's datagram is forged:
            self.forged += 1  # the other cabinet, coming back as another version, says hello first)
            return
        if reason != "version" or self.state.startswith(("refused", "closed")):
            return
        other = wire.other_version(data, self.key)  # (with a link word, version 1, untagged, refuses nothing:
        if other is None:  # it had no word, so it is not the cabinet this one pairs with)
            return
        version, hello = other
        why = check_offer(self.offer, hello) if hello is not None else None
        if why is None or "linked protocol" not in why:
            why = (f"the other cabinet speaks the link's wire version {version}, this one {wire.VERSION}: "
                   "update both to the same version")
        self.state = f"refused: {why}"
        print(f"spit-arcade: the linked game is refused: {why}", file=sys.stderr)
        with contextlib.suppress(OSError):  # in its own layout: its own checks refuse this one, in its words
            answer = wire.old_hello(self.link.session, self.offer, min(version, wire.VERSION), self.key)
            self.sock.sendto(answer, address)

    def _restart(self) -> None:
        """(Under the lock.) The other cabinet restarted: a new session on this side too (what was
        unacknowledged is dropped: the game sends what the other lacks again), a new clock sync."""
        if self.link.peer_session is not None:
            self._old_sessions.add(self.link.peer_session)
        self.link = wire.Link(secrets.randbits(31) | 1, key_=self.key)
        if self.secret is not None:
            self._keyed()  # (the pairing goes on: its hello proved it)
        self._nonce = pairing.nonce()
        self.sync = LinkClock()
        self._hello_sent = False
        self._their_hello = False
        self.restarts += 1

    def _stray(self, address: tuple[str, int], now: int) -> None:
        """(Under the lock.) A datagram of ours from a cabinet that has not said hello in this session:
        a listener answers with its hello (at most every STRAY_HELLO_NS), so that a caller still in an
        earlier session (this listener restarted) says hello again."""
        if not self.leader or (self.address is not None and address != self.address):
            return
        if now - self._stray_hello_ns < STRAY_HELLO_NS or self.state.startswith(("refused", "closed")):
            return
        self._stray_hello_ns = now
        if not self._hello_sent:
            self._hello_sent = True
            self._stray_hello = self.link.message(wire.HELLO, self._hello_body(), now)
        if not self._stray_hello:
            return
        with contextlib.suppress(OSError):
            self.sock.sendto(self._stray_hello, address)

    def _reopen_if_silent(self) -> None:
        """(The reader.) A listener whose peer has said nothing for REOPEN_NS: `_reopen`."""
        heard = self.last_heard_ns
        if (self.leader and not self._reopened and heard is not None and self.address is not None
                and self.clock() - heard > REOPEN_NS and not self.state.startswith(("refused", "closed"))):
            with self._lock:
                self._reopen()

    def _reopen(self) -> None:
        """(The reader.) A listener whose peer has been silent REOPEN_NS: its socket unconnected (a
        connect to AF_UNSPEC, as connect(2) says), so a restarted caller's hello from a new port arrives.
        The same socket and port throughout: nothing is closed under the game's sends."""
        import ctypes

        self._reopened = True  # (once: should it fail, only the paired address is heard, as before)
        unconnect = getattr(self.sock, "unconnect", None)
        if unconnect is not None:  # through the link unit: it unconnects its own socket
            with contextlib.suppress(OSError):
                unconnect()
            return
        assert isinstance(self.sock, socket.socket)
        host, port = self.sock.getsockname()[:2]
        unspecified = (ctypes.c_ubyte * 16)()  # a sockaddr whose family is AF_UNSPEC (0)
        libc = ctypes.CDLL(None, use_errno=True)
        try:
            if libc.connect(self.sock.fileno(), unspecified, ctypes.c_int(16)) != 0:
                raise OSError(ctypes.get_errno(), "connect(AF_UNSPEC)")
            if self.sock.getsockname()[1] != port:  # Linux lets go of a port the kernel chose (listen(0))
                self.sock.bind((host, port))
        except OSError as error:
            print(f"spit-arcade: the link's socket could not be unconnected ({error}); a restarted cabinet "
                  "must call from its old address", file=sys.stderr)

    def _hello(self, theirs: dict[str, Any]) -> list[bytes]:
        """(Under the lock.) Their offer: checked, answered with ours, or refused."""
        out = []
        if not self._hello_sent:
            self._hello_sent = True
            out.append(self.link.message(wire.HELLO, self._hello_body(), self.clock()))
        why = check_offer(self.offer, theirs)
        self.their_offer = theirs
        if why is None:
            if self.state == "connecting":
                self.state = "up"
            return out
        if not self.state.startswith("refused"):  # (the other's REFUSE may have come first: its words stay)
            self.state = f"refused: {why}"
        print(f"spit-arcade: the linked game is refused: {why}", file=sys.stderr)
        out.append(self.link.message(wire.REFUSE, {"why": _their_words(why)}, self.clock()))
        return out


def _their_words(why: str) -> str:
    """The sentence as the other cabinet should show it ("the other cabinet" is then this one)."""
    return why.replace("the other cabinet", "\0").replace("this one", "the other cabinet").replace("\0", "this one")
