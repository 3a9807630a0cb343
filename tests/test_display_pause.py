"""The pause (scenes/pause.py) holds the game's clock through `Match.hold`/`release`: a window the
rules hold open when a player presses Escape keeps, after the pause, the time it had left.

Each window is opened from a seed scenario's position, played through the screen's harness: the
race for the ghost card (V14), a Mod Spit table slap waiting for the other hand (V18), the lent
spit card slapped for (V13)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from headless import Harness
from positions import lent_of, race_of

from appliance.display.scenes.base import BACK, MenuKey, make
from appliance.display.scenes.play import PlayScene
from appliance.match import Match
from appliance.rules import game_from_state
from appliance.rules.table_slap import TableSlap

SIZE = (1280, 720)
SCENARIOS = Path(__file__).parent.parent / "seeds" / "scenarios"
PAUSED_S = 7.0  # far longer than any window


def at_scenario(h: Harness, name: str) -> PlayScene:
    setup = json.loads((SCENARIOS / f"{name}.jsonl").read_text().splitlines()[0])["setup"]
    game = game_from_state(setup["state"], seed=setup["seed"], options=setup.get("options"))
    h.runner.apply_scene(make("play", h.ctx, Match(7, h.now_ns, None, {}, game=game)))
    h.frame()
    scene = h.scene
    assert isinstance(scene, PlayScene)
    return scene


def presses(h: Harness, *steps: tuple[int, str]) -> None:
    for player, control in steps:
        h.press(player, control)
        h.frame()


def ghost_race(h: Harness) -> PlayScene:
    scene = at_scenario(h, "ghost-card-the-other-hand-first")
    presses(h, (1, "pile1"), (1, "left"))
    assert race_of(scene.match.spit) is not None
    return scene


def table_slap(h: Harness) -> PlayScene:
    scene = at_scenario(h, "mod-spit-the-slower-hand-takes-both")
    presses(h, (2, "slap"))
    slap = scene.match.spit.house_rule(TableSlap)
    assert slap is not None and slap.hits
    return scene


def lent_card(h: Harness) -> PlayScene:
    scene = at_scenario(h, "spit-card-please-slapped-in-time")
    presses(h, (1, "pile1"), (1, "right"))
    please = lent_of(scene.match.spit)
    assert please is not None and please[3] is not None
    return scene


def left(scene: PlayScene, h: Harness) -> float:
    """Seconds of the open window left at the harness's moment, in game time."""
    deadline = scene.match.spit.deadline()
    assert deadline is not None
    return deadline - scene.match.game_time(h.now_ns)


@pytest.mark.parametrize("opened", [ghost_race, table_slap, lent_card], ids=["ghost race", "table slap", "lent card"])
def test_a_window_open_at_the_pause_keeps_the_time_it_had_left(opened: Callable[[Harness], PlayScene]) -> None:
    h = Harness(SIZE, "tabletop")
    scene = opened(h)
    h.advance(0.2)
    before = left(scene, h)
    assert before > 0.3
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))
    h.frame()
    assert type(h.scene).__name__ == "PauseScene" and scene.match.held
    h.advance(PAUSED_S)
    assert scene.match.spit.deadline() is not None  # nothing was decided while paused
    h.press(1, "spit")  # play on
    assert h.scene is scene and not scene.match.held
    assert left(scene, h) == pytest.approx(before, abs=0.04)  # (two frames of the harness)
    h.advance(before - 0.1)
    assert scene.match.spit.deadline() is not None, "closed early: the pause was counted as game time"
    h.advance(0.2)
    assert scene.match.spit.deadline() is None  # and it closes on time
