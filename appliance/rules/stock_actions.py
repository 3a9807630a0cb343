"""What a player can do with their stock piles as they lie: the one answer to "what can be turned,
played or moved?".

`Game.legal_actions` offers these actions to the computer players and to the screen's assist (its
`play` actions); the stalemate test (stalemate.py) asks `turns_and_plays` of every stock it could
rearrange the player's into, and the engine asks it after every change (is anybody stuck?). So a
stock has one meaning everywhere: a new kind of move is offered and searched without a second copy.

Pure and cheap (it runs after nearly every press and at every decision of a computer player): plain
loops, actions made once in moves.py, the cards that fit on each spit pile's top looked up once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .actions import FLIPS, PLAYS, Action
from .cards import Card
from .carry import in_reach
from .moves import StockMoves
from .stock_pile import StockPile

# The spit piles showing a card, as (spit pile index, every card that fits on its top).
Tops = Sequence[tuple[int, frozenset[Card]]]


def tops_of(spit_piles: Sequence[Sequence[Card]],
            fitting: Mapping[Card, frozenset[Card]]) -> list[tuple[int, frozenset[Card]]]:
    """The spit piles' tops, for the functions below (`fitting`: the ruleset's top -> what fits)."""
    tops = []
    for i, spit_pile in enumerate(spit_piles):  # (a plain loop: cheaper than a comprehension here)
        if spit_pile:
            tops.append((i, fitting[spit_pile[-1]]))
    return tops


def turns_and_plays(stock: Sequence[StockPile], tops: Tops, carried: Card | None = None, under: int = 0,
                    first: bool = False) -> list[Action]:
    """The moves that are progress: turn a face-down top, play a face-up top that fits a spit pile.

    `carried`: a card carried off stock pile `under` (V16, carry.py): it plays from there, and what
    lies under it is played only once it is put back (a face-down card under it can be turned).
    `first`: stop at the first one found (the question is only "is there any?")."""
    found: list[Action] = []
    for number, pile in enumerate(stock, start=1):
        cards = pile.cards
        if not cards:
            continue
        if not pile.up:
            found.append(FLIPS[number])
            if first:
                return found
            continue
        if number == under:
            continue  # under the carried card: to reach it the runner puts the card back first
        card, plays = cards[-1], PLAYS[number]
        for i, fit in tops:
            if card in fit:
                found.append(plays[i])
                if first:
                    return found
    if carried is not None:
        plays = PLAYS[under]
        for i, fit in tops:
            if carried in fit:
                found.append(plays[i])
    return found


def stock_actions(stock: Sequence[StockPile], tops: Tops, moves: StockMoves, carried: Card | None = None,
                  under: int = 0) -> list[Action]:
    """Everything the stock offers: turns and plays, then the moves that rearrange it (into a space,
    V7's stacking, V16's lifts) on the stock as the player can use it (a carried card back on its pile)."""
    actions = turns_and_plays(stock, tops, carried, under)
    reach = stock if carried is None else in_reach(stock, carried, under)
    actions += moves.rearrangements(reach)
    if moves.carry:  # (V16: lifts are offered only where cards are carried)
        actions += moves.lifts(reach)
    return actions
