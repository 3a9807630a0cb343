import random

from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.inputs import protocol as p

MESSAGES = [
    (p.HELLO, (0xDEADBEEF, 2, 3, 65535, 65534)),
    (p.EDGE, (65535, 4_000_000_000, 6, 1)),
    (p.HEARTBEAT, (0xDEADBEEF, 12345, 7, 8)),
    (p.PONG, (9, 1, 2)),
    (p.HOST_HELLO, ()),
    (p.PING, (300,)),
    (p.ACK, (0xDEADBEEF, 65535)),
    (p.NACK, (0xDEADBEEF, 65535, 2)),
]


def test_crc_check_value():
    assert p.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_has_no_zeros(data):
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


def test_every_message_type_is_in_the_list_above():
    assert {kind for kind, _ in MESSAGES} == set(p.BODIES) == set(p.NAMES)


def test_every_message_round_trips_and_fits():
    decoder = p.FrameDecoder()
    stream = b"".join(p.encode(kind, seq, *fields) for seq, (kind, fields) in enumerate(MESSAGES))
    out = decoder.feed(stream)
    assert out == [(kind, seq, fields) for seq, (kind, fields) in enumerate(MESSAGES)]
    assert decoder.errors() == 0 and decoder.garbage == 0
    assert all(len(p.encode(kind, 0, *fields)) <= p.MAX_ENCODED + 1 for kind, fields in MESSAGES)


def test_frames_survive_byte_at_a_time_delivery_and_garbage_around_them():
    frame = p.encode(p.EDGE, 5, 1, 1000, 6, 1)
    decoder = p.FrameDecoder()
    out = []
    for byte in b"\x13\x37junk\x00" + frame + b"\xff\xfe" + frame:
        out += decoder.feed(bytes([byte]))
    # the junk before the first frame is one bad frame; "\xff\xfe" glues onto the second and spoils it
    assert [m[0] for m in out] == [p.EDGE]
    assert decoder.garbage > 0 and decoder.errors() == 2


def test_a_corrupted_frame_is_counted_not_raised():
    frame = bytearray(p.encode(p.PING, 1, 77))
    frame[3] ^= 0x01
    decoder = p.FrameDecoder()
    assert decoder.feed(bytes(frame)) == []
    assert decoder.bad_crc + decoder.bad_cobs == 1


def test_wrong_version_and_unknown_type_and_bad_length_are_counted():
    def raw(payload: bytes) -> bytes:
        crc = p.crc16(payload)
        return p.cobs_encode(payload + bytes((crc & 0xFF, crc >> 8))) + b"\x00"

    decoder = p.FrameDecoder()
    assert decoder.feed(raw(bytes([9, p.PING, 0, 0, 1, 0]))) == []
    assert decoder.feed(raw(bytes([p.VERSION, 0x55, 0, 0]))) == []
    assert decoder.feed(raw(bytes([p.VERSION, p.PING, 0, 0, 1]))) == []
    assert (decoder.bad_version, decoder.unknown, decoder.bad_length) == (1, 1, 1)


def test_oversize_frames_are_bounded_and_the_next_frame_still_decodes():
    decoder = p.FrameDecoder()
    good = p.encode(p.ACK, 1, 7, 2)
    assert decoder.feed(b"\x01" * 100_000 + b"\x00" + good) == [(p.ACK, 1, (7, 2))]
    assert decoder.oversize == 100_000 // p.MAX_ENCODED  # a bad frame's worth for every MAX_ENCODED bytes
    assert len(decoder._buf) == 0


@settings(max_examples=300)
@given(st.binary(max_size=400), st.integers(1, 40))
def test_any_bytes_give_frames_or_counted_errors(data, chunk):
    decoder = p.FrameDecoder()
    good = p.encode(p.HEARTBEAT, 3, 5, 99, 1, 2)
    out = []
    stream = data + b"\x00" + good
    for i in range(0, len(stream), chunk):
        out += decoder.feed(stream[i : i + chunk])
    assert out[-1] == (p.HEARTBEAT, 3, (5, 99, 1, 2))  # a clean frame after a 0x00 always gets through
    assert decoder.frames == len(out)
    assert all(m[0] in p.BODIES for m in out)
    assert len(decoder._buf) <= p.MAX_ENCODED


def test_a_long_random_byte_run_never_raises_and_recovers():
    rng = random.Random(5)
    decoder = p.FrameDecoder()
    for _ in range(200):
        decoder.feed(bytes(rng.getrandbits(8) for _ in range(5_000)))
    assert decoder.garbage > 900_000
    assert decoder.feed(b"\x00" + p.encode(p.PING, 8, 1)) == [(p.PING, 8, (1,))]


def test_wrapping_arithmetic():
    assert p.us_diff(5, p.US_WRAP - 5) == 10
    assert p.us_diff(p.US_WRAP - 5, 5) == -10
    assert p.seq_after(1, 65535) and not p.seq_after(65535, 1) and not p.seq_after(4, 4)
    assert p.seq_in(0, 65534, 2) and p.seq_in(2, 65534, 2) and p.seq_in(7, 7, 7)
    assert not p.seq_in(3, 65534, 2) and not p.seq_in(65533, 65534, 2) and not p.seq_in(1, 3, 2)


def messages(data: bytes) -> list:
    return p.FrameDecoder().feed(data)


def test_the_pad_numbers_its_edges_and_follows_each_with_a_heartbeat():
    pad = p.PadLink(boot_id=9, pad_id=2, inputs=3)
    assert messages(pad.hello()) == [(p.HELLO, 0, (9, 2, 3, 1, 0))]  # nothing held: first_kept = last + 1
    out = messages(pad.edge(1000, 6, 1))
    assert out == [(p.EDGE, 1, (1, 1000, 6, 1)), (p.HEARTBEAT, 2, (9, 1000, 1, 1))]
    pad.edge(2000, 6, 0)
    assert [e[0] for e in pad.unacked] == [1, 2]


def test_the_pad_drops_what_is_acked_and_resends_what_is_asked_for():
    pad = p.PadLink(boot_id=9, pad_id=2, inputs=3)
    for n in range(5):
        pad.edge(1000 * n, 7, n % 2)
    assert pad.handle((p.ACK, 0, (8, 5)), 0, lambda: 0) == b""  # another boot's ACK: ignored
    assert len(pad.unacked) == 5
    pad.handle((p.ACK, 0, (9, 2)), 0, lambda: 0)
    assert [e[0] for e in pad.unacked] == [3, 4, 5]
    out = messages(pad.handle((p.NACK, 0, (9, 4, 5)), 0, lambda: 77))
    assert [(m[0], m[2][0] if m[0] == p.EDGE else m[2]) for m in out] == [
        (p.HEARTBEAT, (9, 77, 5, 3)),
        (p.EDGE, 4),
        (p.EDGE, 5),
    ]
    out = messages(pad.handle((p.HOST_HELLO, 0, ()), 0, lambda: 0))
    assert [m[0] for m in out] == [p.HELLO, p.EDGE, p.EDGE, p.EDGE]
    assert out[0][2] == (9, 2, 3, 3, 5)
    ((kind, _seq, fields),) = messages(pad.handle((p.PING, 0, (4,)), 11, lambda: 12))
    assert (kind, fields) == (p.PONG, (4, 11, 12))


def test_the_pad_reports_edges_its_buffer_dropped():
    pad = p.PadLink(boot_id=1, pad_id=1, inputs=3, keep=4)
    for n in range(10):
        pad.edge(n, 0, n % 2)
    assert pad.first_kept() == 7 and pad.dropped == 6
    out = messages(pad.handle((p.NACK, 0, (1, 1, 10)), 0, lambda: 50))
    assert out[0] == (p.HEARTBEAT, out[0][1], (1, 50, 10, 7))
    assert [m[2][0] for m in out[1:]] == [7, 8, 9, 10]


def test_a_heartbeat_never_goes_back_in_pad_time():
    pad = p.PadLink(boot_id=1, pad_id=1, inputs=3)
    pad.heartbeat(5_000)
    (_, beat) = messages(pad.edge(4_000, 0, 1))  # an edge stamped before the last heartbeat
    assert beat[2][1] == 5_000


def test_the_wire_control_codes_name_every_control_the_program_knows() -> None:
    # protocol.py keeps its own literal list (the Pico firmware runs it and can't import the rules
    # core); the codes are a wire format, so this pins them to the program's controls.
    from appliance.inputs.press import ALL_CONTROLS

    assert set(p.CONTROL_CODES) == set(ALL_CONTROLS)
    assert len(p.CONTROL_CODES) == len(set(p.CONTROL_CODES))


def test_the_coin_is_the_newest_wire_code_so_older_codes_keep_their_numbers() -> None:
    assert p.CONTROL_CODES.index("coin") == 14 == len(p.CONTROL_CODES) - 1
    assert p.CONTROL_CODES[:14] == (
        "pile1", "pile2", "pile3", "pile4", "pile5", "pile6", "left", "right", "spit", "start", "service",
        "far_left", "far_right", "slap",
    )  # fmt: skip


class ByteAtATime(p.FrameDecoder):
    """The decoder as it was, one byte at a time: the run-by-run `feed` must agree with it exactly."""

    def feed(self, data):
        out = []
        for byte in data:
            if byte != 0:
                if self._skipping:
                    self.garbage += 1
                    self._skipped += 1
                    if self._skipped >= p.MAX_ENCODED:
                        self.oversize += 1
                        self._skipped = 0
                elif len(self._buf) >= p.MAX_ENCODED:
                    self.oversize += 1
                    self.garbage += len(self._buf) + 1
                    self._buf = bytearray()
                    self._skipping = True
                    self._skipped = 0
                else:
                    self._buf.append(byte)
                continue
            if self._skipping:
                self._skipping = False
                continue
            if self._buf:
                message = self._frame(bytes(self._buf))
                self._buf = bytearray()
                if message is not None:
                    out.append(message)
        return out


@st.composite
def lines(draw):
    """Good frames, noise with and without zeros, runs of one byte around MAX_ENCODED long."""
    parts = []
    for _ in range(draw(st.integers(0, 12))):
        what = draw(st.integers(0, 3))
        if what == 0:
            kind, fields = draw(st.sampled_from(MESSAGES))
            parts.append(p.encode(kind, draw(st.integers(0, 65535)), *fields))
        elif what == 1:
            parts.append(draw(st.binary(max_size=300)))
        elif what == 2:
            length = draw(st.integers(p.MAX_ENCODED - 2, 3 * p.MAX_ENCODED + 2))
            parts.append(bytes([draw(st.integers(1, 255))]) * length)
        else:
            parts.append(b"\x00" * draw(st.integers(1, 3)))
    return b"".join(parts)


@settings(max_examples=300)
@given(line=lines(), cuts=st.lists(st.integers(0, 2000), max_size=8))
def test_reading_run_by_run_decodes_and_counts_exactly_as_byte_by_byte(line, cuts):
    ours, reference = p.FrameDecoder(), ByteAtATime()
    bounds = sorted({0, len(line), *(c for c in cuts if c < len(line))})
    got = []
    for n in range(len(bounds) - 1):
        got += ours.feed(line[bounds[n]:bounds[n + 1]])
    assert got == reference.feed(line)
    assert ours.counters() == reference.counters()
    assert (bytes(ours._buf), ours._skipping, ours._skipped) == (bytes(reference._buf), reference._skipping,
                                                                 reference._skipped)
