"""How a round ends: the first player out ends it (rule 8, two seats), or players go out one by one
and sit out while the others play on (V17, three and four seats).

The engine calls `stock_out` when a player plays their last stock card and `blocked` when nobody
can move and nobody holds spit cards; the policy decides who takes which spit pile and when the new
layout is dealt.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, Self

from .events import Event, Out, RoundOver, Take
from .seat import Seat
from .terms import Phase

if TYPE_CHECKING:
    from .engine import Engine


class RoundEnd(Protocol):
    def copy(self) -> Self: ...
    def state_part(self) -> dict[str, Any]: ...
    def read_state(self, players: list[Seat], value: Any) -> None: ...
    def dealt(self) -> None: ...
    def stock_out(self, game: Engine, events: list[Event], t: float, player: int) -> None: ...
    def blocked(self, game: Engine, events: list[Event], t: float) -> None: ...
    def may_choose_now(self, game: Engine, player: int) -> bool: ...
    def take(self, game: Engine, events: list[Event], t: float, player: int, index: int) -> None: ...
    def after_race(self, game: Engine, events: list[Event], t: float, player: int) -> None: ...


@dataclass
class FirstOutEndsTheRound:
    """Rule 8: the round ends when a player plays out or play is blocked; then the piles are chosen
    by the ruleset's choosing policy (with one spit pile, nobody chooses: rules 9 and 10)."""

    def copy(self) -> Self:
        return replace(self)

    def state_part(self) -> dict[str, Any]:
        return {}

    def read_state(self, players: list[Seat], value: Any) -> None:
        pass

    def dealt(self) -> None:
        pass

    def stock_out(self, game: Engine, events: list[Event], t: float, player: int) -> None:
        self.round_over(game, events, t, "stock_out", player)

    def blocked(self, game: Engine, events: list[Event], t: float) -> None:
        self.round_over(game, events, t, "blocked", None)

    def round_over(self, game: Engine, events: list[Event], t: float, reason: str, player: int | None) -> None:
        game.close_round(events, t, reason, player)
        if player is not None and game.race_held(player, t):
            game.phase = Phase.CHOOSING  # the piles wait for a house rule's race (V13's lent card, V14's ghost)
            return
        self.settle(game, events, t, reason, player)

    def after_race(self, game: Engine, events: list[Event], t: float, player: int) -> None:
        """A house rule's race is over and nobody won the game by it: choose the piles."""
        self.settle(game, events, t, "stock_out", player)

    def settle(self, game: Engine, events: list[Event], t: float, reason: str, player: int | None) -> None:
        in_play = [i for i, pile in enumerate(game.spit_piles) if pile]
        if len(in_play) > 1:
            game.start_choosing(reason, player)
            return
        index = in_play[0]
        taker = game.single_pile_taker(reason, player, index)
        game.new_layout(events, t, {taker: [index]})

    def may_choose_now(self, game: Engine, player: int) -> bool:
        return False

    def take(self, game: Engine, events: list[Event], t: float, player: int, index: int) -> None:
        raise ValueError("with two seats nobody takes a pile in the middle of a round")


@dataclass
class SitOut:
    """V17: whoever plays out their stock first chooses a spit pile (by pressing it) and sits out the
    rest of the round; the others play on for second, third...; when all but one are out, the last
    player takes the piles left and a new round is dealt. A player who goes out first with no spit
    cards has no cards left at all and wins the game. Blocked: whoever went out and has not chosen
    yet takes the smallest pile, then the players still in take the smallest piles left, fewest stock
    cards first, and the one with the most stock cards the rest.

    A game's SitOut holds its own state: the players out who have still to choose a pile."""

    choosers_out: list[int] = field(default_factory=list)

    def copy(self) -> Self:
        return replace(self, choosers_out=list(self.choosers_out))

    def state_part(self) -> dict[str, Any]:
        return {"choosers_out": list(self.choosers_out)}

    def read_state(self, players: list[Seat], value: Any) -> None:
        """Its part of a setup position: who is out and still to choose (each must be out)."""
        if value is None:
            value = []
        if not isinstance(value, list):
            raise ValueError("choosers_out must be a list of players")
        for number in value:
            if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(players):
                raise ValueError(f"choosers_out[] must be a whole number from 1 to {len(players)}, not {number!r}")
            if not players[number - 1].out:
                raise ValueError(f"choosers_out: player {number} is not out of the round")
        self.choosers_out = list(value)

    def dealt(self) -> None:
        self.choosers_out = []

    def stock_out(self, game: Engine, events: list[Event], t: float, player: int) -> None:
        me = game.player(player)
        me.out = 1 + sum(1 for p in game.players if p.out)
        me.let_go()
        events.append(Out(t, player, me.out))
        if me.out == 1 and not me.spit_cards:
            game.close_round(events, t, "stock_out", player)
            self._share_out(game, events, t, winner=player)
            return
        self.choosers_out.append(player)
        playing = [n for n in game.table.players if game.player(n).playing]
        if len(playing) == 1:
            game.close_round(events, t, "stock_out", player)
            self._share_out(game, events, t)
        else:
            game.after_change(events, t)

    def blocked(self, game: Engine, events: list[Event], t: float) -> None:
        game.close_round(events, t, "blocked", None)
        self._share_out(game, events, t)

    def may_choose_now(self, game: Engine, player: int) -> bool:
        return player in self.choosers_out

    def _share_out(self, game: Engine, events: list[Event], t: float, winner: int | None = None) -> None:
        """The piles still in the middle go to those who have none yet, then the new layout."""
        left = sorted((i for i, pile in enumerate(game.spit_piles) if pile), key=lambda i: len(game.spit_piles[i]))
        takes: dict[int, list[int]] = {}
        waiting = [n for n in self.choosers_out if n != winner]
        playing = sorted((n for n in game.table.players if game.player(n).playing and n != winner),
                         key=lambda n: (game.player(n).stock_count(), n))
        for number in waiting + playing:
            if left:
                takes[number] = [left.pop(0)]
        if left:
            last = (playing or waiting or [n for n in game.table.players if n != winner])[-1]
            takes.setdefault(last, []).extend(left)
        game.new_layout(events, t, takes)

    def after_race(self, game: Engine, events: list[Event], t: float, player: int) -> None:
        raise ValueError("the ghost card is for two seats")

    def take(self, game: Engine, events: list[Event], t: float, player: int, index: int) -> None:
        """An out player takes spit pile `index` out of the game for this round."""
        self.choosers_out.remove(player)
        pile = game.spit_piles[index]
        events.append(Take(t, player, index, len(pile)))
        game.player(player).taken.extend(pile)
        game.spit_piles[index] = []
        game.races[index] = None
        game.after_change(events, t)


__all__ = ["FirstOutEndsTheRound", "RoundEnd", "RoundOver", "SitOut"]
