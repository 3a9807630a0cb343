"""A click or a tap on a menu's line chooses it, as the keys do (display/menu_taps.py).

Read as data: which line, and so which press, a tap at a point of the screen chooses, for every menu
on both layouts (the tabletop's far seat reads its own copy of a panel, turned), at a table of two,
three and four, at every screen size; then played through the frame loop with mouse and finger
events as a window gives them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from headless import Harness, to_choose, to_game_over, to_pause
from test_display_screen_facts import LAYOUTS, SCENES, SEATS, SIZES, drive

from appliance.display.captions import Caption, Drawn, Line, draw_captions, fit_block
from appliance.display.compositor import Canvas
from appliance.display.menu_taps import menu_target, row_tap, tap_at
from appliance.display.scenes.base import BACK

KINDS = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.FINGERDOWN, pygame.FINGERUP)
# the menus, and what their lines that take a tap press (every one of them must be found at its place)
MENUS = ("title", "choose", "game_menu", "settings", "pause", "resume_ask", "game_over", "service_main",
         "service_adjustments", "service_audits", "service_switch_test", "learn_spit", "learned",
         "idle_countdown", "speed_idle_countdown")  # fmt: skip


def on_screen(drawn: Drawn, top: int, bottom: int) -> tuple[int, int]:
    """The screen point at the middle of a block's band (top..bottom, upright), turned as it was
    drawn: worked out forwards here, from how pygame turns an image (not menu_taps' own way back)."""
    rect, middle = drawn.rect, (top + bottom) // 2
    across = {0: rect.w, 180: rect.w, 90: rect.h, 270: rect.h}[drawn.angle % 360] // 2
    if drawn.angle % 360 == 180:
        return rect.right - 1 - across, rect.bottom - 1 - middle
    if drawn.angle % 360 == 90:  # anticlockwise: the first line along the left edge
        return rect.left + middle, rect.bottom - 1 - across
    if drawn.angle % 360 == 270:
        return rect.right - 1 - middle, rect.top + across
    return rect.left + across, rect.top + middle


def cases() -> list[tuple[str, str, tuple[int, int], int]]:
    return [
        (name, layout, size, seats)
        for name in MENUS
        for layout in LAYOUTS
        for size in SIZES
        for seats in (SEATS if SCENES[name][1] else (2,))
    ]


@pytest.mark.parametrize("angle", [0, 90, 180, 270])
def test_the_line_under_a_point_is_found_however_its_block_is_turned(angle: int) -> None:
    """Each line drawn in its own colour: wherever a pixel shows that colour, a tap there finds that
    line (the pixels say where the line is, not menu_taps' arithmetic)."""
    pygame.init()
    colours = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
    lines = tuple(Line("MMMM WWWW", 0.3, colour, f"line{n}") for n, colour in enumerate(colours))
    image, _scale, words, _px, _fits, taps = fit_block(lines, 100, (400, 300), angle, 0)
    screen = pygame.Surface((800, 800))
    rect = screen.blit(image, (100, 150))
    drawn = Drawn("panel", 2, words, rect, rect, angle, 1.0, 30, True, 0, taps)
    found = {n: 0 for n in range(len(colours))}
    for x in range(rect.left, rect.right, 2):
        for y in range(rect.top, rect.bottom, 2):
            colour = tuple(screen.get_at((x, y)))[:3]
            if colour in colours:
                n = colours.index(colour)
                assert tap_at([drawn], x, y) == (2, f"line{n}"), (x, y, colour)
                found[n] += 1
    assert all(found.values()), found
    assert tap_at([drawn], rect.left - 5, rect.top) is None  # off the block


@pytest.mark.parametrize(("name", "layout", "size", "seats"), cases())
def test_every_line_of_a_menu_that_takes_a_tap_is_found_where_it_is_drawn(
    name: str, layout: str, size: tuple[int, int], seats: int
) -> None:
    h = drive(name, layout, size, seats)
    texts = h.runner.top_texts
    tappable = [d for d in texts if d.taps]
    assert tappable, f"{name}: no line takes a tap"
    screen = pygame.Rect((0, 0), size)
    for drawn in tappable:
        for top, bottom, control in drawn.taps:
            point = on_screen(drawn, top, bottom)
            assert screen.collidepoint(point)
            assert tap_at(texts, *point) == (drawn.seat, control), (drawn.words, control, point)
    if layout == "tabletop":  # every seat reads its own copy of a panel for everybody, turned to face it
        panels = {d.seat: d for d in tappable if d.place == "panel" and len(d.taps) > 1}
        if 1 in panels and 2 in panels:
            near, far = panels[1], panels[2]
            assert [c for *_, c in near.taps] == [c for *_, c in far.taps]
            near_y = [on_screen(near, t, b)[1] for t, b, _ in near.taps]
            far_y = [on_screen(far, t, b)[1] for t, b, _ in far.taps]
            assert near_y == sorted(near_y) and far_y == sorted(far_y, reverse=True)  # the far copy upside down
            assert min(near_y) > size[1] // 2 > max(far_y)


def posted(*events: pygame.event.Event) -> list[Any]:
    pygame.event.clear()
    for event in events:
        pygame.event.post(event)
    return [event for event in pygame.event.get() if event.type in KINDS]


def where(h: Harness, control: str, seat: int | None = None) -> tuple[int, int]:
    """The middle of the (first) line that presses `control` on the screen last drawn (seat: whose copy)."""
    for drawn in h.runner.top_texts:
        for top, bottom, tap in drawn.taps:
            if tap == control and (seat is None or drawn.seat in (seat, None)):
                return on_screen(drawn, top, bottom)
    raise AssertionError(f"no line presses {control!r}")


def click(h: Harness, control: str, seat: int | None = None) -> None:
    point = where(h, control, seat)
    h.frame(posted(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=point, button=1),
                   pygame.event.Event(pygame.MOUSEBUTTONUP, pos=point, button=1)))  # fmt: skip


def tap(h: Harness, control: str, seat: int | None = None) -> None:
    w, hh = h.screen.get_size()
    x, y = where(h, control, seat)
    finger = {"x": x / w, "y": y / hh, "touch_id": 1, "finger_id": 1}
    h.frame(posted(pygame.event.Event(pygame.FINGERDOWN, **finger), pygame.event.Event(pygame.FINGERUP, **finger)))


def kind(h: Harness) -> str:
    return type(h.scene).__name__


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_tap_on_the_title_plays_and_on_the_invitation_starts_the_guide_at_that_seat(layout: str) -> None:
    h = Harness((1280, 720), layout)
    h.frame()
    click(h, "start")
    assert kind(h) == "ChooseScene"
    h = Harness((1280, 720), layout)
    h.frame()
    seat = 2 if layout == "tabletop" else 1  # the far seat taps its own copy; the desktop's is player 1's
    tap(h, "pile1", seat)
    assert kind(h) == "LearnScene" and h.scene.learner == seat  # type: ignore[attr-defined]
    tap(h, "start")  # the guide's "START leaves the guide"
    assert kind(h) == "TitleScene"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_tap_on_a_row_goes_to_it_and_a_second_tap_chooses_it(layout: str) -> None:
    h = Harness((1280, 720), layout)
    to_choose(h)
    h.frame()
    scene: Any = h.scene
    tap(h, row_tap(3))
    assert scene.index == 3
    tap(h, "spit")  # again: play, the computer at level 2
    assert kind(h) == "CountdownScene"
    assert h.ctx.computer_seats == {2: "2"}
    h = Harness((1280, 720), layout)
    to_choose(h)
    h.frame()
    scene = h.scene
    tap(h, row_tap(0))  # the game
    assert scene.index == 0
    tap(h, "spit")  # again: the game menu, as SPIT
    assert kind(h) == "GameMenuScene"
    menu: Any = h.scene
    tap(h, row_tap(1))
    assert menu.row == 1
    before = menu.row_words(menu.rows()[1])
    tap(h, "right")  # again: its next value
    after = menu.row_words(menu.rows()[1])
    assert after != before
    tap(h, "start")  # the line of keys: keep it
    assert kind(h) == "ChooseScene" and h.ctx.settings.house_rules


@pytest.mark.parametrize("seats", [3, 4])
def test_at_a_table_of_three_or_four_a_second_tap_on_a_seat_changes_it(seats: int) -> None:
    h = Harness((1280, 800), "tabletop")
    h.settings.house_rules = {"seats": seats}
    to_choose(h)
    h.frame()
    scene: Any = h.scene
    tap(h, row_tap(seats))
    assert scene.index == seats and scene.seats[seats - 1] is None
    tap(h, "right", 2)
    assert scene.seats[seats - 1] is not None  # the computer takes the seat
    tap(h, "start")  # the line of keys: play
    assert kind(h) == "CountdownScene"


def test_a_tap_on_game_over_plays_the_rematch_and_on_the_pause_plays_on() -> None:
    h = Harness((1280, 720), "tabletop")
    to_game_over(h)
    old: Any = h.scene
    h.advance(2.0)
    tap(h, "spit", 2)
    h.frame()
    assert kind(h) in ("CountdownScene", "PlayScene") and h.scene.match is not old.match  # type: ignore[attr-defined]
    h = Harness((1280, 720), "desktop")
    to_pause(h)
    h.frame()
    tap(h, "start")
    assert kind(h) == "PlayScene"
    to_pause(h)
    h.frame()
    click(h, BACK)
    assert kind(h) == "TitleScene"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_game_over_offers_the_rematch_and_the_title_on_a_line_each_and_a_tap_on_start_is_the_title(
    layout: str,
) -> None:
    h = Harness((1280, 720), layout)
    to_game_over(h)
    over: Any = h.scene
    offered = [(line.words, line.tap) for c in over.captions() for line in c.lines if line.tap is not None]
    assert offered == [("SPIT: a rematch, the same game and players", "spit"), ("START: the title", "start")]
    drawn = {c for d in h.runner.top_texts for *_, c in d.taps}
    assert drawn == {"spit", "start"}  # both drawn where a tap finds them (every copy: the test above)
    h.advance(2.0)
    tap(h, "start", 2 if layout == "tabletop" else None)  # the far seat's copy on the tabletop
    assert kind(h) == "TitleScene"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_tap_on_the_idle_countdowns_line_plays_on(layout: str) -> None:
    h = drive("idle_countdown", layout, (1280, 720), 2)
    scene: Any = h.scene
    offered = [(line.words, line.tap) for c in scene.idle_warning() for line in c.lines if line.tap is not None]
    assert offered == [("press any button to play on", "start")]
    events = len(scene.match.events)
    tap(h, "start")
    assert kind(h) == "PlayScene" and scene.idle_left_s(h.now_ns) is None  # the idle time starts again
    assert len(scene.match.events) == events  # START: no card or pile pressed
    assert scene.idle_warning() == []


class Waiting:
    """A linked game's table still waiting for the other cabinet (no network: what the scene reads)."""

    state, notice, match, closed = "connecting", "", None, False

    def tick(self, now_ns: int) -> None:
        pass

    def close(self) -> None:
        self.closed = True


def test_a_tap_on_the_linked_waits_escape_line_goes_back_to_the_title() -> None:
    from appliance.display.scenes.base import make

    h = Harness((1280, 720), "desktop")
    table = Waiting()
    h.runner.apply_scene(make("linked_wait", h.ctx, table, "port 7000"))
    h.frame()
    offered = [(line.words, line.tap) for c in h.scene.captions() for line in c.lines if line.tap is not None]  # type: ignore[attr-defined]
    assert offered == [("Escape: back to the title", BACK)]
    click(h, BACK)
    assert kind(h) == "TitleScene" and table.closed


@pytest.mark.parametrize("layout", LAYOUTS)
def test_initials_are_entered_by_tapping_the_letters_and_the_line_of_keys(layout: str, tmp_path: Path) -> None:
    """A touch screen's players have no pads to step the letters with: a tap on the letters is the next
    one, a tap on the line of keys takes it (each seat on its own copy)."""
    from test_display_reactions import kept

    h = Harness((1280, 720), layout)
    h.ctx.config_path = tmp_path / "config.toml"
    to_game_over(h)  # player 2's 400 ms, then player 1's 600 ms make the (empty) table
    h.frame()
    scene: Any = h.scene
    assert kind(h) == "ReactionInitialsScene" and scene.current == (2, 0, 400.0)
    taps = [(line.words, line.tap) for c in scene.captions() for line in c.lines if line.tap is not None]
    assert taps == [("[A] _ _", "right"), ("pads: letter   SPIT!: next", "spit")]
    for control in ("right", "spit", "right", "right", "spit", "spit"):  # B, C, A
        tap(h, control, 2)
    assert scene.current == (1, 0, 600.0)
    tap(h, "right", 1)
    for _ in range(3):
        tap(h, "spit", 1)  # B, A, A
    h.frame()
    assert kind(h) == "GameOverScene"
    assert kept(h) == [("BCA", 400.0, 2), ("BAA", 600.0, 1)]


def test_a_tap_in_the_service_menu_goes_to_a_row_chooses_it_and_goes_back() -> None:
    h = Harness((1280, 720), "desktop")
    h.runner.service_menu = True
    h.press(0, "service")
    h.frame()
    menu: Any = h.scene
    tap(h, row_tap(1))
    assert menu.cursor == 1
    tap(h, "start")
    assert menu.page == "audits"
    tap(h, "service")  # the line of keys: back
    assert menu.page == "main"
    tap(h, row_tap(5))
    tap(h, "start")  # Exit
    assert kind(h) == "TitleScene"


def test_who_taps_a_line_for_everybody() -> None:
    """START and SERVICE are the cabinet's (player 0); a seat's own copy is that seat's; a line for
    everybody on the desktop is player 1's."""
    pygame.init()
    canvas = Canvas(pygame.Surface((1280, 720)))
    from appliance.display.layout import table_layout

    layout = table_layout((1280, 720), "tabletop")
    lines = (Line("START", 0.2, tap="start"), Line("first pile", 0.2, tap="pile1"))
    draw_captions(canvas, layout, [Caption("panel", None, lines)])
    far = next(d for d in canvas.texts if d.seat == 2)
    assert menu_target(canvas.texts, *on_screen(far, *far.taps[0][:2])) == (0, "start")
    assert menu_target(canvas.texts, *on_screen(far, *far.taps[1][:2])) == (2, "pile1")
    desktop = Canvas(pygame.Surface((1280, 720)))
    draw_captions(desktop, table_layout((1280, 720), "desktop"), [Caption("panel", None, lines)])
    (shared,) = desktop.texts
    assert menu_target(desktop.texts, *on_screen(shared, *shared.taps[1][:2])) == (1, "pile1")


@pytest.mark.parametrize(("layout", "learner"), [("desktop", 1), ("tabletop", 2)])
def test_a_tap_on_the_guides_prompt_does_what_it_asks(layout: str, learner: int) -> None:
    """The guided first game played by tapping its prompt alone: each tap the press asked for."""
    h = Harness((1280, 720), layout)
    h.press(learner, "pile1")
    h.frame()
    scene: Any = h.scene
    assert kind(h) == "LearnScene" and scene.learner == learner
    box = scene.view.layout.seat(learner).places["prompt"]
    w, hh = h.screen.get_size()
    for step in range(3):
        while scene.guide.waiting(scene.match.game):
            h.advance(0.1)
        before = scene.guide.index, scene.guide.part
        finger = {"x": box.centerx / w, "y": box.centery / hh, "touch_id": 1, "finger_id": 1}
        h.frame(posted(pygame.event.Event(pygame.FINGERDOWN, **finger), pygame.event.Event(pygame.FINGERUP, **finger)))
        assert (scene.guide.index, scene.guide.part) != before, step
        assert scene.wrong is None
