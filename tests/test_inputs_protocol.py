import random

from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.inputs import protocol as p

MESSAGES = [
    (p.HELLO, (0xDEADBEEF, 2, 3)),
    (p.EDGE, (65535, 4_000_000_000, 6, 1)),
    (p.HEARTBEAT, (12345, 7)),
    (p.PONG, (9, 1, 2)),
    (p.HOST_HELLO, ()),
    (p.PING, (300,)),
    (p.ACK, (65535,)),
]


def test_crc_check_value():
    assert p.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_has_no_zeros(data):
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


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
    good = p.encode(p.ACK, 1, 2)
    assert decoder.feed(b"\x01" * 100_000 + b"\x00" + good) == [(p.ACK, 1, (2,))]
    assert decoder.oversize == 1
    assert len(decoder._buf) == 0


@settings(max_examples=300)
@given(st.binary(max_size=400), st.integers(1, 40))
def test_any_bytes_give_frames_or_counted_errors(data, chunk):
    decoder = p.FrameDecoder()
    good = p.encode(p.HEARTBEAT, 3, 99, 1)
    out = []
    stream = data + b"\x00" + good
    for i in range(0, len(stream), chunk):
        out += decoder.feed(stream[i : i + chunk])
    assert out[-1] == (p.HEARTBEAT, 3, (99, 1))  # a clean frame after a 0x00 always gets through
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


def test_the_wire_control_codes_name_every_control_the_program_knows() -> None:
    # protocol.py keeps its own literal list (the Pico firmware runs it and can't import the rules
    # core); the codes are a wire format, so this pins them to the program's controls.
    from appliance.inputs.press import ALL_CONTROLS

    assert set(p.CONTROL_CODES) == set(ALL_CONTROLS)
    assert len(p.CONTROL_CODES) == len(set(p.CONTROL_CODES))
