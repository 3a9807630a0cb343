"""`spit-arcade bench linked`: two linked cabinets in network namespaces of their own, a bad network
between them, races from both sides with known touch times.

    spit-arcade bench linked --json                        # 1000 races at one-way 2, 20 and 50 ms
    spit-arcade bench linked --races 50 --delays 20 --json

Three namespaces, made here and removed at the end (`slk-a-PID`, `slk-r-PID`, `slk-b-PID`): the
leading cabinet in A, the other in B, and in R between them (a veth pair to each) the relay
(lab/linked_relay.py), which adds each run's one-way delay, a uniform 0..`--jitter-ms` on top (so
datagrams overtake each other: reordering) and `--loss` (this kernel has no netem). Each cabinet is a
process (`--cabinet leader|joiner`, run through `ip netns exec`) with a `LinkedTable`, a game
(`--variant`) and a scripted player at one seat, and each reads the machine's CLOCK_MONOTONIC,
which the namespaces share, plus an offset of its own (leader -1.234 s, joiner +2.345 s): the clock
sync has that to find, and the shared clock is the truth it is measured against.

The races: race i at T0 + i * `--spacing-ms` on the shared clock, one cabinet's touch there and the
other's a margin of 1 to `--margin-ms` later (which first alternates); 4 % more races than `--races`
are scheduled, and the first `--races` played are counted. A touch presses what the rules
offer that seat then (mostly), as a player would. When a game ends, the leader deals another; a race
whose touches fall in different games, or while a game starts, is not counted (`races` counts those
played). Figures per delay: `races_in_edge_order` (both presses applied, in the order they were
touched, on both cabinets: the journals agree), `clock_error_p99_ms` (the joiner's estimate of the
leader's clock against the truth, sampled every 50 ms while the game is played; `clock_bound_p99_ms`: the
bound it stated), `corrections_per_min` (races redrawn on a table, per table, per minute of play),
`rollback_depth_p99` (presses replayed after a late one), `journals_identical` (every game's two
journals, paired by the game's seed, replay to byte-identical final states, equal to the states the
live games ended in; a game only one table has, dealt as the bench ended, has no press).
`flood` (with `--flood-s`, in the last run): garbage datagrams at the rate one Python sender manages,
from R straight at the leader's port while it plays (a stranger: the kernel drops them, the link's
socket being connected), and the CPU the leader's process and its reader thread took;
`flood_from_the_peer`: garbage from the paired address itself, on loopback, at a listening link
(what the reader's budget of datagrams per window bounds), every other datagram a well-formed one of
the link's (a press, an acknowledgement, a ping, a goodbye) tagged without the pairing's secret, as
a stranger at that address would forge it (`forged_datagrams`: those its tag check dropped).
`press_to_own_screen` (`--screen-s` seconds each): bench render's press -> frame latency, p50 and
p99, in a game against the computer and in a linked game whose other cabinet is a process of its
own, over loopback (no relay: what a local press costs on its own screen does not wait for the
network; not a thread, whose interpreter lock no real other cabinet shares).

`--link-unit`: the joiner as on a cabinet image: its game in a network namespace of its own with no
network at all (`unshare --net`, what the game's unit's PrivateNetwork= gives it), its datagrams
carried by the link unit's relay (`spit-arcade link-relay`, appliance/linked/relay.py) running in B
over a Unix socket. The clock sync then measures through that hop; `hop_in_p50_us`/`hop_in_p99_us`:
from the relay taking a datagram off the network to the game's reader having it.

`--chrony`: chrony (Debian's package) on the same network beside the link's own sync, a chronyd
server in A and a client in B through a relay of its own with the run's delay, jitter and loss, both
with -x (the clock they share is never steered): `chrony_offset_p99_ms` and `chrony_bound_ms` in each
run, next to `clock_error_p99_ms` and `clock_bound_p99_ms` (lab/benchmarks/linked_chrony.py).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .figures import print_figures

ADDR_A, ADDR_RA, ADDR_RB, ADDR_B = "10.77.1.1", "10.77.1.2", "10.77.2.2", "10.77.2.1"
PORT, RELAY_PORT = 7000, 7001
OFFSETS_NS = {"leader": -1_234_000_000, "joiner": 2_345_000_000}
SPARE = 25  # one race in this many more is scheduled: a few fall between two games (the next deal's wait)
FRAME_S = 0.004  # the cabinets' loop: a touch is pressed at its own time whatever the frame
SETUP_S = 6.0  # from launch to the first race: hello, the clock sync, the first deal
REPO = Path(__file__).resolve().parents[2]


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Namespaces:
    def __init__(self) -> None:
        tag = str(os.getpid())
        self.a, self.r, self.b = f"slk-a-{tag}", f"slk-r-{tag}", f"slk-b-{tag}"
        self.made: list[str] = []

    @staticmethod
    def run(*words: str) -> None:
        subprocess.run(["ip", *words], check=True, capture_output=True, text=True)

    def make(self) -> None:
        tag = str(os.getpid())
        for name in (self.a, self.r, self.b):
            self.run("netns", "add", name)
            self.made.append(name)
            self.run("-n", name, "link", "set", "lo", "up")
        for end, mine, theirs, net in ((self.a, ADDR_A, ADDR_RA, "a"), (self.b, ADDR_B, ADDR_RB, "b")):
            outer, inner = f"slk{net}{tag}"[:15], f"slr{net}{tag}"[:15]
            self.run("link", "add", outer, "netns", end, "type", "veth", "peer", "name", inner, "netns", self.r)
            self.run("-n", end, "addr", "add", f"{mine}/24", "dev", outer)
            self.run("-n", self.r, "addr", "add", f"{theirs}/24", "dev", inner)
            self.run("-n", end, "link", "set", outer, "up")
            self.run("-n", self.r, "link", "set", inner, "up")
            self.run("-n", end, "route", "add", "default", "via", theirs)

    def remove(self) -> None:
        for name in reversed(self.made):
            with contextlib.suppress(subprocess.CalledProcessError):
                self.run("netns", "delete", name)
        self.made = []


def namespaces_possible() -> str:
    """'' when network namespaces can be made here, else why not."""
    if os.geteuid() != 0:
        return "not root: `ip netns` needs root"
    probe = f"slk-probe-{os.getpid()}"
    try:
        Namespaces.run("netns", "add", probe)
    except FileNotFoundError:
        return "no `ip` command (Debian's iproute2)"
    except subprocess.CalledProcessError as error:
        return f"`ip netns add` is not permitted here: {error.stderr.strip()}"
    with contextlib.suppress(subprocess.CalledProcessError):
        Namespaces.run("netns", "delete", probe)
    return ""


# ---------------------------------------------------------------------- one cabinet (a process)


def cabinet(role: str, touches: list[int], end_ns: int, seat: int, variant: str, workdir: Path,
            seed: int, flood_s: float, relay: str | None = None, t0_ns: int = 0) -> dict[str, Any]:
    """Run one cabinet until `end_ns` (shared clock) and everything after it is settled.

    With `t0_ns` (the first race's time as planned) the races wait for both tables: each says when
    it first plays (a file in `workdir`), and once both have, the touches and the end move on by as
    much as the later of the two, plus `GO_AFTER_NS`, is past `t0_ns` (both read the same two files,
    so both move alike). A loaded machine starts a cabinet slowly; its races are not lost to that."""
    from appliance.linked.game import LinkedTable
    from appliance.linked.peer import Peer, offer
    from appliance.match import Match
    from lab.linked_driver import ScriptedSeat

    shift = OFFSETS_NS[role]

    def clock() -> int:
        return time.monotonic_ns() + shift

    mine = offer(variant, {}, [seat], 2, role)
    if role == "leader":
        peer = Peer.listen(PORT, mine, host=ADDR_A, clock=clock)
    elif relay:  # a game with no network: through the link unit (relay.py)
        peer = Peer.through(relay, {"connect": [ADDR_RB, RELAY_PORT]}, mine, clock=clock)
    else:
        peer = Peer.connect(ADDR_RB, RELAY_PORT, mine, clock=clock)
    journals = workdir / role
    journals.mkdir(parents=True, exist_ok=True)
    table = LinkedTable(peer, [seat], variant, journal_dir=journals, start_delay_ns=500_000_000,
                        seed=lambda g: seed * 1000 + g)
    player = ScriptedSeat(table, seat, [] if t0_ns else [t + shift for t in touches], seed)
    moved_ns = 0  # how far the races moved on, waiting for both tables (the same on both)
    waiting = bool(t0_ns)
    true_offset = OFFSETS_NS["leader"] - OFFSETS_NS["joiner"]
    errors: list[float] = []
    bounds: list[float] = []
    pressed: list[dict[str, Any]] = []
    matches: list[Match] = []
    journal_paths: list[str] = []  # each game's, taken when its match is first seen (a finished one lets go of it)

    def seen(match: Match | None) -> None:
        if match is not None and (not matches or matches[-1] is not match):
            matches.append(match)
            path = getattr(match.journal, "path", None)
            if path is not None:
                journal_paths.append(str(path))
    next_sample = 0
    played_ns = 0
    last = time.monotonic_ns()
    cpu0 = time.process_time()
    flood_from = end_ns - int(flood_s * 1e9)
    cpu_flood0 = reader_flood0 = cpu_calm0 = None
    calm_cpu = 0.0
    while True:
        now_true = time.monotonic_ns()
        now = now_true + shift
        # The presses first, then the link's frame (its beat): as the screen's loop delivers the keys
        # before its update, so presses a stalled loop delivers late still keep their own times.
        before, moved = len(player.pressed), table.late_local
        player.due(now)
        for touch, control, t_us in player.pressed[before:]:
            pressed.append({"touch": touch - shift - moved_ns, "g": table.game_no, "t_us": t_us, "control": control,
                            "moved": table.late_local > moved})
        table.tick(now)
        seen(table.match)
        if table.leader and table.state == "over":
            table.start_game(now)
        if waiting and table.state == "playing":
            both = _both_playing(workdir, role, now_true, t0_ns)
            if both is not None:
                waiting, moved_ns = False, both
                player.touches.extend(sorted(t + shift + moved_ns for t in touches))
                end_ns += moved_ns
        if table.state == "playing":
            if not played_ns and hasattr(peer.sock, "hops_ns"):
                peer.sock.hops_ns.clear()  # the hop measured in play (not while the process starts)
            played_ns += now_true - last
        last = now_true
        if role == "joiner" and table.state == "playing" and now_true >= next_sample:
            next_sample = now_true + 50_000_000
            errors.append(abs(peer.sync.offset_ns - true_offset) / 1e6)
            bounds.append(peer.sync.error_bound_ns(now) / 1e6)
        if flood_s and cpu_calm0 is None and now_true >= flood_from - int(flood_s * 1e9):
            cpu_calm0 = time.process_time()
        if flood_s and cpu_flood0 is None and now_true >= flood_from:
            cpu_flood0, reader_flood0 = time.process_time(), peer.reader_cpu_ns
            calm_cpu = time.process_time() - (cpu_calm0 or cpu_flood0)
        # settled: every touch made, and the other cabinet's word past the end (all its presses are in)
        settled = (not waiting and not player.touches and now_true >= end_ns and peer.link.in_flight == 0
                   and (table.state == "over" or table.remote_w_us >= table.raw_us(end_ns + shift)))
        if settled or now_true > end_ns + 30_000_000_000 or table.state.startswith(("refused", "closed")):
            break
        peer.wait_for(lambda _: False, FRAME_S)  # a frame (the link's reader may wake it sooner)
    # keep answering for a moment so the other side's last resends are acknowledged
    linger = time.monotonic_ns() + 1_500_000_000
    while time.monotonic_ns() < linger:
        table.tick(time.monotonic_ns() + shift)
        seen(table.match)  # (a game the leader deals now is in both journals too)
        peer.wait_for(lambda _: False, 0.005)
    cpu = time.process_time() - cpu0
    result: dict[str, Any] = {
        "role": role, "state": table.state, "pressed": pressed, "refused_touches": player.refused,
        "races_moved_s": round(moved_ns / 1e9, 3),
        "clock_errors_ms": errors, "clock_bounds_ms": bounds,
        "corrections": len(table.corrections),
        "correction_margins_ms": [c.margin_ms for c in table.corrections],
        "rollback_depths": [d for m in matches for d in m.rollback_depths],
        "late_presses": sum(m.late_presses for m in matches), "late_local": table.late_local,
        "refusals": dict(table.refusals), "said": table.said, "pauses": table.pauses,
        "pause_log": table.pause_log[:10], "played_s": played_ns / 1e9,
        "journals": journal_paths,
        "games": len(matches), "cpu_s": round(cpu, 3), "link": peer.status(),
    }
    for m in matches:
        if not m.finished:
            m.abandon()
    hops = sorted(getattr(peer.sock, "hops_ns", []))
    if hops:
        result["hop_in_us"] = [round(hops[len(hops) // 2] / 1e3, 1), round(hops[int(0.99 * (len(hops) - 1))] / 1e3, 1),
                               round(hops[-1] / 1e3, 1), len(hops)]
    if cpu_flood0 is not None and reader_flood0 is not None:
        result["flood_cpu_s"] = round(time.process_time() - cpu_flood0, 3)
        result["calm_cpu_s"] = round(calm_cpu, 3)  # the same length of time just before the flood
        result["flood_reader_cpu_s"] = round((peer.reader_cpu_ns - reader_flood0) / 1e9, 3)
        result["flood_windows"] = peer.flood_dropped_windows
        result["flood_bad"] = sum(peer.link.counters.bad.values())
    table.close()
    return result


def flooder(target: tuple[str, int], seconds: float, start_ns: int) -> dict[str, Any]:
    """Random datagrams (half of them starting with the magic) as fast as one process sends them."""
    import socket

    while time.monotonic_ns() < start_ns:
        time.sleep(0.01)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rng = random.Random(1)
    junk = [(b"SL" if n % 2 else b"") + rng.randbytes(rng.randint(10, 200)) for n in range(256)]
    sent = sent_bytes = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for data in junk:
            with contextlib.suppress(OSError):
                sock.sendto(data, target)
                sent += 1
                sent_bytes += len(data)
    return {"datagrams": sent, "bytes": sent_bytes, "seconds": seconds}


def flood_as_peer(target: tuple[str, int], seconds: float) -> dict[str, Any]:
    """Pair with a listening cabinet (one good hello), then send garbage from that same address, as
    fast as one process can: what the reader's budget is for (a stranger's datagrams the kernel drops)."""
    import socket

    from appliance.linked import pairing, wire
    from appliance.linked.peer import offer

    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.connect(target)
    hello = {**offer("classic", {}, [2], 2, "flood"), "nonce": pairing.nonce().hex()}  # (the first pairing's)
    sock.send(wire.Link(99).message(wire.HELLO, hello, 0))
    sock.settimeout(5)
    sock.recv(4096)  # its hello: paired
    rng = random.Random(2)
    junk = [b"SL" + rng.randbytes(rng.randint(30, 200)) for _ in range(256)]
    # and as many well-formed datagrams of its session (a press, an acknowledgement, a ping, a goodbye)
    # tagged without the pairing's secret, as a stranger at this address would forge them: each one
    # passes the CRC and costs the reader its HMAC before it is dropped as forged
    forger = wire.Link(99)
    forger._next_seq = 2
    forged = [forger.message(wire.PRESS, {"g": 1, "t": 0.5, "player": 2, "press": "left"}, 0), forger.ack_datagram(),
              forger.message(wire.PING, {"t1": 1}, 0), forger.message(wire.BYE, {"why": "left"}, 0)]
    junk = [data for pair in zip(junk, forged * 64, strict=True) for data in pair]
    sent = sent_bytes = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for data in junk:
            with contextlib.suppress(OSError):
                sock.send(data)
                sent += 1
                sent_bytes += len(data)
    return {"datagrams": sent, "bytes": sent_bytes, "seconds": seconds}


def bench_peer_flood(seconds: float) -> dict[str, Any]:
    """A listening cabinet's link on loopback, flooded by its own paired peer's address: the reader's CPU."""
    from appliance.linked.peer import Peer, offer

    peer = Peer.listen(0, offer("classic", {}, [1], 2, "bench"), host="127.0.0.1")
    try:
        proc = subprocess.Popen([sys.executable, "-m", "lab.benchmarks.linked", "--flood-as-peer",
                                 f"127.0.0.1:{peer.port}", "--flood-s", str(seconds)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=REPO)
        if not peer.wait_for(lambda p: p.up, 10):
            proc.kill()
            raise RuntimeError("the flooder never paired")
        reader0, cpu0, t0 = peer.reader_cpu_ns, time.process_time(), time.monotonic()
        sent = _result(proc, seconds + 30)
        elapsed = time.monotonic() - t0
        return {"datagrams_per_s": round(sent["datagrams"] / sent["seconds"]),
                "mbytes_per_s": round(sent["bytes"] / sent["seconds"] / 1e6, 2),
                "reader_cpu_pct": round(100 * (peer.reader_cpu_ns - reader0) / 1e9 / elapsed, 1),
                "process_cpu_pct": round(100 * (time.process_time() - cpu0) / elapsed, 1),
                "refused_datagrams": sum(peer.link.counters.bad.values()),
                "forged_datagrams": peer.forged, "still_up": peer.up,
                "windows_cut_short": peer.flood_dropped_windows}
    finally:
        peer.close(say_bye=False)


# ---------------------------------------------------------------------- press -> own screen


def _other_cabinet(port: int, touches: list[int], stop: Any, pressed: Any) -> None:
    """The other cabinet of `press_to_screen`, in a process of its own (as on another machine: it
    shares nothing with the measured one but the loopback): it joins the leader on `port` and its
    scripted seat presses at `touches`, until `stop` is set; `pressed` gets how many it pressed."""
    from appliance.linked.game import LinkedTable
    from appliance.linked.peer import Peer, offer
    from lab.linked_driver import ScriptedSeat

    joiner_peer = Peer.connect("127.0.0.1", port, offer("classic", {}, [2], 2, "other"))
    joiner = LinkedTable(joiner_peer, [2], "classic")
    other = ScriptedSeat(joiner, 2, touches, 4)
    try:
        while not stop.is_set():
            now = time.monotonic_ns()  # (CLOCK_MONOTONIC: the same clock in every process here)
            other.due(now)
            joiner.tick(now)
            joiner_peer.wait_for(lambda _: False, 0.004)
    finally:
        pressed.value = len(other.pressed)
        joiner.close()


def press_to_screen(seconds: float, size: tuple[int, int] = (1280, 720), layout: str = "tabletop") -> dict[str, Any]:
    """bench render's press -> frame latency (the app's own loop, key presses posted to SDL's queue
    at random moments), for a game against the computer and then for a linked game: this process's
    table leads, the other cabinet's (a scripted seat pressing every 60-160 ms) runs in a process of
    its own, over loopback (a thread of this one would share its interpreter's lock: a cost no real
    other cabinet puts on this one). Same screen, same driver (SDL's dummy without a display), one
    after the other."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # (its banner on standard output: not the JSON)
    import multiprocessing

    import pygame

    from appliance.linked.game import LinkedTable
    from appliance.linked.peer import Peer, offer
    from appliance.match import Match
    from lab.benchmarks.render import _percentile, press_latencies

    pygame.display.init()
    pygame.font.init()
    leader_peer = Peer.listen(0, offer("classic", {}, [1], 2, "screen"), host="127.0.0.1")
    leader = LinkedTable(leader_peer, [1], "classic", start_delay_ns=50_000_000, seed=lambda g: 500 + g)
    rng = random.Random(4)
    at = time.monotonic_ns()
    touches = []
    while at < time.monotonic_ns() + int((seconds + 40) * 1e9):
        at += int(rng.uniform(0.06, 0.16) * 1e9)
        touches.append(at)
    spawn = multiprocessing.get_context("spawn")  # (not a fork of a process with SDL open)
    stop = spawn.Event()
    pressed = spawn.Value("i", 0)
    other = spawn.Process(target=_other_cabinet, args=(leader_peer.port, touches, stop, pressed),
                          name="the other cabinet", daemon=True)

    def linked_match(n: int) -> Match:
        deadline = time.monotonic() + 20
        if leader.match is not None:
            leader.start_game(time.monotonic_ns())  # (the last one over or stuck: the leader deals again)
        while not (leader.match is not None and leader.state == "playing"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the linked game did not start: {leader.state}")
            leader.tick(time.monotonic_ns())
            leader_peer.wait_for(lambda _: False, 0.004)
        return leader.match

    try:
        pygame.display.set_mode(size)
        alone, posted_alone, unseen_alone = press_latencies(size, layout, seconds)
        other.start()
        linked, posted_linked, unseen_linked = press_latencies(size, layout, seconds, linked_match)
        driver = pygame.display.get_driver()
    finally:
        stop.set()
        if other.pid is not None:  # (started: not when the unlinked half failed first)
            other.join(timeout=5)
        leader.close()
        pygame.quit()
    return {"video_driver": driver, "size": f"{size[0]}x{size[1]}", "seconds": seconds,
            "unlinked": {"presses": len(alone), "posted": posted_alone, "not_shown": unseen_alone,
                         "p50_ms": round(_percentile(alone, 0.5), 3), "p99_ms": round(_percentile(alone, 0.99), 3)},
            "linked": {"presses": len(linked), "posted": posted_linked, "not_shown": unseen_linked,
                       "p50_ms": round(_percentile(linked, 0.5), 3), "p99_ms": round(_percentile(linked, 0.99), 3),
                       "other_cabinet": "a process of its own",
                       "other_cabinet_presses": int(pressed.value), "corrections": len(leader.corrections)}}


# ---------------------------------------------------------------------- the whole bench


GO_AFTER_NS = 1_000_000_000  # the races begin this long after both tables play, at the earliest


def _both_playing(workdir: Path, role: str, now_ns: int, t0_ns: int) -> int | None:
    """Say (once) that this table plays; once the other has said so too, how far the races move on."""
    mine = workdir / f"{role}.playing"
    if not mine.exists():
        part = mine.with_suffix(".part")
        part.write_text(str(now_ns))
        part.replace(mine)  # (whole or not at all, for the other's read)
    said = [workdir / f"{r}.playing" for r in ("leader", "joiner")]
    if not all(path.exists() for path in said):
        return None
    go = max(int(path.read_text()) for path in said) + GO_AFTER_NS
    return max(0, go - t0_ns)


def _launch(ns: str | None, args: list[str]) -> subprocess.Popen[str]:
    """In namespace `ns`, or (None) in a new one with no network at all (a cabinet's game)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    where = ["ip", "netns", "exec", ns] if ns is not None else ["unshare", "--net"]
    return subprocess.Popen([*where, sys.executable, "-m", "lab.benchmarks.linked", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)


def _result(proc: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
    out, err = proc.communicate(timeout=timeout)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"a cabinet failed ({proc.returncode}): {err[-2000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def judge(races: list[tuple[int, int]], results: dict[str, dict[str, Any]], wanted: int) -> dict[str, Any]:
    """Which races were played, and which in edge order, from both cabinets' presses and journals."""
    from lab.linked_driver import closing_state, replayed_state

    by_touch = {(p["touch"], role): p for role, r in results.items() for p in r["pressed"]}
    played = in_order = 0
    wrong: list[float] = []
    detail: list[dict[str, Any]] = []
    for first, second in races:  # (leader touch, joiner touch)
        a, b = by_touch.get((first, "leader")), by_touch.get((second, "joiner"))
        if a is None or b is None or a["g"] != b["g"] or played == wanted:
            continue
        played += 1
        if (a["t_us"] < b["t_us"]) == (first < second):
            in_order += 1
        else:
            wrong.append(round(abs(first - second) / 1e6, 3))
            detail.append({"margin_ms": wrong[-1], "leader": a, "joiner": b,
                           "leader_touch": first, "joiner_touch": second})
    # Each game's two journals, paired by the game's seed (the leader deals them: seed * 1000 + game).
    # A game only one table has must have no press: one dealt as the bench ended, before the other's START.
    by_seed = [{json.loads(Path(p).read_text().splitlines()[0])["setup"]["seed"]: p for p in results[role]["journals"]}
               for role in ("leader", "joiner")]
    identical = bool(by_seed[0])
    for one_table in set(by_seed[0]) ^ set(by_seed[1]):
        path = Path({**by_seed[0], **by_seed[1]}[one_table])
        identical = identical and not any('"press"' in line for line in path.read_text().splitlines()[1:])
    for seed in set(by_seed[0]) & set(by_seed[1]):
        one, two = by_seed[0][seed], by_seed[1][seed]
        states = {replayed_state(Path(one)), replayed_state(Path(two))}
        states |= {json.dumps(closing_state(Path(path)), sort_keys=True) for path in (one, two)}
        identical = identical and len(states) == 1
    return {"races": played, "races_in_edge_order": in_order, "journals_identical": identical,
            "out_of_order_margins_ms": sorted(wrong)[:20],
            "out_of_order_with_a_moved_press": sum(1 for d in detail if d["leader"]["moved"] or d["joiner"]["moved"]),
            "out_of_order": detail[:5]}


def run_delay(delay_ms: float, jitter_ms: float, loss: float, races: int, spacing_ms: float, margin_ms: float,
              variant: str, seed: int, ns: Namespaces, workdir: Path, flood_s: float,
              link_unit: bool = False, chrony: bool = False) -> dict[str, Any]:
    rng = random.Random(f"bench linked {seed} {delay_ms}")
    t0 = time.monotonic_ns() + int(SETUP_S * 1e9)
    pairs: list[tuple[int, int]] = []
    for i in range(races + races // SPARE):  # the first `races` played are counted
        at = t0 + int(i * spacing_ms * 1e6)
        later = at + int(rng.uniform(1.0, margin_ms) * 1e6)
        pairs.append((at, later) if i % 2 else (later, at))
    end_ns = pairs[-1][0] + int(spacing_ms * 1e6) if pairs else t0
    end_ns = max(end_ns, max((b for _, b in pairs), default=t0)) + 200_000_000
    end_ns = max(end_ns, t0 + int(flood_s * 1e9) + 500_000_000)
    base = ["--end-ns", str(end_ns), "--t0-ns", str(t0), "--variant", variant, "--seed", str(seed),
            "--workdir", str(workdir)]
    for role in ("leader", "joiner"):
        (workdir / f"{role}.playing").unlink(missing_ok=True)  # (a kept folder's, from a run before)
    relay = subprocess.Popen(["ip", "netns", "exec", ns.r, sys.executable, "-m", "lab.linked_relay",
                              "--listen", f"{ADDR_RB}:{RELAY_PORT}", "--to", f"{ADDR_A}:{PORT}",
                              "--delay-ms", str(delay_ms), "--jitter-ms", str(jitter_ms), "--loss", str(loss),
                              "--seed", str(seed)],
                             stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=REPO)
    assert relay.stdout is not None
    relay.stdout.readline()  # "relay ready": the joiner's hello will not be lost to a socket not yet bound
    touches = {"leader": [a for a, _ in pairs], "joiner": [b for _, b in pairs]}
    ntp = None
    if chrony:  # chronyd server in A, client in B, through a relay of its own like the cabinets' (linked_chrony.py)
        from .linked_chrony import NTP_RELAY_PORT, Chrony

        ntp = Chrony(workdir, ns.a, ADDR_A, ns.r, f"{ADDR_RB}:{NTP_RELAY_PORT}", ns.b,
                     ["--delay-ms", str(delay_ms), "--jitter-ms", str(jitter_ms), "--loss", str(loss),
                      "--seed", str(seed + 1)], REPO)
        ntp.start()
        ntp.sample_from(t0, end_ns)
    unit = None
    if link_unit:  # the joiner's link unit in B; its game in no network at all
        sock = workdir / "link.sock"
        unit = subprocess.Popen(["ip", "netns", "exec", ns.b, sys.executable, "-m", "appliance.linked.relay",
                                 "--socket", str(sock), "--host", ADDR_B, "--idle", "3600"],
                                stdout=subprocess.PIPE, text=True, cwd=REPO,
                                env={**os.environ, "PYTHONPATH": str(REPO)})
        assert unit.stdout is not None
        unit.stdout.readline()  # "link-relay ready"
    procs = {}
    for role, name, seat in (("leader", ns.a, 1), ("joiner", ns.b, 2)):
        path = workdir / f"{role}-touches.json"
        path.write_text(json.dumps(touches[role]))
        args = ["--cabinet", role, "--touches", str(path), "--seat", str(seat),
                "--flood-s", str(flood_s if role == "leader" else 0), *base]
        if unit is not None and role == "joiner":
            procs[role] = _launch(None, [*args, "--relay", str(workdir / "link.sock")])
        else:
            procs[role] = _launch(name, args)
    flood = None
    if flood_s:
        flood = _launch(ns.r, ["--flood", f"{ADDR_A}:{PORT}", "--flood-s", str(flood_s),
                               "--end-ns", str(end_ns - int(flood_s * 1e9))])
    timeout = (end_ns - time.monotonic_ns()) / 1e9 + 60 + 120  # (+ as long as the races may wait for both tables)
    try:
        results = {role: _result(proc, timeout) for role, proc in procs.items()}
        flood_result = _result(flood, timeout) if flood is not None else None
    finally:
        if ntp is not None:
            ntp.stop()
        for proc in (*procs.values(), relay, *(p for p in [flood, unit] if p is not None)):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    verdict = judge(pairs, results, races)
    minutes = sum(r["played_s"] for r in results.values()) / len(results) / 60
    depths = [d for r in results.values() for d in r["rollback_depths"]]
    margins = [m for r in results.values() for m in r["correction_margins_ms"]]
    leader, joiner = results["leader"], results["joiner"]
    run: dict[str, Any] = {
        "delay_ms": delay_ms, "jitter_ms": jitter_ms, "loss": loss, **verdict,
        "clock_error_p99_ms": _round(_pct(joiner["clock_errors_ms"], 0.99)),
        "clock_error_max_ms": _round(max(joiner["clock_errors_ms"], default=None)),
        "clock_bound_p99_ms": _round(_pct(joiner["clock_bounds_ms"], 0.99)),
        "corrections_per_min": round(sum(r["corrections"] for r in results.values()) / len(results) / minutes, 2)
        if minutes else None,
        "correction_margin_p50_ms": _round(_pct(margins, 0.5)),
        "rollback_depth_p99": _pct([float(d) for d in depths], 0.99),
        "rollbacks": len(depths),
        "races_scheduled": races, "races_moved_s": leader["races_moved_s"],
        "games": leader["games"], "minutes_played": round(minutes, 2),
        "late_presses": leader["late_presses"] + joiner["late_presses"],
        "moved_local_presses": leader["late_local"] + joiner["late_local"],
        "pauses": leader["pauses"] + joiner["pauses"],
        "pause_log": {"leader": leader["pause_log"], "joiner": joiner["pause_log"]},
        "refusals": {**leader["refusals"], **joiner["refusals"]},
        "said": {**leader["said"], **joiner["said"]},
        "resent": leader["link"]["resent"] + joiner["link"]["resent"],
        "cpu_s": {"leader": leader["cpu_s"], "joiner": joiner["cpu_s"]},
        "link_unit": link_unit,
    }
    if "hop_in_us" in joiner:  # the link unit's hop: network -> the game's reader (p50, p99, max, datagrams)
        run["hop_in_p50_us"], run["hop_in_p99_us"], run["hop_in_max_us"], run["hop_datagrams"] = joiner["hop_in_us"]
    if ntp is not None:
        run.update(ntp.figures())
    if flood_result is not None:
        run["flood"] = {"datagrams_per_s": round(flood_result["datagrams"] / flood_result["seconds"]),
                        "mbytes_per_s": round(flood_result["bytes"] / flood_result["seconds"] / 1e6, 2),
                        "leader_cpu_pct": round(100 * leader.get("flood_cpu_s", 0) / flood_s, 1),
                        "leader_cpu_pct_before": round(100 * leader.get("calm_cpu_s", 0) / flood_s, 1),
                        "reader_cpu_pct": round(100 * leader.get("flood_reader_cpu_s", 0) / flood_s, 1),
                        "windows_cut_short": leader.get("flood_windows"), "refused_datagrams": leader.get("flood_bad")}
    return run


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def bench(delays: list[float], jitter_ms: float, loss: float, races: int, spacing_ms: float, margin_ms: float,
          variant: str, seed: int, flood_s: float = 0.0, keep: Path | None = None,
          screen_s: float = 0.0, link_unit: bool = False, chrony: bool = False) -> dict[str, Any]:
    why = namespaces_possible()
    if chrony:
        from .linked_chrony import chrony_missing

        why = why or chrony_missing()
    if why:
        raise RuntimeError(why)
    runs = []
    for delay in delays:
        ns = Namespaces()
        with tempfile.TemporaryDirectory(prefix="spit-bench-linked-") as tmp:
            if keep is not None:
                tmp = str(keep / f"delay-{delay:g}")
                Path(tmp).mkdir(parents=True, exist_ok=True)
            try:
                ns.make()
                runs.append(run_delay(delay, jitter_ms, loss, races, spacing_ms, margin_ms, variant, seed, ns,
                                      Path(tmp), flood_s if delay == delays[-1] else 0.0, link_unit, chrony))
            finally:
                ns.remove()
    result: dict[str, Any] = {"runs": runs}
    if flood_s:
        result["flood_from_the_peer"] = bench_peer_flood(flood_s)
    if screen_s:
        result["press_to_own_screen"] = press_to_screen(screen_s)
    return {**result, "spacing_ms": spacing_ms, "margin_ms": [1.0, margin_ms], "variant": variant,
            "offsets_ms": {k: v / 1e6 for k, v in OFFSETS_NS.items()}}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade bench linked", description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=1000, help="races scheduled per delay")
    parser.add_argument("--delays", default="2,20,50", help="one-way delays in ms, comma-separated")
    parser.add_argument("--jitter-ms", type=float, default=10.0)
    parser.add_argument("--loss", type=float, default=0.02)
    parser.add_argument("--spacing-ms", type=float, default=60.0, help="from one race to the next")
    parser.add_argument("--margin-ms", type=float, default=20.0, help="the later touch 1..this many ms after")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--flood-s", type=float, default=3.0, help="seconds of garbage at the leader (last delay)")
    parser.add_argument("--screen-s", type=float, default=20.0,
                        help="seconds of press -> own screen, unlinked then linked (0: none)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--keep", type=Path, help="keep the journals here (a directory for each delay)")
    parser.add_argument("--link-unit", action="store_true", help="the joiner as a cabinet: its game with no network, "
                        "its datagrams through the link unit's relay")
    parser.add_argument("--chrony", action="store_true", help="chrony beside the link's clock sync: a chronyd "
                        "server in A, a client in B (-x: neither steers the clock) through the same relay; adds "
                        "chrony_offset_p99_ms and chrony_bound_ms to each run (lab/benchmarks/linked_chrony.py)")
    parser.add_argument("--relay", help=argparse.SUPPRESS)
    # one cabinet, the relay's flooder (run by the bench itself, in a namespace)
    parser.add_argument("--cabinet", choices=("leader", "joiner"), help=argparse.SUPPRESS)
    parser.add_argument("--flood", help=argparse.SUPPRESS)
    parser.add_argument("--flood-as-peer", help=argparse.SUPPRESS)
    parser.add_argument("--touches", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--seat", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--end-ns", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--t0-ns", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cabinet:
        touches = json.loads(args.touches.read_text())
        print(json.dumps(cabinet(args.cabinet, touches, args.end_ns, args.seat, args.variant, args.workdir,
                                 args.seed, args.flood_s, args.relay, args.t0_ns)))
        return 0
    if args.flood_as_peer:
        host, _, port = args.flood_as_peer.rpartition(":")
        print(json.dumps(flood_as_peer((host, int(port)), args.flood_s)))
        return 0
    if args.flood:
        host, _, port = args.flood.rpartition(":")
        print(json.dumps(flooder((host, int(port)), args.flood_s, args.end_ns)))
        return 0
    try:
        result = bench([float(d) for d in args.delays.split(",")], args.jitter_ms, args.loss, args.races,
                       args.spacing_ms, args.margin_ms, args.variant, args.seed, args.flood_s, args.keep,
                       args.screen_s, args.link_unit, args.chrony)
    except RuntimeError as error:
        print(f"spit-arcade bench linked: {error}", file=sys.stderr)
        return 2
    print_figures(result, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
