"""The table: how many seats, how many spit piles, and which pile each seat's controls mean.

Seats go round the table. There is one spit pile per seat; player p starts pile p-1. Pile p-1 lies
at player p's left and pile (p mod N) at their right, so with two seats, facing each other, pile 0 is
on player 1's left and player 2's right. With three or four seats `far_left` is pile (p+N-2) mod N
and `far_right` pile (p+1) mod N (with three both name the one pile across). Nothing else in the
core computes "the other player" or "the other pile": it asks the table.
"""

from __future__ import annotations

from dataclasses import dataclass

SIDES = ("left", "right", "far_left", "far_right")
MIN_SEATS, MAX_SEATS = 2, 4
_SIDE_FOR: dict[tuple[int, int, int], str] = {}  # (seats, player, spit pile) -> Table.side_for


@dataclass(frozen=True)
class Table:
    seats: int = 2

    def __post_init__(self) -> None:
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise ValueError(f"seats must be {MIN_SEATS} to {MAX_SEATS}, not {self.seats!r}")

    @property
    def spit_piles(self) -> int:
        return self.seats

    @property
    def players(self) -> range:
        return range(1, self.seats + 1)

    def others(self, player: int) -> list[int]:
        """Everybody but `player`, going round the table from their right."""
        return [(player - 1 + k) % self.seats + 1 for k in range(1, self.seats)]

    def sides(self) -> tuple[str, ...]:
        """The spit-pile controls this table has: far piles only with more than two seats."""
        return SIDES if self.seats > 2 else SIDES[:2]

    def spit_pile_for(self, player: int, side: str) -> int | None:
        """The spit pile `player` means by `side`, or None where the table has no such pile."""
        n = self.seats
        if side == "left":
            return player - 1
        if side == "right":
            return player % n
        if n == 2:
            return None
        if side == "far_left":
            return (player + n - 2) % n
        if side == "far_right":
            return (player + 1) % n
        return None

    def side_for(self, player: int, spit_pile: int) -> str:
        """The control with which `player` reaches `spit_pile` (its nearest name)."""
        key = (self.seats, player, spit_pile)
        found = _SIDE_FOR.get(key)  # asked for every card played: worked out once per seat and pile
        if found is None:
            for side in self.sides():
                if self.spit_pile_for(player, side) == spit_pile:
                    found = _SIDE_FOR[key] = side
                    break
            else:
                raise ValueError(f"no spit pile {spit_pile} at a table of {self.seats}")
        return found

    def starting_pile(self, player: int) -> int:
        """The spit pile a player starts with their spit cards: the one on their own left."""
        return player - 1

    def owner(self, spit_pile: int) -> int:
        """The player who starts `spit_pile`."""
        return spit_pile + 1


TWO_SEATS = Table(2)
