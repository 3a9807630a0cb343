"""The guided first game on screen (scenes/learn.py): one press from the title, a seat of its own,
each step told with the learner's own key and its card lit, praised when done, a wrong press held
back with why, START leaving; in every language, on both layouts; `play --learn`. Texts as data."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from headless import Harness

from appliance.display.app import parse_args
from appliance.display.captions import shown_to
from appliance.display.guide import asked_words, invitation, praise_words, wrong_words
from appliance.display.i18n import LANGUAGES, set_language
from appliance.display.scenes.learn import LearnedScene, LearnScene
from appliance.first_game import Wrong
from appliance.shared.settings import Settings

SIZE = (1280, 720)


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    set_language("en")


def learning(layout: str = "desktop", learner: int = 1, game: str = "classic") -> Harness:
    h = Harness(SIZE, settings=Settings(layout=layout, game=game))
    h.advance(0.2)
    h.press(learner, "pile1")  # one press from the title
    h.frame()
    return h


def step_on(h: Harness) -> None:
    """The learner makes the press asked for (waiting first while the partner calls)."""
    scene: Any = h.scene
    for _ in range(100):
        if not scene.guide.waiting(scene.match.game):
            break
        h.advance(0.1)
    ask = scene.guide.ask(scene.match.game)
    h.press(scene.learner, ask.control)
    h.frame()


@pytest.mark.parametrize("layout", ["desktop", "tabletop"])
@pytest.mark.parametrize("learner", [1, 2])
def test_one_press_on_the_title_starts_the_guide_at_that_seat(layout: str, learner: int) -> None:
    h = learning(layout, learner)
    scene = h.scene
    assert isinstance(scene, LearnScene)
    assert scene.learner == learner and set(scene.match.bots) == {3 - learner}  # the partner's seat
    assert scene.match.game.table.seats == 2


def test_speed_chosen_teaches_speed() -> None:
    h = learning(game="speed")
    assert isinstance(h.scene, LearnScene) and h.scene.game_name == "speed"
    assert type(h.scene.match.game).__name__ == "SpeedGame"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("layout", "learner", "keys"), [
    ("desktop", 1, ["S", "Q", "A"]), ("desktop", 2, ["K", "U", "L"]), ("tabletop", 2, ["K", "U", "J"]),
])  # fmt: skip
def test_each_step_says_the_learners_own_key(language: str, layout: str, learner: int, keys: list[str]) -> None:
    set_language(language)
    h = learning(layout, learner)
    scene: Any = h.scene
    told = []
    for _ in range(3):  # SPIT!, pick up the 5, play it onto the 6
        ask = scene.guide.ask(scene.match.game)
        words = asked_words(ask, scene.view.keymap, learner, "spit")
        assert words in shown_to(scene.captions(), learner)
        assert words not in shown_to(scene.captions(), 3 - learner)
        told.append(words)
        step_on(h)
    for words, key in zip(told, keys, strict=True):
        assert f" {key} " in f" {words} ".replace(":", " ").replace(",", " ")
    assert told[0] != told[1]


def test_the_card_to_press_is_lit() -> None:
    h = learning()
    scene: Any = h.scene
    step_on(h)  # SPIT!
    h.advance(1.0)
    glow = scene.view.art.glow("assist")
    off = scene.view.art.glow_offset()
    at = scene.view.layout.seat(1).stock[0]
    lit = [(x, y) for image, x, y in h.canvas().items if image is glow]
    assert lit == [(at.x - off, at.y - off)]
    step_on(h)  # the 5 picked up: now the spit pile is lit
    pile = scene.view.layout.spit_piles[0]
    lit = [(x, y) for image, x, y in h.canvas().items if image is glow]
    assert lit == [(pile.x - off, pile.y - off)]


def test_a_step_done_is_praised_and_a_wrong_press_is_held_back_with_why() -> None:
    h = learning()
    scene: Any = h.scene
    step_on(h)
    assert praise_words("call") in shown_to(scene.captions(), 1)
    h.advance(1.0)
    events = len(scene.match.events)
    h.press(1, "pile3")  # the queen: fits nothing
    h.frame()
    assert len(scene.match.events) == events  # held back: never reached the game
    said = wrong_words(Wrong("not_fit", card="QS"))
    assert said == "queen fits neither spit pile: it needs one rank up or down."
    assert said in shown_to(scene.captions(), 1)
    assert said not in shown_to(scene.captions(), 2)
    step_on(h)
    step_on(h)
    assert praise_words("play") in shown_to(scene.captions(), 1)
    assert said not in shown_to(scene.captions(), 1)


def test_the_partners_keys_do_nothing_and_start_leaves() -> None:
    h = learning()
    scene: Any = h.scene
    h.press(2, "spit")
    h.frame()
    assert scene.match.events == [] and h.scene is scene
    h.press(0, "start")
    h.frame()
    assert type(h.scene).__name__ == "TitleScene"


@pytest.mark.parametrize(("game", "scene_class"), [("classic", LearnScene), ("speed", LearnScene)])
def test_the_lesson_ends_with_what_was_learnt_and_offers_a_real_game(game: str, scene_class: type) -> None:
    h = learning(game=game)
    assert isinstance(h.scene, scene_class)
    for _ in range(30):
        if not isinstance(h.scene, scene_class):
            break
        scene: Any = h.scene
        if scene.guide.done:
            h.advance(0.5)
        else:
            step_on(h)
    assert isinstance(h.scene, LearnedScene)
    assert "Well done!" in shown_to(h.scene.captions(), 1)
    h.press(1, "spit")
    h.frame()
    assert type(h.scene).__name__ == "ChooseScene"


def test_the_title_invites_to_it_with_the_keys() -> None:
    h = Harness(SIZE, settings=Settings(layout="desktop"))
    said = invitation(h.ctx.keymap)
    assert said == "New here? Press Q or U for a first game that teaches you."
    assert said in shown_to(h.scene.captions(), 1)
    set_language("de")
    assert "Q" in invitation(h.ctx.keymap) and invitation(h.ctx.keymap) != said


def test_play_learn_is_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--help"])
    assert "--learn [{spit,speed,chosen}]" in capsys.readouterr().out  # listed in play's --help
    assert parse_args(["--learn"]).learn == "chosen"
    assert parse_args(["--learn", "speed"]).learn == "speed"
    assert parse_args([]).learn is None


def test_wrong_presses_keep_the_learner_at_the_table_and_nobody_leaves_it_for_the_title() -> None:
    h = Harness(SIZE, settings=Settings(layout="desktop", idle_timeout_s=10))
    h.press(1, "pile1")
    h.frame()
    scene = h.scene
    for _ in range(6):  # 30 s of presses the guide holds back
        h.advance(5.0)
        h.press(1, "pile3")
    assert h.scene is scene
    h.advance(11.0)  # then nobody
    assert type(h.scene).__name__ == "TitleScene"
