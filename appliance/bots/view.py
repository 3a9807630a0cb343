"""What a player at the table can see, and nothing more: the only position a computer opponent reads.

Every seat's stock piles (the face-up top card, or that the top is face down, and how high each pile
is), every spit pile's top card and size, how many spit cards each player holds, what the bot itself
holds in its hands, who has called "Spit!", the pile a lone spitter chose, who chooses the piles
at this new layout, who is out of the round (V17), who has slapped the table and whether the tops
meet the slap rule now (V18/V19: the rule is on the screen, the tops in plain sight). Of its
own stock the bot also sees every face-up card (V7 stacks face-up cards on each other). Never a
face-down card, never the order of anybody's spit cards, and never the cards an opponent has
picked up (V9, hidden last cards): those show face down, as the screen shows them.
Cards are rank then suit (`5H`); with two decks (V4) the deck a card came from is left out, since
no rule looks at it. A view is a plain tuple, so "has anything changed?" is one comparison.

The other players come in `game.table.others(player)` order: round the table from the bot's right.
`seen_after` brings a view up to date after a press that changed only a few things (the simulator
knows which from the press's events): the same view `visible_view` would build from scratch.
"""

from __future__ import annotations

from typing import NamedTuple

from ..rules import Card, Game, Seat, Table, deck
from ..rules.table_slap import TableSlap

EMPTY = ""  # a stock pile space with no cards
FACE_DOWN = "?"  # a stock pile whose top card is face down (or hidden: V9)
# Each card as a player sees it, rank then suit: `card[:2]` worked out once, the same string for
# both decks' copies of a card (V4), so views compare and hash their cards without slicing them.
FACE: dict[Card, Card] = {card: card for card in deck(1)}
FACE.update({card: FACE[card[:2]] for card in deck(2)})


class View(NamedTuple):
    player: int
    phase: str
    round: int
    # What the rules' legal_actions for this player depends on: the phase, my own stock, the
    # spit piles, the spit cards and calls, the lone spitter's pile, the chooser (`OWN_FIELDS`).
    mine: tuple[Card, ...]  # per stock pile: the face-up top card, FACE_DOWN or EMPTY
    my_sizes: tuple[int, ...]
    my_stacked: tuple[tuple[int, tuple[Card, ...]], ...]  # (pile, its face-up cards) where more than one (V7)
    spit: tuple[Card, ...]  # per spit pile: its top card, or EMPTY
    spit_sizes: tuple[int, ...]
    my_spit_cards: int
    their_spit_cards: tuple[int, ...]
    called: bool
    they_called: tuple[bool, ...]
    lone_pile: int  # the spit pile a lone spitter chose, -1 for none
    chooser: int  # who chooses the spit pile at this new layout (V10-V12), 0 for nobody yet
    hidden: bool  # I have picked up my last cards (V9)
    out: int  # V17: my place out of this round (1 = first out), 0 while I play
    to_take: bool  # V17: I am out and still to choose the spit pile I take
    table_slaps: tuple[int, ...]  # V18/V19: who has slapped the table in the window open now
    table_chooser: int  # V18/V19: who chooses a spit pile after two wrong table slaps, 0 for nobody
    carried: Card  # V16: the card I carry off stock pile `held[0]` to the spit piles, or EMPTY
    # ... and the rest.
    held: tuple[int, ...]  # the stock piles in my hands (1-based), the first taken first
    others: tuple[int, ...]  # the other players, round the table from my right
    theirs: tuple[tuple[Card, ...], ...]  # per other player: their stock piles as `mine`
    their_sizes: tuple[tuple[int, ...], ...]
    their_out: tuple[int, ...]  # V17: their places out of this round, 0 while they play
    slap_right: bool  # V18/V19: the spit piles' tops meet the table slap rule (anybody can see it)


# view[OWN_FIELDS]: everything in the view that `game.legal_actions(view.player)` can depend on.
OWN_FIELDS = slice(1, 20)


def visible_view(game: Game, player: int, others_stock: bool = True) -> View:
    """The table as `player` sees it from their seat. Without `others_stock` the other players'
    stock piles are left out (`theirs`, `their_sizes` empty): for a strategy that never looks at
    them, whose view then changes only when something it looks at does."""
    # Plain loops rather than comprehensions: for the handful of piles at a table they cost less
    # (this is built after every press of a simulated game).
    players = game.players
    me = players[player - 1]
    others = _OTHERS.get((game.rules.table.seats, player)) or _others(game.table, player)
    mine, my_sizes, stacked = _own_stock(me)
    theirs: tuple[tuple[Card, ...], ...] = ()
    their_sizes: tuple[tuple[int, ...], ...] = ()
    if len(others) == 1:
        seat = players[others[0] - 1]
        their_spit: tuple[int, ...] = (len(seat.spit_cards),)
        they_called: tuple[bool, ...] = (seat.called,)
        their_out: tuple[int, ...] = (seat.out,)
        if others_stock:
            stock, sizes = _their_stock(seat)
            theirs, their_sizes = (stock,), (sizes,)
    else:
        seats = tuple([players[n - 1] for n in others])
        their_spit = tuple([len(seat.spit_cards) for seat in seats])
        they_called = tuple([seat.called for seat in seats])
        their_out = tuple([seat.out for seat in seats])
        if others_stock:
            seen = [_their_stock(seat) for seat in seats]
            theirs = tuple([stock for stock, _ in seen])
            their_sizes = tuple([sizes for _, sizes in seen])
    spit, spit_sizes = _spit(game)
    selected, second = me.selected, me.second
    carried = me.carried
    slap = game.house_rule(TableSlap)
    hits = slap.hits if slap is not None else ()
    return _new_view(View, (
        player,
        game.phase,
        game.round,
        mine,
        my_sizes,
        stacked,
        spit,
        spit_sizes,
        len(me.spit_cards),
        their_spit,
        me.called,
        they_called,
        -1 if game.lone_pile is None else game.lone_pile,
        game.chooser or 0,
        me.hidden,
        me.out,
        game.round_end.may_choose_now(game, player),
        tuple([hit.player for hit in hits]) if hits else (),
        (slap.chooser or 0) if slap is not None else 0,
        EMPTY if carried is None else FACE[carried],
        () if selected is None else (selected,) if second is None else (selected, second),
        others,
        theirs,
        their_sizes,
        their_out,
        slap is not None and slap.right_now(game),
    ))


_new_view = tuple.__new__  # a View from its fields in order, without NamedTuple's keyword handling
# Where `mine` (then my_sizes, my_stacked), `spit` (then spit_sizes), `held`, `theirs` (then
# their_sizes) and `slap_right` are in a View.
_MINE, _SPIT, _HELD, _THEIRS, _SLAP_RIGHT = 3, 6, 20, 22, 25


def seen_after(view: View, game: Game, presser: int, piles: tuple[int, ...], spit: bool) -> View:
    """`view` (the table as its player last saw it) after one press by `presser` that changed no
    more than what the presser's hands hold, their stock `piles` (numbers: a card turned, moved,
    stacked or played off them) and, with `spit`, the spit piles (a card played): the view
    `visible_view` gives now, with only what can have changed looked at again."""
    fields = list(view)
    if presser == view.player:
        me = game.players[presser - 1]
        selected, second = me.selected, me.second
        fields[_HELD] = () if selected is None else (selected,) if second is None else (selected, second)
        if piles:
            stock = me.stock
            mine, sizes = list(view.mine), list(view.my_sizes)
            stacked = bool(view.my_stacked)  # a pile of several face-up cards (V7): worked out again
            for number in piles:
                pile = stock[number - 1]
                cards = pile.cards
                if cards:
                    up = pile.up
                    mine[number - 1] = FACE[cards[-1]] if up else FACE_DOWN
                    sizes[number - 1] = len(cards)
                    stacked = stacked or up > 1
                else:
                    mine[number - 1], sizes[number - 1] = EMPTY, 0
            fields[_MINE] = tuple(mine)
            fields[_MINE + 1] = tuple(sizes)
            if stacked:
                fields[_MINE + 2] = _own_stock(me)[2]
    elif piles and view.their_sizes:  # (a view that leaves the others' stock piles out sees nothing)
        k = view.others.index(presser)
        seat = game.players[presser - 1]
        stock, hidden = seat.stock, seat.hidden
        shown, sizes = list(view.theirs[k]), list(view.their_sizes[k])
        for number in piles:
            pile = stock[number - 1]
            cards = pile.cards
            if cards:  # as `_their_stock` shows them
                shown[number - 1] = FACE_DOWN if hidden or not pile.up else FACE[cards[-1]]
                sizes[number - 1] = len(cards)
            else:
                shown[number - 1], sizes[number - 1] = EMPTY, 0
        fields[_THEIRS] = (*view.theirs[:k], tuple(shown), *view.theirs[k + 1:])
        fields[_THEIRS + 1] = (*view.their_sizes[:k], tuple(sizes), *view.their_sizes[k + 1:])
    if spit:
        fields[_SPIT:_SPIT + 2] = _spit(game)
        slap = game.house_rule(TableSlap) if game.rules.table_slap is not None else None
        fields[_SLAP_RIGHT] = slap is not None and slap.right_now(game)
    return _new_view(View, fields)


def _spit(game: Game) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """The spit piles' tops (EMPTY for a pile with no card) and sizes."""
    spit_piles = game.spit_piles
    spit: list[Card] = []
    for spit_pile in spit_piles:
        spit.append(FACE[spit_pile[-1]] if spit_pile else EMPTY)
    return tuple(spit), tuple(map(len, spit_piles))


def _own_stock(me: Seat) -> tuple[tuple[Card, ...], tuple[int, ...], tuple[tuple[int, tuple[Card, ...]], ...]]:
    """My stock piles as I see them: `mine`, `my_sizes` and `my_stacked` (every face-up card of mine)."""
    mine: list[Card] = []
    my_sizes: list[int] = []
    stacked: list[tuple[int, tuple[Card, ...]]] = []
    for number, pile in enumerate(me.stock, start=1):
        cards = pile.cards
        if cards:
            up = pile.up
            if up == 1:
                mine.append(FACE[cards[-1]])
            elif up:
                mine.append(FACE[cards[-1]])
                stacked.append((number, tuple([FACE[card] for card in cards[-up:]])))
            else:
                mine.append(FACE_DOWN)
            my_sizes.append(len(cards))
        else:
            mine.append(EMPTY)
            my_sizes.append(0)
    return tuple(mine), tuple(my_sizes), tuple(stacked)


def _their_stock(seat: Seat) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """Another player's stock piles as they look from across the table, and how high each is."""
    shown: list[Card] = []
    sizes: list[int] = []
    hidden = seat.hidden  # V9: picked up, shown face down
    for pile in seat.stock:
        cards = pile.cards
        if cards:
            shown.append(FACE_DOWN if hidden or not pile.up else FACE[cards[-1]])
            sizes.append(len(cards))
        else:
            shown.append(EMPTY)
            sizes.append(0)
    return tuple(shown), tuple(sizes)


def face_up(view: View) -> list[tuple[Card, ...]]:
    """My stock piles' face-up cards, bottom to top, pile by pile."""
    stacked = dict(view.my_stacked)
    return [stacked.get(number) or ((code,) if is_card(code) else ())
            for number, code in enumerate(view.mine, start=1)]


_OTHERS: dict[tuple[int, int], tuple[int, ...]] = {}


def _others(table: Table, player: int) -> tuple[int, ...]:
    key = (table.seats, player)
    found = _OTHERS.get(key)
    if found is None:
        found = _OTHERS[key] = tuple(table.others(player))
    return found


def is_card(code: Card) -> bool:
    """A face-up card, not FACE_DOWN or EMPTY."""
    return len(code) > 1
