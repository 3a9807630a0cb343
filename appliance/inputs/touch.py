"""A mouse and a touch screen: a click or a tap on a card picks it up, on a spit pile plays it.

    touch = TouchSource(hit, size=(1280, 720))   # a Source; give it to the Merger with the others
    for event in pygame.event.get():
        touch.feed(event)                        # MOUSEBUTTON*/FINGER* events on a target -> Press

What lies where is the screen's to say: `hit(x, y, last)` gives the (player, control) at a point in
pixels (a seat's stock pile: `pileN`; a spit pile: the side from which the seat that last picked a
card reaches it, `left`, `right`, `far_left`, `far_right`; a seat's own spit cards: `spit`) or None,
`last` being the seat whose card was last tapped (a spit pile is shared: the tap is that seat's).
The display gives it from the table on screen (appliance/display/touch_map.py).

A button or finger held down is one press: its release is the same target's, wherever it ends. The
left mouse button only; a mouse event SDL made from a touch (`event.touch`) is left out, the finger
event being the tap. A finger's place comes normalised (0..1) and is scaled to `size` (pointer.py:
the pairing and the stamps, shared with the menus' taps).

Timestamps as the keyboard's (keyboard.event_stamp): the event's own SDL `timestamp` where pygame
gives one, mapped onto the monotonic clock through pygame.time.get_ticks, never later than the moment
it is fed; pygame-ce 2.5 gives none, so a tap is stamped when `feed` sees it (the frame's pump). The
presses reach the game as the keyboard's do: straight to the scene, or through the Merger in edge
order with every other source's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from .pointer import Pointers, Target
from .press import Press, PressSink
from .source import ControlStatus, SourceStatus

Hit = Callable[[float, float, int | None], Target | None]


def no_target(x: float, y: float, last: int | None) -> Target | None:
    return None


class TouchSource:
    """Turns pygame mouse and finger events on a target into Press events (a Source)."""

    latency_ns = 0  # stamped on the consumer's own thread when fed: nothing can arrive later

    def __init__(
        self,
        hit: Hit = no_target,
        size: tuple[int, int] = (1280, 720),
        name: str = "touch",
        clock: Callable[[], int] = time.monotonic_ns,
        ticks_ms: Callable[[], int] | None = None,
    ) -> None:
        self.hit = hit
        self.size = size
        self.name = name
        self._clock = clock
        self.pointers = Pointers(size, ticks_ms)  # each pointer's press and release: one target
        self._sink: PressSink | None = None
        self.last_seat: int | None = None  # whose card was tapped last: a spit pile's tap is theirs
        self._lock = threading.Lock()
        self._status: dict[Target, ControlStatus] = {}

    def start(self, sink: PressSink) -> None:
        self._sink = sink

    def stop(self) -> None:
        self._sink = None

    def poll(self, now_ns: int) -> None:
        """Nothing to do: presses are delivered as `feed` sees them."""

    def feed(self, event: Any, now_ns: int | None = None) -> Press | None:
        """Handle one pygame event; returns the Press it made (also delivered to the sink), or None."""
        with self._lock:
            paired = self.pointers.pair(event, lambda x, y: self.hit(x, y, self.last_seat))
            if paired is None:
                return None
            target, pressed = paired
            if pressed and target[1].startswith("pile"):
                self.last_seat = target[0]
            now = self._clock() if now_ns is None else now_ns
            press = Press(target[0], target[1], pressed, self.pointers.stamp(event, now), self.name)
            status = self._status.setdefault(target, ControlStatus(target[0], target[1], wiring="touch"))
            status.edge(pressed, press.t_ns)
        if self._sink is not None:
            self._sink.put(press)
        return press

    def status(self, now_ns: int) -> SourceStatus:
        with self._lock:
            controls = [ControlStatus(**vars(s)) for s in self._status.values()]
        return SourceStatus(self.name, "up", controls, {"screen": f"{self.size[0]}x{self.size[1]}"})
