"""Running Spit's split times, worked out from a match's events alone (no pygame here).

A sprint is a runner's run with a card: from the pick-up (a `select` of that seat) to that very card
played (`play` by the same seat); a card put back (`deselect`, or another card picked up instead) or
moved to an empty stock pile is no sprint. The runner is the seat's `runner` index at the pick-up:
the teams take turns, the next runner running after each card the team plays (V16), so it is the
number of cards the seat has played so far, modulo its runners.

A race is won by the runner whose card landed first when the other seat is told `too_late` onto the
same spit pile, by `by_ms`. The figures people argue about, per runner: sprints, fastest and average
sprint, races won and by how many ms. The screens (display/running_view.py, scenes/running_*.py),
the high-score table (high_scores.py) and the audits read them from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RunnerFigures", "Sprint", "SprintClock", "runner_figures", "runner_name", "sprints"]


def _get(event: Any, name: str, default: Any = None) -> Any:
    value = getattr(event, name, getattr(event, f"{name}_", default))
    return default if value is None else value


@dataclass(frozen=True, slots=True)
class Sprint:
    seat: int
    runner: int  # 0-based: the seat's `runner` at the pick-up
    card: str
    picked_t: float  # game time of the pick-up (s)
    landed_t: float  # game time of the play (s)

    @property
    def ms(self) -> float:
        return round((self.landed_t - self.picked_t) * 1000, 3)


@dataclass
class RunnerFigures:
    seat: int
    runner: int
    sprints: list[float] = field(default_factory=list)  # ms, in the order run
    races_won: int = 0
    margins_ms: list[float] = field(default_factory=list)  # by how much each race was won

    @property
    def fastest_ms(self) -> float | None:
        return min(self.sprints, default=None)

    @property
    def average_ms(self) -> float | None:
        return round(sum(self.sprints) / len(self.sprints), 1) if self.sprints else None

    @property
    def average_margin_ms(self) -> float | None:
        return round(sum(self.margins_ms) / len(self.margins_ms), 1) if self.margins_ms else None

    @property
    def closest_margin_ms(self) -> float | None:
        return min(self.margins_ms, default=None)


def runner_name(runner: int) -> str:
    """A runner as the screen names them: A, B, C, D (team colour tells the team)."""
    return "ABCD"[runner] if 0 <= runner < 4 else str(runner + 1)


class SprintClock:
    """Follows the events as they come: each seat's runner up next, the sprint under way (its
    pick-up time) and the last split, for the screen; the sprints so far, for the figures."""

    def __init__(self, runners: Sequence[int], start_runner: Mapping[int, int] | None = None) -> None:
        self.runners = {seat: max(1, n) for seat, n in enumerate(runners, start=1)}
        self.next_runner = {seat: (start_runner or {}).get(seat, 0) for seat in self.runners}
        self.running: dict[int, tuple[float, str, int]] = {}  # seat -> (pick-up t, card, runner)
        self.done: list[Sprint] = []
        self.races: list[tuple[int, int, float]] = []  # (seat, runner, by_ms) of each race won
        self._last_play: dict[int, tuple[int, int]] = {}  # spit pile -> (seat, runner) who last landed on it

    def last(self, seat: int) -> Sprint | None:
        return next((s for s in reversed(self.done) if s.seat == seat), None)

    def feed(self, events: Iterable[Any]) -> None:
        for event in events:
            kind = getattr(event, "kind", "")
            seat = _get(event, "player")
            if kind in ("deal", "round_over", "game_over"):
                self.running.clear()  # every card is let go at a round's end
            if not isinstance(seat, int) or seat not in self.runners:
                continue
            t = float(_get(event, "t", 0.0))
            if kind == "select":
                self.running[seat] = (t, str(_get(event, "card")), self.next_runner[seat])
            elif kind in ("deselect", "move", "stack"):
                self.running.pop(seat, None)
            elif kind == "play":
                runner = self.next_runner[seat]
                started = self.running.pop(seat, None)
                if started is not None and started[1] == str(_get(event, "card")):
                    self.done.append(Sprint(seat, started[2], started[1], started[0], t))
                    runner = started[2]
                self._last_play[int(_get(event, "spit_pile", 0))] = (seat, runner)
                self.next_runner[seat] = (self.next_runner[seat] + 1) % self.runners[seat]
            elif kind == "reject" and _get(event, "reason") == "too_late" and _get(event, "by_ms") is not None:
                winner = self._last_play.get(int(_get(event, "spit_pile", -1)))
                if winner is not None and winner[0] == _get(event, "winner"):
                    self.races.append((winner[0], winner[1], float(_get(event, "by_ms"))))

    def figures(self) -> dict[tuple[int, int], RunnerFigures]:
        """Every runner of every team, (seat, runner) -> their figures (runners who never ran too)."""
        out = {(seat, n): RunnerFigures(seat, n) for seat, count in self.runners.items() for n in range(count)}
        for sprint in self.done:
            out.setdefault((sprint.seat, sprint.runner), RunnerFigures(sprint.seat, sprint.runner)).sprints.append(
                sprint.ms)
        for seat, runner, by_ms in self.races:
            figures = out.setdefault((seat, runner), RunnerFigures(seat, runner))
            figures.races_won += 1
            figures.margins_ms.append(by_ms)
        return out


def sprints(events: Iterable[Any], runners: Sequence[int]) -> list[Sprint]:
    clock = SprintClock(runners)
    clock.feed(events)
    return clock.done


def runner_figures(events: Iterable[Any], runners: Sequence[int]) -> dict[tuple[int, int], RunnerFigures]:
    clock = SprintClock(runners)
    clock.feed(events)
    return clock.figures()
