"""Scripted players for a linked table, and replaying its journals: shared by the tests and
`spit-arcade bench linked`.

A `ScriptedSeat` presses at given touch times (this cabinet's clock, ns) for one seat: mostly the
next press of something the rules offer that seat now (`legal_actions`), now and then any control,
picked by a seeded generator from the game as this table sees it then.
"""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path
from typing import Any

from appliance.journal import read_journal
from appliance.linked.game import LinkedTable
from appliance.rules import CONTROLS
from appliance.scripting import parse_script, run


class ScriptedSeat:
    def __init__(self, table: LinkedTable, seat: int, touches_ns: list[int], seed: int) -> None:
        self.table = table
        self.seat = seat
        self.touches: deque[int] = deque(sorted(touches_ns))
        self.rng = random.Random(f"linked seat {seat} {seed}")
        self.pressed: list[tuple[int, str, int]] = []  # (touch time, control, game time µs) as pressed
        self.moved = 0  # presses that reached the table too late to keep their own time (a stalled loop)
        self.refused = 0

    def due(self, now_ns: int) -> None:
        """Press every touch whose time has come (at its own touch time: the edge)."""
        while self.touches and self.touches[0] <= now_ns:
            touch = self.touches.popleft()
            match = self.table.match
            if match is None or match.finished:
                self.refused += 1
                continue
            game = match.game
            actions = game.legal_actions(self.seat)
            if actions and self.rng.random() < 0.85:
                control = game.presses_for(self.seat, self.rng.choice(actions))[0]
            else:
                control = self.rng.choice((*CONTROLS[:6], "left", "right", "spit"))
            before, moved = self.table.refused_local, self.table.late_local
            self.table.press(touch, self.seat, str(control), "script")
            if self.table.refused_local > before:
                self.refused += 1
            else:
                self.pressed.append((touch, str(control), self.table.last_local_us))
                self.moved += self.table.late_local - moved


def replayed_state(path: Path) -> str:
    """The final state a journal replays to, as the JSON text `replay` prints (sorted keys)."""
    lines, _ = read_journal(path)
    _, game = run(parse_script(lines))
    return json.dumps(game.state(), sort_keys=True)


def closing_state(path: Path) -> Any:
    lines, _ = read_journal(path)
    last = json.loads(lines[-1])
    return last.get("state")
