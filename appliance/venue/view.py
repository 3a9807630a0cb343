"""`spit-arcade venue --broker HOST`: the operator's view of every cabinet, a web page, live.

Runs on the operator's laptop or the broker's host, never on a cabinet (it needs the view's
credential, `view/` from `spit-arcade venue init`, which reads every cabinet's topics). It
subscribes to `spit/venue/#` and keeps, per cabinet: last seen, version, uptime, faults, coins and
games today and this week (the cabinet's own days: its `audits` messages), its best sprint and
reaction, its last update or rollback (from its heartbeat). Served
with the standard library (http.server): `/` the page, `/state.json` the figures, `/events` the
same as Server-Sent Events, one event per change, so the page is live as messages arrive.

Duplicates (a message sent again after a lost PUBACK) are dropped by (boot, seq) per cabinet;
malformed, oversized and foreign messages are refused, said once a minute at most, and counted.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import queue
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from appliance.venue import messages

SILENT_S = 180.0  # a cabinet not heard for this long is shown as away (three heartbeats)


@dataclass
class Cabinet:
    name: str
    last_seen: float = 0.0
    version: str = ""
    uptime_s: float = 0.0
    faults: list[str] = field(default_factory=list)
    days: dict[str, dict[str, Any]] = field(default_factory=dict)  # the cabinet's day -> that day's counts
    lifetime: dict[str, Any] = field(default_factory=dict)
    best_sprint: dict[str, Any] | None = None
    best_reaction: dict[str, Any] | None = None
    last_update: dict[str, Any] | None = None  # {"kind": "update" | "rollback", "from", "to", ...}
    clock_off_s: float = 0.0  # its clock against ours, from its last message
    messages: int = 0
    clash: bool = False  # messages of two boots interleave: two cabinets with one name

    def summary(self, now: float, today: str) -> dict[str, Any]:
        week = [(dt.date.fromisoformat(today) - dt.timedelta(days=n)).isoformat() for n in range(7)]
        return {
            "name": self.name, "last_seen": self.last_seen, "away": now - self.last_seen > SILENT_S,
            "version": self.version, "uptime_s": self.uptime_s,
            "faults": self.faults + (["two cabinets send as " + self.name] if self.clash else []),
            "coins_today": self.days.get(today, {}).get("coins", 0),
            "coins_week": sum(self.days.get(d, {}).get("coins", 0) for d in week),
            "games_today": self.days.get(today, {}).get("games", 0),
            "games_week": sum(self.days.get(d, {}).get("games", 0) for d in week),
            "games_lifetime": self.lifetime.get("games", 0), "coins_lifetime": self.lifetime.get("coins", 0),
            "best_sprint": self.best_sprint, "best_reaction": self.best_reaction,
            "last_update": self.last_update, "clock_off_s": round(self.clock_off_s), "messages": self.messages,
        }


def _update(body: dict[str, Any]) -> dict[str, Any] | None:
    """A heartbeat's `last_update`, kept as text and a time (the page shows it as it is)."""
    kind = body.get("kind")
    if kind not in ("update", "rollback"):
        return None
    out: dict[str, Any] = {"kind": kind}
    for key in ("from", "to", "outcome", "detail", "reason"):
        if isinstance(body.get(key), str):
            out[key] = body[key][:200]
    wall = body.get("wall")
    out["wall"] = float(wall) if isinstance(wall, int | float) and not isinstance(wall, bool) else 0.0
    return out


class Venue:
    """What the view knows: fed decoded messages, in any order the broker gives them."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.cabinets: dict[str, Cabinet] = {}
        self.seen = messages.Seen()
        self.refused: dict[str, int] = {}
        self.duplicates = 0
        self.lock = threading.Lock()
        self.changes = 0
        self._said = 0.0

    def receive(self, topic: str, payload: bytes) -> messages.Message | None:
        """Take one message off the broker; the message, or None (refused, or had already)."""
        with self.lock:
            try:
                message = messages.decode(topic, payload)
            except messages.Refused as refused:
                self.refused[refused.reason] = self.refused.get(refused.reason, 0) + 1
                if self.clock() - self._said > 60:
                    self._said = self.clock()
                    print(f"spit-arcade venue: refused a message ({refused})", flush=True)
                return None
            last = self.seen.last.get(message.cabinet)
            if not self.seen.fresh(message):
                self.duplicates += 1
                if last is not None and message.boot < last[0]:  # an older boot, live: another sender
                    self.cabinets[message.cabinet].clash = True
                return None
            self._apply(message)
            self.changes += 1
            return message

    def _apply(self, message: messages.Message) -> None:
        cabinet = self.cabinets.setdefault(message.cabinet, Cabinet(message.cabinet))
        now = self.clock()
        cabinet.last_seen = now
        cabinet.messages += 1
        body = message.body
        try:
            sent = dt.datetime.strptime(message.sent, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC).timestamp()
            cabinet.clock_off_s = sent - now
        except ValueError:
            pass
        if message.kind == "health":
            cabinet.version = str(body.get("version", ""))
            uptime = body.get("uptime_s")
            cabinet.uptime_s = float(uptime) if isinstance(uptime, int | float) else 0.0
            faults = body.get("faults")
            cabinet.faults = [str(f) for f in faults] if isinstance(faults, list) else []
            update = body.get("last_update")
            cabinet.last_update = _update(update) if isinstance(update, dict) else None
        elif message.kind == "audits":
            day, counts, lifetime = body.get("day"), body.get("today"), body.get("lifetime")
            if isinstance(day, str) and isinstance(counts, dict):
                cabinet.days[day] = counts
            if isinstance(lifetime, dict):
                cabinet.lifetime = lifetime
        elif message.kind == "board":
            rows = body.get("fastest_sprints")
            cabinet.best_sprint = rows[0] if isinstance(rows, list) and rows and isinstance(rows[0], dict) else None
            rows = body.get("fastest_reactions")
            cabinet.best_reaction = rows[0] if isinstance(rows, list) and rows and isinstance(rows[0], dict) else None

    def state(self) -> dict[str, Any]:
        with self.lock:
            now = self.clock()
            today = time.strftime("%Y-%m-%d", time.localtime(now))
            return {"cabinets": [c.summary(now, today) for _, c in sorted(self.cabinets.items())],
                    "refused": dict(self.refused), "duplicates": self.duplicates, "changes": self.changes,
                    "today": today}


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Spit Arcade: the venue</title>
<style>
body { font: 16px system-ui, sans-serif; margin: 1.5em; background: #111; color: #eee; }
table { border-collapse: collapse; } th, td { padding: .3em .8em; border-bottom: 1px solid #444; text-align: left; }
td.n { text-align: right; } .away { color: #f66; } .fault { color: #fc6; } #status { color: #8c8; }
</style></head><body>
<h1>The venue</h1>
<p id="status">connecting…</p>
<table><thead><tr><th>cabinet</th><th>coins today</th><th>coins this week</th><th>games today</th>
<th>games this week</th><th>faults</th><th>last seen</th><th>version</th><th>last update</th></tr></thead>
<tbody id="cabinets"></tbody></table>
<p id="refused"></p>
<script>
function ago(t) {
  const s = Math.max(0, Math.round(Date.now() / 1000 - t));
  return s < 120 ? s + " s ago" : Math.round(s / 60) + " min ago";
}
function cell(row, text, cls) {
  const td = document.createElement("td"); td.textContent = text; if (cls) td.className = cls; row.appendChild(td);
}
function update(u) {
  if (!u) return "none";
  const when = u.wall ? ", " + new Date(u.wall * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC" : "";
  const why = u.kind === "rollback" ? (u.reason ? ": " + u.reason : "") : (u.outcome ? " (" + u.outcome + ")" : "");
  return u.kind + " " + (u.from || "?") + " \u2192 " + (u.to || "?") + why + when;
}
function show(state) {
  const body = document.getElementById("cabinets"); body.textContent = "";
  for (const c of state.cabinets) {
    const row = document.createElement("tr"); row.id = "cabinet-" + c.name; if (c.away) row.className = "away";
    cell(row, c.name); cell(row, c.coins_today, "n"); cell(row, c.coins_week, "n");
    cell(row, c.games_today, "n"); cell(row, c.games_week, "n");
    cell(row, c.faults.length ? c.faults.join("; ") : "none", c.faults.length ? "fault" : "");
    cell(row, (c.away ? "away, " : "") + ago(c.last_seen)); cell(row, c.version);
    cell(row, update(c.last_update), c.last_update && c.last_update.kind === "rollback" ? "fault" : "");
    body.appendChild(row);
  }
  const refused = Object.entries(state.refused).map(([k, n]) => n + " " + k).join(", ");
  document.getElementById("refused").textContent = refused ? "refused: " + refused : "";
  document.getElementById("status").textContent = state.cabinets.length + " cabinet(s), live";
}
const events = new EventSource("/events");
events.onmessage = (e) => show(JSON.parse(e.data));
events.onerror = () => { document.getElementById("status").textContent = "reconnecting…"; };
</script></body></html>
"""


class Feed:
    """Wakes every /events stream when the venue changed."""

    def __init__(self) -> None:
        self.listeners: list[queue.Queue[int]] = []
        self.lock = threading.Lock()

    def listen(self) -> queue.Queue[int]:
        q: queue.Queue[int] = queue.Queue()
        with self.lock:
            self.listeners.append(q)
        return q

    def leave(self, q: queue.Queue[int]) -> None:
        with self.lock:
            self.listeners.remove(q)

    def changed(self) -> None:
        with self.lock:
            for q in self.listeners:
                q.put(1)


def make_server(venue: Venue, feed: Feed, host: str, port: int) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet: one line per request is noise
            pass

        def _send(self, body: bytes, kind: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            if self.path == "/":
                self._send(PAGE.encode(), "text/html; charset=utf-8")
            elif self.path == "/state.json":
                self._send(json.dumps(venue.state()).encode(), "application/json")
            elif self.path == "/events":
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                wake = feed.listen()
                try:
                    while True:
                        self.wfile.write(f"data: {json.dumps(venue.state())}\n\n".encode())
                        self.wfile.flush()
                        with contextlib.suppress(queue.Empty):
                            wake.get(timeout=15)  # a change, or every 15 s ("last seen" moves on)
                        while not wake.empty():
                            wake.get_nowait()
                except (BrokenPipeError, ConnectionResetError):
                    pass
                finally:
                    feed.leave(wake)
            else:
                self.send_error(404)

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server


def watch(venue: Venue, feed: Feed, broker: str, port: int, credential: Path, client_id: str = "venue-view") -> Any:
    """Subscribe to every cabinet's topics with the view's credential; paho's own thread runs it."""
    import paho.mqtt.client as mqtt

    from appliance.venue.uplink import session_properties, tls_context

    # A persistent session, as the cabinets have: what they send while the view is away is kept for it.
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    client.tls_set_context(tls_context(credential / "ca.crt", credential / "cabinet.crt", credential / "cabinet.key"))

    def on_connect(c: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            print(f"spit-arcade venue: the broker refused the view: {reason}", flush=True)
            return
        if not getattr(flags, "session_present", False):  # a kept session keeps its subscription
            c.subscribe(f"{messages.ROOT}/#", qos=1)

    def on_message(c: Any, userdata: Any, message: Any) -> None:
        if venue.receive(message.topic, message.payload) is not None:
            feed.changed()

    client.on_connect = on_connect
    client.on_message = on_message
    client.connect_async(broker, port, keepalive=30, clean_start=False, properties=session_properties())
    client.loop_start()
    return client


def main(argv: list[str]) -> int:
    if argv[:1] == ["init"]:
        from appliance.venue.init import main as init_main

        return init_main(argv[1:])
    if argv[:1] == ["revoke"]:
        from appliance.venue.init import revoke_main

        return revoke_main(argv[1:])
    parser = argparse.ArgumentParser(
        prog="spit-arcade venue", description="The operator's view of a venue's cabinets, a live web page "
        "(`spit-arcade venue init DIR --cabinet NAME ...` makes the venue's certificates first).")
    parser.add_argument("--broker", required=True, help="the broker's host name (as in its certificate)")
    parser.add_argument("--port", type=int, default=8883)
    parser.add_argument("--credential", type=Path, required=True,
                        help="the view's credential directory (view/ from spit-arcade venue init)")
    parser.add_argument("--listen", default="127.0.0.1", help="the page's address (default 127.0.0.1)")
    parser.add_argument("--http-port", type=int, default=8080)
    args = parser.parse_args(argv)
    if Path("/etc/spit-arcade/inputs.toml").exists():
        print("spit-arcade venue: this is a cabinet; run the venue's view on the operator's laptop or the "
              "broker's host", flush=True)
        return 2
    venue, feed = Venue(), Feed()
    try:
        client = watch(venue, feed, args.broker, args.port, args.credential)
    except (OSError, ssl.SSLError) as error:
        print(f"spit-arcade venue: {error}", flush=True)
        return 2
    server = make_server(venue, feed, args.listen, args.http_port)
    print(f"spit-arcade venue: http://{args.listen}:{server.server_address[1]}/ (the broker: "
          f"{args.broker}:{args.port})", flush=True)
    try:
        server.serve_forever()
    finally:
        client.loop_stop()
    return 0
