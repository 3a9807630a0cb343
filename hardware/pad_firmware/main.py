# Spit Arcade remote slap pad: MicroPython firmware for a Raspberry Pi Pico (RP2040 or RP2350).
#
# Copy two files to the Pico (with mpremote, Thonny, ...):
#     mpremote cp appliance/inputs/protocol.py :protocol.py
#     mpremote cp hardware/pad_firmware/main.py :main.py
# and edit PAD_ID / INPUTS / LINK below to match the wiring (hardware/wiring.md, "Remote slap pads").
# It speaks hardware/serial-protocol.md (version 2): HELLO at start and when asked, EDGE with its own
# microsecond timestamp followed by a HEARTBEAT, a HEARTBEAT every 100 ms, PONG to the host's PING, every
# edge kept until the host ACKs it and resent when the host NACKs it. protocol.py is the host's own
# implementation of the framing and of the pad's half (PadLink), shared as is.
#
# Two links, the same frames on both:
#   LINK = "usb"   the Pico's USB port (USB CDC): up to 5 m of cable, or an active extension
#   LINK = "uart"  UART0 (GP0 TX, GP1 RX) through an RS-485/422 transceiver: tens of metres of twisted
#                  pair to a USB-RS485/422 adapter at the cabinet (wiring.md, "Long runs")
#
# Edges are stamped in the pin interrupt itself (time.ticks_us() in a hard IRQ), queued in a preallocated
# ring, and debounced in the main loop with a leading-edge lockout: the first edge counts at once.

import sys
import time

import machine
import micropython
import random
from array import array

import protocol as p

PAD_ID = 1  # which pad this is (shown by the host's switch test)
# (GP pin, control) for each input; switches between the pin and GND, internal pull-up.
INPUTS = ((14, "left"), (15, "right"), (13, "spit"))
LINK = "usb"  # or "uart"
UART_ID = 0
UART_TX = 0  # GP0 -> the transceiver's DI
UART_RX = 1  # GP1 <- the transceiver's RO
BAUDRATE = 115200  # the cabinet's [[serial]] baudrate must match
LOCKOUT_US = 30_000  # slap pads chatter: edges within 30 ms of an accepted one are bounce
HEARTBEAT_MS = 100
UNACKED_MAX = 256  # edges kept for resending (about 10 KB); the oldest go first, and HEARTBEAT says so
RING = 64  # raw edges the interrupt can queue before the main loop drains them

if hasattr(micropython, "alloc_emergency_exception_buf"):  # rp2 has it; the WebAssembly port, tested on, not
    micropython.alloc_emergency_exception_buf(100)

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


class UsbPort:
    """The USB serial port (USB CDC): stdin/stdout, with Ctrl-C switched off (0x03 occurs in frames)."""

    def __init__(self):
        import select

        micropython.kbd_intr(-1)
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.stdin = sys.stdin.buffer
        self.out = sys.stdout.buffer

    def write(self, data):
        if data:
            self.out.write(data)

    def read(self):
        data = b""
        while self.poller.poll(0):
            data += self.stdin.read(1)
        return data


class UartPort:
    """UART0 to an RS-485/422 transceiver (full duplex: its driver is always on, no direction pin)."""

    def __init__(self):
        self.uart = machine.UART(
            UART_ID, baudrate=BAUDRATE, tx=machine.Pin(UART_TX), rx=machine.Pin(UART_RX), txbuf=1024, rxbuf=512
        )

    def write(self, data):
        if data:
            self.uart.write(data)

    def read(self):
        count = self.uart.any()
        return self.uart.read(count) if count else b""


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
    def __init__(self, port):
        self.port = port
        self.clock = Clock()
        self.link = p.PadLink(random.getrandbits(32), PAD_ID, len(INPUTS), UNACKED_MAX)
        self.decoder = p.FrameDecoder()
        self.accepted_at = [None] * len(INPUTS)
        self.level = [1] * len(INPUTS)  # pulled up: 1 is released
        self.raw = [1] * len(INPUTS)
        self.raw_t = [0] * len(INPUTS)
        self.next_beat = time.ticks_ms()
        self.port.write(self.link.hello())  # unasked: a host already listening learns of the restart

    def edge(self, index, level, ticks):
        self.level[index] = level
        self.accepted_at[index] = ticks
        code = p.CONTROL_CODES.index(INPUTS[index][1])
        self.port.write(self.link.edge(self.clock.at_u32(ticks), code, 0 if level else 1))

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

    def step(self):
        """One pass of the main loop: queued edges, then the host's messages, then the heartbeat."""
        global _tail
        while _tail != _head:
            slot = _tail % RING
            self.debounce(_ring_input[slot], _ring_level[slot], _ring_t[slot])
            _tail = (_tail + 1) % (RING * 1024)
        self.settle()
        t2 = self.clock.now_u32()
        data = self.port.read()
        if data:
            for message in self.decoder.feed(data):
                self.port.write(self.link.handle(message, t2, self.clock.now_u32))
        if time.ticks_diff(time.ticks_ms(), self.next_beat) >= 0:
            self.port.write(self.link.heartbeat(self.clock.now_u32()))
            self.next_beat = time.ticks_add(self.next_beat, HEARTBEAT_MS)


def main():
    pad = Pad(UartPort() if LINK == "uart" else UsbPort())
    for index, (gp, _control) in enumerate(INPUTS):
        pin = machine.Pin(gp, machine.Pin.IN, machine.Pin.PULL_UP)
        pin.irq(_irq_for(index), machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING, hard=True)
        _pins.append(pin)
    while True:
        pad.step()
        time.sleep_us(100)


if __name__ == "__main__":
    main()
