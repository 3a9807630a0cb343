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
- `key`, `to_state`, `read_state`: its part of the state object (and so of the snapshot);
- `slaps`: what the `slap` control slaps where it is in force, for the legends to name;
- `prompt`: what it asks of a seat now (`Prompt`, as data: the screen has the words).

Rules are standard-library only and deterministic, as the whole core is.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

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


class HouseRule(Protocol):
    key: ClassVar[str]
    slaps: ClassVar[str]  # what the slap control slaps where this rule is in force ("table", "ghost", "card")

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
    def cards(self) -> list[Card]: ...
    def gather(self, player: int) -> list[Card]: ...
    def to_state(self) -> Any: ...
    def read_state(self, game: Engine, value: Any) -> None: ...
