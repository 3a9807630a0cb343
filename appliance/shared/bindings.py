"""The words a key binding is made of, as both configuration files write them: the players and
controls of the cabinet, and a `[keys]` entry's "player control" (`"1 pile1"`, `"0 start"`).

The inputs layer (appliance/inputs/press.py) takes its controls from here, so the settings can check
a binding without importing the inputs.
"""

from __future__ import annotations

import os
import warnings

from appliance.rules import CONTROLS

from .checks import shown

# The game's own controls (the rules core's) plus the cabinet's: two buttons and the coin input (a
# coin mech's pulse, one a coin: appliance/credits.py).
GAME_CONTROLS: tuple[str, ...] = CONTROLS
CABINET_CONTROLS: tuple[str, ...] = ("start", "service", "coin")
ALL_CONTROLS: tuple[str, ...] = GAME_CONTROLS + CABINET_CONTROLS
PLAYERS: tuple[int, ...] = (1, 2, 3, 4)  # seats round the table: 3 and 4 in a 3- or 4-seat game
CABINET_PLAYER = 0  # `start`, `service` and `coin` belong to the cabinet, not to a seat
START_KEY = "return"  # the keyboard's START in the default key map (appliance/inputs/keyboard.py)


def known_key(name: str) -> bool:
    """Whether pygame knows the key name ("q", "return", "left shift", "f2"); imports pygame."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # key_code warns before pygame.init(); its table is static
        try:
            pygame.key.key_code(name)
        except ValueError:
            return False
    return True


def key_name_problem(key: str) -> str | None:
    """What is wrong with a key name from a file (None: pygame knows it)."""
    if "\0" in key or not known_key(key.lower()):
        return f"unknown key name {shown(key)} (names as pygame gives them: q, return, f2); ignored"
    return None


def parse_binding(value: str) -> tuple[int, str]:
    """One `[keys]` value, "player control": player 1 to 4 with a game control, or 0 with a cabinet
    control (start, service, coin). ValueError saying what is wrong."""
    parts = value.split() if isinstance(value, str) else []
    if len(parts) != 2 or not parts[0].isdigit():
        raise ValueError(f'expected "player control", e.g. "1 pile1" or "0 start", not {shown(value)}')
    player, control = int(parts[0]), parts[1]
    if player == CABINET_PLAYER:
        if control not in CABINET_CONTROLS:
            raise ValueError(f"player 0 has {', '.join(CABINET_CONTROLS)}, not {control!r}")
    elif player in PLAYERS:
        if control not in GAME_CONTROLS:
            raise ValueError(f"unknown control {control!r} (controls: {', '.join(GAME_CONTROLS)})")
    else:
        raise ValueError(f"player must be 1 to 4 (0 for {'/'.join(CABINET_CONTROLS)}), not {player}")
    return player, control
