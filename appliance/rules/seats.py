"""Where the players sit, and so which spit pile `left` and `right` mean for each.

The players face each other. Spit pile 0 is on player 1's left and player 2's right; spit pile 1 on
player 1's right and player 2's left. Each player starts the spit pile on their own left.
(V17, more seats, would replace these two tables; the engine asks only these functions.)
"""

from __future__ import annotations

SIDES = ("left", "right")

_PILE_FOR_SIDE: dict[tuple[int, str], int] = {
    (1, "left"): 0,
    (1, "right"): 1,
    (2, "left"): 1,
    (2, "right"): 0,
}


def spit_pile_for(player: int, side: str) -> int:
    """The spit pile (0 or 1) that `player` means by `left` or `right`."""
    return _PILE_FOR_SIDE[(player, side)]


def side_for(player: int, spit_pile: int) -> str:
    """The side of `player`'s seat on which `spit_pile` lies."""
    return "left" if spit_pile_for(player, "left") == spit_pile else "right"


def starting_pile(player: int) -> int:
    """The spit pile a player starts with their first spit card: the one on their own left."""
    return spit_pile_for(player, "left")
