"""Why a press did nothing and what to do instead; the move that is there, shown to a stuck player."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from headless import Harness, _play_from, headless_display
from positions import position

from appliance.display.captions import Caption, Line, draw_captions
from appliance.display.compositor import Canvas
from appliance.display.hints import HINT_AFTER_S, TOLD, Told, reject_words, tell
from appliance.display.i18n import LANGUAGES, LOCALE_DIR, _, read_po, set_language
from appliance.display.keys import key_label
from appliance.display.layout import table_layout
from appliance.display.scenes.play import PlayScene
from appliance.display.table_view import RED, owned_lines
from appliance.rules import PHASES, REJECT_REASONS, game_from_state
from appliance.rules.player_words import misfit_words

SIZE = (1280, 720)
PRESSES = ("pile1", "pile6", "left", "right", "far_left", "spit", "slap")
# The only move player 1 has: the QD into the space (pile 5), which uncovers a card to turn.
# Player 2 can play the 4S on the 5H, so nobody is stalemated.
STUCK = position(["9C", "KH", "KS", "2D QD", ""], ["4S", "JH", "JS", "JD", "3C"], spit=("5H", "7D"),
                 p1_spit="AC", p2_spit="AD")


ONE_PART = ("wrong_pile", "slap_smaller", "game_over", "call_first", "cannot_pick_up")


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    set_language("en")


def contexts() -> list[tuple[str, str, str]]:
    """Every reject reason the core has, with every press and phase it could come with."""
    return [(reason, press, phase) for reason in REJECT_REASONS for press in PRESSES for phase in PHASES]


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_reject_reason_has_player_words_in_every_language(language: str) -> None:
    catalogue = set(read_po(LOCALE_DIR / language / "LC_MESSAGES" / "spit_arcade.po").values())
    set_language(language)
    for reason, press, phase in contexts():
        words = reject_words(reason, press, phase)
        assert words in catalogue, (reason, press, phase, words)  # the players' words, not the core's


def test_every_reject_says_why_and_what_to_do_instead() -> None:
    for reason, press, phase in contexts():
        words = reject_words(reason, press, phase)
        # why, then what to do (or words that are already what to do: "slap the smaller spit pile")
        assert re.search(r"[:.] \w", words) or reason in ONE_PART, words
    # "Not now" where the core says it (game.py, choosing.py, the ghost card and the duel): never bare
    emitted = [("pile1", "choosing"), ("pile1", "ready"), ("pile1", "stalemate"), ("left", "ready"),
               ("right", "stalemate"), ("spit", "choosing"), ("spit", "playing"), ("slap", "playing"),
               ("slap", "ready"), ("slap", "choosing")]
    fallback = reject_words("wrong_phase")
    assert all(reject_words("wrong_phase", press, phase) != fallback for press, phase in emitted)
    spit = {phase: reject_words("wrong_phase", "spit", phase) for phase in PHASES}
    assert spit["playing"].startswith("SPIT! only if nobody can play")
    assert "SPIT!" in reject_words("wrong_phase", "pile3", "ready")  # turning before SPIT!: call it
    told = Told("move", 2, ("R", "T"))
    assert reject_words("wrong_phase", "spit", "playing", told) == \
        "SPIT! only if nobody can play. Move a card into the space: press R, then T"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
def test_every_reject_and_every_move_told_fits_its_place_at_a_readable_size(language: str, layout: str) -> None:
    headless_display(SIZE)
    set_language(language)
    lay = table_layout(SIZE, layout)
    told = [Told(kind, presses, keys) for kind in TOLD for presses in (1, 2) for keys in ((), ("Q", "T")[:presses])]
    longest = [Told("move", 2, ("Q", "T")), Told("lift", 2, ("Q", "Q"))]
    texts = {reject_words(reason, press, phase) for reason, press, phase in contexts()}
    texts |= {reject_words("wrong_phase", "spit", "playing", move) for move in longest}
    texts |= {move.words() for move in told}
    # a card that fits no spit pile: the longest a pile's top, what it needs, and the piles named make
    texts |= {misfit_words("TS", "QD", fitting, 4, _) for fitting in ((), ("9C",), ("9C", "JH"), ("9C", "JH", "9H"))}
    for text in sorted(texts):
        for place in ("reject", "prompt"):
            canvas = Canvas(pygame.Surface(SIZE))
            # a reject as the table says it: on the desktop under its seat's name (a line more)
            lines = owned_lines(lay, 2, text, RED) if place == "reject" else (Line(text, 0.12),)
            draw_captions(canvas, lay, [Caption(place, 2, lines)])
            (drawn,) = canvas.texts
            assert drawn.box.contains(drawn.rect) and drawn.px >= 17, (place, text, drawn.px)


def test_the_move_told_is_one_the_rules_offer_never_a_play() -> None:
    game = game_from_state(STUCK)
    assert [a.kind for a in game.legal_actions(1)] == ["move"]
    told = tell(game, 1, {"r": (1, "pile4"), "t": (1, "pile5")})
    assert told == Told("move", 2, ("R", "T"))
    assert tell(game, 2) is None  # player 2 can only play the 4S: a race is never told
    assert tell(game, 1) == Told("move", 2, ())  # no keys shown: said without them
    assert Told("move", 2).words() == "Move a card into the space: its pile, then the space"


def keys_of(h: Harness, *controls: str) -> list[str]:
    return [key_label(h.ctx.keymap, 1, control) for control in controls]


def test_spit_called_while_a_move_is_there_says_which_move_and_its_keys() -> None:
    h = Harness(SIZE, "desktop")
    _play_from(h, STUCK)
    h.press(1, "spit")
    h.frame()
    scene = h.scene
    assert isinstance(scene, PlayScene)
    (said,) = [[line.words for line in c.lines] for c in scene.captions() if c.place == "reject" and c.seat == 1]
    first, then = keys_of(h, "pile4", "pile5")
    assert said == [  # on the desktop headed by whose it is
        "Player 1", f"SPIT! only if nobody can play. Move a card into the space: press {first}, then {then}"
    ]


def told_to(scene: PlayScene, seat: int) -> list[str]:
    return [c.lines[0].words for c in scene.captions() if c.place == "prompt" and c.seat == seat]


def test_a_player_stuck_for_a_few_seconds_is_shown_the_move_that_is_there_until_they_move() -> None:
    h = Harness(SIZE, "desktop")
    _play_from(h, STUCK)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    h.advance(HINT_AFTER_S - 1)
    assert told_to(scene, 1) == []  # thinking is allowed
    h.press(1, "spit")  # a press that did nothing is not a move
    h.advance(1.2)
    first, then = keys_of(h, "pile4", "pile5")
    assert told_to(scene, 1) == [f"Move a card into the space: press {first}, then {then}"]
    assert told_to(scene, 2) == []  # player 2 can play: never told
    h.press(1, "pile4")
    h.frame()
    assert told_to(scene, 1) == []  # doing something ends it
    h.press(1, "pile5")  # the QD moved: the 2D under it can be turned
    h.advance(HINT_AFTER_S + 0.1)
    assert told_to(scene, 1) == [f"Turn a card: press {first}"]
    set_language("de")
    assert told_to(scene, 1) == [f"Dreh eine Karte um: {first} drücken"]


def test_the_computer_is_never_told() -> None:
    from appliance.display.scenes.base import make
    from appliance.match import Match

    h = Harness(SIZE, "desktop")

    class Idle:
        def next_press(self, game: object, now: float) -> None:
            return None

    match = Match(7, h.now_ns, None, {1: Idle()}, game=game_from_state(STUCK, seed=7))
    h.runner.apply_scene(make("play", h.ctx, match))
    h.advance(HINT_AFTER_S + 1)
    scene = h.scene
    assert isinstance(scene, PlayScene) and told_to(scene, 1) == []


def test_the_words_of_this_module_are_in_the_catalogues() -> None:
    appliance = Path(__file__).parent.parent / "appliance"
    found: set[str] = set()
    for source in (appliance / "display" / "hints.py", appliance / "rules" / "player_words.py"):
        # the core's English is said through `say(...)`, a msgid each; this module's own through `_(...)`
        found |= set(re.findall(r'\b(?:_|say)\(\s*"((?:[^"\\]|\\.)*)"\s*\)', source.read_text(encoding="utf-8")))
    assert len(found) > 40
    for language in ("de", "eo"):
        catalogue = read_po(LOCALE_DIR / language / "LC_MESSAGES" / "spit_arcade.po")
        assert sorted(m for m in found if not catalogue.get(m)) == []


@pytest.mark.parametrize(("language", "said"), [
    ("en", "A♦ needs K or 2: no spit pile takes 6♠"),
    ("de", "auf A♦ passt K oder 2: 6♠ passt auf keinen Spit-Stapel"),
    ("eo", "A♦ bezonas K aŭ 2: neniu spit-stako prenas 6♠"),
])  # fmt: skip
def test_a_card_that_fits_neither_spit_pile_is_told_what_would_fit_not_to_try_the_other(
    language: str, said: str
) -> None:
    # issue 25: German, tabletop, 6♠ onto A♦ with K♣ beside it
    state = position(["6S", "KH", "KS", "2D QD", ""], ["4S", "JH", "JS", "JD", "3C"], spit=("AD", "KC"),
                     p1_spit="AC", p2_spit="8D")
    h = Harness(SIZE, "tabletop")
    set_language(language)
    _play_from(h, state)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    h.press(1, "pile1")
    h.press(1, "left" if scene.match.game.table.spit_pile_for(1, "left") == 0 else "right")
    h.frame()
    (shown,) = [[line.words for line in c.lines] for c in scene.captions() if c.place == "reject" and c.seat == 1]
    assert shown == [said]


LIFT_TWICE = {  # Running Spit, player 1's only move a lift: pick the 8 up and press its pile again
    "en": "Lift a card to turn the one under it: press Q twice",
    "de": "Heb eine Karte, dreh die darunter um: 2× Q drücken",
    "eo": "Levu karton, turnu tiun sub ĝi: premu Q dufoje",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_key_pressed_twice_is_named_once_with_twice(language: str) -> None:
    """Never "press Q, Q": the lift's two presses of one pile read "press Q twice", on the frame."""
    h = Harness(SIZE, "desktop")
    _play_from(h, position(["2C 8H", "3C", "4C", "5C", "6C"], ["2D 8C", "3D", "4D", "5D", "6D"], spit=("KS", "KD"),
                           options={"carry": True}, variant="running"))
    h.advance(HINT_AFTER_S + 0.1)
    set_language(language)
    shown = [" ".join(d.words) for d in h.canvas().texts if d.place == "prompt" and d.seat == 1]
    assert shown == [LIFT_TWICE[language]]
    assert "Q, Q" not in " ".join(shown)
