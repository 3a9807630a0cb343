from __future__ import annotations

import pygame
import pytest
from headless import headless_display

from appliance.display.keys import Keyboard, default_keymap, for_desktop, key_label, legend, parse_keys


@pytest.fixture(scope="module", autouse=True)
def display() -> None:
    headless_display((320, 240))


def test_desktop_swaps_player_2s_left_and_right_keys_only() -> None:
    keymap = default_keymap()
    desktop = for_desktop(keymap)
    assert desktop[key_for(keymap, 2, "left")] == (2, "right")
    assert desktop[key_for(keymap, 2, "right")] == (2, "left")
    assert desktop[key_for(keymap, 1, "left")] == (1, "left")
    assert {k: v for k, v in desktop.items() if v[0] != 2} == {k: v for k, v in keymap.items() if v[0] != 2}


def key_for(keymap: dict[str, tuple[int, str]], player: int, control: str) -> str:
    return next(k for k, v in keymap.items() if v == (player, control))


def test_config_keys() -> None:
    assert parse_keys({"Z": "1 pile1", "return": "0 start"}) == {"z": (1, "pile1"), "return": (0, "start")}
    with pytest.raises(ValueError):
        parse_keys({"z": "pile1"})
    with pytest.raises(ValueError):
        parse_keys({"z": "1 fly"})


def test_legend_and_labels() -> None:
    keymap = default_keymap()
    assert any(line.startswith("Player 1") for line in legend(keymap))
    assert key_label(keymap, 1, "pile1") == "Q"
    assert key_label(keymap, 0, "start") == "Return"


def test_key_events_become_presses_once_per_press() -> None:
    keyboard = Keyboard(default_keymap(), clock=lambda: 5)
    down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=0, unicode="q", scancode=0)
    up = pygame.event.Event(pygame.KEYUP, key=pygame.K_q, mod=0, unicode="q", scancode=0)
    press = keyboard.feed(down, 123)
    assert (press.player, press.control, press.pressed, press.t_ns) == (1, "pile1", True, 123)
    assert keyboard.feed(down, 124) is None  # key repeat
    assert keyboard.feed(up, 125).pressed is False
    other = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=0, unicode="v", scancode=0)
    assert keyboard.feed(other, 126) is None
