"""What a sliding card costs the screen, frame by frame: for the tests of Spit's and Speed's slides."""

from __future__ import annotations

from collections.abc import Callable

import pygame
from headless import Harness


def band(dirty: list[pygame.Rect]) -> tuple[int, int]:
    """The rows a frame changed, topmost to bottommost (what SDL's KMSDRM path uploads)."""
    return min(r.top for r in dirty), max(r.bottom for r in dirty)


def heights_until_landed(h: Harness, landed: Callable[[], bool], frames: int) -> list[int]:
    """The band's height of each frame drawn until `landed()` (at most `frames` frames)."""
    heights = []
    for _ in range(frames):
        dirty = h.frame()
        if landed():
            return heights
        top, bottom = band(dirty)
        heights.append(bottom - top)
    raise AssertionError("the card never landed")
