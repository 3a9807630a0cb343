"""The one event every input source produces: a press (or release), stamped at its edge."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

# The players and controls (the game's and the cabinet's) are the key bindings' words: shared.
from appliance.shared.bindings import ALL_CONTROLS, CABINET_CONTROLS, CABINET_PLAYER, GAME_CONTROLS, PLAYERS

__all__ = ["ALL_CONTROLS", "CABINET_CONTROLS", "CABINET_PLAYER", "GAME_CONTROLS", "PLAYERS", "Press", "PressSink"]


@dataclass(frozen=True, slots=True)
class Press:
    """One edge of one control.

    player: 1 to 4 (0 for the cabinet's `start`/`service` buttons and its `coin` input)
    control: one of ALL_CONTROLS
    pressed: True for the press edge, False for the release
    t_ns: when the edge happened, on the host's monotonic clock (time.monotonic_ns() timebase)
    source: the name of the source that saw it ("gpio", "serial:/dev/...", "keyboard", "script")
    """

    player: int
    control: str
    pressed: bool
    t_ns: int
    source: str

    def __post_init__(self) -> None:
        if self.control not in ALL_CONTROLS:
            raise ValueError(f"unknown control {self.control!r}")
        if self.player not in (CABINET_PLAYER, *PLAYERS):
            raise ValueError(f"unknown player {self.player!r}")

    @property
    def is_game_press(self) -> bool:
        """A pressed edge of a control the rules core takes (`game.press`)."""
        return self.pressed and self.player in PLAYERS and self.control in GAME_CONTROLS


class PressSink(Protocol):
    """Where sources deliver presses (the Merger). Both calls are thread-safe."""

    def put(self, press: Press) -> None: ...

    def advance(self, source: str, t_ns: int) -> None:
        """`source` promises it will deliver nothing with an edge earlier than `t_ns`."""
        ...
