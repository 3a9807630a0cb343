"""What a frame shows, read as data: every text fits its box and the screen, and nothing covers a text.

`problems(canvas)` reads a frame's `Canvas` (its texts, cards and covers, as the scenes recorded
them while drawing) and says, in words, everything wrong with it:

- a text cut at its box's edge (`Drawn.fits`), outside its box, or off the screen;
- a wrapped line broken inside brackets ("(A is next to 2" / "and K)");
- two texts overlapping, unless an opaque cover drawn between them hides the lower one there
  (an overlay's backdrop); a veil in between is not enough: the lower text shows through;
- a text over a card, unless a cover (opaque or a veil) lies between them, or the text is written
  on that card (its box inside the card: the ghost card's word);
- a text half under a cover drawn after it (cut by a panel's edge);
- a text drawn smaller than every text is held to (`fonts.smallest_text`: capital letters a 128th
  of the screen's width tall, 14 px at 1280 wide, 20 px at 1920), or a card shorter than every card
  is held to (`seats.smallest_card`: 91 px at 1280 wide, 137 px at 1920; its long side, so a card
  turned to a side seat or narrowed as it turns over counts too).

No pixel is read: a wrong rectangle fails here whatever a pixel tolerance would let through.
"""

from __future__ import annotations

from typing import Any

import pygame

from appliance.display.compositor import OPAQUE, Canvas
from appliance.display.fonts import smallest_text
from appliance.display.seats import smallest_card


def _name(d: Any) -> str:
    return f"{d.place}/{d.seat} {' | '.join(d.words)!r}"


def hidden(canvas: Canvas, rect: pygame.Rect, layer: int) -> bool:
    """Wholly under an opaque cover drawn after the thing in `layer`."""
    return any(c.alpha >= OPAQUE and c.layer >= layer and c.rect.contains(rect) for c in canvas.covers)


def _between(canvas: Canvas, lower: int, upper: int, area: pygame.Rect, opaque: bool) -> bool:
    """A cover drawn over things of layer `lower` and under those of `upper` covers `area`."""
    return any(
        lower <= c.layer < upper and c.rect.contains(area) and (c.alpha >= OPAQUE or not opaque)
        for c in canvas.covers
    )


def balanced(line: str) -> bool:
    depth = 0
    for char in line:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def problems(canvas: Canvas) -> list[str]:
    screen = pygame.Rect((0, 0), canvas.size)
    found: list[str] = []
    texts = [d for d in canvas.texts if not hidden(canvas, d.rect, d.layer)]
    cards = [c for c in canvas.cards if not hidden(canvas, c.rect, c.layer)]
    least_text, (_, least_card) = smallest_text(canvas.size), smallest_card(canvas.size)
    for d in texts:
        if d.px < least_text:
            found.append(f"{_name(d)} is drawn at {d.px} px, under the {least_text} px every text is held to")
        if not d.fits:
            found.append(f"{_name(d)} does not fit its box {tuple(d.box)}")
        if not d.box.contains(d.rect):
            found.append(f"{_name(d)} {tuple(d.rect)} sticks out of its box {tuple(d.box)}")
        if not screen.contains(d.rect):
            found.append(f"{_name(d)} {tuple(d.rect)} is off the screen")
        if len(d.words) > 1 and not all(balanced(line) for line in d.words):
            found.append(f"{_name(d)} is broken inside brackets")
        for cover in canvas.covers:
            if cover.layer >= d.layer and cover.rect.colliderect(d.rect) and not cover.rect.contains(d.rect):
                found.append(f"{_name(d)} is cut by a panel drawn over it at {tuple(cover.rect)}")
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            if not a.rect.colliderect(b.rect):
                continue
            lower, upper = (a, b) if a.layer <= b.layer else (b, a)
            if not _between(canvas, lower.layer, upper.layer, lower.rect.clip(upper.rect), opaque=True):
                found.append(f"{_name(a)} {tuple(a.rect)} overlaps {_name(b)} {tuple(b.rect)}")
    for card in cards:
        if max(card.rect.size) < least_card:
            found.append(f"a card {tuple(card.rect)} is {max(card.rect.size)} px long, under the {least_card} px")
    for d in texts:
        carriers = [k for k, card in enumerate(cards) if card.rect.contains(d.box)]  # the card it is written on
        for k, card in enumerate(cards):
            if not d.rect.colliderect(card.rect) or card.rect.contains(d.box):
                continue
            if carriers and k < carriers[-1] and cards[carriers[-1]].rect.contains(d.rect.clip(card.rect)):
                continue  # a word on a card lying over this one (drawn after it): that card hides this one there
            if card.layer < d.layer and _between(canvas, card.layer, d.layer, d.rect.clip(card.rect), opaque=False):
                continue
            found.append(f"{_name(d)} {tuple(d.rect)} overlaps a card at {tuple(card.rect)}")
    return found
