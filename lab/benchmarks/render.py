"""`spit-arcade bench render`: how fast the screen draws, answers a press, and starts.

    spit-arcade bench render [--json] [--size 1920x1080] [--seconds 8] [--layout tabletop]
    spit-arcade bench render --driver kmsdrm --vsync     # on the cabinet, as the game opens the screen
    spit-arcade bench render --books DIR [--rounds 6]    # frame times with the operator's books against without

- frame_p99_ms: one frame of a live game (computer against computer at its fastest level, cards
  sliding, piles lit) — update, draw, composite, present — 99th percentile, frames run back to back;
  frame_full_p99_ms is the same with every frame repainted in full (what redrawing everything costs);
  frame_cpu_p99_ms the same frames' CPU time on the frame's thread (time.thread_time: what a machine
  shared with other work does not add while it makes the frame wait for a core; `load` beside it,
  the load averages when the run began).
- press_to_frame_p99_ms: the app's real loop (60 fps, woken early by input); a thread posts key
  presses to SDL's queue at random moments, as the OS would; from each press's moment to the end of
  presenting the first frame that changed because of it.
- band_median_share: on KMSDRM, SDL uploads the band from the topmost to the bottommost changed
  rectangle, full width, every frame, then presents the whole frame: the median of that band over
  the frames of the live game that change anything, as a share of the screen (band_median_bytes
  in bytes at 4 bytes a pixel; band_p90_share, frames_changed beside it).
- frames_new_text_size: the frames of the live game (but its first, which paints the table as the
  countdown does in the game) that made a text size's font for the first time (its letters drawn
  then, in the frame), and the most CPU time one of them took (frames_new_text_size_cpu_max_ms).
- held: the app's real loop (Runner.run, real time) for up to 10 s each, a live game and then the
  service menu opened over it (the game held): frames_per_s and loop_cpu_share (the loop's thread CPU
  time over the wall clock). Under the menu the loop draws runner.CALM_FPS frames a second.
- first_frame_s: from starting `spit-arcade play --frames 1` in a fresh process to its exit after
  the first frame (an upper bound: it includes the interpreter's start and exit).

Without a display it uses SDL's dummy video and audio drivers (say so in any figure you report).

    spit-arcade bench render --pacing [--seconds 60] [--realtime]   # DISPLAY=:1 (Xvfb), or kmsdrm

`--pacing` measures through a real video driver instead (it refuses dummy and offscreen): the screen
opened as `play --fullscreen` opens it, the game's own 60 Hz loop (Runner.run) with the computer
playing itself for a whole game's length, and reports frame pacing: the interval from each frame to
the next (p50, p99, max), frames over 33 ms, missed refreshes (`pacing_figures`), and each frame's
work. An X server for it: `apt-get install xvfb`, `Xvfb :1 -screen 0 1920x1080x24 &`, `DISPLAY=:1`.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from lab.benchmarks.figures import print_figures

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _context(size: tuple[int, int], layout: str, clock: Any) -> Any:
    from appliance.display.keys import default_keymap, for_desktop
    from appliance.display.scenes.base import Context
    from appliance.display.sound import Sound
    from appliance.shared.settings import Settings

    settings = Settings(layout=layout, assist=True)
    keymap = default_keymap()
    if layout == "desktop":
        keymap = for_desktop(keymap)
    return Context(settings, size, keymap, Sound.silence(), None, clock, seed_source=lambda: 7)


def band_bytes(dirty: list[Any], size: tuple[int, int], depth: int = 4) -> int:
    """What SDL's KMSDRM path uploads for a frame presented with these rectangles: the band from the
    topmost changed row to the bottommost, full width (nothing when nothing changed)."""
    if not dirty:
        return 0
    top = max(0, min(r.top for r in dirty))
    bottom = min(size[1], max(r.bottom for r in dirty))
    return max(0, bottom - top) * size[0] * depth


def frame_times(
    size: tuple[int, int], layout: str, seconds: float, full: bool, bands: list[int] | None = None,
    variant: str = "classic", options: dict[str, Any] | None = None, books: Path | None = None,
    frame_syncs: list[int] | None = None, cpu: list[float] | None = None, sizing: list[float] | None = None,
) -> tuple[list[float], int]:
    """Frames of a computer-vs-computer game of `variant` in virtual time (16.7 ms a frame), timed
    for real; `bands` (if given) gets each frame's uploaded band in bytes (`band_bytes`). With
    `books` (a folder): the operator's store there, a coin every second (inside the frame it comes
    in, as the runner takes it) and every game's end counted, as on a paid cabinet; `frame_syncs`
    (if given) gets the syncs the frame thread made during the frames (its start's not counted);
    `cpu` (if given) each frame's CPU time on this thread, in ms; `sizing` (if given) the CPU time of each
    frame that made a text size's font for the first time (a new size's first text: its letters drawn),
    but the first (it paints the table's background: the game does that in the countdown)."""
    import pygame

    from appliance.display import fonts
    from appliance.display.runner import Runner
    from appliance.display.scenes.base import make
    from appliance.match import Match, make_bot
    from appliance.operator import fsyncs
    from appliance.rules import read_options

    screen = pygame.display.get_surface()
    assert screen is not None, "set a display mode first"
    now = [0]
    ctx = _context(size, layout, lambda: now[0])
    ctx.tidy_memory = True
    times: list[float] = []
    frames = int(seconds * 60)
    seats = read_options(variant, options).seats
    table = "play"  # (Speed's too: the game's own table, words and sounds are its TableGame's)

    if books is not None:
        from appliance.display.coins import insert_coin, office

        ctx.config_path = books / "config.toml"
        office(ctx)  # opened before the first frame, as the app opens it at start

    def new_game(number: int) -> Any:
        bots = {p: make_bot("5", p, number * 10 + p) for p in range(1, seats + 1)}
        match = Match(number, now[0], None, bots, variant=variant, options=options)
        if books is not None:
            match.ended = office(ctx).game_over
        return make(table, ctx, match)

    games = 1
    scene = new_game(games)
    # as the countdown leaves it: the game's table made, every card image of it drawn, the heap frozen
    ready_for_play(ctx)
    runner = Runner(ctx, scene, screen)
    syncs_before = fsyncs.main_thread_syncs()
    for number in range(frames):
        if scene.match.finished:
            games += 1
            scene = new_game(games)
            runner.apply_scene(scene)
        now[0] += 16_666_667
        if full:
            runner.compositor.invalidate()
        sizes = fonts.sizes_made()
        start, start_cpu = time.perf_counter(), time.thread_time()
        if books is not None and number % 60 == 59:
            insert_coin(ctx, "gpio")
        dirty = runner.frame(pygame.event.get(), now[0])
        times.append((time.perf_counter() - start) * 1000)
        if sizing is not None and fonts.sizes_made() > sizes and number:  # (the first frame: the countdown's, in play)
            sizing.append((time.thread_time() - start_cpu) * 1000)
        if cpu is not None:
            cpu.append((time.thread_time() - start_cpu) * 1000)
        if bands is not None:
            bands.append(band_bytes(dirty, size))
        if runner.scene is not scene:  # round summary, game over: back to the table
            runner.apply_scene(scene)
    if frame_syncs is not None:
        frame_syncs.append(fsyncs.main_thread_syncs() - syncs_before)
    if books is not None:
        office(ctx).close()  # (waits for the writer: untimed)
    return times, games


ONE_ROUND = {"limit_rounds": 1}  # (a game a round, the operator's bounded game: many game ends in a run)


def books_figures(size: tuple[int, int], layout: str, seconds: float, rounds: int, where: Path) -> dict[str, Any]:
    """Frame times of the live game (games of one round) without the books and with them (a coin a
    second, every game's end counted, the store in `where`), in `rounds` runs of each, interleaved (without-with, then
    with-without, ...) so a loaded machine's changes fall on both alike; then what the store holds
    (every coin and game written) and the syncs the frame thread made (must be 0)."""
    from appliance.operator.store import FILE, Store

    arms: dict[str, list[float]] = {"without": [], "with_books": []}
    load_before = os.getloadavg()
    frame_syncs: list[int] = []
    games_with = coins = 0
    for n in range(rounds):
        for arm in (("without", "with_books") if n % 2 == 0 else ("with_books", "without")):
            books = where if arm == "with_books" else None
            times, games = frame_times(size, layout, seconds / rounds, full=False, options=ONE_ROUND, books=books,
                                       frame_syncs=frame_syncs)
            arms[arm] += times
            if books is not None:
                games_with += games - 1  # (the last one still being played)
                coins += len(times) // 60
    store = Store.open(where / FILE)
    written = {"coins": store.count("coins"), "games": store.count("games")}
    store.close()
    out: dict[str, Any] = {"rounds": rounds, "seconds_each": round(seconds / rounds, 3),
                           "load_before": [round(v, 2) for v in load_before],
                           "load_after": [round(v, 2) for v in os.getloadavg()]}
    for arm, times in arms.items():
        out[arm] = {"frames": len(times), "frame_p50_ms": round(_percentile(times, 0.5), 3),
                    "frame_p99_ms": round(_percentile(times, 0.99), 3), "frame_max_ms": round(max(times), 3)}
    out["with_books"] |= {"coins": coins, "games_ended": games_with, "coins_written": written["coins"],
                          "games_written": written["games"], "frame_thread_fsyncs": sum(frame_syncs)}
    return out


SCENARIOS: dict[str, tuple[str, dict[str, Any] | None]] = {
    "speed": ("speed", None),
    "three_seats": ("classic", {"seats": 3}),
    "four_seats": ("classic", {"seats": 4}),
}


def scenario_figures(size: tuple[int, int], layout: str, seconds: float) -> dict[str, dict[str, float]]:
    """Frame time and uploaded band during Speed and a three- and a four-seat game, as for classic play."""
    out: dict[str, dict[str, float]] = {}
    screen_bytes = size[0] * size[1] * 4
    for name, (variant, options) in SCENARIOS.items():
        bands: list[int] = []
        cpu: list[float] = []
        sizing: list[float] = []
        frames, _ = frame_times(size, layout, seconds, full=False, bands=bands, variant=variant, options=options,
                                cpu=cpu, sizing=sizing)
        changed = [float(b) for b in bands if b] or [0.0]
        out[name] = {
            "frame_p99_ms": round(_percentile(frames, 0.99), 3),
            "frame_cpu_p99_ms": round(_percentile(cpu, 0.99), 3),
            **new_sizes(sizing),
            "band_median_share": round(_percentile(changed, 0.5) / screen_bytes, 3),
            "band_p90_share": round(_percentile(changed, 0.9) / screen_bytes, 3),
        }
    return out


def new_sizes(sizing: list[float]) -> dict[str, Any]:
    """The frames that first made a text size (its font, its letters drawn), and the most CPU time one took."""
    return {"frames_new_text_size": len(sizing), "frames_new_text_size_cpu_max_ms": round(max(sizing, default=0.0), 3)}


def ready_for_play(ctx: Any) -> None:
    from appliance.display.scenes.base import ready_for_play as ready

    ready(ctx)


def press_latencies(size: tuple[int, int], layout: str, seconds: float,
                    new_match: Any = None) -> tuple[list[float], int, int]:
    """The app's own real-time loop (Runner.run); a thread presses player 1's pile keys at random
    moments, as the OS would deliver them; ms from each press to the end of presenting its frame.
    `new_match(n)`: the n-th game's match (bench linked: a linked one); else against the computer."""
    import pygame

    from appliance.display.runner import Runner
    from appliance.display.scenes.play import PlayScene
    from appliance.match import Match, make_bot

    screen = pygame.display.get_surface()
    assert screen is not None, "set a display mode first"
    ctx = _context(size, layout, time.monotonic_ns)
    ctx.tidy_memory = True
    ready_for_play(ctx)  # as the countdown leaves it: every card image drawn, the heap frozen
    keys = [name for name, (player, control) in ctx.keymap.items() if player == 1 and control.startswith("pile")]
    codes = [pygame.key.key_code(name) for name in keys if name != "g"][:5]
    rng = random.Random(3)
    latencies: list[float] = []
    counts = {"posted": 0, "unseen": 0}
    playing = threading.Event()
    stop = threading.Event()

    def new_scene(n: int) -> PlayScene:
        bot = make_bot("2", 2, n)
        match = new_match(n) if new_match is not None else Match(n, time.monotonic_ns(), None,
                                                                   {2: bot} if bot is not None else {})
        scene = PlayScene(ctx, match)
        scene.match.press(time.monotonic_ns(), 1, "spit", "bench")
        return scene

    class TimedRunner(Runner):
        def frame(self, events: Any, now_ns: int) -> list[pygame.Rect]:
            events = list(events)
            pressed = [e for e in events if e.type == pygame.KEYDOWN and hasattr(e, "bench_t")]
            scene = self.scene
            before = len(scene.match.events) if isinstance(scene, PlayScene) else 0
            dirty = super().frame(events, now_ns)
            done = time.monotonic_ns()
            for event in pressed:
                changed = isinstance(scene, PlayScene) and len(scene.match.events) > before
                if dirty and changed:
                    latencies.append((done - event.bench_t) / 1e6)
                else:
                    counts["unseen"] += 1
            now_scene = self.scene
            if not isinstance(now_scene, PlayScene) or now_scene.match.game.phase in ("stalemate", "choosing", "over"):
                playing.clear()
                self.apply_scene(new_scene(self.frames))
            elif now_scene.match.game.phase == "playing":
                playing.set()
            if done >= end:
                self.status = 0
            return dirty

    def presser() -> None:
        while not stop.wait(rng.uniform(0.03, 0.12)):
            if not playing.is_set():
                continue
            key = rng.choice(codes)
            counts["posted"] += 1
            at = time.monotonic_ns()
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0, bench_t=at))
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))

    end = time.monotonic_ns() + int(seconds * 1e9)
    runner = TimedRunner(ctx, new_scene(1), screen)
    thread = threading.Thread(target=presser, daemon=True)
    thread.start()
    try:
        runner.run()
    finally:
        stop.set()
        thread.join(timeout=1)
    return latencies, counts["posted"], counts["unseen"]


PACING_S = 60.0  # a game's length, for the pacing run
OVER_MS = 33.0  # a frame this late is two refreshes: a visible stutter
SERVICE_NICE = -5  # systemd/spit-arcade.service's Nice=
REALTIME_PRIORITY = 10


def pacing_figures(starts_ns: list[int], work_ms: list[float], refresh_hz: float) -> dict[str, float]:
    """Frame pacing from the moments each frame of the loop started: the interval from one frame to
    the next (what a player sees), its p50/p99/max, how many took over 33 ms, how many refreshes
    were missed (an interval of k refresh periods, rounded, misses k-1), and the p99 of the work a
    frame did (events, update, draw, present)."""
    period = 1000.0 / refresh_hz
    intervals = [(later - earlier) / 1e6 for earlier, later in itertools.pairwise(starts_ns)]
    span_s = (starts_ns[-1] - starts_ns[0]) / 1e9 if len(starts_ns) > 1 else 0.0
    return {
        "frames": len(intervals),
        "fps": round(len(intervals) / span_s, 2) if span_s else 0.0,
        "refresh_hz": round(refresh_hz, 2),
        "frame_p50_ms": round(_percentile(intervals, 0.5), 3),
        "frame_p99_ms": round(_percentile(intervals, 0.99), 3),
        "frame_max_ms": round(max(intervals, default=0.0), 3),
        "frames_over_33_ms": sum(1 for i in intervals if i > OVER_MS),
        "missed_vsyncs": sum(max(0, round(i / period) - 1) for i in intervals),
        "work_p99_ms": round(_percentile(work_ms, 0.99), 3),
    }


def scheduling(realtime: bool) -> str:
    """Run as the cabinet's service runs the game (Nice=-5), or (`realtime`) first-in-first-out at
    priority 10, never preempted by ordinary processes: on a machine shared with other work that
    tells the game's own pacing from the waits the others impose. Says what is in effect."""
    if realtime:
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(REALTIME_PRIORITY))
            return f"fifo {REALTIME_PRIORITY}"
        except (OSError, AttributeError) as error:
            print(f"spit-arcade bench render: no real-time scheduling here ({error}); nice instead", file=sys.stderr)
    with contextlib.suppress(OSError):
        os.nice(SERVICE_NICE - os.nice(0))
    return f"nice {os.nice(0)}"


def pacing(
    seconds: float = PACING_S, layout: str = "tabletop", size: tuple[int, int] = (1920, 1080), realtime: bool = False
) -> dict[str, Any]:
    """The game's own loop (Runner.run, 60 frames a second) on the screen opened as `play
    --fullscreen` opens it, through a real video driver (an X server, KMSDRM on the cabinet): the
    computer playing itself at its fastest level for `seconds`, a new game whenever one ends, each
    frame's start and work timed (`pacing_figures`). Refuses SDL's drawing-nowhere drivers: their
    figures say nothing about a screen."""
    import pygame

    from appliance.display.app import INVISIBLE_DRIVERS, DisplayError, open_screen
    from appliance.display.runner import FPS, Runner
    from appliance.display.scenes.base import make
    from appliance.match import Match, make_bot

    if os.environ.get("SDL_VIDEODRIVER") in INVISIBLE_DRIVERS:
        raise DisplayError(
            f"SDL_VIDEODRIVER={os.environ['SDL_VIDEODRIVER']} draws nowhere: frame pacing needs a real video driver "
            "(an X server: DISPLAY=:1 with Xvfb or a desktop; kmsdrm on the cabinet)"
        )
    scheduled = scheduling(realtime)
    screen = open_screen(size, True)
    assert isinstance(screen, pygame.Surface)
    driver = pygame.display.get_driver()
    rate_of = getattr(pygame.display, "get_current_refresh_rate", None)
    refresh = float(rate_of() if rate_of is not None else 0) or float(FPS)
    vsync_of = getattr(pygame.display, "is_vsync", None)
    vsync = bool(vsync_of()) if vsync_of is not None else None
    ctx = _context(screen.get_size(), layout, time.monotonic_ns)
    ctx.tidy_memory = True
    starts: list[int] = []
    work: list[float] = []
    games = [0]

    def new_game() -> Any:
        games[0] += 1
        bots = {p: make_bot("5", p, games[0] * 10 + p) for p in (1, 2)}
        return make("play", ctx, Match(games[0], time.monotonic_ns(), None, bots))

    class PacedRunner(Runner):
        def frame(self, events: Any, now_ns: int) -> list[pygame.Rect]:
            start = time.monotonic_ns()
            starts.append(start)
            dirty = super().frame(events, now_ns)
            if getattr(self.scene, "match", None) is None or self.scene.match.finished:  # type: ignore[attr-defined]
                self.apply_scene(new_game())  # a summary or the game over: the next game at once
            done = time.monotonic_ns()
            work.append((done - start) / 1e6)
            if done >= end:
                self.status = 0
            return dirty

    table = new_game()
    ready_for_play(ctx)
    end = time.monotonic_ns() + int(seconds * 1e9)
    runner = PacedRunner(ctx, table, screen)
    runner.run()
    w, h = screen.get_size()
    return {
        "size": f"{w}x{h}",
        "layout": layout,
        "video_driver": driver,
        "full_screen": True,
        "vsync": vsync,
        "scheduling": scheduled,
        "seconds": seconds,
        "games": games[0],
        **pacing_figures(starts, work, refresh),
    }


def held_figures(size: tuple[int, int], layout: str, seconds: float) -> dict[str, dict[str, float]]:
    """The app's real loop (Runner.run, real time) for `seconds` each: a live game (the computer
    playing itself), then the service menu opened over it (the game held under it). Frames drawn a
    second, and the loop's CPU time as a share of the wall clock (time.thread_time: what the
    loop itself cost, not what waited for a core)."""
    import pygame

    from appliance.display.runner import Runner
    from appliance.display.scenes.base import Push, make
    from appliance.match import Match, make_bot

    ctx = _context(size, layout, time.monotonic_ns)
    screen = pygame.display.get_surface()
    assert screen is not None  # (main opened it)
    out: dict[str, dict[str, float]] = {}
    end = [time.monotonic_ns() + 10**12]  # (set when each timed run starts)

    class TimedRunner(Runner):
        def frame(self, events: Any, now_ns: int) -> list[pygame.Rect]:
            dirty = super().frame(events, now_ns)
            if time.monotonic_ns() >= end[0]:
                self.status = 0
            return dirty

    for name in ("game", "service_menu_over_the_game"):
        bots = {p: make_bot("5", p, 40 + p) for p in (1, 2)}
        table = make("play", ctx, Match(11, time.monotonic_ns(), None, bots))
        ready_for_play(ctx)
        end[0] = time.monotonic_ns() + 10**12
        runner = TimedRunner(ctx, table, screen, present=lambda rects: None)
        runner.ready_said = True
        runner.frame([], time.monotonic_ns())  # the table drawn once, as it was when the menu opened
        if name != "game":
            menu = make("service", ctx)
            menu.hold(table.match)  # type: ignore[attr-defined]
            runner.apply(Push(menu))
        frames = runner.frames
        start, cpu = time.monotonic_ns(), time.thread_time()
        end[0] = start + int(seconds * 1e9)
        runner.run()
        wall = (time.monotonic_ns() - start) / 1e9
        out[name] = {
            "frames_per_s": round((runner.frames - frames) / wall, 1),
            "loop_cpu_share": round((time.thread_time() - cpu) / wall, 3),
        }
    return out


def first_frame_s(size: tuple[int, int], layout: str) -> float:
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    command = [
        sys.executable,
        "-m",
        "appliance.cli",
        "play",
        "--frames",
        "1",
        "--no-journal",
        "--size",
        f"{size[0]}x{size[1]}",
        "--layout",
        layout,
        "--volume",
        "0",
    ]
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade bench render", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--seconds", type=float, help="length of each run (default 8; --pacing: 60)")
    parser.add_argument("--layout", choices=("desktop", "tabletop"), default="tabletop")
    parser.add_argument(
        "--driver",
        help="SDL video driver, e.g. kmsdrm on the cabinet (default: the desktop's, or dummy without one)",
    )
    parser.add_argument(
        "--vsync", action="store_true", help="open as the game does: vsync=1 (and full screen on kmsdrm)"
    )
    parser.add_argument(
        "--pacing",
        action="store_true",
        help="frame pacing through a real video driver: full screen as `play --fullscreen` opens it, the game's "
        f"own loop for --seconds (default {PACING_S:.0f}); p99, frames over {OVER_MS:.0f} ms, missed vsyncs",
    )
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="with --pacing: run first-in-first-out (SCHED_FIFO 10, needs root or CAP_SYS_NICE), unpreempted by "
        "other work on a shared machine (default: Nice=-5, as the cabinet's service)",
    )
    parser.add_argument(
        "--books",
        type=Path,
        metavar="DIR",
        help="only: frame times without the operator's books and with them (a coin a second, game ends "
        "counted, the store in DIR, which must not hold one yet), interleaved in --rounds runs of each",
    )
    parser.add_argument("--rounds", type=int, default=6, help="with --books: runs of each (default 6)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.seconds is not None and not 0 < args.seconds <= 3600:
        parser.error("--seconds must be more than 0 and at most 3600")
    if args.pacing:
        return pacing_main(args)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error("--size must be WIDTHxHEIGHT")
    if w < 320 or h < 240:
        parser.error("--size must be at least 320x240, as the game's")
    if args.seconds is None:
        args.seconds = 8.0
    if args.driver:
        os.environ["SDL_VIDEODRIVER"] = args.driver
    elif not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    pygame.display.init()
    pygame.font.init()
    try:
        if args.vsync:
            fullscreen = pygame.display.get_driver() == "kmsdrm"
            screen = pygame.display.set_mode(
                (0, 0) if fullscreen else (w, h), pygame.FULLSCREEN if fullscreen else 0, vsync=1
            )
            w, h = screen.get_size()
        else:
            pygame.display.set_mode((w, h))
        if args.books is not None:
            if (args.books / "store.sqlite").exists():
                parser.error(f"--books: {args.books} holds a store already; name a new folder")
            args.books.mkdir(parents=True, exist_ok=True)
            found = books_figures((w, h), args.layout, args.seconds, max(1, args.rounds), args.books)
            print_figures({"size": f"{w}x{h}", "layout": args.layout, "video_driver": pygame.display.get_driver(),
                           "store": str(args.books)} | found, args.json)
            return 0
        bands: list[int] = []
        cpu: list[float] = []
        load = [round(v, 2) for v in os.getloadavg()]
        sizing: list[float] = []
        frames, games = frame_times((w, h), args.layout, args.seconds, full=False, bands=bands, cpu=cpu, sizing=sizing)
        full, _ = frame_times((w, h), args.layout, min(args.seconds, 3.0), full=True)
        latencies, posted, unseen = press_latencies((w, h), args.layout, args.seconds)
        scenarios = scenario_figures((w, h), args.layout, min(args.seconds, 5.0))
        held = held_figures((w, h), args.layout, min(args.seconds, 10.0))
        driver = pygame.display.get_driver()
    finally:
        pygame.quit()
    first = first_frame_s((w, h), args.layout)
    screen_bytes = w * h * 4
    changed = [float(b) for b in bands if b]
    result = {
        "size": f"{w}x{h}",
        "layout": args.layout,
        "video_driver": driver,
        "drawing": "software surfaces, redraw only what changed (dirty rectangles)",
        "vsync": bool(args.vsync),
        "frames": len(frames),
        "games": games,
        "frame_p50_ms": round(_percentile(frames, 0.5), 3),
        "frame_p99_ms": round(_percentile(frames, 0.99), 3),
        "frame_cpu_p99_ms": round(_percentile(cpu, 0.99), 3),
        "load": load,
        "frame_max_ms": round(max(frames), 3),
        "frame_full_p99_ms": round(_percentile(full, 0.99), 3),
        **new_sizes(sizing),  # frames that first drew text at a size (0: every size ready before play)
        # the band SDL's KMSDRM path uploads, over the frames that upload anything (a still frame
        # uploads nothing; counting those would flatter the median)
        "band_median_bytes": int(_percentile(changed, 0.5)),
        "band_median_share": round(_percentile(changed, 0.5) / screen_bytes, 3),
        "band_p90_share": round(_percentile(changed, 0.9) / screen_bytes, 3),
        "frames_changed": len(changed),
        "presses": posted,
        "presses_not_shown": unseen,
        "press_to_frame_p50_ms": round(_percentile(latencies, 0.5), 3),
        "press_to_frame_p99_ms": round(_percentile(latencies, 0.99), 3),
        "first_frame_s": round(first, 3),
        "scenarios": scenarios,  # Speed, three and four seats: frame_p99_ms, frame_cpu_p99_ms, the bands
        "held": held,  # the real loop: a live game, and the service menu over it (frames_per_s, loop_cpu_share)
    }
    print_figures(result, args.json)
    return 0


def pacing_main(args: argparse.Namespace) -> int:
    """`bench render --pacing`: the pacing run's figures (exit 1 with a plain reason when there is no
    real video driver to measure through)."""
    from appliance.display.app import DisplayError

    if args.driver:
        os.environ["SDL_VIDEODRIVER"] = args.driver
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print("spit-arcade bench render: --size must be WIDTHxHEIGHT", file=sys.stderr)
        return 2
    import pygame

    try:
        result = pacing(PACING_S if args.seconds is None else args.seconds, args.layout, (w, h), args.realtime)
    except DisplayError as error:
        print(f"spit-arcade bench render --pacing: {error}", file=sys.stderr)
        return 1
    finally:
        pygame.quit()
    print_figures(result, args.json)
    return 0
