"""A guided first game (issue 25): a prepared deal of Spit or Speed, taught one step at a time. No pygame.

The deal is a position in the script format's state schema, set up and played by the rules core
(`game_from_setup`) in a `Match`, as every game is: nothing here knows a rule the core does not
say. What this module adds is the order of the lesson (`Step`s: the learner's presses, in order)
and a judge of each press before it reaches the match (`Guide.judge`): the press the step asks for
goes to the match; any other is held back with why (`Wrong`, a reason as data: the screen has the
words), so the prepared deal always goes on as prepared.

The learner has a seat of their own at a table of two (the seat whose key opened the guide: the
position is turned round for seat 2, so each sees it from their own side); the other seat is a
scripted partner (`Partner`) that never plays a card and never slaps: it calls SPIT! a moment after
the learner has, so the lesson always waits for the learner.

    match, guide = lesson_match("spit", learner=1, start_ns=clock())
    guide.ask(match.game)            # Ask: what to press now, which card and pile to light
    guide.judge(match.game, "pile3") # None (the press asked for) or Wrong(reason, ...)
    guide.passed()                   # after the press is applied: the lesson a finished step taught

Games taught: "spit" (classic Spit: call, play, turn, move into a space, SPIT! when nobody can play,
slap the smaller pile) and "speed" (call, draw into an empty slot, play, SPIT! to turn the side
stacks, play out). The guided game is not journalled (as the attract game is not): it is a lesson,
the same every time, with nothing to resume or audit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from appliance.match import Match
from appliance.rules import deck, game_from_setup
from appliance.rules.cards import next_in_rank

SEED = 25  # drives nothing the lesson reaches (the position is set), but a game needs one
PARTNER_DELAY_S = 0.6  # the partner calls SPIT! this long after the learner
GAMES = ("spit", "speed")
SPIT_PILE_CONTROLS = ("left", "right", "far_left", "far_right")

# What each lesson needs the game to be in before its press can be made.
PHASE_OF = {"call": "ready", "stuck": "stalemate", "slap": "choosing"}


@dataclass(frozen=True)
class Step:
    """One thing taught: `lesson` (call, play, turn, move, draw, stuck, slap, play_out) and the
    learner's presses that do it, in order: a control, or "onto:mine" / "onto:theirs" for the spit
    pile on the learner's side (where their own spit card goes) or on the partner's."""

    lesson: str
    presses: tuple[str, ...]


@dataclass(frozen=True)
class Lesson:
    game: str  # "spit" or "speed"
    variant: str
    position: Callable[[], dict[str, Any]]  # the deal, with seat 1 learning
    steps: tuple[Step, ...]


def _rest(used: list[str]) -> list[str]:
    """The deck's other cards, in the deck's order."""
    return [card for card in deck() if card not in used]


def spit_position() -> dict[str, Any]:
    """Classic Spit, ready to start. The learner (seat 1) has five cards in three piles: a 5 that
    fits their first spit card (the 6), a king face down under it, a queen over a face-down 4, and
    two spaces. The partner's five cards (8s and 10s) fit nothing the lesson turns up, so nobody can
    play after the 4, the SPIT! turns an ace for the king and the queen, and the learner plays out
    with the larger pile beside them: slap the smaller one."""
    learner = ["KC", "5H", "4C", "QS"]
    partner = ["8H", "8D", "TH", "TD", "TC"]
    spit_cards = ["6S", "AH"], ["8S", "5C"]
    rest = _rest(learner + partner + spit_cards[0] + spit_cards[1])
    half = len(rest) // 2
    return {
        "variant": "classic", "phase": "ready", "round": 1, "winner": None, "spit_piles": [[], []],
        "players": [
            {"stock": [{"cards": ["KC", "5H"], "up": 1}, {"cards": [], "up": 0}, {"cards": ["4C", "QS"], "up": 1},
                       {"cards": [], "up": 0}, {"cards": [], "up": 0}],
             "spit_cards": [*spit_cards[0], *rest[:half]], "selected": None},
            {"stock": [{"cards": [card], "up": 1} for card in partner],
             "spit_cards": [*spit_cards[1], *rest[half:]], "selected": None},
        ],
    }  # fmt: skip


def speed_position() -> dict[str, Any]:
    """Speed, ready to start. The learner holds a 5 and a king with three empty slots and one card
    (a 4) in their stock; the side stacks turn a 6 and an 8, then an ace and a 5. The partner's
    hand (8s, 10s and a jack) fits nothing the lesson turns up: the learner draws the 4, plays the 5
    and the 4, is stuck with the king, SPIT! turns the ace, and the king is their last card."""
    partner = ["8H", "8D", "TH", "TD", "JC"]
    sides = ["6S", "AH"], ["8S", "5C"]
    rest = _rest(["5H", "KC", "4C", *partner, *sides[0], *sides[1]])
    return {
        "variant": "speed", "phase": "ready", "round": 1, "winner": None, "spit_piles": [[], []],
        "side_stacks": [[*sides[0], *rest[:5]], [*sides[1], *rest[5:10]]],
        "players": [
            {"hand": ["5H", None, "KC", None, None], "stock": ["4C"], "score": 0, "selected": None},
            {"hand": partner, "stock": rest[10:], "score": 0, "selected": None},
        ],
    }  # fmt: skip


LESSONS: dict[str, Lesson] = {
    "spit": Lesson("spit", "classic", spit_position, (
        Step("call", ("spit",)),
        Step("play", ("pile1", "onto:mine")),
        Step("turn", ("pile1",)),
        Step("move", ("pile3", "pile4")),
        Step("turn", ("pile3",)),
        Step("play", ("pile3", "onto:mine")),
        Step("stuck", ("spit",)),
        Step("play", ("pile1", "onto:mine")),
        Step("play", ("pile4", "onto:mine")),
        Step("slap", ("onto:theirs",)),
    )),
    "speed": Lesson("speed", "speed", speed_position, (
        Step("call", ("spit",)),
        Step("draw", ("pile2",)),
        Step("play", ("pile1", "onto:mine")),
        Step("play", ("pile2", "onto:mine")),
        Step("stuck", ("spit",)),
        Step("play_out", ("pile3", "onto:mine")),
    )),
}  # fmt: skip


def for_seat(position: dict[str, Any], learner: int) -> dict[str, Any]:
    """The position with the learner at `learner` (1 or 2): for seat 2 the seats change places, and
    so do the middle's two sides, so the learner's side of the middle is still their own."""
    if learner == 1:
        return position
    turned = dict(position)
    turned["players"] = list(reversed(position["players"]))
    for key in ("spit_piles", "side_stacks"):
        if key in position:
            turned[key] = list(reversed(position[key]))
    return turned


class Partner:
    """The other seat: calls SPIT! a moment after the learner has (in `ready` and in a stalemate),
    and does nothing else, so the lesson waits for the learner. A computer player (`Match.bots`)."""

    def __init__(self, learner: int, delay_s: float = PARTNER_DELAY_S) -> None:
        self.learner = learner
        self.seat = 3 - learner
        self.delay_s = delay_s
        self._seen: float | None = None  # when the partner saw the learner's call

    def next_press(self, game: Any, now: float) -> tuple[float, str] | None:
        if game.phase not in ("ready", "stalemate") or game.player(self.seat).called:
            self._seen = None
            return None
        if not game.player(self.learner).called:
            return None
        if self._seen is None:
            self._seen = now
        return (self._seen + self.delay_s, "spit")


@dataclass(frozen=True)
class Ask:
    """What the learner is asked now: the lesson, which press of it (`part` of `parts`), the step
    (`step` of `steps`, from 1), the control to press, the stock pile or hand slot to light (`pile`,
    from 1) or the spit pile (`spit_pile`, an index), the card concerned and the top it goes on."""

    lesson: str
    part: int
    parts: int
    step: int
    steps: int
    control: str
    pile: int | None = None
    spit_pile: int | None = None
    card: str | None = None
    onto: str | None = None
    size: int = 0  # the spit pile's size (the slap)


@dataclass(frozen=True)
class Wrong:
    """Why a press was held back (the screen has the words): `reason` is one of
    wait (the game is not there yet: the partner is calling), press_spit (anything but SPIT! where
    nobody can play), spit_not_now (SPIT! while a card can be
    played), nothing_held (a spit pile with no card picked up), other_spit_pile (the card held does
    not fit that pile: `card`, `top`), larger (the larger pile slapped: `size`), not_fit (a card that
    fits neither spit pile: `card`), face_down, empty (a stock pile or slot with nothing to pick up),
    holding (another pile while a card is held: `card`), not_in_game (a key this game has no use
    for), not_this_one (a press that would do something, but not what this step teaches)."""

    reason: str
    card: str | None = None
    top: str | None = None
    size: int = 0


class Guide:
    """The lesson's steps, the learner's place in them, and a judge of each press."""

    def __init__(self, lesson: Lesson, learner: int) -> None:
        self.lesson = lesson
        self.learner = learner
        self.index = 0  # the step
        self.part = 0  # the press within it

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.lesson.steps

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps)

    def control(self, game: Any, press: str) -> str:
        """A step's press as the learner's control: "onto:mine" is the side of the middle their own
        cards go to (spit pile 0 for seat 1, 1 for seat 2), "onto:theirs" the other."""
        if not press.startswith("onto:"):
            return press
        index = self.learner - 1 if press == "onto:mine" else 2 - self.learner
        return str(game.table.side_for(self.learner, index))

    def ask(self, game: Any) -> Ask | None:
        if self.done:
            return None
        step = self.steps[self.index]
        press = step.presses[self.part]
        control = self.control(game, press)
        asked = Ask(step.lesson, self.part, len(step.presses), self.index + 1, len(self.steps), control)
        me = game.player(self.learner)
        if press.startswith("onto:"):
            index = game.table.spit_pile_for(self.learner, control)
            pile = game.spit_piles[index]
            card = _top(game, self.learner, me.selected)
            return replace(asked, spit_pile=index, card=card, onto=pile[-1] if pile else None, size=len(pile))
        if press.startswith("pile"):
            number = int(press[4:])
            if step.lesson == "move" and self.part == 1:  # the space the held card goes to
                return replace(asked, pile=number, card=_top(game, self.learner, me.selected))
            onto = self._next_onto(game, step) if step.lesson in ("play", "play_out") else None
            return replace(asked, pile=number, card=_top(game, self.learner, number), onto=onto)
        return asked

    def _next_onto(self, game: Any, step: Step) -> str | None:
        """The top the card picked up in this step will go on."""
        for press in step.presses:
            if press.startswith("onto:"):
                index = game.table.spit_pile_for(self.learner, self.control(game, press))
                pile = game.spit_piles[index]
                return pile[-1] if pile else None
        return None

    def waiting(self, game: Any) -> bool:
        """The game is not yet where this step is (the partner is still calling SPIT!)."""
        return not self.done and game.phase != PHASE_OF.get(self.steps[self.index].lesson, "playing")

    def judge(self, game: Any, control: str) -> Wrong | None:
        """None if `control` is the press this step asks for (the match may have it); else why not."""
        if self.done:
            return Wrong("not_this_one")
        step = self.steps[self.index]
        wanted = self.control(game, step.presses[self.part])
        if self.waiting(game):
            return Wrong("wait")
        if control == wanted:
            return None
        if wanted == "spit":  # (the cards to play are turned first)
            return Wrong("press_spit")
        me = game.player(self.learner)
        held = me.selected
        if control == "spit":
            return Wrong("spit_not_now") if game.phase == "playing" else Wrong("not_this_one")
        if control in SPIT_PILE_CONTROLS:
            index = game.table.spit_pile_for(self.learner, control)
            if index is None:
                return Wrong("not_in_game")
            pile = game.spit_piles[index]
            if step.lesson == "slap":
                return Wrong("larger", size=len(pile))
            if held is None:
                return Wrong("nothing_held")
            card = _top(game, self.learner, held)
            if pile and card is not None and not next_in_rank(card, pile[-1]):
                return Wrong("other_spit_pile", card=card, top=pile[-1])
            return Wrong("not_this_one")
        if control.startswith("pile") and control[4:].isdigit():
            number = int(control[4:])
            if number > game.pile_controls(self.learner):
                return Wrong("not_in_game")
            if held is not None and number != held:
                return Wrong("holding", card=_top(game, self.learner, held))
            if _face_down(game, self.learner, number):
                return Wrong("face_down")
            card = _top(game, self.learner, number)
            if card is None:  # (an empty slot of a Speed hand draws: not this step's, but not wrong)
                return Wrong("not_this_one" if hasattr(me, "hand") else "empty")
            plays = {a.pile for a in game.legal_actions(self.learner) if a.kind == "play"}
            if number not in plays and held is None:
                return Wrong("not_fit", card=card)
            return Wrong("not_this_one")
        return Wrong("not_in_game")

    def passed(self) -> str | None:
        """The press asked for was made (and applied): on to the next; the lesson a finished step
        taught, or None when the step has more presses."""
        if self.done:
            return None
        step = self.steps[self.index]
        self.part += 1
        if self.part < len(step.presses):
            return None
        self.index += 1
        self.part = 0
        return step.lesson


def _top(game: Any, player: int, number: int | None) -> str | None:
    """The card on top of a stock pile (Spit) or in a hand slot (Speed), None if there is none."""
    if number is None:
        return None
    me = game.player(player)
    if hasattr(me, "hand"):
        return me.hand[number - 1] if number <= len(me.hand) else None
    if number > len(me.stock) or not me.stock[number - 1].cards:
        return None
    return str(me.stock[number - 1].cards[-1])


def _face_down(game: Any, player: int, number: int) -> bool:
    me = game.player(player)
    if hasattr(me, "hand") or number > len(me.stock):
        return False
    pile = me.stock[number - 1]
    return bool(pile.cards) and pile.up == 0


def lesson_match(game: str, learner: int, start_ns: int) -> tuple[Match, Guide]:
    """The guided first game of `game` ("spit" or "speed") with the learner at seat `learner`: the
    prepared deal in a match (the partner at the other seat), and its guide."""
    lesson = LESSONS[game]
    setup = {"variant": lesson.variant, "seed": SEED, "state": for_seat(lesson.position(), learner)}
    played, events = game_from_setup(setup)
    match = Match(SEED, start_ns, None, {3 - learner: Partner(learner)}, game=played, events=events)
    return match, Guide(lesson, learner)
