"""The cabinet's panels: buttons and slap pads on the Pi's GPIO header, through gpiozero.

Each control is a gpiozero Button (internal pull-up, wired to ground) with no `bounce_time`: on the
lgpio pin factory a bounce time delays every edge by its length, so we debounce ourselves on edge times
(debounce.py). gpiozero hands each edge to `Button._pin_changed(ticks, state)` with the tick the pin
factory recorded for it -- on lgpio the kernel's timestamp of the edge, taken in the interrupt handler.
We take that tick, not the time the callback runs.

lgpio runs every callback on one thread, so the callback does nothing but put (control, level, time)
on a queue and return. The debouncing happens in `poll`, on the game loop's thread, when
`Merger.ready` asks; so does stuck detection.

Clocks: gpiozero's own ticks are `time.monotonic()` seconds (the mock and local factories); lgpio's are
the kernel's event timestamp in seconds, which is CLOCK_MONOTONIC for the GPIO character device v2
interface and CLOCK_REALTIME for v1. `EdgeClock` tells them apart by which is near now and maps either
onto `time.monotonic_ns()`.

GPIOZERO_PIN_FACTORY=mock (or `pin_factory=MockFactory()`) runs all of this with no Pi.
"""

from __future__ import annotations

import queue
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .debounce import BUTTON, Debouncer, Timing
from .press import Press, PressSink
from .source import ControlStatus, SourceStatus

CLOSE_NS = 60_000_000_000  # an edge tick within a minute of a clock's "now" is on that clock


class EdgeClock:
    """Maps a pin factory's edge ticks (seconds, monotonic or realtime) to monotonic nanoseconds."""

    def __init__(
        self,
        monotonic_ns: Callable[[], int] = time.monotonic_ns,
        realtime_ns: Callable[[], int] = time.time_ns,
    ) -> None:
        self._monotonic_ns = monotonic_ns
        self._realtime_ns = realtime_ns
        self.unplaced = 0  # ticks on neither clock: stamped "now" instead

    def to_monotonic_ns(self, ticks: float) -> int:
        tick_ns = round(ticks * 1_000_000_000)
        mono = self._monotonic_ns()
        if abs(mono - tick_ns) < CLOSE_NS:
            return tick_ns
        real = self._realtime_ns()
        if abs(real - tick_ns) < CLOSE_NS:
            return mono - (real - tick_ns)
        self.unplaced += 1
        return mono


@dataclass(frozen=True)
class PinControl:
    """One control on the header: BCM pin number, whose it is, and its debounce timing."""

    pin: int
    player: int
    control: str
    timing: Timing = BUTTON


def _stamping_button_class() -> type:
    from gpiozero import Button

    class StampingButton(Button):
        """A Button that passes each edge's own tick and level to `on_edge` before anything else."""

        on_edge: Callable[[float, bool], None] | None = None

        def _pin_changed(self, ticks: float, state: Any) -> None:
            handler = self.on_edge
            if handler is not None:
                handler(ticks, bool(self._state_to_value(state)))
            else:
                super()._pin_changed(ticks, state)

    return StampingButton


# A Pi 4 B's revision code: its 40-pin header, BCM 0-27 on lines 0-27 of the chip.
PI_HEADER_REVISION = 0xC03111


def chip_factory(chip: str) -> Any:
    """gpiozero's lgpio pin factory on one GPIO chip, named by number ("0", "4") or by label.

    On a Pi, gpiozero finds the chip itself and the board from the Pi's revision code, and `[gpio]
    chip` stays unset. Elsewhere (an x86 mini PC's GPIO, the virtual cabinet's gpio-sim) there is no
    revision code, and gpiozero would refuse the board: the chip is taken to be wired as a Pi's header,
    line n being BCM n, which is what the pin numbers of the inputs configuration mean."""
    from gpiozero.pins.lgpio import LGPIOFactory
    from gpiozero.pins.local import get_pi_revision

    number = int(chip) if chip.isdigit() else chip_by_label(chip)

    class ChipFactory(LGPIOFactory):
        def _get_revision(self) -> int:
            try:
                return int(get_pi_revision())
            except Exception:  # no Pi here: a header's worth of lines
                return PI_HEADER_REVISION

    return ChipFactory(chip=number)


def chip_by_label(label: str) -> int:
    """The number of the GPIO chip with this label (lgpio asks each /dev/gpiochip*)."""
    import glob

    import lgpio

    seen = []
    for path in sorted(glob.glob("/dev/gpiochip*")):
        number = int(path.removeprefix("/dev/gpiochip"))
        try:
            handle = lgpio.gpiochip_open(number)
        except Exception:
            continue
        try:
            _, _, _, chip_label = lgpio.gpio_get_chip_info(handle)
        finally:
            lgpio.gpiochip_close(handle)
        if chip_label == label:
            return number
        seen.append(f"{path} ({chip_label})")
    raise ValueError(f"no GPIO chip labelled {label!r}; there are: {', '.join(seen) or 'none'}")


class NoGpio(RuntimeError):
    """No GPIO pins gpiozero can use on this machine (not a Raspberry Pi, or no pin library)."""

    def __init__(self, tried: list[str]) -> None:
        super().__init__("no GPIO pins on this machine (not a Raspberry Pi?)")
        self.tried = tried  # gpiozero's word on each pin factory it tried ("Falling back from lgpio: ...")


class GpioSource:
    """Buttons on GPIO pins delivering debounced, edge-stamped presses (a Source)."""

    def __init__(
        self,
        controls: list[PinControl],
        name: str = "gpio",
        latency_ns: int = 1_000_000,  # lgpio calls back within microseconds; a press held up longer by
        # the GIL arrives late and the match puts it back in edge order (rollback), so the others need
        # not wait longer for it
        pull_up: bool = True,
        pin_factory: Any = None,
        edge_clock: EdgeClock | None = None,
    ) -> None:
        pins = [c.pin for c in controls]
        if len(set(pins)) != len(pins):
            raise ValueError("two controls share a GPIO pin")
        targets = [(c.player, c.control) for c in controls]
        if len(set(targets)) != len(targets):
            raise ValueError("a control is wired to two GPIO pins")
        self.name = name
        self.latency_ns = latency_ns
        self.controls = list(controls)
        self._pull_up = pull_up
        self._pin_factory = pin_factory
        self._clock = edge_clock or EdgeClock()
        self._edges: queue.SimpleQueue[tuple[int, bool, int]] = queue.SimpleQueue()
        self._debouncer = Debouncer({(c.player, c.control): c.timing for c in controls})
        self._buttons: list[Any] = []
        self._sink: PressSink | None = None
        self._lock = threading.Lock()  # poll() and status() may run on different threads
        self._last_edge: dict[tuple[int, str], int] = {}

    def start(self, sink: PressSink) -> None:
        """Wire the buttons. NoGpio, in one plain sentence, where gpiozero finds no pins at all (a
        desktop); gpiozero's warning for each pin factory it tried is shown only where one works."""
        from gpiozero.exc import BadPinFactory, PinFactoryFallback

        self._sink = sink
        if self._buttons:
            return
        button_class = _stamping_button_class()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                for index, control in enumerate(self.controls):
                    button = button_class(
                        control.pin, pull_up=self._pull_up, bounce_time=None, pin_factory=self._pin_factory
                    )
                    button.on_edge = self._make_handler(index)
                    self._buttons.append(button)
            except BadPinFactory:
                self.stop()
                tried = [str(w.message) for w in caught if issubclass(w.category, PinFactoryFallback)]
                raise NoGpio(tried) from None
            except Exception:
                self.stop()
                raise
        for warning in caught:  # a Pi that fell back to another pin factory: worth saying
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)

    def _make_handler(self, index: int) -> Callable[[float, bool], None]:
        put = self._edges.put
        to_ns = self._clock.to_monotonic_ns

        def on_edge(ticks: float, active: bool) -> None:  # on lgpio's callback thread: queue and return
            put((index, active, to_ns(ticks)))

        return on_edge

    def stop(self) -> None:
        buttons, self._buttons = self._buttons, []
        for button in buttons:
            button.on_edge = None
            button.close()
        self._sink = None

    def button(self, player: int, control: str) -> Any:
        """The gpiozero Button of one control (tests drive its `.pin`)."""
        for c, button in zip(self.controls, self._buttons, strict=False):
            if (c.player, c.control) == (player, control):
                return button
        raise KeyError((player, control))

    def poll(self, now_ns: int) -> None:
        """Debounce the edges the callbacks queued, deliver the presses, flag stuck controls."""
        edges = []
        with self._lock:
            while True:
                try:
                    index, active, t_ns = self._edges.get_nowait()
                except queue.Empty:
                    break
                control = self.controls[index]
                key = (control.player, control.control)
                self._last_edge[key] = t_ns
                edges += self._debouncer.edge(key, active, t_ns)
            edges += self._debouncer.tick(now_ns)
        sink = self._sink
        if sink is None:
            return
        for (player, control_name), down, t_ns in edges:
            sink.put(Press(player, control_name, down, t_ns, self.name))

    def status(self, now_ns: int) -> SourceStatus:
        controls = []
        with self._lock:
            for c in self.controls:
                key = (c.player, c.control)
                presses, bounces = self._debouncer.counts(key)
                controls.append(
                    ControlStatus(
                        c.player,
                        c.control,
                        f"BCM{c.pin}",
                        self._debouncer.is_down(key),
                        self._debouncer.is_stuck(key),
                        presses,
                        bounces,
                        self._last_edge.get(key),
                    )
                )
        link = "up" if self._buttons else "stopped"
        details = {"unplaced ticks": str(self._clock.unplaced)}
        return SourceStatus(self.name, link, controls, details)
