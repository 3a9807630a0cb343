"""What happens in a game, as typed events, each written to JSON by the one `to_json`.

Every event has the time it took effect (`t`, seconds since the setup) and a `kind`, the `event`
field of the script format. The JSON object lists `t`, `event`, then the fields in the order they
are declared here; a field marked `optional` is left out while it is None (a reject names only what
it has to say). The reasons a press can be rejected stand beside them, with what a player is told.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from .cards import Card
from .player_words import reason_words
from .terms import Reason

# Every reason a press can be rejected for (the `reason` codes of the script format, which never
# change: terms.Reason), with the words a player is told (player_words.py; the screen says them in context).
REASONS: tuple[Reason, ...] = tuple(Reason)
REJECT_REASONS: dict[str, str] = {reason: reason_words(reason) or reason for reason in REASONS}


OPTIONAL = {"optional": True}  # field metadata: left out of the JSON while it is None


_LAYOUTS: dict[type, tuple[tuple[str, str, bool], ...]] = {}


def _layout(cls: type) -> tuple[tuple[str, str, bool], ...]:
    """(field name, JSON key, left out while None) for each field of an event type, once."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = _LAYOUTS[cls] = tuple(
            (f.name, f.name.rstrip("_"), bool(f.metadata.get("optional"))) for f in fields(cls))
    return layout


@dataclass(slots=True)
class Event:
    kind: ClassVar[str] = ""
    t: float

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "event": self.kind}
        for name, key, leave_out_none in _layout(type(self)):
            if name == "t":
                continue
            value = getattr(self, name)
            if value is None and leave_out_none:
                continue
            out[key] = value
        return out


@dataclass(slots=True)
class Deal(Event):
    """A new layout: each seat's stock and spit-card counts."""

    kind: ClassVar[str] = "deal"
    round: int
    players: list[dict[str, int]]


@dataclass(slots=True)
class Select(Event):
    kind: ClassVar[str] = "select"
    player: int
    pile: int
    card: Card


@dataclass(slots=True)
class Deselect(Event):
    kind: ClassVar[str] = "deselect"
    player: int
    pile: int


@dataclass(slots=True)
class Flip(Event):
    kind: ClassVar[str] = "flip"
    player: int
    pile: int
    card: Card


@dataclass(slots=True)
class Move(Event):
    """A face-up card moved into an empty stock-pile space."""

    kind: ClassVar[str] = "move"
    player: int
    from_: int
    to: int
    card: Card


@dataclass(slots=True)
class Stack(Event):
    """V7: a face-up card stacked onto a face-up card of the same rank."""

    kind: ClassVar[str] = "stack"
    player: int
    from_: int
    to: int
    card: Card


@dataclass(slots=True)
class Play(Event):
    kind: ClassVar[str] = "play"
    player: int
    pile: int
    card: Card
    spit_pile: int
    onto: Card


@dataclass(slots=True)
class Refill(Event):
    """V5: a played stock pile refilled from the player's spit cards."""

    kind: ClassVar[str] = "refill"
    player: int
    pile: int
    card: Card


@dataclass(slots=True)
class PickUp(Event):
    """V9: a player picks up their last cards, hiding them from the others."""

    kind: ClassVar[str] = "pick_up"
    player: int
    cards: int


@dataclass(slots=True)
class Reject(Event):
    kind: ClassVar[str] = "reject"
    player: Any
    press: Any  # the control pressed (a `Control`; the text as given, for an `unknown_press`)
    reason: Reason
    card: Card | None = field(default=None, metadata=OPTIONAL)
    spit_pile: int | None = field(default=None, metadata=OPTIONAL)
    winner: int | None = field(default=None, metadata=OPTIONAL)
    by_ms: float | None = field(default=None, metadata=OPTIONAL)
    onto: Card | None = field(default=None, metadata=OPTIONAL)

    @property
    def words(self) -> str:
        """The reason in a player's words, out of context (`player_words.reject_words` says it
        for the press and the phase)."""
        return REJECT_REASONS[self.reason]


@dataclass(slots=True)
class Call(Event):
    kind: ClassVar[str] = "call"
    player: int


@dataclass(slots=True)
class Reveal(Event):
    kind: ClassVar[str] = "reveal"
    player: int
    card: Card
    spit_pile: int


@dataclass(slots=True)
class Stalemate(Event):
    kind: ClassVar[str] = "stalemate"
    spitters: list[int]


@dataclass(slots=True)
class Slap(Event):
    """A slap on a spit pile to choose it; `size` while choosing, `after_ms` for a slap just after
    the one that settled the piles."""

    kind: ClassVar[str] = "slap"
    player: int
    spit_pile: int
    size: int | None = field(default=None, metadata=OPTIONAL)
    after_ms: float | None = field(default=None, metadata=OPTIONAL)


@dataclass(slots=True)
class Choose(Event):
    """A spit pile chosen without a slap: a lone spitter's pile, or the chooser's pile at a new layout."""

    kind: ClassVar[str] = "choose"
    player: int
    spit_pile: int


@dataclass(slots=True)
class RoundOver(Event):
    kind: ClassVar[str] = "round_over"
    round: int
    reason: str
    player: int | None


@dataclass(slots=True)
class Take(Event):
    kind: ClassVar[str] = "take"
    player: int
    spit_pile: int
    cards: int


@dataclass(slots=True)
class GhostLaid(Event):
    """V14: `giver` lays a ghost card, face down, beside `player`, whose spit cards ran out."""

    kind: ClassVar[str] = "ghost_laid"
    player: int
    giver: int


@dataclass(slots=True)
class GhostTaken(Event):
    """V14: the race for the ghost card: `player` took it (`by_ms` after the round ended), and `wins`
    if they are the one who played out; `player` null: nobody took it in time."""

    kind: ClassVar[str] = "ghost_taken"
    player: int | None
    by_ms: float | None
    wins: bool


@dataclass(slots=True)
class SpitCardLent(Event):
    """V13: at a new layout `player`, too short to keep a spit card, borrows one from `giver` (face
    down by them): their claim to victory, slapped when they play out."""

    kind: ClassVar[str] = "spit_card_lent"
    player: int
    giver: int


@dataclass(slots=True)
class SpitCardWon(Event):
    """V13: `player` played out and slapped the borrowed spit card in time (`by_ms` after playing
    out): the lender gets it back and `player`, holding no card, wins the game."""

    kind: ClassVar[str] = "spit_card_won"
    player: int
    by_ms: float


@dataclass(slots=True)
class SpitCardLost(Event):
    """V13: `player` played out but did not slap the borrowed card in time: `slapper` (the lender)
    slapped it first, `by_ms` after they played out, or (both null) the window closed. `player` takes
    the whole spit pile (`cards` cards) and `giver` gets the spit card back."""

    kind: ClassVar[str] = "spit_card_lost"
    player: int
    giver: int
    cards: int
    slapper: int | None = field(default=None, metadata=OPTIONAL)
    by_ms: float | None = field(default=None, metadata=OPTIONAL)


@dataclass(slots=True)
class Out(Event):
    """V17: a player played out their stock and sits out the rest of the round, in this place."""

    kind: ClassVar[str] = "out"
    player: int
    place: int


@dataclass(slots=True)
class TableSlap(Event):
    """V18/V19: a slap on the table, `right` if the two top values met the slap rule at that moment."""

    kind: ClassVar[str] = "table_slap"
    player: int
    right: bool
    values: list[int]
    rule: str


@dataclass(slots=True)
class TableSlapJudged(Event):
    """The table slaps judged: `taker` takes both spit piles (why: `wrong` slap, `slower` hand), or
    with two wrong slaps `chooser` (the later slapper) chooses a pile. `by_ms`: how much later the
    second slap was."""

    kind: ClassVar[str] = "table_slap_judged"
    reason: str
    taker: int | None
    chooser: int | None
    slaps: list[int]
    by_ms: float | None = field(default=None, metadata=OPTIONAL)


@dataclass(slots=True)
class GameOver(Event):
    """The game is won. `limit`: ended by the game's length, ours (game_length.py: "rounds" or
    "minutes"), with each seat's cards left (`cards`) that decided it; both left out otherwise."""

    kind: ClassVar[str] = "game_over"
    winner: int
    limit: str | None = field(default=None, metadata=OPTIONAL)
    cards: list[int] | None = field(default=None, metadata=OPTIONAL)


EVENT_KINDS: dict[str, type[Event]] = {
    cls.kind: cls for cls in (Deal, Select, Deselect, Flip, Move, Stack, Play, Refill, PickUp, Reject, Call,
                              Reveal, Stalemate, Slap, Choose, RoundOver, Take, Out, TableSlap,
                              TableSlapJudged, GhostLaid, GhostTaken, SpitCardLent, SpitCardWon, SpitCardLost,
                              GameOver)
}


# ---------------------------------------------------------------------- Speed (S1-S5)
# Speed reuses deal (players: hand and stock counts), select, deselect, play (`pile`: the hand
# slot), refill (a played slot refilled from the stock), reject, call, stalemate, round_over
# (reasons `played_out`, `blocked`) and game_over; these are its own.


@dataclass(slots=True)
class Draw(Event):
    """Speed: a press on an empty hand slot draws the top of the player's stock into it."""

    kind: ClassVar[str] = "draw"
    player: int
    pile: int
    card: Card


@dataclass(slots=True)
class TurnUp(Event):
    """Speed: a card turned from a side stack onto the spit pile beside it (both at once)."""

    kind: ClassVar[str] = "turn_up"
    card: Card
    spit_pile: int


@dataclass(slots=True)
class Reshuffle(Event):
    """Speed: the side stacks ran out; the spit piles but their top cards (and any side-stack card
    left) were shuffled into new side stacks of these sizes."""

    kind: ClassVar[str] = "reshuffle"
    side_stacks: list[int]


@dataclass(slots=True)
class Score(Event):
    """Speed: the winner of a deal scores a point per card in the opponent's hand and stock."""

    kind: ClassVar[str] = "score"
    player: int
    points: int
    score: int


EVENT_KINDS.update({cls.kind: cls for cls in (Draw, TurnUp, Reshuffle, Score)})


def from_json(value: dict[str, Any]) -> Event:
    """The event a JSON object of the script format's output describes (the inverse of `to_json`)."""
    cls = EVENT_KINDS[value["event"]]
    fields_by_key = {key: name for name, key, _ in _layout(cls)}
    return cls(**{fields_by_key[key]: item for key, item in value.items() if key != "event"})
