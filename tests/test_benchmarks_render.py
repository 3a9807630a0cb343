from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from headless import headless_display

from lab.benchmarks import render


def test_frames_of_a_live_game_are_timed() -> None:
    headless_display((480, 270))
    times, games = render.frame_times((480, 270), "tabletop", 0.5, full=False)
    assert len(times) == 30 and games >= 1 and all(t >= 0 for t in times)


def test_json_report_has_the_figures(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(render, "press_latencies", lambda size, layout, seconds: ([5.0, 7.0, 9.0], 3, 0))
    monkeypatch.setattr(render, "first_frame_s", lambda size, layout: 0.4)
    assert render.main(["--json", "--size", "480x270", "--seconds", "0.2"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"frame_p99_ms", "press_to_frame_p99_ms", "first_frame_s", "band_median_share"} <= set(report)
    assert report["frame_cpu_p99_ms"] > 0 and len(report["load"]) == 3  # (a frame's thread time, and the load)
    assert all(s["frame_cpu_p99_ms"] > 0 for s in report["scenarios"].values())
    assert report["frames_new_text_size"] >= 0
    assert all("frames_new_text_size" in s for s in report["scenarios"].values())
    assert 0 < report["band_median_share"] <= 1
    assert report["press_to_frame_p99_ms"] == 9.0 and report["first_frame_s"] == 0.4
    assert list(report["held"]) == ["game", "service_menu_over_the_game"]  # the real loop, each measured
    assert all(h["frames_per_s"] > 0 and h["loop_cpu_share"] > 0 for h in report["held"].values())


def test_percentile() -> None:
    assert render._percentile([float(v) for v in range(100)], 0.99) == 99.0
    assert render._percentile([3.0], 0.5) == 3.0


def test_the_band_is_from_the_topmost_to_the_bottommost_change_full_width() -> None:
    import pygame

    assert render.band_bytes([], (100, 200)) == 0
    rects = [pygame.Rect(60, 10, 5, 5), pygame.Rect(0, 100, 5, 20)]
    assert render.band_bytes(rects, (100, 200)) == (120 - 10) * 100 * 4


# ------------------------------------------------------------------ frame pacing through a real driver


def test_pacing_figures_count_late_frames_and_missed_refreshes() -> None:
    ms = 1_000_000
    starts = [round(i * 16.667 * ms) for i in range(100)]
    starts = starts[:50] + [t + 34 * ms for t in starts[50:]]  # one frame 50.7 ms after the one before
    work = [1.0] * 99 + [9.0]
    figures = render.pacing_figures(starts, work, 60.0)
    assert figures["frames"] == 99
    assert figures["frames_over_33_ms"] == 1 and figures["missed_vsyncs"] == 2  # 50.7 ms: three refreshes
    assert figures["frame_max_ms"] == pytest.approx(50.667, abs=0.01)
    assert figures["frame_p50_ms"] == pytest.approx(16.667, abs=0.01)
    assert figures["work_p99_ms"] == 9.0
    steady = render.pacing_figures([round(i * 16.667 * ms) for i in range(100)], [1.0] * 100, 60.0)
    assert (steady["frames_over_33_ms"], steady["missed_vsyncs"]) == (0, 0)


def test_pacing_refuses_a_driver_that_draws_nowhere(capsys: pytest.CaptureFixture[str]) -> None:
    import os

    assert os.environ["SDL_VIDEODRIVER"] == "dummy"  # as every test runs (conftest)
    assert render.main(["--pacing", "--seconds", "1"]) == 1
    said = capsys.readouterr().err
    assert "draws nowhere" in said and "Xvfb" in said and "kmsdrm" in said


def test_pacing_through_an_x_server() -> None:
    """The real-driver run end to end, through Xvfb (Debian's `xvfb`) when it is installed."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb): the real-driver run is not measured here")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "640x480x24", "-nolisten", "tcp"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        ready, _, _ = select.select([read], [], [], 20)  # Xvfb writes its display number when it is ready
        assert ready, "Xvfb did not start"
        number = os.read(read, 32).decode().strip()
        env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
        env.update(DISPLAY=f":{number}", SDL_AUDIODRIVER="dummy")
        run = subprocess.run(
            [sys.executable, "-m", "appliance.cli", "bench", "render", "--pacing", "--seconds", "1.5", "--json"],
            env=env, capture_output=True, text=True, timeout=120,
        )
        assert run.returncode == 0, run.stderr
        report = json.loads(run.stdout)
        assert report["video_driver"] == "x11" and report["size"] == "640x480" and report["full_screen"]
        assert report["vsync"] is False  # an X server: the window's own surface, not the whole-screen texture
        assert report["frames"] > 30 and report["games"] >= 1
        assert {"frame_p99_ms", "frames_over_33_ms", "missed_vsyncs", "work_p99_ms"} <= set(report)
    finally:
        os.close(read)
        server.terminate()
        server.wait(timeout=10)


def test_the_books_run_interleaves_both_arms_and_writes_every_coin_off_the_frame(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    headless_display((480, 270))
    assert render.main(["--json", "--size", "480x270", "--seconds", "4", "--rounds", "2",
                        "--books", str(tmp_path / "books")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["without"]["frames"] == report["with_books"]["frames"] == 240  # 2 runs of 2 s each, 60 a second
    books = report["with_books"]
    assert books["coins"] == books["coins_written"] == 4 and books["frame_thread_fsyncs"] == 0
    with pytest.raises(SystemExit):  # a folder that holds a store already: its counts would be wrong
        render.main(["--size", "480x270", "--books", str(tmp_path / "books")])
