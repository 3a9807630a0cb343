"""A game's length on screen (display/game_length.py; ours): the operator's adjustment in the settings
file and the service menu, the options a game then gets (and its journal), and the game-over screen
saying why the game ended. Texts as data."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from headless import Harness, _over_state, _play_from, to_choose, to_ready

from appliance.display.captions import shown_to
from appliance.display.game_length import LENGTHS, ended_words, length_in_force, length_options, length_words
from appliance.display.i18n import LANGUAGES, set_language
from appliance.rules import read_options
from appliance.shared.settings import Settings, load_settings

SIZE = (1280, 720)


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    set_language("en")


def test_the_settings_file_holds_it_and_a_wrong_value_is_named(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("limit_rounds = 5\n", encoding="utf-8")
    assert (load_settings(path).limit_rounds, load_settings(path).limit_minutes) == (5, 0)
    path.write_text("limit_minutes = 500\n", encoding="utf-8")
    settings = load_settings(path)
    assert settings.limit_minutes == 0
    assert any("limit_minutes" in str(p) and "0 to 120" in str(p) for p in settings.warnings)
    assert Settings().limit_rounds == 0 and Settings().limit_minutes == 0  # off by default


def test_a_game_gets_the_limit_as_options_but_speed_does_not() -> None:
    assert length_options(Settings()) == {}
    assert length_options(Settings(limit_rounds=5)) == {"limit_rounds": 5}
    assert length_options(Settings(limit_minutes=10)) == {"limit_minutes": 10}
    assert length_options(Settings(limit_rounds=5), speed=True) == {}


def adjustments(h: Harness) -> Any:
    """The service menu's adjustments page, its cursor on the game length."""
    h.runner.service_menu = True
    h.press(0, "service")
    for _ in range(2):
        h.press(1, "right")
    h.press(0, "start")
    h.frame()
    menu: Any = h.scene
    rows = [item.words() for item in menu.adjustments()]
    row = next(i for i, words in enumerate(rows) if words.startswith("game length"))
    for _ in range(row):
        h.press(1, "right")
    return menu


def test_the_service_menu_steps_through_the_lengths_and_writes_them(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('language = "en"\n', encoding="utf-8")
    h = Harness(SIZE)
    h.ctx.config_path = path
    menu = adjustments(h)
    assert "▶  game length: until someone has no cards  ◀" in shown_to(menu.captions(), 1)  # (the row chosen)
    h.press(0, "start")
    h.frame()
    assert (h.settings.limit_rounds, h.settings.limit_minutes) == LENGTHS[1]
    assert h.ctx.office is not None and h.ctx.office.drain(10)  # written by the operator layer's writer
    assert load_settings(path).limit_rounds == LENGTHS[1][0]
    assert f"▶  {length_words(h.settings)}  ◀" in shown_to(menu.captions(), 1)
    for _ in range(3):
        h.press(0, "start")
    h.frame()
    assert (h.settings.limit_rounds, h.settings.limit_minutes) == LENGTHS[4] == (0, 5)
    assert h.ctx.office.drain(10)
    saved = load_settings(path)
    assert (saved.limit_rounds, saved.limit_minutes) == (0, 5)
    assert "▶  game length: 5 minutes  ◀" in shown_to(menu.captions(), 1)


def test_a_game_started_with_a_limit_is_journalled_with_it(tmp_path: Path) -> None:
    h = Harness(SIZE, settings=Settings(limit_rounds=3), journal_dir=tmp_path)
    to_choose(h)
    h.press(1, "spit")
    h.frame()
    match: Any = h.scene.match  # type: ignore[attr-defined]
    assert match.game.rules.options.limit_rounds == 3
    (journal,) = tmp_path.glob("*.jsonl")
    setup = json.loads(journal.read_text(encoding="utf-8").splitlines()[0])["setup"]
    assert setup["options"] == {"limit_rounds": 3}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_length_is_among_the_rules_shown_in_play(language: str) -> None:
    set_language(language)
    h = Harness(SIZE, settings=Settings(limit_minutes=10))
    to_ready(h)
    line = length_in_force(h.scene.match.game.rules.options)  # type: ignore[attr-defined]
    assert len(line) == 1 and "10" in line[0]
    assert any(line[0] in words for words in shown_to(h.scene.captions(), 1))
    assert length_in_force(read_options("classic")) == []


def over_by_length(h: Harness) -> None:
    events = [
        {"t": 30.0, "event": "round_over", "round": 1, "reason": "stock_out", "player": 2},
        {"t": 61.0, "event": "round_over", "round": 2, "reason": "stock_out", "player": 1},
        {"t": 61.5, "event": "game_over", "winner": 1, "limit": "rounds", "cards": [12, 40]},
    ]
    _play_from(h, _over_state(7), events)
    h.advance(0.2)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_game_over_screen_says_why_the_game_ended(language: str) -> None:
    set_language(language)
    h = Harness(SIZE, "tabletop")
    over_by_length(h)
    scene: Any = h.scene
    assert type(scene).__name__ == "GameOverScene"
    why = ended_words(scene.match.events, scene.name)
    assert len(why) == 2 and all(line in shown_to(scene.captions(), 1) for line in why)
    assert "12" in why[1] and "40" in why[1] and "2" in why[0]
    if language == "en":
        assert why == ["Game length reached: 2 rounds played; the fewest cards left win",
                       "Player 1: 12 cards · Player 2: 40 cards"]


def test_a_game_ended_by_its_cards_says_nothing_of_a_length() -> None:
    from appliance.rules.events import GameOver

    assert ended_words([GameOver(3.0, 1)], str) == []
    assert ended_words([GameOver(3.0, 2, "minutes", [9, 3])], str, most=False)[0].startswith("Time is up")
    assert "most" in ended_words([GameOver(3.0, 1, "minutes", [9, 3])], str, most=True)[0]


def test_a_game_on_a_cabinet_with_books_is_journalled_by_their_boot_and_sequence_number(tmp_path: Path) -> None:
    from appliance.display.coins import office
    from appliance.journal import journal_order

    h = Harness(SIZE, journal_dir=tmp_path / "journals")
    h.ctx.config_path = tmp_path / "config.toml"  # a store beside it: boots counted across starts
    to_choose(h)
    h.press(1, "spit")
    h.frame()
    (journal,) = (tmp_path / "journals").glob("*.jsonl")
    order = journal_order(journal.name)
    assert order is not None and order[0] == office(h.ctx).boot == 1
    office(h.ctx).close()
