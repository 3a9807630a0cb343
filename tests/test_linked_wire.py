"""The linked cabinets' datagrams: nothing lost, nothing delivered twice, through loss, duplicates and
reordering (a channel in the test's hands: no sockets, no clock)."""

from __future__ import annotations

import random
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.linked import wire


def test_a_datagram_round_trips_and_each_check_refuses_damage() -> None:
    link = wire.Link(7)
    data = link.message(wire.PRESS, {"g": 1, "t": 0.25, "player": 2, "press": "left"}, 0)
    got = wire.decode(data)
    assert (got.kind, got.session, got.seq, got.body["press"]) == (wire.PRESS, 7, 1, "left")
    with pytest.raises(wire.WireError, match="crc"):
        wire.decode(data[:-5] + bytes([data[-5] ^ 1]) + data[-4:])
    with pytest.raises(wire.WireError, match="magic"):
        wire.decode(b"XX" + data[2:])
    with pytest.raises(wire.WireError, match="length"):
        wire.decode(data[:10])
    head = wire.HEADER.pack(wire.MAGIC, wire.VERSION + 1, wire.PRESS, 7, 1, 1, 0, 0)
    with pytest.raises(wire.WireError, match="version"):
        wire.decode(head + struct.pack("<I", zlib.crc32(head)))
    head = wire.HEADER.pack(wire.MAGIC, wire.VERSION, wire.PRESS, 7, 1, 1, 0, 0) + b"[1]"
    head += wire.tag(wire.NO_WORD, head)
    with pytest.raises(wire.WireError, match="json"):
        wire.decode(head + struct.pack("<I", zlib.crc32(head)))
    with pytest.raises(ValueError, match="over"):
        link.message(wire.PRESS, {"x": "y" * 2000}, 0)


def test_a_datagram_tagged_with_another_word_is_refused_as_such_and_a_forged_one_too() -> None:
    """The tag is the link word's: a datagram of a cabinet with another word (or none, against one
    with a word) is refused as "word", its CRC whole; so is one whose body was changed on the way and
    its CRC made good again (a forged press), and one with no tag at all (version 1's layout)."""
    ours, theirs, none = wire.key("bar-7 Ahorn"), wire.key("bar-7 ahorn"), wire.key("")
    assert none == wire.NO_WORD and len({ours, theirs, none}) == 3
    data = wire.Link(7, key_=ours).message(wire.PRESS, {"g": 1, "t": 0.25, "player": 2, "press": "left"}, 0)
    assert wire.decode(data, ours).body["player"] == 2
    for key in (theirs, none):
        with pytest.raises(wire.WireError, match="word"):
            wire.decode(data, key)
    forged = data[:-4].replace(b'"player":2', b'"player":1')
    with pytest.raises(wire.WireError, match="word"):
        wire.decode(forged + struct.pack("<I", zlib.crc32(forged)), ours)
    b = wire.Link(8, key_=theirs)
    with pytest.raises(wire.WireError, match="word"):
        b.receive(data, 0)
    assert b.counters.bad == {"word": 1} and b.counters.received == 0
    old = wire.old_hello(9, {"protocol": 2, "game": "0.9"})
    with pytest.raises(wire.WireError, match="version"):
        wire.decode(old)
    assert wire.other_version(old) == (1, {"protocol": 2, "game": "0.9"})
    assert wire.other_version(data) is None and wire.other_version(b"SL" + bytes(40)) is None


def _exchange(seed: int, loss: float, dup: float, messages: int) -> tuple[list[int], wire.Link, wire.Link]:
    """`messages` reliable messages from a to b over a channel that loses, duplicates and reorders
    (a random pick of what is in flight goes next), both ways; the clock moves 5 ms a step."""
    rng = random.Random(seed)
    a, b = wire.Link(1, rto_ns=40_000_000), wire.Link(2, rto_ns=40_000_000)
    air: list[tuple[wire.Link, bytes]] = []  # (to, datagram)
    got: list[int] = []
    now = 0
    sent = 0

    def put(to: wire.Link, datagrams: list[bytes]) -> None:
        for data in datagrams:
            if rng.random() < loss:
                continue
            air.append((to, data))
            if rng.random() < dup:
                air.append((to, data))

    for _ in range(100_000):
        now += 5_000_000
        if sent < messages and rng.random() < 0.5:
            put(b, [a.message(wire.PRESS, {"n": sent}, now)])
            sent += 1
        put(b, [a.message(wire.BEAT, {"w": now}, now)])
        put(b, a.due(now))
        put(a, b.due(now))
        for _ in range(min(len(air), rng.randint(0, 4))):
            to, data = air.pop(rng.randrange(len(air)))
            delivered, back = to.receive(data, now)
            got += [d.body["n"] for d in delivered if d.kind == wire.PRESS]
            put(a if to is b else b, back)
        if sent == messages and not a.in_flight and not air:
            break
    return got, a, b


@pytest.mark.parametrize("loss,dup", [(0.0, 0.0), (0.2, 0.1), (0.5, 0.3)])
def test_every_message_arrives_once_through_loss_duplicates_and_reordering(loss: float, dup: float) -> None:
    got, a, b = _exchange(3, loss, dup, 300)
    assert sorted(got) == list(range(300))  # each exactly once
    assert a.in_flight == 0  # and the sender knows
    if loss:
        assert a.counters.resent > 0
    if dup:
        assert b.counters.duplicates > 0
    assert got != sorted(got) or loss == 0  # reordered on the way, and delivered as it came


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.0, 0.6), st.floats(0.0, 0.5))
def test_exactly_once_whatever_the_channel_does(seed: int, loss: float, dup: float) -> None:
    got, _, _ = _exchange(seed, loss, dup, 60)
    assert sorted(got) == list(range(60))


def test_a_gap_is_acknowledged_at_once_and_the_sender_resends_it_without_waiting() -> None:
    a, b = wire.Link(1, rto_ns=10**12), wire.Link(2)
    first = a.message(wire.PRESS, {"n": 0}, 0)
    second = a.message(wire.PRESS, {"n": 1}, 0)
    assert first  # lost
    delivered, back = b.receive(second, 1)
    assert [d.body["n"] for d in delivered] == [1]
    _, resends = a.receive(back[0], 2 * 10**12)  # the sack says 2 came and 1 did not
    assert [wire.decode(r).body["n"] for r in resends] == [0]
    delivered, _ = b.receive(resends[0], 3)
    assert [d.body["n"] for d in delivered] == [0]


def test_a_receiver_without_room_leaves_the_message_unacknowledged_so_it_comes_again() -> None:
    a, b = wire.Link(1, rto_ns=1), wire.Link(2)
    data = a.message(wire.PRESS, {"n": 0}, 0)
    assert b.receive(data, 0, room=False)[0] == []
    resent = a.due(5)
    delivered, back = b.receive(resent[0], 6)
    assert [d.body["n"] for d in delivered] == [0]
    a.receive(back[0], 7)
    assert a.in_flight == 0


def test_a_restarted_peer_is_a_new_session_and_old_datagrams_are_dropped() -> None:
    a, b = wire.Link(1), wire.Link(2)
    b.receive(a.message(wire.PRESS, {"n": 0}, 0), 0)
    old = a.message(wire.PRESS, {"n": 1}, 0)
    a2 = wire.Link(3)
    delivered, _ = b.receive(a2.message(wire.HELLO, {"protocol": 1}, 0), 0)
    assert [d.kind for d in delivered] == [wire.HELLO]
    assert b.receive(old, 0)[0] == []
    assert b.counters.stale_session == 1


def test_a_window_of_unacknowledged_messages_is_the_most_a_silent_peer_can_cost() -> None:
    a = wire.Link(1)
    for n in range(wire.MAX_WINDOW):
        a.message(wire.PRESS, {"n": n}, 0)
    with pytest.raises(OverflowError, match="not answering"):
        a.message(wire.PRESS, {"n": -1}, 0)


def test_once_paired_every_datagram_but_the_hello_is_keyed_by_the_pairing() -> None:
    """A link with a datagram key tags everything but its hello with it and takes nothing else: a
    datagram under the word's key alone (all a stranger has) is refused as "tag". A hello stays
    under the word's key, and a paired link takes from one only the hello: its acknowledgement is
    not read, and another hello of the same session is refused ("hello")."""
    from appliance.linked import pairing

    word = wire.key("")
    secret = pairing.combine(b"a" * 16, b"b" * 16, word)
    keyed = pairing.datagram_key(secret, word)
    assert keyed not in (secret, word) and keyed != pairing.datagram_key(secret, wire.key("Ahorn 7"))
    a, b = wire.Link(1, data_key=keyed), wire.Link(2, data_key=keyed)
    stranger = wire.Link(2)  # b's session and numbers, the word's key only
    hello = b.message(wire.HELLO, {"offer": 1}, 0)
    assert wire.decode(hello, word).kind == wire.HELLO  # (the word's key: the other may not be paired yet)
    delivered, _ = a.receive(hello, 0)
    assert [d.kind for d in delivered] == [wire.HELLO]
    press = a.message(wire.PRESS, {"n": 1}, 0)
    assert wire.decode(press, word, keyed).body == {"n": 1}
    with pytest.raises(wire.WireError, match="tag"):  # another pairing's
        wire.decode(press, word, pairing.datagram_key(b"x" * 32, word))
    stranger._next_seq = 2
    for forged in (stranger.message(wire.PRESS, {"n": 2}, 0), stranger.ack_datagram(),
                   stranger.message(wire.BYE, {}, 0)):
        with pytest.raises(wire.WireError, match="tag"):
            a.receive(forged, 0)
    stranger._ack = 5  # a hello of b's session acknowledging everything: a new number, refused
    with pytest.raises(wire.WireError, match="hello"):
        a.receive(stranger.message(wire.HELLO, {"offer": 2}, 0), 0)
    assert a.in_flight == 1 and a.counters.bad == {"tag": 3, "hello": 1}
    stranger = wire.Link(2)  # b's own hello again (a resend): a duplicate, its acknowledgement not read
    stranger._ack = 5
    assert a.receive(stranger.message(wire.HELLO, {"offer": 1}, 0), 0)[0] == [] and a.in_flight == 1
    delivered, _ = b.receive(press, 0)
    assert [d.body for d in delivered] == [{"n": 1}]
    assert a.receive(b.ack_datagram(), 0) == ([], []) and a.in_flight == 0


def test_a_hello_of_the_version_before_is_read_under_the_word_and_answered_in_its_layout() -> None:
    ours = wire.key("bar-7 Ahorn")
    old = wire.old_hello(9, {"protocol": 3}, version=2, key_=ours)
    with pytest.raises(wire.WireError, match="version"):
        wire.decode(old, ours)
    assert wire.other_version(old, ours) == (2, {"protocol": 3})
    assert wire.other_version(old, wire.key("bar-7 ahorn")) is None  # another word: not the one to name
    assert wire.other_version(wire.old_hello(9, {"protocol": 2}), ours) is None  # version 1: it had no word
