import warnings

import pygame
import pytest

from appliance.inputs.keyboard import KeyboardSource, check_keymap, default_keymap, legend
from appliance.inputs.press import GAME_CONTROLS, Press


class Sink:
    def __init__(self) -> None:
        self.presses: list[Press] = []

    def put(self, press: Press) -> None:
        self.presses.append(press)

    def advance(self, source: str, t_ns: int) -> None:
        pass


def key(kind: int, name: str, **extra: object) -> pygame.event.Event:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # key_code before pygame.init(): the table is static
        return pygame.event.Event(kind, key=pygame.key.key_code(name), **extra)


def test_the_default_map_gives_each_player_every_game_control_once():
    keymap = check_keymap(default_keymap())
    for player in (1, 2):
        assert sorted(c for p, c in keymap.values() if p == player) == sorted(GAME_CONTROLS)
    assert {c for p, c in keymap.values() if p == 0} == {"start", "service", "coin"}


def test_legend_names_every_key():
    lines = legend(default_keymap())
    assert lines[0] == "Player 1  piles Q W E R T G  far_left Z  left A  spit S  right D  far_right C  slap X"
    assert lines[1] == "Player 2  piles U I O P [ ]  far_left M  left J  spit K  right L  far_right .  slap ,"
    assert lines[2] == "start Return  service F2  coin F3"


def test_bad_maps_are_refused():
    with pytest.raises(ValueError, match="unknown control"):
        check_keymap({"q": (1, "pile9")})
    with pytest.raises(ValueError, match="both map"):
        check_keymap({"q": (1, "left"), "w": (1, "left")})


def test_key_events_become_presses_stamped_when_fed():
    source = KeyboardSource(clock=lambda: 5_000)
    sink = Sink()
    source.start(sink)
    assert source.feed(key(pygame.KEYDOWN, "k"), now_ns=1_000) == Press(2, "spit", True, 1_000, "keyboard")
    assert source.feed(key(pygame.KEYDOWN, "k")) is None  # auto-repeat
    assert source.feed(key(pygame.KEYUP, "k")) == Press(2, "spit", False, 5_000, "keyboard")
    assert source.feed(key(pygame.KEYDOWN, "y")) is None  # not mapped
    assert source.feed(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(0, 0))) is None
    assert len(sink.presses) == 2
    status = {(c.player, c.control): c for c in source.status(0).controls}
    assert status[(2, "spit")].presses == 1 and not status[(2, "spit")].down


def test_an_sdl_timestamp_is_used_when_the_event_has_one():
    source = KeyboardSource(clock=lambda: 10_000_000_000, ticks_ms=lambda: 2_000)
    press = source.feed(key(pygame.KEYDOWN, "a", timestamp=1_990))
    assert press is not None and press.t_ns == 10_000_000_000 - 10_000_000


def test_feed_all_and_a_custom_map():
    source = KeyboardSource({"left": (1, "left"), "right": (1, "right")})
    presses = source.feed_all([key(pygame.KEYDOWN, "left"), key(pygame.KEYDOWN, "right")])
    assert [p.control for p in presses] == ["left", "right"]


def test_f3_is_a_coin_one_per_press_and_key_repeat_is_not_another():
    source = KeyboardSource(clock=lambda: 7_000)
    sink = Sink()
    source.start(sink)
    assert source.feed(key(pygame.KEYDOWN, "f3"), now_ns=1_000) == Press(0, "coin", True, 1_000, "keyboard")
    for _ in range(5):
        assert source.feed(key(pygame.KEYDOWN, "f3")) is None  # held: the key repeats, no more coins
    assert source.feed(key(pygame.KEYUP, "f3")) == Press(0, "coin", False, 7_000, "keyboard")
    assert [p.pressed for p in sink.presses] == [True, False]
    assert legend({"f3": (0, "coin")}) == ["coin F3"]
