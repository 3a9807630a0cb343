"""`spit-arcade bench venue`: many cabinets against one real Mosquitto, through restarts and link cuts.

    spit-arcade bench venue --json                          # 200 cabinets, 10 restarts, 10 link cuts
    spit-arcade bench venue --cabinets 20 --restarts 2 --cuts 2

A venue is made (`venue init`: a CA, a certificate per cabinet) and its broker started. The cabinets
are real uplinks (appliance/venue/uplink.py, each with its own SQLite outbox and board file), run
`--cabinets / --workers` to a worker process. Each puts an `audits` message every `--period` s
while the broker is restarted `--restarts` times and the link cut `--cuts` times; a few of them set
a score now and then (a `board` message stamped with the time it was set). After the storms, once
every cabinet is connected again and has sent what waited, they go on for CALM_S seconds, then wait
until every outbox is empty. (A simulated cabinet shares its worker's one thread, whose connects
block: many cabinets to a worker slow each other's reconnects, which a real cabinet never sees.) An observer (the
operator's view's own `Venue`, with a persistent session) records every message it takes.

Link cuts, where this runs as root with `ip` (iproute2): the broker runs in a network namespace of
its own and half the workers in another, joined by a veth pair with link-local addresses on it
(namespaces `spv-b-PID` and `spv-c-PID`, made here and removed at the end); a cut takes that veth
link down for `--cut-s` seconds (longer than one and a half keep-alives, so both ends notice). Where
namespaces cannot be made, everything runs on loopback and `link_cuts` is 0, with the reason.

Figures: `messages` put into the outboxes, `lost` (put, never seen by the observer), `duplicated`
(seen twice after the observer dropped what it had by (boot, seq); `resent_dropped`: what it
dropped), `board_p99_s` (a score set on one cabinet to its arrival on another's board, over every
pair, in the calm `CALM_S` after the storms; `board_p99_storm_s`: set during them), the broker's
CPU seconds and peak memory, and one uplink's (a worker with one cabinet).
The simulated cabinets keep their outboxes and boards on /dev/shm (each real cabinet syncs its
own card; here they would all wait on one disk).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .figures import print_figures

ADDRESSES = ("169.254.77.1", "169.254.77.2")  # the broker's end and the cabinets' end of the veth pair
DRAIN_BOUND_S = 300.0
CALM_S = 20.0  # after the storms: the cabinets go on for this long with nothing cut or restarted


def _proc_figures(pid: int) -> tuple[float, float]:
    """A process's CPU seconds (user + system) and peak resident memory (MiB), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        peak = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                    if line.startswith("VmHWM:"))
        return cpu, peak / 1024
    except (OSError, ValueError, IndexError, StopIteration):
        return 0.0, 0.0


class Namespaces:
    """Two namespaces joined by a veth pair; `cut` and `mend` take the cabinets' link down and up."""

    def __init__(self) -> None:
        tag = str(os.getpid())
        self.broker, self.cabinets = f"spv-b-{tag}", f"spv-c-{tag}"
        self.veth_b, self.veth_c = f"spvb{tag}"[:15], f"spvc{tag}"[:15]
        self.made: list[str] = []

    def run(self, *words: str) -> None:
        subprocess.run(["ip", *words], check=True, capture_output=True, text=True)

    def make(self) -> None:
        for name in (self.broker, self.cabinets):
            self.run("netns", "add", name)
            self.made.append(name)
            self.run("-n", name, "link", "set", "lo", "up")
        self.run("link", "add", self.veth_b, "netns", self.broker, "type", "veth", "peer", "name", self.veth_c,
                 "netns", self.cabinets)
        self.run("-n", self.broker, "addr", "add", f"{ADDRESSES[0]}/30", "dev", self.veth_b)
        self.run("-n", self.cabinets, "addr", "add", f"{ADDRESSES[1]}/30", "dev", self.veth_c)
        self.run("-n", self.broker, "link", "set", self.veth_b, "up")
        self.mend()

    def cut(self) -> None:
        self.run("-n", self.cabinets, "link", "set", self.veth_c, "down")

    def mend(self) -> None:
        self.run("-n", self.cabinets, "link", "set", self.veth_c, "up")

    def remove(self) -> None:
        for name in reversed(self.made):  # the veth pair goes with its namespaces
            with contextlib.suppress(subprocess.CalledProcessError):
                self.run("netns", "delete", name)
        self.made = []

    def exec(self, name: str | None) -> list[str]:
        return ["ip", "netns", "exec", name] if name else []


def namespaces_possible() -> str:
    """'' when namespaces can be made here, else why not."""
    if os.geteuid() != 0:
        return "not root: no network namespaces (link cuts need them)"
    if shutil.which("ip") is None:
        return "no `ip` (iproute2): no network namespaces"
    return ""


class Broker:
    def __init__(self, directory: Path, prefix: list[str]) -> None:
        self.directory, self.prefix = directory, prefix
        self.process: subprocess.Popen[bytes] | None = None
        self.cpu_s = 0.0
        self.peak_mb = 0.0

    def start(self, port: int) -> None:
        program = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        log = self.directory / "mosquitto.log"
        before = log.stat().st_size if log.exists() else 0
        self.process = subprocess.Popen([*self.prefix, program, "-c", str(self.directory / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), log.open("rb") as handle:
                handle.seek(before)
                if f"listen socket on port {port}".encode() in handle.read():
                    return
            if self.process.poll() is not None:
                break
            time.sleep(0.02)  # polling the broker's log, bounded by the deadline
        raise RuntimeError(f"mosquitto did not start: see {log}")

    def stop(self) -> None:
        if self.process is None:
            return
        cpu, peak = _proc_figures(self.process.pid)
        self.cpu_s += cpu
        self.peak_mb = max(self.peak_mb, peak)
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


def _worker_command(spec: Path, namespace: str | None) -> list[str]:
    prefix = ["ip", "netns", "exec", namespace] if namespace else []
    return [*prefix, sys.executable, "-m", "lab.benchmarks.venue", "--worker", str(spec)]


def run(cabinets: int, workers: int, restarts: int, cuts: int, period_s: float, cut_s: float,
        keepalive: int) -> dict[str, Any]:
    # The simulated cabinets' outboxes and boards on tmpfs where there is one: each real cabinet
    # syncs its own card; here hundreds would queue on one disk's syncs and measure only that.
    shm = Path("/dev/shm")
    work = Path(tempfile.mkdtemp(prefix="spit-bench-venue-", dir=shm if shm.is_dir() else None))
    why_not = namespaces_possible()
    nets = Namespaces() if not why_not else None
    host = ADDRESSES[0] if nets else "127.0.0.1"
    from appliance.venue import init as venue_init
    from appliance.venue.messages import check_name

    names = [check_name(f"cab-{n:04d}") for n in range(cabinets)]
    port = 8883 if nets else _free_port()
    venue_init.init(work / "venue", names, [host], port, bind=host, log=f"file {work / 'venue' / 'mosquitto.log'}",
                    user="root" if os.geteuid() == 0 else os.environ.get("USER", "nobody"))
    processes: list[subprocess.Popen[bytes]] = []
    broker: Broker | None = None
    try:
        if nets:
            nets.make()
        broker = Broker(work / "venue", nets.exec(nets.broker) if nets else [])
        broker.start(port)
        # the observer first, subscribed before any cabinet sends
        observer_spec = {"host": host, "port": port, "venue": str(work / "venue"), "finish": str(work / "finish"),
                         "seen": str(work / "seen.json"), "result": str(work / "observer.json"),
                         "keepalive": keepalive}
        (work / "observer-spec.json").write_text(json.dumps(observer_spec))
        processes.append(subprocess.Popen([*(nets.exec(nets.broker) if nets else []), sys.executable, "-m",
                                           "lab.benchmarks.venue", "--observer",
                                           str(work / "observer-spec.json")]))
        deadline = time.monotonic() + 30
        while not (work / "seen.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)  # the observer says when it has subscribed
        # the workers: cabinets split among them; with namespaces, every other worker behind the cut
        # link; one more worker runs a single cabinet, for one uplink's own CPU and memory
        groups = [names[w::workers] for w in range(workers)]
        setters = set(names[:: max(1, cabinets // 10)])  # about ten cabinets set scores
        specs: list[dict[str, Any]] = []
        for w, group in enumerate([*groups, []]):
            single = w == len(groups)
            if single:
                group = [check_name("cab-alone")]
                venue_init.init(work / "venue", group, [host], port, bind=host,
                                log=f"file {work / 'venue' / 'mosquitto.log'}",
                                user="root" if os.geteuid() == 0 else os.environ.get("USER", "nobody"))
            behind_cut = bool(nets) and w % 2 == 0 and not single
            spec: dict[str, Any] = {"host": host, "port": port, "venue": str(work / "venue"), "cabinets": group,
                    "state": str(work / f"worker-{w}"), "calm": str(work / "calm"), "calm_s": CALM_S,
                    "period_s": period_s, "settled": str(work / f"settled-{w}"),
                    "all_settled": [str(work / f"settled-{n}") for n in range(len(groups) + 1)],
                    "setters": sorted(setters & set(group)), "finish": str(work / "finish"),
                    "drained": str(work / f"drained-{w}.json"), "result": str(work / f"result-{w}.json"),
                    "keepalive": keepalive, "seed": w}
            path = work / f"spec-{w}.json"
            path.write_text(json.dumps(spec))
            specs.append(spec)
            namespace = (nets.cabinets if behind_cut else nets.broker) if nets else None
            with (work / f"worker-{w}.log").open("wb") as log:  # the uplinks' own lines, kept apart
                processes.append(subprocess.Popen(_worker_command(path, namespace), stdout=log,
                                                  stderr=subprocess.STDOUT))
        # the storms: restarts and cuts, interleaved
        done_restarts = done_cuts = 0
        rng = random.Random(7)
        events = ["restart"] * restarts + (["cut"] * cuts if nets else [])
        rng.shuffle(events)
        time.sleep(3.0)  # the cabinets connect and start sending (the bench's own pace, not a test)
        for event in events:
            if event == "restart":
                broker.stop()
                time.sleep(1.0)
                broker.start(port)
                done_restarts += 1
                time.sleep(2.0)
            elif nets:
                nets.cut()
                time.sleep(cut_s)
                nets.mend()
                done_cuts += 1
                time.sleep(3.0)
        (work / "calm").write_text("")  # the storms are over: the cabinets go on for CALM_S, then drain
        # drained: every worker's outboxes empty; then the observer has everything, or the bound
        deadline = time.monotonic() + DRAIN_BOUND_S
        while time.monotonic() < deadline and not all(Path(s["drained"]).exists() for s in specs):
            time.sleep(0.2)
        put: dict[str, list[str]] = {}
        for spec in specs:
            with contextlib.suppress(OSError, ValueError):
                put.update(json.loads(Path(spec["drained"]).read_text())["put"])
        total = sum(len(ids) for ids in put.values())
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError):
                if json.loads((work / "seen.json").read_text())["fresh"] >= total:
                    break
            time.sleep(0.2)
        (work / "finish").write_text("")
        for process in processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        broker.stop()
        seen = json.loads((work / "observer.json").read_text())
        results = [json.loads(Path(s["result"]).read_text()) for s in specs if Path(s["result"]).exists()]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        if broker is not None:
            broker.stop()
        if nets:
            nets.remove()
    fresh: dict[str, list[str]] = seen["fresh"]
    lost = sum(len(set(ids) - set(fresh.get(cabinet, []))) for cabinet, ids in put.items())
    duplicated = sum(len(ids) - len(set(ids)) for ids in fresh.values())
    def order(message_id: str) -> tuple[int, int]:
        boot, seq = message_id.rsplit(":", 2)[1:]
        return int(boot), int(seq)

    out_of_order = sum(1 for ids in fresh.values() for a, b in itertools.pairwise(ids) if order(b) < order(a))
    latencies = sorted(x for r in results for x in r["calm_s"])
    stormy = sorted(x for r in results for x in r["storm_s"])
    alone: dict[str, Any] = next((r for r in results if r["cabinets"] == ["cab-alone"]), {})
    figures: dict[str, Any] = {
        "cabinets": cabinets + 1, "messages": total, "lost": lost, "duplicated": duplicated,
        "out_of_order": out_of_order, "resent_dropped": seen["duplicates"],
        "broker_restarts": done_restarts, "link_cuts": done_cuts,
        "board_deliveries": len(latencies), "board_p50_s": _quantile(latencies, 0.5),
        "board_p99_s": _quantile(latencies, 0.99),
        "board_deliveries_storm": len(stormy), "board_p50_storm_s": _quantile(stormy, 0.5),
        "board_p99_storm_s": _quantile(stormy, 0.99),
        "broker_cpu_s": round(broker.cpu_s, 1) if broker else None,
        "broker_peak_mb": round(broker.peak_mb, 1) if broker else None,
        "uplink_cpu_s": alone.get("cpu_s"), "uplink_peak_mb": alone.get("peak_mb"),
        "workers_cpu_s": round(sum(r["cpu_s"] for r in results), 1),
        "refused": seen["refused"], "link_cuts_why_not": why_not or None,
    }
    if os.environ.get("SPIT_BENCH_KEEP"):
        (work / "put.json").write_text(json.dumps(put))
        print(f"kept: {work}", file=sys.stderr)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return figures


def _quantile(values: list[float], q: float) -> float | None:
    return round(values[min(len(values) - 1, int(len(values) * q))], 3) if values else None


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def worker(spec: dict[str, Any]) -> None:
    """Run this worker's cabinets: an audits message each `period_s` while emitting, a score now
    and then on the setters; then until every outbox is empty (drained) and the bench says finish."""
    from appliance.venue.messages import Message
    from appliance.venue.uplink import Uplink, VenueSettings

    venue = Path(spec["venue"])
    rng = random.Random(spec["seed"])
    uplinks: list[Uplink] = []
    put: dict[str, list[str]] = {}
    calm_s: list[float] = []  # a score's way to another cabinet's board: with nothing cut or restarted
    storm_s: list[float] = []  # while the broker restarts and links are cut

    firsts: set[tuple[str, str]] = set()

    def received(message: Message, name: str) -> None:
        set_at = message.body.get("set_at")
        if message.cabinet != name and isinstance(set_at, float) and (name, message.id) not in firsts:
            firsts.add((name, message.id))  # its first arrival (a retained board comes again on a new subscription)
            (calm_s if message.body.get("calm") else storm_s).append(time.time() - set_at)

    for name in spec["cabinets"]:
        cred = venue / "cabinets" / name
        settings = VenueSettings(spec["host"], spec["port"], name, cred / "ca.crt", cred / "cabinet.crt",
                                 cred / "cabinet.key")
        state = Path(spec["state"]) / name
        state.mkdir(parents=True, exist_ok=True)
        uplink = Uplink(settings, state, state / "venue", keepalive=spec["keepalive"])
        uplink.on_board = lambda m, name=name: received(m, name)
        original = uplink.outbox.put

        def recording(kind: str, body: dict[str, Any], retain: bool = False, original: Any = original,
                      name: str = name) -> Message:
            message = original(kind, body, retain)
            put.setdefault(name, []).append(message.id)
            return message

        uplink.outbox.put = recording  # type: ignore[method-assign]
        uplinks.append(uplink)
    start = time.monotonic()
    next_put = {u.settings.cabinet: start + rng.uniform(0, spec["period_s"]) for u in uplinks}
    count = 0
    # Calm: the storms are over, and every worker's cabinets are connected again with what waited
    # sent (each worker says so in its own file); only then does a score count as set in calm.
    calm_file, settled, calm_since = Path(spec["calm"]), Path(spec["settled"]), 0.0
    # A worker with one cabinet runs it as `spit-arcade uplink` does (paho's loop waits up to 0.1 s
    # on the socket): its CPU and memory are one uplink's. Many cabinets share a polled round.
    alone = len(uplinks) == 1
    wait = 0.1 if alone else 0.0
    while not calm_since or time.monotonic() - calm_since < spec["calm_s"]:
        now = time.monotonic()
        if not settled.exists() and calm_file.exists() and all(u.connected and not len(u.outbox) for u in uplinks):
            settled.write_text("")
        if not calm_since and all(Path(p).exists() for p in spec["all_settled"]):
            calm_since = now
        for uplink in uplinks:
            name = uplink.settings.cabinet
            if now >= next_put[name]:
                next_put[name] = now + spec["period_s"]
                count += 1
                uplink.outbox.put("audits", {"day": "bench", "today": {"coins": count}})
                if name in spec["setters"] and rng.random() < 0.2:
                    entry = {"initials": "BEN", "sprint_ms": round(rng.uniform(3000, 9000), 1)}
                    uplink.outbox.put("board", {"fastest_sprints": [entry], "set_at": time.time(),
                                                "calm": bool(calm_since)}, retain=True)
            uplink.step(wait)
        if not alone:
            time.sleep(0.002)  # the worker's pace between rounds
    for uplink in uplinks:
        uplink.next_read = float("inf")  # nothing more put in: what was put is the whole of it
    drained = Path(spec["drained"])
    while not Path(spec["finish"]).exists():
        for uplink in uplinks:
            uplink.step(wait)
        if not drained.exists() and all(len(u.outbox) == 0 and not u.in_flight for u in uplinks):
            drained.write_text(json.dumps({"put": put}))
        if not alone:
            time.sleep(0.005)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    for uplink in uplinks:
        uplink.close()
    Path(spec["result"]).write_text(json.dumps({
        "cabinets": spec["cabinets"], "calm_s": calm_s, "storm_s": storm_s,
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_mb": round(usage.ru_maxrss / 1024, 1)}))


def observer(spec: dict[str, Any]) -> None:
    """The operator's view's `Venue`, recording what it took, until the bench says finish."""
    import paho.mqtt.client as mqtt

    from appliance.venue.uplink import session_properties, tls_context
    from appliance.venue.view import Venue

    venue = Venue()
    fresh: dict[str, list[str]] = {}
    cred = Path(spec["venue"]) / "view"
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-observer", protocol=mqtt.MQTTv5)
    client.tls_set_context(tls_context(cred / "ca.crt", cred / "cabinet.crt", cred / "cabinet.key"))

    raw: list[str] = []

    def on_message(c: Any, userdata: Any, message: Any) -> None:
        with contextlib.suppress(ValueError, AttributeError):
            raw.append(json.loads(message.payload)["id"] + (" dup" if message.dup else ""))
        got = venue.receive(message.topic, message.payload)
        if got is not None:
            fresh.setdefault(got.cabinet, []).append(got.id)

    seen = Path(spec["seen"])

    def on_connect(c: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if not getattr(flags, "session_present", False):  # a kept session keeps its subscription
            c.subscribe("spit/venue/#", qos=1)
        elif not seen.exists():
            seen.write_text(json.dumps({"fresh": 0}))

    client.on_connect = on_connect

    def on_subscribe(c: Any, userdata: Any, mid: int, codes: Any, properties: Any) -> None:
        seen.write_text(json.dumps({"fresh": 0}))  # subscribed: the bench may start the cabinets

    client.on_subscribe = on_subscribe
    client.on_message = on_message
    client.connect_async(spec["host"], spec["port"], keepalive=spec["keepalive"], clean_start=False,
                         properties=session_properties())
    client.loop_start()
    while not Path(spec["finish"]).exists():
        total = sum(len(ids) for ids in list(fresh.values()))
        if seen.exists():
            seen.write_text(json.dumps({"fresh": total}))
        time.sleep(0.2)  # the observer's report interval
    client.loop_stop()
    Path(spec["result"]).write_text(json.dumps({"fresh": fresh, "duplicates": venue.duplicates,
                                                "refused": venue.refused, "raw": raw}))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade bench venue", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cabinets", type=int, default=200)
    parser.add_argument("--workers", type=int, default=10, help="processes the cabinets are shared among")
    parser.add_argument("--restarts", type=int, default=10)
    parser.add_argument("--cuts", type=int, default=10)
    parser.add_argument("--period", type=float, default=2.0, help="seconds between a cabinet's messages")
    parser.add_argument("--cut-s", type=float, default=10.0, help="how long each link cut lasts")
    parser.add_argument("--keepalive", type=int, default=5, help="the uplinks' MQTT keep-alive (s)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--observer", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(json.loads(args.worker.read_text()))
        return 0
    if args.observer:
        observer(json.loads(args.observer.read_text()))
        return 0
    if not (shutil.which("mosquitto") or Path("/usr/sbin/mosquitto").exists()):
        print("spit-arcade bench venue: needs mosquitto (apt-get install mosquitto)", file=sys.stderr)
        return 2
    figures = run(args.cabinets, max(1, min(args.workers, args.cabinets)), args.restarts, args.cuts, args.period,
                  args.cut_s, args.keepalive)
    print_figures(figures, args.json)
    return 0 if figures["lost"] == 0 and figures["duplicated"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
