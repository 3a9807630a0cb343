"""Keyboard play: the inputs layer's key map and Press events, with a small local fallback.

The inputs helper's `appliance.inputs.keyboard` is used when it is there. The FALLBACK below only
keeps `spit-arcade play` working in a tree without it: the same keys, the same Press shape.

In the desktop layout both players look at the screen the same way, so player 2's `left` spit pile
(their own left, seated opposite) is on the screen's right. `for_desktop` swaps player 2's left and
right keys so that the key on the left of the keyboard plays onto the pile on the left of the screen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

Keymap = dict[str, tuple[int, str]]


@dataclass(frozen=True, slots=True)
class LocalPress:
    """FALLBACK: the shape of appliance.inputs.press.Press, used only if appliance.inputs is missing."""

    player: int
    control: str
    pressed: bool
    t_ns: int
    source: str


# FALLBACK key map (same keys as appliance.inputs.keyboard's default).
_FALLBACK: Keymap = {
    "q": (1, "pile1"),
    "w": (1, "pile2"),
    "e": (1, "pile3"),
    "r": (1, "pile4"),
    "t": (1, "pile5"),
    "a": (1, "left"),
    "s": (1, "spit"),
    "d": (1, "right"),
    "u": (2, "pile1"),
    "i": (2, "pile2"),
    "o": (2, "pile3"),
    "p": (2, "pile4"),
    "[": (2, "pile5"),
    "j": (2, "left"),
    "k": (2, "spit"),
    "l": (2, "right"),
    "return": (0, "start"),
    "f2": (0, "service"),
}

GAME_CONTROLS = ("pile1", "pile2", "pile3", "pile4", "pile5", "pile6", "left", "right", "spit")


def default_keymap() -> Keymap:
    try:
        from appliance.inputs.keyboard import default_keymap as inputs_default
    except ImportError:
        return dict(_FALLBACK)
    return inputs_default()


def for_desktop(keymap: Keymap) -> Keymap:
    """Player 2's left/right keys swapped, so keys match the screen when nobody is turned."""
    swap = {"left": "right", "right": "left"}
    return {
        key: (player, swap.get(control, control) if player == 2 else control)
        for key, (player, control) in keymap.items()
    }


def parse_keys(config: dict[str, str]) -> Keymap:
    """`[keys]` of the config file: key name = "player control" (player 0 for start/service)."""
    keymap: Keymap = {}
    for key, value in config.items():
        parts = value.split()
        if len(parts) != 2 or not parts[0].isdigit():
            raise ValueError(f'key {key!r}: expected "player control", e.g. "1 pile1", not {value!r}')
        keymap[key.lower()] = (int(parts[0]), parts[1])
    try:
        from appliance.inputs.keyboard import check_keymap
    except ImportError:
        return keymap
    return check_keymap(keymap)


def legend(keymap: Keymap) -> list[str]:
    try:
        from appliance.inputs.keyboard import legend as inputs_legend
    except ImportError:
        return [f"{k.upper()}: player {p} {c}" for k, (p, c) in keymap.items()]
    return inputs_legend(keymap)


def key_label(keymap: Keymap, player: int, control: str) -> str:
    for key, target in keymap.items():
        if target == (player, control):
            return key.upper() if len(key) == 1 else key.capitalize()
    return ""


class Keyboard:
    """pygame key events -> presses, through appliance.inputs' KeyboardSource when present."""

    def __init__(self, keymap: Keymap, clock: Callable[[], int] = time.monotonic_ns) -> None:
        self.keymap = keymap
        self._clock = clock
        self._source: Any = None
        try:
            from appliance.inputs.keyboard import KeyboardSource
        except ImportError:
            self._codes = {pygame.key.key_code(name): target for name, target in keymap.items()}
            self._held: set[int] = set()
        else:
            self._source = KeyboardSource(keymap, clock=clock)

    def join(self, merger: Any) -> None:
        """Deliver this keyboard's presses to appliance.inputs' Merger too (with the other sources)."""
        if self._source is None:
            raise RuntimeError("appliance.inputs is not installed: no merger to join")
        merger.sources.append(self._source)
        merger.register(self._source.name, self._source.latency_ns)
        self._source.start(merger)

    def feed(self, event: Any, now_ns: int | None = None) -> Any:
        """A Press (pressed or released) for a mapped key, else None."""
        if self._source is not None:
            return self._source.feed(event, now_ns)
        if event.type not in (pygame.KEYDOWN, pygame.KEYUP) or event.key not in self._codes:
            return None
        pressed = event.type == pygame.KEYDOWN
        if pressed == (event.key in self._held):
            return None
        (self._held.add if pressed else self._held.discard)(event.key)
        player, control = self._codes[event.key]
        return LocalPress(player, control, pressed, self._clock() if now_ns is None else now_ns, "keyboard")
