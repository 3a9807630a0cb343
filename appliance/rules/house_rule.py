"""A house rule: one object with its own state, behind the one small protocol the engine loops over.

A game holds one fresh object for each house rule in force (`Game.house`, made by the ruleset's
`house` factories). The engine never reads a rule's state and a rule never writes the engine's
fields: each side asks the other through methods. What a rule may be asked:

- `begin`: a new game (the game's seeded RNG, for a rule drawn at the start: V19);
- `dealt` / `revealed` / `played_out`: what a new layout, the turned spit cards, and a player
  playing out their stock mean to it (`played_out` True: the rule holds the round open, a race);
- `press`: what a press means to it now (True: it took the press, the engine does nothing more);
- `deadline` / `close`: when time passing alone decides something, and what it decides;
- `actions`: the legal actions it allows a player now (None: it has no say); `also`: what it offers
  beside the game's own moves (the table slap); `holds_play`: nothing is played or called now (a
  table slap being judged);
- `cards` / `gather`: the cards it holds (every card is somewhere), and those that go to a player's
  hand at a new layout (it lets go of them there);
- `copy`: the rule and its state in objects of its own (for `Game.copy`, which a rollback starts from);
- `key`, `to_state`, `read_state`: its part of the state object (and so of the snapshot);
- `slaps`: what the `slap` control slaps where it is in force, for the legends to name;
- `prompt`: what it asks of a seat now (`Prompt`, as data: the screen has the words);
- `verdict`: what one of its events decided, as data (`Verdict`: who won or took what, by how many
  ms, who may still be told they were late): the screen has the words, and works nothing out.

Rules are standard-library only and deterministic, as the whole core is.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self

from .cards import Card
from .events import Event
from .moves import Action

if TYPE_CHECKING:
    from .engine import Engine


@dataclass(frozen=True)
class Prompt:
    """What a rule asks of one seat now, as data: a key the screen has words for, the player it
    names (if any), and whether it must be read in a blink (drawn big)."""

    key: str
    player: int | None = None
    urgent: bool = False


@dataclass(frozen=True)
class Verdict:
    """What a rule decided, as data: a key the screen has words for and the values they name.

    `player`: whom it is about (who won, who takes); `other`: the other player it names (who played
    out, who slapped first, who chooses a pile, whom a card goes back to); `ms`: by how many ms (the
    race's time, or the window that closed); `cards`: how many cards were taken; `late`: who may yet
    slap just after it (that slap is told as late by so many ms, not as a press that did nothing);
    `good`: a win or a right slap (the screen's colour for it); `working`: the steps that decided it
    (`Step`), for the screen to show."""

    key: str
    player: int | None = None
    other: int | None = None
    ms: float | None = None
    cards: int = 0
    late: tuple[int, ...] = ()
    good: bool = False
    working: tuple[Step, ...] = ()  # how it was worked out (Mod Spit: 6 × 13 = 78, 78 mod 7 = 1: not a prime)


@dataclass(frozen=True)
class Step:
    """One step of a verdict's working, as data: an operation the screen has words for, the numbers
    it takes and what came of it (("times", (6, 13), 78), ("mod", (78, 7), 1), ("prime", (1,), False)).
    A step whose result is a bool is a test; the rule is met when every test is."""

    op: str
    args: tuple[int, ...]
    result: int | bool


class Verdicts:
    """The verdicts a rule said, by the event that told what happened (the last few: a screen asks
    about the events of the press it has just shown)."""

    KEEP = 8

    def __init__(self) -> None:
        self._said: list[tuple[Event, Verdict]] = []

    def copy(self) -> Verdicts:
        """The same verdicts, in a list of its own (the events and verdicts are shared: nothing changes them)."""
        twin = Verdicts()
        twin._said = list(self._said)
        return twin

    def say(self, event: Event, verdict: Verdict) -> None:
        self._said = [*self._said[-(self.KEEP - 1):], (event, verdict)]

    def of(self, event: Event) -> Verdict | None:
        for said, verdict in reversed(self._said):
            if said is event or said == event:
                return verdict
        return None


class HouseRule(Protocol):
    key: ClassVar[str]
    slaps: ClassVar[str]  # what the slap control slaps where this rule is in force ("table", "ghost", "card")

    def copy(self) -> Self: ...
    def begin(self, game: Engine, rng: random.Random) -> None: ...
    def dealt(self, game: Engine, events: list[Event], t: float) -> None: ...
    def revealed(self, game: Engine, events: list[Event], t: float) -> None: ...
    def played_out(self, game: Engine, player: int, t: float) -> bool: ...
    def press(self, game: Engine, events: list[Event], t: float, player: int, control: str) -> bool: ...
    def deadline(self) -> float | None: ...
    def close(self, game: Engine, events: list[Event], t: float) -> None: ...
    def actions(self, game: Engine, player: int) -> list[Action] | None: ...
    def also(self, game: Engine, player: int) -> list[Action]: ...
    def holds_play(self) -> bool: ...
    def prompt(self, game: Engine, player: int) -> Prompt | None: ...
    def verdict(self, event: Event) -> Verdict | None: ...
    def cards(self) -> list[Card]: ...
    def gather(self, player: int) -> list[Card]: ...
    def to_state(self) -> Any: ...
    def read_state(self, game: Engine, value: Any) -> None: ...
