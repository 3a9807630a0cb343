"""Scene texts as data: what each seat is shown, where, which way up, and that every text fits.

These read `scene.captions()` (what each seat is told) and `Canvas.texts` / `TableView.legend_texts`
(where each block of text was drawn, its box, its turn, how far it was shrunk), never pixels, so a
wrong word or a swapped number fails here whatever a pixel tolerance would let through.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from headless import KEY_SCENES, Harness, to_choose, to_choosing, to_game_over, to_play, to_ready
from screen_facts import hidden

from appliance.display.captions import Caption, Drawn, Line, draw_captions, shown_to
from appliance.display.compositor import Canvas
from appliance.display.i18n import LANGUAGES, LOCALE_DIR, read_po, set_language
from appliance.display.layout import TableLayout, table_layout
from appliance.display.legend import seat_legend
from appliance.display.scenes.choose import ChooseScene
from appliance.display.scenes.play import PlayScene
from appliance.display.scenes.settings_menu import SettingsScene

SIZE = (1280, 720)
IN_PLAY = ("prompt", "reject", "race")


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    set_language("en")


def asked(captions: list[Caption]) -> list[Caption]:
    """The captions but the rules in force (the info place): what a seat is asked and told."""
    return [c for c in captions if c.place != "info"]


def table_of(h: Harness) -> TableLayout:
    """The layout the scene draws its texts on: its game's table, or the screen's classic one."""
    view = getattr(h.scene, "view", None)
    return view.layout if view is not None else h.ctx.layout


def drawn_texts(h: Harness) -> list[Drawn]:
    """Every text of the frame one can see: the scene's, and those painted into its background (names,
    keys, legends), but those an overlay hides and the pile sizes (a copy facing each side)."""
    canvas = h.canvas()
    return [d for d in canvas.texts if not hidden(canvas, d.rect, d.layer) and d.place != "count"]


def card_areas(h: Harness) -> list[pygame.Rect]:
    lay = table_of(h)
    rects = [r.inflate(8, 8) for r in lay.spit_piles]
    for seat in lay.seats.values():
        for rect in (*seat.stock, seat.spit_cards):
            stacked = rect.union(rect.move(seat.stack_dx * 4, seat.stack_step * 4))  # cards peeking out under the top
            rects.append(stacked)
    return rects


# ------------------------------------------------------------------ what each seat is shown


def test_choosing_tells_each_seat_the_pile_sizes_as_it_sees_them() -> None:
    for layout in ("tabletop", "desktop"):
        h = Harness(SIZE, layout)
        to_choosing(h)
        scene = h.scene
        assert isinstance(scene, PlayScene)
        screen_left, screen_right = (len(pile) for pile in scene.match.game.spit_piles)
        assert screen_left != screen_right
        one = f"SLAP the smaller pile! left {screen_left} cards, right {screen_right} cards"
        # on the tabletop player 2 is turned round: the screen's left pile is on their right
        two = (
            one
            if layout == "desktop"
            else f"SLAP the smaller pile! left {screen_right} cards, right {screen_left} cards"
        )
        captions = asked(scene.captions())
        assert shown_to(captions, 1) == [one]
        assert shown_to(captions, 2) == [two]
        assert {(c.place, c.seat) for c in captions} == {("prompt", 1), ("prompt", 2)}


def test_each_seat_is_asked_for_its_own_spit_call() -> None:
    h = Harness(SIZE, "tabletop")
    to_ready(h)
    assert shown_to(asked(h.scene.captions()), 1) == ["Ready? press SPIT!"]
    h.press(1, "spit")
    h.frame()
    captions = asked(h.scene.captions())
    assert shown_to(captions, 1) == ["you called SPIT!"]
    assert shown_to(captions, 2) == ["Ready? press SPIT!"]


def test_a_reject_is_told_to_its_seat_and_a_race_to_everybody() -> None:
    h = Harness(SIZE, "tabletop")
    to_play(h)
    captions = h.scene.captions()
    rejects = [c for c in captions if c.place == "reject"]
    assert [c.seat for c in rejects] == [2]
    assert shown_to(rejects, 1) == []
    set_language("de")  # a message already up is said in the language chosen since
    (german,) = shown_to([c for c in h.scene.captions() if c.place == "reject"], 2)
    (english,) = shown_to(rejects, 2)
    assert german != english


def test_against_the_computer_its_seat_shows_no_keys_and_no_prompts() -> None:
    h = Harness(SIZE, "tabletop")
    to_choose(h)
    h.press(1, "right")  # against the computer, level 1
    h.press(1, "spit")
    h.advance(2.2)
    scene = h.scene
    assert isinstance(scene, PlayScene) and set(scene.match.bots) == {2}
    assert {d.seat for d in scene.view.legend_texts if d.place in ("legend", "key")} == {1}
    for _ in range(120):
        words = shown_to([c for c in asked(scene.captions()) if c.seat == 2], 2)
        assert all("computer" in w for w in words), words
        assert "you called SPIT!" not in words
        h.frame()


def test_game_over_shows_the_result_and_no_stale_message() -> None:
    h = Harness(SIZE, "tabletop")
    to_game_over(h)
    captions = h.scene.captions()
    assert {c.place for c in captions} == {"panel"}
    one, two = shown_to(captions, 1), shown_to(captions, 2)
    assert one[0] == two[0] == "Player 1 wins!"
    assert "You win!" in one and "Well played" in two and "You win!" not in two


def test_the_legend_names_the_piles_as_the_screen_shows_them() -> None:
    from appliance.display.events import side_for
    from appliance.display.keys import default_keymap, for_desktop, key_label

    desktop = for_desktop(default_keymap())
    # on the desktop player 2's key for the screen's left spit pile is the one written over it
    left_key = key_label(desktop, 2, side_for(2, 0))
    assert f"left pile {left_key}" in seat_legend(desktop, 2, "desktop")
    tabletop = default_keymap()
    for player in (1, 2):
        for lines in (seat_legend(tabletop, player, "tabletop"), seat_legend(desktop, player, "desktop")):
            shown = " ".join(lines)
            assert "G" not in shown.split() and "]" not in shown.split()  # pile 6: no such pile in classic Spit
            assert len(lines) == 4


def test_the_arrow_keys_move_the_menu() -> None:
    h = Harness(SIZE)
    to_choose(h)
    scene = h.scene
    assert isinstance(scene, ChooseScene)
    down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DOWN, mod=0, unicode="", scancode=0)
    assert scene.index == 1  # "Two players", under the game's row
    h.frame([down])
    assert scene.index == 2
    up = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_UP, mod=0, unicode="", scancode=0)
    h.frame([up, up])
    assert scene.index == 0  # the game's row: SPIT opens the game menu
    h.frame([up])
    assert scene.index == len(scene.options)


def test_settings_sit_over_a_game_and_give_it_back_as_it_was() -> None:
    h = Harness(SIZE, "tabletop")
    to_play(h)
    game_scene = h.scene
    h.press(0, "service")
    assert isinstance(h.scene, SettingsScene) and h.runner.stack[0] is game_scene
    h.press(1, "right")  # English -> Deutsch
    h.frame()
    assert "Einstellungen" in shown_to(h.scene.captions(), 1)
    h.press(0, "start")
    assert h.scene is game_scene
    assert any("SPIT" in w for w in shown_to(game_scene.captions(), 1)) or game_scene.captions() is not None


# ------------------------------------------------------------------ where texts go


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
@pytest.mark.parametrize("name", list(KEY_SCENES))
def test_every_text_fits_faces_its_seat_and_covers_nothing(name: str, layout: str, language: str) -> None:
    set_language(language)
    h = Harness(SIZE, layout)
    KEY_SCENES[name][1](h)
    texts = drawn_texts(h)
    assert texts, "a scene with no text"
    for d in texts:
        assert d.box.contains(d.rect), (d.words, d.rect, d.box)
        assert d.scale >= 0.5, (d.words, d.scale)  # shrunk a little to fit, never to a squint
        # at 720p on a 24" screen a pixel is 0.41 mm: what is read in play is 7 mm tall or more,
        # the small print of the menus 6 mm (readable from 1.5 m)
        # a table of three or four at 720p is crowded: 12 px there (18 px on a 1080p cabinet screen)
        crowded = len(table_of(h).seats) > 2
        assert d.px >= (12 if crowded else 17 if d.place in (*IN_PLAY, "legend") else 14), (d.words, d.px)
        table = table_of(h)
        if layout == "tabletop":
            assert d.seat in table.seats
            assert d.angle == table.seat(d.seat).angle, d.words  # facing its seat: 180° across, 90°/270° beside
            assert len(table.seats) > 2 or d.angle == (180 if d.seat == 2 else 0), d.words
        else:
            # what everybody reads (a text for all, the keys by the middle piles) is upright on the desktop
            assert d.angle == (0 if d.seat is None or d.place == "pile_key" else table.seat(d.seat).angle)
            assert d.angle in (0, 90, 270)
    if len(h.runner.stack) == 1:  # an overlay (settings, pause) covers the game's texts on purpose
        for i, d in enumerate(texts):
            for other in texts[i + 1 :]:
                assert not d.rect.colliderect(other.rect), (d.words, other.words)
    cards = card_areas(h)
    for d in texts:
        if d.place in IN_PLAY:
            assert d.rect.collidelist(cards) == -1, (d.words, d.rect)


def test_shared_texts_are_drawn_for_every_seat_on_the_tabletop() -> None:
    h = Harness(SIZE, "tabletop")
    canvas = h.canvas()
    seats = {d.seat for d in canvas.texts if "SPIT ARCADE" in d.words}
    assert seats == {1, 2}
    desktop = Harness(SIZE, "desktop")
    assert [d.seat for d in desktop.canvas().texts if "SPIT ARCADE" in d.words] == [None]


def test_a_too_long_text_is_wrapped_and_shrunk_into_its_box() -> None:
    from headless import headless_display

    headless_display(SIZE)
    lay = table_layout(SIZE, "tabletop")
    canvas = Canvas(pygame.Surface(SIZE))
    words = "a reject message that is far too long for the little place beside the spit piles " * 3
    draw_captions(canvas, lay, [Caption("reject", 2, (Line(words, 0.13),))])
    (drawn,) = canvas.texts
    assert drawn.box == lay.seat(2).places["reject"] and drawn.box.contains(drawn.rect) and drawn.angle == 180
    assert len(drawn.words) > 1  # wrapped


def test_a_no_break_space_holds_its_words_on_one_line_where_phrases_are_broken() -> None:
    from headless import headless_display

    from appliance.display.captions import wrap

    headless_display(SIZE)
    # a key named in a legend (", (comma)") after a comma and before a bracket: both are phrase breaks
    lines = wrap((Line("slap the ghost ,\u00a0(comma), then pick a card", 0.12),), 158, 200)
    assert len(lines) > 1 and any(line.words.endswith(",\u00a0(comma),") for line in lines), lines
    assert not [line for line in lines if line.words.startswith("(comma)")]


# ------------------------------------------------------------------ languages


def _source_messages() -> set[str]:
    root = Path(__file__).parent.parent / "appliance" / "display"
    found: set[str] = set()
    for path in root.rglob("*.py"):
        found |= set(re.findall(r'_\(\s*"((?:[^"\\]|\\.)*)"\s*\)', path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_text_has_a_translation(language: str) -> None:
    catalogue = read_po(LOCALE_DIR / language / "LC_MESSAGES" / "spit_arcade.po")
    messages = _source_messages()
    assert len(messages) > 40
    missing = sorted(m for m in messages if not catalogue.get(m))
    assert missing == []
    for message in messages:  # the same {fields}, so formatting never fails
        assert re.findall(r"{\w+[^}]*}", message) == re.findall(r"{\w+[^}]*}", catalogue[message]), message


def test_a_scene_reads_in_the_chosen_language() -> None:
    set_language("eo")
    h = Harness(SIZE, "tabletop")
    to_ready(h)
    (words,) = shown_to(asked(h.scene.captions()), 1)
    assert words != "Ready? press SPIT!" and "SPIT" in words
    set_language("de")
    assert shown_to(asked(h.scene.captions()), 1) != [words]


def test_escape_pauses_the_game_under_it_and_spit_plays_on() -> None:
    from appliance.display.scenes.base import BACK, MenuKey
    from appliance.shared.settings import Settings

    h = Harness(SIZE, settings=Settings(layout="tabletop", idle_timeout_s=5))
    to_play(h)
    game_scene = h.scene
    assert isinstance(game_scene, PlayScene)
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))
    assert type(h.scene).__name__ == "PauseScene" and h.runner.stack == [game_scene, h.scene]
    assert shown_to(h.scene.captions(), 2)[0] == "Paused"
    h.advance(8)  # past the idle time: a paused game waits
    h.press(2, "spit")
    h.frame()
    assert h.scene is game_scene and not game_scene.match.finished


def test_a_seat_at_the_side_of_the_table_reads_its_text_turned_a_quarter() -> None:
    """More seats later sit at the table's sides: the same places, turned 90° or 270°."""
    from headless import headless_display

    from appliance.display.layout import Place

    headless_display(SIZE)
    lay = table_layout(SIZE, "tabletop")
    box = pygame.Rect(10, 100, 120, 500)  # a tall strip along the left edge

    class SideSeat:
        card_h = lay.card_h

        def targets(self, kind: str, owner: int | None) -> list[Place]:
            return [Place(kind, 3, box, 270)]

    canvas = Canvas(pygame.Surface(SIZE))
    draw_captions(canvas, SideSeat(), [Caption("prompt", 3, (Line("press SPIT! now, player three", 0.13),))])  # type: ignore[arg-type]
    (drawn,) = canvas.texts
    assert drawn.angle == 270 and box.contains(drawn.rect)
    assert drawn.rect.height > drawn.rect.width  # running along the edge, facing the seat beside it
