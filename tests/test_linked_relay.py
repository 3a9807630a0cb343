"""The link unit (appliance/linked/relay.py): a linked game where one table's datagrams go through the
relay over a Unix socket, as on a cabinet whose game has no network. The relay is a process of its
own (`python -m appliance.linked.relay --socket ...`), the other table is direct UDP on loopback.
Races from both tables end in edge order and both journals replay to the same final state; a table
in a network namespace with no network at all plays through it; the relay drops what is not the
link's and refuses what it does not take. Every wait is bounded and on a condition."""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from appliance.linked import relay_client as relay_module
from appliance.linked import wire
from appliance.linked.game import LinkedTable
from appliance.linked.peer import Peer, offer
from appliance.linked.relay_client import RelayError, RelaySocket
from lab.linked_driver import ScriptedSeat, closing_state, replayed_state

MS = 1_000_000
REPO = Path(__file__).resolve().parents[1]
WAIT = 60.0  # (a loaded machine starts a Python process slowly)


class RelayProcess:
    """`spit-arcade link-relay` as the unit runs it, on a socket of the test's."""

    def __init__(self, path: Path, *more: str) -> None:
        self.path = path
        self.proc = subprocess.Popen([sys.executable, "-m", "appliance.linked.relay", "--socket", str(path),
                                      "--host", "127.0.0.1", "--idle", "600", *more], cwd=REPO,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, "PYTHONPATH": str(REPO)})
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], WAIT)
        assert ready, "the relay did not start"
        assert self.proc.stdout.readline().startswith("link-relay ready")

    def stop(self) -> str:
        self.proc.terminate()
        _, err = self.proc.communicate(timeout=WAIT)
        return err


@pytest.fixture
def relay(tmp_path: Path) -> Iterator[RelayProcess]:
    process = RelayProcess(tmp_path / "link.sock")
    yield process
    process.stop()


class Pair:
    """Two tables on loopback: `through` ("leader" or "joiner") talks through the relay."""

    def __init__(self, tmp: Path, relay: RelayProcess, through: str) -> None:
        mine_a, mine_b = offer("classic", {}, [1], 2, "a"), offer("classic", {}, [2], 2, "b")
        if through == "leader":
            self.leader_peer = Peer.through(relay.path, {"listen": 0}, mine_a)
            self.joiner_peer = Peer.connect("127.0.0.1", self.leader_peer.port, mine_b)
        else:
            self.leader_peer = Peer.listen(0, mine_a, host="127.0.0.1")
            self.joiner_peer = Peer.through(relay.path, {"connect": ["127.0.0.1", self.leader_peer.port]}, mine_b)
        (tmp / "a").mkdir()
        (tmp / "b").mkdir()
        self.leader = LinkedTable(self.leader_peer, [1], "classic", journal_dir=tmp / "a", start_delay_ns=200 * MS,
                                  seed=lambda g: 70 + g)
        self.joiner = LinkedTable(self.joiner_peer, [2], "classic", journal_dir=tmp / "b")
        self.tables = (self.leader, self.joiner)

    def until(self, done: Callable[[], bool], each: Callable[[int], None] | None = None,
              timeout: float = WAIT) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            now = time.monotonic_ns()
            if each is not None:  # the frame's presses first, then the frame at their time (as the screen does)
                each(now)
            for table in self.tables:
                table.tick(now)
            if done():
                return True
            self.leader_peer.wait_for(lambda _: False, 0.002)  # a frame's wait, on the link
        return done()

    def close(self) -> None:
        self.joiner.close()
        self.leader.close()


def _races(pair: Pair, count: int) -> tuple[ScriptedSeat, ScriptedSeat]:
    rng = random.Random(11)
    now = time.monotonic_ns()
    one: list[int] = []
    two: list[int] = []
    for n in range(count):  # a race every 30 ms, the two touches 3 to 8 ms apart, either first
        at = now + 100 * MS + n * 30 * MS
        gap = rng.randint(3, 8) * MS
        (one if n % 2 else two).append(at)
        (two if n % 2 else one).append(at + gap)
    return ScriptedSeat(pair.leader, 1, one, 1), ScriptedSeat(pair.joiner, 2, two, 2)


@pytest.mark.parametrize("through", ["joiner", "leader"])
def test_a_linked_game_through_the_relay_plays_in_edge_order_and_both_journals_replay_alike(
        tmp_path: Path, relay: RelayProcess, through: str) -> None:
    pair = Pair(tmp_path, relay, through)
    try:
        assert pair.until(lambda: all(t.state == "playing" for t in pair.tables)), [t.state for t in pair.tables]
        relayed = pair.leader_peer if through == "leader" else pair.joiner_peer
        assert isinstance(relayed.sock, RelaySocket)
        assert relayed.sync.synced  # the clock sync ran through the hop
        seats = _races(pair, 40)

        def press(now: int) -> None:
            for seat in seats:
                seat.due(now)

        total = sum(len(s.touches) for s in seats)
        done = lambda: (not any(s.touches for s in seats)  # noqa: E731
                        and all(t.match is not None and t.match.presses == total - sum(s.refused for s in seats)
                                for t in pair.tables))
        assert pair.until(done, each=press), [(t.state, t.match and t.match.presses) for t in pair.tables]
        leader, joiner = pair.leader.match, pair.joiner.match
        assert leader is not None and joiner is not None
        assert leader.presses > 20  # (the game was played, not refused)
        assert json.dumps(leader.game.state(), sort_keys=True) == json.dumps(joiner.game.state(), sort_keys=True)
        assert leader.late_presses == joiner.late_presses == 0
        status = relayed.status()
        assert status["received"] > 0 and status["bad"] == {}
        paths = [t.match.journal.path for t in pair.tables]  # type: ignore[union-attr]
    finally:
        pair.close()
    states = [replayed_state(p) for p in paths]
    assert states[0] == states[1]
    assert [json.dumps(closing_state(p), sort_keys=True) for p in paths] == states
    orders = []
    for path in paths:  # edge order: both journals applied the touches as they were touched
        lines = [json.loads(x) for x in path.read_text().splitlines()[1:-1]]
        orders.append([line["player"] for line in sorted((ln for ln in lines if "press" in ln),
                                                          key=lambda ln: ln["t"])])
    touched = sorted([(t, 1) for t, _, _ in seats[0].pressed] + [(t, 2) for t, _, _ in seats[1].pressed])
    assert orders[0] == orders[1] == [p for _, p in touched]


def _no_network_possible() -> str:
    if shutil.which("unshare") is None:
        return "unshare (util-linux) is not installed"
    probe = subprocess.run(["unshare", "--net", "true"], capture_output=True, text=True, check=False)
    return "" if probe.returncode == 0 else f"cannot make a network namespace here: {probe.stderr.strip()}"


def test_a_cabinet_with_no_network_at_all_plays_through_the_relay(tmp_path: Path, relay: RelayProcess) -> None:
    """The other cabinet is a process in a network namespace of its own (no interface up, not even
    loopback: what PrivateNetwork= gives the game's unit); the relay's Unix socket is its only way out."""
    why = _no_network_possible()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    leader_peer = Peer.listen(0, offer("classic", {}, [1], 2, "a"), host="127.0.0.1")
    (tmp_path / "a").mkdir()
    leader = LinkedTable(leader_peer, [1], "classic", journal_dir=tmp_path / "a", start_delay_ns=200 * MS,
                         seed=lambda g: 90 + g)
    now = time.monotonic_ns()
    touches = [now + 3_000 * MS + n * 40 * MS for n in range(40)]
    (tmp_path / "touches.json").write_text(json.dumps(touches))
    cabinet = subprocess.Popen(
        ["unshare", "--net", sys.executable, "-m", "lab.linked_driver", "--connect", f"127.0.0.1:{leader_peer.port}",
         "--relay", str(relay.path), "--seat", "2", "--journals", str(tmp_path / "b"),
         "--touches", str(tmp_path / "touches.json"), "--seed", "3"],
        cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    lines: list[dict[str, Any]] = []

    def read() -> None:
        assert cabinet.stdout is not None
        while select.select([cabinet.stdout], [], [], 0)[0]:
            line = cabinet.stdout.readline()
            if not line:
                return
            lines.append(json.loads(line))

    def pump(done: Callable[[], bool]) -> bool:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            leader.tick(time.monotonic_ns())
            read()
            if done():
                return True
            leader_peer.wait_for(lambda _: False, 0.004)
        return done()

    try:
        assert pump(lambda: leader.state == "playing"), (leader.state, lines)
        assert pump(lambda: leader.match is not None and leader.match.presses >= 30), (leader.state, lines)
        assert cabinet.stdin is not None
        cabinet.stdin.close()  # it plays on until this table's word passes that moment, then says its figures
        assert pump(lambda: any(line.get("done") for line in lines)), lines
        assert leader.match is not None
        mine = leader.match.journal.path  # type: ignore[union-attr]
        cabinet.wait(WAIT)
    finally:
        if cabinet.poll() is None:
            cabinet.kill()
            cabinet.wait()
        leader.close()
    done = next(line for line in lines if line.get("done"))
    assert done["refusals"] == {} and done["pressed"] > 0
    assert done["network"] == ["lo"]  # what the cabinet could see of a network: its own loopback, down
    assert replayed_state(Path(done["journal"])) == replayed_state(mine)


def test_the_relay_drops_what_is_not_the_links_and_passes_the_rest_verbatim(relay: RelayProcess) -> None:
    sock = RelaySocket(relay.path, {"listen": 0})
    sock.settimeout(5.0)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as stranger:
        stranger.bind(("127.0.0.1", 0))
        ours = wire.Link(7).message(wire.PING, {"t1": 1}, 0)
        for data in (b"garbage", b"SL" + bytes(4), ours):
            stranger.sendto(data, ("127.0.0.1", sock.port))
        data, address = sock.recvfrom(wire.MAX_DATAGRAM + 1)
        assert data == ours and address == stranger.getsockname()  # the garbage before it never came
        assert sock.hops_ns and sock.hops_ns[-1] >= 0
        sock.sendto(b"back again", address)  # and the other way
        stranger.settimeout(5.0)
        assert stranger.recvfrom(64) == (b"back again", ("127.0.0.1", sock.port))
    sock.close()


def test_a_paired_link_hears_only_its_peer_until_unpaired(relay: RelayProcess) -> None:
    sock = RelaySocket(relay.path, {"listen": 0})
    sock.settimeout(5.0)
    ours = wire.Link(7).message(wire.PING, {"t1": 1}, 0)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as peer, \
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as other:
        peer.bind(("127.0.0.1", 0))
        other.bind(("127.0.0.1", 0))
        peer.settimeout(5.0)
        sock.connect(peer.getsockname())
        sock.sendto(b"x", peer.getsockname())  # the relay takes the game's packets in order: paired once this is out
        assert peer.recvfrom(8)[0] == b"x"
        other.sendto(ours, ("127.0.0.1", sock.port))  # dropped by the kernel: not the paired address
        peer.sendto(ours, ("127.0.0.1", sock.port))
        assert sock.recvfrom(wire.MAX_DATAGRAM + 1)[1] == peer.getsockname()
        sock.unconnect()
        sock.sendto(b"y", peer.getsockname())
        assert peer.recvfrom(8)[0] == b"y"
        other.sendto(ours, ("127.0.0.1", sock.port))
        assert sock.recvfrom(wire.MAX_DATAGRAM + 1)[1] == other.getsockname()
    sock.close()


def test_what_the_relay_refuses_is_said(relay: RelayProcess, tmp_path: Path) -> None:
    with pytest.raises(RelayError, match="listen on port"):
        RelaySocket(relay.path, {"listen": "seventy"})
    with pytest.raises(RelayError, match="does not answer"):
        RelaySocket(tmp_path / "nobody.sock", {"listen": 0})
    with pytest.raises(RelayError, match="needs a venue"):  # (this machine has no venue)
        RelaySocket(relay.path, {"find": "venue"})
    # the relay is still there for the next game
    sock = RelaySocket(relay.path, {"listen": 0})
    assert sock.port > 0
    sock.close()


def test_a_relay_that_restarts_is_called_again_on_the_same_port(tmp_path: Path) -> None:
    path = tmp_path / "link.sock"
    first = RelayProcess(path)
    sock = RelaySocket(path, {"listen": 0})
    port = sock.port
    sock.settimeout(0.05)
    first.stop()
    second = RelayProcess(path)
    try:
        ours = wire.Link(7).message(wire.PING, {"t1": 1}, 0)
        deadline = time.monotonic() + WAIT
        got = None
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as peer:
            while got is None and time.monotonic() < deadline:
                peer.sendto(ours, ("127.0.0.1", port))
                try:
                    got = sock.recvfrom(wire.MAX_DATAGRAM + 1)
                except OSError:  # (TimeoutError while it calls again)
                    continue
        assert got is not None and got[0] == ours
        assert sock.reconnects == 1 and sock.port == port
    finally:
        sock.close()
        second.stop()


def test_a_caller_whose_relay_restarts_calls_again_from_the_same_port(tmp_path: Path) -> None:
    """(The listener on the other end pairs with one address: a new port would be a stranger.)"""
    path = tmp_path / "link.sock"
    first = RelayProcess(path)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as peer:
        peer.bind(("127.0.0.1", 0))
        peer.settimeout(5.0)
        sock = RelaySocket(path, {"connect": list(peer.getsockname())})
        sock.settimeout(0.05)
        sock.sendto(b"one", peer.getsockname())
        said, before = peer.recvfrom(8)
        first.stop()
        second = RelayProcess(path)
        try:
            deadline = time.monotonic() + WAIT
            while sock.reconnects == 0 and time.monotonic() < deadline:
                with contextlib.suppress(OSError):  # (TimeoutError while it calls again)
                    sock.recvfrom(wire.MAX_DATAGRAM + 1)
            assert sock.reconnects == 1
            sock.sendto(b"two", peer.getsockname())
            assert peer.recvfrom(8) == (b"two", before)
        finally:
            sock.close()
            second.stop()
    assert said == b"one"


def test_the_relay_is_the_link_units_command() -> None:
    from appliance.cli import COMMANDS

    assert COMMANDS["link-relay"][0] == "appliance.linked.relay:main"
    assert Path("/run/spit-arcade-link.sock") == relay_module.SOCKET


def test_the_cabinets_link_setting_opens_its_link_through_the_relay(relay: RelayProcess,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's unit names the relay's socket ($SPIT_ARCADE_LINK_RELAY) and the settings' [link] says
    what to open: `play --kiosk` with no --link opens it through the relay."""
    from appliance.display.app import open_link, parse_args
    from appliance.shared.settings import Settings

    monkeypatch.setenv(relay_module.ENV, str(relay.path))
    leader, where = open_link(parse_args(["--kiosk"]), Settings(link={"listen": 0}), None)
    joiner, joined = open_link(parse_args([]), Settings(link={"join": f"127.0.0.1:{leader.peer.port}"}), None)
    try:
        assert isinstance(leader.peer.sock, RelaySocket) and isinstance(joiner.peer.sock, RelaySocket)
        assert where == f"port {leader.peer.port}" and joined == f"127.0.0.1:{leader.peer.port}"
        assert (leader.peer.offer["seats"], joiner.peer.offer["seats"]) == ([1], [2])
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and not all(t.state == "playing" for t in (leader, joiner)):
            for table in (leader, joiner):
                table.tick(time.monotonic_ns())
            leader.peer.wait_for(lambda _: False, 0.004)  # a frame's wait, on the link
        assert [t.state for t in (leader, joiner)] == ["playing", "playing"]
        assert leader.peer.sync.synced and joiner.peer.sync.synced
    finally:
        joiner.close()
        leader.close()
