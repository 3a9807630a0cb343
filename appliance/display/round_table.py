"""The table of three or four seats: one player on each side, everything of theirs turned to them.

Seats go round the table as the rules core's table says (pile p-1 on player p's left, pile p mod N
on their right): player 1 at the bottom, player 2 at the screen's right (turned 90°: facing left),
with four seats player 3 at the top (180°) and player 4 at the left (270°); with three seats player 3
at the left. The screen is cut in a grid of three by three: each seat has the cell along its edge
(its cards, and between them and the middle a strip for its texts, each turned to face it: at the
top and bottom reject, prompt and race, 3/8, 3/8 and 2/8 of it; at the sides, where the strip is
short, the reject has all of it and the strip next to it, on the middle's side, is the prompt's and
the race's, half each), the spit piles sit in the middle cell, one per seat, where the seats' corners
meet, each with its size on the side towards the middle, and the corner at each seat's right hand
holds its key legend and the rules in force. With five or six stock piles (`TWO_ROWS_FROM`) the seats
at the sides lay their cards in two rows, the spit cards and the first piles by the edge, the rest
nearer the middle, each row with its key labels, their cells a row deeper. Geometry only: no drawing here.

On the desktop the same table, with every text upright (everybody reads the screen the same way:
texts for everybody are written once) and the cards still turned to their seats.
"""

from __future__ import annotations

from pygame import Rect

from .seats import Seat, TableLayout, label_height

# per seat count: the angle each seat faces (its texts and cards are turned by it), in seat order
ANGLES = {3: (0, 90, 270), 4: (0, 90, 180, 270)}
LABEL_SIZE = 0.1  # the names and key labels at a crowded table, as a share of the texts' height
# From five stock piles a seat, a side seat's one row leaves cards under the least size at 1280x720
# (seats.smallest_card: 83 px of 91) and its corners too small for the legend and the rules (12 px
# text at 1280x800): the sides lay their cards in two rows, their cells deeper, every card bigger.
TWO_ROWS_FROM = 5


def _card_size(size: tuple[int, int], piles: int, label_h: int, rows: int = 1) -> tuple[int, int]:
    """The biggest cards (up to 0.15 of the screen's height) with which a seat's row of spit cards and
    `piles` stock piles fits along each side between the cells of the seats beside it, found a pixel
    at a time (steps of 6 % gave away up to 5 % of a card: 88 px where 91 fit at 1280x720). `rows`
    2: the seats at the sides lay theirs in two rows (`side_rows`), their cells a row deeper."""
    w, h = size
    for card_h in range(int(h * 0.15), 8, -1):
        card_w = int(card_h * 0.7)
        gap = max(4, card_w // 6)
        side = _band(h, card_h, label_h)
        row = (piles + 1) * card_w + piles * gap
        if rows == 2:
            outer = len(side_rows(piles)[0])
            along = outer * card_w + (outer - 1) * gap
            if along <= h - 2 * side and row <= w - 2 * (side + _row_depth(card_h, label_h)):
                return card_w, card_h
        elif row <= h - 2 * side and row <= w - 2 * side:
            return card_w, card_h
    return 6, 8


def side_rows(piles: int) -> tuple[list[int], list[int]]:
    """A side seat's cards in two rows, by slot (0 the spit cards, 1.. the stock piles): the row by
    its edge (the spit cards and the first piles) and the row nearer the middle (the rest)."""
    outer = (piles + 2) // 2
    return list(range(outer)), list(range(outer, piles + 1))


def _row_depth(card_h: int, label_h: int) -> int:
    """How much deeper a cell is for a second row of cards: the cards, their stacks, their key labels."""
    return card_h + 4 * max(2, card_h // 34) + max(12, card_h // 7, label_h)


def _band(h: int, card_h: int, label_h: int) -> int:
    """How deep a seat's cell is: the margin, its cards, their stacks, its key labels, its texts' strip."""
    margin = max(4, h // 120)
    step = max(2, card_h // 34)
    return margin + card_h + 4 * step + max(12, card_h // 7, label_h) + int(card_h * 0.55)


def round_layout(size: tuple[int, int], mode: str, piles: int, seats: int) -> TableLayout:
    w, h = size
    text_h = min(int(h * 0.22), int(w * 0.8 / 7.5 / 0.7))  # texts as big as at a table of two
    label_h = label_height(text_h, LABEL_SIZE)  # a key label's or a name's line, clear of the cards
    card_w, card_h = _card_size(size, piles, label_h)
    rows = 1
    if piles >= TWO_ROWS_FROM:  # a side's row of five or six piles: in two rows there, where the cards are then bigger
        two = _card_size(size, piles, label_h, rows=2)
        if two[1] > card_h:
            (card_w, card_h), rows = two, 2
    gap = max(4, card_w // 6)
    margin = max(4, h // 120)  # (the screen's edge gives up what the labels' row takes)
    step = max(2, card_h // 34)
    key_room = max(12, card_h // 7, label_h)
    strip = int(card_h * 0.55)  # the seat's text strip, between its cards and the middle
    band = _band(h, card_h, label_h)  # how deep a seat's cell is (at the top and bottom)
    depth = _row_depth(card_h, label_h) if rows == 2 else 0  # a side seat's second row
    sides = band + depth  # how deep a side seat's cell is
    mid = Rect(sides, band, w - 2 * sides, h - 2 * band)
    cx, cy = w // 2, h // 2
    length = (piles + 1) * card_w + piles * gap  # spit cards and stock piles in a row

    # spit piles: where each pair of neighbouring seats meets, round the middle
    dx, dy = int(card_w * 1.0), int(card_h * 0.62)
    if seats == 4:
        centres = [(cx - dx, cy + dy), (cx + dx, cy + dy), (cx + dx, cy - dy), (cx - dx, cy - dy)]
    else:
        centres = [(cx - dx, cy + dy), (cx + dx, cy + dy), (cx, cy - dy)]
    spit_piles = tuple(Rect(x - card_w // 2, y - card_h // 2, card_w, card_h) for x, y in centres)
    # each pile's size on its side towards the middle, clear of the pile beside it and of the seats'
    # keys on its outer side: between the two columns of piles (a card wide), or under the far pile
    # of a table of three (between the two near it)
    count_room = label_height(text_h, 0.14)  # the size's line (drawn at 0.14 of the texts' height)

    def count_at(r: Rect) -> tuple[int, int]:
        if r.centerx == cx:
            return (r.centerx, r.bottom + count_room // 2 + 2)
        return (r.right + card_w // 4, r.centery) if r.centerx < cx else (r.left - card_w // 4, r.centery)

    counts = tuple(((count_at(r), 0),) for r in spit_piles)

    corners = {  # the corner at each edge's right hand, as its seat sees it
        "bottom": Rect(w - sides, h - band, sides, band),
        "right": Rect(w - sides, 0, sides, band),
        "top": Rect(0, 0, sides, band),
        "left": Rect(0, h - band, sides, band),
    }
    pile_labels: tuple[int, ...] = ()  # each stock pile's line of key labels, where not the seat's one line
    edge_of = {0: "bottom", 90: "right", 180: "top", 270: "left"}
    out: dict[int, Seat] = {}
    for player, angle in enumerate(ANGLES[seats], start=1):
        edge = edge_of[angle]
        corner = corners[edge]
        if edge in ("bottom", "top"):
            first = (w - length) // 2
            along = [first + i * (card_w + gap) for i in range(piles + 1)]
            if edge == "top":
                along = [w - x - card_w for x in along]  # their left is the screen's right
            y = h - margin - card_h if edge == "bottom" else margin
            cards = [Rect(x, y, card_w, card_h) for x in along]
            stack = (0, -step if edge == "bottom" else step)
            strip_rect = (
                Rect(sides, h - band, w - 2 * sides, strip)
                if edge == "bottom"
                else Rect(sides, band - strip, w - 2 * sides, strip)
            )
            labels = y - 4 * step - key_room // 2 if edge == "bottom" else y + card_h + 4 * step + key_room // 2
            # the strip cut in eighths: the reject 3 on the seat's left (two lines at the least size:
            # "J♦ needs 10 or Q: no spit pile takes K♦"), the prompt 3, the race 2 on its right
            eighth = strip_rect.w // 8
            left_end = Rect(strip_rect.x, strip_rect.y, 3 * eighth, strip_rect.h)
            right_end = Rect(strip_rect.right - 3 * eighth, strip_rect.y, 3 * eighth, strip_rect.h)
            short = 2 * eighth
            if edge == "bottom":
                reject, race = left_end, Rect(strip_rect.right - short, strip_rect.y, short, strip_rect.h)
                middle = Rect(reject.right, strip_rect.y, race.left - reject.right, strip_rect.h)
            else:  # the top seat's left is the screen's right
                reject, race = right_end, Rect(strip_rect.x, strip_rect.y, short, strip_rect.h)
                middle = Rect(race.right, strip_rect.y, reject.left - race.right, strip_rect.h)
            side_label = (cards[0].centerx, labels)
            panel = Rect(sides, cy, w - 2 * sides, h - cy) if edge == "bottom" else Rect(sides, 0, w - 2 * sides, cy)
            centre = (
                Rect(mid.x + mid.w // 3, cy, mid.w // 3, mid.h // 2)
                if edge == "bottom"
                else Rect(mid.x + mid.w // 3, mid.y, mid.w // 3, mid.h // 2)
            )
        else:
            outer, inner_row = side_rows(piles) if rows == 2 else (list(range(piles + 1)), [])
            first = (h - (len(outer) * card_w + (len(outer) - 1) * gap)) // 2
            along = [first + i * (card_w + gap) for i in range(len(outer))]
            along += along[len(outer) - len(inner_row) :]  # the second row under the last of the first
            if edge == "right":
                along = [h - y - card_w for y in along]  # facing left: their left is the screen's bottom
            x = w - margin - card_h if edge == "right" else margin
            inward = -depth if edge == "right" else depth  # towards the middle: the second row
            row_of = [0] * len(outer) + [1] * len(inner_row)
            cards = [Rect(x + inward * row, y, card_h, card_w) for y, row in zip(along, row_of, strict=True)]
            stack = (-step if edge == "right" else step, 0)
            strip_rect = (
                Rect(w - sides, band, strip, h - 2 * band)
                if edge == "right"
                else Rect(sides - strip, band, strip, h - 2 * band)
            )
            labels = x - 4 * step - key_room // 2 if edge == "right" else x + card_h + 4 * step + key_room // 2
            pile_labels = tuple(labels + inward * row for row in row_of[1:]) if rows == 2 else ()
            # a side's strip is only as long as the middle is tall: the reject takes all of it (why a
            # press did nothing, two lines at the least size: "J♦ needs 10 or Q: no spit pile takes
            # K♦"), and the strip next to it, on the middle's side, clear of the spit piles, is the
            # race's on the seat's right and the prompt's, half each
            inner = strip_rect.move(-strip if edge == "right" else strip, 0)
            cut = inner.h // 2
            reject = strip_rect
            if edge == "right":  # facing left: their right is the screen's top
                race, middle = (
                    Rect(inner.x, inner.y, inner.w, inner.h - cut),
                    Rect(inner.x, inner.bottom - cut, inner.w, cut),
                )
            else:
                middle, race = (
                    Rect(inner.x, inner.y, inner.w, cut),
                    Rect(inner.x, inner.y + cut, inner.w, inner.h - cut),
                )
            side_label = (labels, cards[0].centery)
            panel = Rect(w - sides if edge == "right" else 0, band, sides, h - 2 * band)
            centre = (  # its third of the middle, beyond the prompt's strip
                Rect(mid.right - mid.w // 3, mid.y, mid.w // 3 - strip, mid.h)
                if edge == "right"
                else Rect(mid.x + strip, mid.y, mid.w // 3 - strip, mid.h)
            )
        legend = corner.inflate(-margin, -margin)
        half = legend.h // 4 if edge in ("bottom", "top") else legend.w // 4  # info; the legend the rest
        if edge == "bottom":
            info, legend = (
                Rect(legend.x, legend.y, legend.w, half),
                Rect(legend.x, legend.y + half, legend.w, legend.h - half),
            )
        elif edge == "top":
            info, legend = (
                Rect(legend.x, legend.bottom - half, legend.w, half),
                Rect(legend.x, legend.y, legend.w, legend.h - half),
            )
        elif edge == "right":
            info, legend = (
                Rect(legend.x, legend.y, half, legend.h),
                Rect(legend.x + half, legend.y, legend.w - half, legend.h),
            )
        else:
            info, legend = (
                Rect(legend.right - half, legend.y, half, legend.h),
                Rect(legend.x, legend.y, legend.w - half, legend.h),
            )
        places = {"panel": panel, "centre": centre, "prompt": middle, "reject": reject, "race": race, "info": info}
        text_angle = angle if mode == "tabletop" or angle != 180 else 0  # desktop: nobody reads upside down
        out[player] = Seat(
            player,
            angle == 180,
            tuple(cards[1:]),
            cards[0],
            stack[1],
            corner.center,
            labels,
            legend,
            side_label,
            places,
            text_angle,
            stack[0],
            angle,
            Rect(band, 0, w - 2 * band, h) if edge in ("bottom", "top") else Rect(0, band, w, h - 2 * band),
            pile_labels if edge in ("left", "right") else (),
        )
    shared = dict(out[1].places)
    shared["panel"] = Rect(margin, margin, w - 2 * margin, h - 2 * margin)
    shared["centre"] = mid
    return TableLayout(mode, size, card_w, card_h, spit_piles, out, shared, counts, text_h)
