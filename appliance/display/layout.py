"""Where everything sits on screen, for the two layouts.

- tabletop (the cabinet): the players face each other across the screen. Player 1 sits at the bottom,
  player 2 at the top, and player 2's half is player 1's turned through 180°: their cards and text
  are upside down for player 1 and the right way up for player 2, their pile 1 is on the screen's
  right (their own left), as is the spit pile they start.
- desktop (two people at one computer): the same table, but nothing is turned, so both read the
  screen the same way; player 2's stock piles run 1 to 5 from the left, like their keys.

In both, spit pile 0 is on player 1's left (the screen's left) and player 2's right, as the script
format says. Geometry only: no pygame drawing here, so it is tested as plain numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from pygame import Rect

LAYOUTS = ("desktop", "tabletop")
STOCK_PILES = 5


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


@dataclass(frozen=True)
class TableLayout:
    mode: str
    size: tuple[int, int]
    card_w: int
    card_h: int
    spit_piles: tuple[Rect, Rect]
    seats: dict[int, Seat]

    @property
    def centre(self) -> tuple[int, int]:
        return (self.size[0] // 2, self.size[1] // 2)

    def seat(self, player: int) -> Seat:
        return self.seats[player]

    def text_size(self, fraction: float) -> int:
        return max(10, int(self.card_h * fraction))


def _turn(rect: Rect, size: tuple[int, int]) -> Rect:
    """The rectangle turned 180° about the screen's centre."""
    w, h = size
    return Rect(w - rect.right, h - rect.bottom, rect.width, rect.height)


def _flip_vertically(rect: Rect, size: tuple[int, int]) -> Rect:
    return Rect(rect.x, size[1] - rect.bottom, rect.width, rect.height)


def table_layout(size: tuple[int, int], mode: str = "desktop") -> TableLayout:
    if mode not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {mode!r}")
    w, h = size
    card_h = int(h * 0.22)
    card_w = int(card_h * 0.7)
    # wide enough for spit cards + 5 piles with gaps; shrink cards on narrow screens
    if 7.5 * card_w > w * 0.8:
        card_w = int(w * 0.8 / 7.5)
        card_h = int(card_w / 0.7)
    gap = card_w // 4
    margin = max(8, h // 45)
    step = max(3, card_h // 34)

    # player 1, at the bottom
    row_y = h - margin - card_h
    row_w = STOCK_PILES * card_w + (STOCK_PILES - 1) * gap
    left = (w - row_w) // 2
    stock = tuple(Rect(left + i * (card_w + gap), row_y, card_w, card_h) for i in range(STOCK_PILES))
    spit_cards = Rect(left - card_w - 2 * gap, row_y, card_w, card_h)
    stack_top = row_y - 4 * step
    labels_y = stack_top - card_h // 14
    middle_top = (h - card_h) // 2
    message = (w // 2, (middle_top + card_h + labels_y) // 2 - card_h // 20)
    legend = Rect(stock[-1].right + 2 * gap, stack_top, max(10, w - stock[-1].right - 3 * gap), h - stack_top)
    side_label = (spit_cards.centerx, stack_top - card_h // 12)
    seat1 = Seat(1, False, stock, spit_cards, -step, message, labels_y, legend, side_label)

    # player 2, at the top: turned through 180° (tabletop) or flipped top-to-bottom (desktop)
    if mode == "tabletop":
        seat2 = Seat(
            2,
            True,
            tuple(_turn(r, size) for r in stock),
            _turn(spit_cards, size),
            step,
            (w - message[0], h - message[1]),
            h - labels_y,
            _turn(legend, size),
            (w - side_label[0], h - side_label[1]),
        )
    else:
        spit2 = Rect(stock[-1].right + 2 * gap, h - spit_cards.bottom, card_w, card_h)
        legend2 = Rect(gap, margin, max(10, spit_cards.left - 2 * gap), h - stack_top - margin)
        seat2 = Seat(
            2,
            False,
            tuple(_flip_vertically(r, size) for r in stock),
            spit2,
            step,
            (message[0], h - message[1]),
            h - labels_y,
            legend2,
            (spit2.centerx, h - side_label[1]),
        )

    spit_gap = int(card_w * 1.7)  # room between the piles for "SPIT!" without covering them
    spit_piles = (
        Rect(w // 2 - spit_gap // 2 - card_w, middle_top, card_w, card_h),
        Rect(w // 2 + spit_gap // 2, middle_top, card_w, card_h),
    )
    return TableLayout(mode, size, card_w, card_h, spit_piles, {1: seat1, 2: seat2})
