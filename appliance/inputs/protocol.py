"""The slap-pad serial protocol: COBS frames checked with CRC-16, shared by host and pad.

This one file runs on the host (CPython) and on the pad (MicroPython on a Raspberry Pi Pico): copy it to
the Pico as `protocol.py`. So it uses only `struct`, plain classes, and annotations of bare built-in
types. hardware/serial-protocol.md is the specification; this is its implementation.

A frame on the wire: COBS(payload + CRC16) followed by one 0x00 byte.
payload = version (u8), type (u8), seq (u16 LE, per sender, counts every frame), body (by type).
CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over the payload, appended little-endian.
"""

import struct

VERSION = 2  # 2: NACK, gaps reported by the pad (first_kept), boot ids in HEARTBEAT/ACK, HELLO unasked
MAX_PAYLOAD = 32  # the largest payload of any message, with room to spare
MAX_FRAME = MAX_PAYLOAD + 2  # payload + CRC
MAX_ENCODED = MAX_FRAME + MAX_FRAME // 254 + 1  # COBS adds at most one byte per 254, plus one
HEADER = "<BBH"
HEADER_SIZE = 4

# pad -> host
# first_kept: the number of the oldest edge the pad still holds unacknowledged (last edge + 1 if none);
# any edge before it that the host has not taken is gone for good.
HELLO = 0x01  # boot_id u32, pad_id u8, inputs u8, first_kept u16, last edge_seq u16
EDGE = 0x02  # edge_seq u16, pad_us u32, control code u8, pressed u8
HEARTBEAT = 0x03  # boot_id u32, pad_us u32, last edge_seq u16, first_kept u16; every 100 ms and after each edge
PONG = 0x04  # ping_id u16, t2 u32 (pad us when the PING arrived), t3 u32 (pad us when PONG left)
# host -> pad
HOST_HELLO = 0x81  # (no body) asks the pad for HELLO and every edge not yet acknowledged
PING = 0x82  # ping_id u16
ACK = 0x83  # boot_id u32, edge_seq u16: every edge up to and including this one has arrived
NACK = 0x84  # boot_id u32, first u16, last u16: resend edges first..last (a gap); HEARTBEAT says if gone

BODIES = {
    HELLO: "<IBBHH",
    EDGE: "<HIBB",
    HEARTBEAT: "<IIHH",
    PONG: "<HII",
    HOST_HELLO: "<",
    PING: "<H",
    ACK: "<IH",
    NACK: "<IHH",
}
NAMES = {
    HELLO: "hello",
    EDGE: "edge",
    HEARTBEAT: "heartbeat",
    PONG: "pong",
    HOST_HELLO: "host_hello",
    PING: "ping",
    ACK: "ack",
    NACK: "nack",
}

# The control codes carried by EDGE (index in this tuple).
CONTROL_CODES = (
    "pile1",
    "pile2",
    "pile3",
    "pile4",
    "pile5",
    "pile6",
    "left",
    "right",
    "spit",
    "start",
    "service",
    "far_left",
    "far_right",
    "slap",
    "coin",  # 14: a coin mech's pulse (a coin box on a remote station); new codes only ever go at the end
)

US_WRAP = 1 << 32  # pad microsecond stamps are u32 and wrap every 71.6 minutes
SEQ_WRAP = 1 << 16


def _crc_table() -> list:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (check value of b"123456789" is 0x29B1)."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result has no 0x00 bytes."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo cobs_encode; raises ValueError on a malformed block."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise ValueError("COBS block runs past the frame")
        out.extend(data[i + 1 : end])
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode(kind: int, seq: int, *fields: int) -> bytes:
    """One complete frame, ready to write: COBS(payload + CRC) + 0x00."""
    payload = struct.pack(HEADER, VERSION, kind, seq % SEQ_WRAP) + struct.pack(BODIES[kind], *fields)
    crc = crc16(payload)
    return cobs_encode(payload + bytes((crc & 0xFF, crc >> 8))) + b"\x00"


class FrameDecoder:
    """Bytes in, messages out. Never raises on bad input: it counts and resynchronises at 0x00.

    feed(data) returns a list of (kind, seq, fields) tuples. Counters:
    frames (good), garbage (bytes thrown away), bad_crc, bad_cobs, bad_length, bad_version,
    unknown (unknown message type), oversize (frames longer than MAX_ENCODED, dropped unread; one more for
    every further MAX_ENCODED bytes without a 0x00, so a line of pure noise keeps counting bad frames).
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._skipping = False  # inside an oversize frame: drop bytes until the next 0x00
        self._skipped = 0
        self.frames = 0
        self.garbage = 0
        self.bad_crc = 0
        self.bad_cobs = 0
        self.bad_length = 0
        self.bad_version = 0
        self.unknown = 0
        self.oversize = 0

    def clear(self) -> None:
        """Drop a partly received frame (the port was reopened); the counters stay."""
        self._buf = bytearray()
        self._skipping = False

    def errors(self) -> int:
        return self.bad_crc + self.bad_cobs + self.bad_length + self.bad_version + self.unknown + self.oversize

    def counters(self) -> dict:
        return {
            "frames": self.frames,
            "garbage": self.garbage,
            "bad_crc": self.bad_crc,
            "bad_cobs": self.bad_cobs,
            "bad_length": self.bad_length,
            "bad_version": self.bad_version,
            "unknown": self.unknown,
            "oversize": self.oversize,
        }

    def feed(self, data: bytes) -> list:
        """The messages completed by `data`. Works run by run between 0x00 bytes (found with
        `bytes.find`, not byte by byte), so a line of noise costs a few steps per run, not per byte."""
        out = []
        start = 0
        end = len(data)
        while start <= end:
            stop = data.find(b"\x00", start)
            run = (end if stop < 0 else stop) - start
            if run:
                self._run(data, start, run)
            if stop < 0:
                break
            if self._skipping:
                self._skipping = False
            elif self._buf:
                message = self._frame(bytes(self._buf))
                self._buf = bytearray()
                if message is not None:
                    out.append(message)
            start = stop + 1
        return out

    def _run(self, data: bytes, start: int, run: int) -> None:
        """`run` bytes of `data` from `start`, none of them 0x00: onto the frame being received, or
        thrown away once it would be longer than MAX_ENCODED (an oversize frame, and one more for
        every further MAX_ENCODED bytes until the next 0x00: a line of pure noise keeps counting)."""
        if not self._skipping:
            room = MAX_ENCODED - len(self._buf)
            if run <= room:
                self._buf.extend(data[start:start + run])
                return
            self.oversize += 1
            self.garbage += MAX_ENCODED + 1
            self._buf = bytearray()
            self._skipping = True
            self._skipped = 0
            run -= room + 1
        self.garbage += run
        self._skipped += run
        self.oversize += self._skipped // MAX_ENCODED
        self._skipped %= MAX_ENCODED

    def _frame(self, encoded: bytes) -> "tuple | None":  # a string: MicroPython never evaluates it
        try:
            frame = cobs_decode(encoded)
        except ValueError:
            self.bad_cobs += 1
            self.garbage += len(encoded)
            return None
        if len(frame) < HEADER_SIZE + 2:
            self.bad_length += 1
            self.garbage += len(encoded)
            return None
        payload = frame[:-2]
        if crc16(payload) != frame[-2] | (frame[-1] << 8):
            self.bad_crc += 1
            self.garbage += len(encoded)
            return None
        version, kind, seq = struct.unpack_from(HEADER, payload, 0)
        if version != VERSION:
            self.bad_version += 1
            self.garbage += len(encoded)
            return None
        body = BODIES.get(kind)
        if body is None:
            self.unknown += 1
            self.garbage += len(encoded)
            return None
        if len(payload) - HEADER_SIZE != struct.calcsize(body):
            self.bad_length += 1
            self.garbage += len(encoded)
            return None
        self.frames += 1
        return (kind, seq, struct.unpack_from(body, payload, HEADER_SIZE))


def us_diff(later: int, earlier: int) -> int:
    """later - earlier for wrapping u32 microsecond stamps (result in -2**31 .. 2**31-1)."""
    return ((later - earlier + (US_WRAP >> 1)) % US_WRAP) - (US_WRAP >> 1)


def seq_after(a: int, b: int) -> bool:
    """True if u16 sequence number a comes after b (serial-number arithmetic)."""
    return 0 < (a - b) % SEQ_WRAP < (SEQ_WRAP >> 1)


def seq_in(seq: int, first: int, last: int) -> bool:
    """True if u16 sequence number seq lies in first..last inclusive (a range shorter than half the wrap)."""
    return (seq - first) % SEQ_WRAP <= (last - first) % SEQ_WRAP < (SEQ_WRAP >> 1)


class PadLink:
    """The pad's half of the protocol: numbers its edges, keeps them until ACKed, answers the host.

    The firmware and the emulator both run this, so they cannot disagree. Every method returns the bytes
    to write (nothing here touches a port or reads a clock: pad times come in as arguments).

    - edge(pad_us, code, pressed): a new edge: EDGE, then HEARTBEAT (so a lost EDGE shows as a gap at once).
    - heartbeat(pad_us): the periodic HEARTBEAT.
    - hello(): HELLO; the pad sends it unasked at boot, and to every HOST_HELLO.
    - handle(message, t2, now_us): the answer to one host message (now_us: a function, called as late as
      possible for PONG's t3).
    Edges beyond `keep` unacknowledged are dropped oldest first; first_kept() then tells the host so.
    """

    def __init__(self, boot_id: int, pad_id: int, inputs: int, keep: int = 64) -> None:
        self.boot_id = boot_id
        self.pad_id = pad_id
        self.inputs = inputs
        self.keep = keep
        self.tx_seq = 0
        self.edge_seq = 0
        self.unacked = []  # type: list[tuple[int, int, int, int]]  # (edge_seq, pad_us, code, pressed), oldest first
        self.last_us = 0
        self.dropped = 0  # edges dropped unacknowledged (the buffer overflowed)

    def frame(self, kind: int, *fields: int) -> bytes:
        data = encode(kind, self.tx_seq, *fields)
        self.tx_seq = (self.tx_seq + 1) % SEQ_WRAP
        return data

    def first_kept(self) -> int:
        return self.unacked[0][0] if self.unacked else (self.edge_seq + 1) % SEQ_WRAP

    def hello(self) -> bytes:
        return self.frame(HELLO, self.boot_id, self.pad_id, self.inputs, self.first_kept(), self.edge_seq)

    def heartbeat(self, pad_us: int) -> bytes:
        self.last_us = pad_us
        return self.frame(HEARTBEAT, self.boot_id, pad_us, self.edge_seq, self.first_kept())

    def edge(self, pad_us: int, code: int, pressed: int) -> bytes:
        self.edge_seq = (self.edge_seq + 1) % SEQ_WRAP
        item = (self.edge_seq, pad_us, code, pressed)
        self.unacked.append(item)
        while len(self.unacked) > self.keep:
            self.unacked.pop(0)
            self.dropped += 1
        beat_us = pad_us if us_diff(pad_us, self.last_us) > 0 else self.last_us
        return self.frame(EDGE, *item) + self.heartbeat(beat_us)

    def resend(self, first: int, last: int) -> bytes:
        out = b""
        for item in self.unacked:
            if seq_in(item[0], first, last):
                out += self.frame(EDGE, *item)
        return out

    def handle(self, message: tuple, t2: int, now_us) -> bytes:  # type: ignore[no-untyped-def]
        kind, _seq, fields = message
        if kind == HOST_HELLO:
            return self.hello() + self.resend(self.first_kept(), self.edge_seq)
        if kind == PING:
            return self.frame(PONG, fields[0], t2, now_us())
        if kind == ACK and fields[0] == self.boot_id:
            acked = fields[1]
            self.unacked = [e for e in self.unacked if seq_after(e[0], acked)]
        elif kind == NACK and fields[0] == self.boot_id:
            return self.heartbeat(now_us()) + self.resend(fields[1], fields[2])
        return b""
