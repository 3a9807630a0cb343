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


# ------------------------------------------------------------------ the same keys at every table size


def _named(lines: list[str]) -> dict[str, str]:
    """A legend's lines by what they name ("left pile J" -> {"left pile": "J"})."""
    out = {}
    for line in lines:
        for words in ("piles", "left pile", "SPIT!", "right pile", "far piles"):
            if line.startswith(words + " "):
                out[words] = line[len(words) + 1 :]
    return out


@pytest.mark.parametrize("mode", ["desktop", "tabletop"])
def test_each_players_keys_read_the_same_at_every_table_size(mode: str) -> None:
    """Player 2's left pile is J at a table of two, three and four (it was L at three on the desktop):
    every seat's legend names the same key for each thing at every size it sits at."""
    from appliance.display.keys import table_keymap
    from appliance.display.legend import seat_legend

    keymap = for_desktop(default_keymap()) if mode == "desktop" else default_keymap()
    for player in (1, 2, 3, 4):
        read = {
            seats: _named(seat_legend(table_keymap(keymap, mode, seats), player, mode, 5, seats))
            for seats in (2, 3, 4)
            if player <= seats
        }
        first = min(read)
        for seats, names in read.items():
            assert {k: v for k, v in names.items() if k != "far piles"} == {
                k: v for k, v in read[first].items() if k != "far piles"
            }, (player, seats)
        assert len({names.get("far piles") for seats, names in read.items() if seats > 2}) == 1
    assert _named(seat_legend(table_keymap(keymap, mode, 3), 2, mode, 5, 3))["left pile"] == "J"


@pytest.mark.parametrize("mode", ["desktop", "tabletop"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_same_keys_at_every_table_size_clash_with_nothing(mode: str, seats: int) -> None:
    """The keyboard holds every seat's keys at once at every table size, each key doing one thing:
    players 3 and 4's number row and keypad share no key with players 1 and 2's map, and every
    control a seat has there (its piles, left, SPIT!, right, the far piles) has exactly one key."""
    from appliance.display.keys import SEAT_KEYS, table_keymap

    keymap = for_desktop(default_keymap()) if mode == "desktop" else default_keymap()
    table = table_keymap(keymap, mode, seats)
    assert not set(SEAT_KEYS) & set(table)
    every = {**table, **{key: target for key, target in SEAT_KEYS.items() if target[0] <= seats}}
    controls = ["pile1", "pile2", "pile3", "left", "spit", "right"] + (["far_left", "far_right"] if seats > 2 else [])
    for player in range(1, seats + 1):
        for control in controls:
            keys = [key for key, target in every.items() if target == (player, control)]
            assert len(keys) == 1, (player, control, keys)


@pytest.mark.parametrize(("seats", "control"), [(2, "right"), (3, "left"), (4, "left")])
def test_player_2s_j_key_plays_onto_their_left_pile_at_three_and_four_seats(seats: int, control: str) -> None:
    """On the desktop J is the key on the screen's left at a table of two (player 2's own right: they
    sit opposite) and their own left at three and four (they sit at the screen's side), as the legend
    says: the runner hands the table the press it means."""
    from headless import Harness, to_play, to_seats

    from appliance.shared.settings import Settings

    h = Harness((1280, 720), settings=Settings(layout="desktop"))
    if seats > 2:
        to_seats(h, seats)
    else:
        to_play(h)
    match = h.scene.match  # type: ignore[attr-defined]
    match.pressed.clear()  # (the presses that brought the game into play)
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        h.frame([pygame.event.Event(kind, key=pygame.K_j, mod=0, unicode="j", scancode=0)])
    assert match.pressed == {(2, control)}


def test_a_punctuation_key_beside_a_spit_pile_is_named() -> None:
    """Player 2's far right pile at a table of four is ".": beside the pile it reads ". (full stop)",
    as in their legend, not a lone dot."""
    from appliance.display.legend import pile_keys

    assert pile_keys(default_keymap(), 2, 3, 4) == ".\u00a0(full stop)"
    assert pile_keys(default_keymap(), 2, 0, 3) == "M .\u00a0(full stop)"  # both far keys reach the pile across
