"""Pairing two linked cabinets through the venue's broker (docs/venue.md), then the link by address.

A cabinet that listens for a linked game (`play --link-listen PORT` with a venue) *offers* it on its
own topic, retained: `spit/venue/<cabinet>/linked` = `{"v": 1, "cabinet": ..., "offer": <its hello's
offer>, "host": <its address on the venue's network>, "port": ...}`. A cabinet that wants one
(`play --link venue`, or `--link venue:<cabinet>` for that one) reads every cabinet's offer
(`spit/venue/+/linked`: the venue's ACL lets each cabinet read them, and write only its own), takes
the first whose offer fits its own (`peer.check_offer`: the version, the variant and its options,
the table, the seats free), says so on its own topic (`{"v": 1, "cabinet": ..., "accepts": <the
other>}`, not retained), and calls the address given: from there it is the link of peer.py, the hello
checking everything again. The offering cabinet takes its offer down (an empty retained message)
once paired, or when it closes. An offer whose `cabinet` is not its topic's is refused (a cabinet
can write only its own topics, but its body could still name another).

The MQTT client is the cabinet's own credential (the uplink's, venue.toml), under the client id
`<cabinet>-linked` (the uplink keeps `<cabinet>`: Mosquitto would close one of two with one id).

A find can be called off (`cancel`, finding.py's Cancel: the players left the wait): its waits for
the broker's answer and for an offer are woken at once and end in `Cancelled`, and nothing is
accepted or called after that.
"""

from __future__ import annotations

import contextlib
import json
import ssl
import threading
import time
from pathlib import Path
from typing import Any

from appliance.venue.uplink import VenueSettings, mqtt_client, tls_context

from .finding import Cancel, Cancelled
from .peer import check_offer

VERSION = 1
CONNECT_S = 15.0


def topic(cabinet: str) -> str:
    return f"spit/venue/{cabinet}/linked"


def parse_offer(topic_name: str, payload: bytes) -> dict[str, Any] | None:
    """An offer read off `topic_name`; None if it is not one (taken down, an acceptance, malformed,
    or naming another cabinet than its topic's)."""
    parts = topic_name.split("/")
    if len(parts) != 4 or parts[:2] != ["spit", "venue"] or parts[3] != "linked" or not payload:
        return None
    try:
        body = json.loads(payload)
    except ValueError:
        return None
    if (not isinstance(body, dict) or body.get("v") != VERSION or body.get("cabinet") != parts[2]
            or not isinstance(body.get("offer"), dict) or not isinstance(body.get("host"), str)
            or isinstance(body.get("port"), bool) or not isinstance(body.get("port"), int)
            or not 0 < body["port"] < 65536):
        return None
    return body


class VenueLink:
    """The cabinet's client of the venue's broker for pairing (its own paho thread)."""

    def __init__(self, settings: VenueSettings) -> None:
        self.settings = settings
        self.client = mqtt_client(f"{settings.cabinet}-linked", tls_context(settings.ca, settings.cert, settings.key))
        self._lock = threading.Condition()
        self._offers: dict[str, dict[str, Any]] = {}  # cabinet -> its offer, as retained now
        self._acks: dict[int, str] = {}  # message id -> the broker's PUBACK reason
        self._connected: str | None = None
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        self.client.on_disconnect = self._on_disconnect
        self.offered = False

    # ------------------------------------------------------------------ paho's thread

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        with self._lock:
            self._connected = "refused: " + str(reason) if reason.is_failure else "connected"
            self._lock.notify_all()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        with self._lock:
            if self._connected == "connected":  # (a find under way says so at once: venue.find)
                self._connected = f"went away ({reason})"
            self._lock.notify_all()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        cabinet = message.topic.split("/")[2] if message.topic.count("/") == 3 else ""
        body = parse_offer(message.topic, message.payload)
        with self._lock:
            if body is None:
                self._offers.pop(cabinet, None)  # taken down (or not an offer)
            else:
                self._offers[cabinet] = body
            self._lock.notify_all()

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        with self._lock:
            self._acks[mid] = str(reason) if reason.is_failure else "Success"  # ("No matching subscribers" too)
            self._lock.notify_all()

    # ------------------------------------------------------------------ the game's side

    def wake(self) -> None:
        """Wake whatever waits on the broker here (a find called off: it then sees its Cancel)."""
        with self._lock:
            self._lock.notify_all()

    def connect(self, timeout: float = CONNECT_S, cancel: Cancel | None = None) -> None:
        """OSError saying why if the broker cannot be reached or refuses this cabinet (Cancelled: called off)."""
        try:
            self.client.connect(self.settings.broker, self.settings.port, keepalive=30)
        except (OSError, ssl.SSLError) as error:
            raise OSError(f"the venue's broker at {self.settings.broker}:{self.settings.port}: {error}") from None
        self.client.loop_start()
        called_off = cancel.is_set if cancel is not None else lambda: False
        with self._lock:
            self._lock.wait_for(lambda: self._connected is not None or called_off(), timeout)
            if called_off():
                raise Cancelled
            if self._connected != "connected":
                raise OSError(f"the venue's broker {self._connected or 'did not answer'}")

    def address(self) -> str:
        """This cabinet's address on the venue's network: the one its connection to the broker has."""
        sock = self.client.socket()
        return str(sock.getsockname()[0]) if sock is not None else "127.0.0.1"

    def _publish(self, topic_name: str, body: bytes, retain: bool, timeout: float) -> str:
        info = self.client.publish(topic_name, body, qos=1, retain=retain)
        with self._lock:
            self._lock.wait_for(lambda: info.mid in self._acks, timeout)
            return self._acks.pop(info.mid, "no answer")

    def offer(self, my_offer: dict[str, Any], port: int, host: str | None = None, timeout: float = CONNECT_S) -> None:
        """Offer this cabinet's linked game, retained on its topic. OSError if the broker refuses it."""
        body = {"v": VERSION, "cabinet": self.settings.cabinet, "offer": my_offer, "host": host or self.address(),
                "port": port}
        reason = self._publish(topic(self.settings.cabinet), json.dumps(body).encode(), True, timeout)
        if reason != "Success":
            raise OSError(f"the venue's broker did not take the offer: {reason}")
        self.offered = True

    def withdraw(self, timeout: float = 5.0) -> None:
        """Take the offer down (paired, or leaving)."""
        if self.offered:
            self.offered = False
            with contextlib.suppress(OSError, ValueError):
                self._publish(topic(self.settings.cabinet), b"", True, timeout)

    def find(self, my_offer: dict[str, Any], cabinet: str | None = None,
             timeout: float = 30.0, cancel: Cancel | None = None) -> tuple[str, str, int]:
        """The first offer that fits `my_offer` (or `cabinet`'s, if named): (its cabinet, host, port),
        after saying on this cabinet's topic that it is taken. TimeoutError saying what was seen;
        Cancelled as soon as `cancel` is set (then nothing is accepted)."""
        self.client.subscribe(topic("+"), qos=1)
        deadline = time.monotonic() + timeout
        seen: dict[str, str] = {}
        with self._lock:
            while True:
                if cancel is not None and cancel.is_set():
                    raise Cancelled
                if self._connected not in (None, "connected"):  # the broker gone: said now, not at 30 s
                    raise OSError(f"the venue's broker at {self.settings.broker}:{self.settings.port} "
                                  f"{self._connected} while a linked game was looked for")
                for name, body in sorted(self._offers.items()):
                    if name == self.settings.cabinet or (cabinet is not None and name != cabinet):
                        continue
                    why = check_offer(my_offer, body["offer"])
                    if why is None:
                        found = (name, str(body["host"]), int(body["port"]))
                        break
                    seen[name] = why
                else:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        said = "; ".join(f"{name}: {why}" for name, why in sorted(seen.items()))
                        raise TimeoutError(f"no linked game offered that fits{': ' + said if said else ''}")
                    self._lock.wait(min(left, 0.5))
                    continue
                break
        if cancel is not None:
            cancel.check()
        accept = {"v": VERSION, "cabinet": self.settings.cabinet, "accepts": found[0]}
        with contextlib.suppress(OSError, ValueError):
            self._publish(topic(self.settings.cabinet), json.dumps(accept).encode(), False, 5.0)
        return found

    def close(self) -> None:
        self.withdraw()
        self.client.loop_stop()
        with contextlib.suppress(OSError, ValueError):
            self.client.disconnect()


def venue_settings(path: Path | None = None) -> VenueSettings | None:
    """This cabinet's venue (the uplink's venue.toml, or `path`), or None when there is none."""
    from appliance.venue.uplink import SETTINGS, load_settings

    try:
        return load_settings(path or SETTINGS)
    except (OSError, ValueError):
        return None


def offer_while_waiting(peer: Any, settings: VenueSettings) -> bool:
    """Offer a listening cabinet's game on the venue until it pairs (or closes), on a thread of its own.
    False (said on standard error) if the broker cannot be reached: the game waits by address alone."""
    import sys

    link = VenueLink(settings)
    try:
        link.connect()
        link.offer(peer.offer, peer.port)
    except OSError as error:
        print(f"spit-arcade: the linked game is not offered on the venue ({error})", file=sys.stderr)
        with contextlib.suppress(Exception):
            link.close()
        return False

    def withdraw_when_paired() -> None:
        peer.wait_for(lambda p: p.up or p.state.startswith(("refused", "closed")), 24 * 3600.0)
        link.close()

    threading.Thread(target=withdraw_when_paired, name="linked-venue-offer", daemon=True).start()
    return True


def find_on_venue(spec: str, my_offer: dict[str, Any], settings: VenueSettings | None,
                  timeout: float = 30.0, cancel: Cancel | None = None) -> tuple[str, int, str]:
    """`--link venue` or `--link venue:CABINET`: (host, port, the cabinet) of a fitting offer.
    OSError (TimeoutError among them) saying why not; Cancelled at once when `cancel` is set."""
    if settings is None:
        raise OSError("--link venue needs a venue (/etc/spit-arcade/venue/venue.toml; docs/venue.md)")
    _, _, name = spec.partition(":")
    if cancel is not None:
        cancel.check()
    link = VenueLink(settings)
    forget = cancel.when_set(link.wake) if cancel is not None else (lambda: None)
    try:
        link.connect(cancel=cancel)
        cabinet, host, port = link.find(my_offer, name or None, timeout, cancel)
    finally:
        forget()
        link.client.loop_stop()
        with contextlib.suppress(OSError, ValueError):
            link.client.disconnect()
    return host, port, cabinet
