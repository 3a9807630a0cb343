"""Keyboard play: the inputs layer's key map and Press events, as the screen uses them.

In the desktop layout both players look at the screen the same way, so player 2's `left` spit pile
(their own left, seated opposite) is on the screen's right. `for_desktop` swaps player 2's left and
right keys so that the key on the left of the keyboard plays onto the pile on the left of the screen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from appliance.inputs.config import known_key, parse_binding
from appliance.inputs.keyboard import KeyboardSource, Keymap, check_keymap, default_keymap, legend
from appliance.inputs.press import CABINET_PLAYER, Press

__all__ = [
    "CABINET_PLAYER",
    "Keyboard",
    "Keymap",
    "Press",
    "amend_keymap",
    "default_keymap",
    "for_desktop",
    "key_label",
    "known_key",
    "legend",
    "parse_binding",
    "parse_keys",
]


def for_desktop(keymap: Keymap) -> Keymap:
    """Player 2's left/right keys swapped, so keys match the screen when nobody is turned."""
    swap = {"left": "right", "right": "left"}
    return {
        key: (player, swap.get(control, control) if player == 2 else control)
        for key, (player, control) in keymap.items()
    }


def amend_keymap(keymap: Keymap, keys: dict[str, str]) -> Keymap:
    """`keymap` changed by the config file's `[keys]` (checked: see settings.py): each key named
    takes its control from whichever key had it; a key given "" is unbound."""
    out = dict(keymap)
    for key, value in keys.items():
        name = key.lower()
        out.pop(name, None)
        if value:
            target = parse_binding(value)
            out = {k: t for k, t in out.items() if t != target}
            out[name] = target
    return out


def parse_keys(config: dict[str, str]) -> Keymap:
    """A whole key map from "key = player control" pairs (no default keys kept)."""
    return check_keymap({key.lower(): parse_binding(value) for key, value in config.items()})


def key_label(keymap: Keymap, player: int, control: str) -> str:
    for key, target in keymap.items():
        if target == (player, control):
            return key.upper() if len(key) == 1 else key.capitalize()
    return ""


class Keyboard:
    """pygame key events -> presses, through the inputs layer's KeyboardSource."""

    def __init__(self, keymap: Keymap, clock: Callable[[], int] = time.monotonic_ns) -> None:
        self.keymap = keymap
        self._source = KeyboardSource(keymap, clock=clock)

    def join(self, merger: Any) -> None:
        """Deliver this keyboard's presses to the inputs' Merger too (with the cabinet's sources);
        the merger starts it, now if it is running already."""
        merger.add(self._source)

    def feed(self, event: Any, now_ns: int | None = None) -> Press | None:
        """A Press (pressed or released) for a mapped key, else None."""
        return self._source.feed(event, now_ns)
