"""The link unit: the linked game's datagrams carried between the network and the game, which has none.

On a cabinet the game's unit has no network (`PrivateNetwork=yes`, `IPAddressDeny=any`, only
`AF_UNIX`/`AF_NETLINK` sockets), as the design requires. `spit-arcade link-relay` runs in a unit of
its own that has the network (systemd/spit-arcade-link.service, started by its socket when the game
connects) and holds the link's one UDP socket for the game. It relays the wire's datagrams
(wire.py) verbatim both ways, over a Unix `SOCK_SEQPACKET` connection, one packet a datagram: the
game keeps everything else — the hello and its checks, the acknowledgements and resends, the clock
sync, the linked table (peer.py, game.py) — so the relay decides nothing about the game and a bug in
it can lose a datagram (which the link resends) but never change one.

The packets (one byte of kind, then what it carries; an address is "!4sH", IPv4 and port):

    game -> relay   O {json}        open: {"v": 1, "listen": PORT} (this cabinet leads; with
                                    "offer", it is offered on the venue's broker meanwhile), or
                                    {"v": 1, "connect": [HOST, PORT]} (with "from": a
                                    port, to call from it: a game calling again), or {"v": 1, "find":
                                    "venue[:CABINET]", "offer": ...} (the venue's broker names the
                                    address: venue.py). Answered by R.
                    S addr data     send `data` to `addr` (sendto)
                    C addr          pair: only `addr` is heard from now on (the kernel drops the rest:
                                    connect(2)); an offer on the venue is taken down
                    U               unpair: any address is heard again (peer.py's listener, when its
                                    peer has been silent: a restarted caller calls from a new port)
    relay -> game   R {json}        {"v": 1, "port": the UDP port, "peer": [HOST, PORT] (connect,
                                    find), "where": words} or {"v": 1, "error": words}
                    D t addr data   a datagram from `addr`, taken off the UDP socket when the
                                    relay's CLOCK_MONOTONIC read `t` ("!Q", ns)
                    E errno         the UDP socket's error (ECONNREFUSED: the other's port is shut)

Finding a game on the venue's broker takes up to 30 s (venue.py waits for a fitting offer): it runs
on a thread of its own, and the relay's loop finishes that link's open when it is done (a byte on its
wake-up socket says so), so the other links' datagrams flow meanwhile. A game that closes its end
meanwhile (its players left the wait) calls the find off at once: nothing is accepted or opened.

Cheap checks first, bounded work under a flood, as peer.py's reader: a datagram that is not the
wire's (its length, its magic) is dropped here; at most `FLOOD_DATAGRAMS` are taken each
`FLOOD_WINDOW_NS`, the rest left to the kernel; a game that does not read fast enough loses
datagrams here (counted), never blocks the relay. Each connection is one link with a UDP socket of
its own, closed when the game's end closes (it ended, or it restarted: the kernel closes a dead
process's end); at most `MAX_SESSIONS` at once. With no game connected for `--idle` seconds it ends;
systemd starts it again at the game's next connection.

The game's end is `RelaySocket` (relay_client.py): what peer.py's `Peer` needs of a UDP socket (`sendto`, `recvfrom`,
`connect`, `settimeout`, ...), over the relay. If the relay goes away (a restart of its unit), it
connects again and opens the same link (a listener on its port, a caller from its port: the other
cabinet hears the same address); the link's silence pauses the game meanwhile (game.py).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import queue
import selectors
import socket
import struct
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from appliance.shared import unix_listener

from . import wire
from .finding import Cancel
from .relay_client import ADDR, ERRNO, MAX_PACKET, RCVBUF, SOCKET, STAMP, VERSION, addr, address_at

FLOOD_WINDOW_NS = 100_000_000
FLOOD_DATAGRAMS = 400  # (peer.py's budget: the game's reader takes no more either)
IDLE_S = 120.0
FIND_S = 30.0  # how long a find on the venue waits for a game that fits
MAX_SESSIONS = 4  # links at once (a cabinet has one game; a desktop may try two tables)


def _json(kind: bytes, body: Mapping[str, Any]) -> bytes:
    return kind + json.dumps({"v": VERSION, **body}, separators=(",", ":")).encode()


def say(text: str) -> None:
    print(f"spit-arcade link-relay: {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------- the relay (the link unit)


class Session:
    """One game's link: its Unix connection, its UDP socket, the offer on the venue if any."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.udp: socket.socket | None = None
        self.paired: tuple[str, int] | None = None
        self.venue: Any = None  # venue.VenueLink while this cabinet's game is offered there
        self.window_start = 0
        self.taken = 0
        self.to_game_dropped = 0  # datagrams the game had no room for
        self.not_ours = 0  # datagrams that are not the wire's (dropped here)
        self.flood_windows = 0
        self.paused_until = 0  # (a flood) its UDP socket is not read until then
        self.cancel = Cancel()  # its find on the venue, if one is under way: called off when the game goes

    def close(self) -> None:
        self.cancel.set()
        self.withdraw()
        for sock in (self.udp, self.conn):
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.close()

    def withdraw(self) -> None:
        venue, self.venue = self.venue, None
        if venue is not None:
            threading.Thread(target=venue.close, name="link-relay-withdraw", daemon=True).start()


class Relay:
    def __init__(self, listener: socket.socket, idle_s: float = IDLE_S, host: str = "0.0.0.0",
                 venue: Path | None = None, find_s: float = FIND_S) -> None:
        self.listener = listener
        self.idle_s = idle_s
        self.host = host  # where listening links bind (the unit: every address; its IPAddressAllow= limits)
        self.venue = venue  # the venue's settings (None: the cabinet's, /etc/spit-arcade/venue/venue.toml)
        self.find_s = find_s
        self.sessions: set[Session] = set()
        self.selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        self.listener.setblocking(False)
        self.selector.register(self.listener, selectors.EVENT_READ, ("listener", None))
        # A find on the venue's broker (up to 30 s) runs on a thread; what it found comes back here.
        self.found: queue.SimpleQueue[tuple[Session, dict[str, Any], Any]] = queue.SimpleQueue()
        self._wake, self._waker = socket.socketpair()
        self._wake.setblocking(False)
        self._waker.setblocking(False)
        self.selector.register(self._wake, selectors.EVENT_READ, ("wake", None))
        self.finding = 0  # finds on the venue under way

    def stop(self) -> None:
        self._stop.set()

    def serve(self) -> None:
        idle_since = time.monotonic()
        while not self._stop.is_set():
            paused = [s.paused_until for s in self.sessions if s.paused_until]
            timeout = 0.25 if not paused else min(0.25, max(0.0, (min(paused) - time.monotonic_ns()) / 1e9))
            for key, _ in self.selector.select(timeout):
                what, session = key.data
                if what == "listener":
                    self._accept()
                elif what == "wake":
                    self._found()
                elif session not in self.sessions:
                    continue  # (dropped earlier in this round)
                elif what == "game":
                    self._from_game(session)
                elif what == "udp" and self._from_network(session):
                    self._watch_udp(session, False)  # a flood: not read for the rest of the window
                    session.paused_until = session.window_start + FLOOD_WINDOW_NS
            now = time.monotonic_ns()
            for session in [s for s in self.sessions if s.paused_until and now >= s.paused_until]:
                session.paused_until = 0
                self._watch_udp(session, True)
            if self.sessions:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > self.idle_s:
                say(f"no game for {self.idle_s:g} s: ending (systemd starts it at the game's next call)")
                break
        for session in list(self.sessions):
            self._drop(session)
        self.selector.close()
        for sock in (self.listener, self._wake, self._waker):
            with contextlib.suppress(OSError):
                sock.close()

    def _accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        if len(self.sessions) >= MAX_SESSIONS:
            say(f"a {MAX_SESSIONS + 1}th link at once refused")
            conn.close()
            return
        conn.setblocking(False)
        with contextlib.suppress(OSError):
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, RCVBUF)
        session = Session(conn)
        self.sessions.add(session)
        self.selector.register(conn, selectors.EVENT_READ, ("game", session))

    def _drop(self, session: Session) -> None:
        if session not in self.sessions:
            return
        self.sessions.discard(session)
        for sock in (session.conn, session.udp):
            if sock is not None:
                with contextlib.suppress(KeyError, ValueError, OSError):
                    self.selector.unregister(sock)
        if session.to_game_dropped or session.not_ours or session.flood_windows:
            say(f"a link closed: {session.to_game_dropped} datagrams the game had no room for, "
                f"{session.not_ours} not the link's, {session.flood_windows} flood windows cut short")
        session.close()

    def _send_game(self, session: Session, packet: bytes) -> bool:
        try:
            session.conn.send(packet)
        except BlockingIOError:
            session.to_game_dropped += 1  # the game is behind: the link resends what matters
            return False
        except OSError:
            self._drop(session)
            return False
        return True

    def _from_game(self, session: Session) -> None:
        for _ in range(64):  # then the others get their turn
            try:
                packet = session.conn.recv(MAX_PACKET)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                packet = b""
            if not packet:  # the game closed its end (it ended, or restarted)
                self._drop(session)
                return
            kind = packet[:1]
            try:
                if kind == b"S" and session.udp is not None:
                    with contextlib.suppress(OSError):  # (an unreachable address: the link resends)
                        session.udp.sendto(packet[1 + ADDR.size:], address_at(packet, 1))
                elif kind == b"C" and session.udp is not None:
                    session.paired = address_at(packet, 1)
                    with contextlib.suppress(OSError):
                        session.udp.connect(session.paired)
                    session.withdraw()  # paired: the offer on the venue is taken down
                elif kind == b"U" and session.udp is not None:
                    self._unpair(session)
                elif kind == b"O" and session.udp is None:
                    self._open(session, json.loads(packet[1:]))
                else:
                    say(f"a packet it does not take from the game ({kind!r}): the link is closed")
                    self._drop(session)
                    return
            except (ValueError, struct.error, OSError) as error:
                say(f"the game's request could not be done ({error}): the link is closed")
                self._send_game(session, _json(b"R", {"error": str(error)}))
                self._drop(session)
                return

    def _unpair(self, session: Session) -> None:
        assert session.udp is not None
        session.paired = None
        host, port = session.udp.getsockname()[:2]
        _disconnect(session.udp)
        if session.udp.getsockname()[1] != port:  # Linux lets go of a port the kernel chose
            session.udp.bind((host, port))

    def _open(self, session: Session, request: Any, found: tuple[str, int, str] | None = None) -> None:
        if not isinstance(request, dict) or request.get("v") != VERSION:
            raise ValueError(f"an open request of another version: {request!r}")
        if "find" in request and found is None:
            self._find(session, request)
            return
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
        reply: dict[str, Any] = {}
        offer = request.get("offer") if isinstance(request.get("offer"), dict) else None
        try:
            if "listen" in request:
                port = request["listen"]
                if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port < 65536:
                    raise ValueError(f"listen on port {port!r}?")
                udp.bind((self.host, port))
                reply["where"] = f"port {udp.getsockname()[1]}"
                if offer is not None:
                    offered = _offer_on_venue(session, offer, int(udp.getsockname()[1]), self.venue)
                    if offered:
                        reply["where"] += f", {offered}"
            else:
                if found is not None:
                    host, port, name = found
                    where = f"{name} ({host}:{port}, through the venue)"
                else:
                    host, port = request["connect"]
                    where = f"{host}:{port}"
                address = socket.getaddrinfo(str(host), int(port), socket.AF_INET, socket.SOCK_DGRAM)[0][4]
                since = request.get("from", 0)  # (a game calling again: the port it had, so the other hears it)
                if isinstance(since, bool) or not isinstance(since, int) or not 0 <= since < 65536:
                    raise ValueError(f"call from port {since!r}?")
                udp.bind(("0.0.0.0", since))
                udp.connect(address)
                session.paired = (str(address[0]), int(address[1]))
                reply.update(peer=list(session.paired), where=where)
        except Exception:
            udp.close()
            raise
        udp.setblocking(False)
        session.udp = udp
        reply["port"] = int(udp.getsockname()[1])
        self.selector.register(udp, selectors.EVENT_READ, ("udp", session))
        self._send_game(session, _json(b"R", reply))
        say(f"a link is open: {reply['where']}")

    def _find(self, session: Session, request: dict[str, Any]) -> None:
        """Look for a game on the venue's broker on a thread of its own; `_found` opens the link."""
        given = request.get("offer")
        offer: dict[str, Any] = given if isinstance(given, dict) else {}
        self.finding += 1

        def find() -> None:
            try:
                answer: Any = _find_on_venue(str(request["find"]), offer, self.venue, self.find_s, session.cancel)
            except Exception as error:  # (TimeoutError: none fits; OSError: no broker) said to the game
                answer = error
            self.found.put((session, request, answer))
            with contextlib.suppress(OSError):
                self._waker.send(b"!")

        threading.Thread(target=find, name="link-relay-find", daemon=True).start()

    def _found(self) -> None:
        """The finds that are done: each link opened to what was found, or refused with why not."""
        with contextlib.suppress(OSError):
            while self._wake.recv(4096):
                pass
        while True:
            try:
                session, request, answer = self.found.get_nowait()
            except queue.Empty:
                return
            self.finding -= 1
            if session not in self.sessions:
                continue  # the game went while it was looked for
            try:
                if isinstance(answer, BaseException):
                    error = answer
                else:
                    self._open(session, request, answer)
                    continue
            except (ValueError, struct.error, OSError) as refused:
                error = refused
            say(f"the game's request could not be done ({error}): the link is closed")
            self._send_game(session, _json(b"R", {"error": str(error)}))
            self._drop(session)

    def _from_network(self, session: Session) -> bool:
        """Datagrams off the UDP socket to the game; True when this window's budget is spent (a flood)."""
        if session.udp is None:
            return False
        for _ in range(64):
            try:
                data, address = session.udp.recvfrom(wire.MAX_DATAGRAM + 1)
            except (BlockingIOError, InterruptedError):
                return False
            except OSError as error:  # ECONNREFUSED: what the other's shut port answered
                self._send_game(session, b"E" + ERRNO.pack(error.errno or errno.EIO))
                return False
            now = time.monotonic_ns()
            if now - session.window_start >= FLOOD_WINDOW_NS:
                session.window_start, session.taken = now, 0
            session.taken += 1
            if session.taken > FLOOD_DATAGRAMS:
                session.flood_windows += 1
                return True
            if len(data) > wire.MAX_DATAGRAM or len(data) < wire.HEADER.size + wire.CRC.size or data[:2] != wire.MAGIC:
                session.not_ours += 1
                continue
            packet = b"D" + STAMP.pack(now) + addr((str(address[0]), int(address[1]))) + data
            if not self._send_game(session, packet) and session not in self.sessions:  # (the game went away)
                return False
        return False

    def _watch_udp(self, session: Session, on: bool) -> None:
        if session.udp is None:
            return
        with contextlib.suppress(KeyError, ValueError, OSError):
            if on:
                self.selector.register(session.udp, selectors.EVENT_READ, ("udp", session))
            else:
                self.selector.unregister(session.udp)


def _disconnect(sock: socket.socket) -> None:
    """connect(2) to AF_UNSPEC: the socket takes datagrams from any address again."""
    import ctypes

    unspecified = (ctypes.c_ubyte * 16)()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.connect(sock.fileno(), unspecified, ctypes.c_int(16)) != 0:
        raise OSError(ctypes.get_errno(), "connect(AF_UNSPEC)")


def _offer_on_venue(session: Session, offer: dict[str, Any], port: int, venue: Path | None) -> str:
    """Offer the game on the venue's broker where the cabinet has a venue (on a thread: the broker may
    be slow); '' where there is none. Taken down when the game pairs (C) or goes."""
    from .venue import VenueLink, venue_settings

    settings = venue_settings(venue)
    if settings is None:
        return ""
    link = VenueLink(settings)
    session.venue = link

    def offer_it() -> None:
        try:
            link.connect()
            if session.venue is link:
                link.offer(offer, port)
        except OSError as error:
            say(f"the linked game is not offered on the venue ({error})")
        if session.venue is not link:  # paired (or gone) meanwhile
            with contextlib.suppress(Exception):
                link.close()

    threading.Thread(target=offer_it, name="link-relay-offer", daemon=True).start()
    return f"offered on the venue as {settings.cabinet}"


def _find_on_venue(spec: str, offer: dict[str, Any], venue: Path | None, timeout: float,
                   cancel: Cancel | None = None) -> tuple[str, int, str]:
    from .venue import find_on_venue, venue_settings

    return find_on_venue(spec, offer, venue_settings(venue), timeout, cancel)


# ---------------------------------------------------------------------- the command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade link-relay", description=__doc__.split("\n\n")[0])
    parser.add_argument("--socket", type=Path, help=f"bind this socket (without systemd's; default {SOCKET})")
    parser.add_argument("--idle", type=float, default=IDLE_S, help="end after this many seconds with no game")
    parser.add_argument("--host", default="0.0.0.0", help="the address a listening link binds (default: every one)")
    parser.add_argument("--venue", type=Path, help="the venue's settings (default /etc/spit-arcade/venue/venue.toml)")
    parser.add_argument("--find-s", type=float, default=FIND_S, help="how long a find on the venue waits for a game")
    args = parser.parse_args(argv)
    listener = unix_listener.from_systemd()
    if listener is None:
        listener = unix_listener.bind(args.socket or SOCKET, socket.SOCK_SEQPACKET)
        print(f"link-relay ready on {args.socket or SOCKET}", flush=True)  # (for a test or a desktop: it may call now)
    from appliance import watchdog

    watchdog.ready("relaying the linked game's datagrams")
    Relay(listener, args.idle, args.host, args.venue, args.find_s).serve()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
