"""Two cabinets' links over loopback UDP, through an in-process relay that loses, duplicates and
reorders: the hello and its refusals, the clock sync, every message once, strangers and floods.
Nothing sleeps: each wait is on the peer's condition, with a bound."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from appliance.linked import wire
from appliance.linked.peer import Peer, check_offer, offer
from lab.linked_relay import Impairment, Relay

WAIT = 10.0


def _offers(variant: str = "classic", other: str = "classic") -> tuple[dict, dict]:
    return offer(variant, {}, [1], 2, "a"), offer(other, {}, [2], 2, "b")


@pytest.fixture
def relayed() -> Iterator[tuple[Peer, Peer, Relay]]:
    mine, theirs = _offers()
    leader = Peer.listen(0, mine, host="127.0.0.1")
    relay = Relay(("127.0.0.1", 0), ("127.0.0.1", leader.port), Impairment(0, 2, loss=0.2, duplicate=0.1)).start()
    joiner = Peer.connect("127.0.0.1", relay.port, theirs)
    yield leader, joiner, relay
    joiner.close()
    leader.close()
    relay.stop()


def _pump_until(peers: tuple[Peer, ...], done, timeout: float = WAIT) -> bool:  # type: ignore[no-untyped-def]
    """Tick both peers (pings, resends) until `done()`; each wait is on a peer's condition."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for peer in peers:
            peer.tick(peer.clock())
        if done():
            return True
        peers[0].wait_for(lambda _: done(), 0.01)
    return done()


def test_two_cabinets_pair_sync_and_carry_every_press_once_through_a_lossy_relay(relayed) -> None:  # type: ignore[no-untyped-def]
    leader, joiner, _ = relayed
    assert _pump_until((leader, joiner), lambda: leader.up and joiner.up and joiner.sync.synced)
    # one machine, one clock: the offset is about 0, within its bound
    assert abs(joiner.sync.offset_ns) <= joiner.sync.error_bound_ns(joiner.clock())
    got: list[int] = []
    for n in range(200):
        joiner.send(wire.PRESS, {"g": 1, "n": n})

    def all_in() -> bool:
        got.extend(d.body["n"] for d in leader.messages() if d.kind == wire.PRESS)
        return len(got) >= 200 and joiner.link.in_flight == 0

    assert _pump_until((leader, joiner), all_in)
    assert sorted(got) == list(range(200))
    assert joiner.link.counters.resent > 0 and leader.link.counters.duplicates >= 0


def test_another_variant_is_refused_on_both_screens_with_the_reason() -> None:
    mine, theirs = _offers("classic", "speed")
    leader = Peer.listen(0, mine, host="127.0.0.1")
    joiner = Peer.connect("127.0.0.1", leader.port, theirs)
    try:
        assert _pump_until((leader, joiner), lambda: leader.state.startswith("refused")
                           and joiner.state.startswith("refused"))
        assert "'speed'" in leader.state and "'classic'" in leader.state
        assert "'speed'" in joiner.state and "'classic'" in joiner.state  # in its own words or the leader's
    finally:
        joiner.close()
        leader.close()


@pytest.mark.parametrize("change,words", [
    ({"protocol": 99}, "linked protocol 99"),
    ({"game": "0.0.1"}, "Spit Arcade '0.0.1'"),
    ({"options": {"decks": 2}}, "house rules differ (decks)"),
    ({"seats": [1]}, "both cabinets want seat 1"),
    ({"seats": [3]}, "seats [2] have nobody"),
    ({"seats": "x"}, "named no seats"),
])
def test_every_mismatch_has_its_sentence(change: dict, words: str) -> None:
    mine, theirs = _offers()
    why = check_offer(mine, {**theirs, **change})
    assert why is not None and words in why
    assert check_offer(mine, theirs) is None


def test_a_stranger_and_garbage_are_dropped_and_counted() -> None:
    mine, theirs = _offers()
    leader = Peer.listen(0, mine, host="127.0.0.1")
    joiner = Peer.connect("127.0.0.1", leader.port, theirs)
    stranger = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        assert _pump_until((leader, joiner), lambda: leader.up and joiner.up)
        assert [d.kind for d in leader.messages()] == [wire.HELLO]  # the game learns of the pairing
        for _ in range(50):  # paired: the socket is connected, the kernel drops a stranger's datagrams
            stranger.sendto(b"\x00" * 64, ("127.0.0.1", leader.port))
        # garbage from the paired address itself: each refused by a check, none delivered
        for n in range(5000):
            joiner.sock.sendto(b"SL" + bytes([n % 256]) * 60, ("127.0.0.1", leader.port))
        assert leader.wait_for(lambda p: sum(p.link.counters.bad.values()) >= 100, WAIT)
        assert leader.messages() == []
        assert leader.up and leader.strangers == 0
    finally:
        stranger.close()
        joiner.close()
        leader.close()


def test_a_pulled_cable_loses_nothing_once_it_is_back(relayed) -> None:  # type: ignore[no-untyped-def]
    leader, joiner, relay = relayed
    assert _pump_until((leader, joiner), lambda: leader.up and joiner.up)
    relay.cut = True
    for n in range(20):
        leader.send(wire.PRESS, {"n": n})
    for peer in (leader, joiner):
        peer.tick(peer.clock())
    assert leader.link.in_flight >= 20  # (its hello may be unacknowledged too)
    relay.cut = False
    got: list[int] = []

    def all_in() -> bool:
        got.extend(d.body["n"] for d in joiner.messages() if d.kind == wire.PRESS)
        return len(got) >= 20 and leader.link.in_flight == 0

    assert _pump_until((leader, joiner), all_in)
    assert sorted(got) == list(range(20))
