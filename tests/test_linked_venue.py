"""Two linked cabinets paired through the venue's broker (a real Mosquitto: TLS, client certificates,
the venue's ACLs from `venue init`): one offers its game on its own topic, the other finds it and
calls the address given, and the link pairs; the offer is taken down. A cabinet cannot offer on
another's topic (the ACL), and an offer naming another cabinet is refused. And the same through the
link unit (relay.py, a process of its own, as on a cabinet): a find pairs, a find under way holds up
none of the unit's other links, and a broker that is gone (before or during a find) is said at once.
Each wait is bounded and on a condition."""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_linked_relay import RelayProcess
from venue_broker import Broker, make_venue

from appliance.linked.peer import Peer, offer
from appliance.linked.venue import VenueLink, parse_offer, topic
from appliance.venue.uplink import VenueSettings

BOUND_S = 30.0


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    venue = make_venue(tmp_path / "venue", ["table-1", "table-2", "table-3"])
    venue.start()
    try:
        yield venue
    finally:
        venue.stop()


def _link(broker: Broker, name: str) -> VenueLink:
    cred = broker.credential(name)
    link = VenueLink(VenueSettings("localhost", broker.port, name, cred / "ca.crt", cred / "cabinet.crt",
                                   cred / "cabinet.key"))
    link.connect(BOUND_S)
    return link


def test_a_cabinet_offers_on_its_topic_another_finds_it_and_they_pair_by_address(broker: Broker) -> None:
    one, two = _link(broker, "table-1"), _link(broker, "table-2")
    leader = Peer.listen(0, offer("classic", {}, [1], 2, "table-1"), host="127.0.0.1")
    joiner = None
    try:
        one.offer(leader.offer, leader.port, timeout=BOUND_S)
        name, host, port = two.find(offer("classic", {}, [2], 2, "table-2"), timeout=BOUND_S)
        assert (name, port) == ("table-1", leader.port) and host == "127.0.0.1"  # its address towards the broker
        joiner = Peer.connect(host, port, offer("classic", {}, [2], 2, "table-2"))
        assert leader.wait_for(lambda p: p.up, BOUND_S) and joiner.wait_for(lambda p: p.up, BOUND_S)
        one.withdraw(BOUND_S)  # paired: the offer comes down, and nobody else finds it
        three = _link(broker, "table-3")
        with pytest.raises(TimeoutError, match="no linked game offered"):
            three.find(offer("classic", {}, [2], 2, "table-3"), timeout=1.0)
        three.close()
    finally:
        for peer in (leader, joiner):
            if peer is not None:
                peer.close()
        one.close()
        two.close()


def test_an_offer_that_does_not_fit_is_passed_over_and_said(broker: Broker) -> None:
    one, two = _link(broker, "table-1"), _link(broker, "table-2")
    try:
        one.offer(offer("speed", {}, [1], 2, "table-1"), 7000, timeout=BOUND_S)
        with pytest.raises(TimeoutError, match="table-1: the other cabinet is set for 'speed'"):
            two.find(offer("classic", {}, [2], 2, "table-2"), timeout=2.0)
    finally:
        one.close()
        two.close()


def test_a_cabinet_cannot_offer_on_another_cabinets_topic(broker: Broker) -> None:
    two = _link(broker, "table-2")
    try:
        forged = {"v": 1, "cabinet": "table-1", "offer": offer("classic", {}, [1], 2), "host": "10.0.0.66",
                  "port": 7000}
        assert two._publish(topic("table-1"), json.dumps(forged).encode(), True, BOUND_S) == "Not authorized"
        assert two._publish(topic("table-2"), json.dumps(forged).encode(), True, BOUND_S) == "Success"
        # on its own topic it may write, but an offer naming another cabinet is not taken as one
        assert parse_offer(topic("table-2"), json.dumps(forged).encode()) is None
        three = _link(broker, "table-3")
        deadline = time.monotonic() + 2.0
        with pytest.raises(TimeoutError):
            three.find(offer("classic", {}, [2], 2, "table-3"), timeout=max(0.1, deadline - time.monotonic()))
        three.close()
    finally:
        two._publish(topic("table-2"), b"", True, BOUND_S)
        two.close()


def test_play_s_helpers_offer_until_paired_and_find_by_name(broker: Broker) -> None:
    from appliance.linked.venue import find_on_venue, offer_while_waiting

    def settings(name: str) -> VenueSettings:
        cred = broker.credential(name)
        return VenueSettings("localhost", broker.port, name, cred / "ca.crt", cred / "cabinet.crt",
                             cred / "cabinet.key")

    leader = Peer.listen(0, offer("classic", {}, [1], 2, "table-1"), host="127.0.0.1")
    joiner = None
    try:
        assert offer_while_waiting(leader, settings("table-1"))
        mine = offer("classic", {}, [2], 2, "table-2")
        host, port, name = find_on_venue("venue:table-1", mine, settings("table-2"), timeout=BOUND_S)
        assert (host, port, name) == ("127.0.0.1", leader.port, "table-1")
        joiner = Peer.connect(host, port, mine)
        assert leader.wait_for(lambda p: p.up, BOUND_S)
        deadline = time.monotonic() + BOUND_S  # paired: the offer is taken down (by its thread)
        while True:
            try:
                find_on_venue("venue:table-1", offer("classic", {}, [2], 2), settings("table-3"), timeout=0.5)
            except TimeoutError:
                break
            assert time.monotonic() < deadline, "the offer stayed up after the pairing"
        with pytest.raises(OSError, match="needs a venue"):
            find_on_venue("venue", mine, None)
    finally:
        for peer in (leader, joiner):
            if peer is not None:
                peer.close()


# --- through the link unit (relay.py), as a cabinet finds a game: its game has no network

def _relay(broker: Broker, tmp_path: Path, name: str) -> RelayProcess:
    """The link unit of cabinet `name`, reading its venue.toml from `venue init` (as the unit reads
    /etc/spit-arcade/venue/venue.toml)."""
    return RelayProcess(tmp_path / f"{name}.sock", "--venue", str(broker.credential(name) / "venue.toml"),
                        "--find-s", str(BOUND_S))


def _finding(relay: RelayProcess, spec: str) -> socket.socket:
    """A game's open asking the unit to find `spec` on the venue, sent and not yet answered."""
    from appliance.linked.relay_client import VERSION

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    sock.connect(str(relay.path))
    sock.sendall(b"O" + json.dumps({"v": VERSION, "find": spec, "offer": offer("classic", {}, [2], 2)}).encode())
    return sock


def test_a_find_through_the_link_unit_pairs_and_the_offer_comes_down(broker: Broker, tmp_path: Path) -> None:
    relay = _relay(broker, tmp_path, "table-2")
    one = _link(broker, "table-1")
    leader = Peer.listen(0, offer("classic", {}, [1], 2, "table-1"), host="127.0.0.1")
    joiner = None
    try:
        one.offer(leader.offer, leader.port, timeout=BOUND_S)
        joiner = Peer.through(relay.path, {"find": "venue"}, offer("classic", {}, [2], 2, "table-2"))
        assert joiner.sock.where == f"table-1 (127.0.0.1:{leader.port}, through the venue)"  # type: ignore[attr-defined]
        assert leader.wait_for(lambda p: p.up, BOUND_S) and joiner.wait_for(lambda p: p.up, BOUND_S)
        assert broker.wait_for_log("as table-2-linked")  # its own client id, beside the uplink's
    finally:
        for peer in (leader, joiner):
            if peer is not None:
                peer.close()
        one.close()
        relay.stop()


def test_a_find_under_way_holds_up_none_of_the_units_other_links_and_a_broker_gone_is_said(
        broker: Broker, tmp_path: Path) -> None:
    from appliance.linked import wire
    from appliance.linked.relay_client import MAX_PACKET, RelayError, RelaySocket

    relay = _relay(broker, tmp_path, "table-2")
    try:
        waiting = _finding(relay, "venue:table-3")  # never offered: it looks until told otherwise
        assert broker.wait_for_log("as table-2-linked")  # the unit's client is on the broker: looking
        other = RelaySocket(relay.path, {"listen": 0})  # another link through the same unit, meanwhile
        other.settimeout(BOUND_S)
        ours = wire.Link(7).message(wire.PING, {"t1": 1}, 0)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as peer:
            peer.sendto(ours, ("127.0.0.1", other.port))
            assert other.recvfrom(wire.MAX_DATAGRAM + 1)[0] == ours
        assert select.select([waiting], [], [], 0)[0] == []  # the find: still under way, unanswered
        broker.stop()  # the broker goes while the unit looks: the find ends at once, saying so
        assert select.select([waiting], [], [], BOUND_S)[0] == [waiting]
        reply = json.loads(waiting.recv(MAX_PACKET)[1:])
        assert "venue's broker at localhost:" in reply["error"] and "went away" in reply["error"]
        waiting.close()
        with pytest.raises(RelayError, match=r"the venue.s broker at localhost:.*(refused|Errno)"):  # gone before
            RelaySocket(relay.path, {"find": "venue", "offer": offer("classic", {}, [2], 2)}, timeout=BOUND_S)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as peer:  # and the other link carried on
            peer.sendto(ours, ("127.0.0.1", other.port))
            assert other.recvfrom(wire.MAX_DATAGRAM + 1)[0] == ours
        other.close()
    finally:
        err = relay.stop()
    assert "went away" in err, err


# --- a cabinet whose [link] says join = "venue": the screen first, the find tried again until it pairs

def _frames_until(h, done, leader) -> bool:  # type: ignore[no-untyped-def]
    """Frames on the real clock (both tables' peers read it), the leader's table ticked beside them;
    between frames, a bounded wait for the link's datagrams (never a sleep)."""
    for _ in range(5000):
        h.now_ns = time.monotonic_ns()
        h.runner.frame([], h.now_ns)
        leader.tick(time.monotonic_ns())
        if done():
            return True
        leader.peer.wait_for(lambda _: False, 0.002)
    return done()


@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
def test_a_cabinet_joining_on_the_venue_opens_its_screen_first_and_pairs_on_a_later_try(
        broker: Broker, tmp_path: Path, layout: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from headless import Harness

    from appliance.display.app import open_link, parse_args
    from appliance.display.scenes.base import make
    from appliance.display.scenes.play import PlayScene
    from appliance.linked import finding
    from appliance.linked.finding import Finding
    from appliance.linked.game import LinkedTable
    from appliance.shared.settings import Settings

    monkeypatch.setattr(finding, "RETRY_S", 0.05)
    relay = RelayProcess(tmp_path / "table-2.sock", "--venue", str(broker.credential("table-2") / "venue.toml"),
                         "--find-s", "1")  # a short try: the first ends with nothing offered
    settings = Settings(layout=layout, link={"join": "venue"})
    table, where = open_link(parse_args(["--link-relay", str(relay.path)]), settings, None)  # returns at once
    h = Harness((960, 540), layout)
    leader = one = None
    try:
        assert isinstance(table, Finding) and where == "venue"
        h.runner.apply_scene(make("linked_wait", h.ctx, table, where))
        h.frame()  # the first frame: drawn before anything is offered, so before the find can end
        lines = [line.words for line in h.scene.captions()[0].lines]  # type: ignore[attr-defined]
        assert lines == ["Waiting for the other cabinet", "Looking for a game on the venue",
                         "Escape: back to the title"]
        assert table.wait_for(lambda f: f.tries >= 1, BOUND_S)  # a try ended: nothing offered
        assert table.table is None and "no linked game offered" in table.said and not table.refusal
        leader_peer = Peer.listen(0, offer("classic", {}, [1], 2, "table-1"), host="127.0.0.1")
        leader = LinkedTable(leader_peer, [1], "classic", start_delay_ns=100_000_000)
        one = _link(broker, "table-1")
        one.offer(leader_peer.offer, leader_peer.port, timeout=BOUND_S)  # the other cabinet comes up late
        assert table.wait_for(lambda f: f.table is not None, BOUND_S)  # a later try pairs
        assert table.tries >= 1 and table.where == f"table-1 (127.0.0.1:{leader_peer.port}, through the venue)"
        assert _frames_until(h, lambda: isinstance(h.scene, PlayScene), leader)
        assert h.scene.match is table.match  # type: ignore[attr-defined]
        assert _frames_until(h, lambda: leader.state == table.state == "playing", leader)  # both play one game
    finally:
        table.close()
        if leader is not None:
            leader.close()
        if one is not None:
            one.close()
        relay.stop()


def test_a_cabinet_joining_on_the_venue_shows_a_game_that_does_not_fit_and_keeps_looking(
        broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from headless import Harness

    from appliance.display.app import open_link, parse_args
    from appliance.display.scenes.base import make
    from appliance.linked import finding
    from appliance.shared.settings import Settings

    monkeypatch.setattr(finding, "RETRY_S", 0.05)
    relay = RelayProcess(tmp_path / "table-2.sock", "--venue", str(broker.credential("table-2") / "venue.toml"),
                         "--find-s", "1")
    one = _link(broker, "table-1")
    one.offer(offer("speed", {}, [1], 2, "table-1"), 7000, timeout=BOUND_S)
    table, where = open_link(parse_args(["--link-relay", str(relay.path)]), Settings(link={"join": "venue"}), None)
    h = Harness((960, 540))
    try:
        h.runner.apply_scene(make("linked_wait", h.ctx, table, where))
        assert table.wait_for(lambda f: f.tries >= 2, BOUND_S)  # refused, and tried again
        h.frame()
        lines = [line.words for line in h.scene.captions()[0].lines]  # type: ignore[attr-defined]
        assert lines == ["The linked game cannot start",
                         "table-1: the other cabinet is set for 'speed', this one for 'classic'",
                         "Still looking for a game on the venue", "Escape: back to the title"]
    finally:
        table.close()
        one.close()
        relay.stop()


# --- leaving the wait while a find is under way: called off at once, on the desktop and in the unit


def unanswered_find(ended: list[BaseException], find: Callable[[Any], object]) -> Callable[[Any], tuple[object, str]]:
    """One try of a find that nobody answers, for a Finding: it must end in an OSError (kept in `ended`,
    then raised on), never with a game."""

    def find_once(cancel: Any) -> tuple[object, str]:
        try:
            find(cancel)
        except OSError as error:
            ended.append(error)
            raise
        raise AssertionError("found a game nobody offered")

    return find_once


def test_leaving_calls_a_find_on_the_venue_off_at_once(broker: Broker, monkeypatch: pytest.MonkeyPatch) -> None:
    """A desktop's find (venue.py's, on the finding's thread) waiting for an offer that never comes:
    the players leave, and the find ends at once (Cancelled), its client gone from the broker,
    nothing accepted; the find itself would have waited 600 s."""
    import threading

    from appliance.linked import venue
    from appliance.linked.finding import Cancelled, Finding
    from appliance.linked.venue import find_on_venue

    looking = threading.Event()
    find = venue.VenueLink.find

    def find_and_say(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        looking.set()  # (connected: the wait for an offer begins)
        return find(self, *args, **kwargs)

    monkeypatch.setattr(venue.VenueLink, "find", find_and_say)

    cred = broker.credential("table-2")
    settings = VenueSettings("localhost", broker.port, "table-2", cred / "ca.crt", cred / "cabinet.crt",
                             cred / "cabinet.key")
    ended: list[BaseException] = []
    find_once = unanswered_find(
        ended, lambda cancel: find_on_venue("venue:table-3", offer("classic", {}, [2], 2, "table-2"), settings,
                                            600.0, cancel))
    table = Finding(find_once)
    try:
        assert looking.wait(BOUND_S)  # on the broker: looking for an offer
        table.close()  # Escape: never waits
        assert table.wait_for(lambda f: f.done, BOUND_S)
        assert len(ended) == 1 and isinstance(ended[0], Cancelled) and table.tries == 0
        assert broker.wait_for_log("Client table-2-linked disconnected")
        assert '"accepts"' not in broker.log_text()
    finally:
        table.close()


def test_leaving_calls_a_find_in_the_link_unit_off_at_once(broker: Broker, tmp_path: Path) -> None:
    """A cabinet's find, done by its link unit (a find of up to 600 s here): the players leave, the
    game's open ends at once, and the unit, seeing the game's end go, calls its own find off."""
    from appliance.linked.finding import Finding

    relay = RelayProcess(tmp_path / "table-2.sock", "--venue", str(broker.credential("table-2") / "venue.toml"),
                         "--find-s", "600")
    ended: list[BaseException] = []
    find_once = unanswered_find(
        ended, lambda cancel: Peer.through(relay.path, {"find": "venue:table-3"},
                                           offer("classic", {}, [2], 2, "table-2"), cancel=cancel))
    table = Finding(find_once)
    try:
        assert broker.wait_for_log("as table-2-linked")  # the unit's client on the broker: looking
        table.close()
        assert table.wait_for(lambda f: f.done, BOUND_S)
        assert len(ended) == 1 and "called off" in str(ended[0])
        assert broker.wait_for_log("Client table-2-linked disconnected")  # the unit's find, called off too
    finally:
        table.close()
        relay.stop()
