"""Every scene renders, and scene changes happen when players (or the clock) say so."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from headless import KEY_SCENES, Harness, to_choose, to_game_over, to_play, to_ready

from appliance.display.events import kind
from appliance.display.scenes.choose import ChooseScene
from appliance.display.scenes.play import PlayScene
from appliance.display.scenes.spit_words import summary_lines
from appliance.display.scenes.title import TitleScene
from appliance.match import bots_available
from appliance.rules.events import from_json
from appliance.shared.settings import Settings


@pytest.mark.parametrize("name", list(KEY_SCENES))
@pytest.mark.parametrize("layout", ["desktop", "tabletop"])
def test_every_scene_renders(name: str, layout: str) -> None:
    expected, go = KEY_SCENES[name]
    h = Harness((480, 270), layout)
    go(h)
    assert type(h.scene).__name__ == expected
    shot = h.screenshot()
    assert len(set(pygame.image.tobytes(shot, "RGB")[::997])) > 5  # not a blank screen
    assert pygame.image.tobytes(shot, "RGB") == pygame.image.tobytes(h.full_render(), "RGB")


def test_the_choose_scene_offers_the_computer_at_every_level() -> None:
    h = Harness((480, 270))
    to_choose(h)
    scene = h.scene
    assert isinstance(scene, ChooseScene)
    levels = bots_available()
    assert len(scene.options) == 1 + len([level for level in levels if level.isdigit()]) == 6
    h.press(1, "right")
    h.press(1, "spit")
    h.advance(2.2)
    assert isinstance(h.scene, PlayScene)
    assert set(h.scene.match.bots) == {2}


def test_a_game_nobody_touches_goes_back_to_the_title() -> None:
    h = Harness((480, 270), settings=Settings(idle_timeout_s=5))
    to_ready(h)
    assert isinstance(h.scene, PlayScene)
    match = h.scene.match
    h.advance(4)
    assert isinstance(h.scene, PlayScene)
    h.press(1, "pile1")
    h.advance(4)
    assert isinstance(h.scene, PlayScene)  # the press counted as somebody playing
    h.advance(1.5)
    assert isinstance(h.scene, TitleScene) and match.finished


IDLE_WORDS = {
    "en": ("Nobody is playing", "the game ends in {s} s press any button to play on"),
    "de": ("Niemand spielt", "das Spiel endet in {s} s drück irgendeine Taste, um weiterzuspielen"),
    "eo": ("Neniu ludas", "la ludo finiĝos post {s} s premu ajnan butonon por plu ludi"),
}


def centre_words(h: Harness) -> list[str]:
    """What the frame shows in the middle, every seat's copy (its recorded texts, as data)."""
    return [" ".join(d.words) for d in h.canvas().texts if d.place == "centre"]


@pytest.mark.parametrize("language", ["en", "de", "eo"])
@pytest.mark.parametrize("layout", ["desktop", "tabletop"])
def test_the_idle_time_is_counted_down_before_the_game_is_left_and_any_press_cancels_it(
    language: str, layout: str
) -> None:
    from appliance.display.i18n import set_language

    h = Harness((1280, 720), settings=Settings(layout=layout, idle_timeout_s=60))
    to_ready(h)
    match = h.scene.match  # type: ignore[attr-defined]
    copies = 1 if layout == "desktop" else 2  # on the tabletop a copy faces each seat
    set_language(language)
    try:
        head, words = IDLE_WORDS[language]
        h.advance(49.5)
        assert centre_words(h) == []  # played (or not) for 49.5 s: no countdown yet
        h.advance(1.0)  # 9.5 s left
        assert centre_words(h) == [f"{head} {words.format(s=10)}"] * copies
        h.advance(5.0)  # 4.5 s left
        assert centre_words(h) == [f"{head} {words.format(s=5)}"] * copies
        h.press(0, "start")  # not a game's press, but somebody is there
        h.frame()
        assert centre_words(h) == [] and isinstance(h.scene, PlayScene)
        h.advance(59.5)  # the whole idle time again, counted down to its last second, then the game is left
        assert centre_words(h) == [f"{head} {words.format(s=1)}"] * copies
        h.advance(1.0)
        assert isinstance(h.scene, TitleScene) and match.finished
    finally:
        set_language("en")


def test_presses_for_a_computer_seat_are_ignored() -> None:
    h = Harness((480, 270))
    to_play(h)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    scene.match.bots[2] = _Idle()
    before = len(scene.match.events)
    h.press(2, "pile3")
    assert len(scene.match.events) == before


class _Idle:
    def next_press(self, game: object, now: float) -> None:
        return None


def test_game_over_shows_figures_then_the_title() -> None:
    h = Harness((480, 270), "tabletop")
    to_game_over(h)
    figures = h.scene.words.figures  # type: ignore[attr-defined]
    assert figures[1].cards_played == 1 and figures[1].races_won == 1 and figures[1].fastest_reaction_ms == 600
    h.press(1, "spit")  # too soon: a press meant for the game doesn't skip the result
    h.frame()
    assert type(h.scene).__name__ == "GameOverScene"
    h.advance(2)
    h.press(0, "start")  # (SPIT! is a rematch: tests/test_display_rematch.py)
    h.frame()
    assert isinstance(h.scene, TitleScene)


def test_round_summary_says_who_took_which_pile() -> None:
    lines = summary_lines(
        [from_json(e) for e in [
            {"t": 1, "event": "round_over", "round": 2, "reason": "stock_out", "player": 1},
            {"t": 2, "event": "slap", "player": 2, "spit_pile": 1, "size": 3},
            {"t": 2, "event": "take", "player": 2, "spit_pile": 1, "cards": 3},
            {"t": 2, "event": "take", "player": 1, "spit_pile": 0, "cards": 15},
        ]],
        "tabletop",
    )
    assert [words for words, _ in lines] == [
        "Round 2: player 1 played out their stock!",
        "Player 2 slapped first",
        "Player 2 takes their left pile: 3 cards",
        "Player 1 takes their left pile: 15 cards",
    ]


def test_a_press_during_the_round_summary_goes_on_and_counts() -> None:
    from headless import to_round_summary

    h = Harness((480, 270))
    to_round_summary(h)
    assert type(h.scene).__name__ == "RoundSummaryScene"
    match = h.scene.match  # type: ignore[attr-defined]
    # player 1 holds fewer than 15 cards now, so no spit cards: player 2 spits alone, choosing a pile
    h.press(2, "left")
    h.frame()
    assert isinstance(h.scene, PlayScene)
    assert [kind(e) for e in match.events if kind(e) in ("choose", "call")] == ["choose", "call"]


def test_a_journal_that_cannot_be_written_does_not_stop_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")
    h = Harness((480, 270), journal_dir=blocked / "journals")
    to_ready(h)
    assert isinstance(h.scene, PlayScene) and h.scene.match.journal is None
    assert "cannot journal this game" in capsys.readouterr().err


def test_the_operator_can_switch_the_attract_game_off() -> None:
    for attract, moves in ((True, True), (False, False)):
        h = Harness((480, 270), settings=Settings(attract=attract))
        h.advance(20.0)
        assert isinstance(h.scene, TitleScene)
        assert (h.scene.match.presses > 0) is moves, attract
