"""Speed's table on screen (S1-S5): each hand of five at its player's edge, the stock beside it, the
two spit piles in the middle with a side stack at each end, and the running score.

The geometry is the Spit table's (layout.py) for two seats and five piles: the five hand slots sit
where the stock piles sit, each player's face-down stock where the spit cards sit, so the key labels
over the slots (`pile1`..`pile5`) are the same. The middle row is Speed's own: the two spit piles
close together in the middle, side stack i beyond spit pile i (`speed_layout`), so the reject and
race places beside them never cover a card.

A played card slides from its hand slot to the spit pile (`SLIDE_S`); the pile shows the card it
covers, and that pile's size, until the card lands. The slide moves in even steps, each frame a
fraction of the way: on KMSDRM, SDL uploads the band from the topmost to the bottommost changed row
every frame, so a card that jumped from the hand at the screen's edge to the middle in one frame
would upload more than half the screen at once; sliding, no frame changes more than a card's
height and one step (about 27% of the screen at 1080p), and the frame of the press changes only the
hand's row.

Hands on a shared screen (seeds/README.md, "Speed"): a screen set into a table can't hide a hand
from the player across it, so on the cabinet Speed is played with open hands: each hand is drawn
face up at its owner's edge, turned toward its owner (on the tabletop the other player reads it
upside down, across the table, while racing for the middle). Both see the same, so it is fair; the
computer, which could read everything, reads only its own hand (bots/speed.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from appliance.rules import Event, Reason
from appliance.rules.events import Call, Deal, Deselect, Draw, GameOver, Play, Reject, Select
from appliance.rules.player_words import reject_words as rules_reject_words

from . import fonts
from .captions import Caption, Drawn, Line, fit_block
from .card_art import CardArt
from .compositor import Canvas, painted
from .events import seat_of, side_for
from .hints import misfit
from .i18n import _
from .keys import Keymap, key_label
from .layout import Place, Seat, TableLayout
from .table_view import (
    FELT,
    FELT_DARK,
    GOLD,
    PLAYER_COLOURS,
    RED,
    SOFT,
    WHITE,
    owned_lines,
    paint_label,
    race_words,
)

MESSAGE_S = 2.0
RACE_S = 2.0
SLIDE_S = 0.12  # a played card reaches its spit pile in 120 ms (Spit's slides take 100)
PEEK_CARDS = 4  # cards drawn under a face-down pile's top


def speed_reject_words(reason: str) -> str:
    """Why a Speed press did nothing: the Spit words, but a hand rather than stock piles."""
    return rules_reject_words(reason, say=_, speed=True)


def speed_layout(base: TableLayout) -> tuple[TableLayout, tuple[pygame.Rect, pygame.Rect]]:
    """The Spit table's layout with Speed's middle row: the spit piles side by side in the middle,
    a side stack beyond each; the reject and race places narrowed where they would meet a side stack."""
    cw, ch = base.card_w, base.card_h
    gap = max(6, cw // 7)
    cx = base.size[0] // 2
    y = base.spit_piles[0].y
    piles = (pygame.Rect(cx - gap // 2 - cw, y, cw, ch), pygame.Rect(cx + gap - gap // 2, y, cw, ch))
    sides = (piles[0].move(-(cw + gap), 0), piles[1].move(cw + gap, 0))
    counts = []
    for index, pile in enumerate(piles):
        dx = pile.x - base.spit_piles[index].x
        counts.append(tuple(((x + dx, cy), angle) for (x, cy), angle in base.pile_counts[index]))
    left_edge, right_edge = sides[0].x - gap, sides[1].right + gap

    def narrowed(box: pygame.Rect) -> pygame.Rect:
        if box.colliderect(pygame.Rect(left_edge, y, right_edge - left_edge, ch)) and box.h < base.size[1] // 3:
            if box.centerx < cx:
                return pygame.Rect(box.x, box.y, max(1, min(box.right, left_edge) - box.x), box.h)
            start = max(box.x, right_edge)
            return pygame.Rect(start, box.y, max(1, box.right - start), box.h)
        return box

    seats = {}
    for player, seat in base.seats.items():
        places = dict(seat.places)
        for name in ("reject", "race"):
            places[name] = narrowed(places[name])
        seats[player] = dataclasses.replace(seat, places=places)
    shared = dict(base.shared)
    for name in ("reject", "race"):
        shared[name] = narrowed(shared[name])
    # The desktop's shared prompt sits between Spit's spit piles, where Speed's now lie: Speed says
    # everything to the seats, so it is moved out of the way, under player 1's prompt.
    shared["prompt"] = seats[1].places["prompt"]
    layout = dataclasses.replace(base, spit_piles=piles, seats=seats, shared=shared, pile_counts=tuple(counts))
    return layout, sides


@dataclass
class Flash:
    words: Any  # a callable giving the words in the language of the moment
    until_ns: int
    colour: tuple[int, int, int]


@dataclass
class Slide:
    """A played card on its way from the hand slot (`start`, as it lay lifted) to its spit pile."""

    card: str
    start: tuple[int, int]
    spit_pile: int
    under: str  # the pile's top until the card lands
    turned: bool  # it leaves a hand drawn turned (player 2 at the cabinet)
    t0_ns: int | None = None  # the frame that first shows it, still at the hand: the slide starts there

    def progress(self, now_ns: int) -> float:
        """How far it is on its way (0 to 1) in the frame of `now_ns`; the first frame asking starts it."""
        if self.t0_ns is None:
            self.t0_ns = now_ns
        return min(1.0, (now_ns - self.t0_ns) / (SLIDE_S * 1e9))


def speed_legend(keymap: Keymap, player: int, mode: str) -> list[str]:
    """What the keys do in Speed, as the seat reads the screen."""
    lines = []
    slots = [key_label(keymap, player, f"pile{n}") for n in range(1, 6)]
    if any(slots):
        lines.append(_("hand {keys}").format(keys=" ".join(k for k in slots if k)))
    sides: dict[str, str] = {}
    for index in (0, 1):
        key = key_label(keymap, player, side_for(player, index))
        if key:
            name = ("left" if index == 0 else "right") if mode == "desktop" else side_for(player, index)
            sides[name] = key
    if "left" in sides:
        lines.append(_("play left {key}").format(key=sides["left"]))
    if "right" in sides:
        lines.append(_("play right {key}").format(key=sides["right"]))
    spit = key_label(keymap, player, "spit")
    if spit:
        lines.append(_("SPIT! {key} when stuck").format(key=spit))
    return lines


class SpeedTable:
    """Draws a Speed game and keeps the feedback of its events (rejects, races) while they last."""

    def __init__(self, base: TableLayout, art: CardArt, keymap: Keymap | None = None, show_keys: bool = True,
                 computer: frozenset[int] = frozenset(),
                 backgrounds: dict[tuple[object, ...], tuple[pygame.Surface, list[Drawn]]] | None = None) -> None:
        self.layout, self.side_stacks = speed_layout(base)
        self.art = art
        self.keymap = keymap or {}
        self.show_keys = show_keys
        self.computer = computer
        self.messages: dict[int, Flash] = {}
        self.race: Flash | None = None
        self.slides: dict[int, Slide] = {}  # by spit pile: the card sliding onto it
        self.painted_texts: list[Drawn] = []  # the texts painted into the background: names, keys, legends
        self._backgrounds = backgrounds if backgrounds is not None else {}
        self._turned: dict[tuple[str, str, int], pygame.Surface] = {}
        self._shade: dict[tuple[int, int], pygame.Surface] = {}

    # ------------------------------------------------------------------ events

    def notice(self, events: list[Event], now_ns: int, game: Any = None) -> None:
        until = now_ns + int(MESSAGE_S * 1e9)
        for event in events:
            if isinstance(event, (Deal, GameOver)):
                self.messages.clear()
                self.race = None
                self.slides.clear()
                continue
            player = seat_of(event)
            if player is None or player not in self.layout.seats:
                continue
            match event:
                case Reject():
                    if event.reason == Reason.TOO_LATE and event.by_ms is not None:
                        winner = event.winner or 0
                        words = partial(race_words, winner, event.by_ms, self.computer)
                        self.race = Flash(words, now_ns + int(RACE_S * 1e9), PLAYER_COLOURS.get(winner, GOLD))
                    why = misfit(game, event) or partial(speed_reject_words, event.reason)
                    self.messages[player] = Flash(why, until, RED)
                case Play():
                    self._slide(event, player)
                    self.messages.pop(player, None)
                case Select() | Deselect() | Draw() | Call():
                    self.messages.pop(player, None)

    def _slide(self, event: Play, player: int) -> None:
        seat = self.layout.seat(player)
        index, slot = event.spit_pile, event.pile
        if not (0 <= index < len(self.layout.spit_piles) and 1 <= slot <= len(seat.stock)):
            return
        start = seat.stock[slot - 1].move(0, seat.stack_step * 3).topleft  # played lifted, as selected
        self.slides[index] = Slide(event.card, start, index, event.onto, seat.cards_angle == 180)

    def sliding(self, now_ns: int) -> dict[int, Slide]:
        """The slides on their way in the frame of `now_ns` (a new one starts in it; those landed
        are forgotten)."""
        self.slides = {i: s for i, s in self.slides.items() if s.progress(now_ns) < 1.0}
        return self.slides

    def feedback(self, now_ns: int) -> list[Caption]:
        out = []
        for player, flash in sorted(self.messages.items()):
            if flash.until_ns > now_ns and player not in self.computer:
                lines = owned_lines(self.layout, player, flash.words(), flash.colour)
                out.append(Caption("reject", player, lines, 150))
        if self.race is not None and self.race.until_ns > now_ns:
            out.append(Caption("race", None, (Line(self.race.words(), 0.12, self.race.colour),), 170))
        return out

    # ------------------------------------------------------------------ drawing

    def _image(self, what: str, seat: Seat | None, card: str = "") -> pygame.Surface:
        angle = 0 if seat is None else seat.cards_angle
        if angle in (0, 180):
            if what == "face":
                return self.art.face(card, angle == 180)
            if what == "back":
                return self.art.back(angle == 180)
            if what == "slot":
                return self.art.slot()
            return self.art.glow(what)
        key = (what, card, angle)
        found = self._turned.get(key)
        if found is None:
            upright = {"face": lambda: self.art.face(card), "back": self.art.back, "slot": self.art.slot}.get(
                what, lambda: self.art.glow(what))()
            found = self._turned[key] = pygame.transform.rotate(upright, angle)
        return found

    def _badge(self, canvas: Canvas, words: str, centre: tuple[int, int], angle: int, colour: tuple[int, int, int]
               ) -> None:
        label = fonts.text(words, self.layout.text_size(0.14), colour, angle=angle)
        size = (label.get_width() + 12, label.get_height() + 4)
        shade = self._shade.get(size)
        if shade is None:
            shade = self._shade[size] = pygame.Surface(size, pygame.SRCALPHA)
            shade.fill((0, 0, 0, 200))
        canvas.blit_centred(shade, centre)
        canvas.blit_centred(label, centre)

    @property
    def legend_texts(self) -> list[Drawn]:
        """The seats' key legends as drawn (of `painted_texts`)."""
        return [d for d in self.painted_texts if d.place == "legend"]

    def background(self) -> pygame.Surface:
        """The felt, the names, the empty slots, the key labels and what the keys do in Speed."""
        lay = self.layout
        keys = self.show_keys and bool(self.keymap)
        cache_key = ("speed", keys, self.computer, lay.mode, lay.size, _("Player {n}"),
                     _("play left {key}"))
        found = self._backgrounds.get(cache_key)
        if found is not None:
            self.painted_texts = found[1]
            return found[0]
        w, h = lay.size
        surface = pygame.Surface(lay.size)
        surface.fill(FELT)
        pygame.draw.rect(surface, FELT_DARK, (0, h // 2 - 2, w, 4))
        small = lay.text_size(0.12)
        self.painted_texts = []
        for player, seat in lay.seats.items():
            colour = PLAYER_COLOURS[player]
            name = _("Computer") if player in self.computer else _("Player {n}").format(n=player)
            label = fonts.text(name, lay.text_size(0.12), colour, angle=seat.angle)
            paint_label(surface, self.painted_texts, label, seat.side_label, "name", player, name, seat.angle)
            for rect in seat.stock:
                surface.blit(self._image("slot", seat), rect)
            surface.blit(self._image("slot", seat), seat.spit_cards)
            if not keys or player in self.computer:
                continue
            for number, rect in enumerate(seat.stock, start=1):
                key = key_label(self.keymap, player, f"pile{number}")
                if key:
                    image = fonts.text(key, small, SOFT, angle=seat.angle)
                    centre = (rect.centerx, seat.labels_y)
                    paint_label(surface, self.painted_texts, image, centre, "key", player, key, seat.angle)
            lines = tuple(Line(words, 0.12, SOFT) for words in speed_legend(self.keymap, player, lay.mode))
            if lines:
                box = seat.legend
                image, scale, words, px, fits = fit_block(lines, lay.text_h, box.size, seat.angle, 0)
                rect = image.get_rect(center=box.center)
                surface.blit(image, rect)
                self.painted_texts.append(Drawn("legend", player, words, rect, box, seat.angle, scale, px, fits))
        for index, rect in enumerate(lay.spit_piles):
            surface.blit(self.art.slot(), rect)
            surface.blit(self.art.slot(), self.side_stacks[index])
            if not keys:
                continue
            for player, seat in lay.seats.items():
                if player in self.computer:
                    continue
                key = key_label(self.keymap, player, side_for(player, index))
                if key:
                    image = fonts.text(key, small, PLAYER_COLOURS[player], seat.turned)
                    gap = image.get_height() // 2 + 2
                    y = rect.bottom + gap if player == 1 else rect.top - gap
                    angle = 180 if seat.turned else 0
                    paint_label(surface, self.painted_texts, image, (rect.centerx, y), "key", player, key, angle)
        background = surface.convert() if pygame.display.get_surface() is not None else surface
        painted(background, self.painted_texts)
        self._backgrounds[cache_key] = (background, self.painted_texts)
        return background

    def draw(self, canvas: Canvas, game: Any, now_ns: int) -> None:
        lay = self.layout
        for player, seat in lay.seats.items():
            me = game.player(player)
            dy = seat.stack_step
            for k in range(min(len(me.stock), PEEK_CARDS) - 1, -1, -1):
                canvas.card(self._image("back", seat), seat.spit_cards.move(0, dy * k).topleft)
            if me.stock:
                self._badge(canvas, str(len(me.stock)), seat.spit_cards.center, seat.angle, WHITE)
            for number, rect in enumerate(seat.stock, start=1):
                card = me.hand[number - 1]
                if card is None:
                    continue
                if me.selected == number:
                    rect = rect.move(0, dy * 3)
                    off = self.art.glow_offset()
                    canvas.blit(self._image("select", seat), (rect.x - off, rect.y - off))
                canvas.card(self._image("face", seat, card), rect.topleft)
        sliding = self.sliding(now_ns)
        for index, rect in enumerate(lay.spit_piles):
            pile = game.spit_piles[index]
            slide = sliding.get(index)
            shown = len(pile) - 1 if slide is not None and pile else len(pile)  # the card on its way not yet
            if shown > 0:
                canvas.card(self.art.face(slide.under if slide is not None else pile[-1]), rect.topleft)
                for centre, angle in lay.pile_counts[index]:
                    label = fonts.text(str(shown), lay.text_size(0.14), SOFT, angle=angle)
                    placed = canvas.blit_centred(label, centre)
                    canvas.text(Drawn("count", None, (str(shown),), placed, placed, angle, 1.0, label.get_height()))
            stack = game.middle.side_stacks[index]
            side = self.side_stacks[index]
            for k in range(min(len(stack), PEEK_CARDS) - 1, -1, -1):
                canvas.card(self.art.back(), side.move(0, -3 * k).topleft)
            if stack:
                self._badge(canvas, str(len(stack)), side.center, 0, WHITE)
        for index, slide in sliding.items():
            # even steps, a fraction of the way each frame: no frame changes the hand's row and the
            # middle's at once (the band KMSDRM uploads)
            f = slide.progress(now_ns)
            end = lay.spit_piles[index].topleft
            x = slide.start[0] + (end[0] - slide.start[0]) * f
            y = slide.start[1] + (end[1] - slide.start[1]) * f
            canvas.card(self.art.face(slide.card, slide.turned and f < 0.5), (x, y))

    def places(self) -> list[Place]:
        """Every text place of this table (for tests)."""
        return [Place(kind, n, box, seat.angle) for n, seat in self.layout.seats.items()
                for kind, box in seat.places.items()]


def speed_how_to_play(target: int = 25) -> list[str]:
    """How to play Speed, in a few lines (for the how-to-play and the game menu)."""
    return [
        _("Speed: play a card from your hand one above or below a middle pile."),
        _("Your hand refills from your stock at once: empty both to win the deal."),
        _("Nobody can play? Both press SPIT! to turn the side stacks."),
        _("Hands lie open, each facing its owner; the computer never looks at yours."),
        _("The deal's winner scores the other's cards left: first to {target} wins.").format(target=target),
    ]
