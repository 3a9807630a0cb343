"""Reading the rules core's events: the one place the screen takes them apart.

Scenes keep an `EventReader` on their match and take the events that happened since they last
asked, each frame (after their own presses and after the computer's), instead of the match calling
back. Scenes match the core's typed events by their type (`case Play():`, `isinstance(event, Reject)`)
and read their fields as typed values (`event.spit_pile`, `event.reason`, a `Reason`); `seat_of` says
which seat an event is about, if any. `side_for` asks the core's table which side of a seat a spit
pile is on.
"""

from __future__ import annotations

from typing import Any

from appliance.rules import Event
from appliance.rules.events import (
    Call,
    Choose,
    Deselect,
    Draw,
    Flip,
    GhostLaid,
    GhostTaken,
    Move,
    Out,
    PickUp,
    Play,
    Refill,
    Reject,
    Reveal,
    RoundOver,
    Score,
    Select,
    Slap,
    SpitCardLent,
    SpitCardLost,
    SpitCardWon,
    Stack,
    TableSlap,
    Take,
)
from appliance.rules.table import TWO_SEATS, Table

# The events about one seat: each has a `player` (None where nobody is: a round blocked, a ghost
# card nobody took).
SEAT_EVENTS = (Select, Deselect, Flip, Move, Stack, Play, Refill, PickUp, Reject, Call, Reveal, Slap, Choose,
               RoundOver, Take, GhostLaid, GhostTaken, SpitCardLent, SpitCardWon, SpitCardLost, Out, TableSlap,
               Draw, Score)


def kind(event: Event) -> str:
    """What happened: the script format's `event` field ("play", "reject", ...)."""
    return event.kind


def seat_of(event: Event) -> int | None:
    """The seat an event is about (who pressed, played, slapped, went out...), or None: an event of
    the whole table (a deal, a stalemate, a judged table slap, the game over), a race for the ghost
    card nobody won, or a press by nobody's seat (the reject of an unknown player)."""
    player = event.player if isinstance(event, SEAT_EVENTS) else None
    return player if isinstance(player, int) and not isinstance(player, bool) else None


def side_for(player: int, spit_pile: int, seats: int = 2) -> str:
    """The control ("left", "right", "far_left", "far_right") with which `player` reaches `spit_pile`
    at a table of `seats`."""
    table = TWO_SEATS if seats == 2 else Table(seats)
    return table.side_for(player, spit_pile)


class EventReader:
    """What happened since a scene last looked.

    A match that puts a late press in its place (a rollback) rewrites its events from the first one
    that changed, in a new list, and counts a correction. The reader then hands out the corrected
    events from there, and keeps in `taken_back` the ones it had handed out that did not happen after
    all (the card that was not really played: the screen slides it back, with a "late pad" note);
    `late` says so, for that one look."""

    def __init__(self, match: Any, start: int | None = None) -> None:
        self.match = match
        self.seen = len(match.events) if start is None else start
        self._read: list[Event] = match.events  # the list the events seen so far were read from
        self.corrections = getattr(match, "corrections", 0)
        self.taken_back: list[Event] = []
        self.late = False

    def new_events(self) -> list[Event]:
        current: list[Event] = self.match.events
        self.taken_back = []
        self.late = False
        corrections = getattr(self.match, "corrections", 0)
        if current is not self._read or corrections != self.corrections:
            rewritten: list[int] = list(getattr(self.match, "rewritten_from", []))[self.corrections :]
            first = min([self.seen, *rewritten])
            while first < min(self.seen, len(current)) and (
                    current[first] is self._read[first] or current[first] == self._read[first]):
                first += 1  # replayed the same: not rewritten after all
            self.taken_back = self._read[first : self.seen]
            self.late = bool(self.taken_back)
            self.seen = first
            self._read = current
            self.corrections = corrections
        events: list[Event] = list(current[self.seen :])
        self.seen += len(events)
        return events
