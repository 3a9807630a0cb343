"""What a click or a tap on the table means: the (player, control) at a point of the screen, for the
inputs' TouchSource (appliance/inputs/touch.py).

- a seat's stock pile (its top card, and the cards peeking out under it): that seat's `pileN` (pick
  the card up; again: put it back; with a card in hand, an empty pile: move it there);
- a spit pile: the control with which the seat that last tapped one of its cards reaches it
  (`left`, `right`, a far pile at a table of three or four): play the card in hand there; with only
  one person at the table, theirs;
- a seat's own face-down spit cards: its `spit` (call SPIT!, turn a new card).

The computer's seats take no taps. Everything else on the screen is no target.
"""

from __future__ import annotations

from collections.abc import Collection

from pygame import Rect

from .events import side_for
from .layout import TableLayout


def card_area(rect: Rect, dx: int, dy: int) -> Rect:
    """A pile's top card with the cards peeking out under it (as many as the table draws)."""
    return rect.union(rect.move(dx * 4, dy * 4))


def touch_target(
    layout: TableLayout, seats: int, computer: Collection[int], x: float, y: float, last: int | None
) -> tuple[int, str] | None:
    """The (player, control) a tap at (x, y) presses on this table, or None."""
    people = [player for player in layout.seats if player not in computer]
    point = (int(x), int(y))
    for player in people:
        seat = layout.seat(player)
        for number, rect in enumerate(seat.stock, start=1):
            if card_area(rect, seat.stack_dx, seat.stack_step).collidepoint(point):
                return player, f"pile{number}"
        if card_area(seat.spit_cards, seat.stack_dx, seat.stack_step).collidepoint(point):
            return player, "spit"
    for index, rect in enumerate(layout.spit_piles):
        if rect.collidepoint(point):
            who = last if last in people else (people[0] if len(people) == 1 else None)
            return None if who is None else (who, side_for(who, index, seats))
    return None
