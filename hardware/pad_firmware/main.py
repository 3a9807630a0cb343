# Spit Arcade remote slap pad: MicroPython firmware for a Raspberry Pi Pico (RP2040 or RP2350).
#
# Copy two files to the Pico (with mpremote, Thonny, ...):
#     mpremote cp appliance/inputs/protocol.py :protocol.py
#     mpremote cp hardware/pad_firmware/main.py :main.py
# and edit PAD_ID / INPUTS below to match the wiring (hardware/wiring.md, "Remote slap pads").
# It speaks hardware/serial-protocol.md over the USB serial port (USB CDC): HELLO, EDGE with its own
# microsecond timestamp, HEARTBEAT every 100 ms, PONG to the host's PING, and every edge resent until the
# host ACKs it. protocol.py is the host's own implementation of the framing, shared as is.
#
# Edges are stamped in the pin interrupt itself (time.ticks_us() in a hard IRQ), queued in a preallocated
# ring, and debounced in the main loop with a leading-edge lockout: the first edge counts at once.

import sys
import time

import machine
import micropython
import random
import select
from array import array

import protocol as p

PAD_ID = 1  # which pad this is (shown by the host's switch test)
# (GP pin, control) for each input; switches between the pin and GND, internal pull-up.
INPUTS = ((14, "left"), (15, "right"), (13, "spit"))
LOCKOUT_US = 30_000  # slap pads chatter: edges within 30 ms of an accepted one are bounce
HEARTBEAT_MS = 100
UNACKED_MAX = 64  # edges kept for resending; the oldest go first if the host stays away
RING = 64  # raw edges the interrupt can queue before the main loop drains them

micropython.alloc_emergency_exception_buf(100)
micropython.kbd_intr(-1)  # 0x03 in a frame must not interrupt the program

_ring_t = array("I", [0] * RING)
_ring_input = bytearray(RING)
_ring_level = bytearray(RING)
_head = 0
_tail = 0
_pins = []


def _irq_for(index):
    def handler(pin):
        global _head
        t = time.ticks_us()
        slot = _head % RING
        _ring_t[slot] = t
        _ring_input[slot] = index
        _ring_level[slot] = pin.value()
        _head = (_head + 1) % (RING * 1024)

    return handler


class Clock:
    """time.ticks_us() wraps (2**30 on rp2); keep an ever-growing count and send its low 32 bits."""

    def __init__(self):
        self.last = time.ticks_us()
        self.ext = 0

    def extend(self, ticks):
        self.ext += time.ticks_diff(ticks, self.last)
        self.last = ticks
        return self.ext

    def now_u32(self):
        return self.extend(time.ticks_us()) % p.US_WRAP

    def at_u32(self, ticks):
        # ticks from the interrupt are at most a few ms old: extend relative to now
        now_ext = self.extend(time.ticks_us())
        return (now_ext + time.ticks_diff(ticks, self.last)) % p.US_WRAP


class Pad:
    def __init__(self):
        self.clock = Clock()
        self.boot_id = random.getrandbits(32)
        self.tx_seq = 0
        self.edge_seq = 0
        self.unacked = []
        self.decoder = p.FrameDecoder()
        self.out = sys.stdout.buffer
        self.accepted_at = [None] * len(INPUTS)
        self.level = [1] * len(INPUTS)  # pulled up: 1 is released
        self.raw = [1] * len(INPUTS)
        self.raw_t = [0] * len(INPUTS)

    def send(self, kind, *fields):
        self.out.write(p.encode(kind, self.tx_seq, *fields))
        self.tx_seq = (self.tx_seq + 1) % p.SEQ_WRAP

    def edge(self, index, level, ticks):
        self.level[index] = level
        self.accepted_at[index] = ticks
        self.edge_seq = (self.edge_seq + 1) % p.SEQ_WRAP
        code = p.CONTROL_CODES.index(INPUTS[index][1])
        item = (self.edge_seq, self.clock.at_u32(ticks), code, 0 if level else 1)
        self.unacked.append(item)
        if len(self.unacked) > UNACKED_MAX:
            self.unacked.pop(0)
        self.send(p.EDGE, *item)

    def debounce(self, index, level, ticks):
        self.raw[index] = level
        self.raw_t[index] = ticks
        last = self.accepted_at[index]
        if last is not None and time.ticks_diff(ticks, last) < LOCKOUT_US:
            return
        if level != self.level[index]:
            self.edge(index, level, ticks)

    def settle(self):
        # a level that changed during a lockout now over is reported, stamped with its own edge
        now = time.ticks_us()
        for index in range(len(INPUTS)):
            last = self.accepted_at[index]
            if self.raw[index] != self.level[index] and last is not None:
                if time.ticks_diff(now, last) >= LOCKOUT_US:
                    self.edge(index, self.raw[index], self.raw_t[index])

    def handle(self, message, t2):
        kind, _seq, fields = message
        if kind == p.HOST_HELLO:
            self.send(p.HELLO, self.boot_id, PAD_ID, len(INPUTS))
            for item in self.unacked:
                self.send(p.EDGE, *item)
        elif kind == p.PING:
            self.send(p.PONG, fields[0], t2, self.clock.now_u32())
        elif kind == p.ACK:
            acked = fields[0]
            self.unacked = [e for e in self.unacked if p.seq_after(e[0], acked)]


def main():
    global _tail
    pad = Pad()
    for index, (gp, _control) in enumerate(INPUTS):
        pin = machine.Pin(gp, machine.Pin.IN, machine.Pin.PULL_UP)
        pin.irq(_irq_for(index), machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING, hard=True)
        _pins.append(pin)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    stdin = sys.stdin.buffer
    next_beat = time.ticks_ms()
    while True:
        while _tail != _head:
            slot = _tail % RING
            pad.debounce(_ring_input[slot], _ring_level[slot], _ring_t[slot])
            _tail = (_tail + 1) % (RING * 1024)
        pad.settle()
        if poller.poll(1):
            t2 = pad.clock.now_u32()
            data = stdin.read(1)
            while poller.poll(0):
                data += stdin.read(1)
            for message in pad.decoder.feed(data):
                pad.handle(message, t2)
        if time.ticks_diff(time.ticks_ms(), next_beat) >= 0:
            pad.send(p.HEARTBEAT, pad.clock.now_u32(), pad.edge_seq)
            next_beat = time.ticks_add(next_beat, HEARTBEAT_MS)


main()
