"""A click or a tap on a menu: the line under it chooses, as the keys do.

A scene marks the lines of its texts that take a tap (`Line.tap`, the control it stands for): a
button's own ("start", "spit", a pile's), or `row N` for a menu's row N (`row_tap`), which the menu
reads as "go to row N" (`tapped_row`); a menu marks the row its cursor is on with the control that
row's button does there (SPIT, or a value's next step), so a first tap on a row goes to it and a
second chooses it. Drawing records each block's tappable lines as bands of the block, upright
(`Drawn.taps`); `tap_at` finds the line under a point of the screen in the texts of the frame last
drawn, turned as that block was (a tabletop's far seat reads its copy of a panel upside down, a side
seat's turned a quarter), and the seat whose copy it was is the one who tapped.

`MenuTaps` turns mouse and finger edges into the scenes' `MenuKey`s (what the desktop's arrow keys
and Escape are too), paired and stamped as the table's taps are (inputs/pointer.py: a release is what
its press took; the event's own time where SDL gives one). The table's cards and piles are tapped
first (scenes' `touch_target`); a menu's lines where no card lies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from appliance.inputs.pointer import Pointers
from appliance.shared.bindings import CABINET_CONTROLS

from .scenes.base import MenuKey

ROW = "row "  # a tap's control that names a menu's row: "row 3"


def row_tap(index: int) -> str:
    """The tap that goes to a menu's row `index`."""
    return f"{ROW}{index}"


def tapped_row(press: Any) -> int | None:
    """The row a tap went to (`row_tap`), else None."""
    control = str(press.control)
    if not press.pressed or not control.startswith(ROW):
        return None
    return int(control[len(ROW) :])


def upright(drawn: Any, x: int, y: int) -> tuple[int, int] | None:
    """The point (x, y) of the screen in `drawn`'s block as it was before it was turned (x across
    its lines, y down them); None off the block."""
    rect = drawn.rect
    if not rect.collidepoint(x, y):
        return None
    dx, dy = x - rect.left, y - rect.top
    angle = drawn.angle % 360
    if angle == 180:
        return rect.w - 1 - dx, rect.h - 1 - dy
    if angle == 90:  # turned anticlockwise: its first line along the left edge
        return rect.h - 1 - dy, dx
    if angle == 270:
        return dy, rect.w - 1 - dx
    return dx, dy


def tap_at(texts: Sequence[Any], x: float, y: float) -> tuple[int | None, str] | None:
    """(the seat whose text it is, None: everybody's; the control) of the tappable line under (x, y)
    in a frame's texts (captions.Drawn, the last drawn over the others), else None."""
    point = (int(x), int(y))
    for drawn in reversed(texts):
        taps = getattr(drawn, "taps", ())
        if not taps:
            continue
        found = upright(drawn, *point)
        if found is None:
            continue
        for top, bottom, control in taps:
            if top <= found[1] < bottom:
                return drawn.seat, control
        return None  # on the block, between its tappable lines: the block hides what is under it
    return None


def menu_target(texts: Sequence[Any], x: float, y: float) -> tuple[int, str] | None:
    """(player, control) a tap at (x, y) presses: the seat whose copy of the text it is (player 1 on
    a text for everybody), the cabinet (0) for START and SERVICE."""
    found = tap_at(texts, x, y)
    if found is None:
        return None
    seat, control = found
    return (0 if control in CABINET_CONTROLS else seat or 1), control


class MenuTaps:
    """Mouse and finger edges on the tappable lines of the frame last drawn -> MenuKey presses."""

    def __init__(self, size: tuple[int, int], ticks_ms: Callable[[], int] | None = None) -> None:
        self.size = size
        self.pointers = Pointers(size, ticks_ms)  # each pointer's press and release: one line's press

    def feed(self, event: Any, now_ns: int, texts: Sequence[Any]) -> MenuKey | None:
        paired = self.pointers.pair(event, lambda x, y: menu_target(texts, x, y))
        if paired is None:
            return None
        (player, control), pressed = paired
        return MenuKey(player, control, pressed, self.pointers.stamp(event, now_ns), "touch")
