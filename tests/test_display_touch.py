"""A mouse and a touch screen on the table: a click or a tap on a card picks it up, on a spit pile
plays it, on your own spit cards calls SPIT!. Mouse and finger events go through pygame's dummy video
driver (posted, read back with pygame.event.get) into the frame loop, as a window would give them."""

from __future__ import annotations

from typing import Any

import pygame
import pytest
from headless import Harness, _play_from
from positions import position

from appliance.display.scenes.play import PlayScene

SIZE = (1280, 720)
MS = 1_000_000
KINDS = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.FINGERDOWN, pygame.FINGERUP)
# player 1's 4S fits the 5H on spit pile 0; player 2's 8D fits the 9C on spit pile 1
TABLE = position(["4S", "KC", "KD", "KH", "QC"], ["8D", "2C", "2D", "2H", "3C"], spit=("5H", "9C"),
                 p1_spit="7H 7S", p2_spit="7D 7C")


def posted(*events: pygame.event.Event) -> list[Any]:
    pygame.event.clear()
    for event in events:
        pygame.event.post(event)
    return [event for event in pygame.event.get() if event.type in KINDS]


def click(point: tuple[int, int], **extra: object) -> list[Any]:
    return posted(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=point, button=1, **extra),
                  pygame.event.Event(pygame.MOUSEBUTTONUP, pos=point, button=1, **extra))


def tap(point: tuple[int, int], finger: int = 1) -> list[Any]:
    x, y = point[0] / SIZE[0], point[1] / SIZE[1]
    return posted(pygame.event.Event(pygame.FINGERDOWN, x=x, y=y, touch_id=1, finger_id=finger),
                  pygame.event.Event(pygame.FINGERUP, x=x, y=y, touch_id=1, finger_id=finger))


def at_table(layout: str) -> tuple[Harness, PlayScene]:
    h = Harness(SIZE, layout)
    _play_from(h, TABLE)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    return h, scene


@pytest.mark.parametrize("layout", ["desktop", "tabletop"])
def test_a_click_on_a_card_picks_it_up_and_on_a_spit_pile_plays_it(layout: str) -> None:
    h, scene = at_table(layout)
    game = scene.match.spit
    seat = scene.view.layout.seat(1)
    h.frame(click(seat.stock[0].center))
    assert game.player(1).selected == 1  # picked up
    h.frame(click(scene.view.layout.spit_piles[0].center))
    plays = [e for e in scene.match.events if e.kind == "play"]
    assert [(e.player, e.card, e.spit_pile) for e in plays] == [(1, "4S", 0)]


@pytest.mark.parametrize("layout", ["desktop", "tabletop"])
def test_two_fingers_at_once_each_plays_for_the_seat_whose_card_it_tapped(layout: str) -> None:
    h, scene = at_table(layout)
    lay = scene.view.layout
    h.frame(tap(lay.seat(2).stock[0].center, finger=1))
    h.frame(tap(lay.spit_piles[1].center, finger=2))
    h.frame(tap(lay.seat(1).stock[0].center, finger=3))
    h.frame(tap(lay.spit_piles[0].center, finger=4))
    plays = [(e.player, e.card, e.spit_pile) for e in scene.match.events if e.kind == "play"]
    assert plays == [(2, "8D", 1), (1, "4S", 0)]


def test_a_tap_on_your_spit_cards_calls_spit() -> None:
    h = Harness(SIZE, "tabletop")
    _play_from(h, position(["KS", "", "", "", ""], ["KD", "", "", "", ""], spit=("5H", "9C"),
                           p1_spit="7H 7S", p2_spit="7D 7C", phase="stalemate"))
    scene = h.scene
    assert isinstance(scene, PlayScene)
    h.frame(tap(scene.view.layout.seat(2).spit_cards.center))
    assert [(e.kind, e.player) for e in scene.match.events if e.kind == "call"] == [("call", 2)]


def test_a_tap_is_stamped_with_the_events_own_time() -> None:
    """The play is at the moment SDL stamped the tap (12 ms before the frame that took it in)."""
    h, scene = at_table("desktop")
    h.runner.touch.pointers.ticks_ms = lambda: 50_000  # SDL's clock as the frame reads it
    h.frame(click(scene.view.layout.seat(1).stock[0].center))
    h.advance(0.1)
    down, up = click(scene.view.layout.spit_piles[0].center, timestamp=49_988)
    h.frame([down, up])
    (play,) = [e for e in scene.match.events if e.kind == "play"]
    assert play.t == pytest.approx(scene.match.game_time(h.now_ns - 12 * MS), abs=1e-6)


def test_the_computers_cards_the_felt_and_a_menu_take_no_taps() -> None:
    from appliance.display.scenes.base import make
    from appliance.match import Match, make_bot
    from appliance.rules import game_from_state

    h = Harness(SIZE, "desktop")
    assert h.runner.touch_target(SIZE[0] / 2, SIZE[1] / 2, None) is None  # the title: no table to tap
    match = Match(7, h.now_ns, None, {2: make_bot("1", 2, 7)}, game=game_from_state(TABLE, seed=7))
    h.runner.apply_scene(make("play", h.ctx, match))
    h.frame()
    lay = h.scene.view.layout  # type: ignore[attr-defined]
    assert h.runner.touch_target(*lay.seat(1).stock[0].center, None) == (1, "pile1")
    assert h.runner.touch_target(*lay.seat(2).stock[0].center, None) is None  # the computer's
    assert h.runner.touch_target(5, SIZE[1] // 2, None) is None  # the felt
    # with one person at the table a spit pile is theirs, whoever tapped last
    assert h.runner.touch_target(*lay.spit_piles[1].center, None) == (1, "right")


def test_touch_turned_off_in_the_inputs_takes_no_taps(tmp_path: Any) -> None:
    """The inputs configuration's source "touch": named, a tap is a press; left out, taps do nothing
    (a cabinet whose screen is no touch screen); a desktop with no inputs named has it."""
    from appliance.display.app import parse_args, touch_wanted
    from appliance.display.runner import Runner

    path = tmp_path / "inputs.toml"
    path.write_text('sources = ["gpio"]\n')
    assert touch_wanted(parse_args(["--inputs", str(path)])) is False
    path.write_text('sources = ["gpio", "touch"]\n')
    assert touch_wanted(parse_args(["--inputs", str(path)])) is True
    assert touch_wanted(parse_args(["--sources", "serial,touch"])) is True
    assert touch_wanted(parse_args(["--sources", "serial"])) is False
    assert touch_wanted(parse_args([])) is True
    h, scene = at_table("desktop")
    h.runner = Runner(h.ctx, scene, h.screen, present=h.presented.append, touch=False)
    h.frame(click(scene.view.layout.seat(1).stock[0].center))
    assert h.runner.touch is None and scene.match.spit.player(1).selected is None  # nothing picked up
