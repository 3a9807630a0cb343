from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from headless import Harness

from appliance.display.replay_show import ReplayScene, main
from appliance.scripting import parse_script

ROOT = Path(__file__).resolve().parent.parent
PRESSES = [(0.5, 1, "spit"), (0.75, 2, "spit"), (1.5, 1, "pile1"), (2.0, 2, "pile3")]


def journal_lines(final_state: dict[str, object] | None = None) -> list[str]:
    lines = [json.dumps({"setup": {"variant": "classic", "seed": 7}})]
    lines += [json.dumps({"t": t, "player": p, "press": c}) for t, p, c in PRESSES]
    if final_state is not None:
        lines.append(json.dumps({"state": final_state}))
    return lines


def test_presses_are_shown_when_their_time_comes() -> None:
    script = parse_script(journal_lines())
    h = Harness((480, 270), scene=lambda ctx: ReplayScene(ctx, script, speed=1.0, hold_s=None))
    scene = h.scene
    assert isinstance(scene, ReplayScene)
    h.advance(0.6)
    assert scene.game.player(1).called and not scene.game.player(2).called
    h.advance(1.0)
    assert scene.game.phase == "playing" and scene.game.player(1).selected == 1
    h.advance(0.6)
    assert scene.ended_ns is not None and scene.matches() is None


def test_the_end_says_whether_the_replay_matches_the_journal() -> None:
    script = parse_script(journal_lines())
    h = Harness((480, 270), scene=lambda ctx: ReplayScene(ctx, script, speed=4.0, hold_s=0.5))
    h.advance(0.6)
    scene = h.scene
    assert isinstance(scene, ReplayScene)
    final = scene.game.state()
    good = parse_script(journal_lines(final))
    h2 = Harness((480, 270), scene=lambda ctx: ReplayScene(ctx, good, speed=4.0, hold_s=0.5))
    h2.advance(1.5)
    assert h2.runner.status == 0
    final["round"] = 9
    bad = parse_script(journal_lines(final))
    h3 = Harness((480, 270), scene=lambda ctx: ReplayScene(ctx, bad, speed=4.0, hold_s=0.5))
    h3.advance(1.5)
    assert h3.runner.status == 1


def test_command_line(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(journal_lines()) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_CONFIG_HOME=str(tmp_path))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "appliance.cli",
            "replay",
            str(path),
            "--show",
            "--speed",
            "20",
            "--hold",
            "0",
            "--size",
            "320x240",
        ],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"setup": {"seed": 1}}\n{"t": 1, "player": 3, "press": "spit"}\n')
    assert main([str(bad)]) == 2
    assert main([str(tmp_path / "missing.jsonl")]) == 2
