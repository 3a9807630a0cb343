"""The front end end to end: a whole game through scenes and frames to game over, keys to presses."""

from __future__ import annotations

import itertools
import json
import socket
from pathlib import Path

import pygame
import pytest
from headless import Harness, to_play

from appliance.display.events import kind, seat_of
from appliance.display.scenes.base import BACK, MenuKey, Push
from appliance.display.scenes.game_over import GameOverScene
from appliance.display.scenes.play import PlayScene
from appliance.display.scenes.round_summary import RoundSummaryScene
from appliance.display.scenes.title import TitleScene
from appliance.match import Match, make_bot
from appliance.rules.events import RoundOver
from appliance.scripting import parse_script, run


def test_a_whole_computer_game_runs_through_the_front_end_to_game_over(tmp_path: Path) -> None:
    from appliance.match import open_journal

    h = Harness((640, 360), "tabletop")
    journal = open_journal(tmp_path, 1)
    bots = {1: make_bot("5", 1, 1), 2: make_bot("5", 2, 101)}
    assert all(bot is not None for bot in bots.values())
    match = Match(1, h.now_ns, journal, bots)  # type: ignore[arg-type]
    h.runner.apply_scene(PlayScene(h.ctx, match))
    seen: set[str] = set()
    for _ in range(60 * 600):
        h.frame()
        seen.add(type(h.scene).__name__)
        if isinstance(h.scene, GameOverScene):
            break
    assert isinstance(h.scene, GameOverScene)
    assert {"PlayScene", "RoundSummaryScene", "GameOverScene"} <= seen
    assert match.game.phase == "over" and match.game.winner in (1, 2)
    # the journal was written as it happened, and replays to the very same end
    files = list(tmp_path.glob("*.jsonl"))
    assert len(files) == 1
    script = parse_script(files[0].read_text().splitlines())
    assert script.final_state == match.game.state()
    _, replayed = run(script)
    assert replayed.state() == match.game.state()
    figures = h.scene.words.figures  # type: ignore[attr-defined]
    assert figures[1].cards_played + figures[2].cards_played == sum(1 for e in match.events if kind(e) == "play")
    # after game over the title comes back by itself
    h.advance(31)
    assert isinstance(h.scene, TitleScene)


def key_event(name: str, down: bool = True) -> pygame.event.Event:
    return pygame.event.Event(
        pygame.KEYDOWN if down else pygame.KEYUP, key=pygame.key.key_code(name), mod=0, unicode="", scancode=0
    )


def test_keys_drive_the_menus_and_the_game(tmp_path: Path) -> None:
    h = Harness((640, 360), "desktop", journal_dir=tmp_path, seed=3)
    h.frame([key_event("return"), key_event("return", False)])  # START
    assert type(h.scene).__name__ == "ChooseScene"
    h.frame([key_event("s"), key_event("s", False)])  # player 1's SPIT: two players
    assert type(h.scene).__name__ == "CountdownScene"
    h.advance(2.2)
    assert isinstance(h.scene, PlayScene)
    game = h.scene.match.game
    assert game.phase == "ready"
    h.frame([key_event("s"), key_event("k")])  # both call Spit!
    assert game.phase in ("playing", "stalemate")
    h.frame([key_event("q")])  # player 1 selects pile 1
    assert game.player(1).selected == 1
    # everything pressed is in the journal, in the script format
    lines = [json.loads(line) for line in next(tmp_path.glob("*.jsonl")).read_text().splitlines()]
    assert lines[0] == {"setup": {"variant": "classic", "seed": 3}}
    assert [(line["player"], line["press"]) for line in lines[1:]] == [(1, "spit"), (2, "spit"), (1, "pile1")]
    # Escape pauses the game, over it; Escape again abandons it: back to the title, the journal closed
    h.frame([key_event("escape")])
    assert type(h.scene).__name__ == "PauseScene" and isinstance(h.runner.stack[0], PlayScene)
    h.frame([key_event("escape")])
    assert isinstance(h.scene, TitleScene) and len(h.runner.stack) == 1
    assert h.runner.status is None
    h.frame([key_event("escape")])  # Escape on the title leaves the program
    assert h.runner.status == 0


def test_in_the_kiosk_escape_on_the_title_leaves_nobody_out() -> None:
    from appliance.shared.settings import Settings

    h = Harness((320, 240), settings=Settings(kiosk=True))
    assert isinstance(h.scene, TitleScene)
    h.frame([key_event("escape")])
    h.frame([key_event("escape")])
    assert isinstance(h.scene, TitleScene)
    assert h.runner.status is None


def test_a_closed_window_ends_the_loop_cleanly() -> None:
    h = Harness((320, 240))
    h.frame([pygame.event.Event(pygame.QUIT)])
    assert h.runner.status == 0


def test_the_incremental_screen_always_equals_a_full_redraw() -> None:
    h = Harness((480, 270), "tabletop")
    bots = {1: make_bot("5", 1, 5), 2: make_bot("5", 2, 6)}
    h.runner.apply_scene(PlayScene(h.ctx, Match(5, h.now_ns, None, bots)))  # type: ignore[arg-type]
    for i in range(900):
        h.frame()
        if i % 15 == 0:
            assert pygame.image.tobytes(h.screen, "RGB") == pygame.image.tobytes(h.full_render(), "RGB"), i


def test_a_still_table_presents_nothing() -> None:
    h = Harness(
        (480, 270),
        scene=lambda ctx: RoundSummaryScene(
            ctx,
            Match(2, 0),
            ctx.view(),
            [RoundOver(0.0, 1, "blocked", None)],
        ),
    )
    h.frame()
    h.presented.clear()
    h.frame()
    assert h.presented == []


def test_cabinet_sources_reach_the_scenes_in_edge_time_order_with_the_keyboard() -> None:
    from appliance.display.runner import Runner
    from appliance.inputs.merge import Merger
    from appliance.inputs.script_source import MockSource

    h = Harness((480, 270), "tabletop", seed=3)
    pad = MockSource("pad", latency_ns=3_000_000)
    merger = Merger([pad], clock=h.clock)
    merger.start()
    runner = Runner(h.ctx, h.scene, h.screen, present=lambda rects: None, merger=merger)
    h.runner = runner
    pad.inject(0, "start", True, h.now_ns)
    h.frame()
    h.frame()
    assert type(h.scene).__name__ == "ChooseScene"
    h.frame([key_event("s")])  # the keyboard joins the merger
    h.frame()
    assert type(h.scene).__name__ == "CountdownScene"
    h.advance(2.2)
    game = h.scene.match.game  # type: ignore[attr-defined]
    # player 1's pad press arrives after player 2's key press but was stamped earlier: it goes first
    t = h.now_ns
    h.frame([key_event("k")])
    pad.inject(1, "spit", True, t + 1)
    h.advance(0.05)
    calls = [e for e in h.scene.match.events if kind(e) == "call"]  # type: ignore[attr-defined]
    assert [seat_of(c) for c in calls] == [1, 2]
    assert game.phase in ("playing", "stalemate")


def test_between_frames_a_press_wakes_the_loop_at_once() -> None:
    import time

    h = Harness((320, 240))
    pygame.event.clear()
    assert h.runner.wait(time.monotonic_ns() - 1) == []  # the next frame is due: no waiting
    pygame.event.post(key_event("q"))
    woken = h.runner.wait(time.monotonic_ns() + 60 * 1_000_000_000)  # would be a minute without it
    assert [e.type for e in woken] == [pygame.KEYDOWN]


def test_the_end_of_the_wait_for_a_frame_is_slept_with_the_os_timer(monkeypatch: pytest.MonkeyPatch) -> None:
    """SDL's event wait now and then wakes late: it is asked to wait only until FINAL_SLEEP_MS before
    the frame, and the rest is slept (an event coming then is taken by the frame, which is due)."""
    from appliance.display import runner as runner_module

    h = Harness((320, 240))
    pygame.event.clear()
    asked: list[int] = []
    slept: list[float] = []
    clock = [10_000_000_000]

    def wait(timeout: int) -> pygame.event.Event:
        asked.append(timeout)
        clock[0] += timeout * 1_000_000  # nothing came: the whole timeout passed
        return pygame.event.Event(pygame.NOEVENT)

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock[0] += round(seconds * 1e9)

    monkeypatch.setattr(runner_module.pygame.event, "wait", wait)
    monkeypatch.setattr(runner_module.time, "sleep", sleep)
    monkeypatch.setattr(runner_module.time, "monotonic_ns", lambda: clock[0])
    assert h.runner.wait(clock[0] + 15_000_000) == []
    assert asked == [13] and slept == [pytest.approx(0.002)]


# ------------------------------------------------------------------ systemd's watchdog, the service menu


def notify_socket(tmp_path: Path) -> tuple[str, socket.socket]:
    path = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.setblocking(False)
    return path, server


def datagrams(server: socket.socket) -> list[str]:
    out = []
    while True:
        try:
            out.append(server.recv(4096).decode())
        except BlockingIOError:
            return out


def test_systemd_hears_ready_after_the_first_frame_a_ping_every_frame_status_and_stopping(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from appliance.display.runner import Runner
    from appliance.watchdog import Notifier

    address, server = notify_socket(tmp_path)
    h = Harness((320, 240))
    ticks = iter(range(10_000))
    notifier = Notifier(address, "2000000", clock=lambda: float(next(ticks)))  # a ping is due every frame
    runner = Runner(h.ctx, h.scene, h.screen, present=lambda rects: None, notifier=notifier)
    try:
        assert runner.run(max_frames=3) == 0
        said = datagrams(server)
        assert said[0] == "EXTEND_TIMEOUT_USEC=180000000\nSTATUS=starting: the first frame"  # the start moves on
        assert said[1] == "WATCHDOG=1"  # sent from the frame itself, then READY once it is on screen
        assert said[2].startswith("READY=1\nSTATUS=title: SPIT ARCADE")  # the scene and its words, as drawn
        assert said.count("WATCHDOG=1") == 3 and said[-1] == "STOPPING=1"
        # and the journal has it in a line of its own (the emulated Pi 4 boot reads it off the console)
        ready = [line for line in capsys.readouterr().err.splitlines() if "ready; on the screen" in line]
        assert len(ready) == 1 and ready[0].startswith("spit-arcade: ready; on the screen: title: SPIT ARCADE")
        # a scene change is said once, with the words of its first frame; the same scene again says nothing
        runner.apply(Push(PlayScene(h.ctx, Match(5, h.now_ns))))
        runner.apply(None)
        assert "STATUS=" not in " ".join(datagrams(server))  # not before it is drawn
        runner.frame([], h.now_ns)
        runner.frame([], h.now_ns)
        status = [line for line in datagrams(server) if line.startswith("STATUS=")]
        assert len(status) == 1 and status[0].startswith("STATUS=play: ")
        assert "press SPIT" in status[0]  # the play scene's first words: "Ready? press SPIT!"
    finally:
        server.close()


def test_the_service_button_opens_the_service_menu_over_a_game_and_closing_it_gives_the_game_back() -> None:
    from appliance.display.scenes.service_menu import ServiceMenuScene

    h = Harness((480, 270), "tabletop")
    h.runner.service_menu = True  # as the app runs it
    to_play(h)
    game_scene = h.scene
    presses = game_scene.match.presses  # type: ignore[attr-defined]
    h.frame([key_event("f2"), key_event("f2", False)])
    assert isinstance(h.scene, ServiceMenuScene) and h.runner.stack[:-1] == [game_scene]
    match = game_scene.match  # type: ignore[attr-defined]
    game_time = match.game_time(h.now_ns)
    h.advance(2.0)  # the game waits under the menu: no time for it, none of its presses
    h.press(1, "spit")  # enters Diagnostics
    h.press(0, "service")  # back to the first page
    h.frame([key_event("f2")])  # and out
    assert h.scene is game_scene and match.presses == presses
    assert match.game_time(h.now_ns) == pytest.approx(game_time, abs=0.05)  # its clock stood still


def test_the_service_button_opens_the_menu_over_the_title_too() -> None:
    from appliance.display.scenes.service_menu import ServiceMenuScene

    h = Harness((480, 270))
    h.runner.service_menu = True
    title = h.scene
    h.press(0, "service")
    assert isinstance(h.scene, ServiceMenuScene) and h.runner.stack == [title, h.scene]
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))
    assert h.scene is title


def test_under_the_service_menu_the_loop_draws_ten_frames_a_second_and_a_press_is_drawn_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The held game does not change under the service menu: the real loop (Runner.run, on a clock
    of its own here) draws it CALM_FPS times a second, not 60, and looks for presses every
    CALM_POLL_MS; a press wakes the loop and is drawn at once, and closing the menu brings back 60
    frames a second from the next frame."""
    from appliance.display import runner as runner_module
    from appliance.display.scenes.service_menu import ServiceMenuScene

    h = Harness((480, 270), "tabletop")
    h.runner.service_menu = True
    to_play(h)
    game_scene = h.scene
    h.frame([key_event("f2"), key_event("f2", False)])
    assert isinstance(h.scene, ServiceMenuScene)
    pygame.event.clear()
    clock = [50_000_000_000]
    start = clock[0]
    close_at = start + 1_234_000_000  # SERVICE again, between two of the menu's frames
    queued: list[pygame.event.Event] = []
    pressed: list[int] = []  # when the calm wait found the press
    drawn: list[tuple[int, str]] = []  # (when, the scene on top) for every frame the loop drew

    def poll() -> pygame.event.Event:  # the calm wait looks, then sleeps
        if clock[0] >= close_at and not pressed:
            pressed.append(clock[0])
            queued.append(key_event("f2", False))
            return key_event("f2")
        return pygame.event.Event(pygame.NOEVENT)

    def wait(timeout: int) -> pygame.event.Event:  # SDL's wait: the game's
        clock[0] += timeout * 1_000_000
        return pygame.event.Event(pygame.NOEVENT)

    def sleep(seconds: float) -> None:
        clock[0] += round(seconds * 1e9)

    def get() -> list[pygame.event.Event]:
        out = queued[:]
        queued.clear()
        return out

    real_frame = h.runner.frame

    def frame(events: list[pygame.event.Event], now_ns: int) -> list[pygame.Rect]:
        dirty = real_frame(events, now_ns)
        drawn.append((clock[0], type(h.runner.scene).__name__))
        return dirty

    monkeypatch.setattr(runner_module.pygame.event, "wait", wait)
    monkeypatch.setattr(runner_module.pygame.event, "poll", poll)
    monkeypatch.setattr(runner_module.pygame.event, "get", get)
    monkeypatch.setattr(runner_module.time, "sleep", sleep)
    monkeypatch.setattr(runner_module.time, "monotonic_ns", lambda: clock[0])
    monkeypatch.setattr(h.runner, "frame", frame)
    h.runner.ready_said = True
    h.runner.run(max_frames=h.runner.frames + 40)
    menu = [t for t, top in drawn if top == "ServiceMenuScene"]
    # the menu's frames: one every 100 ms from the start until the press (13 of them, at 0 … 1.2 s)
    assert [(t - start) // 1_000_000 for t in menu] == [100 * n for n in range(13)]
    after = [t for t, top in drawn if top == "PlayScene"]
    # the press woke the loop within CALM_POLL_MS, and was drawn at once: the game back on top
    assert pressed == [after[0]] and close_at <= after[0] <= close_at + runner_module.CALM_POLL_MS * 1_000_000
    assert h.runner.scene is game_scene
    steps = [b - a for a, b in itertools.pairwise(after)]
    assert len(steps) == 40 - 13 - 1 and max(steps) <= 1_000_000_000 // 60 + 1  # 60 a second again, at once
