from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from appliance.match import Match, bots_available, make_bot, open_journal
from appliance.rules import Game, new_game
from appliance.rules.events import Call
from appliance.scripting import parse_script, run

SECOND = 1_000_000_000


class ScriptedBot:
    """Presses `control` at fixed game times."""

    def __init__(self, plan: list[tuple[float, str]]) -> None:
        self.plan = list(plan)

    def next_press(self, game: Game, now: float) -> tuple[float, str] | None:
        if not self.plan:
            return None
        t, control = self.plan[0]
        if t <= now:
            self.plan.pop(0)
        return (t, control)


def test_presses_are_journalled_then_applied_at_the_journalled_time(tmp_path: Path) -> None:
    journal = open_journal(tmp_path, 4)
    match = Match(4, 10 * SECOND, journal)
    assert [e.to_json() for e in match.press(10 * SECOND + SECOND // 2, 1, "spit")] == [
        {"t": 0.5, "event": "call", "player": 1}]
    events = match.press(11 * SECOND, 2, "spit")
    assert [e.kind for e in events][:3] == ["call", "reveal", "reveal"]
    # a press stamped before the last one is applied at the last one's time, as the journal says
    events = match.press(10 * SECOND, 1, "pile1")
    assert events[0].t == 1.0
    match.abandon()
    script = parse_script(next(tmp_path.glob("*.jsonl")).read_text().splitlines())
    assert [(p.t, p.player, p.press) for p in script.presses] == [(0.5, 1, "spit"), (1.0, 2, "spit"), (1.0, 1, "pile1")]
    _, game = run(script)
    assert game.state() == match.game.state()


def test_computer_presses_are_applied_when_due_and_only_then() -> None:
    match = Match(4, 0, None, {2: ScriptedBot([(0.5, "spit"), (0.75, "pile1")])})
    assert match.tick(SECOND // 4) == []
    events = match.tick(SECOND)
    assert [(e.kind, e.t) for e in events] == [("call", 0.5), ("select", 0.75)]
    assert match.events[-2:] == events
    assert match.idle_s(10 * SECOND) == 10.0  # computer presses don't count as somebody playing


def test_the_computer_plays_through_the_match() -> None:
    levels = bots_available()
    assert "1" in levels and "5" in levels
    bot = make_bot("3", 2, 9)
    assert bot is not None
    match = Match(9, 0, None, {2: bot})
    for frame in range(1, 600):
        match.tick(frame * SECOND // 60)
    assert any(isinstance(e, Call) and e.player == 2 for e in match.events)


def test_a_finished_game_closes_its_journal_with_the_final_state(tmp_path: Path) -> None:
    bots = {1: make_bot("5", 1, 1), 2: make_bot("5", 2, 2)}
    journal = open_journal(tmp_path, 1)
    match = Match(1, 0, journal, bots)
    frame = 0
    while not match.finished and frame < 60 * 1200:
        frame += 1
        match.tick(frame * SECOND // 60)
    assert match.finished and match.journal is None
    script = parse_script(next(tmp_path.glob("*.jsonl")).read_text().splitlines())
    assert script.final_state == match.game.state()


class FullDisk:
    def record(self, t: float, player: int, control: str, **extra: Any) -> float:
        raise OSError(28, "No space left on device")

    def sync(self) -> None: ...
    def finish(self, state: dict[str, Any]) -> None: ...
    def close(self) -> None: ...


def test_a_journal_that_fails_mid_game_leaves_the_game_going(capsys: Any) -> None:
    match = Match(4, 0, FullDisk())
    events = match.press(SECOND, 1, "spit")
    assert events[0].kind == "call" and match.journal is None
    assert "No space left on device" in capsys.readouterr().err


def test_the_journal_setup_records_the_variant_the_house_rules_and_the_computer(tmp_path: Path) -> None:
    options = {"alternate_colours": True, "choose": "shapp"}
    journal = open_journal(tmp_path, 5, "four-piles", options, {2: "4"})
    match = Match(5, 0, journal, {2: make_bot("4", 2, 5)}, variant="four-piles", options=options)
    assert match.game.state() == new_game("four-piles", 5, options)[0].state()
    for frame in range(1, 240):
        match.tick(frame * SECOND // 60)
    match.press(5 * SECOND, 1, "spit")
    match.abandon()
    lines = next(tmp_path.glob("*.jsonl")).read_text().splitlines()
    assert json.loads(lines[0]) == {"setup": {"variant": "four-piles", "seed": 5, "options": options,
                                              "bots": {"2": "4"}}}
    _, game = run(parse_script(lines))
    assert game.state() == match.game.state()


def test_time_that_decides_something_is_journalled_as_a_time_line(tmp_path: Path) -> None:
    journal = open_journal(tmp_path, 3, "mod-spit")
    match = Match(3, 0, journal, variant="mod-spit")
    match.press(SECOND // 10, 1, "spit")
    match.press(SECOND // 5, 2, "spit")
    match.press(SECOND, 1, "slap")  # judged when the window closes, with nobody pressing
    assert match.tick(SECOND + SECOND // 2) == []  # still open: no clock moved for nothing
    assert match.game.now == 1.0
    events = match.tick(2 * SECOND)
    assert [e.kind for e in events][:1] == ["table_slap_judged"]
    match.abandon()
    lines = next(tmp_path.glob("*.jsonl")).read_text().splitlines()
    assert json.loads(lines[-2]) == {"t": 2.0} and json.loads(lines[-1])["abandoned"] is True
    replayed, game = run(parse_script(lines))
    assert game.state() == match.game.state()
    assert [e.to_json() for e in replayed][-len(events):] == [e.to_json() for e in events]


def test_a_game_cut_off_resumes_where_its_journal_got_to(tmp_path: Path, capsys: Any) -> None:
    journal = open_journal(tmp_path, 8, "four-piles", {"alternate_colours": True}, {2: "3"})
    match = Match(8, 0, journal, {2: make_bot("3", 2, 8)}, variant="four-piles", options={"alternate_colours": True})
    for frame in range(1, 60 * 40):
        match.tick(frame * SECOND // 60)
        if frame % 7 == 0:
            match.press(frame * SECOND // 60, 1, ("spit", "pile1", "left", "pile2", "right")[frame % 5])
    path = next(tmp_path.glob("*.jsonl"))
    assert match.journal is not None
    match.journal.sync()  # the power goes: what was written stays, half a line more is torn
    with open(path, "a") as handle:
        handle.write('{"t": 41.0, "player": 1, "pr')
    resumed = Match.resume(path, 1000 * SECOND)
    assert resumed.game.state() == match.game.state()
    assert [e.to_json() for e in resumed.events] == [e.to_json() for e in match.events]
    assert resumed.game_time(1000 * SECOND) == match.game.now  # the game clock goes on from there
    assert set(resumed.bots) == {2}
    assert f"resumed {path.name} at press {match.presses}" in capsys.readouterr().err
    resumed.press(1001 * SECOND, 1, "spit")
    resumed.abandon()
    _, game = run(parse_script(path.read_text().splitlines()))
    assert game.state() == resumed.game.state()


def test_an_abandoned_game_is_closed_and_not_resumed(tmp_path: Path) -> None:
    match = Match(2, 0, open_journal(tmp_path, 2))
    match.press(SECOND, 1, "spit")
    match.abandon()
    path = next(tmp_path.glob("*.jsonl"))
    assert json.loads(path.read_text().splitlines()[-1])["abandoned"] is True
    with pytest.raises(ValueError, match="finished"):
        Match.resume(path, 0)


def test_a_computer_press_made_before_a_persons_but_polled_after_it_wins_its_race() -> None:
    """The frame polls the computer after the keys it delivered: a computer press that fell due
    before a key press is still applied at its own time, and the race is the computer's."""
    from positions import game_at

    game = game_at(["6C", "KH", "KS", "QD", "QS"], ["4S", "JH", "JS", "JD", "3C"], spit=("5H", "2D"))
    # Both can play on the 5H (player 1 on its left, the computer on its right), each card in hand;
    # the computer's 3C keeps the game going after the race.
    match = Match(3, 0, None, {2: ScriptedBot([(0.2, "pile1"), (0.500, "right")])}, game=game)
    match.press(SECOND // 10, 1, "pile1")
    match.tick(SECOND * 3 // 10)
    match.press(SECOND * 510 // 1000, 1, "left")  # 10 ms after the computer's press fell due
    match.tick(SECOND * 516 // 1000)  # the next frame: the computer's press is polled only now
    plays = [e for e in match.events if e.kind == "play"]
    assert [(e.t, e.player, e.card) for e in plays] == [(0.5, 2, "4S")]
    (lost,) = [e.to_json() for e in match.events if e.kind == "reject"]
    assert lost["player"] == 1 and lost["reason"] == "too_late" and lost["winner"] == 2 and lost["by_ms"] == 10.0
    assert match.late_presses == 0


def test_holding_the_clock_nests_and_gives_back_only_the_time_held() -> None:
    match = Match(3, 1_000_000_000, None, {})
    assert match.game_time(3_000_000_000) == 2.0 and not match.held
    match.hold(3_000_000_000)
    match.hold(4_000_000_000)  # the service menu over a pause
    assert match.held and match.game_time(9_000_000_000) == 2.0  # the clock stands still
    match.release(5_000_000_000)
    assert match.held and match.game_time(9_000_000_000) == 2.0  # one hold is still on
    match.release(8_000_000_000)
    assert not match.held and match.game_time(8_000_000_000) == 2.0  # 5 s held: not game time
    assert match.game_time(8_500_000_000) == 2.5 and match.idle_s(8_000_000_000) == 0.0
    match.release(9_000_000_000)  # one release too many changes nothing
    assert match.game_time(9_000_000_000) == 3.0


def test_a_chattering_pad_never_grows_a_game_without_bound_and_the_idle_clock_ends_it(tmp_path: Path) -> None:
    journal = open_journal(tmp_path, 4)
    match = Match(4, 0, journal)
    match.max_presses = 200
    for n in range(1, 501):  # a pad chattering 50 times a second for 10 s
        match.press(n * 20_000_000, 1, "pile1", "gpio")
    assert match.presses == 200 and match.over_limit == 300 and not match.finished
    events = len(match.events)
    assert match.press(10_100_000_000, 2, "spit") == [] and len(match.events) == events
    assert match.idle_s(10_100_000_000) == pytest.approx(6.1)  # the presses past the limit are nobody
    match.abandon()
    lines = (tmp_path / journal.path.name).read_text().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1 + 200 + 1  # the setup, the presses taken, the closing line
