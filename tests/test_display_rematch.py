"""The screens around a game: a rematch from the game-over screen in one press (the same game, the
same seats, the computer at the same levels), the players' menu remembering who the computer was,
and the figures explained where they are shown. Read from the frame's texts, as data."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from headless import Harness, to_choose, to_seats

from appliance.display.coins import office
from appliance.display.i18n import LANGUAGES, set_language
from appliance.display.scenes.base import BACK, MenuKey, make
from appliance.display.scenes.choose import ChooseScene
from appliance.display.scenes.countdown import CountdownScene
from appliance.display.scenes.game_over import GameOverScene
from appliance.display.scenes.play import PlayScene
from appliance.display.scenes.title import TitleScene
from appliance.shared.settings import Settings

SIZE = (1280, 720)


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    set_language("en")


def words(h: Harness) -> str:
    """Every text on the frame, a wrapped line joined again (the recorded texts, as data)."""
    return " | ".join(" ".join(text.words) for text in h.canvas().texts)


def against_level_4(h: Harness) -> PlayScene:
    """Four piles with alternating colours against the computer at level 4, in play."""
    h.settings.game = "four-piles"
    h.settings.house_rules = {"alternate_colours": True}
    to_choose(h)
    h.press(1, "pile5")  # the rows: two players, then levels 1..5: pile 5 is level 4 (3 is recommended)
    h.press(1, "spit")
    h.frame()
    h.advance(2.2)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    return scene


def game_over(h: Harness, scene: Any) -> GameOverScene:
    h.runner.apply_scene(make("game_over", h.ctx, scene.match, scene.view))
    h.frame()
    over = h.scene
    assert isinstance(over, GameOverScene)
    return over


REMATCH = {  # a line each, so a tap on either is its press (SPIT!: the rematch; START: the title)
    "en": ["SPIT: a rematch, the same game and players", "START: the title"],
    "de": ["SPIT: Revanche, gleiches Spiel, gleiche Spieler", "START: zum Titel"],
    "eo": ["SPIT: revanĉo, sama ludo kaj ludantoj", "START: al la titolo"],
}
EXPLAINED = {
    "en": ["fastest reaction: the quickest card played after a spit pile changed",
           "races won: cards played onto a pile just before another player's press for it"],
    "de": ["schnellste Reaktion: die schnellste Karte, nachdem sich ein Spit-Stapel geändert hat",
           "gewonnene Rennen: Karten, die knapp vor dem Druck eines anderen auf denselben Stapel kamen"],
    "eo": ["plej rapida reago: la plej rapida karto ludita post ŝanĝo de spit-stako",
           "gajnitaj vetkuroj: kartoj metitaj sur stakon ĵus antaŭ ies alies premo por ĝi"],
}


@pytest.mark.parametrize("layout", ["desktop", "tabletop"])
def test_game_over_offers_a_rematch_and_explains_its_figures(layout: str) -> None:
    h = Harness(SIZE, layout)
    game_over(h, against_level_4(h))
    for language in LANGUAGES:
        set_language(language)
        shown = words(h)
        for line in REMATCH[language]:
            assert line in shown, (language, line, shown)
        for line in EXPLAINED[language]:
            assert line in shown, (language, line, shown)


def test_spit_on_game_over_plays_the_same_game_and_players_again_in_one_press(tmp_path: Path) -> None:
    h = Harness(SIZE, journal_dir=tmp_path)
    first = against_level_4(h).match
    over = game_over(h, h.scene)
    h.advance(0.5)
    h.press(2, "spit")  # a press meant for the game that just ended: the result stays
    h.frame()
    assert h.scene is over
    h.advance(1.5)
    h.press(1, "spit")
    h.frame()
    scene = h.scene
    assert isinstance(scene, CountdownScene)
    again = scene.match
    assert again is not first
    assert again.variant == "four-piles" and again.spit.rules.options.alternate_colours
    assert again.spit.rules.options.stock_piles == (1, 2, 3, 4)
    assert set(again.bots) == {2} and again.levels == {2: "4"}
    assert len(list(tmp_path.glob("*.jsonl"))) == 2  # journalled as a game of its own


def test_start_on_game_over_goes_to_the_title() -> None:
    h = Harness(SIZE)
    game_over(h, against_level_4(h))
    h.advance(1.6)
    h.press(0, "start")
    h.frame()
    assert isinstance(h.scene, TitleScene)


def test_a_rematch_without_credits_says_insert_coin_and_stays(tmp_path: Path) -> None:
    h = Harness(SIZE, settings=Settings(free_play=False), journal_dir=tmp_path / "journals")
    h.ctx.config_path = tmp_path / "config.toml"
    books = office(h.ctx)  # the operator's books beside the settings
    books.coin()
    game_over(h, against_level_4(h))  # the one credit paid for this game
    h.advance(1.6)
    h.press(1, "spit")
    h.frame()
    assert isinstance(h.scene, GameOverScene)
    assert "insert coin" in words(h)
    books.coin()
    h.press(1, "spit")
    h.frame()
    assert isinstance(h.scene, CountdownScene) and books.credits == 0


def test_the_players_menu_remembers_the_computer_and_its_level() -> None:
    h = Harness(SIZE)
    against_level_4(h)
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))  # pause, then leave the game
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))
    h.frame()
    assert isinstance(h.scene, TitleScene)
    to_choose(h)
    assert isinstance(h.scene, ChooseScene)
    assert "▶  Against the computer, level 4  ◀" in words(h)
    h.press(1, "spit")  # one press: the same players again
    h.advance(2.2)
    scene = h.scene
    assert isinstance(scene, PlayScene) and scene.match.levels == {2: "4"}


def test_at_four_seats_the_menu_remembers_each_seat() -> None:
    h = Harness(SIZE)
    to_seats(h, 4, {3: "1", 4: "5"})
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))
    h.frame()
    to_choose(h)
    shown = words(h)
    for line in ("Player 1: a person", "Player 2: a person", "Player 3: the computer, level 1",
                 "Player 4: the computer, level 5"):
        assert line in shown, shown
