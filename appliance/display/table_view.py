"""The table drawn from the game's read-only state, with the feedback players feel.

`TableView.notice(events, now_ns)` turns the events a press produced into animations: a played
card slides to its spit pile (100 ms), a revealed spit card slides from the spitter's stack, a
rejected press shakes the pile and says why, a lost race shows who was first and by how many ms.
A house rule's verdict (a table slap judged, the race for the ghost card or the lent card) is the
rule's, as data (`Game.verdict(event)`: a key, who, by how many ms, what was taken): the view only says
it in words (`VERDICT_WORDS`), big in the middle for everybody, and a slap just after it is told as
late by so many ms. `TableView.draw(canvas, game, now_ns)` describes the frame; it never changes the game.

The assist lights the `play` actions of `Game.legal_actions` (the rules' one answer to what can be
played), asked with the spit piles' tops as each seat sees them, and asked again only when the game
changed (the `version` a scene passes: its match's) or a card on its way started or landed.

A sliding card starts where it lay (a played card lifted, as it was held) in the first frame that
draws it, and until it lands its spit pile shows the card it will cover and the count without it,
and (assist) the other seats' cards are lit for the pile as shown: on KMSDRM, SDL uploads the band
from the topmost to the bottommost changed row every frame, so the frame of the press changes only
the hand's rows, and the middle (and the other seats' lit cards) change when the card reaches it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import partial

import pygame

from appliance.rules import Control, Event, Game, Phase, Reason
from appliance.rules.events import (
    Deal,
    Deselect,
    Flip,
    GameOver,
    Move,
    PickUp,
    Play,
    Refill,
    Reject,
    Reveal,
    Select,
    Stack,
)
from appliance.rules.events import TableSlap as TableSlapped
from appliance.rules.house_rule import Verdict as RulesVerdict

from . import fonts
from .captions import Caption, Drawn, Line
from .card_art import CardArt
from .compositor import Canvas, painted
from .events import seat_of
from .hints import misfit, reject_words, tell
from .i18n import _
from .keys import Keymap
from .layout import Seat, TableLayout
from .legend import pile_keys, seat_legend
from .round_table import LABEL_SIZE
from .slap_working import working_words
from .table_pieces import (  # noqa: F401 (the colours, SLIDE_S, Flash, owned_lines: imported from here too)
    GOLD,
    PLAYER_COLOURS,
    RED,
    SLIDE_S,
    SOFT,
    WHITE,
    Flash,
    SeatCards,
    Slide,
    draw_slides,
    draw_spit_piles,
    felt,
    owned_lines,
    paint_label,
    paint_legend,
    paint_name,
    paint_pile_keys,
    paint_side_keys,
    seat_feedback,
)

SHAKE_S = 0.3
FLIP_S = 0.16  # a stock card turned face up: its back narrows to an edge, its face widens back
DEAL_STEP_S = 0.07  # a new layout: each stock pile dealt from the spit cards, one after another
DEAL_SLIDE_S = 0.14
MESSAGE_S = 2.0
RACE_S = 2.0
VERDICT_S = 2.5  # a house rule's verdict (a table slap judged, a race for a card) stays this long


def seat_name(player: int | None, computer: Collection[int] = ()) -> str:
    """Who a seat is in a message: "Computer" where the computer plays it, else "Player N"."""
    return _("Computer") if player in computer else _("Player {n}").format(n=player)


def race_words(winner: int, by_ms: float, computer: Collection[int] = ()) -> str:
    return _("{who} first by {ms} ms").format(who=seat_name(winner, computer), ms=f"{by_ms:.0f}")


def table_slap_words(player: int, computer: Collection[int] = ()) -> str:
    return _("{who} slaps the table!").format(who=seat_name(player, computer))


def _ms(ms: float | None) -> str:
    return "?" if ms is None else f"{ms:.0f}"


def _working(said: RulesVerdict) -> list[str]:
    """The working that decided a verdict, as a line (Mod Spit's arithmetic), if the rule gave one."""
    return [working_words(said.working)] if said.working else []


# A house rule's verdict in words, by the key the rule gives it (rules' house_rule.Verdict: the rule
# says who and how many ms, the screen only says it): each entry gives the lines from the verdict
# and a function naming a seat ("Computer" where the computer plays it).
VERDICT_WORDS: dict[str, Callable[[RulesVerdict, Callable[[int | None], str]], list[str]]] = {
    # Mod Spit's table slap (V18, V19)
    "slap_both_wrong": lambda v, who: [
        _("Both slaps wrong!"), *_working(v),
        _("{who} slapped {ms} ms later: chooses a pile to take").format(who=who(v.player), ms=_ms(v.ms))],
    "slap_wrong": lambda v, who: [
        _("Wrong slap!"), *_working(v), _("{who} takes both piles").format(who=who(v.player))],
    "slap_right_late": lambda v, who: [
        _("Right slap!"), *_working(v),
        _("{who} was {ms} ms late: takes both piles").format(who=who(v.player), ms=_ms(v.ms))],
    "slap_right_idle": lambda v, who: [
        _("Right slap!"), *_working(v), _("{who} did not slap: takes both piles").format(who=who(v.player))],
    # the ghost card (V14)
    "ghost_home": lambda v, who: [_("Nobody took the ghost card"), _("it goes back to player {n}").format(n=v.other)],
    "ghost_won": lambda v, who: [_("{who} wins with the ghost card!").format(who=who(v.player)),
                                 _("took it {ms} ms after playing out").format(ms=_ms(v.ms))],
    "ghost_taken": lambda v, who: [_("{who} takes the ghost card!").format(who=who(v.player)),
                                   _("{ms} ms after player {out} played out").format(ms=_ms(v.ms), out=v.other)],
    # "Spit card, please" (V13)
    "lent_won": lambda v, who: [_("{who} slapped the spit card in {ms} ms!").format(who=who(v.player), ms=_ms(v.ms)),
                                _("{who} wins the game!").format(who=who(v.player))],
    "lent_slapped_first": lambda v, who: [
        _("{who} slapped it first: {ms} ms").format(who=who(v.other), ms=_ms(v.ms)),
        _("{who} takes the spit pile: {cards} cards").format(who=who(v.player), cards=v.cards)],
    "lent_too_slow": lambda v, who: [
        _("Too slow!"), _("no slap within {limit} ms").format(limit=_ms(v.ms)),
        _("{who} takes the spit pile: {cards} cards").format(who=who(v.player), cards=v.cards)],
}
TOLD_IN_THE_TAKERS_COLOUR = frozenset({"ghost_taken", "ghost_home"})  # (a race won by nobody's loss)
LATE_S = 1.5  # a slap this long after a verdict's moment is told as late; later ones are presses again


VERDICT_SIZE = 0.22  # a verdict's first line, as a share of the text height: the largest text of play
LEAST_TEXT_PX = 8  # a block is shrunk to fit its box no smaller than this (captions.fit_block)


def play_text_sizes(layout: TableLayout) -> range:
    """Every size a table's texts may take while the cards are played: its labels, prompts, races,
    rejects and verdicts, from a verdict's first line down to the least a block is shrunk to (made
    ready before play: fonts.want)."""
    return range(LEAST_TEXT_PX, int(max(layout.text_h, layout.card_h) * VERDICT_SIZE) + 1)


def verdict_lines(said: RulesVerdict, late: tuple[int, float] | None = None,
                  computer: Collection[int] = ()) -> list[str]:
    """A house rule's verdict in the language chosen (`late`: a slower slap, by so many ms)."""
    lines = VERDICT_WORDS[said.key](said, lambda n: seat_name(n, computer))
    if late is not None:
        lines.append(_("{who} was {ms} ms late").format(who=seat_name(late[0], computer), ms=f"{late[1]:.0f}"))
    return lines


def verdict_colour(said: RulesVerdict) -> tuple[int, int, int]:
    """Gold for a win or a right slap; a race lost to another player in the taker's colour; else red."""
    if said.good:
        return GOLD
    if said.key in TOLD_IN_THE_TAKERS_COLOUR:
        return PLAYER_COLOURS.get(said.player or 0, GOLD)
    return RED


@dataclass
class Verdict:
    lines: Callable[[], list[str]]
    until_ns: int
    colour: tuple[int, int, int] = GOLD


@dataclass(frozen=True)
class Late:
    """A verdict a slower slap may still add to: when it was said, and who may be late."""

    t: float
    players: tuple[int, ...]
    said: RulesVerdict


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
        names: bool = True,
    ) -> None:
        """`computer`: seats the computer plays (no keys shown); `backgrounds`: a cache shared by the
        views of one screen, so a new scene over the same table repaints nothing; `names`: the seats'
        names written by them (not behind the title, where the computer plays itself)."""
        self.layout = layout
        self.art = art
        self.keymap = keymap or {}
        self.assist = assist
        self.show_keys = show_keys
        self.names = names
        self.computer = computer
        self.slides: list[Slide] = []
        self.shakes: dict[tuple[int, str], int] = {}  # (player, control) -> start ns
        self.messages: dict[int, Flash] = {}  # seat -> why its last press did nothing
        self.race: Flash | None = None  # "Player 1 first by 12 ms", for everybody
        self.flips: dict[tuple[int, int], int] = {}  # (player, pile number) -> start ns
        self.dealt_ns: int | None = None  # when the last layout was dealt (the deal animation)
        self.painted_texts: list[Drawn] = []  # the texts painted into the background: names, keys, legends
        self._backgrounds = backgrounds if backgrounds is not None else {}
        self.cards = SeatCards(art)  # the card images turned to each seat, the panels
        self.verdict: Verdict | None = None  # a house rule's verdict (a table slap judged...), big, for everybody
        self.verdict_ends_ns = 0  # until when the last verdict is up (the play scene shows it out)
        self.late: Late | None = None  # the last verdict, while a slower slap may still be told as late
        self._lit: tuple[Game | None, object, set[tuple[int, int]]] = (None, None, set())  # the assist's, and for what
        self.slap = ""  # what the game's slap key slaps (the ruleset's `slaps`; "": no slap): its key is in the legends

    # ------------------------------------------------------------------ feedback from events

    def notice(self, events: list[Event], now_ns: int, game: Game) -> None:
        said: tuple[RulesVerdict, float] | None = None  # a house rule's verdict in these events (as the rule says it)
        for event in events:
            if isinstance(event, (Deal, GameOver)):
                self.slides.clear()
                self.messages.clear()
                self.race = None
                self.verdict = None
                if isinstance(event, Deal):
                    self.deal(now_ns)
                    if self.late is not None and event.t > self.late.t:
                        self.late = None  # (a deal in the verdict's own instant is the one it dealt)
                continue
            verdict = game.verdict(event)
            if verdict is not None:
                said = (verdict, event.t)  # said after the deal it may have dealt
                continue
            player = seat_of(event)
            if player is None or player not in self.layout.seats:
                continue  # a press of nobody's seat (an unknown press): nothing to show
            match event:
                case Play():
                    seat = self.layout.seat(player)
                    lifted = seat.stock[event.pile - 1].move(seat.stack_dx * 3, seat.stack_step * 3)
                    self._slide(event.card, lifted.topleft, event.spit_pile, event.onto, seat.turned, player)
                    self.messages.pop(player, None)
                case Reveal():
                    seat = self.layout.seat(player)
                    pile = game.spit_piles[event.spit_pile]
                    under = pile[-2] if len(pile) >= 2 else None
                    self._slide(event.card, seat.spit_cards.topleft, event.spit_pile, under, False)
                case TableSlapped():
                    words = partial(table_slap_words, player, self.computer)
                    self.race = Flash(words, now_ns + int(VERDICT_S * 1e9), PLAYER_COLOURS.get(player, GOLD))
                case Reject():
                    press, reason = str(event.press), event.reason
                    if press == Control.SLAP and self._late_slap(player, event.t):
                        continue  # told as late by so many ms, not as a press that did nothing
                    self.shakes[(player, press)] = now_ns
                    if reason == Reason.TOO_LATE and event.by_ms is not None:
                        winner = event.winner or 0
                        race = partial(race_words, winner, event.by_ms, self.computer)
                        self.race = Flash(race, now_ns + int(RACE_S * 1e9), PLAYER_COLOURS.get(winner, GOLD))
                    instead = None
                    if reason == Reason.WRONG_PHASE and press == Control.SPIT and game.phase == Phase.PLAYING:
                        instead = tell(game, player, self.keymap if self.show_keys else None)  # what they can do
                    why: Callable[[], str] = misfit(game, event) or partial(
                        reject_words, reason, press, game.phase, instead)
                    self.messages[player] = Flash(why, now_ns + int(MESSAGE_S * 1e9), RED)
                case Flip():
                    self.flips[(player, event.pile)] = now_ns
                    self.messages.pop(player, None)
                case Select() | Move() | Deselect() | Stack() | PickUp() | Refill():
                    self.messages.pop(player, None)

        if said is not None:
            self._say(*said, now_ns)

    def _say(self, said: RulesVerdict, t: float, now_ns: int) -> None:
        """A house rule's verdict, big in the middle for everybody, in its words."""
        self.verdict = Verdict(partial(verdict_lines, said, None, self.computer), now_ns + int(VERDICT_S * 1e9),
                               verdict_colour(said))
        self.verdict_ends_ns = self.verdict.until_ns
        self.race = None
        self.late = Late(t, said.late, said) if said.late else None

    def _late_slap(self, player: int, t: float) -> bool:
        """A slap just after the verdict, by a player who may be late: the verdict says by how much."""
        late = self.late
        if late is None or player not in late.players or t - late.t > LATE_S or self.verdict is None:
            return False
        self.verdict.lines = partial(verdict_lines, late.said, (player, (t - late.t) * 1000), self.computer)
        self.messages.pop(player, None)
        self.late = None
        return True

    def verdict_up(self, now_ns: int) -> bool:
        """Is a verdict up (the scene shows it out before it moves on: game over, a summary)?"""
        return now_ns < self.verdict_ends_ns

    def feedback(self, now_ns: int) -> list[Caption]:
        """Each seat's last reject (its own) and the last race (for everybody), while they last; a
        table slap's verdict, big in the middle, instead of them while it lasts."""
        if self.verdict is not None and self.verdict.until_ns > now_ns:
            verdict = self.verdict.lines()
            lines = [Line(verdict[0], VERDICT_SIZE, self.verdict.colour)] + [Line(w, 0.14, WHITE) for w in verdict[1:]]
            return [Caption("centre", None, tuple(lines), 210)]
        return seat_feedback(self.layout, self.messages, self.race, now_ns, self.computer)

    def _slide(
        self, card: str, start: tuple[int, int], index: int, under: str | None, turned: bool, player: int = 0
    ) -> None:
        """A card to slide onto spit pile `index` from `start`, from the next frame drawn."""
        self.slides = [s for s in self.slides if s.spit_pile != index]
        self.slides.append(Slide(card, start, self.layout.spit_piles[index].topleft, index, under, turned, player))

    def sliding(self, now_ns: int) -> dict[int, Slide]:
        """The slides on their way in the frame of `now_ns`, by spit pile (a new one starts in it;
        those landed are forgotten)."""
        self.slides = [s for s in self.slides if s.progress(now_ns) < 1.0]
        return {s.spit_pile: s for s in self.slides}

    def deal(self, now_ns: int) -> None:
        """Show the layout being dealt from each seat's spit cards, pile after pile."""
        self.dealt_ns = now_ns
        self.flips.clear()

    def busy(self, now_ns: int) -> bool:
        """Something is moving (so the frame changes even without a press)."""
        dealing = self.dealt_ns is not None and now_ns - self.dealt_ns < self.deal_s() * 1e9
        return (
            dealing
            or any(s.t0_ns is None or now_ns - s.t0_ns < SLIDE_S * 1e9 for s in self.slides)
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

    def card_image(self, kind: str, seat: Seat | None, card: str = "") -> pygame.Surface:
        """A card's face, back, slot or glow turned to face `seat` (for what is drawn over the table)."""
        return self._image(kind, seat, card)

    def _image(self, kind: str, seat: Seat | None, card: str = "") -> pygame.Surface:
        """A card's face ("face"), back, slot or glow, turned to face `seat` (None: upright)."""
        return self.cards.image(kind, seat, card)

    @property
    def legend_texts(self) -> list[Drawn]:
        """The seats' key legends as drawn (of `painted_texts`)."""
        return [d for d in self.painted_texts if d.place == "legend"]

    def background(self) -> pygame.Surface:
        """The felt, the seats' names, the key labels and legends: everything that never changes."""
        lay = self.layout
        keys = self.show_keys and bool(self.keymap)
        shape = (len(lay.seats), len(lay.seat(1).stock))
        cache_key = (keys, self.names, self.computer, lay.mode, lay.size, shape, self.slap, _("Player {n}"))
        found = self._backgrounds.get(cache_key)
        if found is not None:
            self.painted_texts = found[1]
            return found[0]
        surface = felt(lay, len(lay.seats) == 2)
        small = lay.text_size(0.12 if len(lay.seats) == 2 else LABEL_SIZE)  # a crowded table's row is narrower
        self.painted_texts = []
        piles = len(lay.seat(1).stock)
        for player, seat in lay.seats.items():
            colour = PLAYER_COLOURS[player]
            name = _("Computer") if player in self.computer else _("Player {n}").format(n=player)
            if self.names:
                paint_name(surface, self.painted_texts, seat, name, small)
            for rect in seat.stock:
                surface.blit(self._image("slot", seat), rect)
            if not keys or player in self.computer:
                continue
            paint_pile_keys(surface, self.painted_texts, self.keymap, seat, small)
            legend = seat_legend(self.keymap, player, lay.mode, piles, len(lay.seats), self.slap)
            size = 0.12 if len(lay.seats) == 2 else 0.1  # the corner of a crowded table
            # a crowded table's corner is not always by its seat: in the seat's colour, whose it is
            lines = tuple(Line(words, size, SOFT if len(lay.seats) == 2 else colour) for words in legend)
            paint_legend(surface, self.painted_texts, lay, seat, lines)
        for index, rect in enumerate(lay.spit_piles):
            surface.blit(self.art.slot(), rect)
            if not keys:
                continue
            if len(lay.seats) > 2:
                self._pile_keys(surface, index, small)
                continue
            paint_side_keys(surface, self.painted_texts, self.keymap, lay, index, small, self.computer)
        background = surface.convert() if pygame.display.get_surface() is not None else surface
        painted(background, self.painted_texts)
        self._backgrounds[cache_key] = (background, self.painted_texts)
        return background

    def _pile_keys(self, surface: pygame.Surface, index: int, size: int) -> None:
        """At a table of three or four: beside spit pile `index`, on the side away from the middle,
        the key each person's seat plays onto it with, one under another in the seats' colours (each
        turned to its seat on the tabletop, upright on the desktop)."""
        lay = self.layout
        rect = lay.spit_piles[index]
        people = [p for p in lay.seats if p not in self.computer]
        labels = []
        for player in people:
            key = pile_keys(self.keymap, player, index, len(lay.seats))
            if key:
                angle = lay.seat(player).angle if lay.mode == "tabletop" else 0  # the desktop: all upright
                labels.append((player, key, angle, fonts.text(key, size, PLAYER_COLOURS[player], angle=angle)))
        if not labels:
            return
        width = max(image.get_width() for *_, image in labels)
        outward = -1 if rect.centerx < lay.size[0] // 2 else 1  # the side away from the middle
        x = rect.left - 4 - width // 2 if outward < 0 else rect.right + 4 + width // 2
        y = rect.centery - (sum(image.get_height() + 1 for *_, image in labels) - 1) // 2  # each as tall as it is
        for player, key, angle, image in labels:
            centre = (x, y + image.get_height() // 2)
            paint_label(surface, self.painted_texts, image, centre, "pile_key", player, key, angle)
            y += image.get_height() + 1

    def shade(self, size: tuple[int, int], alpha: int = 170) -> pygame.Surface:
        """A translucent dark panel (cached) for banners over the table."""
        return self.cards.shade(size, alpha)

    def _shake(self, player: int, control: str, now_ns: int) -> int:
        t0 = self.shakes.get((player, control))
        if t0 is None:
            return 0
        age = (now_ns - t0) / 1e9
        if age >= SHAKE_S:
            del self.shakes[(player, control)]
            return 0
        return int(math.sin(age * 60) * self.layout.card_w * 0.08 * (1 - age / SHAKE_S))

    def lit(self, game: Game, sliding: dict[int, Slide], version: object = None) -> set[tuple[int, int]]:
        """(seat, stock pile) of the cards that fit the spit piles as each seat sees them: a played
        card on its way to a pile counts there at once for the player who played it, for the others
        when it lands (a revealed card at once: every seat changes in the frame of the reveal anyway).
        The game's legal actions say it (the screen works nothing out), asked again only when
        `version` (the match's: it moves whenever the game may have changed) or the cards on their
        way changed; with no `version`, every frame."""
        key = (version, tuple((index, slide.player) for index, slide in sliding.items()))
        known_game, known_key, known = self._lit
        if version is not None and known_game is game and known_key == key:
            return known
        lit: set[tuple[int, int]] = set()
        for number in range(1, len(game.players) + 1):
            seen = [
                (pile[-2] if len(pile) > 1 else None)
                if index in sliding and sliding[index].player not in (0, number) and pile
                else (pile[-1] if pile else None)
                for index, pile in enumerate(game.spit_piles)
            ]
            for action in game.legal_actions(number, seen):
                if action.kind == "play":
                    lit.add((number, action.pile))
        self._lit = (game, key, lit)
        return lit

    def draw(self, canvas: Canvas, game: Game, now_ns: int, version: object = None) -> None:
        """The frame of `now_ns` (`version`: the match's, Match.version, so the assist asks the game
        again only when it changed)."""
        lay = self.layout
        step_cards = 4
        sliding = self.sliding(now_ns)
        lit = self.lit(game, sliding, version) if self.assist and game.phase == "playing" else set()
        for player, seat in lay.seats.items():
            me = game.player(player)
            dx, dy = seat.stack_dx, seat.stack_step
            # spit cards (and, at a table of three or four, the pile taken on going out)
            self.cards.face_down(canvas, seat, seat.spit_cards, len(me.spit_cards), lay.text_size(0.14), dx, dy,
                                 step_cards)
            hidden = me.hidden  # V9: picked up, played from memory
            second = me.second  # V8: the second hand's pile
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
                        canvas.card(self._image("back", seat), (x, y))
                    continue
                shake = self._shake(player, f"pile{number}", now_ns)
                if me.selected == number or second == number:
                    for side in ("left", "right", "far_left", "far_right"):
                        shake += self._shake(player, side, now_ns)
                under = min(len(pile.cards) - 1, step_cards - 1)
                for k in range(under, 0, -1):
                    canvas.card(self._image("back", seat), rect.move(dx * k, dy * k).topleft)
                top_rect = rect.move(shake, 0)
                held = "select" if me.selected == number else "second" if second == number else None
                if held is not None:
                    top_rect = top_rect.move(dx * 3, dy * 3)
                    off = self.art.glow_offset()
                    canvas.blit(self._image(held, seat), (top_rect.x - off, top_rect.y - off))
                elif (player, number) in lit:
                    off = self.art.glow_offset()
                    canvas.blit(self._image("assist", seat), (top_rect.x - off, top_rect.y - off))
                face_up = pile.up > 0 and not hidden
                image = self._image("face", seat, pile.cards[-1]) if face_up else self._image("back", seat)
                turning = self._flip_image(player, number, pile.cards[-1], seat.turned, now_ns)
                if turning is not None and seat.cards_angle in (0, 180) and not hidden:
                    image = turning
                    top_rect = top_rect.move((self.art.width - turning.get_width()) // 2, 0)
                canvas.card(image, top_rect.topleft)
        # spit piles
        draw_spit_piles(canvas, lay, self.art, game.spit_piles, sliding)
        draw_slides(canvas, self.art, sliding, now_ns)
