"""Cards drawn by code, as a deck looks: rank and suit in two opposite corners (readable from either
side of the table), the pips of 2 to 10 in their usual places (those in the lower half upside down),
one big pip on an ace, a framed figure with a crown, tiara or cap on J, Q and K, and a back with a
lattice and a medallion. Suits are shapes, so they differ by shape, not only colour.

Every image is drawn once per size and kept (`CardArt` caches by card, turn and highlight), so a frame
is only blits of ready surfaces. A table of three or four seats has smaller cards: its art comes from
the screen's (`CardArt.sized`) and is drawn ahead with it (`warm`), so no frame of play draws a card.
A face is drawn at twice its size and smoothed down, which gives clean edges without an
anti-aliasing library. The four-colour deck (spades black, hearts red,
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
BACK_GOLD = (230, 190, 90)
FIGURE_FILL = (252, 236, 190)
SUPERSAMPLE = 2
# where the pips of 2..10 go: (column, row) with columns 0 (left), 1 (middle), 2 (right) and rows
# from 0 (top) to 1 (bottom)
PIPS: dict[str, list[tuple[int, float]]] = {
    "2": [(1, 0.0), (1, 1.0)],
    "3": [(1, 0.0), (1, 0.5), (1, 1.0)],
    "4": [(0, 0.0), (2, 0.0), (0, 1.0), (2, 1.0)],
    "5": [(0, 0.0), (2, 0.0), (1, 0.5), (0, 1.0), (2, 1.0)],
    "6": [(0, 0.0), (2, 0.0), (0, 0.5), (2, 0.5), (0, 1.0), (2, 1.0)],
    "7": [(0, 0.0), (2, 0.0), (1, 0.25), (0, 0.5), (2, 0.5), (0, 1.0), (2, 1.0)],
    "8": [(0, 0.0), (2, 0.0), (1, 0.25), (0, 0.5), (2, 0.5), (1, 0.75), (0, 1.0), (2, 1.0)],
    "9": [(0, 0.0), (2, 0.0), (0, 1 / 3), (2, 1 / 3), (1, 0.5), (0, 2 / 3), (2, 2 / 3), (0, 1.0), (2, 1.0)],
    "T": [
        (0, 0.0),
        (2, 0.0),
        (1, 1 / 6),
        (0, 1 / 3),
        (2, 1 / 3),
        (0, 2 / 3),
        (2, 2 / 3),
        (1, 5 / 6),
        (0, 1.0),
        (2, 1.0),
    ],
}
GLOWS: dict[str, Colour] = {  # the lit frames round a card
    "select": (255, 220, 40),
    "second": (255, 120, 240),
    "assist": (80, 230, 120),
    "reject": (255, 60, 60),
}
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


def turn(image: pygame.Surface) -> pygame.Surface:
    """`image` turned through 180° (a flip both ways: the same pixels as rotating, far cheaper)."""
    return pygame.transform.flip(image, True, True)


def draw_suit(
    target: pygame.Surface,
    suit: str,
    centre: tuple[float, float],
    size: float,
    colour: Colour,
    upside_down: bool = False,
) -> None:
    """Draw a suit symbol onto `target` (the caller smooths: faces are drawn large and scaled down)."""
    cx, cy = centre
    polygons, circles = suit_polygons(suit, 0.0, 0.0, size)
    sign = -1 if upside_down else 1
    for polygon in polygons:
        pygame.draw.polygon(target, colour, [(cx + x * sign, cy + y * sign) for x, y in polygon])
    for x, y, r in circles:
        pygame.draw.circle(target, colour, (cx + x * sign, cy + y * sign), r)


class CardArt:
    """Card images for one card size. `face(card)`, `back()`, `slot()`, each optionally turned 180°."""

    def __init__(self, width: int, height: int, four_colour: bool = False) -> None:
        self.width = width
        self.height = height
        self.size = (width, height)
        self.four_colour = four_colour
        self.colours = FOUR_COLOUR if four_colour else TWO_COLOUR
        self.radius = max(4, width // 12)
        self._cache: dict[tuple[str, bool, str], pygame.Surface] = {}
        self._warm = False  # every image of this art and of its other sizes drawn
        self._own_warm = False  # every image of this art drawn
        self._sizes: list[CardArt] = []  # the same deck at other card sizes (`sized`), warmed with it
        self._narrow_sources: list[pygame.Surface] = []
        self.quarters: tuple[int, ...] = ()  # the quarter turns its images are also drawn at (`quarter`)
        self._quartered: dict[tuple[str, str, int], pygame.Surface] = {}

    def sized(self, width: int, height: int, quarters: tuple[int, ...] = ()) -> CardArt:
        """The same deck with cards of another size (a table of three or four seats), made once and
        kept: `warm` draws its images too, in the same spare time; `quarters`: the quarter turns
        (90, 270) its cards are drawn at too, for the seats at the table's sides, warmed with it."""
        found = next((art for art in (self, *self._sizes) if art.size == (width, height)), None)
        if found is None:
            found = CardArt(width, height, self.four_colour)
            self._sizes.append(found)
            self._warm = False
        missing = tuple(angle for angle in quarters if angle not in found.quarters)
        if missing:
            found.quarters += missing
            found._own_warm = self._warm = False
        return found

    def quarter(self, kind: str, card: str, angle: int) -> pygame.Surface:
        """A face ("face", of `card`), the back, the empty slot or a lit frame (its kind) turned a
        quarter (or any `angle`): drawn once for the deck, whichever table shows it."""
        key = (kind, card, angle)
        image = self._quartered.get(key)
        if image is None:
            upright = self.face(card) if kind == "face" else {"back": self.back, "slot": self.slot}.get(
                kind, lambda: self.glow(kind)
            )()
            image = self._quartered[key] = pygame.transform.rotate(upright, angle)
        return image

    def _rounded(self, fill: Colour, edge: Colour, edge_width: int = 2) -> pygame.Surface:
        surface = pygame.Surface(self.size, pygame.SRCALPHA)
        rect = surface.get_rect()
        pygame.draw.rect(surface, fill, rect, border_radius=self.radius)
        pygame.draw.rect(surface, edge, rect, width=edge_width, border_radius=self.radius)
        return surface

    def _draw_face(self, card: str) -> pygame.Surface:
        rank, suit = card[0], card[1]
        colour = self.colours[suit]
        w, h = self.size
        k = SUPERSAMPLE
        big = pygame.Surface((w * k, h * k), pygame.SRCALPHA)
        W, H = w * k, h * k
        pygame.draw.rect(big, FACE, big.get_rect(), border_radius=self.radius * k)
        pygame.draw.rect(big, EDGE, big.get_rect(), width=2 * k, border_radius=self.radius * k)
        # the index, in two opposite corners
        corner = pygame.Surface((int(W * 0.27), int(H * 0.31)), pygame.SRCALPHA)
        rank_text = RANK_TEXT.get(rank, rank)
        label = font(int(H * 0.2)).render(rank_text, True, colour)
        box_w = int(W * 0.2)
        if label.get_width() > box_w:  # "10": narrowed to the corner's width
            label = pygame.transform.smoothscale(label, (box_w, label.get_height()))
        x = int(W * 0.035) + (box_w - label.get_width()) // 2
        corner.blit(label, (x, int(H * 0.015)))
        cx = int(W * 0.035) + box_w / 2
        draw_suit(corner, suit, (cx, H * 0.245), H * 0.1, colour)
        big.blit(corner, (0, 0))
        big.blit(turn(corner), (W - corner.get_width(), H - corner.get_height()))
        # the middle: pips, one big pip, or a figure
        if rank in PIPS:
            columns = (W * 0.34, W * 0.5, W * 0.66)
            top, bottom = H * 0.2, H * 0.8
            for column, row in PIPS[rank]:
                centre = (columns[column], top + (bottom - top) * row)
                draw_suit(big, suit, centre, H * 0.15, colour, upside_down=row > 0.5)
        elif rank == "A":
            draw_suit(big, suit, (W / 2, H / 2), H * 0.42, colour)
        else:
            self._draw_figure(big, rank, suit, colour)
        return self._opaque(pygame.transform.smoothscale(big, (w, h)))

    def _opaque(self, card: pygame.Surface) -> pygame.Surface:
        """Smoothing leaves the inside a shade short of opaque: make it opaque (the cards under it
        must not show through); the rounded corners keep their soft edge."""
        rect = card.get_rect()
        for inner in (rect.inflate(-2 * self.radius, -2), rect.inflate(-2, -2 * self.radius)):
            card.fill((0, 0, 0, 255), inner, special_flags=pygame.BLEND_RGBA_MAX)
        return card

    def _draw_figure(self, big: pygame.Surface, rank: str, suit: str, colour: Colour) -> None:
        """J, Q, K: a framed figure, with a cap, tiara or crown over a big letter."""
        W, H = big.get_size()
        frame = pygame.Rect(int(W * 0.25), int(H * 0.13), int(W * 0.5), int(H * 0.74))
        pygame.draw.rect(big, FIGURE_FILL, frame, border_radius=W // 30)
        pygame.draw.rect(big, colour, frame, width=max(2, W // 60), border_radius=W // 30)
        cx, top = frame.centerx, frame.top + frame.height * 0.1
        span = frame.width * 0.7
        gold = (212, 160, 40)
        if rank == "K":  # a crown: five points with jewels
            base = top + frame.height * 0.2
            points = [(cx - span / 2, base), (cx - span / 2, top + frame.height * 0.06)]
            for i in range(1, 5):
                x = cx - span / 2 + span * i / 4
                points.append((x - span / 8, base - frame.height * 0.08))
                points.append((x, top if i % 2 == 0 else top + frame.height * 0.04))
            points.append((cx + span / 2, base))
            pygame.draw.polygon(big, gold, points)
            pygame.draw.rect(big, gold, (cx - span / 2, base, span, frame.height * 0.05))
            for i in range(5):
                pygame.draw.circle(big, colour, (cx - span / 2 + span * i / 4, top + frame.height * 0.02), W // 45)
        elif rank == "Q":  # a tiara: an arch of pearls over a band
            base = top + frame.height * 0.18
            for i in range(7):
                angle = math.pi * i / 6
                x = cx - math.cos(angle) * span * 0.45
                y = base - math.sin(angle) * frame.height * 0.14
                pygame.draw.circle(big, gold, (x, y), W // 30)
            pygame.draw.circle(big, colour, (cx, base - frame.height * 0.14), W // 22)
            pygame.draw.rect(big, gold, (cx - span * 0.48, base, span * 0.96, frame.height * 0.05))
        else:  # J: a cap with a feather
            base = top + frame.height * 0.2
            pygame.draw.ellipse(
                big, colour, (cx - span * 0.42, base - frame.height * 0.12, span * 0.84, frame.height * 0.16)
            )
            pygame.draw.rect(big, gold, (cx - span * 0.48, base, span * 0.96, frame.height * 0.04))
            feather = [
                (cx + span * 0.2, base - frame.height * 0.08),
                (cx + span * 0.55, top - frame.height * 0.04),
                (cx + span * 0.32, base - frame.height * 0.02),
            ]
            pygame.draw.polygon(big, gold, feather)
        letter = font(int(frame.height * 0.42)).render(rank, True, colour)
        big.blit(letter, letter.get_rect(center=(cx, frame.top + frame.height * 0.6)))
        draw_suit(big, suit, (frame.left + frame.width * 0.16, frame.bottom - frame.height * 0.1), H * 0.08, colour)
        draw_suit(
            big,
            suit,
            (frame.right - frame.width * 0.16, frame.bottom - frame.height * 0.1),
            H * 0.08,
            colour,
        )

    def _draw_back(self) -> pygame.Surface:
        w, h = self.size
        k = SUPERSAMPLE
        big = pygame.Surface((w * k, h * k), pygame.SRCALPHA)
        W = w * k
        rect = big.get_rect()
        pygame.draw.rect(big, (245, 245, 240), rect, border_radius=self.radius * k)
        inner = rect.inflate(-int(W * 0.12), -int(W * 0.12))
        pygame.draw.rect(big, BACK, inner, border_radius=self.radius * k // 2)
        lattice = pygame.Surface(inner.size, pygame.SRCALPHA)
        step = max(6, W // 7)
        for x in range(-inner.height, inner.width + inner.height, step):
            pygame.draw.line(lattice, BACK_PATTERN, (x, inner.height), (x + inner.height, 0), max(1, k))
            pygame.draw.line(lattice, BACK_PATTERN, (x, 0), (x + inner.height, inner.height), max(1, k))
        big.blit(lattice, inner.topleft)
        pygame.draw.rect(big, BACK_GOLD, inner, width=max(2, k * 2), border_radius=self.radius * k // 2)
        centre = inner.center
        radius = int(min(inner.width, inner.height) * 0.3)
        pygame.draw.circle(big, BACK, centre, radius)
        pygame.draw.circle(big, BACK_GOLD, centre, radius, width=max(2, k * 2))
        draw_suit(big, "S", centre, radius * 1.1, BACK_GOLD)
        return self._opaque(pygame.transform.smoothscale(big, (w, h)))

    def _draw_slot(self) -> pygame.Surface:
        surface = pygame.Surface(self.size, pygame.SRCALPHA)
        pygame.draw.rect(surface, SLOT_EDGE, surface.get_rect(), width=3, border_radius=self.radius)
        return surface

    def _draw_glow(self, colour: str) -> pygame.Surface:
        w, h = self.size
        pad = max(6, w // 14)
        surface = pygame.Surface((w + 2 * pad, h + 2 * pad), pygame.SRCALPHA)
        rgb = GLOWS[colour]
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
                image = turn(self._get(key, False, kind))
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

    def warm(self, budget_s: float | None = 0.002) -> bool:
        """Draw not-yet-drawn card images, of this size and the other sizes made from it (`sized`),
        until `budget_s` is spent (None: all of them); True when all are ready.

        Called in each frame's spare time, and finished before play starts (the countdown), so no
        press waits for a card image being drawn."""
        if self._warm:
            return True
        deadline = math.inf if budget_s is None else time.perf_counter() + budget_s
        for art in (self, *self._sizes):
            if not art._warm_own(deadline):
                return False
        self._warm = True
        return True

    def _warm_own(self, deadline: float) -> bool:
        if self._own_warm:
            return True
        for key in self.every_image():
            if key not in self._cache:
                self._get(*key)
                if time.perf_counter() >= deadline:
                    return False
        for angle in self.quarters:  # the table's sides' cards, turned a quarter
            for name, turned, kind in self.every_image():
                shown, card = ("face", name) if kind == "face" else (name, "")  # (as SeatCards asks for them)
                if not turned and (shown, card, angle) not in self._quartered:
                    self.quarter(shown, card, angle)
                    if time.perf_counter() >= deadline:
                        return False
        self._own_warm = True
        return True

    @staticmethod
    def every_image() -> list[tuple[str, bool, str]]:
        """The keys of every image a table draws: each face both ways up, the back both ways, the
        empty slot and the lit frames."""
        faces = [(card, turned, "face") for card in ALL_CARDS for turned in (False, True)]
        return [
            *faces,
            ("back", False, "back"),
            ("back", True, "back"),
            ("slot", False, "slot"),
            *((glow, False, "glow") for glow in GLOWS),
        ]

    def face(self, card: str, turned: bool = False) -> pygame.Surface:
        return self._get(card[:2], turned, "face")

    def back(self, turned: bool = False) -> pygame.Surface:
        return self._get("back", turned, "back")

    def slot(self) -> pygame.Surface:
        return self._get("slot", False, "slot")

    def glow(self, kind: str) -> pygame.Surface:
        """A lit frame around a card: "select" (the selected pile), "assist" (playable), "reject"."""
        return self._get(kind, False, "glow")

    def narrowed(self, image: pygame.Surface, share: float, steps: int = 8) -> pygame.Surface:
        """`image` squeezed to `share` of its width (a card seen turning on its long edge); a few
        widths only, each made once."""
        step = max(1, min(steps, round(share * steps)))
        key = (f"narrow{id(image)}:{step}", False, "narrow")
        found = self._cache.get(key)
        if found is None:
            width = max(1, image.get_width() * step // steps)
            found = pygame.transform.smoothscale(image, (width, image.get_height()))
            self._cache[key] = found
            self._narrow_sources.append(image)  # keeps the ids in the keys meaning their images
        return found

    def glow_offset(self) -> int:
        return (self.glow("select").get_width() - self.width) // 2
