"""An action: one thing a player can do, whatever the game, and the ones offered over and over, made once.

`Game.legal_actions` lists them (stock_actions.py says what a stock offers); the computer players
choose from them and `Game.presses_for` says which presses do one.
"""

from __future__ import annotations

from typing import NamedTuple


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
