"""A journal kept in memory, for the benchmarks that play matches in virtual time: each press as the
match applied it, nothing written anywhere (the match's journal protocol: record, record_time,
sync, finish, close)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class PressLog:
    """The presses a match applied, in the order it applied them: (t, player, control, source);
    time lines and the closing state are not kept."""

    presses: list[tuple[float, int, str, str]] = field(default_factory=list)

    def record(self, t: float, player: int, control: str, **extra: Any) -> float:
        self.presses.append((t, player, control, str(extra.get("source", ""))))
        return t

    def record_time(self, t: float) -> float:
        return t

    def sync(self) -> None: ...
    def finish(self, state: dict[str, Any], **extra: Any) -> None: ...
    def close(self) -> None: ...
