from __future__ import annotations

import json

import pytest
from headless import headless_display

from appliance.benchmarks import render


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
    assert 0 < report["band_median_share"] <= 1
    assert report["press_to_frame_p99_ms"] == 9.0 and report["first_frame_s"] == 0.4


def test_percentile() -> None:
    assert render._percentile([float(v) for v in range(100)], 0.99) == 99.0
    assert render._percentile([3.0], 0.5) == 3.0


def test_the_band_is_from_the_topmost_to_the_bottommost_change_full_width() -> None:
    import pygame

    assert render.band_bytes([], (100, 200)) == 0
    rects = [pygame.Rect(60, 10, 5, 5), pygame.Rect(0, 100, 5, 20)]
    assert render.band_bytes(rects, (100, 200)) == (120 - 10) * 100 * 4
