"""Credits on the screen: a coin (F3, the coin mech on GPIO) is a credit whatever is showing; when a
game costs credits the title says so and START waits for them; the players-choosing scene takes them
once, as the game starts; they survive a restart, a torn file and a crash-resumed game. The computer's
level the operator chose is offered first. Texts are read as data (`shown_to`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from gpiozero.pins.pi import PiPin
from headless import Harness, to_play

from appliance.display import app
from appliance.display.captions import shown_to
from appliance.display.coins import office
from appliance.display.i18n import set_language
from appliance.display.keys import Press
from appliance.display.runner import Runner
from appliance.display.scenes.base import MenuKey, make, startup_notices
from appliance.display.scenes.choose import ChooseScene
from appliance.display.scenes.countdown import CountdownScene
from appliance.display.scenes.play import PlayScene
from appliance.display.scenes.service_menu import ServiceMenuScene
from appliance.display.scenes.title import TitleScene
from appliance.inputs.config import load_config
from appliance.inputs.gpio import EdgeClock, GpioSource
from appliance.inputs.merge import Merger
from appliance.operator.store import Store, store_path
from appliance.shared.settings import Settings

SIZE = (640, 360)
MS = 1_000_000


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def cabinet(tmp_path: Path, free_play: bool = False, cost: int = 1, **settings: object) -> Harness:
    """A tabletop cabinet with a settings file (and so a credits file) and a journal directory."""
    s = Settings(layout="tabletop", free_play=free_play, credits_per_game=cost, **settings)  # type: ignore[arg-type]
    h = Harness(SIZE, settings=s, journal_dir=tmp_path / "journals")
    h.ctx.config_path = tmp_path / "config.toml"
    h.frame()
    return h


def seen(h: Harness, seat: int = 1) -> list[str]:
    return shown_to(h.scene.captions(), seat)


def key(h: Harness, name: str) -> None:
    """A key tapped on the keyboard: down, a frame, up, a frame."""
    code = pygame.key.key_code(name)
    h.frame([pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)])
    h.frame([pygame.event.Event(pygame.KEYUP, key=code, mod=0, unicode="", scancode=0)])


def coin(h: Harness, source: str = "gpio") -> None:
    """One debounced coin pulse as the inputs deliver it: pressed, released 60 ms later."""
    h.runner.send(Press(0, "coin", True, h.now_ns, source))
    h.runner.send(Press(0, "coin", False, h.now_ns + 60 * MS, source))


def kept(h: Harness) -> int:
    """The credits written in the store on the card (once the writer has written what it was handed)."""
    assert office(h.ctx).drain(10)
    assert h.ctx.config_path is not None
    store = Store.open(store_path(h.ctx.config_path))
    try:
        return store.credits()[0]
    finally:
        store.close()


def audits_read(h: Harness) -> None:
    """The service menu's audits are read off the frame loop: wait for the reading, then a frame."""
    assert office(h.ctx).drain(10)
    h.frame()


def test_a_game_costs_its_credits_and_they_are_taken_once_as_it_starts(tmp_path: Path) -> None:
    h = cabinet(tmp_path, cost=2)
    assert isinstance(h.scene, TitleScene)
    lines = seen(h)
    assert "insert coin: a game costs 2 credits" in lines and "press SPIT or START to play" not in lines
    assert lines[-1] == "START Return   coin F3   service menu F2   back Esc   credits: 0"
    assert seen(h, 2)[-1] == lines[-1]  # the shared panel, for both seats
    h.press(0, "start")  # too few: START stays on the title, says so in red, and buzzes
    h.press(1, "spit")
    assert isinstance(h.scene, TitleScene) and h.ctx.sound.played[-2:] == ["reject", "reject"]
    key(h, "f3")  # a coin from the keyboard
    assert kept(h) == 1 and seen(h)[-1].endswith("credits: 1")
    key(h, "f3")
    assert kept(h) == 2 and "press SPIT or START to play" in seen(h)
    h.press(0, "start")
    assert isinstance(h.scene, ChooseScene) and kept(h) == 2  # choosing players is free
    assert "credits: 2" in seen(h)
    h.press(0, "start")  # "Two players": the game starts, and is paid for
    assert isinstance(h.scene, CountdownScene) and kept(h) == 0 and office(h.ctx).credits == 0
    for _ in range(5):  # mashing START in the game takes nothing more
        h.press(0, "start")
        h.frame()
    assert kept(h) == 0


def test_too_few_credits_when_the_game_would_start_say_insert_coin_and_stay(tmp_path: Path) -> None:
    h = cabinet(tmp_path, cost=1)
    coin(h)
    h.press(0, "start")
    assert isinstance(h.scene, ChooseScene)
    office(h.ctx).pay(1)  # (the credit went meanwhile: the operator's service menu, say)
    h.press(0, "start")
    assert isinstance(h.scene, ChooseScene) and "insert coin" in seen(h) and "credits: 0" in seen(h)
    coin(h)
    h.press(0, "start")
    assert isinstance(h.scene, CountdownScene) and kept(h) == 0


def test_a_coin_during_a_game_is_a_credit_and_the_game_never_sees_it(tmp_path: Path) -> None:
    h = cabinet(tmp_path)
    coin(h)
    to_play(h)
    scene = h.scene
    assert isinstance(scene, PlayScene)
    stack, events, start_ns = list(h.runner.stack), list(scene.match.events), scene.match.start_ns
    for _ in range(3):
        coin(h, "keyboard")
        h.frame()
    assert h.runner.stack == stack and scene.match.events == events and scene.match.start_ns == start_ns
    assert kept(h) == 3  # one paid for the game, three more in


def test_free_play_says_so_and_takes_nothing_and_coins_still_count(tmp_path: Path) -> None:
    h = cabinet(tmp_path, free_play=True)
    lines = seen(h)
    assert "press SPIT or START to play" in lines
    assert lines[-1] == "START Return   service menu F2   back Esc   free play"  # no coin key to press
    coin(h)
    h.press(0, "start")
    h.press(0, "start")
    assert isinstance(h.scene, CountdownScene) and kept(h) == 1


def test_the_coin_mech_on_gpio_through_the_inputs_to_the_credits(tmp_path: Path) -> None:
    h = cabinet(tmp_path)
    factory = MockFactory()
    (pin,) = [c for c in load_config().gpio if c.control == "coin"]
    clock = EdgeClock(monotonic_ns=lambda: h.now_ns, realtime_ns=lambda: 1_700_000_000 * 10**9)
    source = GpioSource([pin], pin_factory=factory, edge_clock=clock)
    merger = Merger([source], clock=lambda: h.now_ns)
    merger.start()
    h.runner = Runner(h.ctx, make("title", h.ctx), h.screen, present=lambda rects: None, merger=merger)
    button = source.button(0, "coin").pin

    def edge(t_ns: int, closed: bool) -> None:  # as lgpio hands it over: the kernel's stamp, the level
        button._state = not closed
        PiPin._call_when_changed(button, t_ns / 1e9, not closed)

    try:
        t = h.now_ns
        for n in range(7):  # a coin: the switch chatters closed, then open 60 ms later
            edge(t + n * MS // 2, n % 2 == 0)
        for n in range(5):
            edge(t + 60 * MS + n * MS // 2, n % 2 == 1)
        h.advance(0.2)
        assert kept(h) == 1
        t = h.now_ns
        edge(t, True)  # the next coin jams on the switch, blipping it open now and then
        for n in range(1, 30):
            edge(t + n * 100 * MS, False)
            edge(t + n * 100 * MS + 4 * MS, True)
        h.advance(7.0)
        assert kept(h) == 2 and source.status(h.now_ns).controls[0].stuck
        assert isinstance(h.scene, TitleScene)
    finally:
        merger.stop()
        factory.close()


def test_the_credits_survive_a_restart_and_a_crash_resumed_game_is_not_paid_again(tmp_path: Path) -> None:
    h = cabinet(tmp_path)
    for _ in range(3):
        coin(h)
    h.press(0, "start")
    h.press(0, "start")  # paid: 2 left
    h.advance(2.2)
    h.press(1, "spit")
    h.press(2, "spit")
    h.advance(0.5)
    assert isinstance(h.scene, PlayScene) and kept(h) == 2
    # the power goes; the cabinet starts again and resumes the game its journal holds
    again = cabinet(tmp_path, kiosk=True)  # the cabinet (a desktop asks first: tests/test_resume.py)
    stack = app.resume_scenes(again.ctx, [])
    assert [type(s).__name__ for s in stack] == ["PlayScene", "ResumedScene"]
    again.runner = Runner(again.ctx, stack[0], again.screen, present=lambda rects: None)
    again.advance(0.5)
    assert office(again.ctx).credits == kept(again) == 2
    assert "credits: 2" in seen(cabinet(tmp_path))[-1]


@pytest.mark.parametrize("junk", [b'{"credits": 4, "coi', b"\xff\xfe\x00", b'{"credits": -1, "coins": 0, "box": "a"}'])
def test_a_bad_credits_file_at_start_is_kept_aside_0_credits_and_said_never_a_traceback(
    tmp_path: Path, junk: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "credits.json").write_bytes(junk)
    h = cabinet(tmp_path)
    assert seen(h)[-1].endswith("credits: 0")
    said = capsys.readouterr().err
    assert "credits.json" in said and "kept as credits.json.damaged-1" in said and "Traceback" not in said
    assert any("credits.json" in notice for notice in startup_notices(h.ctx))  # the service menu's list
    assert (tmp_path / "credits.json.damaged-1").read_bytes() == junk  # kept aside, never overwritten
    coin(h)
    assert kept(h) == 1  # the next coin is written to the store


def test_the_audits_count_the_coins_and_show_the_credits_there_are(tmp_path: Path) -> None:
    h = cabinet(tmp_path)
    for _ in range(3):
        coin(h)
    h.press(0, "start")
    h.press(0, "start")  # a game paid for: 2 credits left
    h.advance(0.1)
    h.runner.service_menu = True
    h.press(0, "service")
    assert isinstance(h.scene, ServiceMenuScene)
    h.runner.send(MenuKey(0, "down", True, h.now_ns))
    h.press(0, "start")  # Audits
    audits_read(h)
    assert seen(h)[2:4] == ["coins taken:  3  |  3", "credits paid for, not yet played: 2"]  # money first
    coin(h)  # a coin while the menu is open: the switch test's, no credit and no money
    h.press(0, "service")
    h.runner.send(MenuKey(0, "down", True, h.now_ns))
    h.runner.send(MenuKey(0, "down", True, h.now_ns))
    h.press(0, "start")  # Utilities: reset audits, confirmed by a second press
    h.press(0, "start")
    h.press(0, "start")
    assert "audits reset" in seen(h)
    h.press(0, "service")
    h.runner.send(MenuKey(0, "up", True, h.now_ns))
    h.runner.send(MenuKey(0, "up", True, h.now_ns))
    h.press(0, "start")
    audits_read(h)
    assert seen(h)[2:4] == ["coins taken:  3  |  0", "credits paid for, not yet played: 2"]


def test_the_switch_test_shows_the_coin_input_and_gives_no_credit(tmp_path: Path) -> None:
    h = cabinet(tmp_path)
    h.runner.service_menu = True
    h.press(0, "service")
    h.press(0, "start")  # Diagnostics
    h.press(0, "start")  # Switch test
    coin(h)
    assert "cabinet coin: 1 edges, up  (gpio)" in seen(h) and kept(h) == 0 and office(h.ctx).credits == 0
    assert office(h.ctx).store.count("coins") == 0  # no money counted either: the operator is testing the switch


def test_the_levels_are_in_order_and_the_operators_is_recommended(tmp_path: Path) -> None:
    h = cabinet(tmp_path, free_play=True, computer_level="4")
    h.press(0, "start")
    scene = h.scene
    assert isinstance(scene, ChooseScene)
    assert [level for _words, level in scene.options] == [None, "1", "2", "3", "4", "5"]
    assert seen(h)[1:7] == ["▶  Two players  ◀", "Against the computer, level 1", "Against the computer, level 2",
                            "Against the computer, level 3", "Against the computer, level 4 (recommended)",
                            "Against the computer, level 5"]  # fmt: skip
    h.press(1, "pile5")  # pile N+1: level N
    h.press(0, "start")
    assert isinstance(h.scene, CountdownScene)
    assert {seat: getattr(bot, "spec", None) for seat, bot in h.scene.match.bots.items()} == {2: "4"}
    # at a table of three, a seat changed from a person to the computer gets it first too
    h = cabinet(tmp_path, free_play=True, computer_level="2", house_rules={"seats": 3})
    h.press(0, "start")
    scene = h.scene
    assert isinstance(scene, ChooseScene)
    scene.index = 3
    h.runner.send(MenuKey(0, "right", True, h.now_ns))
    assert scene.seats == [None, None, "2"] and "Player 3: the computer, level 2" in " ".join(seen(h))


@pytest.mark.parametrize("lang", ["en", "de", "eo"])
@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
def test_the_credit_texts_fit_and_cover_nothing(tmp_path: Path, layout: str, lang: str) -> None:
    s = Settings(layout=layout, free_play=False, credits_per_game=3)
    h = Harness((1280, 720), settings=s)
    h.ctx.config_path = tmp_path / "config.toml"
    set_language(lang)
    for refused in (False, True):
        if refused:
            h.press(0, "start")
        h.frame()
        texts = list(h.canvas().texts)
        assert any("3" in line for d in texts for line in d.words)  # the insert coin line
        for d in texts:
            assert d.box.contains(d.rect) and d.scale >= 0.5, (d.words, d.scale)
            assert not [o for o in texts if o is not d and d.rect.colliderect(o.rect)], d.words
