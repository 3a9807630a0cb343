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


class Skewed:
    """A cabinet's clock that the test moves on (a silence of seconds, without sleeping through it)."""

    def __init__(self) -> None:
        self.skew = 0

    def __call__(self) -> int:
        import time

        return time.monotonic_ns() + self.skew


def test_a_strangers_fitting_hello_after_a_silence_is_refused_and_the_real_cabinets_restart_is_taken(
        tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A pulled cable: the listener hears nothing for REOPEN_NS and takes a hello from a new address
    again. A stranger's hello that fits (the same version, variant and seats: all public) proves
    nothing and is dropped; the other cabinet's own restart, from a new port, proves the pairing's
    secret, kept in its journal directory, and is taken."""
    from appliance.linked import pairing
    from appliance.linked.peer import REOPEN_NS

    mine, theirs = _offers()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    clock = Skewed()
    leader = Peer.listen(0, mine, host="127.0.0.1", clock=clock, keep=tmp_path / "a")
    joiner = Peer.connect("127.0.0.1", leader.port, theirs, keep=tmp_path / "b")
    stranger = back = None
    try:
        assert _pump_until((leader, joiner), lambda: leader.up and joiner.up)
        assert leader.wait_for(lambda p: pairing.load(tmp_path / "a") is not None
                               and pairing.load(tmp_path / "b") is not None, WAIT)
        assert pairing.load(tmp_path / "a") == pairing.load(tmp_path / "b") == leader.secret == joiner.secret
        first = joiner.port
        joiner.close(say_bye=False)  # a power cut: nothing said
        clock.skew += REOPEN_NS + 1  # ... and 1.5 s of silence
        assert leader.wait_for(lambda p: p._reopened, WAIT)
        stranger = Peer.connect("127.0.0.1", leader.port, theirs)  # the same offer: seat 2, this version
        assert _pump_until((leader, stranger), lambda: leader.unproven >= 1)
        assert leader.pairings == 1 and leader.restarts == 0 and leader.address == ("127.0.0.1", first)
        assert [d.kind for d in leader.messages()] == [wire.HELLO]  # the first pairing's, and no other
        assert stranger.state == "connecting" and stranger.their_offer is None  # never answered
        assert leader.status()["unproven"] >= 1
        stranger.close()
        stranger = Peer.connect("127.0.0.1", leader.port, offer("speed", {}, [2], 2, "x"))  # one that does not fit
        assert _pump_until((leader, stranger), lambda: leader.unproven >= 2)
        assert leader.state == "up" and stranger.state == "connecting"  # it cannot refuse the pairing either
        stranger.close()
        back = Peer.connect("127.0.0.1", leader.port, theirs, keep=tmp_path / "b")  # it comes back
        assert back.port != first
        assert _pump_until((leader, back), lambda: leader.pairings == 2 and back.up and leader.up)
        assert leader.restarts == 1 and leader.address == ("127.0.0.1", back.port)
        assert back.secret == leader.secret  # the same pairing goes on
        assert [d.kind for d in leader.messages()] == [wire.HELLO]  # the game learns of the new pairing
    finally:
        for peer in (stranger, back, joiner, leader):
            if peer is not None:
                peer.close(say_bye=False)


def test_a_cabinet_with_a_game_to_resume_takes_only_the_pairing_it_kept(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Bound from its start (an unfinished linked game in its journals): a fitting hello that does
    not prove the kept secret pairs with nothing; one that does, pairs."""
    from appliance.linked import pairing

    monkeypatch.setattr(pairing, "resuming", lambda directory: True)
    pairing.save(tmp_path, b"k" * 32)
    mine, theirs = _offers()
    leader = Peer.listen(0, mine, host="127.0.0.1", keep=tmp_path)
    assert leader.bound
    stranger = Peer.connect("127.0.0.1", leader.port, theirs)
    other = tmp_path / "other"
    other.mkdir()
    pairing.save(other, b"k" * 32)
    real = None
    try:
        assert _pump_until((leader, stranger), lambda: leader.unproven >= 1)
        assert not leader.up and leader.pairings == 0 and leader.address is None
        stranger.close()
        real = Peer.connect("127.0.0.1", leader.port, theirs, keep=other)
        assert _pump_until((leader, real), lambda: leader.up and real.up)
        assert leader.secret == real.secret == b"k" * 32
    finally:
        for peer in (real, stranger, leader):
            if peer is not None:
                peer.close(say_bye=False)


def test_with_a_link_word_only_its_cabinet_pairs_and_a_forged_press_is_refused() -> None:
    """The operator's link word: a cabinet with another word (or none) never pairs, and both say why;
    a press from the paired address whose tag is not the word's (forged) is refused, not delivered."""
    mine, theirs = _offers()
    leader = Peer.listen(0, mine, host="127.0.0.1", word="Ahorn 7")
    wrong = Peer.connect("127.0.0.1", leader.port, theirs, word="Ahorn 8")
    joiner = None
    try:
        assert _pump_until((leader, wrong), lambda: leader.other_word >= 1 and wrong.other_word >= 1)
        assert leader.problem == wrong.problem == "the other table's link word is not this one's"
        assert not leader.up and not wrong.up and leader.pairings == 0
        wrong.close()
        joiner = Peer.connect("127.0.0.1", leader.port, theirs, word="Ahorn 7")
        assert _pump_until((leader, joiner), lambda: leader.up and joiner.up)
        assert leader.messages()[0].kind == wire.HELLO and leader.problem == ""
        forger = wire.Link(joiner.link.session, key_=wire.key("Ahorn 8"))  # its session, not its word
        for n in range(1, 6):
            joiner.sock.sendto(forger.message(wire.PRESS, {"g": 1, "t": 0.5, "player": 1, "press": "left"}, n),
                               ("127.0.0.1", leader.port))
        joiner.send(wire.PRESS, {"g": 1, "t": 0.5, "player": 2, "press": "left"})  # the real one, after
        assert _pump_until((leader, joiner), lambda: joiner.link.in_flight == 0)
        assert [d.body["player"] for d in leader.messages() if d.kind == wire.PRESS] == [2]
        assert leader.link.counters.bad.get("tag", 0) >= 5 and leader.status()["forged"] >= 5
    finally:
        for peer in (joiner, wrong, leader):
            if peer is not None:
                peer.close(say_bye=False)


def test_a_cabinet_of_the_version_before_is_refused_on_both_screens() -> None:
    """A cabinet still speaking wire version 1 (protocol 2): this one names both versions, and
    answers in version 1's layout so that the older one's own checks refuse it in its words."""
    mine, _ = _offers()
    leader = Peer.listen(0, mine, host="127.0.0.1")
    old = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    old.settimeout(WAIT)
    try:
        old.sendto(wire.old_hello(5, {**_offers()[1], "protocol": 2}), ("127.0.0.1", leader.port))
        assert leader.wait_for(lambda p: p.state.startswith("refused"), WAIT)
        assert "linked protocol 2, this one 4" in leader.state
        answer, _ = old.recvfrom(4096)
        said = wire.other_version(answer)
        assert said is not None and said[0] == 1 and said[1] is not None and said[1]["protocol"] == 4
    finally:
        old.close()
        leader.close()


@pytest.mark.parametrize("word", ["", "Ahorn 7"])
def test_a_cabinet_of_the_version_before_the_last_is_refused_on_both_screens(word: str) -> None:
    """A cabinet of wire version 2 (protocol 3, every datagram under the word's key): this one names
    both protocols, and answers with a hello in version 2's layout under the same word's key, which
    the older cabinet reads and refuses in its own words (with a link word too)."""
    mine, theirs = _offers()
    leader = Peer.listen(0, mine, host="127.0.0.1", word=word)
    old = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    old.settimeout(WAIT)
    try:
        hello = wire.old_hello(5, {**theirs, "protocol": 3, "nonce": "00" * 16}, version=2, key_=wire.key(word))
        old.sendto(hello, ("127.0.0.1", leader.port))
        assert leader.wait_for(lambda p: p.state.startswith("refused"), WAIT)
        assert "linked protocol 3, this one 4: update both to the same version" in leader.state
        answer, _ = old.recvfrom(4096)
        said = wire.other_version(answer, wire.key(word))
        assert said is not None and said[0] == 2 and said[1] is not None and said[1]["protocol"] == 4
    finally:
        old.close()
        leader.close()


def _forger(peer: Peer) -> wire.Link:
    """A stranger who knows everything the datagrams show once paired (the sender's session, its
    numbers, the link word: here none), but did not see the two first hellos: not the pairing's secret."""
    forger = wire.Link(peer.link.session)
    forger._next_seq = peer.link.last_sent + 1  # the next number the other would take as new
    return forger


@pytest.mark.parametrize("forged", ["press", "ack", "ping", "pong", "bye", "hello", "old version"])
def test_once_paired_a_forged_datagram_from_the_paired_address_is_dropped_counted_and_the_link_goes_on(
        forged: str) -> None:
    """Every datagram but the hello is tagged with the datagram key, derived from the pairing's secret:
    without a link word, a stranger sending from the paired address and port can forge none of them.
    A press for either seat is not delivered; an acknowledgement does not take away a message the
    other never got; a ping is not answered (nor a pong sampled, which would skew the clock sync); a
    goodbye closes nothing; a second hello of the session, or a datagram of another wire version,
    neither acknowledges nor refuses anything. Each is counted (`forged` in the status), and what the
    real cabinets send next arrives as before."""
    mine, theirs = _offers()
    leader = Peer.listen(0, mine, host="127.0.0.1")
    joiner = Peer.connect("127.0.0.1", leader.port, theirs)
    try:
        assert _pump_until((leader, joiner), lambda: leader.up and joiner.up and joiner.sync.synced)
        assert [d.kind for d in leader.messages()] == [d.kind for d in joiner.messages()] == [wire.HELLO]
        assert _pump_until((leader, joiner), lambda: leader.link.in_flight == joiner.link.in_flight == 0)
        # From now on nobody ticks: no pings, no resends, only what the test sends.
        to_leader, to_joiner = ("127.0.0.1", leader.port), ("127.0.0.1", joiner.port)
        with leader._lock:  # a press of the leader's the joiner never got (lost on the way)
            leader.link.message(wire.PRESS, {"g": 1, "n": "lost"}, leader.clock())
        unacked = leader.link.in_flight
        sampled: list[tuple[int, ...]] = []  # what the joiner's clock sync is given, and what the leader sends
        sent: list[bytes] = []
        sample, send = joiner.sync.add, leader._sendto
        setattr(joiner.sync, "add", lambda *t: (sampled.append(t), sample(*t))[1])  # noqa: B010
        setattr(leader, "_sendto", lambda data: (sent.append(data), send(data))[1])  # noqa: B010
        forger = _forger(joiner)
        forger._ack = leader.link.last_sent  # "every message of the leader's has arrived"
        forger._have = set()
        if forged == "press":
            data = [forger.message(wire.PRESS, {"g": 1, "t": 0.5, "player": seat, "press": "left"}, 0)
                    for seat in (1, 2)]
        elif forged == "ack":
            data = [forger.ack_datagram()]
        elif forged == "ping":
            data = [forger.message(wire.PING, {"t1": 123_456_789}, 0)]
        elif forged == "bye":
            data = [forger.message(wire.BYE, {"why": "left"}, 0)]
        elif forged == "hello":  # the joiner's session, a new number: its tag needs only the word's key
            data = [forger.message(wire.HELLO, {**theirs, "variant": "speed"}, 0)]
        elif forged == "old version":
            data = [wire.old_hello(joiner.link.session, {**theirs, "protocol": 2})]
        if forged == "pong":  # to the joiner, which pings: from the leader's address, a skewed clock
            forger = _forger(leader)
            data = [forger.message(wire.PONG, {"t1": joiner._ping_sent, "t2": 10**15, "t3": 10**15}, 0)]
            for datagram in data:
                leader.sock.sendto(datagram, to_joiner)
            assert joiner.wait_for(lambda p: p.forged >= len(data), WAIT)
        else:
            for datagram in data:
                joiner.sock.sendto(datagram, to_leader)
            assert leader.wait_for(lambda p: p.forged >= len(data), WAIT)
        assert leader.status()["forged"] + joiner.status()["forged"] == len(data)
        assert leader.messages() == [] and joiner.messages() == []  # nothing delivered
        assert leader.link.in_flight == unacked  # nothing acknowledged away
        assert all(t[1] != 10**15 for t in sampled)  # no forged sample
        bodies = [leader.link.decode(d).body for d in sent]
        assert all(b.get("t1") != 123_456_789 for b in bodies)  # no pong to a forged ping
        assert leader.up and joiner.up and leader.their_offer is not None and leader.their_offer["variant"] == "classic"
        # ... and the link goes on: the lost press is resent and arrives, a real press comes across
        joiner.send(wire.PRESS, {"g": 1, "n": "real"})
        got: list[object] = []

        def both_in() -> bool:
            got.extend(d.body.get("n") for d in leader.messages() + joiner.messages() if d.kind == wire.PRESS)
            return len(got) >= 2 and leader.link.in_flight == joiner.link.in_flight == 0

        assert _pump_until((leader, joiner), both_in)
        assert sorted(map(str, got)) == ["lost", "real"]
        assert leader.up and joiner.up
    finally:
        joiner.close(say_bye=False)
        leader.close(say_bye=False)
