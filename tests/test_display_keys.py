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


def test_the_readmes_key_table_is_the_real_key_map() -> None:
    """README.md's "Playing at the keyboard" table, read cell by cell, against the default key map
    (players 1 and 2) and the number row and keypad (players 3 and 4)."""
    import re
    from pathlib import Path

    from appliance.display.keys import SEAT_KEYS

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    columns = ["piles", "left", "spit", "right", "slap", "far_left", "far_right"]
    rows = {
        int(m.group(1)): [cell.strip() for cell in m.group(2).split("|")]
        for m in re.finditer(r"^\| Player (\d) \|(.*)\|$", readme, re.MULTILINE)
    }
    assert sorted(rows) == [1, 2, 3, 4]

    def key_of(cell: str) -> str:  # "keypad 7" -> "[7]", ", (comma)" -> ",", "Q" -> "q"
        name = cell.split(" (")[0].strip().lower()
        return f"[{name.removeprefix('keypad ')}]" if name.startswith("keypad ") else name

    every = {**default_keymap(), **SEAT_KEYS}
    told: dict[str, tuple[int, str]] = {}
    for player, cells in rows.items():
        assert len(cells) == len(columns), cells
        for column, cell in zip(columns, cells, strict=True):
            if column == "piles":
                words = cell.removeprefix("keypad ").split()
                prefix = "keypad " if cell.startswith("keypad ") else ""
                for n, word in enumerate(words, start=1):
                    told[key_of(prefix + word)] = (player, f"pile{n}")
            elif cell:
                told[key_of(cell)] = (player, column)
    game_keys = {key: target for key, target in every.items() if target[0] != 0}
    assert told == game_keys
    assert "Return is START, F2 the operator's service menu, F3 a coin" in " ".join(readme.split())
    assert (every["return"], every["f2"], every["f3"]) == ((0, "start"), (0, "service"), (0, "coin"))
