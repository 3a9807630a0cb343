"""The table drawn from the game's read-only state, with the feedback players feel.

`TableView.notice(events, now_ns)` turns the events a press produced into animations: a played
card slides to its spit pile (100 ms), a revealed spit card slides from the spitter's stack, a
rejected press shakes the pile and says why, a lost race shows who was first and by how many ms.
`TableView.draw(canvas, game, now_ns)` describes the frame; it never changes the game.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from appliance.rules import REJECT_REASONS, Game
from appliance.rules.stalemate import playable

from . import fonts
from .captions import Caption, Drawn, Line, fit_block
from .card_art import CardArt
from .compositor import Canvas
from .events import detail, kind, side_for
from .i18n import _
from .keys import Keymap, key_label
from .layout import TableLayout
from .legend import seat_legend

SLIDE_S = 0.1  # a card reaches its pile within 120 ms
SHAKE_S = 0.3
FLIP_S = 0.16  # a stock card turned face up: its back narrows to an edge, its face widens back
DEAL_STEP_S = 0.07  # a new layout: each stock pile dealt from the spit cards, one after another
DEAL_SLIDE_S = 0.14
MESSAGE_S = 2.0
RACE_S = 2.0
FELT = (18, 92, 52)
FELT_DARK = (12, 70, 40)
WHITE = (255, 255, 255)
GOLD = (255, 215, 64)
RED = (255, 90, 90)
SOFT = (200, 230, 210)
PLAYER_COLOURS = {1: (120, 200, 255), 2: (255, 170, 90)}


def race_words(winner: int, by_ms: float) -> str:
    return _("Player {n} first by {ms} ms").format(n=winner, ms=f"{by_ms:.0f}")


def reject_words(reason: str) -> str:
    """Why a press did nothing, in the players' language (unknown reasons in the core's words)."""
    words = {
        "not_adjacent": _("that card is not one above or below the spit pile"),
        "too_late": _("too late: the other player got there first"),
        "no_card": _("there is no card there"),
        "no_pile": _("there is no such pile"),
        "nothing_selected": _("pick a card from your stock piles first"),
        "wrong_phase": _("not now"),
        "already_called": _("you have called SPIT! already"),
        "no_spit_cards": _("you have no spit cards left"),
        "choose_pile": _("you spit alone: slap the spit pile you want"),
        "wrong_pile": _("you must keep spitting onto the pile you chose"),
        "game_over": _("the game is over"),
    }
    return words.get(reason) or _(REJECT_REASONS.get(reason, reason))


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
    """A message for a while: `words()` says it in the language chosen when it is drawn."""

    words: Callable[[], str]
    until_ns: int
    colour: tuple[int, int, int] = WHITE

    @property
    def text(self) -> str:
        return self.words()


def _fits(game: Game) -> Any:
    """What the core's `playable` needs to know what fits: the game's own test (the family's core),
    or the classic core's variant."""
    fits = getattr(game, "fits", None)
    return fits if callable(fits) else getattr(game, "variant", None)


class TableView:
    def __init__(
        self,
        layout: TableLayout,
        art: CardArt,
        keymap: Keymap | None = None,
        assist: bool = False,
        show_keys: bool = True,
        computer: frozenset[int] = frozenset(),
        backgrounds: dict[tuple[object, ...], tuple[pygame.Surface, list[Drawn]]] | None = None,
    ) -> None:
        """`computer`: seats the computer plays (no keys shown); `backgrounds`: a cache shared by the
        views of one screen, so a new scene over the same table repaints nothing."""
        self.layout = layout
        self.art = art
        self.keymap = keymap or {}
        self.assist = assist
        self.show_keys = show_keys
        self.computer = computer
        self.slides: list[Slide] = []
        self.shakes: dict[tuple[int, str], int] = {}  # (player, control) -> start ns
        self.messages: dict[int, Flash] = {}  # seat -> why its last press did nothing
        self.race: Flash | None = None  # "Player 1 first by 12 ms", for everybody
        self.flips: dict[tuple[int, int], int] = {}  # (player, pile number) -> start ns
        self.dealt_ns: int | None = None  # when the last layout was dealt (the deal animation)
        self.legend_texts: list[Drawn] = []
        self._backgrounds = backgrounds if backgrounds is not None else {}
        self._shade: dict[tuple[int, int, int], pygame.Surface] = {}

    # ------------------------------------------------------------------ feedback from events

    def notice(self, events: list[Any], now_ns: int, game: Game) -> None:
        for event in events:
            what = kind(event)
            if what in ("deal", "game_over"):
                self.slides.clear()
                self.messages.clear()
                self.race = None
                if what == "deal":
                    self.deal(now_ns)
                continue
            player = detail(event, "player", 0)
            if not isinstance(player, int) or player not in self.layout.seats:
                continue  # a press of nobody's seat (an unknown press): nothing to show
            if what == "play":
                seat = self.layout.seat(player)
                start = seat.stock[int(detail(event, "pile")) - 1].topleft
                onto = detail(event, "onto")
                spit_pile = int(detail(event, "spit_pile"))
                self._slide(str(detail(event, "card")), start, spit_pile, onto, now_ns, seat.turned)
                self.messages.pop(player, None)
            elif what == "reveal":
                seat = self.layout.seat(player)
                spit_pile = int(detail(event, "spit_pile"))
                pile = game.spit_piles[spit_pile]
                under = pile[-2] if len(pile) >= 2 else None
                self._slide(str(detail(event, "card")), seat.spit_cards.topleft, spit_pile, under, now_ns, False)
            elif what == "reject":
                self.shakes[(player, str(detail(event, "press", "")))] = now_ns
                reason = str(detail(event, "reason", ""))
                if reason == "too_late":
                    by = float(detail(event, "by_ms", 0))
                    winner = int(detail(event, "winner", 0))
                    race = partial(race_words, winner, by)
                    self.race = Flash(race, now_ns + int(RACE_S * 1e9), PLAYER_COLOURS.get(winner, GOLD))
                self.messages[player] = Flash(partial(reject_words, reason), now_ns + int(MESSAGE_S * 1e9), RED)
            elif what == "flip":
                self.flips[(player, int(detail(event, "pile", 0)))] = now_ns
                self.messages.pop(player, None)
            elif what in ("select", "move", "deselect"):
                self.messages.pop(player, None)

    def feedback(self, now_ns: int) -> list[Caption]:
        """Each seat's last reject (its own) and the last race (for everybody), while they last."""
        out = []
        for player, flash in sorted(self.messages.items()):
            if flash.until_ns > now_ns and player not in self.computer:
                out.append(Caption("reject", player, (Line(flash.text, 0.12, flash.colour),), 150))
        if self.race is not None and self.race.until_ns > now_ns:
            out.append(Caption("race", None, (Line(self.race.text, 0.12, self.race.colour),), 170))
        return out

    def _slide(
        self, card: str, start: tuple[int, int], index: int, under: str | None, now_ns: int, turned: bool
    ) -> None:
        self.slides = [s for s in self.slides if s.spit_pile != index]
        self.slides.append(Slide(card, start, self.layout.spit_piles[index].topleft, now_ns, index, under, turned))

    def deal(self, now_ns: int) -> None:
        """Show the layout being dealt from each seat's spit cards, pile after pile."""
        self.dealt_ns = now_ns
        self.flips.clear()

    def busy(self, now_ns: int) -> bool:
        """Something is moving (so the frame changes even without a press)."""
        dealing = self.dealt_ns is not None and now_ns - self.dealt_ns < self.deal_s() * 1e9
        return (
            dealing
            or any(now_ns - s.t0_ns < SLIDE_S * 1e9 for s in self.slides)
            or any(now_ns - t0 < SHAKE_S * 1e9 for t0 in self.shakes.values())
            or any(now_ns - t0 < FLIP_S * 1e9 for t0 in self.flips.values())
        )

    def deal_s(self) -> float:
        return (len(self.layout.seat(1).stock) - 1) * DEAL_STEP_S + DEAL_SLIDE_S

    def _dealing(self, number: int, now_ns: int) -> float | None:
        """How far stock pile `number` is on its way from the spit cards (0..1), None when it is down."""
        if self.dealt_ns is None:
            return None
        age = (now_ns - self.dealt_ns) / 1e9 - (number - 1) * DEAL_STEP_S
        if age >= DEAL_SLIDE_S:
            if number == len(self.layout.seat(1).stock) and age > DEAL_SLIDE_S:
                self.dealt_ns = None
            return None
        return max(0.0, age / DEAL_SLIDE_S)

    def _flip_image(self, player: int, number: int, card: str, turned: bool, now_ns: int) -> pygame.Surface | None:
        """The card half-way through turning face up, or None when it is not turning."""
        t0 = self.flips.get((player, number))
        if t0 is None:
            return None
        f = (now_ns - t0) / (FLIP_S * 1e9)
        if f >= 1:
            del self.flips[(player, number)]
            return None
        if f < 0.5:
            return self.art.narrowed(self.art.back(turned), 1 - 2 * f)
        return self.art.narrowed(self.art.face(card, turned), 2 * f - 1)

    # ------------------------------------------------------------------ drawing

    def background(self) -> pygame.Surface:
        """The felt, the seats' names, the key labels and legends: everything that never changes."""
        lay = self.layout
        keys = self.show_keys and bool(self.keymap)
        cache_key = (keys, self.computer, lay.mode, lay.size, _("Player {n}"))
        found = self._backgrounds.get(cache_key)
        if found is not None:
            self.legend_texts = found[1]
            return found[0]
        w, h = lay.size
        surface = pygame.Surface(lay.size)
        surface.fill(FELT)
        pygame.draw.rect(surface, FELT_DARK, (0, h // 2 - 2, w, 4))
        small = lay.text_size(0.12)
        self.legend_texts = []
        for player, seat in lay.seats.items():
            colour = PLAYER_COLOURS[player]
            name = _("Computer") if player in self.computer else _("Player {n}").format(n=player)
            label = fonts.text(name, lay.text_size(0.12), colour, seat.turned)
            surface.blit(label, label.get_rect(center=seat.side_label))
            for rect in seat.stock:
                surface.blit(self.art.slot(), rect)
            if not keys or player in self.computer:
                continue
            for number, rect in enumerate(seat.stock, start=1):
                key = key_label(self.keymap, player, f"pile{number}")
                if key:
                    image = fonts.text(key, small, SOFT, seat.turned)
                    surface.blit(image, image.get_rect(center=(rect.centerx, seat.labels_y)))
            lines = tuple(Line(words, 0.12, SOFT) for words in seat_legend(self.keymap, player, lay.mode))
            if lines:
                box = seat.legend
                image, scale, words, px = fit_block(lines, lay.card_h, box.size, seat.angle, 0)
                rect = image.get_rect(center=box.center)
                surface.blit(image, rect)
                self.legend_texts.append(Drawn("legend", player, words, rect, box, seat.angle, scale, px))
        for index, rect in enumerate(lay.spit_piles):
            surface.blit(self.art.slot(), rect)
            if not keys:
                continue
            for player, seat in lay.seats.items():
                if player in self.computer:
                    continue
                key = key_label(self.keymap, player, side_for(player, index))
                if not key:
                    continue
                image = fonts.text(key, small, PLAYER_COLOURS[player], seat.turned)
                y = rect.bottom + image.get_height() // 2 + 2 if player == 1 else rect.top - image.get_height() // 2 - 2
                surface.blit(image, image.get_rect(center=(rect.centerx, y)))
        background = surface.convert() if pygame.display.get_surface() is not None else surface
        self._backgrounds[cache_key] = (background, self.legend_texts)
        return background

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
                for pile_number, _ in playable(p.stock, game.spit_piles, _fits(game)):
                    lit.add((number, pile_number))
        for player, seat in lay.seats.items():
            me = game.player(player)
            # spit cards
            if me.spit_cards:
                for k in range(min(len(me.spit_cards), step_cards) - 1, -1, -1):
                    canvas.blit(art.back(seat.turned), seat.spit_cards.move(0, seat.stack_step * k).topleft)
                count = fonts.text(str(len(me.spit_cards)), lay.text_size(0.14), WHITE, seat.turned)
                middle = seat.spit_cards.center
                canvas.blit_centred(self.shade((count.get_width() + 12, count.get_height() + 4), 200), middle)
                canvas.blit_centred(count, middle)
            # stock piles
            for number, rect in enumerate(seat.stock, start=1):
                if number > len(me.stock):
                    continue
                pile = me.stock[number - 1]
                if not pile.cards:
                    continue
                dealing = self._dealing(number, now_ns)
                if dealing is not None:  # on its way from the spit cards
                    if dealing > 0:
                        x = seat.spit_cards.x + (rect.x - seat.spit_cards.x) * dealing
                        y = seat.spit_cards.y + (rect.y - seat.spit_cards.y) * dealing
                        canvas.blit(art.back(seat.turned), (x, y))
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
                turning = self._flip_image(player, number, pile.cards[-1], seat.turned, now_ns)
                if turning is not None:
                    image = turning
                    top_rect = top_rect.move((art.width - turning.get_width()) // 2, 0)
                canvas.blit(image, top_rect.topleft)
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
                for centre, angle in lay.pile_counts[index]:  # a copy facing each side of the table
                    label = fonts.text(f"{len(spit_pile)}", size_text, SOFT, angle=angle)
                    canvas.blit_centred(label, centre)
        for slide in sliding.values():
            f = min(1.0, (now_ns - slide.t0_ns) / (SLIDE_S * 1e9))
            # even steps: the least screen changes in any one frame (the band KMSDRM uploads)
            sx = slide.start[0] + (slide.end[0] - slide.start[0]) * f
            sy = slide.start[1] + (slide.end[1] - slide.start[1]) * f
            canvas.blit(art.face(slide.card, slide.turned and f < 0.5), (sx, sy))
