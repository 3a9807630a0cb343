"""A pointer's press paired with its release, and each edge's time (appliance/inputs/pointer.py): the
piece the table's taps (touch.py) and the menus' (display/menu_taps.py) share. Mouse and finger
events posted through pygame's dummy video driver and read back as SDL hands them over."""

from __future__ import annotations

import pygame
import pytest
from test_inputs_touch import SIZE, dummy_display, posted  # noqa: F401 (the dummy screen, autouse)

from appliance.inputs.pointer import Pointers, Target

MS = 1_000_000


def mouse(down: bool, x: int, y: int, **extra: object) -> pygame.event.Event:
    kind = pygame.MOUSEBUTTONDOWN if down else pygame.MOUSEBUTTONUP
    return pygame.event.Event(kind, pos=(x, y), **{"button": 1, **extra})


def finger(down: bool, x: float, y: float, finger_id: int) -> pygame.event.Event:
    kind = pygame.FINGERDOWN if down else pygame.FINGERUP
    return pygame.event.Event(kind, x=x, y=y, touch_id=1, finger_id=finger_id)


class Screen:
    """Player 1's pile on the left half, player 2's on the right; the places asked, in order."""

    def __init__(self) -> None:
        self.asked: list[tuple[float, float]] = []

    def __call__(self, x: float, y: float) -> Target | None:
        self.asked.append((x, y))
        if y > 400:
            return None  # the felt
        return (1, "pile1") if x < 500 else (2, "pile1")


def test_a_release_is_what_its_press_took_wherever_it_ends() -> None:
    pointers, screen = Pointers(SIZE), Screen()
    events = posted(mouse(True, 100, 100), mouse(False, 900, 450))
    assert [pointers.pair(e, screen) for e in events] == [((1, "pile1"), True), ((1, "pile1"), False)]
    assert screen.asked == [(100.0, 100.0)]  # the release is not looked up where it ended


def test_a_press_on_nothing_holds_nothing_and_a_press_still_held_is_not_a_second() -> None:
    pointers, screen = Pointers(SIZE), Screen()
    events = posted(mouse(True, 100, 450), mouse(False, 100, 450),  # on the felt: nothing, and its release nothing
                    mouse(True, 100, 100), mouse(True, 900, 100),  # a release never seen, then another press
                    mouse(False, 900, 100))  # fmt: skip
    paired = [pointers.pair(e, screen) for e in events]
    assert paired == [None, None, ((1, "pile1"), True), None, ((1, "pile1"), False)]
    assert screen.asked == [(100.0, 450.0), (100.0, 100.0)]  # the held pointer's second press asks nothing


def test_each_finger_is_a_pointer_of_its_own_and_its_place_is_scaled_to_the_screen() -> None:
    pointers, screen = Pointers(SIZE), Screen()
    events = posted(finger(True, 0.1, 0.2, 1), finger(True, 0.9, 0.2, 2), finger(False, 0.5, 0.5, 1),
                    finger(False, 0.5, 0.5, 2))  # fmt: skip
    paired = [pointers.pair(e, screen) for e in events]
    assert paired == [((1, "pile1"), True), ((2, "pile1"), True), ((1, "pile1"), False), ((2, "pile1"), False)]
    assert screen.asked == [pytest.approx((100.0, 100.0)), pytest.approx((900.0, 100.0))]


def test_other_buttons_and_the_mouse_events_sdl_made_from_a_touch_are_no_edges() -> None:
    pointers, screen = Pointers(SIZE), Screen()
    events = [*posted(mouse(True, 100, 100, button=3), mouse(True, 100, 100, touch=True)),
              pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(0, 0), buttons=(1, 0, 0))]  # fmt: skip
    assert [pointers.pair(e, screen) for e in events] == [None, None, None]
    assert screen.asked == []


def test_an_edge_is_stamped_with_its_own_time_never_later_than_it_was_fed() -> None:
    pointers = Pointers(SIZE, ticks_ms=lambda: 10_000)  # SDL's clock now
    now = 5_000 * MS
    assert pointers.stamp(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(1, 1), button=1, timestamp=9_988), now) \
        == now - 12 * MS  # fmt: skip
    assert pointers.stamp(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(1, 1), button=1, timestamp=10_050), now) \
        == now  # fmt: skip
    assert pointers.stamp(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(1, 1), button=1), now) == now
