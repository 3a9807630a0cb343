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
"""

from __future__ import annotations

import contextlib
import os
import random
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from appliance import __version__

from . import wire
from .clock import LinkClock

if TYPE_CHECKING:
    from .relay_client import RelaySocket

PROTOCOL = 2  # the linked game's protocol (docs/linked.md; 2: resuming after a restart); another is refused
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
                 address: tuple[str, int] | None = None, clock: Callable[[], int] = time.monotonic_ns) -> None:
        self.sock = sock
        self.offer = dict(my_offer)
        self.leader = leader
        self.address = address  # the other cabinet's; a listener learns it from the first hello
        self.clock = clock
        self.link = wire.Link(random.getrandbits(31) | 1)
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
               clock: Callable[[], int] = time.monotonic_ns) -> Peer:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind((host, port))
        return cls(sock, my_offer, leader=True, clock=clock)

    @classmethod
    def connect(cls, host: str, port: int, my_offer: Mapping[str, Any],
                clock: Callable[[], int] = time.monotonic_ns) -> Peer:
        address = socket.getaddrinfo(host, port, socket.AF_INET, socket.SOCK_DGRAM)[0][4]
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("0.0.0.0", 0))
        sock.connect(address)  # the kernel drops datagrams from anyone else
        return cls(sock, my_offer, leader=False, address=(str(address[0]), int(address[1])), clock=clock)

    @classmethod
    def through(cls, relay: str | Path, request: Mapping[str, Any], my_offer: Mapping[str, Any],
                clock: Callable[[], int] = time.monotonic_ns) -> Peer:
        """The link through the cabinet's link unit (relay.py), for a game with no network of its own:
        `request` is {"listen": PORT}, {"connect": [HOST, PORT]} or {"find": "venue[:CABINET]"}. The
        unit carries the datagrams; everything else (the hello, the clock sync, resends) is this."""
        from .relay_client import RelaySocket

        sock = RelaySocket(relay, {**request, "offer": dict(my_offer)})
        leader = "listen" in request
        return cls(sock, my_offer, leader=leader, address=None if leader else sock.peer, clock=clock)

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    @property
    def up(self) -> bool:
        return self.state == "up"

    # ------------------------------------------------------------------ the game loop's side

    def send(self, kind: int, body: Mapping[str, Any] | None = None) -> None:
        """Send one message (a reliable kind is resent until acknowledged). Thread-safe."""
        with self._lock:
            if self.address is None or self.state.startswith(("refused", "closed")):
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
        """Pings and resends that are due (the game loop calls it every frame)."""
        if self.address is None or self.state.startswith(("refused", "closed")):
            return
        out: list[bytes] = []
        with self._lock:
            delay = self.sync.delay_ns
            self.link.rto_ns = max(MIN_RTO_NS, 2 * delay) if delay else 60_000_000
            out += self.link.due(now_ns)
            if now_ns >= self._next_ping:
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

    def close(self, say_bye: bool = True) -> None:
        if say_bye and self.up:
            self.send(wire.BYE, {"why": "left"})
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

    def _say_hello(self) -> None:
        if not self._hello_sent:
            self._hello_sent = True
            self.send(wire.HELLO, self.offer)

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
        with self._lock:
            if stranger or not self._their_hello or hello:
                try:  # (the header's session is only trusted once the datagram checks out)
                    datagram = wire.decode(data)
                except wire.WireError as error:
                    self.link.counters.bad[error.reason] = self.link.counters.bad.get(error.reason, 0) + 1
                    return
                if stranger and datagram.kind != wire.HELLO:
                    self.strangers += 1
                    return
                if datagram.kind != wire.HELLO and not self._their_hello:
                    self._stray(address, now)  # an earlier session's leftovers: taken for nothing
                    return
                if datagram.kind == wire.HELLO and datagram.session in self._old_sessions:
                    return  # a hello of the other's from before its restart, overtaken on the way
                if datagram.kind == wire.HELLO and self._their_hello and datagram.session != self.link.peer_session:
                    self._restart()  # the other cabinet restarted: this side starts afresh too
                if stranger:
                    self.address = None  # (paired again below, with its new address)
            try:
                delivered, replies = self.link.receive(data, now, room=len(self._inbox) < MAX_INBOX)
            except wire.WireError:
                return
            if self.address is None or self._reopened:  # a listener pairs with the cabinet whose hello came
                self.address = address
                self._reopened = False
                with contextlib.suppress(OSError):
                    self.sock.connect(address)  # from now on the kernel drops datagrams from anyone else
            self.last_heard_ns = now
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
                    replies += self._hello(datagram.body)
                    self._their_hello = True
                    self.pairings += 1
                    self._inbox.append(datagram)  # the game learns of a (new) pairing in its order
                elif datagram.kind == wire.REFUSE and not self.state.startswith("refused"):  # the first reason stays
                    self.state = f"refused: {datagram.body.get('why', 'the other cabinet refused')}"
                else:
                    self._inbox.append(datagram)
            self._changed.notify_all()
        for reply in replies:
            self._sendto(reply)

    def _restart(self) -> None:
        """(Under the lock.) The other cabinet restarted: a new session on this side too (what was
        unacknowledged is dropped: the game sends what the other lacks again), a new clock sync."""
        if self.link.peer_session is not None:
            self._old_sessions.add(self.link.peer_session)
        self.link = wire.Link(random.getrandbits(31) | 1)
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
            self._stray_hello = self.link.message(wire.HELLO, self.offer, now)
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
            out.append(self.link.message(wire.HELLO, self.offer, self.clock()))
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
