"""Desktop play: both players on one keyboard, via pygame key events.

    keymap = default_keymap()                  # {"q": (1, "pile1"), ...}; key names as pygame.key.name
    for line in legend(keymap): print(line)    # "Player 1  piles Q W E R T G  left A  spit S  right D" ...
    keyboard = KeyboardSource(keymap)          # a Source; give it to the Merger with the others
    for event in pygame.event.get():
        keyboard.feed(event)                   # KEYDOWN/KEYUP of mapped keys become Press events

`left` and `right` are from the player's own seat (the spit pile on that player's left or right).
The cabinet's controls: Return is START, F2 SERVICE, F3 a coin (one press, one coin; key repeat is
not a coin).

Timestamps: SDL stamps each keyboard event (SDL_KeyboardEvent.timestamp, ms since SDL init, the same
clock as pygame.time.get_ticks). pygame-ce 2.5 does not expose that stamp on its Event objects, so a key
edge is stamped when `feed` sees it (the pygame pump, i.e. up to one frame late). If an event does carry a
numeric `timestamp` attribute (a later pygame-ce, or a test), it is used: converted to the monotonic clock
through pygame.time.get_ticks() and never later than the moment of feeding. Either way keyboard play is
for the desktop; the cabinet's panels are gpio and pads are serial, which carry edge times.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from appliance.shared.bindings import START_KEY

from .press import ALL_CONTROLS, CABINET_PLAYER, PLAYERS, Press, PressSink
from .source import ControlStatus, SourceStatus

Keymap = dict[str, tuple[int, str]]  # pygame key name -> (player, control)

_DEFAULT: dict[str, tuple[int, str]] = {
    # Player 1, left half of the keyboard: piles on the top letter row, slaps and spit on the home row.
    "q": (1, "pile1"),
    "w": (1, "pile2"),
    "e": (1, "pile3"),
    "r": (1, "pile4"),
    "t": (1, "pile5"),
    "g": (1, "pile6"),
    "a": (1, "left"),
    "s": (1, "spit"),
    "d": (1, "right"),
    "z": (1, "far_left"),  # the family's controls: far piles at a table of 3 or 4, Mod Spit's slap
    "x": (1, "slap"),
    "c": (1, "far_right"),
    # Player 2, right half: the same shape.
    "u": (2, "pile1"),
    "i": (2, "pile2"),
    "o": (2, "pile3"),
    "p": (2, "pile4"),
    "[": (2, "pile5"),
    "]": (2, "pile6"),
    "j": (2, "left"),
    "k": (2, "spit"),
    "l": (2, "right"),
    "m": (2, "far_left"),
    ",": (2, "slap"),
    ".": (2, "far_right"),
    # The cabinet. The coin is F3, not MAME's 5: the number row is player 3's (display/keys.py SEAT_KEYS).
    START_KEY: (CABINET_PLAYER, "start"),
    "f2": (CABINET_PLAYER, "service"),
    "f3": (CABINET_PLAYER, "coin"),
}

_SHOWN_ORDER = ("pile1", "pile2", "pile3", "pile4", "pile5", "pile6", "left", "spit", "right")


def default_keymap() -> Keymap:
    """The default map of players 1 and 2 (a fresh dict; change it freely). Players 3 and 4 of a
    desktop game use the number row and the keypad: appliance/display/keys.py's SEAT_KEYS."""
    return dict(_DEFAULT)


def check_keymap(keymap: Mapping[str, tuple[int, str]]) -> Keymap:
    """Validate a keymap (from configuration): known controls, players 0-4, no control on two keys."""
    seen: dict[tuple[int, str], str] = {}
    out: Keymap = {}
    for key, (player, control) in keymap.items():
        if control not in ALL_CONTROLS:
            raise ValueError(f"key {key!r}: unknown control {control!r}")
        if player not in (0, *PLAYERS):
            raise ValueError(f"key {key!r}: player must be 1 to 4 (0 for start/service/coin), not {player!r}")
        if (player, control) in seen:
            first = seen[(player, control)]
            raise ValueError(f"keys {first!r} and {key!r} both map to {control} of player {player}")
        seen[(player, control)] = key
        out[key.lower()] = (player, control)
    return out


def _shown(key: str) -> str:
    return key.upper() if len(key) == 1 else key.capitalize()


def legend(keymap: Mapping[str, tuple[int, str]]) -> list[str]:
    """Plain lines describing the map, one per player plus one for the cabinet buttons."""
    by_player: dict[int, dict[str, str]] = {}
    for key, (player, control) in keymap.items():
        by_player.setdefault(player, {})[control] = _shown(key)
    lines = []
    for player in sorted(p for p in by_player if p in PLAYERS):
        keys = by_player.get(player, {})
        piles = [keys[c] for c in _SHOWN_ORDER[:6] if c in keys]
        parts = [f"Player {player}"]
        if piles:
            parts.append("piles " + " ".join(piles))
        parts += [f"{c} {keys[c]}" for c in ("far_left", "left", "spit", "right", "far_right", "slap") if c in keys]
        lines.append("  ".join(parts))
    cabinet = by_player.get(CABINET_PLAYER, {})
    if cabinet:
        lines.append("  ".join(f"{c} {k}" for c, k in cabinet.items()))
    return lines


def _key_codes(keymap: Keymap) -> dict[int, tuple[int, str]]:
    import pygame

    codes: dict[int, tuple[int, str]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # key_code warns before pygame.init(); the table is static
        for name, target in keymap.items():
            codes[pygame.key.key_code(name)] = target
    return codes


def event_stamp(event: Any, now_ns: int, ticks_ms: Callable[[], int]) -> int:
    """An SDL event's own time on the monotonic clock: its `timestamp` (ms on SDL's clock, that of
    `ticks_ms`, pygame.time.get_ticks) where it carries one, never later than `now_ns`, the moment it
    is fed; else `now_ns`."""
    stamp = getattr(event, "timestamp", None)
    if not isinstance(stamp, int | float) or isinstance(stamp, bool):
        return now_ns
    age_ns = int((ticks_ms() - stamp) * 1_000_000)
    return now_ns - max(0, age_ns)


class KeyboardSource:
    """Turns pygame KEYDOWN/KEYUP events of mapped keys into Press events (a Source)."""

    latency_ns = 0  # stamped on the consumer's own thread when fed: nothing can arrive later

    def __init__(
        self,
        keymap: Mapping[str, tuple[int, str]] | None = None,
        name: str = "keyboard",
        clock: Callable[[], int] = time.monotonic_ns,
        ticks_ms: Callable[[], int] | None = None,
    ) -> None:
        self.name = name
        self.keymap = check_keymap(keymap if keymap is not None else _DEFAULT)
        self._codes = _key_codes(self.keymap)
        self._clock = clock
        self._ticks_ms = ticks_ms
        self._sink: PressSink | None = None
        self._held: set[int] = set()
        self._lock = threading.Lock()
        self._status = {
            target: ControlStatus(target[0], target[1], wiring=f"key {_shown(key)}")
            for key, target in self.keymap.items()
        }

    def start(self, sink: PressSink) -> None:
        self._sink = sink

    def stop(self) -> None:
        self._sink = None

    def poll(self, now_ns: int) -> None:
        """Nothing to do: presses are delivered as `feed` sees them."""

    def _stamp(self, event: Any, now_ns: int) -> int:
        if self._ticks_ms is None:
            import pygame

            self._ticks_ms = pygame.time.get_ticks
        return event_stamp(event, now_ns, self._ticks_ms)

    def feed(self, event: Any, now_ns: int | None = None) -> Press | None:
        """Handle one pygame event; returns the Press it made (also delivered to the sink), or None."""
        import pygame

        if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return None
        target = self._codes.get(event.key)
        if target is None:
            return None
        pressed = event.type == pygame.KEYDOWN
        with self._lock:
            if pressed == (event.key in self._held):
                return None  # key repeat, or a release we never saw pressed (focus change)
            if pressed:
                self._held.add(event.key)
            else:
                self._held.discard(event.key)
            now = self._clock() if now_ns is None else now_ns
            press = Press(target[0], target[1], pressed, self._stamp(event, now), self.name)
            self._status[target].edge(pressed, press.t_ns)
        if self._sink is not None:
            self._sink.put(press)
        return press

    def feed_all(self, events: Iterable[Any]) -> list[Press]:
        presses = []
        for event in events:
            press = self.feed(event)
            if press is not None:
                presses.append(press)
        return presses

    def status(self, now_ns: int) -> SourceStatus:
        with self._lock:
            controls = [ControlStatus(**vars(s)) for s in self._status.values()]
        return SourceStatus(self.name, "up", controls, {"legend": " | ".join(legend(self.keymap))})
