"""The game and its rules in the players' words, read as data: no text a scene draws carries one of
the rules core's identifiers ("shapp", "first_call", "slap_spit", "mod7", "rule_deck", a card's
deck "TD1", an option's name, a preset's name as a script writes it), in any of the three languages,
for any game and house rule the menus can reach; and the operator's pages say what a player knows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from headless import Harness, to_choose

from appliance.display.captions import Caption, shown_to
from appliance.display.i18n import set_language
from appliance.display.keys import default_keymap, for_desktop
from appliance.display.legend import seat_legend
from appliance.display.rules_words import MENU_VALUES, choice_of, in_force, menu_options, rules_help
from appliance.display.scenes.base import MenuKey
from appliance.display.scenes.game_menu import GameMenuScene
from appliance.display.scenes.service_menu import ServiceMenuScene
from appliance.rules import OPTIONS, PRESETS
from appliance.shared.settings import Settings

LANGUAGES = ("en", "de", "eo")
# What a script writes and a player never reads: option names with an underscore, the values that
# are codes, presets named with a hyphen, and two decks' card codes (TD1).
IDENTIFIERS = sorted(
    {name for name in OPTIONS if "_" in name}
    | {str(v) for values in MENU_VALUES.values() for v in values if isinstance(v, str) and re.search(r"[_\d]", v)}
    | {name for name in PRESETS if "-" in name}
    | {"shapp", "fewest"}
)
CARD_CODE = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC][12]\b")


def leaks(texts: list[str]) -> list[tuple[str, str]]:
    """(identifier, text) for each text that shows one (case as written: "Shapp", a name, is words)."""
    found = []
    for text in texts:
        for name in IDENTIFIERS:
            if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
                found.append((name, text))
        if CARD_CODE.search(text):
            found.append(("card code", text))
    return found


def test_the_check_finds_what_the_issue_saw() -> None:
    seen = ["house rules: shapp", "mod7", "rule_deck: drawn", "cards carry their deck, TD1", "first_call chooses",
            "default game: four-piles", "Mod-Spit"]  # fmt: skip
    assert [name for name, _ in leaks(seen)] == ["shapp", "mod7", "rule_deck", "card code", "first_call",
                                                 "four-piles"]  # fmt: skip


@pytest.fixture(autouse=True)
def english() -> Any:
    yield None
    set_language("en")


def texts_of(captions: list[Caption]) -> list[str]:
    return shown_to(captions, 1) + shown_to(captions, 2)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_identifier_in_the_game_menu_for_any_game_row_and_value(language: str) -> None:
    set_language(language)
    h = Harness((960, 540), "tabletop")
    to_choose(h)
    menu = GameMenuScene(h.ctx)
    seen: list[str] = []
    for _preset in PRESETS:
        menu.row = 0
        menu._change(1)
        for row in range(1, len(menu.rows())):
            menu.row = row
            values = MENU_VALUES[menu.rows()[row]] if row < len(menu.rows()) else ()
            for _value in values:
                menu._change(1)
                menu.row = min(row, len(menu.rows()) - 1)
                seen += texts_of(menu.captions())
    assert len(seen) > 500
    assert leaks(seen) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_identifier_in_the_how_to_play_of_any_house_rule(language: str) -> None:
    set_language(language)
    seen: list[str] = []
    for preset in PRESETS:
        for name in menu_options(preset):
            for value in MENU_VALUES[name]:
                choice = choice_of(preset, {name: value})
                seen += [in_force(choice), *rules_help(choice)]
    assert leaks(seen) == []
    assert any("Shapp" in line for line in seen)  # David Shapp's rule keeps his name


def service_menu(tmp_path: Path, settings: Settings) -> Harness:
    h = Harness((960, 540), "tabletop", settings=settings, journal_dir=tmp_path / "journals")
    h.ctx.config_path = tmp_path / "config.toml"
    h.runner.service_menu = True
    h.press(0, "service")
    assert isinstance(h.scene, ServiceMenuScene)
    h.scene.open("adjustments")
    return h


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_adjustments_name_the_game_as_players_do_and_credits_only_where_games_cost(
    tmp_path: Path, language: str
) -> None:
    set_language(language)
    h = service_menu(tmp_path, Settings(game="four-piles", free_play=True))
    free = texts_of(h.scene.captions())
    assert leaks(free) == [] and not any("four-piles" in line for line in free)
    set_language("en")
    english = texts_of(h.scene.captions())
    assert any("default game: Four piles" in line for line in english)
    h.scene.pages[-1][1] = len(h.scene.items()) - 1  # the last row in view: free play, no credits after it
    english = texts_of(h.scene.captions())
    assert any("free play: on" in line for line in english) and not any("credits a game" in line for line in english)
    h = service_menu(tmp_path, Settings(free_play=False, credits_per_game=2))
    assert any("default game: Classic Spit" in line for line in texts_of(h.scene.captions()))
    h.scene.pages[-1][1] = len(h.scene.items()) - 1  # the last row in view
    assert any("credits a game: 2" in line for line in texts_of(h.scene.captions()))


def test_turning_free_play_on_takes_the_credits_row_away_and_the_cursor_stays_on_a_row(tmp_path: Path) -> None:
    h = service_menu(tmp_path, Settings(free_play=False))
    scene = h.scene
    assert isinstance(scene, ServiceMenuScene)
    rows = len(scene.items())
    scene.pages[-1][1] = rows - 1  # "credits a game"
    scene.settings.free_play = True
    h.runner.send(MenuKey(0, "down", True, h.now_ns))
    assert len(scene.items()) == rows - 1 and 0 <= scene.cursor < rows - 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_punctuation_key_is_named_in_the_legend(language: str) -> None:
    set_language(language)
    lines = seat_legend(for_desktop(default_keymap()), 2, "desktop", 5, 2, slap="table")
    slap = lines[-1]
    assert slap.endswith(")") and ",\u00a0(" in slap and not slap.endswith(" ,")
    words = {"en": "comma", "de": "Komma", "eo": "komo"}[language]
    assert slap.endswith(f",\u00a0({words})")
