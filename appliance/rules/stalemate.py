"""Can a player still do something that moves the game on? (Rule 6.)

Stalemate is when no face-up stock card fits a spit pile and no face-down card can be turned, even
after rearranging the stock: moving cards into empty spaces, (V7) stacking a card on another of
the same rank, and (V16) carrying the top card off a pile, which uncovers the card under it.
Rearranging is not progress by itself; it counts only for what it uncovers. The test searches the
rearrangements the game's `StockMoves` allows and asks each arrangement what the player is offered
(stock_actions.py's `turns_and_plays`), so a new move is searched without changing this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cards import Card
from .moves import StockMoves
from .stock_actions import Tops, tops_of, turns_and_plays
from .stock_pile import StockPile

Position = tuple[tuple[tuple[Card, ...], int], ...]

# A stock holds at most a few dozen cards in six piles; the search below visits each arrangement
# once. The bound is a safety net only: real stocks need a few hundred positions at the most.
MAX_POSITIONS = 20_000


def can_progress(stock: Sequence[StockPile], tops: Sequence[Card], fitting: Mapping[Card, frozenset[Card]],
                 moves: StockMoves) -> bool:
    """True if this stock can play a card or turn one, now or after rearranging it (`tops`: the
    spit piles' top cards; `fitting`: the ruleset's top -> the cards that fit on it)."""
    showing = tops_of([[top] for top in tops], fitting)
    return bool(turns_and_plays(stock, showing, first=True)) or progress_by_rearranging(stock, showing, moves)


def progress_by_rearranging(stock: Sequence[StockPile], tops: Tops, moves: StockMoves) -> bool:
    """`can_progress` for a stock that can neither turn nor play a card as it lies (stock_actions.py's
    `turns_and_plays` found none): can it after rearranging? The same moves are searched as the
    player is offered, and each arrangement is asked the same question."""
    if moves.carry and moves.lifts(stock):
        return True  # Running Spit: a runner lifts the top card off and turns the one under it
    first = moves.rearrangements(stock)
    if not first:
        return False
    if not any(len(pile.cards) > pile.up for pile in stock) and not any(
            card in fit for pile in stock for card in pile.cards for _, fit in tops):
        # Every card lies face up and none of them fits: rearranging only changes which of them
        # shows, and can never uncover anything. (With two decks and same-rank stacking the search
        # below would wander through tens of thousands of such arrangements.)
        return False
    for action in first:
        # Taking the top off a pile whose only face-up card it is uncovers a face-down card: the
        # search below would find that at its first step (the usual case: a card moved into a space).
        source = stock[action.pile - 1]
        if source.up == 1 and len(source.cards) > 1:
            return True
    start = _position(stock)
    seen = {start}
    frontier = [start]
    while frontier:
        position = frontier.pop()
        piles = _piles(position)
        for action in moves.rearrangements(piles):
            after = _piles(position)
            source, target = after[action.pile - 1], after[action.target - 1]
            target.put_face_up(source.take_top())
            if turns_and_plays(after, tops, first=True) or (moves.carry and moves.lifts(after)):
                return True  # (V16: a card moved into a space can leave one a runner lifts)
            key = _position(after)
            if key not in seen:
                if len(seen) >= MAX_POSITIONS:
                    return True
                seen.add(key)
                frontier.append(key)
    return False


def _position(stock: Sequence[StockPile]) -> Position:
    """A stock as a key: the order of the piles does not matter to what can be uncovered."""
    return tuple(sorted((tuple(pile.cards), pile.up) for pile in stock))


def _piles(position: Position) -> list[StockPile]:
    return [StockPile(list(cards), up) for cards, up in position]
