"""Redraw only what changed: scenes describe a frame as a list of ready images; this finds the difference.

A scene draws into a `Canvas`: a background surface and a display list of (image, position). The
`Compositor` compares the list with the last frame's: an image that appeared, went or moved marks its
rectangle dirty; only those rectangles are redrawn (background, then every image over them, in order)
and only they are handed to `pygame.display.update`. A still table costs nothing; a card sliding to a
spit pile costs two card-sized rectangles. That is what holds 60 frames a second on a Raspberry Pi's
CPU at 1920x1080, where repainting and uploading 8 MB every frame would not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

Item = tuple[pygame.Surface, int, int]
MAX_DIRTY_RECTS = 24


@dataclass
class Canvas:
    """One frame as data: a full-screen background and the images over it, bottom first."""

    background: pygame.Surface
    items: list[Item] = field(default_factory=list)
    texts: list[Any] = field(default_factory=list)  # captions.Drawn: the texts on it, as data

    @property
    def size(self) -> tuple[int, int]:
        return self.background.get_size()

    def blit(self, image: pygame.Surface, pos: tuple[float, float]) -> pygame.Rect:
        x, y = round(pos[0]), round(pos[1])
        self.items.append((image, x, y))
        return pygame.Rect(x, y, *image.get_size())

    def blit_centred(self, image: pygame.Surface, centre: tuple[float, float]) -> pygame.Rect:
        w, h = image.get_size()
        return self.blit(image, (centre[0] - w / 2, centre[1] - h / 2))

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
