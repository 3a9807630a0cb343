"""A power cut mid-game between two linked cabinets: one is a process of its own, killed with SIGKILL
and started again; it finds its unfinished linked journal, plays it again, pairs again (a new
session, a new port if it called), the two exchange the presses the other lacks, and both play on.
Both journals then replay to the same final state, byte for byte. The other cabinet is this test's,
on loopback. Each wait is bounded and on a condition (the link's, or a process's output)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from appliance.journal import read_journal
from appliance.linked import clock, wire
from appliance.linked.game import LinkedTable, unfinished_linked
from appliance.linked.peer import Peer, offer
from lab.linked_driver import ScriptedSeat, replayed_state

MS = 1_000_000
REPO = Path(__file__).resolve().parents[1]
WAIT = 60.0  # (a loaded machine starts a Python process slowly)


def _free_port() -> int:
    """A free UDP port below the kernel's ephemeral range: the killed cabinet binds it again when it
    comes back, and a port from that range could meanwhile be handed to any other socket."""
    low = 32768
    with contextlib.suppress(OSError, ValueError):
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    for port in random.Random().sample(range(max(1024, low - 12000), low), 200):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free UDP port below the ephemeral range")


class Cabinet:
    """The other cabinet: `python -m lab.linked_driver`, its state changes read off its output."""

    def __init__(self, args: list[str]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "lab.linked_driver", *args], cwd=REPO,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
        self.lines: list[dict[str, Any]] = []

    def read(self) -> None:
        assert self.proc.stdout is not None
        while select.select([self.proc.stdout], [], [], 0)[0]:
            line = self.proc.stdout.readline()
            if not line:
                return
            self.lines.append(json.loads(line))

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)  # a power cut: nothing is said, nothing closed
        self.proc.wait(WAIT)

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()  # it plays on until this table's word passes now, then says its figures


def _pump(table: LinkedTable, done: Callable[[], bool], each: Callable[[int], None] | None = None,
          cabinet: Cabinet | None = None, timeout: float = WAIT) -> bool:
    return _pump_tables(done, (table,), each, cabinet, timeout)


def _pump_tables(done: Callable[[], bool], tables: tuple[LinkedTable, ...], each: Callable[[int], None] | None = None,
                 cabinet: Cabinet | None = None, timeout: float = WAIT) -> bool:
    """Tick `tables` (the first one's seat pressing by `each`, if given; the other cabinet's output read)
    until `done`, bounded by `timeout`, waiting a frame at a time on the first table's link."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for n, table in enumerate(tables):
            now = time.monotonic_ns()
            if each is not None and n == 0:
                each(now)
            table.tick(now)
        if cabinet is not None:
            cabinet.read()
        if done():
            return True
        tables[0].peer.wait_for(lambda _: False, 0.004)  # a frame's wait, on the link
    return done()


@pytest.mark.parametrize("killed", ["joiner", "leader"])
def test_a_cabinet_killed_mid_game_comes_back_and_both_journals_replay_alike(tmp_path: Path, killed: str) -> None:
    here_seat, there_seat = (1, 2) if killed == "joiner" else (2, 1)
    port = _free_port()
    if killed == "joiner":
        peer = Peer.listen(port, offer("classic", {}, [here_seat], 2, "here"), host="127.0.0.1")
        there_args = ["--connect", f"127.0.0.1:{port}"]
    else:
        peer = Peer.connect("127.0.0.1", port, offer("classic", {}, [here_seat], 2, "here"))
        there_args = ["--listen", str(port)]
    (tmp_path / "here").mkdir()
    table = LinkedTable(peer, [here_seat], "classic", journal_dir=tmp_path / "here", start_delay_ns=200 * MS,
                        seed=lambda g: 7000 + g)
    # both seats touch every 50 ms, 20 ms apart, from the moment their table plays (however long a
    # loaded machine takes to start the other's process): for 9 s, and for 4.5 s once it is back
    # (a game of at most ~300 presses: not over yet)
    touches = {seat: [n * 50 * MS + seat * 20 * MS for n in range(180)] for seat in (1, 2)}
    (tmp_path / "touches.json").write_text(json.dumps(touches[there_seat]))
    (tmp_path / "touches-back.json").write_text(json.dumps(touches[there_seat][:90]))
    args = [*there_args, "--seat", str(there_seat), "--journals", str(tmp_path / "there"),
            "--touches", str(tmp_path / "touches.json"), "--touches-after-play", "--seed", "7"]
    seat = ScriptedSeat(table, here_seat, [], 3)
    cabinet = Cabinet(args)
    try:
        def theirs() -> int:
            return len(table.remote_seen)

        def touch_from_now(offsets: list[int]) -> None:
            now = time.monotonic_ns()
            seat.touches.clear()
            seat.touches.extend(now + t for t in offsets)

        assert _pump(table, lambda: table.state == "playing", None, cabinet), (table.state, cabinet.lines)
        touch_from_now(touches[here_seat])
        assert _pump(table, lambda: theirs() >= 20, seat.due, cabinet), (table.state, theirs(), cabinet.lines)
        cabinet.kill()
        before = theirs()
        assert _pump(table, lambda: table.state == "paused", seat.due), table.state
        cut = unfinished_linked(tmp_path / "there")
        assert cut is not None  # the killed cabinet's game, cut off
        args[args.index(str(tmp_path / "touches.json"))] = str(tmp_path / "touches-back.json")
        cabinet = Cabinet(args)  # it comes back: same seats, same journals
        assert _pump(table, lambda: table.repairs == 1 and table.state == "playing", seat.due, cabinet), \
            (table.state, table.notice, cabinet.lines, cabinet.proc.poll())
        touch_from_now(touches[here_seat][:90])
        assert _pump(table, lambda: theirs() >= before + 20, seat.due, cabinet), \
            (table.state, theirs(), before, cabinet.lines)  # its presses come again
        assert _pump(table, lambda: not seat.touches, seat.due, cabinet)
        cabinet.stop()
        end = time.monotonic_ns()

        def done() -> dict[str, Any] | None:
            return next((x for x in cabinet.lines if x.get("done")), None)

        # (and every press it made before it left has been taken here: all were here before it said done)
        assert _pump(table, lambda: table.remote_w_us >= table.raw_us(end) and (there := done()) is not None
                     and table.match is not None and table.match.presses >= there["presses"], None, cabinet), \
            (table.state, cabinet.lines[-3:])
    finally:
        if cabinet.proc.poll() is None and not any(x.get("done") for x in cabinet.lines):
            cabinet.proc.kill()
        cabinet.proc.wait(WAIT)
        assert cabinet.proc.stderr is not None
        err = cabinet.proc.stderr.read()
        print(err[-3000:], file=sys.stderr)  # (shown if the test fails)
        table.close()
    there = next(x for x in cabinet.lines if x.get("done"))
    assert there["resumed_from"] == str(cut) and there["journal"] == str(cut)  # the same file goes on
    assert there["repairs"] == 1 and there["refusals"] == {} and table.refusals == {}, err[-2000:]
    assert table.match is not None and there["presses"] == table.match.presses
    here_journal = next((tmp_path / "here").iterdir())
    assert replayed_state(here_journal) == replayed_state(cut)  # byte for byte
    lines, _ = read_journal(cut)
    assert sum(1 for line in lines if '"press"' in line) == table.match.presses  # before and after the cut


def _joiner(tmp_path: Path, port: int) -> LinkedTable:
    """Seat 2's table, calling the leader's port on loopback, its journals in `tmp_path / "b"`."""
    return LinkedTable(Peer.connect("127.0.0.1", port, offer("classic", {}, [2], 2, "b"), keep=tmp_path / "b"), [2],
                       "classic", journal_dir=tmp_path / "b")


def _two_tables(tmp_path: Path) -> tuple[LinkedTable, LinkedTable]:
    """Two tables in this process: the leader (seat 1, listening) and the joiner (seat 2)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    leader = LinkedTable(Peer.listen(0, offer("classic", {}, [1], 2, "a"), host="127.0.0.1"), [1], "classic",
                         journal_dir=tmp_path / "a", start_delay_ns=100 * MS, seed=lambda g: 90 + g)
    return leader, _joiner(tmp_path, leader.peer.port)


def test_a_press_sent_but_lost_from_its_own_journal_comes_back_from_the_other_table(tmp_path: Path) -> None:
    """A power cut can take the last half second of a journal that the other table has already got:
    the cabinet that comes back gets its own lost presses back from the other's journal."""
    leader, joiner = _two_tables(tmp_path)
    back = None
    try:
        both = (leader, joiner)

        assert _pump_tables(lambda: all(t.state == "playing" for t in both), both)
        for n, control in enumerate(("spit", "pile1", "left", "spit")):
            joiner.press(time.monotonic_ns() + n * MS, 2, control)
        assert _pump_tables(lambda: len(leader.remote_seen) == 4, both)
        assert joiner.match is not None and joiner.match.journal is not None
        path = joiner.match.journal.path  # type: ignore[attr-defined]
        joiner.peer.close(say_bye=False)  # the power cut: nothing said, nothing closed
        lines = path.read_text().splitlines()
        last = max(n for n, line in enumerate(lines) if '"player": 2' in line)
        lost = json.loads(lines[last])
        path.write_text("\n".join(lines[:last] + lines[last + 1:]) + "\n")  # its last press never reached the card
        assert _pump_tables(lambda: leader.state == "paused", (leader,))
        back = _joiner(tmp_path, leader.peer.port)  # the cabinet that came back
        back.resume_from(path)
        assert back.match is not None and back.match.presses == leader.match.presses - 1  # type: ignore[union-attr]
        assert _pump_tables(lambda: back.state == leader.state == "playing", (leader, back)), (leader.state, back.state)
        assert back.match.presses == leader.match.presses  # type: ignore[union-attr]
        assert (round(lost["t"] * 1e6), 2, lost["press"]) in back.own_presses
        assert back.refusals == {} and leader.refusals == {}
    finally:
        for table in (back, leader):
            if table is not None:
                table.close()
    assert replayed_state(path) == replayed_state(next((tmp_path / "a").iterdir()))


def test_presses_sent_again_that_overtake_the_others_sync_are_judged_once_it_comes(tmp_path: Path,
                                                                                   monkeypatch: Any) -> None:
    """The leader played on up to its horizon after the other's power cut, so its presses sent again
    are up to ~650 ms past the journal the other comes back with. Should they overtake the leader's
    SYNC (a SYNC lost once and sent again; here, held back by the test) before the clock sync, the
    cabinet that came back has nothing to judge them by: it holds them until the SYNC, and refuses none."""
    leader, joiner = _two_tables(tmp_path)
    back = None
    try:
        assert _pump_tables(lambda: all(t.state == "playing" for t in (leader, joiner)), (leader, joiner))
        seat = ScriptedSeat(leader, 1, [time.monotonic_ns() + n * 20 * MS for n in range(400)], 5)
        assert _pump_tables(lambda: len(seat.pressed) >= 10, (leader, joiner), seat.due)
        assert joiner.match is not None and joiner.match.journal is not None
        path = joiner.match.journal.path  # type: ignore[attr-defined]
        joiner.peer.close(say_bye=False)  # the power cut
        assert _pump_tables(lambda: leader.state == "paused", (leader,), seat.due)  # it pressed on up to its horizon
        seat.touches.clear()
        monkeypatch.setattr(clock, "MIN_SAMPLES", 10**9)  # the clock sync takes its time
        back = _joiner(tmp_path, leader.peer.port)  # the cabinet that came back
        back.resume_from(path)
        assert back.frozen_us is not None and max(leader.own_presses)[0] > back.frozen_us + 500_000
        held: list[Any] = []
        pressed = False
        taken = back.peer.messages

        def overtaken() -> list[Any]:  # the leader's SYNC (and beats) come after its first press sent again
            nonlocal pressed
            out = []
            for datagram in taken():
                if datagram.kind in (wire.SYNC, wire.BEAT) and not pressed:
                    held.append(datagram)
                else:
                    pressed = pressed or datagram.kind == wire.PRESS
                    out.append(datagram)
            if pressed:
                out, held[:] = [*out, *held], []
            return out

        back.peer.messages = overtaken  # type: ignore[method-assign]
        assert _pump_tables(lambda: pressed and not held and back.peer_frozen_us is not None, (leader, back)), \
            (back.state, back.refusals)
        monkeypatch.undo()  # (the clock sync goes on: the leader resumes both tables once it is done)
        assert _pump_tables(lambda: back.state == leader.state == "playing", (leader, back)), (leader.state, back.state)
        assert back.refusals == {} and leader.refusals == {}
        assert back.match is not None and leader.match is not None and back.match.presses == leader.match.presses
    finally:
        for table in (back, leader):
            if table is not None:
                table.close()
    assert replayed_state(path) == replayed_state(next((tmp_path / "a").iterdir()))


def test_a_stranger_in_the_silence_of_a_power_cut_takes_nothing_and_the_game_goes_on_with_the_real_cabinet(
        tmp_path: Path) -> None:
    """The joiner's power cut: the leader pauses, and after 1.5 s of silence takes a hello from a new
    address again. A stranger's hello that fits (seat 2, this version: all public) pairs with nothing,
    its presses for seat 2 reach no table; the real cabinet, back from a new port with the pairing's
    secret in its journal directory, is taken, the game goes on, and both journals replay alike."""
    leader, joiner = _two_tables(tmp_path)
    back = stranger = None
    try:
        both = (leader, joiner)
        assert _pump_tables(lambda: all(t.state == "playing" for t in both), both)
        for n, control in enumerate(("spit", "pile1", "left")):
            joiner.press(time.monotonic_ns() + n * MS, 2, control)
        assert _pump_tables(lambda: len(leader.remote_seen) == 3, both)
        assert joiner.match is not None and joiner.match.journal is not None
        path = joiner.match.journal.path  # type: ignore[attr-defined]
        joiner.peer.close(say_bye=False)  # the power cut
        assert _pump_tables(lambda: leader.state == "paused" and leader.peer._reopened, (leader,))
        (tmp_path / "s").mkdir()
        stranger = LinkedTable(Peer.connect("127.0.0.1", leader.peer.port, offer("classic", {}, [2], 2, "b")), [2],
                               "classic", journal_dir=tmp_path / "s")
        assert _pump_tables(lambda: leader.peer.unproven >= 1, (leader, stranger))
        stranger.peer.send(wire.PRESS, {"g": leader.game_no, "t": 99.000001, "player": 2, "press": "left"})
        assert _pump_tables(lambda: stranger.peer.link.counters.resent >= 3, (leader, stranger))
        assert leader.repairs == 0 and leader.peer.pairings == 1 and len(leader.remote_seen) == 3
        assert stranger.state == "connecting" and stranger.match is None
        stranger.close()
        back = _joiner(tmp_path, leader.peer.port)  # the real cabinet comes back
        back.resume_from(path)
        assert back.peer.bound  # (a game to resume: it, too, takes only the pairing it kept)
        assert _pump_tables(lambda: back.state == leader.state == "playing", (leader, back)), (leader.state, back.state)
        assert leader.repairs == 1 and leader.peer.unproven >= 1
        back.press(time.monotonic_ns(), 2, "right")
        assert _pump_tables(lambda: len(leader.remote_seen) == 4, (leader, back))
        assert back.refusals == {} and leader.refusals == {}
        assert back.match is not None and leader.match is not None and back.match.presses == leader.match.presses
    finally:
        for table in (stranger, back, leader):
            if table is not None:
                table.close()
    assert replayed_state(path) == replayed_state(next((tmp_path / "a").iterdir()))
