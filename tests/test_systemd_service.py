"""The kiosk service starts a command line that `spit-arcade play` accepts, and comes back whatever ends it."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

from appliance.display import app

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "spit-arcade.service"


def unit() -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False)
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    parser.read(UNIT)
    return parser


def test_the_service_runs_play_in_the_kiosk() -> None:
    words = shlex.split(unit()["Service"]["ExecStart"])
    assert words[0].endswith("/.venv/bin/spit-arcade") and words[1] == "play"
    args = app.parse_args(words[2:])
    settings = app.apply_options(app.Settings(), args)
    assert settings.kiosk and args.fullscreen and settings.layout == "tabletop"


def test_the_service_restarts_whatever_ends_it() -> None:
    service = unit()["Service"]
    assert service["Restart"] == "always"
    assert "SPIT_ARCADE_JOURNALS=" in UNIT.read_text()
