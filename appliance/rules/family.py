"""The whole family by name: a preset's game type makes its games.

    game, events = new_game("speed", seed=3, options={"target": 15})
    game = game_from_setup({"variant": "four-piles", "seed": 7, "state": {...}})[0]
    same = restore(game.snapshot())

Spit and its variants are one game type (`game.Game`, its rules composed from policies); Speed is
a game type of its own (`speed`), sharing the cards, the table, the events, the races decided by
edge time and the snapshot. Every game type offers the same surface (`FamilyGame`), so the match,
the journal, `script`, the computer players and the screen serve them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .events import Event
from .game import Game
from .moves import Action
from .options import PRESETS, OptionError, Options, read_options
from .ruleset import compose
from .speed_state import SPEED
from .state import SetupError, game_from_state
from .state import restore as restore_spit
from .table import Table
from .terms import Phase


class FamilyGame(Protocol):
    """What every game of the family offers."""

    seed: int
    now: float
    phase: Phase
    round: int
    winner: int | None

    @property
    def table(self) -> Table: ...
    @property
    def variant(self) -> str: ...
    def pile_controls(self, player: int) -> int: ...
    def press(self, t: float, player: int, control: str) -> list[Event]: ...
    def advance(self, t: float) -> list[Event]: ...
    def state(self) -> dict[str, Any]: ...
    def snapshot(self) -> dict[str, Any]: ...
    def copy(self) -> FamilyGame: ...
    def legal_actions(self, player: int) -> list[Action]: ...
    def presses_for(self, player: int, action: Action) -> list[str]: ...


class GameType(Protocol):
    def new(self, variant: str, options: Options, seed: int) -> tuple[FamilyGame, list[Event]]: ...
    def from_state(self, state: Any, seed: int, variant: str, options: Mapping[str, Any] | None) -> FamilyGame: ...
    def restore(self, snap: dict[str, Any]) -> FamilyGame: ...


@dataclass(frozen=True)
class SpitGames:
    def new(self, variant: str, options: Options, seed: int) -> tuple[FamilyGame, list[Event]]:
        return Game.new(seed=seed, rules=compose(variant, options))

    def from_state(self, state: Any, seed: int, variant: str, options: Mapping[str, Any] | None) -> FamilyGame:
        return game_from_state(state, seed=seed, variant_name=variant, options=options)

    def restore(self, snap: dict[str, Any]) -> FamilyGame:
        return restore_spit(snap)


GAME_TYPES: dict[str, GameType] = {"spit": SpitGames(), "speed": SPEED}


def game_type(variant: str) -> GameType:
    read_options(variant)  # an unknown variant is an OptionError naming it
    return GAME_TYPES[PRESETS[variant].game]


def new_game(variant: str = "classic", seed: int = 0, options: Mapping[str, Any] | None = None
             ) -> tuple[FamilyGame, list[Event]]:
    """A seeded deal of a preset with house rules on top; raises OptionError for bad options."""
    return game_type(variant).new(variant, read_options(variant, options), seed)


def game_from_setup(setup: Mapping[str, Any]) -> tuple[FamilyGame, list[Event]]:
    """The game a script's setup line starts: a seeded deal, or an explicit position (with the
    events of settling it: a position where nobody can move goes straight to its stalemate).
    Raises OptionError or SetupError naming the problem."""
    variant = setup.get("variant", "classic")
    seed = setup.get("seed", 0)
    options = setup.get("options")
    if "state" not in setup:
        return new_game(variant, seed, options)
    kind = game_type(variant)
    game = kind.from_state(setup["state"], seed, variant, options)
    settle = getattr(game, "settle", None)
    return game, (settle(0.0) if settle is not None else [])


def seats_of(variant: str, options: Mapping[str, Any] | None = None) -> int:
    return read_options(variant, options).seats


def restore(snap: Any) -> FamilyGame:
    """The game a snapshot was taken of (any game type); raises SetupError if it is not one."""
    if not isinstance(snap, dict) or not isinstance(snap.get("variant"), str):
        raise SetupError("not a snapshot: it names no variant")
    try:
        kind = game_type(snap["variant"])
    except OptionError as error:
        raise SetupError(str(error)) from None
    return kind.restore(snap)
