"""`spit-arcade simulate`: deterministic, seats in order, journals that replay to the same end."""

import json
from pathlib import Path

import pytest

from appliance.bots.simulate import main, play_game, simulate
from appliance.rules import PRESETS
from appliance.scripting import parse_script, replay_main, run

# V16 (Running Spit, `carry`) is still being built in the core: a carried card that fits nothing can
# leave a player whom `can_progress` counts as able to move with no legal action at all.
WORK_IN_PROGRESS = {"running": "V16 carry: can_progress and legal_actions disagree about a carried card"}
SPIT_PRESETS = [
    pytest.param(name, marks=pytest.mark.xfail(reason=WORK_IN_PROGRESS[name], strict=False))
    if name in WORK_IN_PROGRESS else name
    for name, preset in PRESETS.items() if preset.game == "spit"
]

TIMING_KEYS = ("games_per_s", "elapsed_s", "games_per_cpu_s")


def without_timing(summary: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in summary.items() if key not in TIMING_KEYS}


def test_a_seeded_simulation_plays_the_same_every_time() -> None:
    a = simulate(("4", "first"), 6, seed=11, swap=True)
    b = simulate(("4", "first"), 6, seed=11, swap=True)
    assert without_timing(a) == without_timing(b)
    c = simulate(("4", "first"), 6, seed=12, swap=True)
    assert without_timing(c) != without_timing(a)


def test_wins_are_counted_per_bot_whatever_the_seat() -> None:
    strong_first = simulate(("5", "1"), 10, seed=3, swap=True)
    strong_second = simulate(("1", "5"), 10, seed=3, swap=True)
    assert sum(strong_first["wins"]) == 10 == sum(strong_first["seat_wins"])
    assert strong_first["wins"][0] >= 8
    assert strong_second["wins"][1] >= 8
    assert strong_first["unfinished"] == 0 and strong_first["stuck"] == 0


@pytest.mark.parametrize("specs", [("1", "first"), ("2", "1"), ("3", "2"), ("4", "3"), ("5", "4"), ("5@3", "first@3")])
def test_every_pairing_finishes_its_games(specs: tuple[str, str]) -> None:
    summary = simulate(specs, 4, seed=5)
    assert summary["unfinished"] == 0
    assert summary["rounds"]["max"] >= 1  # type: ignore[index]
    assert all(cards > 0 for cards in summary["cards_played"])  # type: ignore[attr-defined]


def test_a_saved_journal_replays_to_the_same_winner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = play_game(("5", "2"), 77, journal_dir=tmp_path)
    (path,) = tmp_path.iterdir()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"setup": {"variant": "classic", "seed": 77, "bots": {"1": "5", "2": "2"}}}
    assert json.loads(lines[1])["source"] == "bot"
    script = parse_script(lines)
    assert len(script.presses) == sum(result.presses)
    _, game = run(script)
    assert game.winner == result.winner is not None
    assert script.final_state == game.state()
    assert replay_main([str(path)]) == 0
    capsys.readouterr()


def test_the_command_prints_a_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "3", "--bots", "5@3,first@3", "--seed", "2", "--swap", "--journal-dir", str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    for key in ("games", "wins", "games_per_s", "rounds", "cards_played", "game_seconds", "seat_wins"):
        assert key in summary
    assert summary["games"] == 3 and summary["bots"] == ["5@3", "first@3"] and sum(summary["wins"]) == 3
    assert len(list(tmp_path.iterdir())) == 3


@pytest.mark.parametrize("bots", ["5", "5,9", "x,first", "5@7,first", "1,2,3"])
def test_bad_bots_are_refused(bots: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--games", "1", "--bots", bots])
    assert exit_info.value.code == 2
    assert "bot" in capsys.readouterr().err


@pytest.mark.parametrize("variant", SPIT_PRESETS)
def test_the_bots_finish_games_of_every_preset(variant: str) -> None:
    summary = simulate(("5", "1"), 2, seed=3, swap=True, variant=variant)
    assert summary["unfinished"] == 0 and summary["stuck"] == 0
    assert summary["variant"] == variant and summary["options"] == {}
    assert all(cards > 0 for cards in summary["cards_played"])  # type: ignore[attr-defined]


def test_a_journal_of_a_variant_with_house_rules_replays_exactly(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    options = {"alternate_colours": True, "choose": "shapp", "same_rank_stacking": True}
    result = play_game(("4", "first"), 5, journal_dir=tmp_path, variant="four-piles", options=options)
    (path,) = tmp_path.iterdir()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"setup": {"variant": "four-piles", "seed": 5, "options": options,
                                              "bots": {"1": "4", "2": "first"}}}
    script = parse_script(lines)
    _, game = run(script)
    assert game.winner == result.winner is not None
    assert script.final_state == game.state() and game.state()["options"]["alternate_colours"] is True
    assert replay_main([str(path)]) == 0
    capsys.readouterr()


def test_the_command_takes_a_variant_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--bots", "5,1", "--variant", "reverse", "--options",
                 '{"alternate_colours": true}']) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["variant"] == "reverse" and summary["options"] == {"alternate_colours": True}
    assert sum(summary["wins"]) == 2


@pytest.mark.parametrize(("argv", "words"), [
    (["--variant", "nope"], "unknown variant 'nope'"),
    (["--variant", "speed"], "speed"),
    (["--options", '{"decks": 3}'], "option 'decks'"),
    (["--options", '{"alternate_colour": true}'], "did you mean 'alternate_colours'"),
    (["--options", "[1, 2]"], "JSON object"),
    (["--options", "{"], "not JSON"),
])
def test_bad_variants_and_options_are_refused(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--games", "1", *argv])
    assert exit_info.value.code == 2
    assert words in capsys.readouterr().err
