"""The journal: every game the appliance runs, written as it happens, in the script format.

One file a game: the setup line, then one line a press as presses arrive (flushed at once, so a
crash loses nothing; synced to disk at the end of every round and of the game, so a power cut
loses no finished game), and when the game is over the closing `{"state": ...}` line that
`spit-arcade replay` checks its replay against.

A press is written with the time the game applied it: the core applies a press older than the last
one at the last time, so the journal's `t` never goes backwards and a replay, which sorts by `t`,
applies presses in the same order the live game did. The edge time, where it differs, is kept as
`edge_t` (readers ignore keys they don't know).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, TextIO


def default_journal_dir() -> Path:
    """$SPIT_ARCADE_JOURNALS, else the user's data directory: ~/.local/share/spit-arcade/journals."""
    override = os.environ.get("SPIT_ARCADE_JOURNALS")
    if override:
        return Path(override)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "spit-arcade" / "journals"


def journal_path(directory: Path, seed: int, now: float | None = None) -> Path:
    """A new file name that sorts by start time: 20261121-203015-seed7.jsonl (never reused)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    path = directory / f"{stamp}-seed{seed}.jsonl"
    n = 1
    while path.exists():
        n += 1
        path = directory / f"{stamp}-seed{seed}-{n}.jsonl"
    return path


class Journal:
    def __init__(self, path: Path | str, setup: dict[str, Any]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: TextIO | None = open(self.path, "x", encoding="utf-8")  # noqa: SIM115 (held open)
        self.last_t = 0.0
        self._write({"setup": setup})
        self.sync()

    def record(self, t: float, player: int, control: str, **extra: Any) -> float:
        """Write one press; returns the `t` written (the time the game will apply it at)."""
        applied = round(max(float(t), self.last_t), 6)
        line: dict[str, Any] = {"t": applied, "player": player, "press": control}
        if applied != round(float(t), 6):
            line["edge_t"] = round(float(t), 6)
        line.update(extra)
        self._write(line)
        self.last_t = applied
        return applied

    def sync(self) -> None:
        """Make what is written survive a power cut (at a round's end, at the game's end)."""
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())

    def finish(self, state: dict[str, Any]) -> None:
        """Close the journal of a finished game with its final state."""
        self._write({"state": state})
        self.close()

    def close(self) -> None:
        if self._file is not None:
            self.sync()
            self._file.close()
            self._file = None

    def _write(self, value: dict[str, Any]) -> None:
        if self._file is None:
            raise ValueError(f"journal {self.path} is closed")
        self._file.write(json.dumps(value, ensure_ascii=False) + "\n")
        self._file.flush()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
