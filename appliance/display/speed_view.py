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
from functools import partial
from typing import Any

import pygame

from appliance.rules import Event, Reason
from appliance.rules.events import Call, Deal, Deselect, Draw, GameOver, Play, Reject, Select
from appliance.rules.player_words import reject_words as rules_reject_words

from .captions import Caption, Drawn, Line
from .card_art import CardArt
from .compositor import Canvas, painted
from .events import seat_of, side_for
from .hints import misfit
from .i18n import _
from .keys import Keymap, key_label
from .layout import Place, Seat, TableLayout
from .table_pieces import (
    GOLD,
    PLAYER_COLOURS,
    RED,
    SOFT,
    Flash,
    SeatCards,
    Slide,
    draw_slides,
    draw_spit_piles,
    felt,
    paint_legend,
    paint_name,
    paint_pile_keys,
    paint_side_keys,
    seat_feedback,
)
from .table_view import race_words

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
        self.cards = SeatCards(art)  # the card images turned to each seat, the panels

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
        end = self.layout.spit_piles[index].topleft
        self.slides[index] = Slide(event.card, start, end, index, event.onto, seat.cards_angle == 180, player,
                                   seconds=SLIDE_S)

    def sliding(self, now_ns: int) -> dict[int, Slide]:
        """The slides on their way in the frame of `now_ns` (a new one starts in it; those landed
        are forgotten)."""
        self.slides = {i: s for i, s in self.slides.items() if s.progress(now_ns) < 1.0}
        return self.slides

    def feedback(self, now_ns: int) -> list[Caption]:
        return seat_feedback(self.layout, self.messages, self.race, now_ns, self.computer)

    # ------------------------------------------------------------------ drawing

    def _image(self, what: str, seat: Seat | None, card: str = "") -> pygame.Surface:
        return self.cards.image(what, seat, card)

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
        surface = felt(lay, True)
        small = lay.text_size(0.12)
        self.painted_texts = []
        for player, seat in lay.seats.items():
            name = _("Computer") if player in self.computer else _("Player {n}").format(n=player)
            paint_name(surface, self.painted_texts, seat, name, small)
            for rect in seat.stock:
                surface.blit(self._image("slot", seat), rect)
            surface.blit(self._image("slot", seat), seat.spit_cards)
            if not keys or player in self.computer:
                continue
            paint_pile_keys(surface, self.painted_texts, self.keymap, seat, small)
            lines = tuple(Line(words, 0.12, SOFT) for words in speed_legend(self.keymap, player, lay.mode))
            paint_legend(surface, self.painted_texts, lay, seat, lines)
        for index, rect in enumerate(lay.spit_piles):
            surface.blit(self.art.slot(), rect)
            surface.blit(self.art.slot(), self.side_stacks[index])
            if keys:
                paint_side_keys(surface, self.painted_texts, self.keymap, lay, index, small, self.computer)
        background = surface.convert() if pygame.display.get_surface() is not None else surface
        painted(background, self.painted_texts)
        self._backgrounds[cache_key] = (background, self.painted_texts)
        return background

    def draw(self, canvas: Canvas, game: Any, now_ns: int, version: object = None) -> None:
        """The frame of `now_ns` (`version`, the match's, as the Spit table takes it: Speed's table
        has no assist to work out again)."""
        lay = self.layout
        count_size = lay.text_size(0.14)
        for player, seat in lay.seats.items():
            me = game.player(player)
            dy = seat.stack_step
            self.cards.face_down(canvas, seat, seat.spit_cards, len(me.stock), count_size, 0, dy, PEEK_CARDS)
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
        draw_spit_piles(canvas, lay, self.art, game.spit_piles, sliding)
        for index, side in enumerate(self.side_stacks):  # Speed's own: a side stack beyond each spit pile
            stack = game.middle.side_stacks[index]
            self.cards.face_down(canvas, None, side, len(stack), count_size, 0, -3, PEEK_CARDS)
        draw_slides(canvas, self.art, sliding, now_ns)

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
