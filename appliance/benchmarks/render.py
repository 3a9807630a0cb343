"""`spit-arcade bench render`: how fast the screen draws, answers a press, and starts.

    spit-arcade bench render [--json] [--size 1920x1080] [--seconds 8] [--layout tabletop]
    spit-arcade bench render --driver kmsdrm --vsync     # on the cabinet, as the game opens the screen

- frame_p99_ms: one frame of a live game (computer against computer at its fastest level, cards
  sliding, piles lit) — update, draw, composite, present — 99th percentile, frames run back to back;
  frame_full_p99_ms is the same with every frame repainted in full (what redrawing everything costs).
- press_to_frame_p99_ms: the app's real loop (60 fps, woken early by input); a thread posts key
  presses to SDL's queue at random moments, as the OS would; from each press's moment to the end of
  presenting the first frame that changed because of it.
- band_median_share: on KMSDRM, SDL uploads the band from the topmost to the bottommost changed
  rectangle, full width, every frame, then presents the whole frame: the median of that band over
  the frames of the live game that change anything, as a share of the screen (band_median_bytes
  in bytes at 4 bytes a pixel; band_p90_share, frames_changed beside it).
- first_frame_s: from starting `spit-arcade play --frames 1` in a fresh process to its exit after
  the first frame (an upper bound: it includes the interpreter's start and exit).

Without a display it uses SDL's dummy video and audio drivers (say so in any figure you report).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time
from typing import Any

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
    variant: str = "classic", options: dict[str, Any] | None = None,
) -> tuple[list[float], int]:
    """Frames of a computer-vs-computer game of `variant` in virtual time (16.7 ms a frame), timed
    for real; `bands` (if given) gets each frame's uploaded band in bytes (`band_bytes`)."""
    import pygame

    from appliance.display.runner import Runner
    from appliance.display.scenes.base import make
    from appliance.match import Match, make_bot
    from appliance.rules import read_options

    screen = pygame.display.get_surface()
    assert screen is not None, "set a display mode first"
    now = [0]
    ctx = _context(size, layout, lambda: now[0])
    ctx.tidy_memory = True
    times: list[float] = []
    frames = int(seconds * 60)
    seats = read_options(variant, options).seats
    table = "speed_play" if variant == "speed" else "play"

    def new_game(number: int) -> Any:
        bots = {p: make_bot("5", p, number * 10 + p) for p in range(1, seats + 1)}
        return make(table, ctx, Match(number, now[0], None, bots, variant=variant, options=options))

    games = 1
    scene = new_game(games)
    # as the countdown leaves it: the game's table made, every card image of it drawn, the heap frozen
    ready_for_play(ctx)
    runner = Runner(ctx, scene, screen)
    for _ in range(frames):
        if scene.match.finished:
            games += 1
            scene = new_game(games)
            runner.apply_scene(scene)
        now[0] += 16_666_667
        if full:
            runner.compositor.invalidate()
        start = time.perf_counter()
        dirty = runner.frame(pygame.event.get(), now[0])
        times.append((time.perf_counter() - start) * 1000)
        if bands is not None:
            bands.append(band_bytes(dirty, size))
        if runner.scene is not scene:  # round summary, game over: back to the table
            runner.apply_scene(scene)
    return times, games


SCENARIOS: dict[str, tuple[str, dict[str, Any] | None]] = {
    "speed": ("speed", None),
    "four_seats": ("classic", {"seats": 4}),
}


def scenario_figures(size: tuple[int, int], layout: str, seconds: float) -> dict[str, dict[str, float]]:
    """Frame time and uploaded band during Speed and a four-seat game, as for classic play."""
    out: dict[str, dict[str, float]] = {}
    screen_bytes = size[0] * size[1] * 4
    for name, (variant, options) in SCENARIOS.items():
        bands: list[int] = []
        frames, _ = frame_times(size, layout, seconds, full=False, bands=bands, variant=variant, options=options)
        changed = [float(b) for b in bands if b] or [0.0]
        out[name] = {
            "frame_p99_ms": round(_percentile(frames, 0.99), 3),
            "band_median_share": round(_percentile(changed, 0.5) / screen_bytes, 3),
            "band_p90_share": round(_percentile(changed, 0.9) / screen_bytes, 3),
        }
    return out


def ready_for_play(ctx: Any) -> None:
    from appliance.display.scenes.base import ready_for_play as ready

    ready(ctx)


def press_latencies(size: tuple[int, int], layout: str, seconds: float) -> tuple[list[float], int, int]:
    """The app's own real-time loop (Runner.run); a thread presses player 1's pile keys at random
    moments, as the OS would deliver them; ms from each press to the end of presenting its frame."""
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
        scene = PlayScene(ctx, Match(n, time.monotonic_ns(), None, {2: bot} if bot is not None else {}))
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
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each run (default 8)")
    parser.add_argument("--layout", choices=("desktop", "tabletop"), default="tabletop")
    parser.add_argument(
        "--driver",
        help="SDL video driver, e.g. kmsdrm on the cabinet (default: the desktop's, or dummy without one)",
    )
    parser.add_argument(
        "--vsync", action="store_true", help="open as the game does: vsync=1 (and full screen on kmsdrm)"
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error("--size must be WIDTHxHEIGHT")
    if w < 320 or h < 240:
        parser.error("--size must be at least 320x240, as the game's")
    if not 0 < args.seconds <= 3600:
        parser.error("--seconds must be more than 0 and at most 3600")
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
        bands: list[int] = []
        frames, games = frame_times((w, h), args.layout, args.seconds, full=False, bands=bands)
        full, _ = frame_times((w, h), args.layout, min(args.seconds, 3.0), full=True)
        latencies, posted, unseen = press_latencies((w, h), args.layout, args.seconds)
        scenarios = scenario_figures((w, h), args.layout, min(args.seconds, 5.0))
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
        "frame_max_ms": round(max(frames), 3),
        "frame_full_p99_ms": round(_percentile(full, 0.99), 3),
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
        "scenarios": scenarios,  # Speed and four seats: frame_p99_ms, band_median_share, band_p90_share
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:24} {value}")
    return 0
