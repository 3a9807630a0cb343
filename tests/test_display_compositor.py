from __future__ import annotations

import random

import pygame
import pytest
from headless import headless_display

from appliance.display.compositor import Canvas, Compositor, merge


@pytest.fixture(scope="module", autouse=True)
def display() -> None:
    headless_display((320, 240))


def test_only_what_changed_is_redrawn_and_the_result_equals_a_full_redraw() -> None:
    rng = random.Random(1)
    background = pygame.Surface((320, 240))
    background.fill((10, 80, 40))
    images = []
    for i in range(6):
        image = pygame.Surface((rng.randint(10, 60), rng.randint(10, 60)), pygame.SRCALPHA)
        image.fill((40 * i, 255 - 30 * i, 100, 120 + 20 * i))
        images.append(image)
    screen = pygame.Surface((320, 240))
    compositor = Compositor()
    items = [(image, rng.randint(-20, 300), rng.randint(-20, 220)) for image in images]
    first = Canvas(background, list(items))
    assert compositor.present(first, screen) == [pygame.Rect(0, 0, 320, 240)]
    assert compositor.present(Canvas(background, list(items)), screen) == []  # nothing changed
    for _ in range(200):
        k = rng.randrange(len(items))
        items[k] = (items[k][0], rng.randint(-20, 300), rng.randint(-20, 220))
        if rng.random() < 0.2:
            items.pop(rng.randrange(len(items)))
        if rng.random() < 0.2:
            items.append((rng.choice(images), rng.randint(0, 300), rng.randint(0, 220)))
        canvas = Canvas(background, list(items))
        dirty = compositor.present(canvas, screen)
        assert sum(r.w * r.h for r in dirty) <= 320 * 240
        full = pygame.Surface((320, 240))
        canvas.render(full)
        assert pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(full, "RGB")


def test_a_moving_card_dirties_only_where_it_was_and_is() -> None:
    background = pygame.Surface((320, 240))
    card = pygame.Surface((20, 30))
    compositor = Compositor()
    compositor.present(Canvas(background, [(card, 10, 10)]), pygame.Surface((320, 240)))
    dirty = compositor.dirty_rects(Canvas(background, [(card, 100, 10)]))
    assert sorted(map(tuple, dirty)) == [(10, 10, 20, 30), (100, 10, 20, 30)]


def test_merge_joins_overlaps_and_caps_the_count() -> None:
    screen = pygame.Rect(0, 0, 1000, 1000)
    assert merge([pygame.Rect(0, 0, 10, 10), pygame.Rect(5, 5, 10, 10)], screen) == [pygame.Rect(0, 0, 15, 15)]
    many = [pygame.Rect(i * 20, 0, 10, 10) for i in range(40)]
    assert merge(many, screen) == [pygame.Rect(0, 0, 790, 10)]
