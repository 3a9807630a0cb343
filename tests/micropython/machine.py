# `machine` for the pad firmware on MicroPython's WebAssembly port (tests/micropython/run_pad.mjs): the
# only module stubbed, at the pin and UART level. UART bytes go to the pty through the JS module
# `pad_wire` (as hex); a pin's level is set by the test ("GP LEVEL" lines on pad_wire.control), and
# its IRQ handler runs then, as the RP2040's hard IRQ would, between two statements of the main loop.
import pad_wire

_BY_GP = {}  # the pins made, by GP number


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, gp, mode=None, pull=None):
        self.gp = gp
        self._level = 1  # pulled up: released
        self._handler = None
        _BY_GP[gp] = self

    def value(self):
        return self._level

    def irq(self, handler, trigger, hard=False):
        self._handler = handler

    @classmethod
    def drive(cls):
        """The test's pin changes since the last look, each with its IRQ."""
        line = pad_wire.control()
        while line:
            gp, level = line.split()
            pin = _BY_GP.get(int(gp))
            if pin is not None and pin._level != int(level):
                pin._level = int(level)
                if pin._handler is not None:
                    pin._handler(pin)
            line = pad_wire.control()


class UART:
    def __init__(self, uart_id, baudrate=115200, tx=None, rx=None, txbuf=0, rxbuf=0):
        self._rx = b""

    def any(self):
        Pin.drive()
        data = pad_wire.read()
        if data:
            self._rx += bytes.fromhex(data)
        return len(self._rx)

    def read(self, count=None):
        count = len(self._rx) if count is None else count
        data, self._rx = self._rx[:count], self._rx[count:]
        return data

    def write(self, data):
        pad_wire.write(bytes(data).hex())
        return len(data)
