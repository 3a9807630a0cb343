"""Redraw only what changed: scenes describe a frame as a list of ready images; this finds the difference.

A scene draws into a `Canvas`: a background surface and a display list of (image, position). The
`Compositor` compares the list with the last frame's: an image that appeared, went or moved marks its
rectangle dirty; only those rectangles are redrawn (background, then every image over them, in order)
and only they are handed to `pygame.display.update`. A still table costs nothing; a card sliding to a
spit pile costs two card-sized rectangles. That is what holds 60 frames a second on a Raspberry Pi's
CPU at 1920x1080, where repainting and uploading 8 MB every frame would not.
"""

from __future__ import annotations

import dataclasses
import weakref
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import pygame

Item = tuple[pygame.Surface, int, int]
MAX_DIRTY_RECTS = 24
OPAQUE = 255

# The texts painted into a background surface (names, key labels, legends), by surface: a canvas on
# that background starts with them, so a frame's texts are all in `Canvas.texts` whoever painted them.
_painted: weakref.WeakKeyDictionary[pygame.Surface, list[Any]] = weakref.WeakKeyDictionary()
_panels: dict[tuple[int, int, int, tuple[int, int, int]], pygame.Surface] = {}


def painted(background: pygame.Surface, texts: list[Any]) -> pygame.Surface:
    """Say which texts (captions.Drawn) `background` has painted on it; returns it."""
    _painted[background] = list(texts)
    return background


class Placed(NamedTuple):
    """A card on the canvas, as data: where, and under how many covers drawn before it (`layer`)."""

    rect: pygame.Rect
    layer: int


@dataclass(frozen=True, slots=True)
class Cover:
    """A panel drawn over everything before it: `alpha` 255 hides what lies wholly under it; less is
    a veil, which shows it through, dimmed. `layer`: the covers drawn before it."""

    rect: pygame.Rect
    alpha: int
    layer: int


@dataclass
class Canvas:
    """One frame as data: a full-screen background and the images over it, bottom first.

    Besides the images, what they are: `texts` (captions.Drawn: every block of text, those painted
    into the background first), `cards` (every card face or back, `Placed`) and `covers` (the panels
    drawn over what was there: an overlay's backdrop, the title's veil). Each text and card carries
    its `layer`, the number of covers drawn before it, so what is hidden, veiled or on top is read
    as data (tests check that no text covers another or a card)."""

    background: pygame.Surface
    items: list[Item] = field(default_factory=list)
    texts: list[Any] = field(default_factory=list)  # captions.Drawn: the texts on it, as data
    cards: list[Placed] = field(default_factory=list)
    covers: list[Cover] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.texts:
            self.texts = list(_painted.get(self.background, ()))

    @property
    def size(self) -> tuple[int, int]:
        return self.background.get_size()

    @property
    def layer(self) -> int:
        return len(self.covers)

    def blit(self, image: pygame.Surface, pos: tuple[float, float]) -> pygame.Rect:
        x, y = round(pos[0]), round(pos[1])
        self.items.append((image, x, y))
        return pygame.Rect(x, y, *image.get_size())

    def blit_centred(self, image: pygame.Surface, centre: tuple[float, float]) -> pygame.Rect:
        w, h = image.get_size()
        return self.blit(image, (centre[0] - w / 2, centre[1] - h / 2))

    def card(self, image: pygame.Surface, pos: tuple[float, float]) -> pygame.Rect:
        """A card (face or back) drawn, and kept as one."""
        rect = self.blit(image, pos)
        self.cards.append(Placed(rect, len(self.covers)))
        return rect

    def text(self, drawn: Any) -> None:
        """A block of text drawn (captions.Drawn), kept with the layer it lies in (made with it, as
        a rule: `Drawn(..., layer=canvas.layer)`)."""
        layer = len(self.covers)
        self.texts.append(drawn if drawn.layer == layer else dataclasses.replace(drawn, layer=layer))

    def cover(self, rect: pygame.Rect, alpha: int = OPAQUE, colour: tuple[int, int, int] = (10, 40, 26)) -> None:
        """A panel over everything drawn so far in `rect`: opaque (255) or a veil."""
        key = (rect.w, rect.h, alpha, colour)
        panel = _panels.get(key)
        if panel is None:
            panel = pygame.Surface(rect.size, pygame.SRCALPHA if alpha < OPAQUE else 0)
            panel.fill((*colour, alpha) if alpha < OPAQUE else colour)
            if len(_panels) > 64:
                _panels.clear()
            panel = _panels[key] = panel
        self.blit(panel, rect.topleft)
        self.covers.append(Cover(pygame.Rect(rect), alpha, self.layer))

    def render(self, target: pygame.Surface) -> None:
        """Draw the whole frame (screenshots, first frames)."""
        target.blit(self.background, (0, 0))
        target.blits([(image, (x, y)) for image, x, y in self.items], doreturn=False)


def _key(item: Item) -> tuple[int, int, int]:
    return (id(item[0]), item[1], item[2])


def _rect(item: Item) -> pygame.Rect:
    return pygame.Rect(item[1], item[2], *item[0].get_size())


class Compositor:
    """Keeps the last frame's display list; `present` redraws the difference onto `target`."""

    def __init__(self) -> None:
        self._last: list[Item] = []
        self._last_background: pygame.Surface | None = None
        self._keep: list[pygame.Surface] = []  # keeps last frame's images alive, so ids stay unique

    def invalidate(self) -> None:
        self._last_background = None

    def dirty_rects(self, canvas: Canvas) -> list[pygame.Rect]:
        screen = pygame.Rect((0, 0), canvas.size)
        if canvas.background is not self._last_background:
            return [screen]
        old = [_key(i) for i in self._last]
        new = [_key(i) for i in canvas.items]
        if old == new:
            return []
        old_set, new_set = set(old), set(new)
        if old_set == new_set:  # same images, different order
            return [screen]
        rects = [_rect(i) for i in self._last if _key(i) not in new_set]
        rects += [_rect(i) for i in canvas.items if _key(i) not in old_set]
        rects = [r.clip(screen) for r in rects if r.colliderect(screen)]
        return merge(rects, screen)

    def present(self, canvas: Canvas, target: pygame.Surface) -> list[pygame.Rect]:
        """Bring `target` up to date with `canvas`; return the rectangles that changed."""
        dirty = self.dirty_rects(canvas)
        if dirty:
            items = canvas.items
            placed = [(image, (x, y)) for image, x, y in items]
            where = [_rect(i) for i in items]  # each image's rectangle, worked out once a frame
            for rect in dirty:
                target.set_clip(rect)
                target.blit(canvas.background, rect, rect)
                target.blits([placed[i] for i in rect.collidelistall(where)], doreturn=False)  # in order
            target.set_clip(None)
        self._last = list(canvas.items)
        self._keep = [image for image, _, _ in canvas.items]
        self._last_background = canvas.background
        return dirty


def merge(rects: list[pygame.Rect], screen: pygame.Rect) -> list[pygame.Rect]:
    """Overlapping rectangles joined; too many become their union (one blit beats dozens)."""
    merged: list[pygame.Rect] = []
    for rect in rects:
        rect = rect.copy()
        changed = True
        while changed:
            changed = False
            for other in merged:
                if other.colliderect(rect):
                    merged.remove(other)
                    rect.union_ip(other)
                    changed = True
                    break
        merged.append(rect)
    if len(merged) > MAX_DIRTY_RECTS:
        return [merged[0].unionall(merged[1:]).clip(screen)]
    return merged
