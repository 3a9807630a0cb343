"""How the spit piles are chosen for a new layout (rule 8 and V10-V12).

Each policy answers the presses of phase `choosing`: `left`/`right` (a slap, or a choice) and
`spit` (a call). When the choice is made the policy asks `game.settle_piles`, which gives the first
player the pile they chose and the others the piles left, then the deal. A game holds its own
choosing object (who chooses, since when, the slap that settled the last choosing): the rule's
state is the rule's, never the engine's fields.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, Self

from .events import Call, Choose, Event, Slap
from .moves import Action
from .terms import Reason

if TYPE_CHECKING:
    from .engine import Engine


@dataclass(frozen=True)
class Prompt:
    """What a seat is asked to do while the piles are chosen: a key the screen has words for, and
    the player it names (who chooses), if any."""

    key: str
    player: int | None = None


@dataclass
class SlapRace:
    """The first slap of a choosing, which settled the piles: a later slap is answered from it."""

    t: float
    player: int
    taken: dict[int, int]  # player -> spit pile taken


@dataclass
class SlapForIt:
    """Rule 8: both slap the pile they want; the first slap, by the hardware's clock, takes its pile
    and so settles the others too.

    A game's choosing rule is one object with its own state: who chooses at this new layout (V10-V12)
    and since when (their call), and the slap that settled the last choosing."""

    chooser: int | None = None
    chooser_t: float = 0.0
    settled: SlapRace | None = None

    def copy(self) -> Self:
        """This rule's state in an object of its own (for `Game.copy`)."""
        settled = self.settled
        return replace(self, settled=None if settled is None else replace(settled, taken=dict(settled.taken)))

    def start(self, game: Engine, reason: str, player: int | None) -> None:
        """Phase `choosing` begins: who may choose."""

    def begin(self, reason: str, player: int | None, game: Engine) -> None:
        """Phase `choosing` begins (the engine's one call): nobody chooses yet, then the rule's own start."""
        self.chooser = None
        self.start(game, reason, player)

    def dealt(self) -> None:
        """A new layout: nobody chooses any more."""
        self.chooser = None

    def called(self) -> None:
        """A "Spit!" call: later slaps are no longer part of the last choosing."""
        self.settled = None

    def settle(self, game: Engine, events: list[Event], t: float, player: int, index: int, slapped: bool) -> None:
        """`player` takes pile `index` (by a slap: remembered for the slaps just after); then the deal."""
        taken = game.settle_piles(events, t, player, index)
        if slapped:
            self.settled = SlapRace(t, player, taken)
        game.deal_after_choosing(events, t, taken)

    def side_press(self, game: Engine, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        if not self.may_slap(game, index):
            game.reject(events, t, player, side, Reason.SLAP_SMALLER, spit_pile=index)
            return
        events.append(Slap(t, player, index, size=len(game.spit_piles[index])))
        self.settle(game, events, t, player, index, slapped=True)

    def spit_press(self, game: Engine, events: list[Event], t: float, player: int) -> None:
        game.reject(events, t, player, "spit", Reason.WRONG_PHASE)

    def may_slap(self, game: Engine, index: int) -> bool:
        return True

    def actions(self, game: Engine, player: int) -> list[Action]:
        return [Action("slap", target=i) for i, pile in enumerate(game.spit_piles)
                if pile and self.may_slap(game, i)]

    def prompt(self, game: Engine, player: int, larger: bool) -> Prompt:
        """What a seat is asked while the piles are chosen, as data: the screen has the words for
        each key. `larger`: the goal wants the larger pile (V15)."""
        return Prompt("slap_larger" if larger else "slap_smaller")


@dataclass
class ChooserChooses(SlapForIt):
    """One player chooses a pile by pressing it, no slap: who that is, is the subclass's rule."""

    def side_press(self, game: Engine, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        if self.chooser is None:
            game.reject(events, t, player, side, Reason.CALL_FIRST)
        elif self.chooser != player:
            game.reject(events, t, player, side, Reason.NOT_YOUR_CHOICE, winner=self.chooser)
        else:
            events.append(Choose(t, player, index))
            self.settle(game, events, t, player, index, slapped=False)

    def actions(self, game: Engine, player: int) -> list[Action]:
        if self.chooser == player:
            return [Action("choose", target=i) for i, pile in enumerate(game.spit_piles) if pile]
        return []

    why: ClassVar[str] = "called_first"  # how the chooser won the right: by calling first, or playing out

    def prompt(self, game: Engine, player: int, larger: bool) -> Prompt:
        chooser = self.chooser
        if chooser is None:
            return Prompt("call_first")
        if chooser == player:
            return Prompt(f"you_{self.why}")
        return Prompt(f"they_{self.why}", chooser)


@dataclass
class Shapp(ChooserChooses):
    """V10, David Shapp: whoever played out their stock chooses freely; on a block, the player with
    fewer stock cards. (Equal counts on a block: either may choose, and the first press does.)"""

    why: ClassVar[str] = "played_out"

    def start(self, game: Engine, reason: str, player: int | None) -> None:
        if player is not None:
            self.chooser = player
            return
        counts = {n: game.player(n).stock_count() for n in game.table.players}
        fewest = min(counts.values())
        first = [n for n, count in counts.items() if count == fewest]
        self.chooser = first[0] if len(first) == 1 else None

    def side_press(self, game: Engine, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        if self.chooser is None:  # a block with equal counts: the first press chooses
            self.chooser = player
        super().side_press(game, events, t, player, side, index)

    def actions(self, game: Engine, player: int) -> list[Action]:
        if self.chooser is None:
            return [Action("choose", target=i) for i, pile in enumerate(game.spit_piles) if pile]
        return super().actions(game, player)


@dataclass
class FirstCall(ChooserChooses):
    """V11: the first to call "Spit!" chooses the pile; a later call lost the race."""

    def spit_press(self, game: Engine, events: list[Event], t: float, player: int) -> None:
        if self.chooser is None:
            self.chooser, self.chooser_t = player, t
            events.append(Call(t, player))
        elif self.chooser == player:
            game.reject(events, t, player, "spit", Reason.ALREADY_CALLED)
        else:
            game.reject(events, t, player, "spit", Reason.TOO_LATE, winner=self.chooser,
                        by_ms=round((t - self.chooser_t) * 1000, 3))

    def actions(self, game: Engine, player: int) -> list[Action]:
        if self.chooser is None:
            return [Action("call")]
        return super().actions(game, player)


@dataclass
class SlapSpit(FirstCall):
    """V12, Slap Spit: as soon as a player runs out, either may slap the smaller spit pile; the first
    hand takes it. Piles of equal size: the first to call "Spit!" chooses."""

    def equal(self, game: Engine) -> bool:
        sizes = {len(pile) for pile in game.spit_piles if pile}
        return len(sizes) == 1

    def may_slap(self, game: Engine, index: int) -> bool:
        smallest = min(len(pile) for pile in game.spit_piles if pile)
        return len(game.spit_piles[index]) == smallest

    def side_press(self, game: Engine, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        if self.equal(game):
            super().side_press(game, events, t, player, side, index)
        else:
            SlapForIt.side_press(self, game, events, t, player, side, index)

    def spit_press(self, game: Engine, events: list[Event], t: float, player: int) -> None:
        if self.equal(game):
            super().spit_press(game, events, t, player)
        else:
            game.reject(events, t, player, "spit", Reason.WRONG_PHASE)

    def actions(self, game: Engine, player: int) -> list[Action]:
        if self.equal(game):
            return super().actions(game, player)
        return SlapForIt.actions(self, game, player)

    def prompt(self, game: Engine, player: int, larger: bool) -> Prompt:
        if self.equal(game):
            return super().prompt(game, player, larger)
        return SlapForIt.prompt(self, game, player, larger)


@dataclass
class PlayedOutSlapsTheLarger(SlapForIt):
    """V15, Reverse Spit: "when a player has got rid of their whole hand, they slap and take the larger
    pile" (000): the pile is theirs, not a race. Only the player who played out may slap, and only a
    largest pile; the other player's slap is `not_your_choice`. Blocked (nobody played out; the seed
    is silent): both slap as in rule 8, the first hand takes its pile."""

    def start(self, game: Engine, reason: str, player: int | None) -> None:
        self.chooser = player

    def largest(self, game: Engine, index: int) -> bool:
        return len(game.spit_piles[index]) == max(len(pile) for pile in game.spit_piles)

    def side_press(self, game: Engine, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        if self.chooser is None:
            super().side_press(game, events, t, player, side, index)
        elif self.chooser != player:
            game.reject(events, t, player, side, Reason.NOT_YOUR_CHOICE, winner=self.chooser)
        elif not self.largest(game, index):
            game.reject(events, t, player, side, Reason.SLAP_LARGER, spit_pile=index)
        else:
            events.append(Slap(t, player, index, size=len(game.spit_piles[index])))
            self.settle(game, events, t, player, index, slapped=True)

    def actions(self, game: Engine, player: int) -> list[Action]:
        if self.chooser is None:
            return super().actions(game, player)
        if self.chooser != player:
            return []
        return [Action("slap", target=i) for i, pile in enumerate(game.spit_piles) if pile and self.largest(game, i)]

    def prompt(self, game: Engine, player: int, larger: bool) -> Prompt:
        if self.chooser is None:
            return super().prompt(game, player, larger)
        if self.chooser == player:
            return Prompt("you_played_out_slap_larger")
        return Prompt("they_played_out_take_larger", self.chooser)


CHOOSING: dict[str, type[SlapForIt]] = {
    "slap": SlapForIt,
    "shapp": Shapp,
    "first_call": FirstCall,
    "slap_spit": SlapSpit,
}
