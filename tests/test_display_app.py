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


def test_play_keeps_the_last_good_settings_and_plays_a_truncated_file_on_them(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    text = 'free_play = false\ncredits_per_game = 3\nlayout = "tabletop"\n'
    config.write_text(text)
    result = play(["--config", str(config), "--frames", "1"], {"SDL_VIDEODRIVER": "dummy"}, tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "config.toml.last-good").read_text() == text
    config.write_text(text[:30])  # cut mid-line: `credits_per_game` and the layout lost
    result = play(["--config", str(config), "--frames", "1"], {"SDL_VIDEODRIVER": "dummy"}, tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"using its last good copy, {config}.last-good" in result.stderr, result.stderr


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

    from headless import headless_display

    screen = headless_display((320, 240))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    out = io.StringIO()
    line = app.describe_screen(screen, fullscreen=True, out=out)
    assert "video driver dummy, 320x240" in line and "expected kmsdrm" in line
    assert out.getvalue().strip() == line
    assert "expected kmsdrm" not in app.describe_screen(screen, fullscreen=False, out=out)


def test_sdl_naming_its_driver_in_capitals_is_no_cause_for_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the virtual cabinet's KMSDRM screen SDL says "KMSDRM": the cabinet is where it should be."""
    import io

    import pygame
    from headless import headless_display

    screen = headless_display((320, 240))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "KMSDRM")
    line = app.describe_screen(screen, fullscreen=True, out=io.StringIO())
    assert "video driver KMSDRM" in line and "expected" not in line


def test_a_missing_gpio_chip_is_a_notice_and_the_game_plays_without_it(tmp_path: Path) -> None:
    # gpiozero can open no pins (a pin factory that is not there), as on a cabinet with no GPIO chip.
    env = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "no-such-pin-factory"}
    result = play(["--sources", "gpio", "--frames", "2", "--size", "320x240"], env, tmp_path)
    assert result.returncode == 0, result.stderr  # never an exit systemd would turn into a restart loop
    assert "spit-arcade play: the gpio inputs cannot start (" in result.stderr and "left out" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_serial_pad_not_plugged_in_is_a_notice_and_joins_when_it_comes(tmp_path: Path) -> None:
    inputs = tmp_path / "inputs.toml"
    inputs.write_text(f'sources = ["serial"]\n[[serial]]\nport = "{tmp_path / "no-pad"}"\nplayer = 1\n')
    env = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    result = play(["--inputs", str(inputs), "--frames", "2", "--size", "320x240"], env, tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"no slap pad at {tmp_path / 'no-pad'} yet; it joins when it is plugged in" in result.stderr


def test_open_inputs_leaves_out_a_source_that_cannot_start(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from appliance.inputs import config as inputs_config
    from appliance.inputs.script_source import MockSource

    class NoChip(MockSource):
        def start(self, sink: object) -> None:
            raise OSError(2, "No such file or directory", "/dev/gpiochip0")

    monkeypatch.setattr(inputs_config, "build_sources", lambda config, pin_factory=None: (
        [NoChip("gpio")] if config.sources == ["gpio"] else [MockSource("mock")]
    ))  # fmt: skip
    notices: list[str] = []
    merger = app.open_inputs(app.parse_args(["--sources", "gpio,mock"]), notices)
    try:
        assert [source.name for source in merger.sources] == ["mock"]
        assert len(notices) == 1 and notices[0].startswith("the gpio inputs cannot start (FileNotFoundError")
        assert notices[0].endswith("; left out") and notices[0].kind == "left_out"  # type: ignore[attr-defined]
    finally:
        merger.stop()


def test_a_pad_not_plugged_in_is_waiting_and_a_source_that_cannot_start_left_out(tmp_path: Path) -> None:
    from appliance.display.scenes.base import WAITING, notice_kind

    inputs = tmp_path / "inputs.toml"
    inputs.write_text(f'sources = ["serial"]\n[[serial]]\nport = "{tmp_path / "no-pad"}"\nplayer = 1\n')
    notices: list[str] = []
    merger = app.open_inputs(app.parse_args(["--inputs", str(inputs)]), notices)
    try:
        assert notices == [f"no slap pad at {tmp_path / 'no-pad'} yet; it joins when it is plugged in"]
        assert notice_kind(notices[0]) == WAITING  # no problem: the start puts up no panel for it
    finally:
        merger.stop()


def test_settings_problems_reach_the_screen_at_start(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from appliance.display import runner as runner_module

    config = tmp_path / "config.toml"
    config.write_text('volume = "loud"\n')
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    shown: list[object] = []
    original = runner_module.Runner.run

    def run_and_look(self: runner_module.Runner, max_frames: int | None = None) -> int:
        status = original(self, max_frames)
        shown.append(self.scene)
        return status

    monkeypatch.setattr(runner_module.Runner, "run", run_and_look)
    assert app.main(["--config", str(config), "--size", "320x240", "--no-journal", "--frames", "2"]) == 0
    (scene,) = shown
    assert type(scene).__name__ == "NoticesScene"
    from appliance.display.captions import shown_to

    lines = shown_to(scene.captions(), 1)  # type: ignore[attr-defined]
    assert any(f"{config}: volume: must be" in line for line in lines)
    assert lines[-2:] == ["settings: the built-in defaults are used", "any button: go on"]


def test_under_systemd_play_says_ready_pings_the_watchdog_and_says_stopping(tmp_path: Path) -> None:
    import select
    import socket
    import time

    address = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(address)
    env = {
        k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    }
    env.update(
        XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"), SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy", NOTIFY_SOCKET=address, WATCHDOG_USEC="40000",
    )  # fmt: skip
    said: list[str] = []
    proc = subprocess.Popen(
        [sys.executable, "-m", "appliance.cli", "play", "--frames", "30", "--size", "320x240", "--kiosk"],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # read as systemd does, while it runs (its queue is short)
            ready, _, _ = select.select([server], [], [], 0.2)
            if ready:
                said.append(server.recv(4096).decode())
            elif proc.poll() is not None:
                break
        assert proc.wait(timeout=5) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)
        if proc.stderr is not None:
            proc.stderr.close()
        server.close()
    assert any(line.startswith("READY=1\nSTATUS=title: SPIT ARCADE") for line in said)
    assert said.count("WATCHDOG=1") >= 5  # 30 frames at 60 a second, a ping every 20 ms
    assert said[-1] == "STOPPING=1"


class FakeDisplay:
    """pygame's display as `set_mode` sees it: what mode was asked for, and SDL's framebuffer hint then."""

    def __init__(self) -> None:
        self.asked: list[tuple[object, ...]] = []
        self.gl: dict[int, int] = {}  # the GL attributes asked for before the window

    def set_mode(self, mode: tuple[int, int], flags: int, vsync: int = 0) -> str:
        self.asked.append((mode, flags, vsync, os.environ.get("SDL_FRAMEBUFFER_ACCELERATION")))
        return "screen"

    def gl_set_attribute(self, flag: int, value: int) -> None:
        self.gl[flag] = value


class FakePygame:
    error = pygame.error
    GL_CONTEXT_PROFILE_MASK = pygame.GL_CONTEXT_PROFILE_MASK
    GL_CONTEXT_PROFILE_ES = pygame.GL_CONTEXT_PROFILE_ES
    GL_CONTEXT_MAJOR_VERSION = pygame.GL_CONTEXT_MAJOR_VERSION
    GL_CONTEXT_MINOR_VERSION = pygame.GL_CONTEXT_MINOR_VERSION

    def __init__(self) -> None:
        self.display = FakeDisplay()


def test_an_x_server_gets_the_window_surface_and_kmsdrm_vsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """On an X server (or Wayland) the vsync'd renderer path uploads the whole screen at every present
    and waits for a refresh besides: the game takes SDL's window surface, dirty rectangles only, not
    through a texture; on the cabinet's KMSDRM, presents paced by the screen (vsync=1)."""
    monkeypatch.delenv("SDL_FRAMEBUFFER_ACCELERATION", raising=False)
    monkeypatch.setenv("SDL_RENDER_DRIVER", "")  # recorded, so that what KMSDRM's set_mode sets is undone
    monkeypatch.delenv("SDL_RENDER_DRIVER")
    x11 = FakePygame()
    assert app.set_mode(x11, "x11", (0, 0), pygame.FULLSCREEN) == "screen"
    assert x11.display.asked == [((0, 0), pygame.FULLSCREEN, 0, "0")]
    monkeypatch.delenv("SDL_FRAMEBUFFER_ACCELERATION")
    cabinet = FakePygame()
    app.set_mode(cabinet, "kmsdrm", (0, 0), pygame.FULLSCREEN)
    assert cabinet.display.asked == [((0, 0), pygame.FULLSCREEN, 1, None)]
    monkeypatch.setenv("SDL_FRAMEBUFFER_ACCELERATION", "opengl")  # the environment's word stands
    chosen = FakePygame()
    app.set_mode(chosen, "wayland", (1280, 720), 0)
    assert chosen.display.asked == [((1280, 720), 0, 0, "opengl")]


def test_kmsdrm_asks_for_opengl_es_2_and_the_gles2_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    """KMSDRM's GL is EGL's OpenGL ES (a Pi 4's V3D speaks it natively): the cabinet asks SDL for ES 2.0
    and its GLES2 renderer before the window is made; SDL's own first choice, desktop OpenGL, drew
    nothing without libGL.so.1. A renderer named in the environment stands; desktops are not touched."""
    monkeypatch.setenv("SDL_RENDER_DRIVER", "")  # recorded, so that what set_mode sets is undone
    monkeypatch.delenv("SDL_RENDER_DRIVER")
    cabinet = FakePygame()
    app.set_mode(cabinet, "kmsdrm", (0, 0), pygame.FULLSCREEN)
    assert os.environ["SDL_RENDER_DRIVER"] == "opengles2"
    es2 = {pygame.GL_CONTEXT_PROFILE_MASK: pygame.GL_CONTEXT_PROFILE_ES}
    assert cabinet.display.gl == {**es2, pygame.GL_CONTEXT_MAJOR_VERSION: 2, pygame.GL_CONTEXT_MINOR_VERSION: 0}
    monkeypatch.setenv("SDL_RENDER_DRIVER", "software")
    chosen = FakePygame()
    app.set_mode(chosen, "kmsdrm", (0, 0), pygame.FULLSCREEN)
    assert os.environ["SDL_RENDER_DRIVER"] == "software" and chosen.display.gl == {}
    monkeypatch.delenv("SDL_RENDER_DRIVER")
    desktop = FakePygame()
    app.set_mode(desktop, "x11", (1280, 720), 0)
    assert "SDL_RENDER_DRIVER" not in os.environ and desktop.display.gl == {}
