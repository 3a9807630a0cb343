from __future__ import annotations

from pathlib import Path
from typing import Any

from appliance.display.match import Match, bots_available, make_bot, open_journal
from appliance.rules import Game
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
    assert match.press(10 * SECOND + SECOND // 2, 1, "spit") == [{"t": 0.5, "event": "call", "player": 1}]
    events = match.press(11 * SECOND, 2, "spit")
    assert [e["event"] for e in events][:3] == ["call", "reveal", "reveal"]
    # a press stamped before the last one is applied at the last one's time, as the journal says
    events = match.press(10 * SECOND, 1, "pile1")
    assert events[0]["t"] == 1.0
    match.abandon()
    script = parse_script(next(tmp_path.glob("*.jsonl")).read_text().splitlines(), journal=True)
    assert [(p.t, p.player, p.press) for p in script.presses] == [(0.5, 1, "spit"), (1.0, 2, "spit"), (1.0, 1, "pile1")]
    _, game = run(script)
    assert game.state() == match.game.state()


def test_computer_presses_are_applied_when_due_and_only_then() -> None:
    seen: list[Any] = []
    match = Match(4, 0, None, {2: ScriptedBot([(0.5, "spit"), (0.75, "pile1")])}, on_events=seen.append)
    assert match.tick(SECOND // 4) == []
    events = match.tick(SECOND)
    assert [(e["event"], e["t"]) for e in events] == [("call", 0.5), ("select", 0.75)]
    assert [e for batch in seen for e in batch] == events
    assert match.idle_s(10 * SECOND) == 10.0  # computer presses don't count as somebody playing


def test_the_computer_plays_through_the_match() -> None:
    levels = bots_available()
    assert "1" in levels and "5" in levels
    bot = make_bot("3", 2, 9)
    assert bot is not None
    match = Match(9, 0, None, {2: bot})
    for frame in range(1, 600):
        match.tick(frame * SECOND // 60)
    assert any(e.get("player") == 2 and e["event"] == "call" for e in match.events)


def test_a_finished_game_closes_its_journal_with_the_final_state(tmp_path: Path) -> None:
    bots = {1: make_bot("5", 1, 1), 2: make_bot("5", 2, 2)}
    journal = open_journal(tmp_path, 1)
    match = Match(1, 0, journal, bots)
    frame = 0
    while not match.finished and frame < 60 * 1200:
        frame += 1
        match.tick(frame * SECOND // 60)
    assert match.finished and match.journal is None
    script = parse_script(next(tmp_path.glob("*.jsonl")).read_text().splitlines(), journal=True)
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
    assert events[0]["event"] == "call" and match.journal is None
    assert "No space left on device" in capsys.readouterr().err
