"""Reading the rules core's events: the one place the screen takes them apart.

Scenes keep an `EventReader` on their match and take the events that happened since they last
asked, each frame (after their own presses and after the computer's), instead of the match calling
back. Everything else reads an event only through `kind` and `detail` (the core's typed events:
`detail(event, "from")` reads the field `from_`). `side_for` asks the core's table which side of a
seat a spit pile is on.
"""

from __future__ import annotations

from typing import Any

from appliance.rules import Event
from appliance.rules.table import TWO_SEATS


def kind(event: Event) -> str:
    """What happened: the script format's `event` field ("play", "reject", ...)."""
    return event.kind


def detail(event: Event, name: str, default: Any = None) -> Any:
    """One field of an event ("player", "spit_pile", "reason", ...), or `default` without it."""
    value = getattr(event, name, getattr(event, f"{name}_", default))
    return default if value is None else value


def side_for(player: int, spit_pile: int) -> str:
    """The control ("left"/"right") with which `player` reaches `spit_pile` at a two-seat table."""
    return TWO_SEATS.side_for(player, spit_pile)


class EventReader:
    def __init__(self, match: Any, start: int | None = None) -> None:
        self.match = match
        self.seen = len(match.events) if start is None else start

    def new_events(self) -> list[Event]:
        events: list[Event] = list(self.match.events[self.seen :])
        self.seen += len(events)
        return events
