"""`spit-arcade check-config`, and the bad-input battery: whatever is in config.toml or inputs.toml
(typos, wrong types, NaN, infinity, huge numbers, wrong tables, binary junk, nothing, a file that
cannot be read), nothing raises, every problem names its file and key, and `play` starts anyway
with the built-in default for what is wrong."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from appliance import check_config, cli
from appliance.check_config import check_files
from appliance.display.keys import amend_keymap, default_keymap
from appliance.inputs.config import load_config
from appliance.inputs.keyboard import KeyboardSource
from appliance.shared.checks import Problem, key_name
from appliance.shared.settings import LAYOUTS, SETTINGS, load_settings

ROOT = Path(__file__).resolve().parent.parent
GOOD_CONFIG = 'layout = "tabletop"\nvolume = 0.3\n[keys]\nz = "1 pile1"\n'


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(["check-config", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_right_files_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text(GOOD_CONFIG)
    status, out, _ = run(["--config", str(config)], capsys)  # inputs: the packaged default
    assert status == 0 and out == f"no problems: checked {config} and the packaged inputs configuration\n"


def test_the_files_checked_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    inputs = tmp_path / "inputs.toml"
    inputs.write_text("[gpio]\nlatency_ms = inf\n")
    monkeypatch.setenv("SPIT_INPUTS", str(inputs))
    default = tmp_path / "spit-arcade" / "config.toml"
    status, _, err = run([], capsys)
    assert status == 2 and err == (f"1 problem(s); checked the built-in settings (no file at {default}) and {inputs}; "
                                   "`spit-arcade play` uses the built-in default for each\n")
    default.parent.mkdir()
    default.write_text(GOOD_CONFIG)
    inputs.write_text("")
    assert run([], capsys)[:2] == (0, f"no problems: checked {default} and {inputs}\n")


def test_every_problem_is_printed_with_file_and_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('volum = 0.5\nidle_timeout_s = nan\n[keys]\nretrun = "0 start"\n')
    inputs = tmp_path / "inputs.toml"
    inputs.write_text('sourcez = ["gpio"]\n[debounce]\nbuton_ms = 5\n[gpio]\npull_up = "no"\n')
    status, out, err = run(["--config", str(config), "--inputs", str(inputs)], capsys)
    assert status == 2 and "6 problem(s)" in err
    assert out.splitlines() == [
        f"{config}: volum: unknown setting (did you mean 'volume'?); ignored",
        f"{config}: idle_timeout_s: must be a number from 10 to 86400 seconds, not nan; using 90",
        f"{config}: keys.retrun: unknown key name 'retrun' (names as pygame gives them: q, return, f2); ignored",
        f"{inputs}: sourcez: unknown key (did you mean 'sources'?); ignored",
        f"{inputs}: debounce.buton_ms: unknown key (did you mean 'button_ms'?); ignored",
        f"{inputs}: gpio.pull_up: must be true or false, not 'no'; using true",
    ]


def test_cabinet_checks_the_service_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "inputs.toml"
    inputs.write_text("[gpio]\nlatency_ms = inf\n")
    monkeypatch.setattr(check_config, "CABINET_CONFIG", tmp_path / "none.toml")  # no settings file: fine
    monkeypatch.setattr(check_config, "CABINET_INPUTS", inputs)
    status, out, _ = run(["--cabinet"], capsys)
    assert status == 2 and out == f"{inputs}: gpio.latency_ms: must be a number from 0 to 100, not inf; using 2\n"


# --- the battery -----------------------------------------------------------------------------------

CONFIG_CASES = [
    "",
    "\n\n# only a comment\n",
    "volume = nan",
    "volume = inf",
    "volume = -inf",
    "volume = 1e999",
    "idle_timeout_s = 123456789012345678901234567890",
    "idle_timeout_s = 0",
    'volume = "0.5"',
    "assist = 1",
    "kiosk = []",
    "layout = {}",
    "layout = 3",
    "journal_dir = 5",
    "[volume]\nx = 1",
    "[keys.z]\nplayer = 1",
    "keys = []",
    '[keys]\n"" = "1 spit"',
    '[keys]\n"\\u0000" = "1 spit"',
    '[keys]\nz = "1 pile1 extra"',
    '[keys]\nz = "99999999999999999999 spit"',
    '[keys]\nz = ["1", "spit"]',
    '[keys]\nreturn = "1 spit"\nf2 = "0 start"',
    "[[keys]]\nz = 1",
    "[layout]",
    "colour = 1\nvolum = 2\nasist = true\nfour_color = true\nkiosc = true\nidle_timeout = 5",
    "layout = ",
    "= 1",
    "[[[",
]

INPUTS_CASES = [
    "",
    "sources = []",
    'sources = ["gpio", "gpio", 1, true, {}]',
    "sources = {gpio = true}",
    '[[sources]]\nname = "gpio"',
    "merge = []",
    "[merge]\nmax_window_ms = nan",
    "[merge]\nmax_window_ms = -0.0",
    "[debounce]\nbutton_ms = inf\npad_ms = -inf\nstuck_s = nan",
    "[debounce]\npads = \"left\"",
    "[debounce]\npads = [1, 2]",
    "[gpio]\npull_up = 0",
    "gpio = 4",
    "[gpio.player1]\nleft = true",
    "[gpio.player1]\nleft = 4.0",
    "[gpio.player1]\nleft = -1",
    "[gpio.player1]\nleft = 99999999999999999999999",
    "[gpio.player1]\nleft = {}",
    '[gpio.player1]\nleft = { pin = "13" }',
    "[gpio.player1]\nleft = { pin = 13, stuck_s = 0 }",
    "[gpio.player3]\nleft = 13",
    "gpio.player1 = 3",
    "[[gpio.player1]]\nleft = 3",
    "[keyboard]\nkeys = 5",
    "keyboard = 5",
    '[keyboard.keys]\n"" = "1 spit"',
    '[keyboard.keys]\nz = 5',
    '[keyboard.keys]\nz = "7 spit"',
    '[keyboard.keys]\nz = "1 start"',
    "[serial]\nport = 1",
    "serial = [1, 2]",
    '[[serial]]\nport = ""\nplayer = 1',
    '[[serial]]\nport = "/dev/ttyACM0"\nplayer = true',
    '[[serial]]\nport = "/dev/ttyACM0"\nplayer = 1\nbaudrate = 1e9',
    '[[serial]]\nport = "/dev/ttyACM0"\nplayer = 1\nsilence_ms = inf\nlatency_ms = nan\nlockout_ms = 1e308',
    '[mock]\nscript = "\\u0000"',
    "mock = []",
    "sources = [",
]

JUNK = [b"\x00" * 64, bytes(range(256)), b"\xef\xbb\xbfvolume = 0.5", b"\xff\xfe\xfd", "é = 1".encode("latin-1")]


def check_sane(path: Path, problems: list[Problem], data: dict[str, Any] | None) -> None:
    """Each problem names this file, and a key that is in it (or "" for the whole file)."""
    for problem in problems:
        assert problem.file == str(path)
        assert problem.message and str(problem).startswith(str(path) + ": ")
        if data is None:
            assert problem.key == "", problem
        else:
            names = [key_name(k) for k in data]
            assert any(problem.key == n or problem.key.startswith((n + ".", n + "[")) for n in names), problem


def parsed(path: Path) -> dict[str, Any] | None:
    import tomllib

    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except (ValueError, OSError):
        return None


def check_settings_file(path: Path) -> None:
    settings = load_settings(path)
    data = parsed(path)
    check_sane(path, settings.warnings, data)
    if data is not None:  # nothing unknown or wrong goes unreported
        unknown = [key_name(k) for k in data if k not in SETTINGS]
        assert {p.key for p in settings.warnings} >= set(unknown)
    assert settings.layout in LAYOUTS and math.isfinite(settings.volume) and 0 <= settings.volume <= 1
    assert math.isfinite(settings.idle_timeout_s) and 10 <= settings.idle_timeout_s <= 86400
    assert all(isinstance(v, bool) for v in (settings.assist, settings.four_colour, settings.kiosk))
    keymap = amend_keymap(default_keymap(), settings.keys)
    assert (0, "start") in keymap.values()
    KeyboardSource(keymap)  # every key name is one pygame knows


def check_inputs_file(path: Path) -> None:
    config = load_config(path, strict=False)
    check_sane(path, config.problems, parsed(path))
    pins = [c.pin for c in config.gpio]
    assert len(pins) == len(set(pins)) and all(0 <= p <= 27 for p in pins)
    for control in config.gpio:
        assert 0 <= control.timing.lockout_ns <= 500_000_000 and control.timing.stuck_ns >= 500_000_000
    assert 0 <= config.max_window_ns <= 5_000_000
    assert all(isinstance(pad.port, str) and pad.port and pad.player in (1, 2) for pad in config.serial)
    KeyboardSource(config.keymap)


@pytest.mark.parametrize("text", CONFIG_CASES)
def test_no_config_file_raises(tmp_path: Path, text: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    check_settings_file(path)


@pytest.mark.parametrize("text", INPUTS_CASES)
def test_no_inputs_file_raises(tmp_path: Path, text: str) -> None:
    path = tmp_path / "inputs.toml"
    path.write_text(text)
    check_inputs_file(path)


@pytest.mark.parametrize("junk", JUNK)
def test_binary_junk_is_named_not_fatal(tmp_path: Path, junk: bytes) -> None:
    for name, check in (("config.toml", check_settings_file), ("inputs.toml", check_inputs_file)):
        path = tmp_path / name
        path.write_bytes(junk)
        check(path)


def test_files_that_cannot_be_read_are_named(tmp_path: Path) -> None:
    directory = tmp_path / "a-directory.toml"
    directory.mkdir()
    dangling = tmp_path / "dangling.toml"
    dangling.symlink_to(tmp_path / "gone")
    for path in (directory, dangling, tmp_path / "missing.toml"):
        problems = check_files(path, path)
        assert [(p.file, p.key) for p in problems] == [(str(path), ""), (str(path), "")]
        check_settings_file(path)
        check_inputs_file(path)


# Random documents: keys known, nearly known and made up; values of every TOML type.
SETTING_KEYS = [*SETTINGS, "volum", "layuot", "Keys", "x"]
INPUT_KEYS = [
    "sources", "merge", "debounce", "gpio", "keyboard", "serial", "mock", "max_window_ms", "button_ms", "pad_ms",
    "pads", "stuck_s", "pull_up", "latency_ms", "player1", "player2", "cabinet", "pile1", "left", "start", "pin",
    "lockout_ms", "keys", "port", "player", "baudrate", "silence_ms", "script", "q", "return", "sourcez",
]  # fmt: skip
scalars = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["gpio", "serial", "1 pile1", "0 start", "2 spit", "", "tabletop", "/dev/ttyACM0", "q"]),
)


def documents(keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    names = st.one_of(st.sampled_from(keys), st.text(max_size=6))
    values = st.recursive(
        scalars,
        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(names, inner, max_size=4)),
        max_leaves=12,
    )
    return st.dictionaries(names, values, max_size=6)


def toml(value: Any) -> str:
    """A value as TOML (inline tables and arrays only: any document fits on one line a key)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml(v)}" for k, v in value.items()) + "}"


def write_document(path: Path, document: dict[str, Any]) -> None:
    path.write_text("".join(f"{json.dumps(k)} = {toml(v)}\n" for k, v in document.items()), encoding="utf-8")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=documents(SETTING_KEYS))
def test_any_settings_document(tmp_path: Path, document: dict[str, Any]) -> None:
    path = tmp_path / "config.toml"
    write_document(path, document)
    check_settings_file(path)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=documents(INPUT_KEYS))
def test_any_inputs_document(tmp_path: Path, document: dict[str, Any]) -> None:
    path = tmp_path / "inputs.toml"
    write_document(path, document)
    check_inputs_file(path)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(junk=st.binary(max_size=200))
def test_any_bytes(tmp_path: Path, junk: bytes) -> None:
    for name, check in (("config.toml", check_settings_file), ("inputs.toml", check_inputs_file)):
        path = tmp_path / name
        path.write_bytes(junk)
        check(path)


# --- the cabinet's play starts whatever the files say (it must not restart for ever on a black screen) --


@pytest.mark.parametrize(
    ("config", "inputs"),
    [
        ('layout = "sideways"\nvolume = nan\n[keys]\nretrun = "0 start"\nreturn = "1 spit"', "sourcez = 1"),
        ("[[[", "[gpio.player1]\nleft = { pin = 13, lockout_ms = inf }\n[debounce]\nbuton_ms = 5"),
        ('keys = 5\nidle_timeout_s = 1e999', "\x00\x01junk"),
    ],
)
def test_play_starts_with_bad_files_and_names_each_problem(tmp_path: Path, config: str, inputs: str) -> None:
    config_path, inputs_path = tmp_path / "config.toml", tmp_path / "inputs.toml"
    config_path.write_text(config)
    inputs_path.write_text(inputs)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_DATA_HOME=str(tmp_path / "data"))
    args = ["--config", str(config_path), "--inputs", str(inputs_path), "--sources", "mock", "--no-journal", "--kiosk"]
    result = subprocess.run(
        [sys.executable, "-m", "appliance.cli", "play", *args, "--frames", "2", "--size", "320x240"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    expected = [f"spit-arcade play: {p}" for p in check_files(config_path, inputs_path)]
    said = result.stderr.splitlines()
    assert expected and [line for line in said if line in expected] == expected  # each problem, once, in order


def test_the_coin_and_credit_keys_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('free_play = "no"\ncredits_per_game = 10\n[keys]\nf3 = "0 coins"\n')
    inputs = tmp_path / "inputs.toml"
    inputs.write_text("[debounce]\ncoin_ms = 0\n[gpio.cabinet]\nstart = 10\ncoin = 10\n")
    status, out, _ = run(["--config", str(config), "--inputs", str(inputs)], capsys)
    assert status == 2
    assert out.splitlines() == [
        f"{config}: keys.f3: player 0 has start, service, coin, not 'coins'; ignored",
        f"{config}: free_play: must be true or false, not 'no'; using true",
        f"{config}: credits_per_game: must be a whole number from 1 to 9, not 10; using 1",
        f"{inputs}: debounce.coin_ms: must be a number from 5 to 500, not 0; using 50",
        f"{inputs}: gpio.cabinet.coin: BCM pin 10 is used twice (by gpio.cabinet.start too); not wired",
    ]
    config.write_text('free_play = false\ncredits_per_game = 2\n[keys]\n5 = "0 coin"\n')
    inputs.write_text("[debounce]\ncoin_ms = 80\n[gpio.cabinet]\ncoin = { pin = 18, stuck_s = 1 }\n")
    assert run(["--config", str(config), "--inputs", str(inputs)], capsys)[:2] == (
        0, f"no problems: checked {config} and {inputs}\n")
