"""A table's seats, piles and text places, as plain geometry (no drawing): what both tables are
made of, the two-seat table (layout.py, which says where the places are) and the round table of
three or four (round_table.py). Everything else imports them from layout.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from pygame import Rect

LAYOUTS = ("desktop", "tabletop")
STOCK_PILES = 5
PLACE_KINDS = ("panel", "centre", "prompt", "reject", "race", "info")

# What every seat can read and see from where it sits, at every size of screen (the screen-facts
# check holds every scene to them). A cabinet's screen is about as wide as its table whatever its
# pixels, so both are shares of the screen's width. On a 24-inch screen 1280 pixels wide (0.41 mm a
# pixel) 10 px is 4.1 mm, 20 minutes of arc at 0.7 m, arm's length across a corner of the table
# (ISO 9241-303 asks 16 at the least, 20 to 22 for comfort).
MIN_CAP_SHARE = 1 / 128  # a text's capital letters: 10 px at 1280 wide, 15 px at 1920 (fonts.smallest_text)
MIN_CARD_SHARE = 1 / 14  # a card's height: 91 px at 1280 wide (index letters 13 px), 137 px at 1920
CARD_SHAPE = 0.7  # a card's width to its height


def smallest_card(screen: tuple[int, int]) -> tuple[int, int]:
    """The least width and height (upright) any card may be drawn at on `screen`: 63 x 91 px on a
    1280-wide screen, 95 x 137 px at 1920."""
    height = int(screen[0] * MIN_CARD_SHARE)
    return int(height * CARD_SHAPE), height


@dataclass(frozen=True)
class Place:
    """Where a text goes: `box` on screen, turned `angle` degrees anticlockwise to face `seat`
    (None: a shared place that everybody reads the same way up, as on the desktop)."""

    kind: str
    seat: int | None
    box: Rect
    angle: int


@dataclass(frozen=True)
class Seat:
    player: int
    turned: bool  # drawn turned 180° (player 2 at the cabinet)
    stock: tuple[Rect, ...]  # stock pile 1..5: where the top card is drawn
    spit_cards: Rect  # the player's face-down spit cards
    stack_step: int  # pixels each card under the top peeks out (negative: upwards)
    message: tuple[int, int]  # centre of the player's message line
    labels_y: int  # centre line for the key labels over/under the stock piles
    legend: Rect  # where the key legend goes
    side_label: tuple[int, int]  # where "Player N" is written
    places: dict[str, Rect]  # where this seat's texts go, by kind (PLACE_KINDS)
    angle: int = 0  # how far this seat's text is turned (anticlockwise) to face them
    stack_dx: int = 0  # pixels each card under the top peeks out sideways (the seats at the sides)
    card_angle: int | None = None  # how far its cards are turned, where not as its text (`angle`)
    name_room: Rect | None = None  # the seat's own stretch of its edge, which its name is kept inside
    pile_labels: tuple[int, ...] = ()  # each stock pile's line of key labels, where its piles lie in two rows
    # (a side seat of a table of three or four with five or six piles); empty: all on `labels_y`

    @property
    def cards_angle(self) -> int:
        return self.angle if self.card_angle is None else self.card_angle


@dataclass(frozen=True)
class TableLayout:
    mode: str
    size: tuple[int, int]
    card_w: int
    card_h: int
    spit_piles: tuple[Rect, ...]
    seats: dict[int, Seat]
    shared: dict[str, Rect]  # desktop: the one place of each kind for texts meant for everybody
    pile_counts: tuple[tuple[tuple[tuple[int, int], int], ...], ...]  # by pile: (centre, angle) of each size label
    text_base: int = 0  # the height texts are sized by (0: the card height), where the cards are smaller

    @property
    def text_h(self) -> int:
        return self.text_base or self.card_h

    @property
    def centre(self) -> tuple[int, int]:
        return (self.size[0] // 2, self.size[1] // 2)

    def seat(self, player: int) -> Seat:
        return self.seats[player]

    def text_size(self, fraction: float) -> int:
        return max(10, int(self.text_h * fraction))

    def targets(self, kind: str, owner: int | None) -> list[Place]:
        """The places a text of `kind` goes to: the owner's own, or for everybody (owner None) every
        seat's on the tabletop and the shared one on the desktop."""
        if owner is not None:
            seat = self.seats[owner]
            return [Place(kind, owner, seat.places[kind], seat.angle)]
        if self.mode == "desktop":
            return [Place(kind, None, self.shared[kind], 0)]
        return [Place(kind, n, seat.places[kind], seat.angle) for n, seat in self.seats.items()]


def label_height(text_h: int, fraction: float = 0.12) -> int:
    """How tall a line of the game's font is drawn at `fraction` of `text_h` (DejaVu Sans Bold: 1.17 to 1.19
    times its size and a little), so the places keep clear of the key labels and names."""
    return int(max(10, int(text_h * fraction)) * 1.2) + 2
