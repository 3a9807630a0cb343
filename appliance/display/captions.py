"""Texts on screen as data: who each text is for, where it goes, and how it is drawn there.

A scene says what it shows as `Caption`s (`scene.captions()`): a place kind (layout.PLACE_KINDS),
an owner seat or None (for everybody), and its lines, already in the players' language. Tests read
them as data: what each seat is shown. `draw_captions` puts every caption in its places
(`TableLayout.targets`): captions meeting in one place are stacked there in order, the block is
shrunk until it fits its box, and turned to face the seat it belongs to. Every drawn block is
recorded on the canvas (`Canvas.texts`: words, place, box, angle, scale), so tests also check that
texts fit their boxes, face their readers and never cover each other.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pygame

from . import fonts
from .compositor import OPAQUE, Canvas
from .layout import Place, TableLayout

Colour = tuple[int, int, int]
PAD = 0.25  # padding round a block, as a share of its first line's height
BLOCK_CACHE_SIZE = 256


@dataclass(frozen=True, slots=True)
class Line:
    words: str
    size: float  # as a fraction of the card height
    colour: Colour = (255, 255, 255)
    tap: str | None = None  # what a click or a tap on it presses (a menu's row: menu_taps.py); None: nothing


@dataclass(frozen=True, slots=True)
class Caption:
    place: str  # a layout.PLACE_KINDS kind
    seat: int | None  # the seat it is for; None: everybody
    lines: tuple[Line, ...]
    shade: int = 170  # the dark panel behind it (alpha; 0: none)
    backdrop: int | None = None  # its place's whole box covered first: 255 opaque, less a veil, 0 none;
    # None: as its place has it (BACKDROPS)


# A panel (a menu, a summary, a notice) hides what lies under its place: nothing shows through it and
# no text under it is cut by its block's edge; so does a banner across the middle (the countdown, a
# slap's verdict, the ghost card taken), over the spit piles and their sizes. The other places are
# clear of the cards and of each other.
BACKDROPS = {"panel": OPAQUE, "centre": OPAQUE}


def caption(place: str, seat: int | None, *lines: Line, shade: int = 170, backdrop: int | None = None) -> Caption:
    return Caption(place, seat, tuple(lines), shade, backdrop)


Tap = tuple[int, int, str]  # a line's band in its block, upright (top, bottom, in pixels) and what it presses


@dataclass(frozen=True, slots=True)
class Drawn:
    """One block of text as drawn: for tests and the benchmark, never read back by the game."""

    place: str
    seat: int | None  # the seat it faces (None: a shared place, read by everybody alike)
    words: tuple[str, ...]
    rect: pygame.Rect
    box: pygame.Rect
    angle: int
    scale: float  # 1.0: drawn at the size asked for; less: shrunk to fit its box
    px: int = 0  # the smallest line's font size in pixels, as drawn
    fits: bool = True  # False: even shrunk as far as it may be, the lines were cut at the box's edge
    layer: int = 0  # the covers (compositor.Cover) drawn before it on its canvas
    taps: tuple[Tap, ...] = ()  # its lines a click or a tap presses (menu_taps.py reads them)


def shown_to(captions: list[Caption], seat: int) -> list[str]:
    """Every line a seat is shown (its own texts and those for everybody), in order."""
    return [line.words for c in captions if c.seat in (None, seat) for line in c.lines]


Block = tuple[pygame.Surface, float, tuple[str, ...], int, bool, tuple[Tap, ...]]
# image, scale, lines, smallest px, fits, the bands of its lines that take taps (upright, before turning)
_blocks: OrderedDict[tuple[object, ...], Block] = OrderedDict()


# broken only at plain spaces: a no-break space (", (comma)", "4.21 s") holds its words together
PHRASE_BREAK = re.compile(r"(?<=[,;:!?]) +|(?<=\.) +(?=[A-ZÄÖÜĈĜĤĴŜŬ(])| +(?=\()|(?<=\)) +")


def phrases(words: str) -> list[str]:
    """A line cut into phrases: after a comma, colon, semicolon or a sentence's end, and round a
    bracketed part, which is kept whole ("(A is next to 2 and K)")."""
    return [part for part in PHRASE_BREAK.split(words) if part]


def _fill(parts: list[str], fits: Callable[[str], bool]) -> list[str]:
    """Parts packed greedily into lines that fit; a part too long for a line is broken between its
    words (a bracketed group, held together by no-break spaces, stays whole)."""
    out: list[str] = []
    current = ""
    for part in parts:
        trial = f"{current} {part}" if current else part
        if fits(trial):
            current = trial
            continue
        if current:
            out.append(current)
            current = ""
        if fits(part):
            current = part
            continue
        for word in part.split(" "):
            trial = f"{current} {word}" if current else word
            if current and not fits(trial):
                out.append(current)
                current = word
            else:
                current = trial
    out.append(current)
    return out


def _fits(face: pygame.font.Font, room: int, text: str) -> bool:
    return bool(face.size(text.replace(HELD_SPACE, " "))[0] <= room)


def _held(words: str) -> str:
    """Bracketed groups held together ("(A is next to 2 and K)" never broken inside)."""
    return re.sub(r"\([^()]*\)", lambda m: m.group(0).replace(" ", HELD_SPACE), words)


HELD_SPACE = "\ue000"  # a space no line is broken at (a private-use mark, put back as a space before drawing)


def wrap(lines: tuple[Line, ...], card_h: int, width: int) -> tuple[Line, ...]:
    """Lines too wide for `width` at their size broken between phrases (after a comma, a colon, a
    sentence), where that takes no more lines than breaking between words; never inside brackets
    ("(A is next to 2 and K)"); a word too long for a line stays whole."""
    out: list[Line] = []
    for line in lines:
        size = max(8, int(card_h * line.size))
        face = fonts.font(size)
        room = width - int(size * (1 + 2 * PAD))
        if face.size(line.words)[0] <= room or " " not in line.words.strip():
            out.append(line)
            continue

        fits = partial(_fits, face, room)
        held = _held(line.words)
        by_words = _fill([held], fits)
        by_phrases = _fill(phrases(held), fits)
        chosen = by_phrases if len(by_phrases) <= len(by_words) else by_words
        out += [Line(text.replace(HELD_SPACE, " "), line.size, line.colour, line.tap) for text in chosen]
    return tuple(out)


def fit_block(lines: tuple[Line, ...], card_h: int, box: tuple[int, int], angle: int, shade: int) -> Block:
    """The lines stacked on a shaded panel, shrunk to fit `box` (w, h, before turning), turned."""
    key = (lines, card_h, box, angle, shade)
    found = _blocks.get(key)
    if found is not None:
        _blocks.move_to_end(key)
        return found
    lines = wrap(lines, card_h, box[0])
    scale = 1.0
    for _ in range(12):
        images = [fonts.text(line.words, max(8, int(card_h * line.size * scale)), line.colour) for line in lines]
        pad = int(images[0].get_height() * PAD) if images else 0
        width = max((i.get_width() for i in images), default=0) + 2 * pad
        height = sum(i.get_height() for i in images) + pad
        if (width <= box[0] and height <= box[1]) or min(int(card_h * line.size * scale) for line in lines) <= 8:
            break
        scale *= max(0.5, min(0.95, box[0] / max(1, width), box[1] / max(1, height)))
    fits = width <= box[0] and height <= box[1]
    width, height = min(width, box[0]), min(height, box[1])
    block = pygame.Surface((max(1, width), max(1, height)), pygame.SRCALPHA)
    if shade:
        block.fill((0, 0, 0, shade))
    y = pad // 2
    taps: list[Tap] = []
    for line, image in zip(lines, images, strict=True):
        block.blit(image, ((width - image.get_width()) // 2, y))
        if line.tap is not None and y < height:
            taps.append((y, min(height, y + image.get_height()), line.tap))
        y += image.get_height()
    if angle == 180:
        block = pygame.transform.flip(block, True, True)  # the same as rotating, far cheaper
    elif angle:
        block = pygame.transform.rotate(block, angle)
    smallest = min((max(8, int(card_h * line.size * scale)) for line in lines), default=0)
    made = (block, scale, tuple(line.words for line in lines), smallest, fits, tuple(taps))
    _blocks[key] = made
    if len(_blocks) > BLOCK_CACHE_SIZE:
        _blocks.popitem(last=False)
    return made


def to_edges(box: pygame.Rect, size: tuple[int, int]) -> pygame.Rect:
    """`box` stretched over the screen's margin to each edge it nearly touches: a panel's backdrop
    leaves no sliver of what is under it (a legend in the corner) showing at the screen's edge."""
    near = max(24, min(size) // 20)
    left = 0 if box.left <= near else box.left
    top = 0 if box.top <= near else box.top
    right = size[0] if size[0] - box.right <= near else box.right
    bottom = size[1] if size[1] - box.bottom <= near else box.bottom
    return pygame.Rect(left, top, right - left, bottom - top)


def draw_captions(canvas: Canvas, layout: TableLayout, captions: list[Caption]) -> None:
    """Every caption in its places: those meeting in one place stacked in order, fitted, turned."""
    gathered: dict[tuple[str, int | None], tuple[Place, list[Line], int]] = {}
    backdrops: dict[tuple[int, int, int, int], int] = {}
    for c in captions:
        if not c.lines:
            continue
        backdrop = BACKDROPS.get(c.place, 0) if c.backdrop is None else c.backdrop
        for place in layout.targets(c.place, c.seat):
            key = (place.kind, place.seat)
            if backdrop:
                area = (place.box.x, place.box.y, place.box.w, place.box.h)
                backdrops[area] = max(backdrop, backdrops.get(area, 0))
            if key in gathered:
                gathered[key][1].extend(c.lines)
            else:
                gathered[key] = (place, list(c.lines), c.shade)
    if len(backdrops) > 2:  # a panel at every seat of a table of three or four: they meet; one for all
        backdrops = {(0, 0, *canvas.size): max(backdrops.values())}
    for area, alpha in backdrops.items():  # every backdrop first, then the texts over them
        canvas.cover(to_edges(pygame.Rect(area), canvas.size), alpha)
    for place, lines, shade in gathered.values():
        box = place.box
        upright = (box.height, box.width) if place.angle % 180 else (box.width, box.height)
        text_h = getattr(layout, "text_h", layout.card_h)  # a layout of its own (tests) may size by cards
        image, scale, words, px, fits, taps = fit_block(tuple(lines), text_h, upright, place.angle, shade)
        rect = canvas.blit(image, (box.x + (box.w - image.get_width()) // 2, box.y + (box.h - image.get_height()) // 2))
        canvas.text(Drawn(place.kind, place.seat, words, rect, box, place.angle, scale, px, fits, canvas.layer, taps))
