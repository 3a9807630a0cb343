"""The screens of the Spit family, as data per seat: the game menu and the settings it writes, the
rules in force, Mod Spit's rule and values and the table slap's verdict, three and four seats.

Like test_display_captions.py these read `scene.captions()` (what each seat is told) and
`Canvas.texts` (where and which way up each text was drawn), never pixels.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from headless import (
    Harness,
    to_choose,
    to_family_play,
    to_four_seats,
    to_game_menu,
    to_mod_spit,
    to_table_slap,
    to_three_seats,
    to_two_decks,
)

from appliance.display.captions import Caption, shown_to
from appliance.display.i18n import LANGUAGES, LOCALE_DIR, read_po, set_language
from appliance.display.rules_words import choice_of, in_force, menu_options, preset_name, rules_help
from appliance.display.scenes.base import MenuKey
from appliance.display.scenes.choose import ChooseScene
from appliance.display.scenes.game_menu import GameMenuScene
from appliance.display.scenes.play import PlayScene
from appliance.display.slap_working import working_words
from appliance.rules import OPTIONS, PRESETS
from appliance.rules.table_slap import RULE_DECK, TableSlap
from appliance.shared.config_file import remember_game, with_values
from appliance.shared.settings import Settings, load_settings

SIZE = (1280, 720)


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    set_language("en")


def only(captions: list[Caption], place: str) -> list[Caption]:
    return [c for c in captions if c.place == place]


def key(h: Harness, control: str, player: int = 0) -> None:
    h.runner.send(MenuKey(player, control, True, h.now_ns))


# ------------------------------------------------------------------ the game menu and the settings


def test_the_game_menu_lists_the_presets_and_the_rules_that_apply_each_with_its_line() -> None:
    h = Harness(SIZE, "tabletop")
    to_game_menu(h)
    menu = h.scene
    assert isinstance(menu, GameMenuScene)
    seen = set()
    for _ in PRESETS:
        menu.row = 0
        seen.add(menu.preset)
        words = shown_to(menu.captions(), 1)
        assert f"▶  Game: {preset_name(menu.preset)}  ◀" in words
        assert PRESETS[menu.preset].explain in words  # the chosen row's line of explanation
        assert shown_to(menu.captions(), 1) == shown_to(menu.captions(), 2)  # both seats read the menu
        key(h, "right")
    assert seen == set(PRESETS)
    # a house rule's row: its explanation, the core's own line
    menu.preset, menu.rules, menu.row = "classic", {}, menu.rows().index("alternate_colours")
    assert OPTIONS["alternate_colours"].explain in shown_to(menu.captions(), 1)
    key(h, "right")
    assert menu.choice.options.alternate_colours
    assert "Alternating colours: on" in " ".join(shown_to(menu.captions(), 2))


def test_the_game_menu_offers_only_the_rules_that_apply() -> None:
    assert "table_slap" in menu_options("classic", 2)
    assert "table_slap" not in menu_options("classic", 4)  # a rule of two seats
    assert "target" not in menu_options("classic") and "target" in menu_options("speed")
    assert choice_of("mod-spit", {"seats": 3}).seats == 2  # the core refuses it: never kept


def test_the_choice_is_kept_in_the_settings_and_written_back_atomically(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('# mine\nlayout = "tabletop"\n\n[keys]\nz = "1 pile1"\n')
    h = Harness(SIZE, settings=Settings(layout="tabletop"))
    h.ctx.config_path = config
    to_game_menu(h)
    menu = h.scene
    assert isinstance(menu, GameMenuScene)
    menu.row = 0
    while menu.preset != "four-piles":
        key(h, "right")
    menu.row = menu.rows().index("choose")
    key(h, "right")  # slap -> shapp
    menu.row = menu.rows().index("alternate_colours")
    key(h, "right")
    h.press(1, "spit")
    h.frame()
    assert isinstance(h.scene, ChooseScene)
    assert (h.settings.game, h.settings.house_rules) == ("four-piles", {"choose": "shapp", "alternate_colours": True})
    assert h.ctx.office is not None and h.ctx.office.drain(10)  # written by the operator layer's writer
    text = config.read_text()
    assert text.startswith("# mine\n") and '[keys]\nz = "1 pile1"' in text
    data = tomllib.loads(text)
    assert data["game"] == "four-piles" and data["house_rules"] == {"choose": "shapp", "alternate_colours": True}
    again = load_settings(config)
    assert (again.game, again.house_rules, again.layout, again.warnings) == (
        "four-piles", {"choose": "shapp", "alternate_colours": True}, "tabletop", []
    )
    # no temporary file left; beside it the last good copy (what a damaged file's settings are read from)
    left = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("store.sqlite"))
    assert left == ["config.toml", "config.toml.last-good"]
    office = h.ctx.office  # the choice in the operator's books too (the store beside the settings)
    assert office is not None and office.drain(10)
    assert [key for (key,) in office.store.rows("SELECT key FROM adjustments ORDER BY boot, seq")] == [
        "game", "house_rules.choose", "house_rules.alternate_colours"]
    # choosing players shows it, in one line
    assert shown_to(h.scene.captions(), 1)[0] == "Game: Four piles · alternating colours · Shapp"


def test_a_settings_file_that_cannot_be_written_keeps_the_choice_for_the_session(tmp_path: Path) -> None:
    assert remember_game(tmp_path, "classic", {}) is not None  # a directory: says why, never raises
    edited = with_values('game = "x"\n[house_rules]\nrefill = true\n', {"game": "classic"}, {})
    assert edited.text == 'game = "classic"\n'
    assert 'table_slap = "off"' in with_values("", {"game": "mod-spit"}, {"table_slap": None}).text


def test_wrong_house_rules_in_the_settings_are_named_and_left_out(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('game = "fourpiles"\n[house_rules]\nchoose = "shap"\nrefill = true\nbogus = 1\n')
    settings = load_settings(config)
    assert (settings.game, settings.house_rules) == ("classic", {"refill": True})
    assert sorted(p.key for p in settings.warnings) == ["game", "house_rules.bogus", "house_rules.choose"]


def test_a_game_the_computer_cannot_play_offers_people_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import appliance.display.scenes.choose as choose

    monkeypatch.setattr(choose, "computer_can_play", lambda game, level="1": False)
    h = Harness(SIZE, settings=Settings(layout="tabletop", game="threes"))
    to_choose(h)
    scene = h.scene
    assert isinstance(scene, ChooseScene)
    assert [words for words, _ in scene.options] == ["Two players"]
    assert "the computer cannot play this game yet: people only" in shown_to(scene.captions(), 2)


# ------------------------------------------------------------------ the rules in force


def test_each_seat_is_shown_the_rules_in_force() -> None:
    for layout in ("tabletop", "desktop"):
        h = Harness(SIZE, layout)
        to_family_play(h)
        scene = h.scene
        assert isinstance(scene, PlayScene)
        info = only(scene.captions(), "info")
        owners = [1, 2] if layout == "tabletop" else [None]
        assert [c.seat for c in info] == owners
        for seat in (1, 2):
            assert shown_to(info, seat) == ["Four piles · alternating colours · Shapp"]


def test_the_title_explains_the_chosen_rules_line_by_line() -> None:
    h = Harness(SIZE, settings=Settings(layout="tabletop", game="four-piles", house_rules={"two_hands": True}))
    chosen = choice_of("four-piles", {"two_hands": True})
    assert rules_help(chosen) == [PRESETS["four-piles"].explain, OPTIONS["two_hands"].explain]
    seen = set()
    for _ in range(3):
        words = shown_to(h.scene.captions(), 2)
        assert "Playing: Four piles · two hands" in words
        seen |= set(words) & set(rules_help(chosen))
        h.advance(5.0)
    assert seen == set(rules_help(chosen))


def title_words(h: Harness) -> str:
    """Every line the title's frame shows (its recorded texts, as data), a wrapped line joined again."""
    return " | ".join(" ".join(text.words) for text in h.canvas().texts)


TITLE_LINES = {  # the game chosen -> (language -> lines the title shows about it)
    "classic": {
        "en": ["Playing: Classic Spit", "A round is over: slap the smaller spit pile!",
               "five stock piles of 1, 2, 3, 4 and 5 cards (11 spit cards)"],
        "de": ["Gespielt wird: Klassisches Spit", "fünf Vorratsstapel mit 1, 2, 3, 4 und 5 Karten (11 Spit-Karten)"],
        "eo": ["Ludata: Klasika Spit", "kvin provizaj stakoj de 1, 2, 3, 4 kaj 5 kartoj (11 spit-kartoj)"],
    },
    "speed": {
        "en": ["Playing: Speed", "Speed: play a card from your hand one above or below a middle pile.",
               "Nobody can play? Both press SPIT! to turn the side stacks."],
        "de": ["Gespielt wird: Speed"],
        "eo": ["Ludata: Speed"],
    },
    "reverse": {
        "en": ["Win all the cards. Both play at once: no turns!",
               "A round is over: whoever played out slaps the larger pile and takes it!"],
        "de": ["Gewinne alle Karten. Beide spielen zugleich: niemand wartet!",
               "Runde vorbei: wer fertig ist, schlägt auf den größeren Stapel und nimmt ihn!"],
        "eo": ["Gajnu ĉiujn kartojn. Ambaŭ ludas samtempe: neniuj vicoj!",
               "Raŭndo finiĝis: kiu eldonis ĉion frapas la pli grandan stakon kaj prenas ĝin!"],
    },
    "running": {
        "en": ["Pick a stock card, carry it to a pad and slap it on one rank up or down (A is next to 2 and K)."],
        "de": ["Wähle eine Vorratskarte, trag sie zu einer Matte und schlag sie ab, einen Wert höher oder tiefer "
               "(A liegt neben 2 und K)."],
        "eo": ["Elektu provizan karton, portu ĝin al kuseneto kaj frapu ĝin, unu valoron pli alte aŭ pli malalte "
               "(A apudas 2 kaj K)."],
    },
}


@pytest.mark.parametrize("game", sorted(TITLE_LINES))
def test_the_title_explains_the_game_chosen_in_the_game_menu(game: str) -> None:
    h = Harness(SIZE, settings=Settings(game=game))
    h.advance(0.1)
    for language, lines in TITLE_LINES[game].items():
        set_language(language)
        shown = title_words(h)
        for line in lines:
            assert line in shown, (language, line, shown)
        assert "reference rules" not in shown and "Grundregeln" not in shown and "bazaj reguloj" not in shown
    set_language("en")
    if game != "classic":  # not Classic Spit's lines whatever is chosen
        assert "Playing: Classic Spit" not in title_words(h)
    if game in ("speed", "running"):
        assert "Pick a stock card, then play it onto a spit pile one rank up or down (A is next to 2 and K)." \
            not in title_words(h)


def test_the_title_at_four_seats_says_everybody_plays_at_once() -> None:
    h = Harness(SIZE, settings=Settings(house_rules={"seats": 4}))
    h.advance(0.1)
    shown = title_words(h)
    assert "Get rid of your cards first. Everybody plays at once: no turns!" in shown
    assert "Nobody can play? Everybody presses SPIT! and turns a new card." in shown
    assert "Nobody can play? Both" not in shown


def test_the_rules_in_force_and_the_menu_read_in_german_and_esperanto() -> None:
    chosen = choice_of("threes", {"alternate_colours": True})
    assert in_force(chosen) == "Threes · alternating colours"
    set_language("de")
    assert in_force(chosen) == "Dreier · Farben im Wechsel"
    chosen = choice_of("reverse", {"alternate_colours": True})
    assert rules_help(chosen)[0].startswith("Umgekehrtes Spit: gewinn alle Karten")
    set_language("eo")
    assert in_force(chosen) == "Inversa Spit · alternaj koloroj · celu la pli grandan stakon"


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_the_rules_cores_lines_have_translations(language: str) -> None:
    catalogue = read_po(LOCALE_DIR / language / "LC_MESSAGES" / "spit_arcade.po")
    lines = [p.explain for p in PRESETS.values()] + [o.explain for o in OPTIONS.values()]
    lines += [rule.words for rule in RULE_DECK]
    missing = [line for line in lines if not catalogue.get(line)]
    assert missing == []
    for line in lines:
        assert re.findall(r"{\w+}", line) == re.findall(r"{\w+}", catalogue[line]), line


# ------------------------------------------------------------------ Mod Spit


def test_mod_spit_shows_each_seat_the_rule_and_the_two_values_as_it_sees_them_never_the_answer() -> None:
    h = Harness(SIZE, "tabletop")
    to_mod_spit(h)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    game = scene.match.spit
    slap = game.house_rule(TableSlap)
    assert slap is not None
    rule = slap.in_force.says(slap.modulus)
    a, b = game.spit_values() or []
    info = only(scene.captions(), "info")
    one, two = shown_to(info, 1), shown_to(info, 2)
    assert one == ["Mod Spit, advanced", f"slap when {rule}", f"tops: {a} and {b}"]
    assert two == ["Mod Spit, advanced", f"slap when {rule}", f"tops: {b} and {a}"]  # player 2 sits opposite
    for words in (*one, *two):  # the arithmetic is the players' to do
        assert "=" not in words and "slap!" not in words.lower() and "right" not in words


def test_a_table_slap_gets_its_verdict_big_for_everybody() -> None:
    h = Harness(SIZE, "tabletop")
    to_table_slap(h)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    judged = [e for e in scene.match.events if e.kind == "table_slap_judged"]
    assert len(judged) == 1
    verdict = only(scene.captions(), "centre")
    assert [c.seat for c in verdict] == [None]  # for everybody, a copy facing each seat
    words = shown_to(verdict, 2)
    working = words[1]  # how it was worked out, between the verdict and who takes
    slap = scene.match.spit.house_rule(TableSlap)
    assert slap is not None and working and working == working_words(slap.working(scene.match.spit))
    if judged[0].reason == "both_wrong":
        assert words == ["Both slaps wrong!", working,
                         f"Player {judged[0].chooser} slapped 40 ms later: chooses a pile to take"]
    elif judged[0].reason == "wrong":
        assert words == ["Wrong slap!", working, f"Player {judged[0].taker} takes both piles"]
    else:
        assert words == ["Right slap!", working, f"Player {judged[0].taker} was 40 ms late: takes both piles"]
    assert only(scene.captions(), "race") == [] and only(scene.captions(), "reject") == []
    drawn = [d for d in h.canvas().texts if d.place == "centre"]
    assert sorted((d.seat, d.angle) for d in drawn) == [(1, 0), (2, 180)]
    h.advance(3.0)
    assert only(scene.captions(), "centre") == []  # it passes


@pytest.mark.parametrize("key", ["slap_wrong", "slap_right_late", "slap_both_wrong", "slap_right_idle"])
def test_each_verdict_says_who_takes_and_by_how_much(key: str) -> None:
    """The rule says what it decided as data (a key, a player, the ms); the screen only says it."""
    from appliance.display.table_view import verdict_lines
    from appliance.rules.house_rule import Verdict

    lines = verdict_lines(Verdict(key, 2 if key != "slap_both_wrong" else 1, ms=84.4))  # (no working given)
    assert lines == {
        "slap_wrong": ["Wrong slap!", "Player 2 takes both piles"],
        "slap_right_late": ["Right slap!", "Player 2 was 84 ms late: takes both piles"],
        "slap_both_wrong": ["Both slaps wrong!", "Player 1 slapped 84 ms later: chooses a pile to take"],
        "slap_right_idle": ["Right slap!", "Player 2 did not slap: takes both piles"],
    }[key]


@pytest.mark.parametrize(("slaps", "key"), [
    ([(1.0, 1, "right"), (1.04, 2, "right")], "slap_right_late"),
    ([(1.0, 1, "right")], "slap_right_idle"),
    ([(1.0, 1, "wrong")], "slap_wrong"),
    ([(1.0, 1, "wrong"), (1.04, 2, "wrong")], "slap_both_wrong"),
])
def test_the_table_slap_says_its_verdict_as_data(slaps: list[tuple[float, int, str]], key: str) -> None:
    """Judged: the rule's verdict for the judging event names the key, whom it is about and by how much."""
    from positions import position

    from appliance.rules import game_from_state
    from appliance.rules.house_rule import Step, Verdict

    right = ("5C", "2D")  # 5 x 2 = 10, mod 7 = 3: a prime
    wrong = ("5C", "3D")  # 15 mod 7 = 1
    tops = right if slaps[0][2] == "right" else wrong
    game = game_from_state(position(["9H", "", "", "", ""], ["9S", "", "", "", ""], spit=tops, p1_spit="7H 8H",
                                    p2_spit="7S 8S", options={"table_slap": "mod7"}))
    events = []
    for t, player, _ in slaps:
        events += game.press(t, player, "slap")
    events += game.advance(3.0)
    judged = [e for e in events if e.kind == "table_slap_judged"]
    assert len(judged) == 1 and game.verdict(events[0]) is None  # (a slap decides nothing by itself)
    said = game.verdict(judged[0])
    a, b = (5, 2) if tops == right else (5, 3)
    work = (Step("times", (a, b), a * b), Step("mod", (a * b, 7), a * b % 7),
            Step("prime", (a * b % 7,), tops == right))
    assert said == {
        "slap_right_late": Verdict("slap_right_late", 2, ms=40.0, good=True, working=work),  # the slower hand takes
        "slap_right_idle": Verdict("slap_right_idle", 2, good=True, working=work),
        "slap_wrong": Verdict("slap_wrong", 1, working=work),
        "slap_both_wrong": Verdict("slap_both_wrong", 2, ms=40.0, working=work),
    }[key]


MOD7_WORKING = {  # a wrong slap on a 6 and a king, in each language
    "en": ["Wrong slap!", "6 × 13 = 78, 78 mod 7 = 1: not a prime", "Player 1 takes both piles"],
    "de": ["Falsch geschlagen!", "6 × 13 = 78, 78 mod 7 = 1: keine Primzahl", "Spieler 1 nimmt beide Stapel"],
    "eo": ["Malĝusta frapo!", "6 × 13 = 78, 78 mod 7 = 1: ne primo", "Ludanto 1 prenas ambaŭ stakojn"],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_mod_spits_verdict_shows_the_working(language: str) -> None:
    """6 and K on the spit piles, player 1 slaps: the verdict on the frame says why it was wrong."""
    from headless import _in_play
    from positions import position

    from appliance.rules import game_from_state

    h = Harness(SIZE, "tabletop")
    game = game_from_state(position(["9H", "", "", "", ""], ["9S", "", "", "", ""], spit=("6C", "KD"),
                                    p1_spit="7H 8H", p2_spit="7S 8S", options={"table_slap": "mod7"}))
    _in_play(h, game)
    h.frame()
    h.press(1, "slap")
    h.advance(1.0)  # the window closes: judged
    set_language(language)
    drawn = [d for d in h.canvas().texts if d.place == "centre"]
    assert {d.seat for d in drawn} == {1, 2}
    for d in drawn:
        assert " ".join(d.words) == " ".join(MOD7_WORKING[language]), d.words


def test_the_working_of_each_slap_rule_reads_in_words() -> None:
    from appliance.rules.table_slap import working

    said = {rule.name: working_words(working(rule.name, 6, 13, 7)) for rule in RULE_DECK}
    assert said == {
        "product_prime": "6 × 13 = 78, 78 mod 7 = 1: not a prime",
        "sum_prime": "6 + 13 = 19, 19 mod 7 = 5: a prime",
        "sum_13": "6 + 13 = 19: not 13",
        "both_odd": "6 is not odd, 13 is odd",
        "both_even": "6 is even, 13 is not even",
        "neighbours": "6 − 13 = −7, −7 mod 7 = 0: neither 1 nor 6",
        "pair": "6 mod 7 = 6, 13 mod 7 = 6: the same",
        "divides": "6 does not divide 13",
        "sum_multiple_3": "6 + 13 = 19, 19 mod 3 = 1: not 0",
        "difference_prime": "13 − 6 = 7: a prime",
        "sum_zero": "6 + 13 = 19, 19 mod 7 = 5: not 0",
        "product_one": "6 × 13 = 78, 78 mod 7 = 1: that is 1",
        "big_sum": "6 + 13 = 19: more than 7",
    }


def test_the_slap_key_is_in_the_default_map_and_the_legend_of_mod_spit() -> None:
    from appliance.display.keys import default_keymap, key_label
    from appliance.display.legend import seat_legend

    keymap = default_keymap()
    assert (key_label(keymap, 1, "slap"), key_label(keymap, 2, "slap")) == ("X", ",")
    assert "slap the table X" in seat_legend(keymap, 1, "tabletop", 5, 2, slap="table")
    assert not any("slap" in line for line in seat_legend(keymap, 1, "tabletop"))
    h = Harness(SIZE, "tabletop")
    to_mod_spit(h)
    legends = {d.seat: d.words for d in h.scene.view.legend_texts}  # type: ignore[attr-defined]
    assert "slap the table X" in legends[1] and "slap the table ,\u00a0(comma)" in " ".join(legends[2])


# ------------------------------------------------------------------ the table's many layouts


def test_two_decks_draws_six_piles_and_both_hands() -> None:
    from headless import headless_display

    from appliance.display.card_art import CardArt

    headless_display(SIZE)
    art = CardArt(70, 100)
    assert art.face("TD1").get_size() == art.face("TD").get_size()
    h = Harness(SIZE, "tabletop")
    to_two_decks(h)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    assert len(scene.view.layout.seat(1).stock) == 6
    me = scene.match.spit.player(1)
    assert (me.selected, me.second) == (1, 2)


def test_a_seat_that_picked_up_is_drawn_face_down() -> None:
    h = Harness(SIZE, "tabletop")
    to_family_play(h)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    view, game = scene.view, scene.match.spit
    faces: list[str] = []
    real_face = view.art.face
    view.art.face = lambda card, turned=False: faces.append(card) or real_face(card, turned)  # type: ignore[method-assign]
    canvas = h.canvas()
    assert canvas is not None
    mine = {pile.cards[-1] for pile in game.player(1).stock if pile.cards and pile.up}
    assert mine <= set(faces)
    faces.clear()
    game.player(1).hidden = True
    h.canvas()
    assert not mine & set(faces) - {top for pile in game.spit_piles for top in pile[-1:]}


def test_three_seats_each_reads_its_own_text_the_side_seats_turned_a_quarter() -> None:
    h = Harness(SIZE, "tabletop")
    to_three_seats(h)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    lay = scene.view.layout
    assert [lay.seat(n).angle for n in (1, 2, 3)] == [0, 90, 270]
    assert len(lay.spit_piles) == 3
    drawn = h.canvas().texts
    for seat in (1, 2, 3):
        info = [d for d in drawn if d.place == "info" and d.seat == seat]
        assert len(info) == 1 and info[0].angle == lay.seat(seat).angle
        assert " ".join(info[0].words) == "Classic Spit · 3 players"
    side = next(d for d in drawn if d.seat == 3 and d.place == "info")
    assert side.rect.height > side.rect.width  # running along the left edge, facing the seat there
    legends = {d.seat: d for d in scene.view.legend_texts}
    assert legends[3].angle == 270 and "piles 1 2 3 4" in legends[3].words  # player 3's keys: the number row


def test_four_seats_people_and_the_computer_in_any_mix() -> None:
    h = Harness(SIZE, "tabletop")
    to_four_seats(h)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    assert set(scene.match.bots) == {4} and scene.match.seats == 4
    lay = scene.view.layout
    assert [lay.seat(n).angle for n in (1, 2, 3, 4)] == [0, 90, 180, 270]
    assert {d.seat for d in scene.view.legend_texts} == {1, 2, 3}  # the computer's seat shows no keys
    # player 3 at the keyboard: the number row, through the runner
    down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_9, mod=0, unicode="9", scancode=0)
    before = len(scene.match.events)
    h.frame([down])
    assert any(getattr(e, "player", None) == 3 for e in scene.match.events[before:])


def test_an_out_player_is_told_their_place_and_to_take_a_pile() -> None:
    h = Harness(SIZE, "tabletop")
    to_three_seats(h)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    game = scene.match.spit
    game.player(2).out = 1
    game.round_end.choosers_out.append(2)  # type: ignore[attr-defined]
    prompts = only(scene.captions(), "prompt")
    assert shown_to(prompts, 2) == ["out — 1st! press a spit pile to take it"]
    assert "out" not in " ".join(shown_to(prompts, 1) + shown_to(prompts, 3))
    game.round_end.choosers_out.remove(2)  # type: ignore[attr-defined]
    assert shown_to(only(scene.captions(), "prompt"), 2) == ["out — 1st"]


def test_the_title_documents_the_keys_of_players_three_and_four() -> None:
    h = Harness(SIZE, settings=Settings(layout="desktop", house_rules={"seats": 4}))
    words = shown_to(h.scene.captions(), 1)
    three = next(w for w in words if w.startswith("Player 3:"))
    four = next(w for w in words if w.startswith("Player 4:"))
    assert "piles 1 2 3" in three and "SPIT! 9" in three and "far piles 7 -" in three
    assert "piles [7] [8] [9]" in four and "SPIT! [2]" in four
    assert "far piles Z C" in next(w for w in words if w.startswith("Player 1:"))


def _choosing(h: Harness, options: dict[str, object], chooser: int | None) -> PlayScene:
    """A choosing position (headless.to_choosing's) played with `options`, `chooser` choosing."""
    from headless import _choosing_state, _play_from

    state = _choosing_state(7)
    state["variant"] = "classic"
    state["options"] = {**choice_of("classic", options).options.to_json()}
    if chooser is not None:
        state["chooser"] = chooser
    _play_from(h, state)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    return scene


def test_the_choosing_rules_say_who_chooses_to_each_seat() -> None:
    h = Harness(SIZE, "tabletop")
    scene = _choosing(h, {"choose": "shapp"}, 1)
    left, right = (len(pile) for pile in scene.match.spit.spit_piles)
    prompts = only(scene.captions(), "prompt")
    assert shown_to(prompts, 1) == [f"you played out: choose a spit pile! left {left} cards, right {right} cards"]
    assert shown_to(prompts, 2) == ["Player 1 played out: they choose a pile"]
    h = Harness(SIZE, "tabletop")
    scene = _choosing(h, {"choose": "first_call"}, None)
    prompts = only(scene.captions(), "prompt")
    assert shown_to(prompts, 1) == [f"call SPIT! first to choose the pile: left {left}, right {right} cards"]
    assert shown_to(prompts, 2) == [f"call SPIT! first to choose the pile: left {right}, right {left} cards"]
    h.press(2, "spit")
    h.frame()
    prompts = only(scene.captions(), "prompt")
    assert shown_to(prompts, 1) == ["Player 2 called first: they choose a pile"]
    assert shown_to(prompts, 2)[0].startswith("you called first: choose a spit pile!")


def test_reverse_spit_aims_for_the_larger_pile() -> None:
    h = Harness(SIZE, "tabletop")
    scene = _choosing(h, {"goal": "all"}, None)
    assert shown_to(only(scene.captions(), "prompt"), 1)[0].startswith("SLAP the larger pile!")
    assert in_force(choice_of("reverse", {})) == "Reverse Spit · aim for the larger pile"


def test_in_reverse_spit_the_player_who_played_out_is_told_the_larger_pile_is_theirs() -> None:
    """V15 (000: "schlagen sie und nehmen den größeren Spieß-Stapel"): the screen says what the rule
    says, to each seat: the one who played out slaps it; the other is told it is theirs."""
    h = Harness(SIZE, "tabletop")
    scene = _choosing(h, {"goal": "all"}, 2)
    left, right = (len(pile) for pile in scene.match.spit.spit_piles)
    prompts = only(scene.captions(), "prompt")
    assert shown_to(prompts, 2) == [f"you played out: SLAP the larger pile! left {right}, right {left} cards"]
    assert shown_to(prompts, 1) == ["Player 2 played out: the larger pile is theirs"]
