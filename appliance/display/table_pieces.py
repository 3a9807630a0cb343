"""The pieces every game's table is drawn with: Spit and its family (table_view.py) and Speed
(speed_view.py) compose them, each with what is its own (Spit's stock piles and animations, Speed's
hands and side stacks) kept in its view.

- `SeatCards`: the card art turned to face each seat (the art's upright and 180° images as they
  are; a side seat's, turned a quarter, made once and kept), the translucent panels, and the badge
  that counts a face-down pile;
- `Slide` and `draw_slides`: a card on its way to a spit pile; `draw_spit_piles`: the spit piles'
  tops and sizes (until a sliding card lands, the card it will cover and the size without it);
- `Flash` and `seat_feedback`: a seat's message for a while (why its press did nothing) and the
  last race, for everybody;
- painting into a table's background: a seat's name, the key labels over its piles, the keys beside
  the spit piles at a table of two, the seat's legend (`paint_label`, `paint_legend`, ...).
What differs between the games is passed in (the legend's lines, which piles there are); nothing
here asks which game it is.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import pygame

from . import fonts
from .captions import Caption, Drawn, Line, fit_block
from .card_art import CardArt
from .compositor import Canvas
from .events import side_for
from .i18n import _
from .keys import Keymap, key_label
from .layout import Seat, TableLayout
from .legend import seat_key_label

SLIDE_S = 0.1  # a card reaches its pile within 120 ms
FELT = (18, 92, 52)
FELT_DARK = (12, 70, 40)
WHITE = (255, 255, 255)
GOLD = (255, 215, 64)
RED = (255, 90, 90)
SOFT = (200, 230, 210)
PLAYER_COLOURS = {1: (120, 200, 255), 2: (255, 170, 90), 3: (190, 150, 255), 4: (150, 235, 130)}
BADGE_ALPHA = 200  # the panel under a face-down pile's count


@dataclass
class Flash:
    """A message for a while: `words()` says it in the language chosen when it is drawn."""

    words: Callable[[], str]
    until_ns: int
    colour: tuple[int, int, int] = WHITE

    @property
    def text(self) -> str:
        return self.words()


@dataclass
class Slide:
    """A card on its way to a spit pile: played from a stock pile (or a hand), or revealed from the
    spit cards."""

    card: str
    start: tuple[int, int]
    end: tuple[int, int]
    spit_pile: int
    under: str | None  # the spit pile's top shown until the card lands
    turned: bool
    player: int = 0  # who played it (0: revealed)
    t0_ns: int | None = None  # the frame that first draws it, still at its start: the slide starts there
    seconds: float = SLIDE_S  # how long it takes

    def progress(self, now_ns: int) -> float:
        """How far it is on its way (0 to 1) in the frame of `now_ns`; the first frame asking starts it."""
        if self.t0_ns is None:
            self.t0_ns = now_ns
        return min(1.0, (now_ns - self.t0_ns) / (self.seconds * 1e9))


class SeatCards:
    """A table's card images, each turned to face a seat, and its translucent panels (both kept:
    made once a table)."""

    def __init__(self, art: CardArt) -> None:
        self.art = art
        self._shade: dict[tuple[int, int, int], pygame.Surface] = {}

    def image(self, kind: str, seat: Seat | None, card: str = "") -> pygame.Surface:
        """A card's face ("face"), back, slot or glow, turned to face `seat` (None: upright)."""
        angle = 0 if seat is None else seat.cards_angle
        if kind == "face":
            if angle in (0, 180):
                return self.art.face(card, angle == 180)
        elif kind == "back":
            if angle in (0, 180):
                return self.art.back(angle == 180)
        elif kind == "slot" and angle in (0, 180):
            return self.art.slot()
        elif kind in ("select", "second", "assist") and angle in (0, 180):
            return self.art.glow(kind)
        return self.art.quarter(kind, card if kind == "face" else "", angle)  # (drawn once a deck, warmed ahead)

    def shade(self, size: tuple[int, int], alpha: int = 170) -> pygame.Surface:
        """A translucent dark panel (cached) for banners over the table."""
        key = (size[0], size[1], alpha)
        panel = self._shade.get(key)
        if panel is None:
            panel = pygame.Surface(size, pygame.SRCALPHA)
            panel.fill((0, 0, 0, alpha))
            self._shade[key] = panel
        return panel

    def badge(self, canvas: Canvas, words: str, centre: tuple[int, int], angle: int, size: int) -> None:
        """A face-down pile's count, on a dark panel at its middle, turned `angle`."""
        label = fonts.text(words, size, WHITE, angle=angle)
        canvas.blit_centred(self.shade((label.get_width() + 12, label.get_height() + 4), BADGE_ALPHA), centre)
        canvas.blit_centred(label, centre)

    def face_down(self, canvas: Canvas, seat: Seat | None, rect: pygame.Rect, cards: int, size: int,
                  dx: int, dy: int, peek: int = 4) -> None:
        """A face-down pile of `cards` at `rect`, turned to `seat` (None: upright, as the middle is):
        up to `peek` of them peeking out, `dx`, `dy` each, and its count."""
        if not cards:
            return
        for k in range(min(cards, peek) - 1, -1, -1):
            canvas.card(self.image("back", seat), rect.move(dx * k, dy * k).topleft)
        self.badge(canvas, str(cards), rect.center, 0 if seat is None else seat.angle, size)


def draw_spit_piles(canvas: Canvas, layout: TableLayout, art: CardArt, piles: Sequence[Sequence[str]],
                    sliding: dict[int, Slide]) -> None:
    """Each spit pile's top and its size (a copy facing each side of the table); until a card on its
    way lands, the pile as it was: the card it will cover, and the size without it."""
    size_text = layout.text_size(0.14)
    for index, rect in enumerate(layout.spit_piles):
        if index >= len(piles):
            continue
        spit_pile = piles[index]
        slide = sliding.get(index)
        top = slide.under if slide is not None else (spit_pile[-1] if spit_pile else None)
        shown = len(spit_pile) - 1 if slide is not None and spit_pile else len(spit_pile)
        if top is not None:
            canvas.card(art.face(top), rect.topleft)
        if shown > 0:
            for centre, angle in layout.pile_counts[index]:
                label = fonts.text(f"{shown}", size_text, SOFT, angle=angle)
                placed = canvas.blit_centred(label, centre)
                canvas.text(Drawn("count", None, (f"{shown}",), placed, placed, angle, 1.0, size_text))


def draw_slides(canvas: Canvas, art: CardArt, sliding: dict[int, Slide], now_ns: int) -> None:
    """The cards on their way, in even steps: the least screen changes in any one frame (the band
    KMSDRM uploads)."""
    for slide in sliding.values():
        f = slide.progress(now_ns)
        x = slide.start[0] + (slide.end[0] - slide.start[0]) * f
        y = slide.start[1] + (slide.end[1] - slide.start[1]) * f
        canvas.card(art.face(slide.card, slide.turned and f < 0.5), (x, y))


def owned_lines(layout: TableLayout, player: int, words: str, colour: tuple[int, int, int]) -> tuple[Line, ...]:
    """A seat's own message (why its press did nothing): on the desktop, where nothing is turned to
    its reader, under the seat's name in its colour, so each player knows which is theirs."""
    said = Line(words, 0.12, colour)
    if layout.mode != "desktop" or len(layout.seats) > 2:  # a round table's place is by the seat's own cards
        return (said,)
    return (Line(_("Player {n}").format(n=player), 0.12, PLAYER_COLOURS.get(player, WHITE)), said)


def seat_feedback(layout: TableLayout, messages: dict[int, Flash], race: Flash | None, now_ns: int,
                  computer: Collection[int] = ()) -> list[Caption]:
    """Each seat's last message (its own; none for a seat the computer plays) and the last race
    (for everybody), while they last."""
    out = []
    for player, flash in sorted(messages.items()):
        if flash.until_ns > now_ns and player not in computer:
            owned = owned_lines(layout, player, flash.text, flash.colour)
            out.append(Caption("reject", player, owned, 150))
    if race is not None and race.until_ns > now_ns:
        out.append(Caption("race", None, (Line(race.text, 0.12, race.colour),), 170))
    return out


# ------------------------------------------------------------------ a table's background


def paint_label(
    surface: pygame.Surface, texts: list[Drawn], image: pygame.Surface, centre: tuple[int, int], place: str,
    player: int, words: str, angle: int, room: pygame.Rect | None = None,
) -> None:
    """A label (a name, a key) painted into a background at `centre` (moved inside `room`, if given),
    kept in `texts` as a text drawn."""
    rect = image.get_rect(center=centre)
    if room is not None:
        rect.clamp_ip(room)
    surface.blit(image, rect)
    px = image.get_height() if angle % 180 == 0 else image.get_width()  # its line's height, as drawn
    texts.append(Drawn(place, player, (words,), rect, rect, angle, 1.0, px))


def paint_name(surface: pygame.Surface, texts: list[Drawn], seat: Seat, name: str, size: int) -> None:
    """The seat's name by its edge, in its colour, kept inside the seat's stretch of the edge."""
    label = fonts.text(name, size, PLAYER_COLOURS[seat.player], angle=seat.angle)
    paint_label(surface, texts, label, seat.side_label, "name", seat.player, name, seat.angle, seat.name_room)


def paint_pile_keys(surface: pygame.Surface, texts: list[Drawn], keymap: Keymap, seat: Seat, size: int) -> None:
    """The key of each of the seat's piles (`pile1`..), on the seat's row of labels over them."""
    for number, rect in enumerate(seat.stock, start=1):
        key = seat_key_label(keymap, seat.player, f"pile{number}")  # players 3 and 4 too
        if key:
            image = fonts.text(key, size, SOFT, angle=seat.angle)
            level = seat.cards_angle in (0, 180)
            line = seat.pile_labels[number - 1] if seat.pile_labels else seat.labels_y  # (two rows: each its own)
            centre = (rect.centerx, line) if level else (line, rect.centery)
            paint_label(surface, texts, image, centre, "key", seat.player, key, seat.angle)


def paint_side_keys(surface: pygame.Surface, texts: list[Drawn], keymap: Keymap, layout: TableLayout,
                    index: int, size: int, computer: Collection[int] = ()) -> None:
    """At a table of two: by spit pile `index`, on the side facing each seat, the key the seat
    plays onto it with, in the seat's colour."""
    rect = layout.spit_piles[index]
    for player, seat in layout.seats.items():
        if player in computer:
            continue
        key = key_label(keymap, player, side_for(player, index))
        if not key:
            continue
        image = fonts.text(key, size, PLAYER_COLOURS[player], seat.turned)
        below = seat.stock[0].centery > rect.centery  # the label goes on the side of the pile facing the seat
        y = rect.bottom + image.get_height() // 2 + 2 if below else rect.top - image.get_height() // 2 - 2
        angle = 180 if seat.turned else 0
        paint_label(surface, texts, image, (rect.centerx, y), "key", player, key, angle)


def paint_legend(surface: pygame.Surface, texts: list[Drawn], layout: TableLayout, seat: Seat,
                 lines: tuple[Line, ...]) -> None:
    """The seat's legend (what its keys do), fitted into its box and turned to face it."""
    if not lines:
        return
    box = seat.legend
    upright = box.size if seat.angle in (0, 180) else (box.height, box.width)
    image, scale, words, px, fits, _taps = fit_block(lines, layout.text_h, upright, seat.angle, 0)
    rect = image.get_rect(center=box.center)
    surface.blit(image, rect)
    texts.append(Drawn("legend", seat.player, words, rect, box, seat.angle, scale, px, fits))


def felt(layout: TableLayout, seam: bool) -> pygame.Surface:
    """The bare table: felt, and (at a table of two) the seam between the halves."""
    w, h = layout.size
    surface = pygame.Surface(layout.size)
    surface.fill(FELT)
    if seam:
        pygame.draw.rect(surface, FELT_DARK, (0, h // 2 - 2, w, 4))
    return surface
