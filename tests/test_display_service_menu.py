"""The operator's service menu: over whatever runs, pages moved through with the cabinet's buttons;
diagnostics (switch, screen, sound), audits, adjustments written atomically, utilities confirmed
by a second press; and nothing in it reaches a shell. Texts are read as data (`shown_to`)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pygame
import pytest
from headless import Harness

from appliance import audits as audit
from appliance.display import app
from appliance.display.captions import shown_to
from appliance.display.coins import office
from appliance.display.i18n import language, set_language
from appliance.display.rules_words import preset_name
from appliance.display.runner import Runner
from appliance.display.scenes.base import BACK, LEFT_OUT, SETTINGS, WAITING, MenuKey, Notice, Push
from appliance.display.scenes.service_menu import ROWS_SHOWN, STUCK_S, ServiceMenuScene
from appliance.display.scenes.title import TitleScene
from appliance.operator import books
from appliance.operator.store import Store, store_path
from appliance.shared.settings import Settings, load_settings

SIZE = (640, 360)


@pytest.fixture(autouse=True)
def english() -> object:
    set_language("en")
    yield None
    set_language("en")


def played(h: Harness, seed: int, abandon: bool = False) -> None:
    """A short game, ended (or abandoned): the operator layer counts it as it ends."""
    from appliance.match import Match

    match = Match(seed, 0)
    match.ended = office(h.ctx).game_over
    for t, player, control in [(0.5, 1, "spit"), (0.6, 2, "spit"), (1.0, 1, "pile1")]:
        match.press(round(t * 1e9), player, control)
    if abandon:
        match.abandon()
    else:
        office(h.ctx).game_over(match)  # (as its game_over event does)


def kept_totals(h: Harness, since_reset: bool = False) -> audit.Totals:
    """The audits as the store on the card holds them (once the writer wrote what it was handed)."""
    assert office(h.ctx).drain(10) and h.ctx.config_path is not None
    store = Store.open(store_path(h.ctx.config_path))
    try:
        return books.totals(store, since_reset)
    finally:
        store.close()


def menu(tmp_path: Path, text: str = "") -> Harness:
    """A harness with a settings file and a journal directory, the service menu open over the title."""
    config = tmp_path / "config.toml"
    if text:
        config.write_text(text)
    h = Harness(SIZE, "tabletop", journal_dir=tmp_path / "journals")
    h.ctx.config_path = config
    h.runner.service_menu = True
    h.press(0, "service")
    assert isinstance(h.scene, ServiceMenuScene)
    return h


def saved(h: Harness) -> None:
    """Wait (bounded) until the operator layer's writer has saved what the menu handed it."""
    assert office(h.ctx).drain(10)


def seen(h: Harness) -> list[str]:
    return shown_to(h.scene.captions(), 1)


def cursor_line(h: Harness) -> str:
    return next(words for words in seen(h) if words.startswith("▶"))


def drawn(h: Harness) -> list[str]:
    """Every line of text on the screen now, whichever scene of the stack drew it."""
    return [line for d in h.canvas().texts for line in d.words]


def go(h: Harness, *rows: int) -> None:
    """Down `row` times and START, for each row given (from the top of each page)."""
    for row in rows:
        for _ in range(row):
            h.runner.send(MenuKey(0, "down", True, h.now_ns))
        h.press(0, "start")
        h.frame()


def test_the_first_page_and_moving_about_with_the_cabinets_buttons(tmp_path: Path) -> None:
    h = menu(tmp_path)
    assert seen(h)[:7] == ["Service menu", "▶  Diagnostics  ◀", "Audits", "Adjustments", "Utilities", "Update", "Exit"]
    assert seen(h) == shown_to(h.scene.captions(), 2)  # one shared panel, the same for everybody
    h.press(1, "right")  # a player's RIGHT: down
    assert cursor_line(h) == "▶  Audits  ◀"
    h.press(2, "left")
    h.press(1, "left")  # wraps round to Exit
    assert cursor_line(h) == "▶  Exit  ◀"
    h.press(1, "spit")
    assert isinstance(h.scene, TitleScene)


def test_service_goes_back_a_page_and_out_from_the_first(tmp_path: Path) -> None:
    h = menu(tmp_path)
    go(h, 0)
    assert seen(h)[0] == "Diagnostics"
    h.press(0, "service")
    assert seen(h)[0] == "Service menu"
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))
    assert isinstance(h.scene, TitleScene)


def test_the_switch_test_shows_every_controls_edges_and_flags_a_stuck_one(tmp_path: Path) -> None:
    from appliance.inputs.keyboard import Press

    h = menu(tmp_path)
    go(h, 0, 0)
    assert seen(h)[:2] == ["Switch test", "no control pressed yet"]
    h.press(0, "start")  # START and SPIT are controls to test here, not menu buttons
    h.press(1, "spit")
    h.press(1, "spit")
    h.runner.send(Press(2, "pile3", True, h.now_ns, "gpio"))  # held down
    h.advance(STUCK_S + 0.5)
    lines = seen(h)
    assert "cabinet start: 1 edges, up  (test)" in lines
    assert "P1 spit: 2 edges, up  (test)" in lines
    assert any(line.startswith("P2 pile3: 1 edges, STUCK") and line.endswith("(gpio)") for line in lines)
    h.press(0, "service")  # only SERVICE leaves it
    assert seen(h)[0] == "Diagnostics"


def test_the_switch_test_shows_each_cabinet_source_its_link_and_clock_offset(tmp_path: Path) -> None:
    from appliance.inputs.source import ControlStatus, SourceStatus

    class Inputs:
        def status(self, now_ns: int) -> list[SourceStatus]:
            return [
                SourceStatus("gpio", "up", [ControlStatus(1, "pile1", "BCM17", True, True, 3)]),
                SourceStatus(
                    "serial:/dev/ttyACM0", "up", [], {"clock offset": "+0.120 ms", "clock error": "±0.050 ms"}
                ),
            ]

    h = menu(tmp_path)
    h.ctx.inputs = Inputs()  # type: ignore[attr-defined]
    go(h, 0, 0)
    lines = seen(h)
    assert "gpio: up" in lines and "  P1 pile1 BCM17: STUCK" in lines
    assert "serial:/dev/ttyACM0: up, clock offset +0.120 ms, clock error ±0.050 ms" in lines


def test_the_screen_test_fills_the_screen_with_each_pattern(tmp_path: Path) -> None:
    h = menu(tmp_path)
    go(h, 0, 1)
    assert seen(h)[:2] == ["Screen test", "pattern: white"]
    h.frame()
    assert h.screenshot().get_at((2, 2))[:3] == (255, 255, 255)
    h.press(0, "start")
    h.frame()
    assert seen(h)[1] == "pattern: red" and h.screenshot().get_at((2, 2))[:3] == (255, 0, 0)
    h.press(0, "service")
    h.press(0, "service")
    h.press(0, "service")
    h.frame()
    assert isinstance(h.scene, TitleScene)
    assert pygame.image.tobytes(h.screen, "RGB") == pygame.image.tobytes(h.full_render(), "RGB")


def test_the_sound_test_plays_each_sound(tmp_path: Path) -> None:
    h = menu(tmp_path)
    go(h, 0, 2)
    assert seen(h)[:2] == ["Sound test", "▶  play: play  ◀"]
    from appliance.display.sound import TUNES

    h.ctx.sound.played.clear()
    go(h, 3)
    assert h.ctx.sound.played == [list(TUNES)[3]]
    assert "no sound device: silent" in seen(h)  # the harness has no audio device, and says so


def test_the_audits_count_the_games_lifetime_beside_resettable_and_are_kept(tmp_path: Path) -> None:
    h = menu(tmp_path)
    for seed in range(1, 4):
        played(h, seed, abandon=seed == 3)
    go(h, 1)  # (read off the frame loop: "reading the books..." until the writer's thread answers, which
    # may be before the next frame is drawn, so it is not asserted here)
    assert office(h.ctx).drain(10)
    h.frame()
    lines = seen(h)
    assert lines[:5] == ["Audits", "all time  |  since the last reset (never reset)", "coins taken:  0  |  0",
                         "credits paid for, not yet played: 0", "games played:  3  |  3"]  # money first
    assert "finished / walked away from:  2 / 1  |  2 / 1" in lines and "Classic Spit:  3  |  3" in lines
    assert kept_totals(h).games == 3
    # reset from the utilities (a second press confirms): lifetime stays, the date is noted
    h.press(0, "service")  # back on the first page, the cursor where it was (Audits)
    go(h, 2, 0)
    assert cursor_line(h) == "▶  Reset audits: press again (cannot be undone)  ◀"
    assert kept_totals(h, since_reset=True).games == 3  # not yet
    go(h, 0)
    assert (kept_totals(h).games, kept_totals(h, since_reset=True).games) == (3, 0)
    assert "audits reset" in seen(h)
    h.press(0, "service")
    h.scene.pages[0][1] = 0  # type: ignore[attr-defined]
    go(h, 1)
    assert office(h.ctx).drain(10)
    h.frame()
    assert seen(h)[1].startswith("all time  |  since the last reset (20")  # the date it was cleared


def test_every_line_of_the_audits_is_reached_by_scrolling_and_the_menu_names_its_key(tmp_path: Path) -> None:
    """Seven games played, each once: every one has its line (there was "and 4 more games", which hid
    them), reached with DOWN (which did nothing on this page) as far as the last line and no
    further; the hint says where the page is and names the menu's own key (F2 at the keyboard)."""
    from appliance.match import Match

    h = menu(tmp_path)
    games = ["classic", "speed", "four-piles", "threes", "two-decks", "running", "mod-spit"]
    for seed, variant in enumerate(games, start=1):
        match = Match(seed, 0, variant=variant)
        match.ended = office(h.ctx).game_over
        match.abandon()
    go(h, 1)
    assert office(h.ctx).drain(10)
    h.frame()
    rows = h.scene.audit_rows()  # type: ignore[attr-defined]
    assert len(rows) > ROWS_SHOWN
    shown: list[str] = []
    for _ in range(len(rows) + 3):  # past the end: it stops at the last line
        shown += seen(h)[2 : 2 + ROWS_SHOWN]
        h.runner.send(MenuKey(0, "down", True, h.now_ns))
    assert {row.words for row in rows} <= set(shown)
    assert {f"{preset_name(g)}:  1  |  1" for g in games} <= set(shown)
    last = seen(h)
    assert last[-1] == f"up/down: scroll (lines {len(rows) - ROWS_SHOWN + 1} to {len(rows)} of {len(rows)}); " \
                      "SERVICE (F2): back"
    h.press(1, "left")  # a player's LEFT: up, as on every page
    assert seen(h)[2] == rows[len(rows) - ROWS_SHOWN - 1].words
    h.press(0, "service")
    assert cursor_line(h) == "▶  Audits  ◀" and seen(h)[-1] == "up/down: move; START: choose; SERVICE (F2): back"


def test_adjustments_apply_at_once_and_are_written_atomically_keeping_the_rest_of_the_file(tmp_path: Path) -> None:
    text = '# the cabinet\nlayout = "tabletop"\nvolume = 0.6\n\n[keys]\nz = "1 pile1"\n'
    h = menu(tmp_path, text)
    go(h, 2)
    assert seen(h)[0] == "Adjustments"
    assert cursor_line(h) == "▶  default game: Classic Spit  ◀"
    go(h, 5)  # volume: 60% -> 70%
    assert cursor_line(h) == "▶  volume: 70%  ◀" and h.ctx.settings.volume == 0.7
    go(h, 1)  # language: English -> Deutsch, at once
    assert language() == "de" and h.ctx.settings.language == "de"
    h.runner.send(MenuKey(0, "up", True, h.now_ns))
    h.runner.send(MenuKey(0, "up", True, h.now_ns))
    h.runner.send(MenuKey(0, "right", True, h.now_ns))  # idle timeout: 90 -> 120 s
    h.runner.send(MenuKey(0, "down", True, h.now_ns))
    h.runner.send(MenuKey(0, "down", True, h.now_ns))
    h.runner.send(MenuKey(0, "down", True, h.now_ns))
    h.press(0, "start")  # free play: on -> off
    saved(h)
    config = tmp_path / "config.toml"
    written = config.read_text()
    assert written.startswith('# the cabinet\nlayout = "tabletop"\nvolume = 0.7\n')
    assert written.endswith('\n[keys]\nz = "1 pile1"\n')
    settings = load_settings(config)
    assert settings.warnings == []
    assert (settings.volume, settings.language, settings.idle_timeout_s, settings.free_play) == (0.7, "de", 120, False)
    left = sorted(p.name for p in tmp_path.iterdir() if p.is_file() and not p.name.startswith("store.sqlite"))
    # no temporary left; beside it the last good copy (what a damaged file's settings are read from)
    assert left == ["config.toml", "config.toml.last-good"]
    # each change in the operator's books too, with its old and new value, in the order made
    office = h.ctx.office
    assert office is not None and office.drain(10)
    rows = office.store.rows("SELECT key, old, new FROM adjustments ORDER BY boot, seq")
    assert rows == [("volume", "0.6", "0.7"), ("language", "null", '"de"'), ("idle_timeout_s", "null", "120.0"),
                    ("free_play", "null", "false")]


def test_a_new_language_confirms_in_itself(tmp_path: Path) -> None:
    """English -> Deutsch -> Esperanto: each step says "saved" in the language it chose, never in the
    one it left ("gespeichert" on the Esperanto screen)."""
    from appliance.display.i18n import LOCALE_DIR, read_po

    h = menu(tmp_path)
    go(h, 2)
    h.runner.send(MenuKey(0, "down", True, h.now_ns))
    go(h, 5)  # down to the language, and step it: English -> Deutsch
    said = {code: read_po(LOCALE_DIR / code / "LC_MESSAGES" / "spit_arcade.po")["saved"] for code in ("de", "eo")}
    saved(h)
    assert language() == "de" and seen(h)[-2] == said["de"]
    h.press(0, "start")  # Deutsch -> Esperanto
    saved(h)
    assert language() == "eo" and seen(h)[-2] == said["eo"]


def test_the_default_game_and_house_rules_are_set_in_the_game_menu_over_the_service_menu(tmp_path: Path) -> None:
    from appliance.display.scenes.game_menu import GameMenuScene
    from appliance.display.scenes.service_menu import DefaultGameScene

    h = menu(tmp_path, 'volume = 0.5\n')
    go(h, 2, 0)  # Adjustments, default game: the players' game menu, over the service menu
    assert isinstance(h.scene, DefaultGameScene) and isinstance(h.scene.game_menu, GameMenuScene)
    lines = seen(h)
    assert lines[0] == "Game and house rules" and lines[2].startswith("▶  Game: Classic")
    assert "Adjustments" not in drawn(h) and "Game and house rules" in drawn(h)  # only the game menu is drawn
    h.runner.send(MenuKey(0, "right", True, h.now_ns))  # the next game
    h.runner.send(MenuKey(0, "down", True, h.now_ns))  # its first house rule
    h.runner.send(MenuKey(0, "right", True, h.now_ns))
    chosen = (h.scene.game_menu.preset, dict(h.scene.game_menu.rules))  # type: ignore[attr-defined]
    assert chosen[0] == "four-piles" and chosen[1]
    h.press(0, "start")  # keeps it: the default, written as the game menu writes it
    saved(h)
    assert isinstance(h.scene, ServiceMenuScene) and seen(h)[0] == "Adjustments"
    assert cursor_line(h) == "▶  default game: Four piles  ◀" and "saved" in seen(h)
    assert "Adjustments" in drawn(h) and "Game and house rules" not in drawn(h)
    settings = load_settings(tmp_path / "config.toml")
    assert (settings.game, settings.house_rules, settings.volume) == (*chosen, 0.5)
    assert (h.ctx.settings.game, h.ctx.settings.house_rules) == chosen
    # SERVICE or Escape in the game menu: back to the Adjustments, nothing changed
    for leave in (MenuKey(0, "service", True, h.now_ns), MenuKey(0, BACK, True, h.now_ns)):
        h.press(0, "start")
        h.runner.send(MenuKey(0, "right", True, h.now_ns))
        h.runner.send(leave)
        assert isinstance(h.scene, ServiceMenuScene) and seen(h)[0] == "Adjustments"
        assert load_settings(tmp_path / "config.toml").game == h.ctx.settings.game == "four-piles"
    # and nobody touching it: back to the Adjustments too, not to the players' scenes
    h.press(0, "start")
    h.advance(61)
    assert isinstance(h.scene, ServiceMenuScene) and seen(h)[0] == "Adjustments"


def test_factory_settings_put_every_adjustment_back_after_a_second_press(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from appliance.shared import config_file

    text = 'layout = "tabletop"\nvolume = 0.2\nattract = false\nlanguage = "eo"\ngame = "mod-spit"\n'
    text += "[house_rules]\nrefill = true\n"
    h = menu(tmp_path, text)
    h.ctx.settings.volume, h.ctx.settings.attract, h.ctx.settings.language = 0.2, False, "eo"
    go(h, 3, 1)
    assert load_settings(tmp_path / "config.toml").volume == 0.2  # one press only asks
    writes: list[str] = []
    write = config_file.write_atomically
    monkeypatch.setattr(config_file, "write_atomically", lambda path, text: (writes.append(text), write(path, text)))
    go(h, 0)
    saved(h)
    # all at once: a power cut keeps all or none (then the last good copy, the same text)
    assert len(writes) == 2 and writes[0] == writes[1] and "[house_rules]" not in writes[0]
    settings = load_settings(tmp_path / "config.toml")
    d = Settings()
    assert (settings.volume, settings.attract, settings.language, settings.game) == (d.volume, True, "en", "classic")
    assert settings.layout == "tabletop"  # not an adjustment: kept
    assert "factory settings restored" in seen(h)


def test_a_settings_file_that_cannot_be_written_changes_it_for_now_and_says_why(tmp_path: Path) -> None:
    h = menu(tmp_path)
    h.ctx.config_path = tmp_path / "no-such-dir" / "\0bad" / "config.toml"
    go(h, 2, 3)  # attract mode
    assert h.ctx.settings.attract is False
    saved(h)
    assert any(line.startswith("changed for now; not saved:") for line in seen(h))


def test_nothing_in_the_service_menu_reaches_a_shell() -> None:
    import appliance.audits
    import appliance.credits
    import appliance.display.coins
    import appliance.display.scenes.service_menu as menu_module
    import appliance.display.scenes.service_notices as notices_module

    for module in (menu_module, notices_module, appliance.audits, appliance.credits, appliance.display.coins):
        source = Path(module.__file__ or "").read_text()
        for word in ("subprocess", "os.system", "popen", "exec(", "eval(", "shell=", "import pty"):
            assert word not in source, (module.__name__, word)


def test_the_starts_problems_are_shown_on_screen_until_a_button_and_in_the_menu(tmp_path: Path) -> None:
    from appliance.display.runner import Runner
    from appliance.display.scenes.base import Push
    from appliance.display.scenes.service_notices import NOTICE_S, NoticesScene

    settings = load_settings(tmp_path / "missing.toml")  # the file named is not there: a problem
    h = Harness(SIZE, "tabletop", settings=settings)
    h.ctx.journal_dir = tmp_path
    notices = [str(p) for p in settings.warnings] + ["the gpio inputs cannot start (no chip); left out"]
    stack = app.first_scenes(h.ctx, notices)
    h.runner = Runner(h.ctx, stack[0], h.screen, present=lambda rects: None, service_menu=True)
    for scene in stack[1:]:
        h.runner.apply(Push(scene))
    h.frame()
    assert isinstance(h.scene, NoticesScene)
    for seat in (1, 2):
        lines = shown_to(h.scene.captions(), seat)
        assert lines[0] == "The cabinet started with problems"
        assert any("missing.toml: no such config file" in line for line in lines)
        assert "the gpio inputs cannot start (no chip); left out" in lines
    h.press(0, "service")  # the service menu lists them again
    go(h, 0, 3)
    assert "the gpio inputs cannot start (no chip); left out" in seen(h)
    for _ in range(3):
        h.press(0, "service")
    assert isinstance(h.scene, NoticesScene)
    h.press(1, "pile1")  # any button puts them away
    assert isinstance(h.scene, TitleScene)
    # and an unattended cabinet is never left on them
    h.runner.apply(Push(NoticesScene(h.ctx, ["x"])))
    h.advance(NOTICE_S + 1)
    assert isinstance(h.scene, TitleScene)


PAD = Notice("no slap pad at /dev/ttyUSB0 yet; it joins when it is plugged in", WAITING)


def test_a_pad_waiting_to_be_plugged_in_is_no_problem_at_start(tmp_path: Path) -> None:
    """A slap pad put away at night: straight to the title, the pad listed in the diagnostics."""
    h = Harness(SIZE, "tabletop")
    h.ctx.journal_dir = tmp_path
    stack = app.first_scenes(h.ctx, [PAD])
    assert [type(scene).__name__ for scene in stack] == ["TitleScene"]
    h.runner = Runner(h.ctx, stack[0], h.screen, present=lambda rects: None, service_menu=True)
    h.frame()
    h.press(0, "service")
    go(h, 0, 3)
    assert str(PAD) in seen(h)


def test_the_panel_lists_what_waits_apart_and_says_what_is_true_of_each_kind(tmp_path: Path) -> None:
    from appliance.display.runner import Runner
    from appliance.display.scenes.service_notices import NoticesScene

    h = Harness(SIZE, "tabletop")
    h.ctx.journal_dir = tmp_path
    setting = Notice("config.toml: volume: must be from 0.0 to 1.0, not 7; using 0.6", SETTINGS)
    left_out = Notice("the gpio inputs cannot start (no chip); left out", LEFT_OUT)
    stack = app.first_scenes(h.ctx, [PAD, setting, left_out])
    h.runner = Runner(h.ctx, stack[0], h.screen, present=lambda rects: None)
    for scene in stack[1:]:
        h.runner.apply(Push(scene))
    assert isinstance(h.scene, NoticesScene)
    assert shown_to(h.scene.captions(), 1) == [
        "The cabinet started with problems",
        str(setting),
        str(left_out),
        "waiting to be plugged in:",
        str(PAD),
        "settings: the built-in defaults are used",
        "an input left out: the cabinet plays without it",
        "waiting: it joins when it is plugged in",
        "any button: go on",
    ]
    set_language("de")
    try:
        lines = shown_to(h.scene.captions(), 2)
        assert "wartet darauf, eingesteckt zu werden:" in lines
        assert lines[-4:] == ["Einstellungen: es gelten die eingebauten Werte",
                              "ein Eingang fehlt: der Automat spielt ohne ihn",
                              "wartend: kommt dazu, sobald es eingesteckt ist", "eine Taste: weiter"]  # fmt: skip
    finally:
        set_language("en")
    # a notice of no kind (a game that can't be resumed) says what happens itself: no claim under it
    h.runner.apply(Push(NoticesScene(h.ctx, ["the game in x.jsonl cannot be resumed (bad); it is left as it is"])))
    assert shown_to(h.scene.captions(), 1)[-1:] == ["any button: go on"]
    assert "settings: the built-in defaults are used" not in shown_to(h.scene.captions(), 1)


def test_the_settings_file_keeps_valid_toml_after_every_adjustment(tmp_path: Path) -> None:
    h = menu(tmp_path, '[house_rules]\nchoose = "slap"\n')
    go(h, 2)
    for row in range(9):
        h.press(0, "start")
        h.runner.send(MenuKey(0, "down", True, h.now_ns))
        tomllib.loads((tmp_path / "config.toml").read_text())
        assert load_settings(tmp_path / "config.toml").warnings == [], row


def overlay_texts(h: Harness) -> list[object]:
    from appliance.display.compositor import Canvas

    canvas = Canvas(h.scene.background())
    h.scene.draw(canvas)
    return list(canvas.texts)


@pytest.mark.parametrize("lang", ["en", "de", "eo"])
@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
def test_every_page_fits_its_panel_and_faces_its_readers(tmp_path: Path, layout: str, lang: str) -> None:
    from appliance.inputs.keyboard import Press

    journals = tmp_path / "journals"
    h = Harness((1280, 720), layout, journal_dir=journals)  # 14 px at 720p on 24": 6 mm, read from 1.5 m
    h.ctx.config_path = tmp_path / "config.toml"
    for seed in (1, 2):
        played(h, seed)
    h.runner.service_menu = True
    set_language(lang)
    h.press(0, "service")
    pages = [(), (0,), (0, 0), (0, 1), (0, 2), (0, 3), (1,), (2,), (3,)]
    for rows in pages:
        while len(h.scene.pages) > 1:  # type: ignore[attr-defined]
            h.press(0, "service")
        h.scene.pages[0][1] = 0  # type: ignore[attr-defined]
        go(h, *rows)
        if rows == (0, 0):
            for control in ("pile1", "pile2", "pile3", "left", "right", "spit", "start"):
                h.runner.send(Press(1, control, True, h.now_ns, "gpio"))
        h.advance(0.1)
        texts = overlay_texts(h)
        assert texts, rows
        for d in texts:
            assert d.box.contains(d.rect), (rows, d.words)  # type: ignore[attr-defined]
            assert d.scale >= 0.5 and d.px >= 14, (rows, d.words, d.scale, d.px)  # type: ignore[attr-defined]
            if layout == "tabletop":
                assert d.angle == (180 if d.seat == 2 else 0), d.words  # type: ignore[attr-defined]


@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
def test_the_starts_notices_fit_and_face_their_readers(layout: str) -> None:
    from appliance.display.runner import Runner
    from appliance.display.scenes.service_notices import NoticesScene

    h = Harness((1280, 720), layout)
    notices = [f"/var/lib/spit-arcade/config.toml: key{n}: must be a whole number, not 'x'; using 1" for n in range(9)]
    h.runner = Runner(h.ctx, NoticesScene(h.ctx, notices), h.screen, present=lambda rects: None)
    texts = overlay_texts(h)
    assert texts
    for d in texts:
        assert d.box.contains(d.rect) and d.scale >= 0.5 and d.px >= 14, (d.words, d.scale, d.px)  # type: ignore[attr-defined]
    assert "and 3 more (see the service menu)" in shown_to(h.scene.captions(), 1)


def test_a_write_cut_short_leaves_the_old_settings_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from appliance.shared.config_file import write_settings

    config = tmp_path / "config.toml"
    config.write_text('volume = 0.6\n[keys]\nz = "1 pile1"\n')

    def power_cut(src: str, dst: str) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", power_cut)
    assert write_settings(config, {"volume": 0.9}) == "[Errno 5] Input/output error"
    assert config.read_text() == 'volume = 0.6\n[keys]\nz = "1 pile1"\n'  # the old file, whole
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]  # and no half-written file beside it
    monkeypatch.undo()
    assert write_settings(config, {"volume": 0.9, "language": "eo"}) is None
    assert config.read_text() == 'volume = 0.9\nlanguage = "eo"\n\n[keys]\nz = "1 pile1"\n'


def test_the_settings_languages_are_the_screens() -> None:
    from appliance.display.i18n import LANGUAGES
    from appliance.shared.settings import LANGUAGE_CODES

    assert LANGUAGE_CODES == LANGUAGES


def test_a_setting_the_file_holds_as_a_table_is_said_to_be_no_number_and_the_rest_is_kept(tmp_path: Path) -> None:
    """Issue 24: `volume.x = 1` and the service menu sets the volume: the file still reads, every other
    setting keeps its value, and the menu says why the volume was not saved."""
    text = "volume.x = 1\nfree_play = false\ncredits_per_game = 2\n"
    h = menu(tmp_path, text)
    go(h, 2, 5)  # adjustments, volume: a step
    saved(h)
    line = "changed for now; not saved: volume is a table in the file, not a number"
    assert line in seen(h)
    # the page fits its panel as the same page does with "saved" under it (the longer line costs no size)
    (tmp_path / "other").mkdir()
    other = menu(tmp_path / "other", "free_play = false\n")
    go(other, 2, 5)
    saved(other)
    assert "saved" in seen(other)
    size = {d.words[0]: d.px for d in overlay_texts(other) if d.place == "panel"}  # type: ignore[attr-defined]
    panels = [d for d in overlay_texts(h) if line in d.words]  # type: ignore[attr-defined]
    assert panels and all(d.box.contains(d.rect) and d.px == size[d.words[0]] for d in panels), (panels, size)
    config = tmp_path / "config.toml"
    assert config.read_text() == text
    settings = load_settings(config)
    assert (settings.free_play, settings.credits_per_game) == (False, 2)


def test_a_save_is_made_off_the_frame_which_says_saving_until_it_is_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The settings file's two syncs (and the books' row) happen on the operator layer's writer
    thread: held back here by a job before it, the frame goes on, says "saving...", and the file is
    untouched; let go, the page says "saved"."""
    import os
    import threading

    text = "volume = 0.6\n"
    h = menu(tmp_path, text)
    synced_on: list[str] = []
    sync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced_on.append(threading.current_thread().name), sync(fd))[1])
    go(h, 2)
    let_go = threading.Event()
    office(h.ctx).writer.call(lambda: let_go.wait(10))  # the card busy with something else
    go(h, 5)  # volume: 60% -> 70%
    h.frame()
    assert h.ctx.settings.volume == 0.7 and "saving..." in seen(h)  # applied at once, said
    assert (tmp_path / "config.toml").read_text() == text and synced_on == []
    let_go.set()
    saved(h)
    assert "saved" in seen(h) and "volume = 0.7" in (tmp_path / "config.toml").read_text()
    assert synced_on and threading.main_thread().name not in synced_on
    # the default game from the game menu over the page: the same
    office(h.ctx).writer.call(lambda: let_go.wait(10))
    let_go.clear()
    for _ in range(5):  # up from the volume to the default game
        h.runner.send(MenuKey(0, "up", True, h.now_ns))
    go(h, 0)  # the game menu
    h.runner.send(MenuKey(0, "right", True, h.now_ns))
    h.press(0, "start")
    assert isinstance(h.scene, ServiceMenuScene) and "saving..." in seen(h)
    assert "game" not in (tmp_path / "config.toml").read_text()
    let_go.set()
    saved(h)
    assert "saved" in seen(h) and 'game = "' in (tmp_path / "config.toml").read_text()
    assert threading.main_thread().name not in synced_on


def test_the_audits_go_to_the_usb_stick_from_utilities_off_the_frame(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from appliance.shared.usb_stick import STICK_ENV

    def answered() -> None:  # the operator layer read the books, then wrote the stick on its own thread
        saved(h)
        for thread in threading.enumerate():
            if thread.name == "audits-export":
                thread.join(10)

    monkeypatch.setenv(STICK_ENV, str(tmp_path / "no-stick-here"))
    h = menu(tmp_path)
    go(h, 3, 2)  # utilities, export
    answered()
    assert "no USB stick: plug one in" in seen(h)
    stick = tmp_path / "stick"
    stick.mkdir()
    monkeypatch.setenv(STICK_ENV, str(stick))
    let_go = threading.Event()
    office(h.ctx).writer.call(lambda: let_go.wait(10))  # the books busy: the frame goes on regardless
    h.press(0, "start")
    h.frame()
    assert "exporting to the USB stick..." in seen(h) and list(stick.iterdir()) == []
    let_go.set()
    answered()
    (written,) = (stick / "spit-arcade").iterdir()
    assert f"written to the USB stick: spit-arcade/{written.name}" in seen(h)
    assert written.read_text().startswith("section,name,lifetime,since cleared")


# --- the linked game's page ([link]: link_settings.py)

def link_page(h: Harness) -> None:
    """From the first page to Adjustments, down to the linked game's row, and into its page."""
    go(h, 2)
    h.runner.send(MenuKey(0, "up", True, h.now_ns))  # (the last row but one: free play shows no price)
    assert cursor_line(h) == "▶  linked game: off  ◀"
    h.press(0, "start")
    h.frame()


def test_the_linked_game_page_sets_each_way_and_the_seats_through_the_operator_layer(tmp_path: Path) -> None:
    h = menu(tmp_path, '# the cabinet\nvolume = 0.6\n')
    link_page(h)
    assert seen(h)[:3] == ["Linked game", "▶  linked game: off  ◀",
                           "no linked game: this cabinet plays alone and opens no port"]
    h.press(0, "start")  # off -> wait for the other cabinet
    saved(h)
    config = tmp_path / "config.toml"
    assert seen(h)[:5] == ["Linked game", "▶  linked game: wait for the other cabinet  ◀", "port: 50070",
                           "this cabinet's seats: 1 (the default)",
                           "the link opens at the cabinet's next start (docs/linked.md)"]
    assert seen(h)[-2] == "saved: it holds from the next start"
    assert tomllib.loads(config.read_text())["link"] == {"listen": 50070}
    go(h, 1)  # the port: 50070 -> 50071
    go(h, 1)  # the seats: default -> 1 -> 2
    h.press(0, "start")
    saved(h)
    assert seen(h)[2:4] == ["port: 50071", "▶  this cabinet's seats: 2  ◀"]
    assert config.read_text().startswith("# the cabinet\nvolume = 0.6\n")  # the rest of the file kept
    assert load_settings(config).link == {"listen": 50071, "seats": [2]} == h.ctx.settings.link
    h.runner.send(MenuKey(0, "up", True, h.now_ns))
    h.runner.send(MenuKey(0, "up", True, h.now_ns))
    h.press(0, "start")  # -> find one on the venue (the seats kept)
    h.press(0, "start")
    saved(h)
    assert seen(h)[1:4] == ["▶  linked game: find one on the venue  ◀",
                            "the first cabinet on the venue whose game fits", "this cabinet's seats: 2"]
    assert load_settings(config).link == {"join": "venue", "seats": [2]}
    h.press(0, "start")  # -> off: the table taken out
    saved(h)
    assert "link" not in tomllib.loads(config.read_text())
    h.press(0, "service")
    assert cursor_line(h) == "▶  linked game: off  ◀"
    office = h.ctx.office
    assert office is not None and office.drain(10)
    rows = office.store.rows("SELECT key, old, new FROM adjustments ORDER BY boot, seq")
    assert rows[:2] == [("link.listen", "null", "50070"), ("link.listen", "50070", "50071")]
    assert ("link.join", '"192.168.1.2:50070"', '"venue"') in rows
    assert sorted(rows[-2:]) == [("link.join", '"venue"', "null"), ("link.seats", "[2]", "null")]  # off: all out


def test_the_linked_game_page_keeps_the_link_word_and_shows_only_that_one_is_set(tmp_path: Path) -> None:
    h = menu(tmp_path, '[link]\nlisten = 50070\nword = "Ahorn am Tresen 7"\n')
    h.ctx.settings.link = load_settings(tmp_path / "config.toml").link  # (as play read it at its start)
    go(h, 2)
    h.runner.send(MenuKey(0, "up", True, h.now_ns))
    h.press(0, "start")
    h.frame()
    assert "link word: set" in seen(h) and not any("Ahorn" in line for line in seen(h))
    h.press(0, "start")  # wait -> join an address: the word kept
    saved(h)
    assert load_settings(tmp_path / "config.toml").link == {"join": "192.168.1.2:50070", "word": "Ahorn am Tresen 7"}
    office = h.ctx.office
    assert office is not None and office.drain(10)
    assert not any("Ahorn" in str(row) for row in office.store.rows("SELECT key, old, new FROM adjustments"))


def test_the_address_is_set_a_digit_at_a_time_and_checked_as_check_config_checks_it(tmp_path: Path) -> None:
    h = menu(tmp_path, '[link]\njoin = "10.0.0.7:50070"\n')
    h.ctx.settings.link = load_settings(tmp_path / "config.toml").link  # (as play read it at its start)
    go(h, 2)
    h.runner.send(MenuKey(0, "up", True, h.now_ns))
    assert cursor_line(h) == "▶  linked game: joins 10.0.0.7:50070  ◀"
    h.press(0, "start")
    h.frame()
    assert seen(h)[1:4] == ["▶  linked game: join an address  ◀", "address: 10.0.0.7:50070",
                            "this cabinet's seats: 2 (the default)"]
    go(h, 1)  # the address editor
    assert seen(h)[:4] == ["Linked game", "the other cabinet's address and port:",
                           "[0]10.000.000.007 : 50070   SAVE", "now: 10.0.0.7:50070"]
    assert seen(h)[-1] == "LEFT/RIGHT: move; START: next digit, or save; SERVICE (F2): back without saving"
    for _ in range(11):
        h.press(1, "right")  # a player's RIGHT: the next digit
    h.press(1, "start")  # 10.0.0.7 -> 10.0.0.8
    assert seen(h)[2] == "010.000.000.00[8] : 50070   SAVE"
    h.runner.send(MenuKey(0, "left", True, h.now_ns))  # the keyboard's arrows: left and down
    h.runner.send(MenuKey(0, "down", True, h.now_ns))  # 10.0.0.8 -> 10.0.0.98
    assert seen(h)[3] == "now: 10.0.0.98:50070"
    for _ in range(7):
        h.press(1, "right")  # onto SAVE
    assert seen(h)[2] == "010.000.000.098 : 50070   ▶ SAVE ◀"
    h.press(1, "start")
    saved(h)
    assert seen(h)[:3] == ["Linked game", "linked game: join an address", "▶  address: 10.0.0.98:50070  ◀"]
    assert load_settings(tmp_path / "config.toml").link == {"join": "10.0.0.98:50070"}
    # a number past 255, and a port of 0 (check-config's own words): refused, nothing changed
    go(h, 0)
    h.press(1, "start")  # 010 -> 110 ... -> 310
    h.press(1, "start")
    h.press(1, "start")
    h.press(1, "left")  # onto SAVE (from the first digit, leftwards)
    h.press(1, "start")
    assert seen(h)[-2] == "not changed: each number of an address is 0 to 255"
    h.press(0, "service")  # back without saving
    assert seen(h)[2] == "▶  address: 10.0.0.98:50070  ◀"
    go(h, 0)
    for _ in range(12):
        h.press(1, "right")
    for _ in range(5):  # the port's first digit: 5 -> 0, so 00070 -> ... each digit to 0
        h.press(1, "start")
    for _ in range(3):
        h.press(1, "right")
    for _ in range(3):  # 7 -> 0
        h.press(1, "start")
    for _ in range(2):
        h.press(1, "right")  # onto SAVE: the port 0
    h.press(1, "start")
    said = seen(h)[-2]
    assert said == ('not changed: link.join: must be "HOST:PORT", "venue" or "venue:CABINET", '
                    "not '10.0.0.98:0'; ignored")
    assert load_settings(tmp_path / "config.toml").link == {"join": "10.0.0.98:50070"}


@pytest.mark.parametrize("lang", ["en", "de", "eo"])
@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
def test_the_linked_game_pages_fit_and_face_their_readers(tmp_path: Path, layout: str, lang: str) -> None:
    h = Harness((1280, 720), layout)
    h.ctx.config_path = tmp_path / "config.toml"
    h.ctx.config_path.write_text('[link]\njoin = "192.168.100.200:50070"\nseats = [1, 2]\n')
    h.ctx.settings = load_settings(h.ctx.config_path)
    h.runner.service_menu = True
    set_language(lang)
    h.press(0, "service")
    go(h, 2)
    h.runner.send(MenuKey(0, "up", True, h.now_ns))
    h.press(0, "start")
    h.frame()
    for page in ("link", "link_address"):
        if page == "link_address":
            go(h, 1)
        assert shown_to(h.scene.captions(), 1) == shown_to(h.scene.captions(), 2)  # one panel for all
        texts = overlay_texts(h)
        assert texts
        for d in texts:
            assert d.box.contains(d.rect), (page, d.words)  # type: ignore[attr-defined]
            assert d.scale >= 0.5 and d.px >= 14, (page, d.words, d.scale, d.px)  # type: ignore[attr-defined]
            if layout == "tabletop":
                assert d.angle == (180 if d.seat == 2 else 0), d.words  # type: ignore[attr-defined]
    assert seen(h)[2].startswith("[1]92.168.100.200 : 50070   ")
