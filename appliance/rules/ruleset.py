"""A ruleset: the small policies a game is played by, composed by name from its options.

    rules = ruleset("four-piles", {"alternate_colours": True})

The engine (`game.py`) asks the ruleset's policies what to do and never reads an option itself:
the deal and layout (`layout`), what fits on a spit pile (`fits`), the stock moves and hands
(`moves`), how piles are chosen at a new layout (`choosing`), and the goal (`goal`). A preset is a
name for some options (options.py); a new rule is a new policy here, not a branch in the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .carry import Carried, InHand
from .choosing import CHOOSING, PlayedOutSlapsTheLarger, SlapForIt
from .fits import AlternateColours, OneRankApart
from .game_length import UNLIMITED, GameLength
from .ghost_card import GhostCard
from .goal import GOALS, FewestCards
from .house_rule import HouseRule
from .layout import Refilled, RowByRow
from .moves import PickUpLast, StockMoves
from .options import Options, read_options
from .round_end import FirstOutEndsTheRound, RoundEnd, SitOut
from .spit_card_please import SpitCardPlease
from .table import Table
from .table_slap import TABLE_SLAPS, TableSlap


@dataclass(frozen=True)
class Ruleset:
    variant: str
    options: Options
    table: Table
    layout: RowByRow
    fits: OneRankApart
    moves: StockMoves
    choosing: type[SlapForIt]  # a fresh one a game: it holds who chooses
    goal: FewestCards
    round_end: type[RoundEnd]  # a fresh one a game: V17's holds who is out and still to choose
    table_slap: type[TableSlap] | None = None
    ghost: type[GhostCard] | None = None  # house rules with state of their own: a fresh one a game
    please: type[SpitCardPlease] | None = None
    length: GameLength = UNLIMITED  # ours: a game bounded in rounds or minutes (game_length.py)
    # How long after an opponent's play onto a spit pile a card that fitted the covered top is told
    # `too_late` (it lost the race) rather than `not_adjacent`. Seconds of press time.
    race_window: float = 1.0
    # How long after the slap that settled the piles another slap is still told it lost that race.
    # Shorter than race_window: a lone spitter choosing a pile in the new layout needs to see it
    # first (a human reaction, 150 ms at the very least), and that press is a choice, not a slap.
    slap_window: float = 0.25

    @property
    def name(self) -> str:
        return self.variant

    @property
    def plain_classic(self) -> bool:
        """Classic with no options: its state object stays exactly as the format's first half says."""
        return self.variant == "classic" and self.options == Options()

    def options_json(self) -> dict[str, Any]:
        return self.options.to_json()

    @property
    def slaps(self) -> str:
        """What the `slap` control slaps in this game: "table" (V18/V19), "ghost" (V14), "card"
        (V13's lent spit card), or "" (nothing: the control does nothing here)."""
        kinds: tuple[type[HouseRule] | None, ...] = (self.please, self.ghost, self.table_slap)
        return next((kind.slaps for kind in kinds if kind is not None), "")

    def start_house(self) -> tuple[HouseRule, ...]:
        """A new game's house rules, each a fresh object holding its own state (house_rule.py)."""
        kinds: tuple[type[HouseRule] | None, ...] = (self.please, self.ghost, self.table_slap)
        return tuple(kind() for kind in kinds if kind is not None)


LAYOUTS: dict[bool, type[RowByRow]] = {False: RowByRow, True: Refilled}
FITS: dict[bool, OneRankApart] = {False: OneRankApart(), True: AlternateColours()}


def compose(variant: str, options: Options) -> Ruleset:
    return Ruleset(
        variant=variant,
        options=options,
        table=Table(options.seats),
        layout=LAYOUTS[options.refill](options.stock_piles),
        fits=FITS[options.alternate_colours],
        moves=StockMoves(stacking=options.same_rank_stacking, hands=2 if options.two_hands else 1,
                         pick_up=PickUpLast() if options.hidden_last else None,
                         holding=Carried(options.runners) if options.carry else InHand()),
        # V15: in Reverse Spit the player who played out slaps the larger pile, and it is theirs.
        choosing=PlayedOutSlapsTheLarger if (options.goal, options.choose) == ("all", "slap")
        else CHOOSING[options.choose],
        goal=GOALS[options.goal],
        round_end=SitOut if options.seats > 2 else FirstOutEndsTheRound,
        table_slap=None if options.table_slap is None else TABLE_SLAPS[options.table_slap],
        ghost=GhostCard if options.ghost_card else None,
        please=SpitCardPlease if options.spit_card_please else None,
        length=GameLength(options.limit_rounds, options.limit_minutes),
    )


def ruleset(variant: str = "classic", options: Mapping[str, Any] | None = None) -> Ruleset:
    """The rules of a preset with house rules on top; raises OptionError naming a bad option."""
    return compose(variant, read_options(variant, options))


CLASSIC = ruleset()
