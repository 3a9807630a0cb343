"""Scripted and mock sources, for tests and demos.

ScriptSource plays presses at set times after it starts: from a list, or from a script file in the
SCRIPT-FORMAT (`{"t": 0.25, "player": 1, "press": "pile3"}` lines; the setup line and unknown keys are
ignored). Each press is followed by its release `hold_ns` later. Delivery happens in `poll`, i.e. on
the game loop's thread as `Merger.ready` runs, each press stamped with its scripted time.

MockSource delivers whatever a test hands it, when it hands it: `inject(player, control, pressed, t_ns)`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from .press import CABINET_CONTROLS, CABINET_PLAYER, GAME_CONTROLS, PLAYERS, Press, PressSink
from .source import ControlStatus, SourceStatus

HOLD_NS = 50_000_000


class _Board:
    """Per-control status shared by the scripted sources."""

    def __init__(self) -> None:
        self.controls: dict[tuple[int, str], ControlStatus] = {}

    def note(self, press: Press) -> None:
        status = self.controls.setdefault(
            (press.player, press.control), ControlStatus(press.player, press.control, "script")
        )
        status.edge(press.pressed, press.t_ns)


class ScriptLineError(ValueError):
    """A line of a script file the scripted source cannot play: the message names file and line."""


def _press_line(item: dict[str, object], where: str) -> tuple[float, int, str]:
    t, player, control = item.get("t"), item.get("player"), item["press"]
    if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t <= 1e9:
        raise ScriptLineError(f"{where}: t must be a number of seconds from 0 to 1e9, not {t!r:.40}")
    if isinstance(player, bool) or not isinstance(player, int) or player not in (CABINET_PLAYER, *PLAYERS):
        raise ScriptLineError(f"{where}: player must be 1 to 4 (0 for the cabinet), not {player!r:.40}")
    allowed = CABINET_CONTROLS if player == CABINET_PLAYER else GAME_CONTROLS
    if not isinstance(control, str) or control not in allowed:
        raise ScriptLineError(
            f"{where}: unknown control {control!r:.40} for player {player} (controls: {', '.join(allowed)})"
        )
    return float(t), player, control


def read_script(path: str | Path) -> list[tuple[float, int, str]]:
    """The (t seconds, player, control) presses of a SCRIPT-FORMAT file (lines without a `press`,
    such as the setup, are skipped). OSError if it cannot be read; ScriptLineError naming the file
    and line of the first line that is not JSON or not a press the source can play."""
    presses = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ScriptLineError(f"{path}: not UTF-8 text ({error.reason})") from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}: line {number}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            raise ScriptLineError(f"{where}: not JSON ({error.msg} at column {error.colno})") from None
        except RecursionError:
            raise ScriptLineError(f"{where}: not JSON this program reads (nested too deeply)") from None
        except ValueError as error:  # an integer of more digits than Python converts
            raise ScriptLineError(f"{where}: not JSON this program reads ({error})") from None
        if isinstance(item, dict) and "press" in item:
            presses.append(_press_line(item, where))
    return presses


class ScriptSource:
    latency_ns = 0

    def __init__(
        self,
        presses: Iterable[tuple[float, int, str]],
        name: str = "script",
        hold_ns: int = HOLD_NS,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.name = name
        edges = []
        for order, (t, player, control) in enumerate(presses):
            at = round(t * 1e9)
            edges.append((at, order, player, control, True))
            edges.append((at + hold_ns, order, player, control, False))
        self._edges = sorted(edges)
        self._next = 0
        self._clock = clock
        self._start_ns: int | None = None
        self._sink: PressSink | None = None
        self._board = _Board()

    @property
    def finished(self) -> bool:
        return self._next >= len(self._edges)

    def start(self, sink: PressSink) -> None:
        self._sink = sink
        if self._start_ns is None:
            self._start_ns = self._clock()

    def stop(self) -> None:
        self._sink = None

    def poll(self, now_ns: int) -> None:
        sink, start = self._sink, self._start_ns
        if sink is None or start is None:
            return
        while self._next < len(self._edges) and start + self._edges[self._next][0] <= now_ns:
            at, _order, player, control, pressed = self._edges[self._next]
            self._next += 1
            press = Press(player, control, pressed, start + at, self.name)
            self._board.note(press)
            sink.put(press)
        sink.advance(self.name, now_ns)

    def status(self, now_ns: int) -> SourceStatus:
        left = len(self._edges) - self._next
        return SourceStatus(
            self.name, "up" if left else "finished", list(self._board.controls.values()), {"edges left": str(left)}
        )


class MockSource:
    """A source a test drives by hand; thread-safe."""

    def __init__(self, name: str = "mock", latency_ns: int = 0) -> None:
        self.name = name
        self.latency_ns = latency_ns
        self._sink: PressSink | None = None
        self._lock = threading.Lock()
        self._board = _Board()

    def start(self, sink: PressSink) -> None:
        self._sink = sink

    def stop(self) -> None:
        self._sink = None

    def poll(self, now_ns: int) -> None:
        """Nothing to do: presses are delivered as they are injected."""

    def inject(self, player: int, control: str, pressed: bool, t_ns: int) -> Press:
        press = Press(player, control, pressed, t_ns, self.name)
        with self._lock:
            self._board.note(press)
        sink = self._sink
        if sink is not None:
            sink.put(press)
        return press

    def status(self, now_ns: int) -> SourceStatus:
        with self._lock:
            return SourceStatus(self.name, "up", list(self._board.controls.values()))
