"""A mouse button or a finger held down is one press: its release is what its press took, wherever it
ends. What the table's taps (touch.py) and the menus' (display/menu_taps.py) share.

    pointers = Pointers((1280, 720))
    paired = pointers.pair(event, lambda x, y: (1, "pile1"))  # ((1, "pile1"), True) on the press
    pointers.stamp(event, now_ns)                            # the edge's own time (keyboard.event_stamp)

A pointer is the left mouse button or one finger of one touch screen. A mouse event SDL made from a
touch (`event.touch`) is left out, the finger's event being the tap; a finger's place comes
normalised (0..1) and is scaled to the screen's size. A press on nothing holds nothing, so its
release is nothing too; a second press of a pointer still held (a release never seen) is nothing:
the first is still the one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .keyboard import event_stamp

Target = tuple[int, str]  # (player, control)
LEFT_BUTTON = 1


def pointer_edge(event: Any, size: tuple[int, int]) -> tuple[object, bool, tuple[float, float]] | None:
    """(which pointer, pressed, where in pixels) of a mouse or finger edge on a screen of `size`, else
    None: the left mouse button only, a mouse event SDL made from a touch left out (the finger's is
    the tap), a finger's normalised place scaled to `size`."""
    import pygame

    if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        if getattr(event, "button", LEFT_BUTTON) != LEFT_BUTTON or getattr(event, "touch", False):
            return None
        return "mouse", event.type == pygame.MOUSEBUTTONDOWN, (float(event.pos[0]), float(event.pos[1]))
    if event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
        w, h = size
        where = (float(event.x) * w, float(event.y) * h)
        finger = ("finger", getattr(event, "touch_id", 0), getattr(event, "finger_id", 0))
        return finger, event.type == pygame.FINGERDOWN, where
    return None


class Pointers:
    """Each pointer's press paired with its release, and the time each edge happened."""

    def __init__(self, size: tuple[int, int], ticks_ms: Callable[[], int] | None = None) -> None:
        """`ticks_ms`: SDL's clock, that of the events' `timestamp` (default pygame.time.get_ticks,
        fetched at the first edge)."""
        self.size = size
        self.ticks_ms = ticks_ms
        self._down: dict[object, Target] = {}  # pointer (the mouse, a finger) -> what it pressed

    def pair(self, event: Any, target: Callable[[float, float], Target | None]) -> tuple[Target, bool] | None:
        """(what the pointer pressed, pressed) for a mouse or finger edge, else None: on a press,
        `target(x, y)`, what lies under it (None: nothing, and nothing is held); on a release, what
        its press took."""
        edge = pointer_edge(event, self.size)
        if edge is None:
            return None
        pointer, pressed, (x, y) = edge
        if not pressed:
            found = self._down.pop(pointer, None)
            return None if found is None else (found, False)
        if pointer in self._down:
            return None
        found = target(x, y)
        if found is None:
            return None
        self._down[pointer] = found
        return found, True

    def stamp(self, event: Any, now_ns: int) -> int:
        """The edge's own time on the monotonic clock, never later than `now_ns` (keyboard.event_stamp)."""
        if self.ticks_ms is None:
            import pygame

            self.ticks_ms = pygame.time.get_ticks
        return event_stamp(event, now_ns, self.ticks_ms)
