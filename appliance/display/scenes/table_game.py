"""What differs between the games played at the table, for the scenes they share.

The play scene (play.py), the round summary (round_summary.py) and game over (game_over.py) are one
each, for Spit and its family and for Speed alike. What is a game's own is a small policy object,
a `TableGame`, as the rules core composes a variant of policies: its table (Spit's TableView,
Speed's hands and side stacks), its sounds, what each seat is asked and told while it plays, how a
round (Speed: a deal) is summed up and how the game's end is told. `table_game(match)` gives the
match's, a new one for each scene that asks (it may keep what it works out once a game):
spit_words.py for Spit and its family, speed_words.py for Speed.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection
from typing import Any, Protocol

from appliance.match import Match
from appliance.rules import Game

from ..captions import Caption, Line
from .base import Context

Colour = tuple[int, int, int]

# the kind of game a match plays -> "module:Class" of its policy (imported when first asked)
GAMES = {"spit": "spit_words:SpitWords", "speed": "speed_words:SpeedWords"}


class TableGame(Protocol):
    sounds: dict[str, str]  # an event's kind -> the sound it makes

    def table(self, ctx: Context, match: Match) -> Any:
        """The game's table on this screen (it draws the game and keeps its feedback)."""
        ...

    def replay_table(self, ctx: Context, game: Any, computer: frozenset[int]) -> Any:
        """The game's table for a journal played back (replay_show.py): no keys shown, the seats
        the computer played named so."""
        ...

    def extras(self, match: Match, view: Any) -> tuple[list[Any], Any]:
        """What the table shows besides (Running Spit's runner board; a house rule with a card of its
        own: the ghost card, the lent spit card): the overlays, and the duel (None: none)."""
        ...

    def ending(self, match: Match) -> str:
        """The scene the game's end goes to."""
        ...

    def prompt(self, scene: Any, player: int) -> tuple[str, Colour] | None:
        """What a seat is asked to do now (None: nothing)."""
        ...

    def info(self, scene: Any) -> list[Caption]:
        """The info place's texts while the game is played (the rules in force; Speed: the score)."""
        ...

    def summary_lines(self, events: list[Any], view: Any, computer: Collection[int]) -> list[tuple[str, int | None]]:
        """(words, whose colour) for the round that just ended."""
        ...

    def summary_head(self, game: Any) -> str:
        ...

    def summary_foot(self, game: Any) -> Line:
        """The counts after the round (Spit: each player's cards; Speed: the score)."""
        ...

    def over_start(self, match: Match) -> None:
        """Work out, once, what game over shows (the figures, the deals)."""
        ...

    def over_why(self, scene: Any) -> list[Line]:
        """Why the game ended, under the winner (its length, where the operator's limit ended it)."""
        ...

    def over_seat(self, scene: Any, player: int) -> list[Line]:
        """A seat's figures at game over, under its name."""
        ...

    def over_shared(self, scene: Any) -> list[Line]:
        """The panel under the seats' (what the figures mean; Speed: every deal)."""
        ...


def game_kind(match: Match) -> str:
    """"spit" for Spit and its family (the rules' Game), else "speed"."""
    return kind_of(match.game)


def kind_of(game: Any) -> str:
    """"spit" for a game of Spit or its family (the rules' Game), else "speed"."""
    return "spit" if isinstance(game, Game) else "speed"


def table_game(match: Match) -> TableGame:
    """A new policy object for the game `match` plays."""
    return table_game_of(match.game)


def table_game_of(game: Any) -> TableGame:
    """A new policy object for `game` (a match's, or a journal's played back)."""
    module, _, name = GAMES[kind_of(game)].partition(":")
    policy: TableGame = getattr(importlib.import_module(f"{__package__}.{module}"), name)()
    return policy
