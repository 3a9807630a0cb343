"""The table drawn from the game's read-only state, with the feedback players feel.

`TableView.notice(events, now_ns)` turns the events a press produced into animations: a played
card slides to its spit pile (100 ms), a revealed spit card slides from the spitter's stack, a
rejected press shakes the pile and says why, a lost race shows who was first and by how many ms.
`TableView.draw(canvas, game, now_ns)` describes the frame; it never changes the game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from appliance.rules import REJECT_REASONS, Event, Game, side_for
from appliance.rules.stalemate import playable

from . import fonts
from .card_art import CardArt
from .compositor import Canvas
from .keys import Keymap, key_label, legend
from .layout import TableLayout

SLIDE_S = 0.1  # a card reaches its pile within 120 ms
SHAKE_S = 0.3
MESSAGE_S = 2.0
RACE_S = 2.0
FELT = (18, 92, 52)
FELT_DARK = (12, 70, 40)
WHITE = (255, 255, 255)
GOLD = (255, 215, 64)
RED = (255, 90, 90)
SOFT = (200, 230, 210)
PLAYER_COLOURS = {1: (120, 200, 255), 2: (255, 170, 90)}

MESSAGES = dict(REJECT_REASONS)
MESSAGES["too_late"] = "too late: the other player got there first"


@dataclass
class Slide:
    card: str
    start: tuple[int, int]
    end: tuple[int, int]
    t0_ns: int
    spit_pile: int
    under: str | None  # the spit pile's top shown until the card lands
    turned: bool


@dataclass
class Flash:
    text: str
    until_ns: int
    colour: tuple[int, int, int] = WHITE


class TableView:
    def __init__(
        self,
        layout: TableLayout,
        art: CardArt,
        keymap: Keymap | None = None,
        assist: bool = False,
        show_keys: bool = True,
    ) -> None:
        self.layout = layout
        self.art = art
        self.keymap = keymap or {}
        self.assist = assist
        self.show_keys = show_keys
        self.slides: list[Slide] = []
        self.shakes: dict[tuple[int, str], int] = {}  # (player, control) -> start ns
        self.messages: dict[int, Flash] = {}
        self.races: dict[int, Flash] = {}  # spit pile -> "P1 first by 12 ms"
        self._background: pygame.Surface | None = None
        self._shade: dict[tuple[int, int, int], pygame.Surface] = {}

    # ------------------------------------------------------------------ feedback from events

    def notice(self, events: list[Event], now_ns: int, game: Game) -> None:
        for event in events:
            kind = event["event"]
            player = int(event.get("player") or 0)
            if kind == "play":
                seat = self.layout.seat(player)
                start = seat.stock[event["pile"] - 1].topleft
                self._slide(event["card"], start, event["spit_pile"], event["onto"], now_ns, seat.turned)
                self.messages.pop(player, None)
            elif kind == "reveal":
                seat = self.layout.seat(player)
                pile = game.spit_piles[event["spit_pile"]]
                under = pile[-2] if len(pile) >= 2 else None
                self._slide(event["card"], seat.spit_cards.topleft, event["spit_pile"], under, now_ns, False)
            elif kind == "reject":
                self.shakes[(player, event["press"])] = now_ns
                reason = event["reason"]
                if reason == "too_late":
                    by = event.get("by_ms", 0)
                    winner = event.get("winner")
                    text = f"Player {winner} first by {by:.0f} ms"
                    index = event.get("spit_pile")
                    if index is None:
                        index = 0
                    self.races[index] = Flash(text, now_ns + int(RACE_S * 1e9), GOLD)
                self.messages[player] = Flash(MESSAGES.get(reason, str(reason)), now_ns + int(MESSAGE_S * 1e9), RED)
            elif kind in ("select", "flip", "move", "deselect"):
                self.messages.pop(player, None)
            elif kind == "deal":
                self.slides.clear()
                self.messages.clear()

    def _slide(
        self, card: str, start: tuple[int, int], index: int, under: str | None, now_ns: int, turned: bool
    ) -> None:
        self.slides = [s for s in self.slides if s.spit_pile != index]
        self.slides.append(Slide(card, start, self.layout.spit_piles[index].topleft, now_ns, index, under, turned))

    def busy(self, now_ns: int) -> bool:
        """Something is moving (so the frame changes even without a press)."""
        return any(now_ns - s.t0_ns < SLIDE_S * 1e9 for s in self.slides) or any(
            now_ns - t0 < SHAKE_S * 1e9 for t0 in self.shakes.values()
        )

    # ------------------------------------------------------------------ drawing

    def background(self) -> pygame.Surface:
        """The felt, the seats' names and the key labels: everything that never changes."""
        if self._background is not None:
            return self._background
        lay = self.layout
        w, h = lay.size
        surface = pygame.Surface(lay.size)
        surface.fill(FELT)
        pygame.draw.rect(surface, FELT_DARK, (0, h // 2 - 2, w, 4))
        small = lay.text_size(0.1)
        for player, seat in lay.seats.items():
            colour = PLAYER_COLOURS[player]
            label = fonts.text(f"Player {player}", lay.text_size(0.12), colour, seat.turned)
            surface.blit(label, label.get_rect(center=seat.side_label))
            for rect in seat.stock:
                surface.blit(self.art.slot(), rect)
            if self.show_keys and self.keymap:
                for number, rect in enumerate(seat.stock, start=1):
                    key = key_label(self.keymap, player, f"pile{number}")
                    if key:
                        image = fonts.text(key, small, SOFT, seat.turned)
                        surface.blit(image, image.get_rect(center=(rect.centerx, seat.labels_y)))
                lines = [line for line in legend(self.keymap) if line.startswith(f"Player {player}")]
                y = seat.legend.top if not seat.turned else seat.legend.bottom
                for line in lines:
                    for part in line.split("  ")[1:]:
                        image = fonts.text(part, small, SOFT, seat.turned)
                        if seat.turned:
                            y -= image.get_height()
                            surface.blit(image, (seat.legend.right - image.get_width(), y))
                        else:
                            surface.blit(image, (seat.legend.left, y))
                            y += image.get_height()
        for index, rect in enumerate(lay.spit_piles):
            surface.blit(self.art.slot(), rect)
            if self.show_keys and self.keymap:
                for player, seat in lay.seats.items():
                    key = key_label(self.keymap, player, side_for(player, index))
                    if not key:
                        continue
                    image = fonts.text(key, small, PLAYER_COLOURS[player], seat.turned)
                    y = rect.bottom + small // 2 if player == 1 else rect.top - small // 2
                    surface.blit(image, image.get_rect(center=(rect.centerx, y)))
        self._background = surface.convert() if pygame.display.get_surface() is not None else surface
        return self._background

    def shade(self, size: tuple[int, int], alpha: int = 170) -> pygame.Surface:
        """A translucent dark panel (cached) for banners over the table."""
        key = (size[0], size[1], alpha)
        panel = self._shade.get(key)
        if panel is None:
            panel = pygame.Surface(size, pygame.SRCALPHA)
            panel.fill((0, 0, 0, alpha))
            self._shade[key] = panel
        return panel

    def _shake(self, player: int, control: str, now_ns: int) -> int:
        t0 = self.shakes.get((player, control))
        if t0 is None:
            return 0
        age = (now_ns - t0) / 1e9
        if age >= SHAKE_S:
            del self.shakes[(player, control)]
            return 0
        return int(math.sin(age * 60) * self.layout.card_w * 0.08 * (1 - age / SHAKE_S))

    def draw(self, canvas: Canvas, game: Game, now_ns: int) -> None:
        lay = self.layout
        art = self.art
        step_cards = 4
        lit: set[tuple[int, int]] = set()
        if self.assist and game.phase == "playing":
            for number, p in enumerate(game.players, start=1):
                for pile_number, _ in playable(p.stock, game.spit_piles, game.variant):
                    lit.add((number, pile_number))
        for player, seat in lay.seats.items():
            me = game.player(player)
            # spit cards
            if me.spit_cards:
                for k in range(min(len(me.spit_cards), step_cards) - 1, -1, -1):
                    canvas.blit(art.back(seat.turned), seat.spit_cards.move(0, seat.stack_step * k).topleft)
                count = fonts.text(str(len(me.spit_cards)), lay.text_size(0.14), WHITE, seat.turned)
                canvas.blit_centred(count, seat.spit_cards.center)
            # stock piles
            for number, rect in enumerate(seat.stock, start=1):
                if number > len(me.stock):
                    continue
                pile = me.stock[number - 1]
                if not pile.cards:
                    continue
                shake = self._shake(player, f"pile{number}", now_ns)
                if me.selected == number:
                    shake += self._shake(player, "left", now_ns) + self._shake(player, "right", now_ns)
                under = min(len(pile.cards) - 1, step_cards - 1)
                for k in range(under, 0, -1):
                    canvas.blit(art.back(seat.turned), rect.move(0, seat.stack_step * k).topleft)
                top_rect = rect.move(shake, 0)
                lifted = me.selected == number
                if lifted:
                    top_rect = top_rect.move(0, seat.stack_step * 3)
                    off = art.glow_offset()
                    canvas.blit(art.glow("select"), (top_rect.x - off, top_rect.y - off))
                elif (player, number) in lit:
                    off = art.glow_offset()
                    canvas.blit(art.glow("assist"), (top_rect.x - off, top_rect.y - off))
                image = art.face(pile.cards[-1], seat.turned) if pile.up > 0 else art.back(seat.turned)
                canvas.blit(image, top_rect.topleft)
            # message line
            flash = self.messages.get(player)
            if flash is not None and flash.until_ns > now_ns:
                image = fonts.text(flash.text, lay.text_size(0.13), flash.colour, seat.turned)
                canvas.blit(
                    self.shade((image.get_width() + 24, image.get_height() + 8), 140),
                    (
                        seat.message[0] - image.get_width() // 2 - 12,
                        seat.message[1] - image.get_height() // 2 - 4,
                    ),
                )
                canvas.blit_centred(image, seat.message)
        # spit piles
        sliding = {s.spit_pile: s for s in self.slides if now_ns - s.t0_ns < SLIDE_S * 1e9}
        self.slides = list(sliding.values())
        size_text = lay.text_size(0.14)
        for index, rect in enumerate(lay.spit_piles):
            spit_pile = game.spit_piles[index]
            slide = sliding.get(index)
            top = slide.under if slide is not None else (spit_pile[-1] if spit_pile else None)
            if top is not None:
                canvas.blit(art.face(top), rect.topleft)
            if spit_pile:
                label = fonts.text(f"{len(spit_pile)}", size_text, SOFT)
                x = rect.left - lay.card_w // 5 if index == 0 else rect.right + lay.card_w // 5
                canvas.blit_centred(label, (x, rect.centery))
        for slide in sliding.values():
            f = min(1.0, (now_ns - slide.t0_ns) / (SLIDE_S * 1e9))
            f = 1 - (1 - f) ** 2  # ease out
            sx = slide.start[0] + (slide.end[0] - slide.start[0]) * f
            sy = slide.start[1] + (slide.end[1] - slide.start[1]) * f
            canvas.blit(art.face(slide.card, slide.turned and f < 0.5), (sx, sy))
        for index, flash in list(self.races.items()):
            if flash.until_ns <= now_ns:
                del self.races[index]
                continue
            image = fonts.text(flash.text, lay.text_size(0.12), flash.colour)
            rect = lay.spit_piles[index]
            canvas.blit(
                self.shade((image.get_width() + 20, image.get_height() + 8), 180),
                (rect.centerx - image.get_width() // 2 - 10, rect.centery - image.get_height() // 2 - 4),
            )
            canvas.blit_centred(image, rect.center)
