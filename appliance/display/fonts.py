"""Fonts and text images, made once and kept: a frame only blits ready surfaces.

Kept text surfaces also keep their identity from frame to frame, which is what lets the compositor
see that nothing changed and redraw nothing.
"""

from __future__ import annotations

from collections import OrderedDict

import pygame

_fonts: dict[int, pygame.font.Font] = {}
_texts: OrderedDict[tuple[str, int, tuple[int, ...], bool], pygame.Surface] = OrderedDict()
TEXT_CACHE_SIZE = 512
_watching = False


def _forget() -> None:
    global _watching
    _fonts.clear()
    _watching = False


def font(size: int) -> pygame.font.Font:
    """pygame's own bold sans font (bundled with pygame-ce, so nothing to download) at `size` pixels."""
    size = max(6, int(size))
    global _watching
    if not _watching:  # fonts made before pygame.quit() are dead: forget them then
        pygame.register_quit(_forget)
        _watching = True
    if not pygame.font.get_init():
        pygame.font.init()
    found = _fonts.get(size)
    if found is None:
        found = pygame.font.Font(None, size)
        _fonts[size] = found
    return found


def text(words: str, size: int, colour: tuple[int, ...] = (255, 255, 255), turned: bool = False) -> pygame.Surface:
    """A rendered line of text (turned 180° for the far seat), cached."""
    key = (words, int(size), tuple(colour), turned)
    image = _texts.get(key)
    if image is not None:
        _texts.move_to_end(key)
        return image
    image = font(size).render(words, True, colour)
    if turned:
        image = pygame.transform.rotate(image, 180)
    _texts[key] = image
    if len(_texts) > TEXT_CACHE_SIZE:
        _texts.popitem(last=False)
    return image
