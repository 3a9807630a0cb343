"""The front end end to end: a whole game through scenes and frames to game over, keys to presses."""

from __future__ import annotations

import json
from pathlib import Path

import pygame

from appliance.display.events import detail, kind
from appliance.display.headless import Harness
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
    figures = h.scene.figures  # type: ignore[attr-defined]
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
    from appliance.display.settings import Settings

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
    assert [detail(c, "player") for c in calls] == [1, 2]
    assert game.phase in ("playing", "stalemate")


def test_between_frames_a_press_wakes_the_loop_at_once() -> None:
    import time

    h = Harness((320, 240))
    pygame.event.clear()
    assert h.runner.wait(time.monotonic_ns() - 1) == []  # the next frame is due: no waiting
    pygame.event.post(key_event("q"))
    woken = h.runner.wait(time.monotonic_ns() + 60 * 1_000_000_000)  # would be a minute without it
    assert [e.type for e in woken] == [pygame.KEYDOWN]
