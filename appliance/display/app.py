"""`spit-arcade play`: the game on screen, two players on one keyboard (or against the computer).

    spit-arcade play                      # a window on the desktop
    spit-arcade play --fullscreen         # the cabinet: full screen, no mouse cursor (KMSDRM on a Pi)
    spit-arcade play --layout tabletop    # player 2's side turned 180°, for players facing each other

A closed window, a failed audio device or a missing display gives a clear message, never a traceback.

Surviving the bar (the cabinet runs it as a systemd service that restarts whatever ends it):

- A game a crash or a power cut interrupted is resumed at start: the newest unfinished journal is
  replayed to the position it reached (`Match.resume`; a torn last line left out), "game resumed" is
  shown to every seat, and play goes on when every person has pressed SPIT! again. A journal that
  can't be resumed is reported (stderr and screen), left as it is, and the title shows. On a desktop
  (not `--kiosk`) the players are first asked once whether to play it on (scenes/resume_ask.py): no
  closes it as abandoned, so a window killed mid-game does not come back at every start.
- Mistakes in the settings or the inputs file (`Settings.warnings`), a GPIO chip that isn't there
  and a serial pad that isn't plugged in are said on stderr and on the screen at start, and the
  game plays on without what is broken: never an exit that systemd would turn into a restart loop.
- systemd hears READY=1 once the first frame is on screen, WATCHDOG=1 from every frame and
  STOPPING=1 on a clean exit (runner.py, appliance/watchdog.py).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from appliance.journal import journal_dir
from appliance.shared.cpu import TOO_OLD_EXIT, processor_too_old
from appliance.shared.settings import LAYOUTS, Settings, SettingsError, default_config_path, load_settings

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
    parser.add_argument(
        "--learn",
        nargs="?",
        const="chosen",
        choices=("spit", "speed", "chosen"),
        help="start with a guided first game that teaches the game, step by step (spit or speed; "
        "default: the game chosen in the settings); on the title, player 1's or 2's first pile key starts it",
    )
    linked = parser.add_argument_group("a linked game: two cabinets (or desktops) play one game (docs/linked.md)")
    linked.add_argument("--link-listen", type=int, metavar="PORT", help="wait for the other cabinet on this UDP port")
    linked.add_argument("--link", metavar="HOST:PORT", help="join the cabinet listening there ('venue' or "
                        "'venue:CABINET': one offered on the venue's broker; a listener offers there if there is one)")
    linked.add_argument("--link-seats", metavar="N,N", help="this cabinet's seats (default: the listener the "
                        "first half of the table, the other the rest)")
    linked.add_argument("--link-relay", metavar="SOCKET", help="through the link unit's socket (a game with no "
                        "network: the cabinet's unit names it in $SPIT_ARCADE_LINK_RELAY)")
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
        driver = pygame.display.get_driver().lower()  # SDL names them in capitals too ("KMSDRM")
        if driver in INVISIBLE_DRIVERS and os.environ.get("SDL_VIDEODRIVER", "").lower() != driver:
            # SDL falls back to drawing nowhere when it finds no screen: say so instead of playing unseen.
            pygame.display.quit()
            raise pygame.error(f"SDL found no screen and fell back to its {driver!r} driver")
        flags, mode = (pygame.FULLSCREEN, (0, 0)) if fullscreen else (0, size)
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            screen = set_mode(pygame, driver, mode, flags)
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


# Drivers whose screen paces the presents (vsync=1: pygame-ce's renderer path). Elsewhere (an X
# server, Wayland) that path uploads the whole screen into a texture at every present and waits for a
# refresh besides: 16-100 ms a frame full screen at 1920x1080, where the window surface's own
# updates send only the rectangles that changed (0.1 ms). There the loop's 60 Hz timer paces frames.
SCREEN_PACED = ("kmsdrm",)


def set_mode(pygame: Any, driver: str, mode: tuple[int, int], flags: int) -> Any:
    """The display surface: vsync'd on the drivers that pace presents (SCREEN_PACED), else SDL's own
    window framebuffer with dirty rectangles sent as they are (SDL_FRAMEBUFFER_ACCELERATION=0: not
    through a texture of the whole screen), unless the environment says otherwise."""
    if driver in SCREEN_PACED:
        ask_for_gles2(pygame)
        try:  # vsync: pygame-ce's renderer path, presents paced by the screen's refresh
            return pygame.display.set_mode(mode, flags, vsync=1)
        except pygame.error:  # a driver without it: plain window surface updates
            return pygame.display.set_mode(mode, flags)
    os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")  # read by SDL as the window is made
    return pygame.display.set_mode(mode, flags)


def ask_for_gles2(pygame: Any) -> None:
    """On KMSDRM: OpenGL ES 2 and SDL's GLES2 renderer, unless the environment names a renderer.

    KMSDRM draws through EGL on the GPU's own API, OpenGL ES on a Pi 4's V3D. Left to itself, SDL (as
    pygame-ce's wheels build it) asks EGL for desktop OpenGL 2.1 and takes its desktop-OpenGL renderer
    first, whose calls Mesa refuses without libGL.so.1 (not in the image): every frame was black. Asking
    for ES 2.0 before the window is made also spares SDL re-making the window for the GLES2 renderer."""
    os.environ.setdefault("SDL_RENDER_DRIVER", "opengles2")  # read by SDL as the renderer is made
    if os.environ["SDL_RENDER_DRIVER"] != "opengles2":
        return
    pygame.display.gl_set_attribute(pygame.GL_CONTEXT_PROFILE_MASK, pygame.GL_CONTEXT_PROFILE_ES)
    pygame.display.gl_set_attribute(pygame.GL_CONTEXT_MAJOR_VERSION, 2)
    pygame.display.gl_set_attribute(pygame.GL_CONTEXT_MINOR_VERSION, 0)


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
    if expects_kmsdrm(fullscreen) and driver.lower() != "kmsdrm":  # SDL says "KMSDRM"
        line += f"; expected kmsdrm on the cabinet, not {driver}: frame times will differ"
    print(line, file=out or sys.stderr)
    return line


def open_inputs(args: argparse.Namespace, notices: list[str] | None = None) -> Any:
    """The cabinet's input sources behind appliance.inputs' Merger, started; None for keyboard only.

    A source that cannot start (no GPIO chip, no permission on it) is left out with a notice (on
    stderr and in `notices`, for the screen): the game plays on with the others and the keyboard.
    A serial pad whose port is not there yet is kept (it joins when plugged in), with a notice.
    Only a wrong command line (an unknown source) raises."""
    if args.inputs is None and args.sources is None:
        return None
    from appliance.inputs.config import build_sources, load_config
    from appliance.inputs.merge import Merger, favour_input_threads
    from appliance.inputs.serial_link import SerialSource

    from .scenes.base import LEFT_OUT, WAITING, Notice

    sources = [s.strip() for s in args.sources.split(",") if s.strip()] if args.sources else None
    config = load_config(args.inputs, sources, strict=False)  # a typo never stops the cabinet
    # the screen reads the keyboard and the touch screen itself (run's `touch`)
    config.sources = [s for s in config.sources if s not in ("keyboard", "touch")]
    said = notices if notices is not None else []
    merger = Merger([], max_window_ns=config.max_window_ns)
    built: list[Any] = []
    for backend in config.sources:
        try:
            built += build_sources(dataclasses.replace(config, sources=[backend]))
        except Exception as error:  # a script that can't be read, a wiring gpiozero refuses
            said.append(Notice(f"the {backend} inputs cannot start ({error}); left out", LEFT_OUT))
    for source in built:
        try:
            source.start(merger)
        except Exception as error:  # no GPIO chip here, no permission on /dev/gpiochip*
            with contextlib.suppress(Exception):
                source.stop()
            said.append(Notice(f"the {source.name} inputs cannot start ({type(error).__name__}: {error}); left out",
                               LEFT_OUT))
            continue
        if isinstance(source, SerialSource) and not os.path.exists(source.port):
            said.append(Notice(f"no slap pad at {source.port} yet; it joins when it is plugged in", WAITING))
        merger.add(source)
    for notice in said:
        print(f"spit-arcade play: {notice}", file=sys.stderr)
    favour_input_threads()
    merger.start()  # each source's start is idempotent: this marks the merger running
    return merger


def touch_wanted(args: argparse.Namespace) -> bool:
    """Whether a tap (or a click) on the screen is a press: on a desktop with no inputs named, yes; with
    an inputs file or `--sources`, where "touch" is among its sources (appliance/inputs/config.py),
    so a cabinet whose screen is no touch screen turns it off as it turns off any source."""
    if args.inputs is None and args.sources is None:
        return True
    from appliance.inputs.config import load_config

    sources = [s.strip() for s in args.sources.split(",") if s.strip()] if args.sources else None
    return "touch" in load_config(args.inputs, sources, strict=False).sources


def main(argv: list[str] | None = None, clock: Callable[[], int] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # A mistake in a config file never stops the cabinet's game (systemd would restart it for ever):
    # each problem is printed, kept in settings.warnings for the screen, and left at its default. An
    # inputs file named on a desktop's command line is the one exception: its mistakes end `play`
    # there with exit 2, as `inputs --config` does (under --kiosk they are notices, as config.toml's).
    settings = load_settings(args.config, keep_good_copy=True)  # a damaged file's settings come from it
    if args.inputs is not None or args.sources is not None:
        from appliance.inputs.config import load_config

        problems = load_config(args.inputs, strict=False).problems
        if problems and not args.kiosk:  # a person at a desktop who named the file: say it, stop
            for problem in problems:
                print(f"spit-arcade play: {problem}", file=sys.stderr)
            return 2
        settings.warnings += problems  # the cabinet: on its screen, and it plays on
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
    too_old = processor_too_old()  # before a library built for newer processors loads (lgpio: SIGILL)
    if too_old:
        print(f"spit-arcade play: {too_old}", file=sys.stderr)
        return TOO_OLD_EXIT
    from appliance import watchdog

    watchdog.progress("settings read")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    watchdog.progress("pygame loaded")
    notices: list[str] = []
    try:
        touch = touch_wanted(args)
        merger = open_inputs(args, notices)
    except Exception as error:  # a wrong command line (`--sources carrier-pigeon`)
        print(f"spit-arcade play: cannot start the inputs: {error}", file=sys.stderr)
        return 2
    watchdog.progress("inputs open", watchdog.DRAW_STEP_S)  # the next opens the screen
    linked = None
    if args.link or args.link_listen is not None or settings.link:  # (the settings' [link]: the cabinet's)
        try:
            linked = open_link(args, settings, None if args.no_journal else journal_dir(settings.journal_dir))
        except (OSError, ValueError) as error:
            print(f"spit-arcade play: cannot open the link: {error}", file=sys.stderr)
            if settings.link and not (args.link or args.link_listen is not None):  # the cabinet's [link]:
                notices.append(f"the linked game cannot start ({error}); this cabinet plays alone")  # no restart loop
            else:
                if merger is not None:
                    merger.stop()
                return 2
    try:
        screen = open_screen(size, args.fullscreen)
    except DisplayError as error:
        print(f"spit-arcade play: {error}", file=sys.stderr)
        if merger is not None:
            merger.stop()
        return 1
    watchdog.progress("screen open")
    try:
        journals = None if args.no_journal else journal_dir(settings.journal_dir)
        config_path = args.config if args.config is not None else default_config_path()
        return run(settings, keymap, screen, journals, clock, args.frames, merger, config_path, notices, args.learn,
                   touch, linked)
    except KeyboardInterrupt:
        return 130
    except pygame.error as error:
        print(f"spit-arcade play: the display stopped working ({error})", file=sys.stderr)
        return 1
    finally:
        if linked is not None:
            linked[0].close()
        if merger is not None:
            merger.stop()
        pygame.quit()


def open_link(args: argparse.Namespace, settings: Settings, journals: Path | None) -> tuple[Any, str]:
    """The linked table for `--link-listen PORT` / `--link HOST:PORT`, and where, in words. The game is
    the one the settings choose (both cabinets must choose the same: the hello checks). A find on the
    venue (`--link venue`) returns at once: a Finding (appliance/linked/finding.py) that looks on a thread
    until it pairs, while the screen shows the wait."""
    from appliance.linked.finding import Cancel, Finding
    from appliance.linked.game import LinkedTable, unfinished_linked
    from appliance.linked.peer import Peer, offer
    from appliance.linked.relay_client import ENV as RELAY_ENV
    from appliance.linked.venue import find_on_venue, offer_while_waiting, venue_settings
    from appliance.rules import seats_of

    from .rules_words import game_choice

    choice = game_choice(settings)
    table_seats = seats_of(choice.preset, choice.given)
    half = table_seats // 2
    given = args.link or args.link_listen is not None  # the command line's, else the settings' [link]
    listen = args.link_listen if given else settings.link.get("listen")
    join = str(args.link) if args.link else None if given else settings.link.get("join")
    default = list(range(1, half + 1)) if listen is not None else list(range(half + 1, table_seats + 1))
    seats = [int(s) for s in args.link_seats.split(",")] if args.link_seats else None
    seats = seats or (None if given else settings.link.get("seats")) or default
    if not seats or any(not 1 <= s <= table_seats for s in seats):
        raise ValueError(f"--link-seats must name seats 1 to {table_seats}")
    mine = offer(choice.preset, choice.given, seats, table_seats)
    relay = args.link_relay or os.environ.get(RELAY_ENV)
    word = str(settings.link.get("word", ""))  # the operator's link word (both cabinets the same), or none

    def linked_table(peer: Peer) -> LinkedTable:
        table = LinkedTable(peer, seats, choice.preset, choice.given, journal_dir=journals)
        cut = unfinished_linked(journals) if journals is not None else None
        if cut is not None:  # a power cut took this cabinet mid-game: that game goes on once the other is back
            try:
                table.resume_from(cut)
            except ValueError as error:
                print(f"spit-arcade play: the linked game in {cut.name} cannot be resumed ({error})", file=sys.stderr)
        return table

    if listen is None and str(join).partition(":")[0] == "venue":  # a find: up to 30 s, tried until it pairs,
        venue = None if relay else venue_settings()  # on a thread (finding.py), never before the screen
        if not relay and venue is None:
            find_on_venue(str(join), mine, None)  # (raises: no venue here, said at once)

        def find_once(cancel: Cancel) -> tuple[Any, str]:  # (cancel: the players left; the try ends at once)
            if relay:  # no network here (the cabinet's unit): the link unit finds the venue
                peer = Peer.through(relay, {"find": join}, mine, word=word, keep=journals, cancel=cancel)
                return linked_table(peer), getattr(peer.sock, "where", "") or str(join)
            host, port_number, name = find_on_venue(str(join), mine, venue, cancel=cancel)
            cancel.check()  # (called off as it was found: no call made, the other never paired)
            where = f"{name} ({host}:{port_number}, through the venue)"
            return linked_table(Peer.connect(host, port_number, mine, word=word, keep=journals)), where

        return Finding(find_once), str(join)
    if relay:  # no network here (the cabinet's unit): the link unit holds the socket
        request: dict[str, Any] = {"listen": listen} if listen is not None else {"connect": _host_port(str(join))}
        peer = Peer.through(relay, request, mine, word=word, keep=journals)
        where = getattr(peer.sock, "where", "") or str(join or listen)
    elif listen is not None:
        peer = Peer.listen(listen, mine, word=word, keep=journals)
        where = f"port {listen}"
        venue = venue_settings()
        if venue is not None and offer_while_waiting(peer, venue):
            where += f", offered on the venue as {venue.cabinet}"
    else:
        host, port_number = _host_port(str(join))
        peer = Peer.connect(host, port_number, mine, word=word, keep=journals)
        where = str(join)
    return linked_table(peer), where


def _host_port(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--link takes HOST:PORT, not {text!r}")
    return host, int(port)


def run(
    settings: Settings,
    keymap: dict[str, tuple[int, str]],
    screen: object,
    journals: Path | None,
    clock: Callable[[], int] | None = None,
    max_frames: int | None = None,
    merger: Any = None,
    config_path: Path | None = None,
    notices: list[str] | None = None,
    learn: str | None = None,
    touch: bool = True,
    linked: tuple[Any, str] | None = None,
) -> int:
    """The game on `screen` until it ends (`touch`: a tap or a click on it is a press)."""
    import time

    import pygame

    from appliance import watchdog

    from .i18n import LANGUAGES, set_language
    from .runner import Runner
    from .scenes.base import SETTINGS, Context, Notice, Push
    from .sound import Sound

    assert isinstance(screen, pygame.Surface)
    pygame.font.init()
    set_language(settings.language if settings.language in LANGUAGES else "en")
    sound = Sound.open(settings.volume)
    ctx = Context(
        settings, screen.get_size(), keymap, sound, journals, clock or time.monotonic_ns, tidy_memory=True,
        config_path=config_path,
    )
    from appliance.operator.office import Office

    kept_s = settings.credits_kept_off_h * 3600  # credits left at a power-off expire after this (0: never)
    watchdog.progress("sound and fonts")
    ctx.office = Office.open(config_path, keep_credits_s=kept_s)  # the store: its problems said at start
    watchdog.progress("the store open")
    said = [Notice(str(p), SETTINGS) for p in settings.warnings] + list(notices or []) + ctx.office.notices
    # An update applied or rolled back since the last start: into the audits, asked of the updater
    # on a thread of its own (nothing of it is imported or waited for before the first frame).
    threading.Thread(target=check_updates, args=(ctx,), name="updates-at-start", daemon=True).start()
    if linked is not None:  # a linked game: the link's scene first (a crashed game is left for the next start)
        from .scenes.base import make

        stack = [make("linked_wait", ctx, *linked)]
    else:
        stack = learn_scenes(ctx, learn, said) if learn else first_scenes(ctx, said)
    watchdog.progress("the first scenes made (a game resumed)")
    runner = Runner(ctx, stack[0], screen, merger=merger, log_rate=max_frames is None, service_menu=True, touch=touch)
    for scene in stack[1:]:
        runner.apply(Push(scene))
    try:
        return runner.run(max_frames)
    finally:
        if ctx.updates is not None:
            ctx.updates.close()
        ctx.office.close()  # what is handed to the writer is written before the program ends


def check_updates(ctx: Any) -> None:
    """The updater's status, once at start (appliance/operator/updates.py records the outcome)."""
    from appliance.operator.updates import Updates

    if ctx.updates is None:
        ctx.updates = Updates(ctx.office)
    ctx.updates.check_status()


def first_scenes(ctx: Any, notices: list[str]) -> list[Any]:
    """The scene stack at start, bottom first: the game a crash interrupted, resumed under "game
    resumed" (else the title); the start's `notices` (settings problems, inputs left out, a journal
    that can't be resumed, which is added to them) over it, until someone presses a button; only
    things waiting to be plugged in put up no panel (service_notices.py says why)."""
    stack = resume_scenes(ctx, notices)  # a journal that can't be resumed adds its notice
    return [*stack, *notices_scenes(ctx, notices)]


def notices_scenes(ctx: Any, notices: list[str]) -> list[Any]:
    """[the start-up notices' panel], or [] when nothing went wrong at start; the notices are kept
    for the service menu's diagnostics either way."""
    from .scenes.base import make, startup_notices, worth_a_panel

    startup_notices(ctx)[:] = notices
    return [make("notices", ctx, notices)] if worth_a_panel(notices) else []


def learn_scenes(ctx: Any, learn: str, notices: list[str]) -> list[Any]:
    """`play --learn`: the guided first game at seat 1 (of `learn`, "spit" or "speed", or "chosen":
    the settings' game), under the start's notices; a game a crash interrupted is left for the next
    start."""
    from .rules_words import game_choice
    from .scenes.base import make

    if learn == "chosen":
        learn = "speed" if game_choice(ctx.settings).is_speed else "spit"
    return [make("learn", ctx, 1, learn), *notices_scenes(ctx, notices)]


def resume_scenes(ctx: Any, notices: list[str]) -> list[Any]:
    """[the play scene, the resumed scene] for the newest unfinished journal in `ctx.journal_dir`,
    or [the title] when there is none or it cannot be resumed (then said on stderr and in `notices`;
    the journal is left as it is)."""
    from appliance.journal import newest_unfinished
    from appliance.match import Match

    from . import runner as _registry  # noqa: F401 (registers the operator's scenes)
    from .scenes.base import make, ready_for_play

    path = newest_unfinished(ctx.journal_dir) if ctx.journal_dir is not None else None
    if path is None:
        return [make("title", ctx)]
    from appliance.linked.game import unfinished_linked

    if unfinished_linked(ctx.journal_dir) == path:  # a linked game: it goes on with the link (--link), not alone
        notices.append(f"the linked game in {path.name} goes on when this cabinet is linked again")
        return [make("title", ctx)]
    try:
        from .coins import office

        match = Match.resume(path, ctx.clock(), syncer=office(ctx).writer.call)  # synced off the frame loop
        match.ended = office(ctx).game_over  # its figures into the audits when it ends
    except Exception as error:  # a journal this version can't replay: say so, leave it, play on
        notice = f"the game in {path.name} cannot be resumed ({error}); it is left as it is"
        print(f"spit-arcade play: {notice}", file=sys.stderr)
        notices.append(notice)
        return [make("title", ctx)]
    if match.finished:  # the power cut took only the closing line: the game was over, close it as such
        office(ctx).game_over(match)  # (its closing line is synced before its row is written: not counted yet)
        if match.journal is not None:
            with contextlib.suppress(OSError, ValueError):
                match.journal.finish(match.game.state())
            match.journal = None
        return [make("title", ctx)]
    try:
        # the cabinet plays every interrupted game on; a desktop asks once (no: it is left for good)
        asked = "resumed" if ctx.settings.kiosk else "resume_ask"
        scenes = [make("play", ctx, match), make(asked, ctx, match, path.name)]  # (every game's table)
        ready_for_play(ctx)  # (after the table is made: its text sizes too)
        return scenes
    except Exception as error:  # never a crash at start (systemd would make it a restart loop)
        if match.journal is not None:
            with contextlib.suppress(OSError, ValueError):
                match.journal.close()
        notice = f"the game in {path.name} cannot be shown ({type(error).__name__}: {error}); it is left as it is"
        print(f"spit-arcade play: {notice}", file=sys.stderr)
        notices.append(notice)
        return [make("title", ctx)]
