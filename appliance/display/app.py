"""`spit-arcade play`: the game on screen, two players on one keyboard (or against the computer).

    spit-arcade play                      # a window on the desktop
    spit-arcade play --fullscreen         # the cabinet: full screen, no mouse cursor (KMSDRM on a Pi)
    spit-arcade play --layout tabletop    # player 2's side turned 180°, for players facing each other

A closed window, a failed audio device or a missing display gives a clear message, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .settings import LAYOUTS, Settings, SettingsError, journal_dir, load_settings

WINDOW = (1280, 720)
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


class DisplayError(RuntimeError):
    """No display to draw on (no desktop session, no HDMI, no permission on /dev/dri)."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="spit-arcade play", description="Play Spit on screen.")
    parser.add_argument(
        "--fullscreen",
        action="store_true",
        help="full screen, no mouse cursor (the cabinet; KMSDRM on a Pi without a desktop)",
    )
    parser.add_argument(
        "--kiosk",
        action="store_true",
        help="the cabinet's kiosk: full screen, and Escape never leaves the game (the systemd service uses it)",
    )
    parser.add_argument("--layout", choices=LAYOUTS, help="desktop (default) or tabletop (players face each other)")
    parser.add_argument("--size", help="window size WxH (default 1280x720; full screen uses the display's)")
    parser.add_argument("--config", type=Path, help="settings file (default ~/.config/spit-arcade/config.toml)")
    parser.add_argument("--volume", type=float, help="0.0 (silent) to 1.0")
    parser.add_argument("--assist", action="store_true", default=None, help="light the cards that can be played")
    parser.add_argument("--four-colour", action="store_true", default=None, help="a four-colour deck")
    parser.add_argument("--journal-dir", type=Path, help="where games are journalled")
    parser.add_argument("--no-journal", action="store_true", help="do not journal games")
    parser.add_argument(
        "--inputs",
        type=Path,
        metavar="FILE",
        help="inputs configuration (GPIO panels, serial pads), as for `spit-arcade inputs`",
    )
    parser.add_argument("--sources", help="input sources to start besides the keyboard, e.g. gpio,serial")
    parser.add_argument("--frames", type=int, help=argparse.SUPPRESS)  # stop after N frames (smoke runs)
    return parser.parse_args(argv)


def size_from(text: str | None) -> tuple[int, int]:
    if not text:
        return WINDOW
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise SettingsError(f"--size must be WIDTHxHEIGHT, e.g. 1920x1080, not {text!r}") from None
    if w < 320 or h < 240:
        raise SettingsError("--size must be at least 320x240")
    return (w, h)


def apply_options(settings: Settings, args: argparse.Namespace) -> Settings:
    if args.layout:
        settings.layout = args.layout
    if args.volume is not None:
        if not 0 <= args.volume <= 1:
            raise SettingsError("--volume must be from 0.0 to 1.0")
        settings.volume = args.volume
    if args.assist:
        settings.assist = True
    if args.four_colour:
        settings.four_colour = True
    if args.journal_dir:
        settings.journal_dir = str(args.journal_dir)
    if args.kiosk:
        settings.kiosk = True
        args.fullscreen = True
    return settings


# SDL video drivers that draw nowhere: fine when asked for (tests, benches), never as a fallback.
INVISIBLE_DRIVERS = ("offscreen", "dummy")


def open_screen(size: tuple[int, int], fullscreen: bool, caption: str = "Spit Arcade") -> object:
    """The window (or the whole screen); DisplayError with a plain reason if there is none."""
    import pygame

    if (
        fullscreen
        and sys.platform.startswith("linux")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
        and not os.environ.get("SDL_VIDEODRIVER")
    ):
        os.environ["SDL_VIDEODRIVER"] = "kmsdrm"  # a Pi without a desktop
    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
        if driver in INVISIBLE_DRIVERS and os.environ.get("SDL_VIDEODRIVER") != driver:
            # SDL falls back to drawing nowhere when it finds no screen: say so instead of playing unseen.
            pygame.display.quit()
            raise pygame.error(f"SDL found no screen and fell back to its {driver!r} driver")
        flags, mode = (pygame.FULLSCREEN, (0, 0)) if fullscreen else (0, size)
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            try:  # vsync: pygame-ce's renderer path, presents paced by the screen's refresh
                screen = pygame.display.set_mode(mode, flags, vsync=1)
            except pygame.error:  # a driver without it: plain window surface updates
                screen = pygame.display.set_mode(mode, flags)
        for warning in said:  # "no fast renderer available": said once on stderr, not as a Python warning
            print(f"spit-arcade: {warning.message}", file=sys.stderr)
        if fullscreen:
            pygame.mouse.set_visible(False)
        pygame.display.set_caption(caption)
        describe_screen(screen, fullscreen)
    except pygame.error as error:
        driver = os.environ.get("SDL_VIDEODRIVER", "default")
        hint = (
            "on a Pi without a desktop: check the HDMI cable and that this user is in the 'video' and 'render' groups"
            if fullscreen
            else "is there a desktop session (DISPLAY/WAYLAND_DISPLAY)?"
        )
        raise DisplayError(f"no display to draw on ({error}; video driver {driver}); {hint}") from None
    if screen.get_width() == 0:
        raise DisplayError("the display reports a size of 0x0")
    return screen


def expects_kmsdrm(fullscreen: bool) -> bool:
    """The cabinet: full screen on Linux with no desktop session, where only KMSDRM draws."""
    return (
        fullscreen
        and sys.platform.startswith("linux")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    )


def describe_screen(screen: Any, fullscreen: bool, out: Any = None) -> str:
    """One line on stderr at start: the video driver, size, refresh rate and font (and a warning
    when the cabinet is not on KMSDRM, where the frame-time goals were set)."""
    import pygame

    from .fonts import font_name

    driver = pygame.display.get_driver()
    rate_of = getattr(pygame.display, "get_current_refresh_rate", None)
    rate = rate_of() if rate_of is not None else 0
    w, h = screen.get_size()
    line = f"spit-arcade: video driver {driver}, {w}x{h} at {rate or '?'} Hz, font {font_name()}"
    if expects_kmsdrm(fullscreen) and driver != "kmsdrm":
        line += f"; expected kmsdrm on the cabinet, not {driver}: frame times will differ"
    print(line, file=out or sys.stderr)
    return line


def open_inputs(args: argparse.Namespace) -> Any:
    """The cabinet's input sources behind appliance.inputs' Merger, started; None for keyboard only."""
    if args.inputs is None and args.sources is None:
        return None
    from appliance.inputs.config import build_merger, load_config
    from appliance.inputs.merge import favour_input_threads

    sources = [s.strip() for s in args.sources.split(",") if s.strip()] if args.sources else None
    config = load_config(args.inputs, sources)
    config.sources = [s for s in config.sources if s != "keyboard"]  # the screen reads the keyboard itself
    merger = build_merger(config)
    favour_input_threads()
    merger.start()
    return merger


def main(argv: list[str] | None = None, clock: Callable[[], int] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # A mistake in a config file never stops the game (on the cabinet, systemd would restart it for
    # ever): each problem is printed, kept in settings.warnings for the screen, and left at its default.
    settings = load_settings(args.config)
    if args.inputs is not None or args.sources is not None:
        from appliance.inputs.config import load_config

        settings.warnings += load_config(args.inputs).problems
    for problem in settings.warnings:
        print(f"spit-arcade play: {problem}", file=sys.stderr)
    try:
        settings = apply_options(settings, args)
        size = size_from(args.size)
        from .keys import amend_keymap, default_keymap, for_desktop

        keymap = default_keymap()
        if settings.layout == "desktop":
            keymap = for_desktop(keymap)
        keymap = amend_keymap(keymap, settings.keys)  # [keys] changes the default map, key by key
    except (SettingsError, ValueError) as error:
        print(f"spit-arcade play: {error}", file=sys.stderr)
        return 2
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    try:
        merger = open_inputs(args)
    except Exception as error:  # a missing GPIO chip, a serial port that isn't there, a bad file
        print(f"spit-arcade play: cannot start the inputs: {error}", file=sys.stderr)
        return 2
    try:
        screen = open_screen(size, args.fullscreen)
    except DisplayError as error:
        print(f"spit-arcade play: {error}", file=sys.stderr)
        if merger is not None:
            merger.stop()
        return 1
    try:
        journals = None if args.no_journal else journal_dir(settings)
        return run(settings, keymap, screen, journals, clock, args.frames, merger)
    except KeyboardInterrupt:
        return 130
    except pygame.error as error:
        print(f"spit-arcade play: the display stopped working ({error})", file=sys.stderr)
        return 1
    finally:
        if merger is not None:
            merger.stop()
        pygame.quit()


def run(
    settings: Settings,
    keymap: dict[str, tuple[int, str]],
    screen: object,
    journals: Path | None,
    clock: Callable[[], int] | None = None,
    max_frames: int | None = None,
    merger: Any = None,
) -> int:
    import time

    import pygame

    from .i18n import LANGUAGES, set_language
    from .runner import Runner
    from .scenes.base import Context, make
    from .sound import Sound

    assert isinstance(screen, pygame.Surface)
    pygame.font.init()
    language = getattr(settings, "language", "en")  # once settings.py has it; the settings screen too
    set_language(language if language in LANGUAGES else "en")
    sound = Sound.open(settings.volume)
    ctx = Context(settings, screen.get_size(), keymap, sound, journals, clock or time.monotonic_ns, tidy_memory=True)
    runner = Runner(ctx, make("title", ctx), screen, merger=merger, log_rate=max_frames is None)
    return runner.run(max_frames)
