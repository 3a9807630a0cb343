"""Cards drawn by code: a big rank, and suits drawn as shapes so they differ by shape, not only colour.

Every image is drawn once per size and kept (`CardArt` caches by card, turn and highlight), so a frame
is only blits of ready surfaces. Shapes are drawn at four times the size and smoothed down, which
gives clean edges without an anti-aliasing library. The four-colour deck (spades black, hearts red,
diamonds blue, clubs green) is an option; the shapes alone already tell the suits apart.
"""

from __future__ import annotations

import math
import time

import pygame

from appliance.rules import deck

from .fonts import font

Colour = tuple[int, int, int]

TWO_COLOUR: dict[str, Colour] = {"S": (20, 20, 24), "H": (200, 20, 30), "D": (200, 20, 30), "C": (20, 20, 24)}
FOUR_COLOUR: dict[str, Colour] = {
    "S": (20, 20, 24),
    "H": (200, 20, 30),
    "D": (20, 70, 200),
    "C": (10, 130, 40),
}
RANK_TEXT = {"T": "10"}
ALL_CARDS = tuple(deck())

FACE = (250, 248, 240)
EDGE = (60, 60, 60)
BACK = (150, 30, 40)
BACK_PATTERN = (190, 60, 70)
SLOT = (30, 80, 50)
SLOT_EDGE = (90, 150, 110)


def suit_polygons(
    suit: str, cx: float, cy: float, size: float
) -> tuple[list[list[tuple[float, float]]], list[tuple[float, float, float]]]:
    """The shape of a suit as polygons and circles (x, y, radius), centred on (cx, cy), `size` tall."""
    s = size / 2
    polygons: list[list[tuple[float, float]]] = []
    circles: list[tuple[float, float, float]] = []
    if suit == "D":
        polygons.append([(cx, cy - s), (cx + s * 0.72, cy), (cx, cy + s), (cx - s * 0.72, cy)])
    elif suit == "H":
        r = s * 0.5
        circles += [(cx - r * 0.95, cy - s * 0.35, r), (cx + r * 0.95, cy - s * 0.35, r)]
        polygons.append([(cx - s * 0.96, cy - s * 0.2), (cx + s * 0.96, cy - s * 0.2), (cx, cy + s)])
    elif suit == "S":
        r = s * 0.48
        circles += [(cx - r * 0.95, cy + s * 0.18, r), (cx + r * 0.95, cy + s * 0.18, r)]
        polygons.append([(cx - s * 0.93, cy + s * 0.05), (cx + s * 0.93, cy + s * 0.05), (cx, cy - s)])
        polygons.append([(cx, cy + s * 0.2), (cx + s * 0.35, cy + s), (cx - s * 0.35, cy + s)])
    elif suit == "C":
        r = s * 0.4
        circles += [
            (cx, cy - s * 0.52, r),
            (cx - s * 0.5, cy + s * 0.08, r),
            (cx + s * 0.5, cy + s * 0.08, r),
            (cx, cy - s * 0.05, r * 0.6),
        ]
        polygons.append([(cx, cy - s * 0.1), (cx + s * 0.35, cy + s), (cx - s * 0.35, cy + s)])
    else:
        raise ValueError(f"no such suit {suit!r}")
    return polygons, circles


def draw_suit(target: pygame.Surface, suit: str, centre: tuple[float, float], size: float, colour: Colour) -> None:
    """Draw a suit symbol onto `target`, smoothed (drawn 4x larger, then scaled down)."""
    scale = 4
    side = math.ceil(size * 1.2)
    big = pygame.Surface((side * scale, side * scale), pygame.SRCALPHA)
    polygons, circles = suit_polygons(suit, side * scale / 2, side * scale / 2, size * scale)
    for polygon in polygons:
        pygame.draw.polygon(big, colour, polygon)
    for x, y, r in circles:
        pygame.draw.circle(big, colour, (x, y), r)
    small = pygame.transform.smoothscale(big, (side, side))
    target.blit(small, (round(centre[0] - side / 2), round(centre[1] - side / 2)))


class CardArt:
    """Card images for one card size. `face(card)`, `back()`, `slot()`, each optionally turned 180°."""

    def __init__(self, width: int, height: int, four_colour: bool = False) -> None:
        self.width = width
        self.height = height
        self.size = (width, height)
        self.colours = FOUR_COLOUR if four_colour else TWO_COLOUR
        self.radius = max(4, width // 12)
        self._cache: dict[tuple[str, bool, str], pygame.Surface] = {}
        self._warm = False

    def _rounded(self, fill: Colour, edge: Colour, edge_width: int = 2) -> pygame.Surface:
        surface = pygame.Surface(self.size, pygame.SRCALPHA)
        rect = surface.get_rect()
        pygame.draw.rect(surface, fill, rect, border_radius=self.radius)
        pygame.draw.rect(surface, edge, rect, width=edge_width, border_radius=self.radius)
        return surface

    def _draw_face(self, card: str) -> pygame.Surface:
        rank, suit = card[0], card[1]
        colour = self.colours[suit]
        surface = self._rounded(FACE, EDGE)
        w, h = self.size
        rank_text = RANK_TEXT.get(rank, rank)
        big = font(int(h * 0.34)).render(rank_text, True, colour)
        surface.blit(big, (int(w * 0.07), int(h * 0.02)))
        draw_suit(surface, suit, (w * 0.62, h * 0.62), h * 0.42, colour)
        corner = pygame.Surface(self.size, pygame.SRCALPHA)
        small = font(int(h * 0.16)).render(rank_text, True, colour)
        corner.blit(small, (int(w * 0.07), int(h * 0.03)))
        draw_suit(corner, suit, (w * 0.07 + small.get_width() / 2, h * 0.25), h * 0.1, colour)
        surface.blit(pygame.transform.rotate(corner, 180), (0, 0))
        return surface

    def _draw_back(self) -> pygame.Surface:
        surface = self._rounded(BACK, (240, 240, 240), 3)
        w, h = self.size
        inset = max(6, w // 12)
        inner = pygame.Rect(inset, inset, w - 2 * inset, h - 2 * inset)
        step = max(6, w // 10)
        for x in range(inner.left - inner.height, inner.right, step):
            pygame.draw.line(surface, BACK_PATTERN, (x, inner.bottom), (x + inner.height, inner.top), 2)
        pygame.draw.rect(surface, BACK, surface.get_rect(), width=inset - 1, border_radius=self.radius)
        pygame.draw.rect(surface, (240, 240, 240), surface.get_rect(), width=3, border_radius=self.radius)
        return surface

    def _draw_slot(self) -> pygame.Surface:
        surface = pygame.Surface(self.size, pygame.SRCALPHA)
        pygame.draw.rect(surface, SLOT_EDGE, surface.get_rect(), width=3, border_radius=self.radius)
        return surface

    def _draw_glow(self, colour: str) -> pygame.Surface:
        w, h = self.size
        pad = max(6, w // 14)
        surface = pygame.Surface((w + 2 * pad, h + 2 * pad), pygame.SRCALPHA)
        rgb = {"select": (255, 220, 40), "assist": (80, 230, 120), "reject": (255, 60, 60)}[colour]
        full = surface.get_rect()
        for i in range(pad):
            alpha = int(230 * (i + 1) / pad)
            pygame.draw.rect(
                surface,
                (*rgb, alpha),
                full.inflate(-2 * i, -2 * i),
                width=2,
                border_radius=self.radius + pad - i,
            )
        return surface

    def _get(self, key: str, turned: bool, kind: str) -> pygame.Surface:
        cache_key = (key, turned, kind)
        image = self._cache.get(cache_key)
        if image is None:
            if turned:
                image = pygame.transform.rotate(self._get(key, False, kind), 180)
            elif kind == "face":
                image = self._draw_face(key)
            elif kind == "back":
                image = self._draw_back()
            elif kind == "slot":
                image = self._draw_slot()
            else:
                image = self._draw_glow(key)
            self._cache[cache_key] = image
        return image

    def warm(self, budget_s: float = 0.002) -> bool:
        """Draw not-yet-drawn card images until `budget_s` is spent; True when all are ready.

        Called in each frame's spare time, so no frame stalls when a card is first turned up."""
        if self._warm:
            return True
        deadline = time.perf_counter() + budget_s
        for card in ALL_CARDS:
            for turned in (False, True):
                if (card, turned, "face") not in self._cache:
                    self.face(card, turned)
                    if time.perf_counter() >= deadline:
                        return False
        self.back(True)
        self._warm = True
        return True

    def face(self, card: str, turned: bool = False) -> pygame.Surface:
        return self._get(card[:2], turned, "face")

    def back(self, turned: bool = False) -> pygame.Surface:
        return self._get("back", turned, "back")

    def slot(self) -> pygame.Surface:
        return self._get("slot", False, "slot")

    def glow(self, kind: str) -> pygame.Surface:
        """A lit frame around a card: "select" (the selected pile), "assist" (playable), "reject"."""
        return self._get(kind, False, "glow")

    def glow_offset(self) -> int:
        return (self.glow("select").get_width() - self.width) // 2
