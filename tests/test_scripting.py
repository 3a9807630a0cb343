"""`spit-arcade script` and `replay`: the format, ordering by t, bad input, determinism."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from positions import position

from appliance.cli import main
from appliance.journal import Journal
from appliance.rules import Game
from appliance.scripting import ScriptError, parse_script, run
from lab.random_play import random_game

SETUP = '{"setup": {"variant": "classic", "seed": 7}}'


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def write(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_script_prints_events_then_the_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SETUP, '{"t": 0.1, "player": 1, "press": "spit"}',
                 '{"t": 0.2, "player": 2, "press": "spit"}')
    code, out, err = run_cli(capsys, "script", path)
    assert code == 0 and err == ""
    lines = [json.loads(line) for line in out]
    assert [line.get("event") for line in lines[:-1]] == ["deal", "call", "call", "reveal", "reveal"]
    assert all("t" in line for line in lines[:-1])
    assert lines[-1]["state"]["phase"] == "playing"


def test_presses_apply_in_order_of_t_and_equal_t_in_file_order(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SETUP, '{"t": 0.3, "player": 2, "press": "spit"}',
                 '{"t": 0.1, "player": 1, "press": "spit"}',
                 '{"t": 0.3, "player": 1, "press": "pile2"}')
    _, out, _ = run_cli(capsys, "script", path)
    events = [json.loads(line) for line in out[:-1]]
    assert [(e["t"], e["event"], e.get("player")) for e in events[1:4]] == [
        (0.1, "call", 1), (0.3, "call", 2), (0.3, "reveal", 1)]
    assert events[-1]["event"] in ("select", "flip")
    assert events[-1]["player"] == 1


def test_script_reads_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(SETUP + "\n"))
    code, out, _ = run_cli(capsys, "script", "-")
    assert code == 0 and json.loads(out[-1])["state"]["round"] == 1


def test_the_same_script_gives_byte_identical_output(tmp_path: Path) -> None:
    lines = [SETUP]
    for (t, player, control), _ in random_game(3, max_presses=3000):
        lines.append(json.dumps({"t": t, "player": player, "press": control}))
    path = write(tmp_path, *lines)
    runs = [subprocess.run([sys.executable, "-m", "appliance.cli", "script", path], capture_output=True,
                           check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1] and len(runs[0].splitlines()) > 3000


@pytest.mark.parametrize(("lines", "line", "words"), [
    ([SETUP, "{not json"], 2, "not JSON"),
    ([SETUP, '{"player": 1, "press": "spit"}'], 2, "missing t"),
    ([SETUP, '{"t": 1, "player": 3, "press": "spit"}'], 2, "unknown player 3"),
    ([SETUP, '{"t": 1, "player": 1, "press": "kick"}'], 2, "unknown control 'kick'"),
    ([SETUP, '{"t": "soon", "player": 1, "press": "spit"}'], 2, "t must be a number"),
    ([SETUP, '{"t": -1, "player": 1, "press": "spit"}'], 2, "t must be a number"),
    ([SETUP, '{"t": 1, "press": "spit"}'], 2, "missing player"),
    ([SETUP, '{"t": 1, "player": 1}'], 2, "missing press"),
    ([SETUP, '{"t": 1, "player": 1, "press": "spit"}', "[1, 2]"], 3, "a press must be a JSON object"),
    (['{"t": 1, "player": 1, "press": "spit"}'], 1, "first line must be the setup"),
    (['{"setup": {"variant": "mod-spitz", "seed": 1}}'], 1, "unknown variant 'mod-spitz'"),
    (['{"setup": {"variant": "classic", "seed": "x"}}'], 1, "seed must be a whole number"),
], ids=["not-json", "missing-t", "bad-player", "bad-control", "t-text", "t-negative", "no-player", "no-press",
        "not-object", "no-setup", "bad-variant", "bad-seed"])
def test_bad_input_names_the_line_prints_no_state_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], line: int, words: str) -> None:
    code, out, err = run_cli(capsys, "script", write(tmp_path, *lines))
    assert code == 2
    assert out == []
    assert f"line {line}:" in err and words in err


def test_a_setup_whose_cards_do_not_add_up_names_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = position(["5H", "", "", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD"), p1_spit="2S", p2_spit="3S")
    state["spit_piles"][0].remove("KS")  # missing
    state["players"][1]["spit_cards"].append("5H")  # duplicate
    code, out, err = run_cli(capsys, "script", write(tmp_path, json.dumps({"setup": {"variant": "classic",
                                                                                      "state": state}})))
    assert code == 2 and out == []
    assert "line 1:" in err and "missing KS" in err and "duplicate 5H" in err


def test_bad_input_from_a_file_that_is_not_there(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "script", "/nonexistent/game.jsonl")
    assert code == 2 and out == [] and "cannot read" in err


def test_replay_of_a_journal_ends_in_the_recorded_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.jsonl"
    from appliance.rules import Game
    game, _ = Game.new(seed=9)
    with Journal(path, {"variant": "classic", "seed": 9}) as journal:
        for (t, player, control), _ in random_game(9, max_presses=2000):
            game.press(journal.record(t, player, control, source="test"), player, control)
        journal.finish(game.state())
    code, out, err = run_cli(capsys, "replay", str(path))
    assert code == 0, err
    assert json.loads(out[-1]) == {"state": game.state()}
    said = f"spit-arcade replay: {path}: matched: the replay ends in the state the live game had"
    assert err.splitlines()[-1] == said


def test_replay_says_so_when_the_recorded_state_differs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SETUP, '{"t": 0.1, "player": 1, "press": "spit"}',
                 json.dumps({"state": {"phase": "over"}}))
    code, _, err = run_cli(capsys, "replay", path)
    assert code == 1 and err.splitlines()[-1] == (
        f"spit-arcade replay: {path}: did NOT match: the game does not end in the state its closing line recorded")


def test_replay_of_an_unfinished_journal_says_there_is_nothing_to_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SETUP, '{"t": 0.1, "player": 1, "press": "spit"}')
    code, _, err = run_cli(capsys, "replay", path)
    assert code == 0 and err.splitlines()[-1].startswith(f"spit-arcade replay: {path}: no closing state line")
    assert run_cli(capsys, "script", path)[2] == ""  # a script is no replay: nothing said


@pytest.mark.parametrize("text", ['volume = 0.3\n[keys]\nz = "1 pile1"\n', "\n\n# a comment\nlayout = 1\n",
                                  '{"state": {}}\n', '{"t": 1, "player": 1, "press": "spit"}\n', "[1, 2]\n"])
def test_replay_of_a_file_that_is_not_a_journal_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    code, out, err = run_cli(capsys, "replay", str(path))
    assert (code, out) == (2, [])
    [line] = err.splitlines()
    assert line.startswith(f"spit-arcade replay: {path}: not a journal (line ")
    assert line.endswith("a journal's first line is its game's setup, as `play` writes them "
                         "(in ~/.local/share/spit-arcade/journals/ unless set otherwise)")


def test_a_finished_journal_runs_as_a_script_and_its_closing_line_is_checked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = parse_script([SETUP, '{"state": {}}'])
    assert script.final_state == {} and script.presses == []
    with pytest.raises(ScriptError, match="line 3: nothing may follow"):
        parse_script([SETUP, '{"state": {}}', '{"t": 1, "player": 1, "press": "spit"}'])
    path = tmp_path / "journal.jsonl"
    with Journal(path, {"variant": "classic", "seed": 7}) as journal:
        journal.record(0.1, 1, "spit")
        game, _ = Game.new(7)
        game.press(0.1, 1, "spit")
        journal.finish(game.state())
    assert run_cli(capsys, "script", str(path))[0] == 0
    lines = path.read_text().splitlines()
    lines[-1] = json.dumps({"state": {**game.state(), "round": 2}})
    path.write_text("\n".join(lines) + "\n")
    code, _, err = run_cli(capsys, "script", str(path))
    assert code == 1 and "does not end in the state" in err


def test_a_time_line_moves_the_clock_without_a_press() -> None:
    script = parse_script([SETUP, '{"t": 3.5}', '{"t": 1.0, "player": 1, "press": "spit"}'])
    assert [(p.t, p.press) for p in script.ordered()] == [(1.0, "spit"), (3.5, None)]
    events, game = run(script)
    assert game.now == 3.5 and [e.kind for e in events] == ["deal", "call"]


def test_a_torn_last_line_is_left_out_of_a_replay_with_a_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SETUP, '{"t": 0.1, "player": 1, "press": "spit"}')
    with open(path, "a") as handle:
        handle.write('{"t": 0.2, "player": 2, "pr')  # the power went here
    code, out, err = run_cli(capsys, "replay", path)
    assert code == 0 and "cut off" in err
    assert [json.loads(line).get("event") for line in out[:-1]] == ["deal", "call"]
    code, _, err = run_cli(capsys, "script", path)  # a script is not a journal: a bad line is bad
    assert code == 2 and "line 3: not JSON" in err
    with open(path, "ab") as handle:  # blocks the card never got written read back as zero bytes
        handle.write(b"\n" + bytes(4096))
    code, out, err = run_cli(capsys, "replay", path)
    assert code == 0 and "cut off" in err and len(out) == 3


@pytest.mark.parametrize(("line", "words"), [
    ('{"t": ' + "9" * 400 + ', "player": 1, "press": "spit"}', "t must be a number of seconds"),
    ('{"t": 1, "player": ' + "9" * 5000 + ', "press": "spit"}', "not JSON this program reads"),
    ("[" * 100_000 + "]" * 100_000, "not JSON this program reads"),
    ('{"t": 1e400, "player": 1, "press": "spit"}', "t must be a number of seconds"),
    ('{"t": 1, "player": 1, "press": ["spit"]}', "unknown control"),
    ('{"t": 1, "player": 3, "press": "spit"}', "unknown player 3"),
    ('{"t": 1, "player": 1, "press": "kick"}', "unknown control"),
], ids=["huge-t", "huge-int", "deep", "inf-t", "list-press", "player-3", "kick"])
def test_malformed_lines_are_bad_input_never_a_traceback(line: str, words: str) -> None:
    with pytest.raises(ScriptError, match=f"line 2: {words}"):
        parse_script([SETUP, line])


@pytest.mark.parametrize(("setup", "words"), [
    ({"variant": "clasic"}, "unknown variant 'clasic' \\(did you mean 'classic'\\?\\)"),
    ({"variant": "classic", "options": {"alternate_colour": True}}, "unknown option 'alternate_colour'"),
    ({"variant": "classic", "options": {"decks": 3}}, "option 'decks' must be 1 or 2, not 3"),
    ({"variant": "classic", "options": {"stock_piles": [5, 5, 5, 5, 5, 5]}}, "needs 30 cards"),
    ({"variant": "classic", "options": {"choose": "coin"}}, "option 'choose' must be"),
    ({"variant": "classic", "options": [1]}, "options must be an object"),
    ({"variant": "classic", "seed": 2**70}, "seed must be a whole number"),
], ids=["variant", "option", "decks", "too-many-cards", "choose", "options-list", "seed"])
def test_bad_variants_and_options_are_bad_input_naming_the_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], setup: dict[str, Any], words: str) -> None:
    path = write(tmp_path, json.dumps({"setup": setup}), '{"t": 1, "player": 1, "press": "spit"}')
    code, out, err = run_cli(capsys, "script", path)
    assert code == 2 and out == [] and re.search(f"line 1: .*{words}", err), err


def test_unknown_keys_are_ignored_and_blank_lines_skipped() -> None:
    script = parse_script([SETUP, "", '{"t": 0.5, "player": 2, "press": "left", "source": "gpio", "edge_t": 0.49}'])
    assert [(p.t, p.player, p.press, p.line) for p in script.presses] == [(0.5, 2, "left", 3)]


def test_the_cli_lists_its_commands_and_refuses_unknown_ones(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--help")
    assert code == 0 and any("script" in line for line in out)
    code, _, err = run_cli(capsys, "fly")
    assert code == 2 and "unknown command" in err
    code, _, err = run_cli(capsys, "bench", "warp")
    assert code == 2 and "usage" in err
