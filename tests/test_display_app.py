"""`spit-arcade play`: starts, ends cleanly, and says what is wrong instead of a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from appliance.display import app

ROOT = Path(__file__).resolve().parent.parent


def play(args: list[str], env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    full_env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER")
    }
    full_env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"), **env)
    return subprocess.run(
        [sys.executable, "-m", "appliance.cli", "play", *args],
        env=full_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_starts_and_draws(tmp_path: Path) -> None:
    result = play(
        ["--frames", "3", "--size", "640x360", "--layout", "tabletop"],
        {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


def test_no_display_for_fullscreen_is_a_clear_message(tmp_path: Path) -> None:
    result = play(["--fullscreen", "--frames", "1"], {"SDL_VIDEODRIVER": "no-such-driver"}, tmp_path)
    assert result.returncode == 1
    assert "spit-arcade play: no display to draw on" in result.stderr
    assert "Traceback" not in result.stderr


def test_no_display_at_all_is_a_clear_message_not_an_invisible_game(tmp_path: Path) -> None:
    # Nothing set: SDL would fall back to its invisible "offscreen" driver; we say there is no screen.
    result = play(["--frames", "1"], {"XDG_RUNTIME_DIR": str(tmp_path / "no-runtime")}, tmp_path)
    assert result.returncode == 1
    assert "spit-arcade play: no display to draw on" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_failed_audio_device_plays_silently_with_a_notice(tmp_path: Path) -> None:
    result = play(["--frames", "2"], {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "no-such-audio"}, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "no sound" in result.stderr and "playing silently" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_config_file_is_named_and_the_game_plays_on_its_defaults(tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text('layout = "sideways"\n')
    result = play(["--config", str(config), "--frames", "1"], {"SDL_VIDEODRIVER": "dummy"}, tmp_path)
    assert result.returncode == 0  # a bar owner's typo never stops the cabinet
    assert "layout: must be one of" in result.stderr and "Traceback" not in result.stderr


def test_a_closed_window_is_a_clean_exit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr(pygame.event, "get", lambda *a, **k: [pygame.event.Event(pygame.QUIT)])
    assert app.main(["--size", "320x240", "--no-journal", "--volume", "0"]) == 0


def test_options() -> None:
    assert app.size_from("1920x1080") == (1920, 1080)
    with pytest.raises(ValueError):
        app.size_from("big")
    settings = app.apply_options(app.Settings(), app.parse_args(["--layout", "tabletop", "--assist", "--four-colour"]))
    assert (settings.layout, settings.assist, settings.four_colour) == ("tabletop", True, True)


def test_inputs_that_cannot_start_are_a_clear_message(tmp_path: Path) -> None:
    result = play(["--sources", "carrier-pigeon", "--frames", "1"], {"SDL_VIDEODRIVER": "dummy"}, tmp_path)
    assert result.returncode == 2
    assert "cannot start the inputs" in result.stderr and "Traceback" not in result.stderr


def test_the_start_says_which_driver_and_warns_when_the_cabinet_is_not_on_kmsdrm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    from appliance.display.headless import headless_display

    screen = headless_display((320, 240))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    out = io.StringIO()
    line = app.describe_screen(screen, fullscreen=True, out=out)
    assert "video driver dummy, 320x240" in line and "expected kmsdrm" in line
    assert out.getvalue().strip() == line
    assert "expected kmsdrm" not in app.describe_screen(screen, fullscreen=False, out=out)
