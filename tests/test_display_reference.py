"""Screenshots of the key scenes compared with reference images.

Regenerate the references after an intended change to the look (and look at them!):

    SPIT_ARCADE_REGENERATE=1 ./spit test -k reference

On a mismatch the screenshot and a difference image (changed pixels in magenta) are saved in
tests/_failures/. Small differences from font rendering on another pygame/SDL build are tolerated:
a test fails when more than 0.5 % of the pixels differ by more than 48 in any channel.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest
from headless import KEY_SCENES, Harness

REFERENCE = Path(__file__).parent / "reference"
FAILURES = Path(__file__).parent / "_failures"
SIZE = (640, 360)
TOLERANCE = 48
MAX_CHANGED = 0.005


def changed_pixels(shot: pygame.Surface, reference: pygame.Surface) -> tuple[int, pygame.Surface]:
    diff = pygame.Surface(shot.get_size())
    diff.blit(shot, (0, 0))
    changed = 0
    a, b = pygame.image.tobytes(shot, "RGB"), pygame.image.tobytes(reference, "RGB")
    width = shot.get_width()
    for i in range(0, len(a), 3):
        if abs(a[i] - b[i]) > TOLERANCE or abs(a[i + 1] - b[i + 1]) > TOLERANCE or abs(a[i + 2] - b[i + 2]) > TOLERANCE:
            changed += 1
            pixel = i // 3
            diff.set_at((pixel % width, pixel // width), (255, 0, 255))
    return changed, diff


@pytest.mark.parametrize(
    "name", ["title", "play", "stalemate", "choosing", "round_summary", "game_over", "ghost_race", "lent_card"]
)
@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
def test_reference_image(name: str, layout: str) -> None:
    _, go = KEY_SCENES[name]
    h = Harness(SIZE, layout)
    go(h)
    shot = h.screenshot()
    path = REFERENCE / f"{name}-{layout}.png"
    if os.environ.get("SPIT_ARCADE_REGENERATE"):
        REFERENCE.mkdir(exist_ok=True)
        pygame.image.save(shot, str(path))
        return
    assert path.exists(), f"no reference image {path}: run SPIT_ARCADE_REGENERATE=1 ./spit test -k reference"
    reference = pygame.image.load(str(path))
    assert reference.get_size() == shot.get_size()
    changed, diff = changed_pixels(shot, reference)
    if changed > MAX_CHANGED * SIZE[0] * SIZE[1]:
        FAILURES.mkdir(exist_ok=True)
        pygame.image.save(shot, str(FAILURES / f"{name}-{layout}.png"))
        pygame.image.save(diff, str(FAILURES / f"{name}-{layout}-diff.png"))
        pytest.fail(f"{name} ({layout}) differs from {path} in {changed} pixels; see {FAILURES}")
