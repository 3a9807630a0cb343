"""Where everything sits on screen, for the two layouts.

- tabletop (the cabinet): the players face each other across the screen. Player 1 sits at the bottom,
  player 2 at the top, and player 2's half is player 1's turned through 180°: their cards and text
  are upside down for player 1 and the right way up for player 2, their pile 1 is on the screen's
  right (their own left), as is the spit pile they start.
- desktop (two people at one computer): the same table, but nothing is turned, so both read the
  screen the same way; player 2's stock piles run 1 to 5 from the left, like their keys.

In both, spit pile 0 is on player 1's left (the screen's left) and player 2's right, as the script
format says. Geometry only: no pygame drawing here, so it is tested as plain numbers.

Text has places of its own (`PLACE_KINDS`), one of each kind per seat, each turned to face its seat
(`Seat.angle`), so that no two texts ever cover each other or the cards:

    panel   the seat's half of the screen (title, menus, summaries, game over: nothing is in play)
    centre  the seat's half of the middle row (the countdown, when the spit piles are still empty)
    prompt  between the spit piles and the seat's stock: what the seat is asked to do now
    reject  beside the spit piles, on the seat's left: why the seat's last press did nothing
    race    beside the spit piles, on the seat's right: who won a race to a pile
    info    beside the prompt, on the seat's right: the rules in force (and Mod Spit's rule and values)

A text owned by a seat goes to that seat's place; a text for everybody goes to every seat's place
of its kind on the tabletop (each copy faces its reader) and to one shared place on the desktop,
where everybody reads the screen the same way (`TableLayout.targets`). More seats later (one on each
side of the table, turned 90° or 270°) are more entries in `seats`, each with its own places.
"""

from __future__ import annotations

from pygame import Rect

from .round_table import round_layout
from .seats import LAYOUTS, PLACE_KINDS, STOCK_PILES, Place, Seat, TableLayout, label_height

__all__ = ["LAYOUTS", "PLACE_KINDS", "STOCK_PILES", "Place", "Seat", "TableLayout", "board_room", "label_height",
           "table_layout"]


def beside_spit_cards(w: int, piles: int, card_w: int, margin: int) -> int:
    """The width left between a two-seat table's spit cards and the screen's edge, inside the margins."""
    gap = card_w // 4
    row_w = piles * card_w + (piles - 1) * gap
    return (w - row_w) // 2 - card_w - 2 * gap - 2 * margin


def _turn(rect: Rect, size: tuple[int, int]) -> Rect:
    """The rectangle turned 180° about the screen's centre."""
    w, h = size
    return Rect(w - rect.right, h - rect.bottom, rect.width, rect.height)


def _flip_vertically(rect: Rect, size: tuple[int, int]) -> Rect:
    return Rect(rect.x, size[1] - rect.bottom, rect.width, rect.height)


def board_room(size: tuple[int, int]) -> int:
    """The width a runner board (Running Spit) is given beside a seat's spit cards, at any size of
    screen: as much as a 1280x720 table leaves there, its letter read from the pads metres away."""
    return int(size[0] * 0.11)


def table_layout(size: tuple[int, int], mode: str = "desktop", piles: int = STOCK_PILES, seats: int = 2,
                 room: int = 0) -> TableLayout:
    """The table for `seats` players with `piles` stock piles each (1 to 6). `room`: the width kept
    free beside each seat's spit cards, out to the screen's edge (Running Spit's runner board,
    `board_room`): the cards are made smaller where the screen would not leave it."""
    if mode not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {mode!r}")
    if seats > 2:
        return round_layout(size, mode, piles, seats)
    w, h = size
    card_h = int(h * 0.22)
    card_w = int(card_h * 0.7)
    # wide enough for spit cards + the piles with gaps; shrink cards on narrow screens
    span = max(piles, STOCK_PILES) + 2.5
    if span * card_w > w * 0.8:
        card_w = int(w * 0.8 / span)
        card_h = int(card_w / 0.7)
    margin = max(8, h // 45)
    while room and card_w > 8 and beside_spit_cards(w, piles, card_w, margin) < room:
        card_w -= 1
        card_h = int(card_w / 0.7)
    gap = card_w // 4
    step = max(3, card_h // 34)

    # player 1, at the bottom
    row_y = h - margin - card_h
    row_w = piles * card_w + (piles - 1) * gap
    left = (w - row_w) // 2
    stock = tuple(Rect(left + i * (card_w + gap), row_y, card_w, card_h) for i in range(piles))
    spit_cards = Rect(left - card_w - 2 * gap, row_y, card_w, card_h)
    stack_top = row_y - 4 * step
    labels_y = stack_top - card_h // 14
    middle_top = (h - card_h) // 2
    message = (w // 2, (middle_top + card_h + labels_y) // 2 - card_h // 20)
    legend = Rect(stock[-1].right + 2 * gap, stack_top, max(10, w - stock[-1].right - 3 * gap), h - stack_top)
    side_label = (spit_cards.centerx, stack_top - card_h // 12)

    spit_gap = int(card_w * 1.7)  # room between the piles for "SPIT!" without covering them
    spit_piles = (
        Rect(w // 2 - spit_gap // 2 - card_w, middle_top, card_w, card_h),
        Rect(w // 2 + spit_gap // 2, middle_top, card_w, card_h),
    )
    # text places of player 1 (the bottom half); the key labels under the spit piles and the pile
    # sizes beside them keep their own room
    key_room = label_height(card_h)  # a key label's line (drawn at 0.12 of the card height) and 2 px
    count_room = int(card_w * 0.5)
    middle_bottom = spit_piles[0].bottom
    prompt_top = middle_bottom + key_room
    prompt_w = max(row_w, 5 * card_w + 4 * gap)
    prompt = Rect((w - prompt_w) // 2, prompt_top, prompt_w, max(8, labels_y - key_room // 2 - prompt_top))
    info_left = prompt.right + margin
    info = Rect(info_left, middle_bottom + 2, max(8, w - margin - info_left), max(8, stack_top - middle_bottom - 4))
    side_top = h // 2 + 2
    reject_w = spit_piles[0].left - count_room - 2 * margin
    reject = Rect(margin, side_top, reject_w, middle_bottom - side_top)
    race_left = spit_piles[1].right + count_room + margin
    race = Rect(race_left, side_top, w - margin - race_left, middle_bottom - side_top)
    panel = Rect(margin, side_top, w - 2 * margin, h - margin - side_top)
    centre = Rect(margin, side_top, w - 2 * margin, middle_bottom - side_top)
    if mode != "tabletop":
        # on the desktop a seat's reject is headed by whose it is, a line more: its place takes the row
        # of the key labels under the spit piles too, which lies clear of it (the labels are under the piles)
        reject = Rect(margin, side_top, reject_w, prompt_top - 2 - side_top)
    places = {"panel": panel, "centre": centre, "prompt": prompt, "reject": reject, "race": race, "info": info}
    seat1 = Seat(1, False, stock, spit_cards, -step, message, labels_y, legend, side_label, places, 0)
    count_off = card_h // 4

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
            {kind: _turn(rect, size) for kind, rect in places.items()},
            180,
        )
        counts: tuple[tuple[tuple[tuple[int, int], int], ...], ...] = tuple(
            (((x, rect.centery + count_off), 0), ((x, rect.centery - count_off), 180))
            for rect, x in zip(
                spit_piles, (spit_piles[0].left - count_room // 2, spit_piles[1].right + count_room // 2), strict=True
            )
        )
        shared = dict(places)
    else:
        spit2 = Rect(stock[-1].right + 2 * gap, h - spit_cards.bottom, card_w, card_h)
        legend2 = Rect(margin, margin, max(10, stock[0].left - gap - margin), h - stack_top - margin)
        places2 = {kind: _flip_vertically(rect, size) for kind, rect in places.items()}
        # player 2's spit cards and name are on the screen's right: their own texts (Speed's score)
        # go on the left, the other side of the prompt, under their key legend
        info2 = places2["info"]
        info2_h = min(info2.h, places2["reject"].top - 2 - info2.y)  # clear of their reject's place
        places2["info"] = Rect(margin, info2.y, min(info2.w, prompt.left - 2 * margin), info2_h)
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
            places2,
            0,
        )
        counts = (
            (((spit_piles[0].left - count_room // 2, spit_piles[0].centery), 0),),
            (((spit_piles[1].right + count_room // 2, spit_piles[1].centery), 0),),
        )
        middle = Rect(margin, spit_piles[0].top, w - 2 * margin, card_h)
        shared = {
            "panel": Rect(margin, margin, w - 2 * margin, h - 2 * margin),
            "centre": middle,
            "prompt": Rect(
                spit_piles[0].right + 4, spit_piles[0].top, spit_piles[1].left - spit_piles[0].right - 8, card_h
            ),
            "reject": Rect(margin, spit_piles[0].top, reject_w, card_h),
            "race": Rect(race_left, spit_piles[0].top, race.width, card_h),
            "info": info,
        }
    return TableLayout(mode, size, card_w, card_h, spit_piles, {1: seat1, 2: seat2}, shared, counts)
