"""The computer plays Speed (S1-S5): a strategy per level with the same human hands (timing.py).

Speed hides each player's hand from the other (seeds/README.md, "Speed": on the cabinet the hands
are drawn face up at their owners' edges, turned toward them, and the computer never looks at
yours). So a Speed bot reads only `speed_view`: its own hand, which of its slots is picked up, the
two spit piles' top cards and sizes, how many cards each side stack holds, how many cards the
opponent holds in hand and in stock, who has called, and the scores. Never the opponent's hand,
never a face-down card. What it remembers is what anybody watching remembers: the cards it saw on
top of the spit piles this deal (they never go back into a hand), from which it guesses what the
opponent might hold (every card it has not seen is as likely as any other).

Strategies, by level (the Spit levels' names):

- `first`: the first legal action offered; `casual` (1): any card that fits;
- `steady` (2): the first card that fits, scanning the hand from slot 1;
- `runs` (3): plays the card that keeps a run going longest (the hand cards that follow it, one
  on another, on either pile), and plays a planned run as one quick series;
- `watchful` (4): as `runs`, and weighs what each play leaves the opponent: a top it covers that
  the opponent could likely have played on is worth more, a new top it is likely to hold a card
  for is worth less ("don't hand them a card");
- `expert` (5): as `watchful`, looks further ahead, and ends on the pile that gives least away.

The bot is asked `next_press(game, now)` exactly as the Spit bot is (opponent.py): it decides when
its view changes, keeps a planned press while the move still works, and can't stop a hand already
on its way (`COMMIT`). `make_bot` returns a `Bot` that hands the game over to a `SpeedBot` the first
time it is asked about a Speed game (`AnyGameBot`), so `make_bot(spec, seat, seed)` plays both.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..rules import Action, Card, deck
from ..rules.cards import RANK_VALUE
from ..rules.cards import SUITS as SUIT_NAMES
from ..rules.speed import SpeedGame
from .opponent import COMMIT, Bot, Reaction
from .timing import Timing

EMPTY = ""
SUITS = len(SUIT_NAMES)  # cards of each rank in the deck


class SpeedView(NamedTuple):
    """What a Speed player sees from their seat (and nothing else)."""

    player: int
    phase: str
    round: int
    hand: tuple[Card, ...]  # my five slots, EMPTY where a slot is empty
    selected: int  # the slot I have picked up, 0 for none
    called: bool
    my_stock: int  # how many cards my stock holds (face down: only the count)
    tops: tuple[Card, ...]  # per spit pile: its top card, or EMPTY
    spit_sizes: tuple[int, ...]
    side_sizes: tuple[int, ...]
    their_hand: int  # how many cards the opponent holds: never which
    their_stock: int
    they_called: bool
    scores: tuple[int, int]  # mine, theirs


def speed_view(game: SpeedGame, player: int) -> SpeedView:
    me = game.players[player - 1]
    (other,) = game.table.others(player)  # Speed is for two
    them = game.players[other - 1]
    one, two = game.middle.spit_piles
    sides = game.middle.side_stacks
    return SpeedView(
        player,
        game.phase,
        game.round,
        tuple([EMPTY if card is None else card for card in me.hand]),
        me.selected or 0,
        me.called,
        len(me.stock),
        (one[-1] if one else EMPTY, two[-1] if two else EMPTY),
        (len(one), len(two)),
        (len(sides[0]), len(sides[1])),
        len(them.hand) - them.hand.count(None),
        len(them.stock),
        them.called,
        (me.score, them.score),
    )


def _fits(card: Card, top: Card) -> bool:
    return (RANK_VALUE[card[0]] - RANK_VALUE[top[0]]) % 13 in (1, 12)


def _neighbours(top: Card) -> tuple[int, int]:
    value = RANK_VALUE[top[0]]
    return value % 13 + 1, (value - 2) % 13 + 1


@dataclass(frozen=True)
class SpeedPlan:
    action: Action
    choices: int = 1
    follow: tuple[Action, ...] = ()  # plays planned ahead: a run played as one quick series


@dataclass(frozen=True)
class SpeedStrategy:
    name: str
    chooser: str = "first"  # "first" | "random" | "scan" | "run"
    depth: int = 0  # how far ahead a run is looked for (hand cards after this one)
    watch: float = 0.0  # weight of what a play leaves the opponent (0: not looked at)
    series: bool = False  # a planned run is played as one quick series (continuations)

    def choose(self, view: SpeedView, legal: list[Action], unseen: dict[int, int], unseen_total: int,
               rng: random.Random) -> SpeedPlan | None:
        """One of `legal` (the rules' legal_actions), or None to wait. `unseen` counts, by rank, the
        cards this player has not seen this deal (the opponent's hand is among them)."""
        if not legal:
            return None
        if self.chooser == "first":
            return SpeedPlan(legal[0])
        for action in legal:
            if action.kind in ("call", "draw"):
                return SpeedPlan(action)  # nothing to weigh: drawing and calling are always right
        plays = legal
        if self.chooser == "random":
            return SpeedPlan(rng.choice(plays), choices=len(plays))
        if self.chooser == "scan":
            return SpeedPlan(min(plays, key=lambda a: (a.pile, a.target)), choices=len(plays))
        return self._best(view, plays, unseen, unseen_total)

    def _best(self, view: SpeedView, plays: list[Action], unseen: dict[int, int],
              unseen_total: int) -> SpeedPlan:
        hand = list(view.hand)
        tops = list(view.tops)
        # The chance that any one unseen card is in the opponent's hand.
        share = view.their_hand / unseen_total if unseen_total else 0.0
        best: tuple[float, int, int] | None = None
        best_line: list[Action] = []
        for action in plays:
            line = self._run(hand, tops, action, self.depth)
            score = float(len(line))
            if self.watch:
                card = hand[action.pile - 1]
                covered = tops[action.target]
                after = list(tops)
                after[action.target] = card
                # Taking a top the opponent could use is good; a new top they can use is bad.
                score += self.watch * share * (sum(unseen.get(r, 0) for r in _neighbours(covered))
                                               - sum(unseen.get(r, 0) for r in _neighbours(card)))
            key = (score, -action.pile, -action.target)
            if best is None or key > best:
                best, best_line = key, line
        return SpeedPlan(best_line[0], choices=len(plays), follow=tuple(best_line[1:]) if self.series else ())

    def _run(self, hand: list[Card], tops: list[Card], action: Action, depth: int) -> list[Action]:
        """`action` and the longest run of my other hand cards that can follow it (refills unknown)."""
        card = hand[action.pile - 1]
        if depth <= 0:
            return [action]
        saved_top = tops[action.target]
        hand[action.pile - 1] = EMPTY
        tops[action.target] = card
        longest: list[Action] = []
        for slot, other in enumerate(hand, start=1):
            if other:
                for index, top in enumerate(tops):
                    if top and _fits(other, top):
                        line = self._run(hand, tops, Action("play", slot, index), depth - 1)
                        if len(line) > len(longest):
                            longest = line
        hand[action.pile - 1] = card
        tops[action.target] = saved_top
        return [action, *longest]


SPEED_STRATEGIES: dict[str, SpeedStrategy] = {
    "first": SpeedStrategy("first"),
    "casual": SpeedStrategy("casual", chooser="random"),
    "steady": SpeedStrategy("steady", chooser="scan"),
    "runs": SpeedStrategy("runs", chooser="run", depth=2, series=True),
    "watchful": SpeedStrategy("watchful", chooser="run", depth=3, watch=0.6, series=True),
    "expert": SpeedStrategy("expert", chooser="run", depth=4, watch=1.0, series=True),
}


def speed_strategy_for(name: str) -> SpeedStrategy:
    """The Speed strategy of the Spit strategy `name` (the same level)."""
    return SPEED_STRATEGIES[name]


class SpeedBot:
    """One computer player of one Speed game: `next_press(game, now)` as opponent.Bot's."""

    def __init__(self, spec: str, player: int, strategy: SpeedStrategy, timing: Timing, rng: random.Random,
                 log: list[Reaction] | None, reaction_totals: dict[str, list[float]]) -> None:
        self.spec = spec
        self.player = player
        self.strategy = strategy
        self.timing = timing
        self.rng = rng
        self.log = log
        self.reaction_totals = reaction_totals
        self._forget()

    def _forget(self) -> None:
        self._view: SpeedView | None = None
        self._stale = True
        self._due: tuple[float, str] | None = None
        self._seen_at = 0.0
        self._kind = "decision"
        self._action: Action | None = None
        self._follow: list[Action] = []
        self._round = 0
        self._seen: set[Card] = set()  # cards seen on top of the spit piles this deal

    def next_press(self, game: Any, now: float) -> tuple[float, str] | None:
        if not isinstance(game, SpeedGame):
            raise TypeError(f"a Speed bot plays Speed, not {getattr(game, 'variant', game)!r}")
        if now < self._seen_at:
            self._forget()
        view = speed_view(game, self.player)
        if self._stale or view != self._view:
            if view.round != self._round:
                self._round = view.round
                self._seen = set()
            self._seen.update(top for top in view.tops if top)
            self._update(game, view, now)
        return self.take_due(now)

    def take_due(self, now: float) -> tuple[float, str] | None:
        due = self._due
        if due is not None and due[0] <= now:
            self._due = None
            self._stale = True
            total = self.reaction_totals[self._kind]
            total[0] += 1
            total[1] += due[0] - self._seen_at
            if self.log is not None:
                self.log.append(Reaction(self._seen_at, due[0], due[1], self._kind))
        return due

    def unseen(self, view: SpeedView) -> tuple[dict[int, int], int]:
        """By rank, the cards this player has not seen this deal (not in its hand, never a top)."""
        known = self._seen.union(card for card in view.hand if card)
        counts = dict.fromkeys(range(1, 14), SUITS)
        for card in known:
            counts[RANK_VALUE[card[0]]] -= 1
        return counts, len(_DECK) - len(known)

    def _update(self, game: SpeedGame, view: SpeedView, now: float) -> None:
        self._view = view
        self._stale = False
        legal = game.legal_actions(self.player)
        due, action = self._due, self._action
        if due is not None:
            if action is not None and action in legal and self._control(game, view, action) == due[1]:
                return  # the planned move still works: carry on
            if due[0] - now <= COMMIT:
                return  # too late to stop the hand
            self._due = None
            self._action = None
            self._follow.clear()
            action = None
        if action is not None and action.kind == "play" and view.selected == action.pile:
            if action in legal:  # the card is picked up: put it down
                self._schedule(game, view, now, action, self.timing.continuation(self.rng), "continuation")
                return
            self._follow.clear()  # it did not go (a race lost): the planned run is off
        while self._follow:
            follow = self._follow.pop(0)
            if follow in legal:
                self._schedule(game, view, now, follow, self.timing.continuation(self.rng), "continuation")
                return
            self._follow.clear()
        if self.strategy.chooser in ("first", "random", "scan"):
            counts: dict[int, int] = {}
            total = 0
        else:
            counts, total = self.unseen(view)
        plan = self.strategy.choose(view, legal, counts, total, self.rng)
        if plan is None:
            self._action = None
            self._due = None
            return
        self._follow = list(plan.follow)
        self._schedule(game, view, now, plan.action, self.timing.decision(self.rng, plan.choices), "decision")

    def _control(self, game: SpeedGame, view: SpeedView, action: Action) -> str:
        return game.presses_for(self.player, action)[0]

    def _schedule(self, game: SpeedGame, view: SpeedView, now: float, action: Action, delay: float,
                  kind: str) -> None:
        self._action = action
        self._seen_at = now
        self._kind = kind
        self._due = (round(now + delay, 6), self._control(game, view, action))


_DECK: tuple[Card, ...] = tuple(deck())


class AnyGameBot(Bot):
    """A Spit bot (opponent.Bot) that hands a Speed game to a SpeedBot of the same level and hands."""

    _speed: SpeedBot | None = None

    def speed_bot(self) -> SpeedBot:
        if self._speed is None:
            self._speed = SpeedBot(self.spec, self.player, speed_strategy_for(self.strategy.name), self.timing,
                                   self.rng, self.log, self.reaction_totals)
        return self._speed

    def next_press(self, game: Any, now: float) -> tuple[float, str] | None:
        if isinstance(game, SpeedGame):
            return self.speed_bot().next_press(game, now)
        return Bot.next_press(self, game, now)  # (not super(): asked after every press of a simulated game)

    def take_due(self, now: float) -> tuple[float, str] | None:
        speed = self._speed
        if speed is not None:
            return speed.take_due(now)
        return Bot.take_due(self, now)
