"""What a player at the table can see, and nothing more: the only thing a computer opponent reads.

Both players' stock piles (the face-up top card's rank, or that the top is face down, and how high
each pile is), both spit piles' top ranks and sizes, how many spit cards each player holds, what
the bot itself has picked up, and who has called "Spit!". Never a face-down card, never the order
of anybody's spit cards. Suits do not matter in classic Spit, so the view keeps ranks only (A=1 ...
K=13); a view is a plain tuple, so "has anything changed?" is one comparison.
"""

from __future__ import annotations

from typing import NamedTuple

from ..rules import Game
from ..rules.cards import RANK_VALUE
from ..rules.stock_pile import StockPile

EMPTY = -1  # a stock pile space with no cards
FACE_DOWN = 0  # a stock pile whose top card is face down


class View(NamedTuple):
    player: int
    phase: str
    round: int
    mine: tuple[int, ...]  # per stock pile: top rank 1..13, FACE_DOWN, or EMPTY
    my_sizes: tuple[int, ...]
    theirs: tuple[int, ...]
    their_sizes: tuple[int, ...]
    spit: tuple[int, ...]  # per spit pile (index 0, 1): top rank, or 0 when there is no pile
    spit_sizes: tuple[int, ...]
    my_spit_cards: int
    their_spit_cards: int
    selected: int  # my selected stock pile (1-based), 0 for none
    called: bool
    they_called: bool
    lone_pile: int  # the spit pile a lone spitter chose, -1 for none


def visible_view(game: Game, player: int) -> View:
    """The table as `player` sees it from their seat."""
    me = game.players[player - 1]
    them = game.players[2 - player]
    mine, my_sizes = _stock(me.stock)
    theirs, their_sizes = _stock(them.stock)
    p0, p1 = game.spit_piles
    return View(
        player,
        game.phase,
        game.round,
        mine,
        my_sizes,
        theirs,
        their_sizes,
        (RANK_VALUE[p0[-1][0]] if p0 else 0, RANK_VALUE[p1[-1][0]] if p1 else 0),
        (len(p0), len(p1)),
        len(me.spit_cards),
        len(them.spit_cards),
        me.selected or 0,
        me.called,
        them.called,
        -1 if game.lone_pile is None else game.lone_pile,
    )


def _stock(stock: list[StockPile]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    codes: list[int] = []
    sizes: list[int] = []
    for pile in stock:
        cards = pile.cards
        if cards:
            codes.append(RANK_VALUE[cards[-1][0]] if pile.up else FACE_DOWN)
            sizes.append(len(cards))
        else:
            codes.append(EMPTY)
            sizes.append(0)
    return tuple(codes), tuple(sizes)


def fits(rank: int, top: int) -> bool:
    """May a card of `rank` go onto a spit pile showing `top` (0: no pile)? One up or down, wrapping."""
    return rank > 0 and top > 0 and (rank - top) % 13 in (1, 12)


def can_play(ranks: tuple[int, ...], spit: tuple[int, ...]) -> bool:
    """Does any face-up top among `ranks` fit any spit pile?"""
    return any(fits(rank, top) for rank in ranks if rank > 0 for top in spit)


def playable_count(ranks: tuple[int, ...], spit: tuple[int, ...]) -> int:
    """How many (face-up top, spit pile) plays there are."""
    return sum(1 for rank in ranks if rank > 0 for top in spit if fits(rank, top))
