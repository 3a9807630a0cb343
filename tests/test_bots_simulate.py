"""`spit-arcade simulate`: deterministic, seats in order, journals that replay to the same end."""

import json
from pathlib import Path
from typing import Any

import pytest

from appliance.bots.simulate import main, play_game, simulate
from appliance.rules import PRESETS, Event
from appliance.rules.events import Deal, Play, Reveal, Take
from appliance.rules.table import Table
from appliance.scripting import parse_script, replay_main, run

SPIT_PRESETS = [name for name, preset in PRESETS.items() if preset.game == "spit"]

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


@pytest.mark.parametrize("seats", [3, 4])
def test_the_command_seats_a_bot_in_every_seat(seats: int, capsys: pytest.CaptureFixture[str]) -> None:
    bots = ",".join(["5", "1", "1", "1"][:seats])
    assert main(["--games", str(seats), "--bots", bots, "--seed", "4", "--swap", "--options",
                 json.dumps({"seats": seats})]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["bots"] == bots.split(",") and len(summary["wins"]) == seats == len(summary["seat_wins"])
    assert sum(summary["wins"]) == seats and summary["unfinished"] == 0
    assert len(summary["cards_played"]) == seats and all(cards > 0 for cards in summary["cards_played"])


def test_bots_move_round_the_table_and_wins_follow_the_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    import appliance.bots.simulate as module

    seen: list[tuple[str, ...]] = []
    winners: list[str] = []
    real = module.play_game

    def spy(specs: tuple[str, ...], seed: int, *args: Any, **kwargs: Any) -> module.GameResult:
        result = real(specs, seed, *args, **kwargs)
        seen.append(tuple(specs))
        assert result.winner is not None
        winners.append(specs[result.winner - 1])
        return result

    monkeypatch.setattr(module, "play_game", spy)
    bots = ("5", "1", "2", "3")
    summary = simulate(bots, 4, seed=9, swap=True, options={"seats": 4})
    assert seen == [("5", "1", "2", "3"), ("3", "5", "1", "2"), ("2", "3", "5", "1"), ("1", "2", "3", "5")]
    assert summary["wins"] == [winners.count(bot) for bot in bots]


@pytest.mark.parametrize(("bots", "options"), [("5,1", '{"seats": 3}'), ("5,1,1", None), ("5,1,1,1,1", '{"seats": 4}')])
def test_one_bot_per_seat_or_refused(bots: str, options: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "1", "--bots", bots] + (["--options", options] if options else [])
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "one bot per seat" in capsys.readouterr().err


def test_a_journal_of_four_seats_replays_exactly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = play_game(("5", "1", "2", "3"), 6, journal_dir=tmp_path, options={"seats": 4})
    (path,) = tmp_path.iterdir()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["setup"]["bots"] == {"1": "5", "2": "1", "3": "2", "4": "3"}
    _, game = run(parse_script(lines))
    assert game.winner == result.winner is not None
    assert replay_main([str(path)]) == 0
    capsys.readouterr()


def test_looking_again_only_when_something_visible_changed_plays_the_same_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The simulator lets the other bots answer without looking when a press only took a card in
    hand, and has the bots bring their view up to date with what a press changed rather than look
    at everything: the same games, press for press, as bots that look at everything every time."""
    def presses(variant: str, seed: int, options: dict[str, Any] | None = None) -> list[tuple[float, int, str]]:
        made: list[tuple[float, int, str]] = []
        specs = ("5", "2") if seed % 2 else ("4", "5")
        play_game(specs, seed, watch=lambda t, p, c, e: made.append((t, p, c)), variant=variant, options=options)
        return made

    cases = [("classic", 1, None), ("two-decks", 2, None), ("mod-spit", 3, None), ("four-piles", 4, None),
             ("classic", 6, None), ("threes", 8, None), ("classic", 5, {"same_rank_stacking": True}),
             ("classic", 7, {"ghost_card": True}), ("classic", 9, {"spit_card_please": True})]
    shortcut = [presses(*case) for case in cases]
    from appliance.bots.opponent import Bot
    monkeypatch.setattr(Bot, "sees_nothing_new", lambda self: False)
    monkeypatch.setattr(Bot, "next_press_after", lambda self, game, now, *change: self.next_press(game, now))
    assert [presses(*case) for case in cases] == shortcut


def test_at_four_seats_the_expert_plays_the_far_piles_and_takes_the_smallest_pile_going_out() -> None:
    table = Table(4)
    far = smallest = took = 0
    for seed in range(3):
        sizes = [0, 0, 0, 0]  # the spit piles, followed event by event
        specs = ("5", "1", "1", "1") if seed % 2 else ("1", "1", "5", "1")

        def watch(t: float, player: int, control: str, events: list[Event],
                  specs: tuple[str, ...] = specs) -> None:
            nonlocal far, smallest, took, sizes
            for event in events:
                if isinstance(event, Deal):
                    sizes = [0, 0, 0, 0]
                elif isinstance(event, Reveal):
                    sizes[event.spit_pile] += 1
                elif isinstance(event, Play):
                    sizes[event.spit_pile] += 1
                    if specs[player - 1] == "5":
                        far += event.spit_pile not in (table.spit_pile_for(player, "left"),
                                                       table.spit_pile_for(player, "right"))
                elif isinstance(event, Take):
                    if event.player == player and specs[player - 1] == "5" and control in table.sides():
                        took += 1  # the expert went out and chose this pile
                        smallest += event.cards == min(size for size in sizes if size)
                    sizes[event.spit_pile] = 0

        result = play_game(specs, seed, watch=watch, options={"seats": 4})
        assert result.winner is not None
    assert far > 5 and took > 0 and smallest == took
