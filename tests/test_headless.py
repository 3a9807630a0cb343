"""The tests' harness (headless.py): its scene drivers reach what they say, at every table."""

from __future__ import annotations

import pytest
from headless import Harness, everybody_calls_spit, to_play, to_ready, to_seats

from appliance.display.scenes.play import PlayScene


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_seat_calling_spit_turns_the_spit_cards_at_every_table(seats: int) -> None:
    h = Harness((1280, 720))
    if seats == 2:
        to_ready(h)
        everybody_calls_spit(h)
    else:
        to_seats(h, seats)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    game = scene.match.game
    assert game.phase == "playing" and game.table.seats == seats
    assert [len(pile) for pile in game.spit_piles] == [1] * seats  # each seat's first spit card turned


def test_the_play_scene_has_a_reject_and_selected_cards() -> None:
    h = Harness((1280, 720))
    to_play(h)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    assert scene.match.game.player(1).selected == 1
    assert any(e.kind == "reject" for e in scene.match.events)
