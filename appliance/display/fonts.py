"""Fonts and text images, made once and kept: a frame only blits ready surfaces.

The face is DejaVu Sans Bold from Debian's `fonts-dejavu-core` (an open licence, on Raspberry Pi OS
and Debian images already): even letter spacing, clear at arcade distance, and every letter German
and Esperanto need (ä ö ü ß, ĉ ĝ ĥ ĵ ŝ ŭ). `SPIT_ARCADE_FONT` names another file; without either,
pygame's own bundled font is used (and `font_name()` says so).

Kept text surfaces also keep their identity from frame to frame, which is what lets the compositor
see that nothing changed and redraw nothing.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path

import pygame

from .i18n import language

FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
)
_fonts: dict[int, pygame.font.Font] = {}
_texts: OrderedDict[tuple[str, int, tuple[int, ...], int], pygame.Surface] = OrderedDict()
TEXT_CACHE_SIZE = 1024
_watching = False
# Sizes made ready ahead (`want`, `warm`): each one's font made and its letters drawn once, so the
# first text at a new size does not pay for them in a frame of play (up to about 2 ms for a block
# shrunk through several sizes to fit its box).
_warm: set[int] = set()
_wanted: set[int] = set()
WARM_SAMPLE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789 .,:;!?()·-–×=/%'\"+"
WARM_LETTERS = {"de": "ÄÖÜäöüß", "eo": "ĈĜĤĴŜŬĉĝĥĵŝŭ"}  # the players' language's own (only theirs: each
# letter drawn costs at every size)


def font_file() -> str | None:
    """The font file used, or None for pygame's bundled default."""
    chosen = os.environ.get("SPIT_ARCADE_FONT")
    if chosen and Path(chosen).is_file():
        return chosen
    for candidate in FONT_FILES:
        if Path(candidate).is_file():
            return candidate
    return None


def font_name() -> str:
    path = font_file()
    return Path(path).stem if path else "pygame default"


def _forget() -> None:
    global _watching
    _fonts.clear()
    _warm.clear()
    _wanted.clear()
    _watching = False


def font(size: int) -> pygame.font.Font:
    """The game's font at `size` pixels (made once per size)."""
    size = max(6, int(size))
    global _watching
    if not _watching:  # fonts made before pygame.quit() are dead: forget them then
        pygame.register_quit(_forget)
        _watching = True
    if not pygame.font.get_init():
        pygame.font.init()
    found = _fonts.get(size)
    if found is None:
        found = pygame.font.Font(font_file(), size)
        _fonts[size] = found
    return found


def want(sizes: Iterable[int]) -> None:
    """Sizes a scene will draw text at, to be made ready (`warm`) before its first frame needs them."""
    _wanted.update(max(6, int(size)) for size in sizes)
    _wanted.difference_update(_warm)


def warm(budget_s: float | None = None) -> bool:
    """Make the wanted sizes ready until `budget_s` is spent (None: all): each size's font made and
    the game's letters drawn once at it (the font keeps their glyphs; the image is dropped). True
    when none is left. Called in each frame's spare time and finished before play starts."""
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    while _wanted:
        size = min(_wanted)
        font(size).render(WARM_SAMPLE + WARM_LETTERS.get(language(), ""), True, (255, 255, 255))
        _wanted.discard(size)
        _warm.add(size)
        if deadline is not None and time.perf_counter() >= deadline:
            break
    return not _wanted


def sizes_made() -> int:
    """How many sizes have a font so far (the benchmark counts the frames that first make one)."""
    return len(_fonts)


def text(
    words: str, size: int, colour: tuple[int, ...] = (255, 255, 255), turned: bool = False, angle: int = 0
) -> pygame.Surface:
    """A rendered line of text, turned `angle` degrees anticlockwise (or 180° if `turned`), cached."""
    angle = (180 if turned else angle) % 360
    key = (words, int(size), tuple(colour), angle)
    image = _texts.get(key)
    if image is not None:
        _texts.move_to_end(key)
        return image
    image = font(size).render(words, True, colour)
    if angle == 180:
        image = pygame.transform.flip(image, True, True)  # the same as rotating, far cheaper
    elif angle:
        image = pygame.transform.rotate(image, angle)
    _texts[key] = image
    if len(_texts) > TEXT_CACHE_SIZE:
        _texts.popitem(last=False)
    return image


def cap_height(size: int) -> int:
    """How tall a capital letter stands, in pixels, at `size` (measured: DejaVu Sans Bold's "H" is
    10 px at 14, 15 px at 20)."""
    return int(font(size).render("H", True, (255, 255, 255)).get_bounding_rect().height)


def smallest_text(screen: tuple[int, int]) -> int:
    """The smallest size any text on `screen` may be drawn at: capital letters at least a 128th of
    its width tall (seats.MIN_CAP_SHARE: 10 px on a 1280-wide screen, 15 px at 1920), so they stand
    as tall on the table whatever its pixels; 14 px and 20 px with DejaVu Sans Bold."""
    from .seats import MIN_CAP_SHARE

    cap = int(screen[0] * MIN_CAP_SHARE)
    return next(size for size in range(6, 200) if cap_height(size) >= cap)
