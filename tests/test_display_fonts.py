"""Text sizes made ready ahead: a game's frames of play draw no text at a size whose font and
letters were not ready before its first press (a new size's first text cost up to about 2 ms in
the frame; `spit-arcade bench render`'s frames_new_text_size counts such frames)."""

from __future__ import annotations

import pytest
from headless import Harness, headless_display, to_seats

from appliance.display import fonts
from appliance.display.layout import table_layout
from appliance.display.table_pieces import Flash
from appliance.display.table_view import play_text_sizes


@pytest.fixture()
def fresh_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    """No size made yet (the tests before this one have made many)."""
    monkeypatch.setattr(fonts, "_fonts", {})
    monkeypatch.setattr(fonts, "_warm", set())
    monkeypatch.setattr(fonts, "_wanted", set())


def test_wanted_sizes_are_made_in_spare_time_until_none_is_left(fresh_fonts: None) -> None:
    headless_display((320, 240))
    fonts.want([12, 30, 20])
    while not fonts.warm(0.0):  # (a size at least each call, however short the time)
        pass
    assert fonts.sizes_made() == 3
    fonts.font(20)
    fonts.text("Player 2 first by 12 ms", 30)
    assert fonts.sizes_made() == 3
    fonts.want([20, 31, 32])  # one of them ready already: only the other two are left
    assert not fonts.warm(0.0) and fonts.warm(0.0) and fonts.sizes_made() == 5


@pytest.mark.parametrize(("size", "mode", "seats", "computer"),
                         [((1920, 1080), "tabletop", 4, {4: "2"}), ((1280, 720), "desktop", 2, {})])
def test_a_game_in_play_draws_no_text_at_a_size_not_ready_before_play(
    fresh_fonts: None, size: tuple[int, int], mode: str, seats: int, computer: dict[int, str]
) -> None:
    """Through the title, the players' menu and the countdown into play; then a reject at every
    seat, the computer's races, and a long message at every seat and a race told to everybody,
    shrunk through several sizes to fit their boxes: no size made in play."""
    h = Harness(size, mode)
    to_seats(h, seats, computer)
    ready = fonts.sizes_made()
    assert ready >= len(play_text_sizes(table_layout(size, mode, seats=seats)))
    for player in range(1, seats + 1):
        h.press(player, "left")  # nothing picked up: a reject, told in the seat's own place
        h.frame()
    h.advance(4.0)
    view = h.scene.view  # type: ignore[attr-defined]
    long = "Nothing fits here: the card needs a 5 or a 7, and neither spit pile has one on top, so wait"
    for player in range(1, seats + 1):
        view.messages[player] = Flash(lambda: long, h.now_ns + 10**9)
    view.race = Flash(lambda: "Player 2 first by 12 ms, and player 3 by 40 ms after, player 1 by 90", h.now_ns + 10**9)
    h.frame()
    shrunk = [d for d in h.canvas().texts if d.place in ("reject", "race") and d.scale < 1]
    assert shrunk  # (what this test is about)
    assert fonts.sizes_made() == ready
