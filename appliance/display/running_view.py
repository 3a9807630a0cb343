"""Over the play scene's table: Running Spit's runner board, and the "late pad" note of any game.

`overlays_for(match, view)` gives what a game needs over its table; the play scene draws each after
its own captions (`overlay.draw(canvas, now_ns)`) and adds their texts to its captions
(`overlay.captions(now_ns)`), so texts meeting in a place are stacked, never on top of each other.
Each overlay keeps its own `EventReader` on the match: nothing in the play scene feeds it.

- `RunningBoard` (Running Spit, V16): beside each team's stock piles, in letters readable from the
  pads 3 m away (the runner's letter 90% of a card high: some 200 px, about 5 cm, on a 24-inch
  1080p table; a rule of thumb asks 2.5 cm for 3 m), who runs next ("NEXT RUNNER" A) and the sprint
  under way ("RUNNING NOW" A) as a split time from the pick-up, counting; after the slap, the split it
  ran, for a few seconds. Every team's board is the same size (`even_boxes`). What the board means is
  said in the info place, beside the rules in force ("NEXT RUNNER: the team's runner who carries
  the next card to a pad"), to each team a person plays (everybody's one place on the desktop).
- `LatePadNote`: when the match put a late pad's press in its place (a rollback), the card that was
  not really played slides back from the spit pile to its stock pile, and everybody is told
  "late pad" in the race place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pygame

from appliance.rules import Game
from appliance.rules.events import Play
from appliance.running_stats import SprintClock, runner_name

from .captions import Caption, Drawn, Line, fit_block
from .compositor import Canvas
from .events import EventReader
from .i18n import _
from .layout import TableLayout, label_height
from .table_view import GOLD, PLAYER_COLOURS, WHITE

SPLIT_SHOWN_S = 4.0  # how long the last split stays up after the slap
LATE_NOTE_S = 2.5
SLIDE_BACK_S = 0.4
NEXT_SIZE = 0.18  # line sizes, as a share of the card height
RUNNER_SIZE = 0.9
SPLIT_SIZE = 0.24


class Overlay(Protocol):
    def captions(self, now_ns: int) -> list[Caption]: ...
    def draw(self, canvas: Canvas, now_ns: int) -> None: ...
    def busy(self, now_ns: int) -> bool: ...


def split_words(ms: float) -> str:
    """A split time as the board shows it: 4.21 s (tenths past a minute: 1:02.4), kept on one line."""
    seconds = max(0.0, ms / 1000)
    if seconds >= 60:
        return f"{int(seconds // 60)}:{seconds % 60:04.1f}"
    return f"{seconds:.2f}\u00a0s"  # a space no line is broken at


def one_line(words: str) -> str:
    """Words kept on one line (spaces no line is broken at)."""
    return words.replace(" ", "\u00a0")


def letter_room(rect: pygame.Rect, angle: int = 0) -> float:
    """How big a board's letter can be in `rect` (read turned `angle`), in card heights' worth of
    units: its heading on two lines over the letter and the split (a tall board), or on one line (a
    wide one), whichever lets the letter be larger. Boards are chosen by this, not by their area:
    a wide strip as high as a line of text holds only a small letter."""
    w, h = (rect.width, rect.height) if angle % 180 == 0 else (rect.height, rect.width)
    return max(min(w / 0.8, h / 1.8), min(w / 1.9, h / 1.56))


def _clear(rect: pygame.Rect, obstacles: Sequence[pygame.Rect], angle: int = 0, depth: int = 6) -> pygame.Rect:
    """The part of `rect` clear of every obstacle with the most `letter_room`, cutting it by each
    obstacle it meets along one of the obstacle's four sides (every way tried: a handful of
    obstacles meet a board)."""
    hit = rect.collidelist(list(obstacles))
    if hit < 0:
        return pygame.Rect(rect)
    if depth == 0:
        return pygame.Rect(rect.left, rect.top, 0, 0)
    ob = obstacles[hit]
    parts = [
        pygame.Rect(rect.left, rect.top, rect.width, ob.top - rect.top),
        pygame.Rect(rect.left, ob.bottom, rect.width, rect.bottom - ob.bottom),
        pygame.Rect(rect.left, rect.top, ob.left - rect.left, rect.height),
        pygame.Rect(ob.right, rect.top, rect.right - ob.right, rect.height),
    ]
    cleared = [_clear(part, obstacles, angle, depth - 1) for part in parts if part.width > 0 and part.height > 0]
    return max(cleared, key=lambda r: (letter_room(r, angle), r.width * r.height),
               default=pygame.Rect(rect.left, rect.top, 0, 0))


def obstacles_of(layout: TableLayout) -> list[pygame.Rect]:
    """Everything on the table a board must not cover: cards, key legends, the places of texts."""
    out = [pygame.Rect(r) for r in layout.spit_piles]
    name_h = label_height(layout.text_h) + 2
    for seat in layout.seats.values():
        # each pile with the cards peeking out under its top, and the seat's name beside them
        out += [r.union(r.move(seat.stack_dx * 4, seat.stack_step * 4)) for r in (*seat.stock, seat.spit_cards)]
        along = (layout.card_w * 2, name_h) if seat.angle % 180 == 0 else (name_h, layout.card_w * 2)
        out += [pygame.Rect(seat.legend), pygame.Rect((0, 0), along).move(seat.side_label[0] - along[0] // 2,
                                                                           seat.side_label[1] - along[1] // 2)]
        out += [pygame.Rect(r) for kind, r in seat.places.items() if kind not in ("panel", "centre")]
    return out


def runner_boxes(layout: TableLayout) -> dict[int, pygame.Rect]:
    """Each seat's runner board, in screen coordinates: the free space beside its stock piles (on
    the seat's own left where that is wide enough), reaching toward the middle of the table, clear
    of every card, legend, text place and the other boards."""
    taken = obstacles_of(layout)
    out: dict[int, pygame.Rect] = {}
    for player in layout.seats:
        out[player] = box = runner_box(layout, player, taken)
        taken.append(box)
    return out


def even_boxes(boxes: dict[int, pygame.Rect], layout: TableLayout) -> dict[int, pygame.Rect]:
    """The boards cut to one size, as each seat reads it (the smallest width and height any seat has,
    turned with the seat), in the middle of their own space: every team's letters the same size."""
    def upright(player: int, box: pygame.Rect) -> tuple[int, int]:
        return (box.width, box.height) if layout.seat(player).angle % 180 == 0 else (box.height, box.width)

    sizes = [upright(player, box) for player, box in boxes.items()]
    width, height = min((w for w, _ in sizes), default=0), min((h for _, h in sizes), default=0)
    width, height = width - width % 2, height - height % 2  # even: the block centred in it stays inside
    out = {}
    for player, box in boxes.items():
        size = (width, height) if layout.seat(player).angle % 180 == 0 else (height, width)
        out[player] = pygame.Rect((0, 0), size)
        out[player].center = box.center
    return out


def runner_box(layout: TableLayout, player: int, obstacles: Sequence[pygame.Rect] | None = None) -> pygame.Rect:
    """One seat's runner board (see `runner_boxes`), clear of `obstacles` (default: the table's)."""
    obstacles = obstacles_of(layout) if obstacles is None else obstacles
    seat = layout.seat(player)
    row = seat.stock[0].unionall(list(seat.stock[1:]))
    width, height = layout.size
    margin = max(4, layout.card_w // 10)
    if row.width >= row.height:  # a seat at the top or bottom edge: the gaps left and right of the row
        top, bottom = (row.top, height // 2) if row.centery < height // 2 else (height // 2, row.bottom)
        left = pygame.Rect(margin, top, max(0, row.left - 2 * margin), bottom - top)
        right = pygame.Rect(row.right + margin, top, max(0, width - row.right - 2 * margin), bottom - top)
        own_left = right if seat.turned else left
    else:  # a seat at a side: above and below the column
        lo, hi = (row.left, width // 2) if row.centerx < width // 2 else (width // 2, row.right)
        left = pygame.Rect(lo, margin, hi - lo, max(0, row.top - 2 * margin))
        right = pygame.Rect(lo, row.bottom + margin, hi - lo, max(0, height - row.bottom - 2 * margin))
        own_left = left if seat.angle == 90 else right
    other = right if own_left is left else left
    own_left, other = _clear(own_left, obstacles, seat.angle), _clear(other, obstacles, seat.angle)
    return own_left if letter_room(own_left, seat.angle) >= 0.8 * letter_room(other, seat.angle) else other


def _block(canvas: Canvas, layout: TableLayout, lines: tuple[Line, ...], box: pygame.Rect, angle: int,
           seat: int | None, shade: int = 170) -> None:
    """Lines fitted into `box` (screen coordinates), turned `angle` to face their reader, recorded
    on the canvas as text for the tests."""
    upright = (box.width, box.height) if angle % 180 == 0 else (box.height, box.width)
    image, scale, words, px, fits, _taps = fit_block(lines, layout.text_h, upright, angle, shade)
    if not fits:  # a narrow board: its heading on one line, shrunk with the letter, not a word a line over it
        lines = tuple(Line(one_line(line.words), line.size, line.colour) for line in lines)
        image, scale, words, px, fits, _taps = fit_block(lines, layout.text_h, upright, angle, shade)
    rect = canvas.blit(image, image.get_rect(center=box.center).topleft)  # inside `box`, rounding and all
    canvas.text(Drawn("running", seat, words, rect, pygame.Rect(box), angle, scale, px, fits))


class RunningBoard:
    """Who runs next for each team, and the split time of the sprint under way (Running Spit)."""

    def __init__(self, match: Any, layout: TableLayout, computer: Sequence[int] = ()) -> None:
        self.match = match
        self.layout = layout
        self.computer = frozenset(computer)
        self.reader = EventReader(match, 0)
        self.runners = list(match.spit.rules.options.runners)
        self.clock = SprintClock(self.runners)
        self.clock.feed(self.reader.new_events())
        self.boxes = even_boxes(runner_boxes(layout), layout)

    def take(self) -> None:
        events = self.reader.new_events()
        if self.reader.taken_back:  # history rewritten by a late pad: count it all again
            self.clock = SprintClock(self.runners)
            self.clock.feed(self.match.events)
        else:
            self.clock.feed(events)

    def lines(self, player: int, now_ns: int) -> tuple[Line, ...]:
        """What a team's board says now: next runner, and the split running (or the last one)."""
        colour = PLAYER_COLOURS.get(player, WHITE)
        running = self.clock.running.get(player)
        now = self.match.game_time(now_ns)
        if running is not None:
            picked_t, _card, runner = running
            return (Line(_("RUNNING NOW"), NEXT_SIZE, WHITE), Line(runner_name(runner), RUNNER_SIZE, colour),
                    Line(split_words((now - picked_t) * 1000), SPLIT_SIZE, GOLD))
        lines = [Line(_("NEXT RUNNER"), NEXT_SIZE, WHITE),
                 Line(runner_name(self.clock.next_runner[player]), RUNNER_SIZE, colour)]
        last = self.clock.last(player)
        if last is not None and now - last.landed_t <= SPLIT_SHOWN_S:
            lines.append(Line(split_words(last.ms), SPLIT_SIZE, WHITE))  # the split the last runner ran
        return tuple(lines)

    def captions(self, now_ns: int) -> list[Caption]:
        """What the board means, in the info place (its letters stay as large as the board allows)."""
        words = (Line(_("NEXT RUNNER: the team's runner who carries the next card to a pad"), 0.11, WHITE),)
        if self.layout.mode == "desktop":
            return [Caption("info", None, words, 130)]
        return [Caption("info", player, words, 130) for player in self.layout.seats if player not in self.computer]

    def draw(self, canvas: Canvas, now_ns: int) -> None:
        self.take()
        for player in self.layout.seats:
            if player in self.computer:
                continue
            box = self.boxes[player]
            if box.width > 0 and box.height > 0:
                _block(canvas, self.layout, self.lines(player, now_ns), box, self.layout.seat(player).angle, player)

    def busy(self, now_ns: int) -> bool:
        return bool(self.clock.running)  # the split counts: every frame changes


@dataclass
class SlideBack:
    card: str
    start: tuple[int, int]
    end: tuple[int, int]
    t0_ns: int
    turned: bool


class LatePadNote:
    """A late pad's press put in its place: the card not really played slides back, and a note."""

    def __init__(self, match: Any, layout: TableLayout, art: Any) -> None:
        self.match = match
        self.layout = layout
        self.art = art
        self.reader = EventReader(match)
        self.slides: list[SlideBack] = []
        self.note_until_ns = 0
        self.corrections = 0  # notes shown (for tests and the bench)

    def take(self, now_ns: int) -> None:
        self.reader.new_events()
        if not self.reader.late:
            return
        self.corrections += 1
        self.note_until_ns = now_ns + int(LATE_NOTE_S * 1e9)
        for event in self.reader.taken_back:
            if not isinstance(event, Play) or event.player not in self.layout.seats:
                continue
            seat = self.layout.seat(event.player)
            pile = event.pile - 1
            spit = self.layout.spit_piles[event.spit_pile]
            if 0 <= pile < len(seat.stock):
                self.slides.append(SlideBack(event.card, spit.topleft, seat.stock[pile].topleft, now_ns, seat.turned))

    def captions(self, now_ns: int) -> list[Caption]:
        self.take(now_ns)
        if now_ns >= self.note_until_ns:
            return []
        return [Caption("race", None, (Line(_("LATE PAD: put right"), 0.13, GOLD),), 190)]

    def draw(self, canvas: Canvas, now_ns: int) -> None:
        self.take(now_ns)
        self.slides = [s for s in self.slides if now_ns - s.t0_ns < SLIDE_BACK_S * 1e9]
        for slide in self.slides:
            share = min(1.0, max(0.0, (now_ns - slide.t0_ns) / (SLIDE_BACK_S * 1e9)))
            x = slide.start[0] + (slide.end[0] - slide.start[0]) * share
            y = slide.start[1] + (slide.end[1] - slide.start[1]) * share
            canvas.card(self.art.face(slide.card, slide.turned), (x, y))

    def busy(self, now_ns: int) -> bool:
        return bool(self.slides) or now_ns < self.note_until_ns


def overlays_for(match: Any, view: Any) -> list[Overlay]:
    """What the play scene draws over a game's table: the late-pad note always, the runner board in
    Running Spit (a game whose cards are carried)."""
    out: list[Overlay] = [LatePadNote(match, view.layout, view.art)]
    game = match.game
    if isinstance(game, Game) and game.rules.moves.carry:
        out.append(RunningBoard(match, view.layout, tuple(view.computer)))
    return out
