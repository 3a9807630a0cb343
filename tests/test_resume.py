"""Crash resume on the screen: a restarted cabinet goes on with the game its journal was cut off in,
says "game resumed" to every seat and waits for every person's SPIT! (not the game's presses), with
the game's clock stopped meanwhile; a torn last line is left out; a journal that can't be resumed is
said and left alone; a desktop asks once whether to play it on. And the kill -9 figure: real `play`
runs killed at random moments."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from headless import Harness

from appliance.display import app
from appliance.display.captions import shown_to
from appliance.display.runner import Runner
from appliance.display.scenes.base import Push
from appliance.display.scenes.play import PlayScene
from appliance.display.scenes.resumed import ResumedScene
from appliance.display.scenes.title import TitleScene
from appliance.journal import read_journal
from appliance.match import Match, make_bot, open_journal
from appliance.scripting import parse_script, run

PRESSES = [
    (0.5, 1, "spit"), (0.6, 2, "spit"), (1.0, 1, "pile1"), (1.2, 2, "pile2"), (1.5, 1, "left"), (1.9, 2, "right"),
]  # fmt: skip


def cut_off_game(directory: Path, bots: dict[int, str] | None = None, seed: int = 5) -> tuple[Path, Match]:
    """A game played a little and then cut off (the journal never closed, as after kill -9)."""
    computer = {seat: make_bot(level, seat, seed) for seat, level in (bots or {}).items()}
    journal = open_journal(directory, seed, bots=bots)
    match = Match(seed, 0, journal, computer)  # type: ignore[arg-type]
    for t, player, control in PRESSES:
        if player not in computer:
            match.press(round(t * 1e9), player, control)
    match.tick(round(2.0 * 1e9))
    assert match.journal is not None
    path = Path(match.journal.path)  # type: ignore[attr-defined]
    match.journal.close()  # no closing line: what a crash leaves
    return path, match


def presses_in(path: Path) -> int:
    lines, _ = read_journal(path)
    return sum(1 for line in lines[1:] if "press" in json.loads(line))


def start(h: Harness, journals: Path, kiosk: bool = True) -> list[str]:
    """The app's first scenes on a harness (as `play` starts; the cabinet's kiosk unless `kiosk` is
    False, a desktop): the notices they said."""
    h.ctx.journal_dir = journals
    h.settings.kiosk = kiosk
    notices: list[str] = []
    stack = app.first_scenes(h.ctx, notices)
    h.runner = Runner(h.ctx, stack[0], h.screen, present=h.presented.append)
    for scene in stack[1:]:
        h.runner.apply(Push(scene))
    h.frame()
    return notices


def test_a_cut_off_game_resumes_where_its_journal_ended_and_waits_for_every_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, before = cut_off_game(tmp_path)
    h = Harness((640, 360), "tabletop")
    assert start(h, tmp_path) == []
    assert f"spit-arcade: resumed {path.name} at press {presses_in(path)}" in capsys.readouterr().err
    resumed = h.scene
    assert isinstance(resumed, ResumedScene) and isinstance(h.runner.stack[0], PlayScene)
    match = resumed.match
    assert match.game.state() == before.game.state()  # the journal's position, replayed
    assert match.presses == presses_in(path) == 6
    # every seat is told, in its own panel, turned to face it
    for seat in (1, 2):
        assert shown_to(resumed.captions(), seat) == ["game resumed", "press SPIT! to play on"]
    game_time = match.game_time(h.now_ns)
    h.advance(3.0)  # nobody back yet: the game's clock stands still meanwhile
    h.press(1, "spit")
    h.frame()
    assert shown_to(resumed.captions(), 1) == ["game resumed", "ready: waiting for the others"]
    assert shown_to(resumed.captions(), 2) == ["game resumed", "press SPIT! to play on"]
    assert match.presses == 6  # "I'm back" is not a game press
    h.press(1, "pile3")  # nor is anything else while waiting
    assert match.presses == 6 and h.scene is resumed
    h.press(2, "spit")
    assert isinstance(h.scene, PlayScene) and h.scene.match is match
    assert match.game_time(h.now_ns) == pytest.approx(game_time, abs=0.02)  # 3 s of waiting not counted
    # play goes on, in the same journal, after the position it had reached
    h.press(1, "pile2")
    assert match.presses == 7
    lines, torn = read_journal(path)
    assert not torn and json.loads(lines[-1])["press"] == "pile2"
    assert json.loads(lines[-1])["t"] >= json.loads(lines[-2])["t"]
    _, replayed = run(parse_script(lines))
    assert replayed.state() == match.game.state()


def test_the_computers_seats_are_ready_at_once(tmp_path: Path) -> None:
    cut_off_game(tmp_path, bots={2: "3"})
    h = Harness((640, 360), "tabletop")
    start(h, tmp_path)
    resumed = h.scene
    assert isinstance(resumed, ResumedScene)
    assert shown_to(resumed.captions(), 2) == ["game resumed", "the computer is ready"]
    assert shown_to(resumed.captions(), 1) == ["game resumed", "press SPIT! to play on"]
    h.press(2, "spit")  # the computer's seat: nobody's to press
    assert h.scene is resumed
    h.press(1, "spit")
    assert isinstance(h.scene, PlayScene) and h.scene.match.bots


def test_a_torn_last_line_is_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = cut_off_game(tmp_path)
    data = path.read_bytes()
    os.truncate(path, len(data) - 9)  # the power cut came in the middle of the last press's line
    h = Harness((640, 360), "tabletop")
    start(h, tmp_path)
    assert f"resumed {path.name} at press 5" in capsys.readouterr().err
    resumed = h.scene
    assert isinstance(resumed, ResumedScene) and resumed.match.presses == 5
    lines, torn = read_journal(path)
    assert not torn and len(lines) == 6  # the torn tail cut off the file: the next line starts clean
    _, replayed = run(parse_script(lines))
    assert replayed.state() == resumed.match.game.state()


def test_escape_leaves_the_resumed_game_closed_as_abandoned(tmp_path: Path) -> None:
    from appliance.display.scenes.base import BACK, MenuKey
    from appliance.journal import is_finished, newest_unfinished

    path, _ = cut_off_game(tmp_path)
    h = Harness((640, 360), "tabletop")
    start(h, tmp_path)
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))
    assert isinstance(h.scene, TitleScene) and len(h.runner.stack) == 1
    assert is_finished(path) and newest_unfinished(tmp_path) is None


def test_nobody_coming_back_goes_to_the_title(tmp_path: Path) -> None:
    from appliance.shared.settings import Settings

    cut_off_game(tmp_path)
    h = Harness((480, 270), settings=Settings(idle_timeout_s=10))
    start(h, tmp_path)
    assert isinstance(h.scene, ResumedScene)
    h.advance(11)
    assert isinstance(h.scene, TitleScene)


def test_a_journal_that_cannot_be_resumed_is_said_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "20260101-000000-seed1.jsonl"
    text = '{"setup": {"variant": "no-such-game", "seed": 1}}\n{"t": 0.5, "player": 1, "press": "spit"}\n'
    path.write_text(text)
    h = Harness((480, 270))
    notices = start(h, tmp_path)
    assert isinstance(h.scene, type(h.scene)) and type(h.runner.stack[0]).__name__ == "TitleScene"
    assert len(notices) == 1 and path.name in notices[0] and "cannot be resumed" in notices[0]
    assert type(h.scene).__name__ == "NoticesScene"  # said on the screen too
    assert any(path.name in words for words in shown_to(h.scene.captions(), 1))
    assert path.read_text() == text  # left as it was


def test_no_unfinished_game_starts_at_the_title(tmp_path: Path) -> None:
    h = Harness((480, 270))
    assert start(h, tmp_path) == []
    assert isinstance(h.scene, TitleScene) and len(h.runner.stack) == 1


def test_kill_9_at_random_moments_of_real_play_runs_every_restart_resumes_the_journal(tmp_path: Path) -> None:
    """Real `spit-arcade play` processes (dummy SDL, a scripted input source) killed with SIGKILL at
    random moments; every restart must resume the journal at its position (every 5th with a torn
    last line). `spit-arcade bench resume` runs the full 100."""
    from lab.benchmarks.resume import kill_test

    kills = int(os.environ.get("SPIT_ARCADE_RESUME_KILLS", "20"))
    figures = kill_test(kills=kills, seed=3, max_delay_s=0.4, directory=tmp_path)
    assert figures.failures == []
    assert figures.checked == kills and figures.resumed == kills
    assert figures.torn >= kills // 5 - 1
    # the game went on between kills: new positions. How far depends on how fast the machine plays
    # (at load 5 one run in four resumed where the last had; a kill may come before a new press).
    assert figures.positions[-1] > figures.positions[0] and len(set(figures.positions)) > kills // 4
    assert figures.journals >= 1 and figures.replayed == figures.journals


@pytest.mark.parametrize("lang", ["en", "de", "eo"])
@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
def test_game_resumed_fits_each_seats_panel_and_faces_it(tmp_path: Path, layout: str, lang: str) -> None:
    from appliance.display.compositor import Canvas
    from appliance.display.i18n import set_language

    cut_off_game(tmp_path, bots={2: "2"})
    h = Harness((1280, 720), layout)  # as the captions' tests: 14 px at 720p on 24" is 6 mm
    set_language(lang)
    try:
        start(h, tmp_path)
        canvas = Canvas(h.scene.background())
        h.scene.draw(canvas)
    finally:
        set_language("en")
    assert {d.seat for d in canvas.texts} == {1, 2}  # each seat its own, the computer's too
    for d in canvas.texts:
        assert d.box.contains(d.rect) and d.scale >= 0.5 and d.px >= 14, (d.words, d.scale, d.px)
        if layout == "tabletop":
            assert d.angle == (180 if d.seat == 2 else 0), d.words
    for i, d in enumerate(canvas.texts):
        for other in canvas.texts[i + 1 :]:
            assert not d.rect.colliderect(other.rect), (d.words, other.words)


def test_a_game_over_whose_closing_line_was_torn_away_is_closed_not_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from headless import _over_state

    from appliance.journal import is_finished, newest_unfinished
    from appliance.rules import game_from_state

    path, _ = cut_off_game(tmp_path)
    real = Match.resume

    def resume_over(path: Path, now_ns: int, syncer: Any = None) -> Match:  # the replay ends in game over
        match = real(path, now_ns, syncer)
        match.game, match.finished = game_from_state(_over_state(7), seed=7), True
        return match

    monkeypatch.setattr(Match, "resume", staticmethod(resume_over))
    h = Harness((480, 270))
    start(h, tmp_path)
    assert isinstance(h.scene, TitleScene) and len(h.runner.stack) == 1
    assert is_finished(path) and newest_unfinished(tmp_path) is None  # never resumed again


def test_the_service_menu_over_game_resumed_does_not_stop_the_clock_twice(tmp_path: Path) -> None:
    cut_off_game(tmp_path)
    h = Harness((480, 270), "tabletop")
    start(h, tmp_path)
    h.runner.service_menu = True
    resumed = h.scene
    assert isinstance(resumed, ResumedScene)
    match = resumed.match
    game_time = match.game_time(h.now_ns)
    h.press(0, "service")
    h.advance(2.0)
    h.press(0, "service")
    assert h.scene is resumed
    h.advance(1.0)
    h.press(1, "spit")
    h.press(2, "spit")
    assert isinstance(h.scene, PlayScene)
    assert match.game_time(h.now_ns) == pytest.approx(game_time, abs=0.02)


def test_a_game_whose_scene_cannot_be_made_is_said_and_the_title_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from appliance.display.scenes import play as play_module

    path, _ = cut_off_game(tmp_path)
    before = path.read_bytes()

    def broken(*args: object, **kwargs: object) -> None:
        raise AttributeError("no such table")

    monkeypatch.setattr(play_module.PlayScene, "__init__", broken)
    h = Harness((480, 270))
    notices = start(h, tmp_path)
    assert type(h.runner.stack[0]).__name__ == "TitleScene"
    assert len(notices) == 1 and "cannot be shown (AttributeError: no such table)" in notices[0]
    assert path.read_bytes() == before  # left as it was, for a version that can show it


ASKED = {  # a desktop's question about a game left unfinished, two people at the keyboard
    "en": ["A game was left unfinished", "Game: Classic Spit", "Play it on?", "yes, play on: Return / S / K",
           "no, leave it for the title: Esc"],
    "de": ["Ein Spiel ist nicht zu Ende gespielt", "Spiel: Klassisches Spit", "Weiterspielen?",
           "ja, weiterspielen: Return / S / K", "nein, zum Titel, das Spiel bleibt liegen: Esc"],
    "eo": ["Ludo restis nefinita", "Ludo: Klasika Spit", "Ĉu plu ludi ĝin?", "jes, plu ludi: Return / S / K",
           "ne, lasi ĝin kaj al la titolo: Esc"],
}


def frame_words(h: Harness) -> list[str]:
    """The texts on the frame's top scene, as data (a wrapped line joined again)."""
    return [" ".join(text.words) for text in h.canvas().texts[h.runner._top_texts :]]


@pytest.mark.parametrize("language", sorted(ASKED))
def test_a_desktop_asks_once_whether_to_play_an_unfinished_game_on_and_no_leaves_it_for_good(
    tmp_path: Path, language: str
) -> None:
    from appliance.display.i18n import set_language
    from appliance.display.scenes.base import BACK, MenuKey
    from appliance.display.scenes.resume_ask import ResumeAskScene

    path, _ = cut_off_game(tmp_path)
    h = Harness((1280, 720), "desktop")
    assert start(h, tmp_path, kiosk=False) == []
    asked = h.scene
    assert isinstance(asked, ResumeAskScene) and isinstance(h.runner.stack[0], PlayScene)
    set_language(language)
    try:
        assert " ".join(frame_words(h)) == " ".join(ASKED[language])
    finally:
        set_language("en")
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))  # no
    h.frame()
    assert isinstance(h.scene, TitleScene) and len(h.runner.stack) == 1
    lines, _ = read_journal(path)
    assert json.loads(lines[-1]).get("abandoned") is True  # closed: not asked about again
    again = Harness((1280, 720), "desktop")
    start(again, tmp_path, kiosk=False)
    assert isinstance(again.scene, TitleScene)


def test_yes_on_a_desktop_plays_the_unfinished_game_on(tmp_path: Path) -> None:
    path, before = cut_off_game(tmp_path)
    h = Harness((1280, 720), "desktop")
    start(h, tmp_path, kiosk=False)
    match = h.scene.match  # type: ignore[attr-defined]
    game_time = match.game_time(h.now_ns)
    h.advance(2.0)  # the question holds the game's clock
    h.press(0, "start")  # yes
    h.frame()
    resumed = h.scene
    assert isinstance(resumed, ResumedScene) and resumed.match is match
    h.press(1, "spit")
    h.press(2, "spit")
    assert isinstance(h.scene, PlayScene) and h.scene.match is match
    assert match.game_time(h.now_ns) == pytest.approx(game_time, abs=0.02)
    assert match.game.state() == before.game.state() and match.presses == presses_in(path)


def test_the_cabinet_never_asks_it_resumes(tmp_path: Path) -> None:
    cut_off_game(tmp_path)
    h = Harness((1280, 720), "tabletop")
    start(h, tmp_path, kiosk=True)
    assert isinstance(h.scene, ResumedScene)
