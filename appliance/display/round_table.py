"""The table of three or four seats: one player on each side, everything of theirs turned to them.

Seats go round the table as the rules core's table says (pile p-1 on player p's left, pile p mod N
on their right): player 1 at the bottom, player 2 at the screen's right (turned 90°: facing left),
with four seats player 3 at the top (180°) and player 4 at the left (270°); with three seats player 3
at the left. The screen is cut in a grid of three by three: each seat has the cell along its edge
(its cards, and between them and the middle a strip for its texts: reject, prompt, race, each
turned to face it; at the sides, where the strip is short, reject and race share it, half each, and
the prompt has the strip next to it on the middle's side), the spit piles sit in the middle cell,
one per seat, where the seats' corners meet, and the corner at each seat's right hand holds its key
legend and the rules in force. Geometry only: no drawing here.

On the desktop the same table, with every text upright (everybody reads the screen the same way:
texts for everybody are written once) and the cards still turned to their seats.
"""

from __future__ import annotations

from pygame import Rect

from .seats import Seat, TableLayout, label_height

# per seat count: the angle each seat faces (its texts and cards are turned by it), in seat order
ANGLES = {3: (0, 90, 270), 4: (0, 90, 180, 270)}
LABEL_SIZE = 0.1  # the names and key labels at a crowded table, as a share of the texts' height


def _card_size(size: tuple[int, int], piles: int, label_h: int) -> tuple[int, int]:
    w, h = size
    card_h = int(h * 0.15)
    for _ in range(40):
        card_w = int(card_h * 0.7)
        gap = max(4, card_w // 5)
        side = card_h + card_h // 8 + max(12, card_h // 7, label_h) + int(card_h * 0.55)
        column = (piles + 1) * card_w + piles * gap
        row = (piles + 1) * card_w + piles * gap
        if column <= h - 2 * side and row <= w - 2 * side:
            return card_w, card_h
        card_h = int(card_h * 0.94)
    return int(card_h * 0.7), card_h


def round_layout(size: tuple[int, int], mode: str, piles: int, seats: int) -> TableLayout:
    w, h = size
    text_h = min(int(h * 0.22), int(w * 0.8 / 7.5 / 0.7))  # texts as big as at a table of two
    label_h = label_height(text_h, LABEL_SIZE)  # a key label's or a name's line, clear of the cards
    card_w, card_h = _card_size(size, piles, label_h)
    gap = max(4, card_w // 5)
    margin = max(4, h // 120)  # (the screen's edge gives up what the labels' row takes)
    step = max(2, card_h // 34)
    key_room = max(12, card_h // 7, label_h)
    strip = int(card_h * 0.55)  # the seat's text strip, between its cards and the middle
    band = margin + card_h + 4 * step + key_room + strip  # how deep a seat's cell is
    mid = Rect(band, band, w - 2 * band, h - 2 * band)
    cx, cy = w // 2, h // 2
    length = (piles + 1) * card_w + piles * gap  # spit cards and stock piles in a row

    # spit piles: where each pair of neighbouring seats meets, round the middle
    dx, dy = int(card_w * 1.0), int(card_h * 0.62)
    if seats == 4:
        centres = [(cx - dx, cy + dy), (cx + dx, cy + dy), (cx + dx, cy - dy), (cx - dx, cy - dy)]
    else:
        centres = [(cx - dx, cy + dy), (cx + dx, cy + dy), (cx, cy - dy)]
    spit_piles = tuple(Rect(x - card_w // 2, y - card_h // 2, card_w, card_h) for x, y in centres)
    counts = tuple(((((r.centerx, r.centery + card_h // 2 + key_room // 2 + 2)), 0),) for r in spit_piles)

    corners = {  # the corner at each edge's right hand, as its seat sees it
        "bottom": Rect(w - band, h - band, band, band),
        "right": Rect(w - band, 0, band, band),
        "top": Rect(0, 0, band, band),
        "left": Rect(0, h - band, band, band),
    }
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
                Rect(band, h - band, w - 2 * band, strip)
                if edge == "bottom"
                else Rect(band, band - strip, w - 2 * band, strip)
            )
            labels = y - 4 * step - key_room // 2 if edge == "bottom" else y + card_h + 4 * step + key_room // 2
            thirds = [
                Rect(strip_rect.x + k * strip_rect.w // 4, strip_rect.y, strip_rect.w // 4, strip_rect.h)
                for k in (0, 3)
            ]
            middle = Rect(strip_rect.x + strip_rect.w // 4, strip_rect.y, strip_rect.w // 2, strip_rect.h)
            reject, race = (thirds[0], thirds[1]) if edge == "bottom" else (thirds[1], thirds[0])
            side_label = (cards[0].centerx, labels)
            panel = Rect(band, cy, w - 2 * band, h - cy) if edge == "bottom" else Rect(band, 0, w - 2 * band, cy)
            centre = (
                Rect(mid.x + mid.w // 3, cy, mid.w // 3, mid.h // 2)
                if edge == "bottom"
                else Rect(mid.x + mid.w // 3, mid.y, mid.w // 3, mid.h // 2)
            )
        else:
            first = (h - length) // 2
            along = [first + i * (card_w + gap) for i in range(piles + 1)]
            if edge == "right":
                along = [h - y - card_w for y in along]  # facing left: their left is the screen's bottom
            x = w - margin - card_h if edge == "right" else margin
            cards = [Rect(x, y, card_h, card_w) for y in along]
            stack = (-step if edge == "right" else step, 0)
            strip_rect = (
                Rect(w - band, band, strip, h - 2 * band)
                if edge == "right"
                else Rect(band - strip, band, strip, h - 2 * band)
            )
            labels = x - 4 * step - key_room // 2 if edge == "right" else x + card_h + 4 * step + key_room // 2
            # a side's strip is only as long as the middle is tall: reject and race take half of it
            # each (room for a race's two lines at full size), the prompt the strip next to it, on
            # the middle's side, clear of the spit piles
            half = strip_rect.h // 2
            ends = [Rect(strip_rect.x, strip_rect.y + k * half, strip_rect.w, half) for k in (0, 1)]
            middle = strip_rect.move(-strip if edge == "right" else strip, 0)
            reject, race = (ends[1], ends[0]) if edge == "right" else (ends[0], ends[1])
            side_label = (labels, cards[0].centery)
            panel = Rect(w - band, band, band, h - 2 * band) if edge == "right" else Rect(0, band, band, h - 2 * band)
            centre = (
                Rect(mid.right - mid.w // 3, mid.y, mid.w // 3, mid.h)
                if edge == "right"
                else Rect(mid.x, mid.y, mid.w // 3, mid.h)
            )
        legend = corner.inflate(-margin, -margin)
        half = legend.h // 3 if edge in ("bottom", "top") else legend.w // 3  # info; the legend the rest
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
        )
    shared = dict(out[1].places)
    shared["panel"] = Rect(margin, margin, w - 2 * margin, h - 2 * margin)
    shared["centre"] = mid
    return TableLayout(mode, size, card_w, card_h, spit_piles, out, shared, counts, text_h)
