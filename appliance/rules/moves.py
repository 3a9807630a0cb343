"""The moves a player has with their stock piles (rule 4, V7 same-rank stacking, V8 two hands).

`Action` is one thing a player can do, whatever the game: the one list of them, `Game.legal_actions`,
serves the computer players, the stalemate test and the screen's assist. A `StockMoves` policy says
which stock moves a game has and what a `pileN` press does with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .cards import Card, same_rank
from .seat import Seat
from .stock_pile import StockPile


class Action(NamedTuple):
    """One thing a player can do.

    kind: `play` (stock pile `pile` onto spit pile `target`), `flip` (turn `pile`'s top), `move`
    (`pile`'s top into the empty `target`), `stack` (`pile`'s top onto `target`, same rank, V7),
    `call` ("Spit!"), `choose` (spit pile `target`, without a slap), `slap` (spit pile `target`, to
    choose it for a new layout), `pick_up` (V9), `slap_table` (the `slap` control: Mod Spit's table
    slap, the ghost card, the lent spit card), `lift` (V16: carry `pile`'s top off and turn the card
    under it), and in Speed `draw` (into the empty hand slot `pile`).
    """

    kind: str
    pile: int = 0
    target: int = 0


# Moves that change what can be played from the stock, not just where cards lie.
PROGRESS = frozenset({"play", "flip"})

# The actions `legal_actions` and `rearrangements` offer over and over, made once: PLAYS[pile][spit
# pile], FLIPS[pile], MOVES[pile][space], STACKS[pile][onto], LIFTS[pile] (stock piles 1 to 6,
# spit piles 0 to 3). An Action is a plain tuple: one made here equals one made anywhere else.
_PILES, _SPIT_PILES = range(7), range(4)
PLAYS = tuple(tuple(Action("play", n, i) for i in _SPIT_PILES) for n in _PILES)
FLIPS = tuple(Action("flip", n) for n in _PILES)
MOVES = tuple(tuple(Action("move", n, m) for m in _PILES) for n in _PILES)
STACKS = tuple(tuple(Action("stack", n, m) for m in _PILES) for n in _PILES)
LIFTS = tuple(Action("lift", n) for n in _PILES)
SLAP_TABLE, CALL = Action("slap_table"), Action("call")


@dataclass(frozen=True)
class StockMoves:
    """Turn a face-down top, move a face-up top into an empty space, optionally stack on the same
    rank (V7); hold one card at a time, or two (V8)."""

    stacking: bool = False
    hands: int = 1
    pick_up: PickUpLast | None = None
    carry: bool = False  # V16: a selected card is carried off its pile, in the runner's hand

    def hold(self, seat: Seat, number: int) -> None:
        """Take stock pile `number`'s top card in hand: a free hand, else in place of the card held
        longest; carried off the pile where the runner runs with it."""
        if self.carry:
            seat.put_back()
            seat.selected = number
            seat.carried = seat.stock[number - 1].take_top()
        elif seat.selected is None or self.hands == 1:
            seat.selected = number
        elif seat.second is None:
            seat.second = number
        else:
            seat.selected, seat.second = seat.second, number

    def can_stack(self, card: Card, onto: StockPile) -> bool:
        top = onto.face_up_top
        return self.stacking and top is not None and same_rank(card, top)

    def rearrangements(self, stock: Sequence[StockPile], space: int | None = None) -> list[Action]:
        """Moves that only rearrange the stock: into a space (the first empty one: spaces are
        alike), and same-rank stacking. `space`: the first empty pile (0 for none), where the caller
        has just looked."""
        if space is None:
            space = 0
            for number, pile in enumerate(stock, start=1):
                if not pile.cards:
                    space = number
                    break
        if not self.stacking:
            if not space:
                return []  # the common case, asked after every press: no space, nothing to move
            moves = MOVES
            # moving a lone card only moves it
            return [moves[number][space] for number, pile in enumerate(stock, start=1)
                    if len(pile.cards) > 1 and pile.up]
        found: list[Action] = []
        for number, pile in enumerate(stock, start=1):
            card = pile.face_up_top
            if card is None:
                continue
            if space and len(pile.cards) > 1:  # moving a lone card only moves it
                found.append(MOVES[number][space])
            for other, onto in enumerate(stock, start=1):
                if other != number and self.can_stack(card, onto):
                    found.append(STACKS[number][other])
        return found


@dataclass(frozen=True)
class PickUpLast:
    """V9, hidden last cards: with 3 to 5 stock cards left, every one of them face up, a player may
    pick them up so the others can't see them. On the cabinet's shared screen the player presses
    `spit` while playing; the cards stay where they lie but are drawn face down for everybody, and
    the player plays them from memory."""

    fewest: int = 3
    most: int = 5

    def allowed(self, stock: Sequence[StockPile]) -> bool:
        count = sum(len(pile.cards) for pile in stock)
        return self.fewest <= count <= self.most and all(pile.up == len(pile.cards) for pile in stock)
