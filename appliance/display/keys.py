"""Keyboard play: the inputs layer's key map and Press events, as the screen uses them.

In the desktop layout both players look at the screen the same way, so player 2's `left` spit pile
(their own left, seated opposite) is on the screen's right. `for_desktop` swaps player 2's left and
right keys so that the key on the left of the keyboard plays onto the pile on the left of the screen.
That holds at a table of two only: at three or four player 2 sits at the screen's side and every
seat's piles are named by its own left and right, so there the swap is undone (`table_keymap`,
`at_table`) and player 2's keys read as at two seats: J left pile, K SPIT!, L right pile, every size.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from appliance.inputs.keyboard import KeyboardSource, Keymap, check_keymap, legend
from appliance.inputs.keyboard import default_keymap as inputs_keymap
from appliance.inputs.press import CABINET_PLAYER, Press
from appliance.shared.bindings import known_key, parse_binding

__all__ = [
    "CABINET_PLAYER",
    "FAMILY_KEYS",
    "SEAT_KEYS",
    "Keyboard",
    "Keymap",
    "Press",
    "amend_keymap",
    "at_table",
    "default_keymap",
    "for_desktop",
    "key_label",
    "known_key",
    "legend",
    "parse_binding",
    "parse_keys",
    "seat_key",
    "table_keymap",
]


# The family's further controls for players 1 and 2, on the row under their home keys: the table
# slap (Mod Spit) in the middle, the far spit piles (a table of three or four) either side of it.
FAMILY_KEYS: Keymap = {
    "z": (1, "far_left"),
    "x": (1, "slap"),
    "c": (1, "far_right"),
    "m": (2, "far_left"),
    ",": (2, "slap"),
    ".": (2, "far_right"),
}
# Players 3 and 4 on the desktop (the cabinet gives them serial panels: hardware/): the number row
# and the keypad. The inputs layer knows players 1 and 2 only, so the screen reads these keys itself
# (`seat_key`) and hands the scenes the same typed presses.
SEAT_KEYS: Keymap = {
    "1": (3, "pile1"), "2": (3, "pile2"), "3": (3, "pile3"), "4": (3, "pile4"), "5": (3, "pile5"),
    "6": (3, "pile6"), "7": (3, "far_left"), "8": (3, "left"), "9": (3, "spit"), "0": (3, "right"),
    "-": (3, "far_right"),
    "[7]": (4, "pile1"), "[8]": (4, "pile2"), "[9]": (4, "pile3"), "[4]": (4, "pile4"), "[5]": (4, "pile5"),
    "[6]": (4, "pile6"), "[/]": (4, "far_left"), "[1]": (4, "left"), "[2]": (4, "spit"), "[3]": (4, "right"),
    "[*]": (4, "far_right"),
}


def default_keymap() -> Keymap:
    """The default map: the inputs layer's two players, with the family's controls added (a key
    the inputs layer already uses, or a control it already has a key for, is left as it is)."""
    keymap = inputs_keymap()
    taken = set(keymap.values())
    for key, target in FAMILY_KEYS.items():
        if key not in keymap and target not in taken:
            keymap[key] = target
    return keymap


def seat_key(event: Any, keymap: Keymap | None = None) -> tuple[int, str, bool] | None:
    """(player, control, pressed) for a key of players 3 and 4 (`SEAT_KEYS`), else None."""
    import pygame

    if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
        return None
    name = pygame.key.name(event.key)
    if keymap is not None and name in keymap:
        return None  # a key the map gives to players 1 and 2 (the config's [keys]) stays theirs
    target = SEAT_KEYS.get(name)
    if target is None:
        return None
    return target[0], target[1], event.type == pygame.KEYDOWN


def for_desktop(keymap: Keymap) -> Keymap:
    """Player 2's left/right keys swapped, so keys match the screen when nobody is turned."""
    swap = {"left": "right", "right": "left"}
    return {
        key: (player, swap.get(control, control) if player == 2 else control)
        for key, (player, control) in keymap.items()
    }


def swapped_at(mode: str, seats: int) -> bool:
    """Whether the desktop's key map (`for_desktop`) has player 2's left and right the other way
    round from the table's: on the desktop at a table of three or four."""
    return mode == "desktop" and seats > 2


def table_keymap(keymap: Keymap, mode: str, seats: int) -> Keymap:
    """The key map as a table of `seats` reads it: the desktop's swap of player 2's left and right
    (`for_desktop`, its own inverse) undone at three or four seats, where player 2's piles are named
    by their own left and right, so J is their left pile at every table size, as at two."""
    return for_desktop(keymap) if swapped_at(mode, seats) else keymap


def at_table(press: Press, mode: str, seats: int) -> Press:
    """A keyboard press of the desktop's map as the table of `seats` means it (`table_keymap`)."""
    swap = {"left": "right", "right": "left"}
    if press.player == 2 and press.control in swap and swapped_at(mode, seats):
        return dataclasses.replace(press, control=swap[press.control])
    return press


def amend_keymap(keymap: Keymap, keys: dict[str, str]) -> Keymap:
    """`keymap` changed by the config file's `[keys]` (checked: appliance/shared/settings.py): each key named
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

    @property
    def name(self) -> str:
        """The source name its presses carry."""
        return self._source.name

    def join(self, merger: Any) -> None:
        """Deliver this keyboard's presses to the inputs' Merger too (with the cabinet's sources);
        the merger starts it, now if it is running already."""
        merger.add(self._source)

    def feed(self, event: Any, now_ns: int | None = None) -> Press | None:
        """A Press (pressed or released) for a mapped key, else None."""
        return self._source.feed(event, now_ns)
