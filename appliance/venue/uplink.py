"""`spit-arcade uplink`: the cabinet's one link to its venue (its own unit, spit-arcade-uplink.service).

Off unless the cabinet has a `[venue]` section (/etc/spit-arcade/venue/venue.toml, made by
`spit-arcade venue init`): with none it says so and exits 0, having opened no socket.

What it does, over and over (one thread: paho's network loop and the SQLite files are driven from
here, so its callbacks run here too):

- reads the cabinet's figures (source.py) and puts into the outbox what changed: `audits` (the day's
  and the lifetime's coins and games, per game), `board` (its fastest sprints and reactions, with
  initials, retained) and, every HEARTBEAT_S, `health` (version, uptime, faults, its last update or
  rollback, what the outbox dropped or the broker refused);
- sends the outbox in order, at most WINDOW unacknowledged, QoS 1, over a persistent MQTT v5 session
  (clean_start false, the session kept SESSION_S while away); a message leaves the outbox when the
  broker's PUBACK comes. A PUBACK that refuses it (not authorized: the ACL) is said and counted,
  and the message is not sent again;
- subscribes to the venue's board (every cabinet's `board`) and writes what it gets into its board
  file, which the game reads. A malformed, oversized or foreign message is refused with a log line
  and counted. What a turn received is written in one transaction at the turn's end (one sync to the
  card for a burst of boards, not one each), and a turn reads every packet already there (paho's
  loop() reads one a call).
"""

from __future__ import annotations

import argparse
import os
import ssl
import sys
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appliance import __version__
from appliance.venue import messages, source
from appliance.venue.board import FILE as BOARD_FILE
from appliance.venue.board import BoardFile
from appliance.venue.outbox import Outbox

SETTINGS = Path("/etc/spit-arcade/venue/venue.toml")
STATE = Path("/var/lib/spit-arcade")
HEARTBEAT_S = 60.0
READ_S = 5.0  # how often the cabinet's figures are read
WINDOW = 20  # messages sent and not yet acknowledged (Mosquitto's max_inflight_messages is 20)
SESSION_S = 7 * 24 * 3600
KEEPALIVE_S = 30  # a link that died silently is noticed after one and a half of these
RETRY_S = (1.0, 2.0, 5.0, 10.0, 30.0)  # the waits between tries to reach the broker
FLAP_S, FLAPS = 10.0, 3  # three connections in a row lost within 10 s: someone else has our name
CONNACK_S = 15.0  # a connection whose CONNACK has not come by then is tried again
BOARD_BURST, BOARD_RATE = 20, 1.0  # boards taken from one cabinet: 20 at once, then one a second
DRAIN = 200  # at most this many more packets read in one turn, when they are already there


def say(text: str) -> None:
    print(f"spit-arcade uplink: {text}", flush=True)


@dataclass(frozen=True)
class VenueSettings:
    broker: str
    port: int
    cabinet: str
    ca: Path
    cert: Path
    key: Path


def load_settings(path: Path) -> VenueSettings | None:
    """The `[venue]` section of `path`; None when there is none (the venue is off). ValueError
    saying what is wrong with one that is there."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ValueError(f"{path}: {error}") from None
    venue = data.get("venue")
    if venue is None:
        return None
    if not isinstance(venue, dict):
        raise ValueError(f"{path}: [venue] is not a table")
    unknown = sorted(set(venue) - {"broker", "port", "cabinet", "ca", "cert", "key"})
    if unknown:
        raise ValueError(f"{path}: unknown key(s) in [venue]: {', '.join(unknown)}")
    missing = [k for k in ("broker", "cabinet", "ca", "cert", "key") if not isinstance(venue.get(k), str)]
    if missing:
        raise ValueError(f"{path}: [venue] needs {', '.join(missing)} (text)")
    port = venue.get("port", 8883)
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        raise ValueError(f"{path}: [venue] port must be 1-65535")
    messages.check_name(venue["cabinet"])
    base = path.parent
    return VenueSettings(venue["broker"], port, venue["cabinet"], base / venue["ca"], base / venue["cert"],
                         base / venue["key"])


def tls_context(ca: Path, cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=str(ca))
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(str(cert), str(key))
    return context


def mqtt_client(client_id: str, context: ssl.SSLContext) -> Any:
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    client.tls_set_context(context)
    client.max_inflight_messages_set(WINDOW)
    return client


def session_properties() -> Any:
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = SESSION_S
    return properties


def uptime_s() -> float:
    try:
        return float(Path("/proc/uptime").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return time.monotonic()


class Uplink:
    def __init__(self, settings: VenueSettings, state: Path, venue_dir: Path,
                 clock: Callable[[], float] = time.monotonic, today: Callable[[], str] | None = None,
                 keepalive: int = KEEPALIVE_S) -> None:
        self.settings = settings
        self.keepalive = keepalive
        self.state = state
        self.clock = clock
        self.today = today or (lambda: time.strftime("%Y-%m-%d"))
        self.outbox = Outbox(venue_dir / "outbox.sqlite", settings.cabinet)
        self.board = BoardFile(venue_dir / BOARD_FILE)
        self.client = mqtt_client(settings.cabinet, tls_context(settings.ca, settings.cert, settings.key))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self.connected = False  # CONNACK had: messages may go
        self.linked = False  # a connection made (its CONNACK may not have come yet)
        self.ever_linked = False
        self.linked_at = 0.0
        self.in_flight: dict[int, int] = {}  # paho's mid -> the outbox's row
        self.handed = 0  # the last outbox row handed to paho
        self.refused_by_broker = 0
        self.taken_over = 0  # times another client took our name's session
        self.flaps = 0  # connections lost in a row, each within FLAP_S of opening
        self.connected_at = 0.0
        self.next_try = 0.0
        self.tries = 0
        self.next_read = 0.0
        self.next_heartbeat = 0.0
        self.started = clock()
        self.on_board: Callable[[messages.Message], None] | None = None  # told of each board taken
        self.buckets: dict[str, tuple[float, float]] = {}  # cabinet -> (boards it may still send, when)
        self.flooded: dict[str, int] = {}  # cabinet -> its boards refused past the rate (said in health)
        self.packets = 0  # packets paho handed us (messages and acknowledgements): a turn reads on while they come
        self._boards: list[messages.Message] = []  # taken this turn, written at its end
        self._refusals: dict[str, int] = {}  # refused this turn, by reason, written at its end

    # -- what goes out -------------------------------------------------------------------------

    def read_figures(self, now: float) -> None:
        """Put into the outbox what changed since it last looked (and a heartbeat when due)."""
        figures = source.read(self.state)
        day = self.today()
        lifetime = figures.lifetime.to_json()
        start = self.outbox.recall("day_start")
        if not isinstance(start, dict) or start.get("day") != day or not isinstance(start.get("lifetime"), dict):
            # A new day starts from the counts as they are now (the uplink's first day too: what was
            # played before the venue was switched on is in the lifetime figures, not today's).
            start = {"day": day, "lifetime": lifetime}
            self.outbox.remember("day_start", start)
        audits_body = {"day": day, "today": _difference(lifetime, start["lifetime"]), "lifetime": lifetime,
                       "since": figures.since.to_json(), "cleared": figures.cleared}
        self._put_if_changed("audits", audits_body)
        self._put_if_changed("board", {"fastest_sprints": figures.sprints_json(),
                                       "fastest_reactions": figures.reactions_json()}, retain=True)
        if now >= self.next_heartbeat:
            self.next_heartbeat = now + HEARTBEAT_S
            faults = list(figures.faults)
            dropped = self.outbox.dropped()
            if dropped:
                faults.append("outbox full while the broker was away: dropped " +
                              ", ".join(f"{n} {kind}" for kind, n in dropped.items()))
            if self.taken_over:
                faults.append(f"another client connected as {self.settings.cabinet} {self.taken_over} time(s): "
                              "two cabinets with one name?")
            if self.refused_by_broker:
                faults.append(f"the broker refused {self.refused_by_broker} message(s): not authorized")
            if self.flooded:
                faults.append("boards refused as a flood (more than " + str(BOARD_BURST) + " at once): " +
                              ", ".join(f"{n} from {cabinet}" for cabinet, n in sorted(self.flooded.items())))
            self.outbox.put("health", {"version": __version__, "uptime_s": round(uptime_s(), 1),
                                       "uplink_s": round(now - self.started, 1), "faults": faults,
                                       "last_update": figures.last_update,
                                       "outbox": len(self.outbox), "refused": self.board.refused()})

    def _put_if_changed(self, kind: str, body: dict[str, Any], retain: bool = False) -> None:
        if self.outbox.recall(f"last_{kind}") == body:
            return
        self.outbox.put(kind, body, retain)
        self.outbox.remember(f"last_{kind}", body)

    def feed(self) -> None:
        """Hand paho the next messages in order, while connected, at most WINDOW unacknowledged."""
        if not self.connected or len(self.in_flight) >= WINDOW:
            return
        import paho.mqtt.client as mqtt

        for pending in self.outbox.pending(self.handed, WINDOW - len(self.in_flight)):
            info = self.client.publish(pending.topic, pending.payload, qos=1, retain=pending.retain)
            if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):
                break  # not taken (paho's queue full): handed again on a later turn
            # Taken: sent, or (the connection went meanwhile) kept by paho and sent when it is back.
            self.in_flight[info.mid] = pending.row
            self.handed = pending.row
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                break

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        self.packets += 1
        row = self.in_flight.pop(mid, None)
        if row is None:
            return
        if reason is not None and getattr(reason, "is_failure", False):
            self.refused_by_broker += 1
            say(f"the broker refused message {row} ({reason}): check this cabinet's name and the venue's ACL")
        self.outbox.done(row)

    # -- the link ------------------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            say(f"the broker at {self.settings.broker}:{self.settings.port} refused the connection: {reason}")
            return
        self.connected = True
        self.connected_at = self.clock()
        self.tries = 0
        say(f"connected to {self.settings.broker}:{self.settings.port} as {self.settings.cabinet} "
            f"(session {'kept' if getattr(flags, 'session_present', False) else 'new'}, "
            f"{len(self.outbox)} message(s) waiting)")
        if not getattr(flags, "session_present", False):  # a kept session keeps its subscription
            client.subscribe(messages.board_topics(), qos=1)

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if self.connected:
            # Mosquitto closes the older of two connections with one client id: with an MQTT v5
            # DISCONNECT "session taken over" (0x8E), or (2.0.11) by closing it. Either way, a
            # connection lost soon after it opened, again and again, is another cabinet with our name.
            quick = self.clock() - self.connected_at < FLAP_S
            self.flaps = self.flaps + 1 if quick else 0
            if getattr(reason, "value", None) == 0x8E or self.flaps == FLAPS:
                self.taken_over += 1
                say(f"another client connected as {self.settings.cabinet!r}: two cabinets with one name "
                    "(or one credential)? Give each its own with spit-arcade venue init")
            elif self.flaps < FLAPS:
                say(f"lost the broker ({reason}); the outbox keeps every message")
        self.connected = self.linked = False

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        self.packets += 1
        try:
            got = messages.decode(message.topic, message.payload)
            if got.kind != "board":
                raise messages.Refused("foreign", f"{got.kind} on the board's subscription")
            if not self._within_rate(got.cabinet):
                self.flooded[got.cabinet] = self.flooded.get(got.cabinet, 0) + 1
                raise messages.Refused("flood", f"{got.cabinet} sent more than {BOARD_BURST} boards at once")
        except messages.Refused as refused:
            self._refusals[refused.reason] = self._refusals.get(refused.reason, 0) + 1
            count = sum(self.board.refused().values()) + sum(self._refusals.values())
            if count <= 10 or count % 100 == 0:  # a flood is said now and then, and counted always
                say(f"refused a message ({refused}); {count} refused so far")
            return
        self._boards.append(got)

    def _write_board(self) -> None:
        """What this turn received, into the board file in one transaction; then told (on_board)."""
        if not self._boards and not self._refusals:
            return
        boards, self._boards = self._boards, []
        refusals, self._refusals = self._refusals, {}
        self.board.write([(b.cabinet, b.boot, b.seq, b.body) for b in boards], refusals)
        if self.on_board is not None:
            for got in boards:
                self.on_board(got)

    def _within_rate(self, cabinet: str) -> bool:
        """A cabinet's boards, at most BOARD_BURST at once and BOARD_RATE a second after that (a token
        bucket): a flood from one client costs the cabinet no more than that."""
        now = self.clock()
        tokens, then = self.buckets.get(cabinet, (float(BOARD_BURST), now))
        tokens = min(float(BOARD_BURST), tokens + (now - then) * BOARD_RATE)
        self.buckets[cabinet] = (tokens - 1, now) if tokens >= 1 else (tokens, now)
        return tokens >= 1

    def connect_when_due(self, now: float) -> None:
        if self.connected or now < self.next_try:
            return
        if self.linked and now - self.linked_at < CONNACK_S:
            return  # a connection made, its CONNACK not come yet
        self.next_try = now + RETRY_S[min(self.tries, len(RETRY_S) - 1)]
        self.tries += 1
        try:
            if self.ever_linked:
                self.client.reconnect()
            else:
                self.client.connect(self.settings.broker, self.settings.port, keepalive=self.keepalive,
                                    clean_start=False, properties=session_properties())
            self.linked, self.ever_linked, self.linked_at = True, True, now
        except (OSError, ssl.SSLError) as error:
            self.linked = False
            if self.tries in (1, 3) or self.tries % 30 == 0:
                say(f"cannot reach the broker at {self.settings.broker}:{self.settings.port} ({error}); "
                    "trying again, the outbox keeps every message")

    def step(self, timeout: float = 0.1) -> None:
        """One turn: read the figures when due, reach the broker, run paho's loop, send."""
        now = self.clock()
        if now >= self.next_read:
            self.next_read = now + READ_S
            self.read_figures(now)
        self.connect_when_due(now)
        if self.linked:
            self.client.loop(timeout=timeout)
            for _ in range(DRAIN):  # paho reads one packet a call: read on while they are there
                before = self.packets
                if self.client.loop(timeout=0) != 0 or self.packets == before:
                    break
        else:
            time.sleep(timeout)  # no connection: nothing of paho's to wait on before the next try
        self._write_board()
        self.feed()

    def close(self) -> None:
        self._write_board()
        if self.connected:
            self.client.disconnect()
        self.outbox.close()
        self.board.close()


def _difference(now: dict[str, Any], start: dict[str, Any]) -> dict[str, Any]:
    """What the counts grew by since `start` (the day's start): coins, games, games per game, ..."""
    out: dict[str, Any] = {}
    for key in ("coins", "games", "finished", "abandoned", "races", "sprints"):
        a, b = now.get(key, 0), start.get(key, 0)
        out[key] = max(0, a - b) if isinstance(a, int) and isinstance(b, int) else 0
    old: dict[str, int] = start["variants"] if isinstance(start.get("variants"), dict) else {}
    variants: dict[str, int] = now["variants"] if isinstance(now.get("variants"), dict) else {}
    out["variants"] = {k: v - old.get(k, 0) for k, v in sorted(variants.items()) if v - old.get(k, 0) > 0}
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade uplink", description=__doc__.split("\n\n")[0])
    parser.add_argument("--settings", type=Path, default=SETTINGS, help=f"the [venue] file (default {SETTINGS})")
    parser.add_argument("--state", type=Path, default=STATE, help=f"the game's state directory (default {STATE})")
    parser.add_argument("--venue-dir", type=Path, default=None,
                        help="where the outbox and the board are kept (default STATE/venue)")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(args.settings)
    except ValueError as error:
        say(str(error))
        return 2
    if settings is None:
        say(f"the venue is off (no [venue] section in {args.settings}): nothing is sent")
        return 0
    from appliance.watchdog import progress

    progress("settings read")  # each step gives systemd a minute more: an emulated CPU starts slowly
    uplink = Uplink(settings, args.state, args.venue_dir or args.state / "venue")
    progress("the outbox open")
    say(f"cabinet {settings.cabinet!r}, boot {uplink.outbox.boot}, {len(uplink.outbox)} message(s) in the outbox")
    stop = _stop_on_signals()
    try:
        while not stop():
            uplink.step()
    finally:
        uplink.close()
    return 0


def _stop_on_signals() -> Callable[[], bool]:
    import signal

    stopped: list[int] = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda number, frame: stopped.append(number))
    if os.environ.get("NOTIFY_SOCKET"):
        from appliance.watchdog import ready

        ready("linking the cabinet to its venue")
    return lambda: bool(stopped)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
