"""The touch source (appliance/inputs/touch.py): mouse and finger events, posted through pygame's
dummy video driver and read back with pygame.event.get, become presses of whatever the screen says
lies under them, stamped with the event's own time and ordered with every other source's."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pygame
import pytest
from test_inputs_keyboard import Sink

from appliance.inputs.keyboard import KeyboardSource
from appliance.inputs.merge import Merger
from appliance.inputs.touch import TouchSource

MS = 1_000_000
SIZE = (1000, 500)


@pytest.fixture(autouse=True)
def dummy_display() -> Iterator[None]:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    pygame.display.set_mode(SIZE)
    pygame.event.clear()
    yield


def table(x: float, y: float, last: int | None) -> tuple[int, str] | None:
    """Player 1's pile 1 on the left (x < 100), player 2's pile 1 on the right (x > 900), a spit pile
    between them (400..600): the last seat that picked a card plays it."""
    if x < 100:
        return 1, "pile1"
    if x > 900:
        return 2, "pile1"
    if 400 <= x <= 600:
        return None if last is None else (last, "left")
    return None


def posted(*events: pygame.event.Event) -> list[pygame.event.Event]:
    """The events as SDL hands them back (posted to its queue through the dummy driver, then read)."""
    pygame.event.clear()
    for event in events:
        pygame.event.post(event)
    kinds = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.FINGERDOWN, pygame.FINGERUP)
    return [event for event in pygame.event.get() if event.type in kinds]


def click(x: int, y: int, **extra: object) -> list[pygame.event.Event]:
    return [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, **extra),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1, **extra)]


def test_a_click_on_a_card_picks_it_up_and_on_a_spit_pile_plays_it() -> None:
    touch = TouchSource(table, SIZE)
    sink = Sink()
    touch.start(sink)
    for i, event in enumerate(posted(*click(50, 250), *click(500, 250))):
        touch.feed(event, 1000 * MS + i)
    assert [(p.player, p.control, p.pressed, p.source) for p in sink.presses] == [
        (1, "pile1", True, "touch"), (1, "pile1", False, "touch"),
        (1, "left", True, "touch"), (1, "left", False, "touch")]
    assert [p.t_ns for p in sink.presses] == [1000 * MS, 1000 * MS + 1, 1000 * MS + 2, 1000 * MS + 3]


def test_a_finger_is_scaled_to_the_screen_and_the_spit_pile_is_the_last_seat_s() -> None:
    touch = TouchSource(table, SIZE)
    fingers = posted(
        pygame.event.Event(pygame.FINGERDOWN, x=0.95, y=0.5, touch_id=1, finger_id=7),  # x 950: player 2
        pygame.event.Event(pygame.FINGERDOWN, x=0.5, y=0.5, touch_id=1, finger_id=8),  # the spit pile
        pygame.event.Event(pygame.FINGERUP, x=0.1, y=0.1, touch_id=1, finger_id=7),  # lifted elsewhere
        pygame.event.Event(pygame.FINGERUP, x=0.5, y=0.5, touch_id=1, finger_id=8),
    )
    made = [touch.feed(event, 5 * MS) for event in fingers]
    assert [(p.player, p.control, p.pressed) for p in made if p is not None] == [
        (2, "pile1", True), (2, "left", True), (2, "pile1", False), (2, "left", False)]  # a release is its press's


def test_nothing_under_the_pointer_the_right_button_and_a_mouse_event_made_from_a_touch_press_nothing() -> None:
    touch = TouchSource(table, SIZE)
    events = posted(
        *click(300, 250),  # the table's felt
        *click(500, 250),  # a spit pile, before anybody picked a card
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(50, 250), button=3),
        *click(50, 250, touch=True),  # SDL's copy of a tap: the finger event is the press
    )
    assert [touch.feed(event, 0) for event in events] == [None] * len(events)


def test_a_tap_is_stamped_with_its_own_time_on_the_game_clock() -> None:
    """An event that carries SDL's timestamp (ms on the get_ticks clock) is stamped when it happened,
    however late it is fed; never later than the moment it is fed."""
    touch = TouchSource(table, SIZE, ticks_ms=lambda: 10_000)
    (down, up) = click(50, 250, timestamp=9_988)  # 12 ms before SDL's clock read 10 s
    press = touch.feed(down, 500 * MS)
    assert press is not None and press.t_ns == 488 * MS
    touch.feed(up, 500 * MS)
    (down, _up) = click(950, 250, timestamp=10_050)  # a stamp "in the future": the moment fed
    press = touch.feed(down, 500 * MS)
    assert press is not None and press.t_ns == 500 * MS


def test_taps_are_ordered_with_every_other_press_by_their_own_time() -> None:
    """A key pressed after a tap but fed first: the merger hands the tap on first, by its edge time."""
    keyboard = KeyboardSource()
    touch = TouchSource(table, SIZE, ticks_ms=lambda: 10_000)
    merger = Merger([keyboard, touch])
    merger.start()
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u, mod=0, unicode="u", scancode=0)
    keyboard.feed(key, 495 * MS)  # player 2's pile 1 at 495 ms
    (down, _up) = click(50, 250, timestamp=9_990)  # player 1's tap, 10 ms before 500 ms: at 490 ms
    touch.feed(down, 500 * MS)
    out = merger.ready(500 * MS)
    assert [(p.player, p.control, p.t_ns // MS) for p in out] == [(1, "pile1", 490), (2, "pile1", 495)]
    status = touch.status(500 * MS)
    assert [(c.player, c.control, c.presses) for c in status.controls] == [(1, "pile1", 1)]
