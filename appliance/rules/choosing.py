"""How the spit piles are chosen for a new layout (rule 8 and V10-V12).

Each policy answers the presses of phase `choosing`: `left`/`right` (a slap, or a choice) and
`spit` (a call). When the choice is made the policy calls `game.settle_piles`, which gives the
first player the pile they chose and the others the piles left, then deals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from .events import Call, Choose, Event, Slap
from .moves import Action

if TYPE_CHECKING:
    from .engine import Engine


@dataclass(frozen=True)
class Prompt:
    """What a seat is asked to do while the piles are chosen: a key the screen has words for, and
    the player it names (who chooses), if any."""

    key: str
    player: int | None = None


@dataclass(frozen=True)
class SlapForIt:
    """Rule 8: both slap the pile they want; the first slap, by the hardware's clock, takes its pile
    and so settles the others too."""

    def start(self, game: Engine, reason: str, player: int | None) -> None:
        """Phase `choosing` begins: who may choose."""

    def side_press(self, game: Engine, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        if not self.may_slap(game, index):
            game.reject(events, t, player, side, "slap_smaller", spit_pile=index)
            return
        events.append(Slap(t, player, index, size=len(game.spit_piles[index])))
        game.settle_piles(events, t, player, index, slapped=True)

    def spit_press(self, game: Engine, events: list[Event], t: float, player: int) -> None:
        game.reject(events, t, player, "spit", "wrong_phase")

    def may_slap(self, game: Engine, index: int) -> bool:
        return True

    def actions(self, game: Engine, player: int) -> list[Action]:
        return [Action("slap", target=i) for i, pile in enumerate(game.spit_piles)
                if pile and self.may_slap(game, i)]

    def prompt(self, game: Engine, player: int, larger: bool) -> Prompt:
        """What a seat is asked while the piles are chosen, as data: the screen has the words for
        each key. `larger`: the goal wants the larger pile (V15)."""
        return Prompt("slap_larger" if larger else "slap_smaller")


@dataclass(frozen=True)
class ChooserChooses(SlapForIt):
    """One player chooses a pile by pressing it, no slap: who that is, is the subclass's rule."""

    def side_press(self, game: Engine, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        if game.chooser is None:
            game.reject(events, t, player, side, "call_first")
        elif game.chooser != player:
            game.reject(events, t, player, side, "not_your_choice", winner=game.chooser)
        else:
            events.append(Choose(t, player, index))
            game.settle_piles(events, t, player, index, slapped=False)

    def actions(self, game: Engine, player: int) -> list[Action]:
        if game.chooser == player:
            return [Action("choose", target=i) for i, pile in enumerate(game.spit_piles) if pile]
        return []

    why: ClassVar[str] = "called_first"  # how the chooser won the right: by calling first, or playing out

    def prompt(self, game: Engine, player: int, larger: bool) -> Prompt:
        chooser = game.chooser
        if chooser is None:
            return Prompt("call_first")
        if chooser == player:
            return Prompt(f"you_{self.why}")
        return Prompt(f"they_{self.why}", chooser)


@dataclass(frozen=True)
class Shapp(ChooserChooses):
    """V10, David Shapp: whoever played out their stock chooses freely; on a block, the player with
    fewer stock cards. (Equal counts on a block: either may choose, and the first press does.)"""

    why: ClassVar[str] = "played_out"

    def start(self, game: Engine, reason: str, player: int | None) -> None:
        if player is not None:
            game.chooser = player
            return
        counts = {n: game.player(n).stock_count() for n in game.table.players}
        fewest = min(counts.values())
        first = [n for n, count in counts.items() if count == fewest]
        game.chooser = first[0] if len(first) == 1 else None

    def side_press(self, game: Engine, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        if game.chooser is None:  # a block with equal counts: the first press chooses
            game.chooser = player
        super().side_press(game, events, t, player, side, index)

    def actions(self, game: Engine, player: int) -> list[Action]:
        if game.chooser is None:
            return [Action("choose", target=i) for i, pile in enumerate(game.spit_piles) if pile]
        return super().actions(game, player)


@dataclass(frozen=True)
class FirstCall(ChooserChooses):
    """V11: the first to call "Spit!" chooses the pile; a later call lost the race."""

    def spit_press(self, game: Engine, events: list[Event], t: float, player: int) -> None:
        if game.chooser is None:
            game.chooser, game.chooser_t = player, t
            events.append(Call(t, player))
        elif game.chooser == player:
            game.reject(events, t, player, "spit", "already_called")
        else:
            game.reject(events, t, player, "spit", "too_late", winner=game.chooser,
                        by_ms=round((t - game.chooser_t) * 1000, 3))

    def actions(self, game: Engine, player: int) -> list[Action]:
        if game.chooser is None:
            return [Action("call")]
        return super().actions(game, player)


@dataclass(frozen=True)
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
            game.reject(events, t, player, "spit", "wrong_phase")

    def actions(self, game: Engine, player: int) -> list[Action]:
        if self.equal(game):
            return super().actions(game, player)
        return SlapForIt.actions(self, game, player)

    def prompt(self, game: Engine, player: int, larger: bool) -> Prompt:
        if self.equal(game):
            return super().prompt(game, player, larger)
        return SlapForIt.prompt(self, game, player, larger)


@dataclass(frozen=True)
class PlayedOutSlapsTheLarger(SlapForIt):
    """V15, Reverse Spit: "when a player has got rid of their whole hand, they slap and take the larger
    pile" (000): the pile is theirs, not a race. Only the player who played out may slap, and only a
    largest pile; the other player's slap is `not_your_choice`. Blocked (nobody played out; the seed
    is silent): both slap as in rule 8, the first hand takes its pile."""

    def start(self, game: Engine, reason: str, player: int | None) -> None:
        game.chooser = player

    def largest(self, game: Engine, index: int) -> bool:
        return len(game.spit_piles[index]) == max(len(pile) for pile in game.spit_piles)

    def side_press(self, game: Engine, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        if game.chooser is None:
            super().side_press(game, events, t, player, side, index)
        elif game.chooser != player:
            game.reject(events, t, player, side, "not_your_choice", winner=game.chooser)
        elif not self.largest(game, index):
            game.reject(events, t, player, side, "slap_larger", spit_pile=index)
        else:
            events.append(Slap(t, player, index, size=len(game.spit_piles[index])))
            game.settle_piles(events, t, player, index, slapped=True)

    def actions(self, game: Engine, player: int) -> list[Action]:
        if game.chooser is None:
            return super().actions(game, player)
        if game.chooser != player:
            return []
        return [Action("slap", target=i) for i, pile in enumerate(game.spit_piles) if pile and self.largest(game, i)]

    def prompt(self, game: Engine, player: int, larger: bool) -> Prompt:
        if game.chooser is None:
            return super().prompt(game, player, larger)
        if game.chooser == player:
            return Prompt("you_played_out_slap_larger")
        return Prompt("they_played_out_take_larger", game.chooser)


CHOOSING: dict[str, SlapForIt] = {
    "slap": SlapForIt(),
    "shapp": Shapp(),
    "first_call": FirstCall(),
    "slap_spit": SlapSpit(),
}
