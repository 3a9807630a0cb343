"""The command line's answer to bad input: whatever a file, a JSON or TOML text or a number on the
command line holds, every command says what is wrong in one line naming the file and the line or key
and exits with status 2 (a usage error: argparse's usage line, then its one-line error). Never a
traceback. (Each command's own tests hold the rest; the settings and inputs files' battery is
test_check_config.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from appliance import audits, cli, credits, high_scores
from appliance.inputs.config import load_config

ROOT = Path(__file__).resolve().parent.parent
SETUP = '{"setup": {"variant": "classic", "seed": 7}}'
PRESS = '{"t": 0.5, "player": 1, "press": "spit"}'
DEEP_ARRAY = "[" * 100_000
DEEP_OBJECT = '{"a": ' * 100_000


def call(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """A command's exit status (argparse's usage errors too), standard output and standard error."""
    try:
        status = cli.main(argv)
    except SystemExit as leaving:  # argparse's usage error: its one-line message, exit 2
        status = leaving.code if isinstance(leaving.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# --- scripts and journals nested 100,000 deep ------------------------------------------------------


@pytest.mark.parametrize("command", ["script", "replay"])
@pytest.mark.parametrize(
    ("lines", "bad"),
    [([SETUP, DEEP_ARRAY], 2), ([DEEP_ARRAY], 1), ([SETUP, DEEP_OBJECT], 2), ([SETUP, PRESS, DEEP_ARRAY, PRESS], 3)],
    ids=["array-line-2", "array-line-1", "object-line-2", "array-mid-file"],
)
def test_a_script_nested_100000_deep_is_named_by_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, lines: list[str], bad: int
) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text("\n".join(lines) + "\n")
    status, out, err = call([command, str(path)], capsys)
    assert status == 2 and out == ""
    said = f"line {bad}: not JSON this program reads (nested too deeply)"
    if command == "replay" and bad == 1:  # the first line is no setup: no journal at all
        assert one_line(err).startswith(f"spit-arcade replay: {path}: not a journal ({said}): ")
    else:
        assert one_line(err) == f"spit-arcade {command}: {path}: {said}"


def test_a_torn_tail_is_still_a_torn_tail_beside_the_deep_line_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "torn.jsonl"
    path.write_text(f'{SETUP}\n{PRESS}\n{{"t": 0.7, "pla')  # cut off by a power cut: played up to line 2
    status, out, err = call(["replay", str(path)], capsys)
    assert status == 0 and "cut off" in err and len(out.splitlines()) >= 2


# --- the inputs configuration's mock source ---------------------------------------------------------


def mock_inputs(tmp_path: Path, *script_lines: str) -> tuple[Path, Path]:
    script = tmp_path / "presses.jsonl"
    script.write_text("\n".join(script_lines) + "\n")
    inputs = tmp_path / "inputs.toml"
    inputs.write_text(f'sources = ["mock"]\n[mock]\nscript = {json.dumps(str(script))}\n')
    return inputs, script


def test_inputs_with_a_mock_script_naming_an_unknown_control(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs, script = mock_inputs(tmp_path, SETUP, '{"t": 0.1, "player": 1, "press": "jump"}')
    status, out, err = call(["inputs", "--config", str(inputs), "--once", "--settle", "0"], capsys)
    assert status == 2 and out == ""
    line = one_line(err)
    assert line.startswith(f"spit-arcade inputs: {inputs}: mock.script: {script}: line 2: unknown control 'jump'")


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('{"t": 0.1, "player": 1, "press": "jump"}', "unknown control 'jump' for player 1"),
        ('{"t": 0.1, "player": 0, "press": "spit"}', "unknown control 'spit' for player 0"),
        ('{"t": 0.1, "player": 1, "press": "coin"}', "unknown control 'coin' for player 1"),
        ('{"t": 0.1, "player": 7, "press": "spit"}', "player must be 1 to 4"),
        ('{"t": 0.1, "player": true, "press": "spit"}', "player must be 1 to 4"),
        ('{"t": "soon", "player": 1, "press": "spit"}', "t must be a number"),
        ('{"t": 1e999, "player": 1, "press": "spit"}', "t must be a number"),
        ('{"player": 1, "press": "spit"}', "t must be a number"),
        ('{"t": 1, "player": 1, "press": ["spit"]}', "unknown control"),
        ("{'t': 1}", "not JSON (Expecting property name"),
        (DEEP_ARRAY, "not JSON this program reads (nested too deeply)"),
        ('{"t": 1, "player": ' + "9" * 5000 + "}", "not JSON this program reads"),
    ],
    ids=["jump", "cabinet-spit", "player-coin", "player-7", "player-bool", "t-text", "t-inf", "no-t", "list",
         "single-quotes", "deep", "huge-int"],
)
def test_every_bad_mock_script_line_is_named_and_play_keeps_going(tmp_path: Path, line: str, words: str) -> None:
    inputs, script = mock_inputs(tmp_path, SETUP, PRESS, line)
    config = load_config(inputs, strict=False)  # what play reads: the problem named, the rest kept
    assert [(p.file, p.key) for p in config.problems] == [(str(inputs), "mock.script")]
    message = config.problems[0].message
    assert message.startswith(f"{script}: line 3: {words}"), message
    assert config.mock_presses == [] and config.sources == ["mock"]


def test_a_mock_script_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    inputs = tmp_path / "inputs.toml"
    for target, words in ((tmp_path / "missing.jsonl", "cannot read"), (tmp_path, "cannot read")):
        inputs.write_text(f"[mock]\nscript = {json.dumps(str(target))}\n")
        problems = load_config(inputs, strict=False).problems
        assert [p.key for p in problems] == ["mock.script"] and words in problems[0].message
    (tmp_path / "latin1.jsonl").write_bytes(b'{"t": 1, "player": 1, "press": "spit"} \xe9\n')
    inputs.write_text(f"[mock]\nscript = {json.dumps(str(tmp_path / 'latin1.jsonl'))}\n")
    assert "not UTF-8" in load_config(inputs, strict=False).problems[0].message


def test_a_right_mock_script_is_played(tmp_path: Path) -> None:
    inputs, _ = mock_inputs(tmp_path, SETUP, PRESS, '{"t": 0.75, "player": 0, "press": "start"}')
    assert load_config(inputs).mock_presses == [(0.5, 1, "spit"), (0.75, 0, "start")]


@pytest.mark.parametrize("kiosk", [False, True], ids=["desktop", "kiosk"])
def test_play_with_a_mock_script_naming_an_unknown_control_names_it(tmp_path: Path, kiosk: bool) -> None:
    """On a desktop `play --inputs` stops with exit 2, as `inputs --config` does; the cabinet's kiosk
    names it (on stderr, and on its screen) and plays on: systemd must not restart it for ever."""
    inputs, script = mock_inputs(tmp_path, SETUP, '{"t": 0.1, "player": 1, "press": "jump"}')
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    result = subprocess.run(
        [sys.executable, "-m", "appliance.cli", "play", "--inputs", str(inputs), "--no-journal", "--frames", "2",
         "--size", "320x240", *(["--kiosk"] if kiosk else [])],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert "Traceback" not in result.stderr and result.returncode == (0 if kiosk else 2), result.stderr
    named = [line for line in result.stderr.splitlines() if "mock.script" in line]
    assert len(named) == 1 and named[0].startswith(f"spit-arcade play: {inputs}: mock.script: {script}: line 2")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(
        st.one_of(
            st.text(max_size=30),
            st.fixed_dictionaries(
                {"press": st.one_of(st.sampled_from(["spit", "left", "start", "coin", "jump"]), st.integers())},
                optional={
                    "t": st.one_of(st.floats(allow_nan=True), st.integers(), st.text(max_size=3), st.none()),
                    "player": st.one_of(st.integers(min_value=-2, max_value=6), st.booleans(), st.text(max_size=2)),
                },
            ).map(json.dumps),
        ),
        max_size=5,
    )
)
def test_any_mock_script_is_read_or_named_never_raised(tmp_path: Path, lines: list[str]) -> None:
    inputs, _ = mock_inputs(tmp_path, *lines)
    config = load_config(inputs, strict=False)
    assert {p.key for p in config.problems} <= {"mock.script"}
    assert config.mock_presses is not None
    if config.problems:
        assert config.mock_presses == []


# --- TOML and JSON nested too deeply, wherever the program reads them -------------------------------


@pytest.mark.parametrize("text", ["a = " + "[" * 100_000, "a = " + "{b = " * 100_000, "a = " + "[" * 600 + "]" * 600])
def test_check_config_names_toml_nested_too_deeply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(text)
    status, out, _ = call(["check-config", "--config", str(path), "--inputs", str(path)], capsys)
    assert status == 2
    assert out.splitlines() == [
        f"{path}: not TOML this program reads (nested too deeply); using the built-in settings",
        f"{path}: not TOML this program reads (nested too deeply); using the packaged default",
    ]


@pytest.mark.parametrize("command", [["simulate", "--games", "1"], ["bench", "rules", "--presses", "10"]])
@pytest.mark.parametrize(
    ("options", "words"),
    [(DEEP_ARRAY, "nested too deeply"), ("[" * 500 + "]" * 500, "must be a JSON object"),
     ('{"decks": ' + "9" * 5000 + "}", "not JSON this program reads")],
    ids=["deep", "nested-list", "huge-int"],
)  # fmt: skip
def test_options_nested_too_deeply_are_a_usage_error(
    capsys: pytest.CaptureFixture[str], command: list[str], options: str, words: str
) -> None:
    status, out, err = call([*command, "--options", options], capsys)
    assert status == 2 and out == "" and words in err.splitlines()[-1]


@pytest.mark.parametrize("text", [DEEP_ARRAY, '{"credits": ' + "[" * 100_000, "[" * 500 + "]" * 500])
def test_state_files_nested_too_deeply_read_as_fresh(tmp_path: Path, text: str) -> None:
    for name in ("credits.json", "audits.json", "high_scores.json"):
        (tmp_path / name).write_text(text)
    assert audits.load_audits(tmp_path / "audits.json") == audits.Audits()
    assert high_scores.load(tmp_path / "high_scores.json") == high_scores.HighScores()
    bank = credits.CreditBank.load(tmp_path / "credits.json")
    assert bank.credits == 0 and bank.problem and "not a credits file" in bank.problem


# --- numbers the commands cannot run with ------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", "--games", "1", "--seed", "-1"], "--seed must be a whole number"),
        (["simulate", "--games", "2", "--seed", str(2**63 - 1)], "--seed must be a whole number"),
        (["bench", "inputs", "--presses", "0"], "--presses must be at least 1"),
        (["bench", "inputs", "--trials", "0"], "--trials must be at least 1"),
        (["bench", "inputs", "--corrupt-rate", "nan"], "--corrupt-rate must be from 0 to 1"),
        (["bench", "inputs", "--only", "gpio,nope"], "unknown part(s) nope"),
        (["bench", "render", "--size", "0x0"], "--size must be at least 320x240"),
        (["bench", "render", "--seconds", "-1"], "--seconds must be more than 0 and at most 3600"),
        (["bench", "resume", "--kills", "-1"], "--kills must be at least 1"),
        (["bench", "resume", "--max-delay", "-1"], "--max-delay must be from 0 to 60"),
        (["bench", "resume", "--tear-every", "-2"], "--tear-every must be 0 (never) or more"),
        (["inputs", "--once", "--settle", "-1"], "--settle must be from 0 to 60"),
        (["inputs", "--interval", "0"], "--interval must be from 0.01 to 60"),
        (["pad-emulator", "--to-pad-delay", "abc"], "expected BASE_MS,MEAN_MS"),
        (["pad-emulator", "--to-host-delay", "5,-1"], "each delay must be from 0 to 10000 ms"),
        (["pad-emulator", "--pad-id", "256"], "--pad-id must be from 0 to 255"),
        (["pad-emulator", "--keep", "0"], "--keep must be from 1 to 65535"),
        (["pad-emulator", "--corrupt", "150"], "--corrupt must be a percentage"),
    ],
)
def test_numbers_a_command_cannot_run_with_are_a_usage_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    status, out, err = call(argv, capsys)
    assert status == 2 and out == ""
    assert words in err.splitlines()[-1] and "Traceback" not in err


def test_a_journal_directory_that_cannot_be_made_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    status, out, err = call(["simulate", "--games", "1", "--journal-dir", str(blocker / "journals")], capsys)
    assert status == 2 and out == "" and f"--journal-dir: cannot make {blocker / 'journals'}" in err


def test_a_pad_link_that_cannot_be_made_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    link = tmp_path / "no" / "such" / "dir" / "pad"
    status, out, err = call(["pad-emulator", "--link", str(link)], capsys)
    assert status == 2 and out == ""
    assert one_line(err).startswith(f"spit-arcade pad-emulator: --link {link}: cannot make the link")


# --- any script at all ---------------------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8,
)
press_lines = st.fixed_dictionaries(
    {},
    optional={
        "t": st.one_of(st.floats(min_value=0, max_value=30), json_values),
        "player": st.one_of(st.integers(min_value=0, max_value=5), json_values),
        "press": st.one_of(st.sampled_from(["spit", "left", "right", "pile1", "slap", "jump"]), json_values),
        "state": json_values,
    },
).map(json.dumps)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(st.one_of(press_lines, st.text(max_size=20), st.just(DEEP_ARRAY)), max_size=6),
    command=st.sampled_from(["script", "replay"]),
)
def test_any_script_plays_or_is_named_never_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], command: str
) -> None:
    path = tmp_path / "any.jsonl"
    path.write_text("\n".join([SETUP, *lines]) + "\n", encoding="utf-8")
    status, out, err = call([command, str(path)], capsys)
    assert status in (0, 1, 2)
    if status == 2:
        assert out == "" and one_line(err).startswith(f"spit-arcade {command}: {path}: line ")


@pytest.mark.parametrize(
    ("argv", "first_line"),
    [
        (["pley"], "spit-arcade: unknown command 'pley' (did you mean 'play'?)"),
        (["check_config"], "spit-arcade: unknown command 'check_config' (did you mean 'check-config'?)"),
        (["simualte"], "spit-arcade: unknown command 'simualte' (did you mean 'simulate'?)"),
        (["xyzzy"], "spit-arcade: unknown command 'xyzzy'"),
        (["bench", "rulse"], "spit-arcade bench: unknown benchmark 'rulse' (did you mean 'rules'?)"),
    ],
)
def test_a_mistyped_command_gets_did_you_mean(
    capsys: pytest.CaptureFixture[str], argv: list[str], first_line: str
) -> None:
    status, out, err = call(argv, capsys)
    assert status == 2 and out == "" and err.splitlines()[0] == first_line


def test_options_alone_are_plays_as_the_readme_says(tmp_path: Path) -> None:
    """`./spit --config FILE` (the wrapper hands every argument on): play, with that file."""
    config = tmp_path / "mine.toml"
    config.write_text('layout = "sideways"\n')
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_CONFIG_HOME=str(tmp_path),
               XDG_DATA_HOME=str(tmp_path))
    result = subprocess.run([sys.executable, "-m", "appliance.cli", "--config", str(config), "--frames", "1"],
                            env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert f"spit-arcade play: {config}: layout: must be one of desktop, tabletop" in result.stderr


def test_options_alone_go_to_play(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[tuple[str, list[str]]] = []
    monkeypatch.setattr(cli, "_call", lambda target, argv: called.append((target, argv)) or 0)
    assert cli.main(["--config", "x.toml", "--fullscreen"]) == 0
    assert cli.main(["--help"]) == 0  # still the command's own help
    assert called == [("appliance.display.app:main", ["--config", "x.toml", "--fullscreen"])]
