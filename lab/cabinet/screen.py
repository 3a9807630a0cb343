"""Is the title on the cabinet's screen? A QMP screen dump compared with the game's own render.

The game draws its title headless (SDL's dummy driver) at the screen's size and layout; the texts it
drew are data (`Canvas.texts`), so the comparison is made where the title's own words are: inside
each text's box, the share of pixels within `TOLERANCE` of the render (pygame's colour distance). Behind the
texts the attract mode plays a demo, different from moment to moment, so the rest is not compared.
A black screen, the fallback's console text or another scene scores far below `MATCH`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

TOLERANCE = 0.19  # pygame's colour distance (0-1): font hinting differs by a little, a wrong pixel by more
MATCH = 0.85  # the share of the title's text boxes that must agree


def title_texts(size: tuple[int, int], layout: str, font: str = "") -> tuple[Any, list[Any]]:
    """The title as the game draws it at this size: (the frame as a Surface, its texts as data).
    Drawn on SDL's dummy driver in this process (the harness's, never the cabinet's), in the font the
    cabinet said it draws with (`font` as its journal names it; "" for this machine's own choice):
    pygame's bundled font draws at 0.69 of the size asked, so another font's title is another layout."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from appliance.display import fonts

    if not font or font == fonts.font_name():
        return _title(size, layout)
    kept: tuple[tuple[str, ...], str | None] = fonts.FONT_FILES, os.environ.pop("SPIT_ARCADE_FONT", None)
    fonts.FONT_FILES = tuple(path for path in kept[0] if Path(path).stem == font)  # type: ignore[assignment]
    _forget_texts()  # (none found: pygame's own font, as on the cabinet)
    try:
        return _title(size, layout)
    finally:  # this process's own font again
        fonts.FONT_FILES = kept[0]  # type: ignore[assignment]
        if kept[1] is not None:
            os.environ["SPIT_ARCADE_FONT"] = kept[1]
        _forget_texts()


def _forget_texts() -> None:
    """The fonts, texts and fitted caption blocks made in the other font."""
    from appliance.display import captions, fonts

    fonts._forget()
    fonts._texts.clear()
    captions._blocks.clear()


def _title(size: tuple[int, int], layout: str) -> tuple[Any, list[Any]]:
    import pygame

    from appliance.display.keys import default_keymap, for_desktop
    from appliance.display.runner import Runner
    from appliance.display.scenes.base import Context, make
    from appliance.display.sound import Sound
    from appliance.shared.settings import Settings

    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size)
    keymap = default_keymap()
    if layout == "desktop":
        keymap = for_desktop(keymap)
    settings = Settings(layout=layout, attract=False)  # the title alone, no demo game behind it
    ctx = Context(settings, size, keymap, Sound.silence(), None, lambda: 1_000_000_000, seed_source=lambda: 7)
    canvas = Runner(ctx, make("title", ctx), screen, present=lambda rects: None).draw()
    frame = pygame.Surface(size)
    canvas.render(frame)
    return frame, list(canvas.texts)


def compare(dump: Path, layout: str = "tabletop", font: str = "") -> dict[str, Any]:
    """How well a screen dump (PPM or PNG) matches the title: {"score", "size", "title_on_screen"}."""
    import pygame

    shot = pygame.image.load(str(dump))
    size = shot.get_size()
    frame, texts = title_texts(size, layout, font)
    agree = total = 0
    for text in texts:
        box = text.rect.clip(frame.get_rect())
        if box.width == 0 or box.height == 0:
            continue
        ours = pygame.PixelArray(frame.subsurface(box).copy())
        theirs = pygame.PixelArray(shot.subsurface(box).convert(frame))
        same = ours.compare(theirs, distance=TOLERANCE).make_surface()  # white where they agree
        ours.close()
        theirs.close()
        inside = frame.subsurface(box)
        ink = pygame.mask.from_threshold(inside, inside.get_at((0, 0)), (40, 40, 40, 255))
        ink.invert()  # what is not the box's background: the letters
        agreeing = pygame.mask.from_threshold(same, (255, 255, 255), (1, 1, 1, 255))
        agree += ink.overlap_area(agreeing, (0, 0))
        total += ink.count()
    score = agree / total if total else 0.0
    return {"score": round(score, 3), "size": list(size), "title_on_screen": score >= MATCH}
