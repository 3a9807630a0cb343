"""The computer opponent: a strategy with a pair of human hands, pressing the same controls a person does.

The caller (the live game every frame, or the simulator whenever it likes) asks `next_press(game,
now)` for the game time and control of the bot's next press, and applies it with `game.press`
once that time has come. The bot reads only the visible view (view.py) and chooses only among the
moves the rules offer (`game.legal_actions`), pressed as `game.presses_for` says. It decides when
the view changes: the reaction timer starts at the moment it first saw the change and is not re-rolled
while nothing changes, so asking again returns the same plan.

When the table changes before the planned press, a player whose planned move still works keeps
going (same time); one whose hand is already on its way (the last `COMMIT` seconds) can't stop and
presses anyway — it may lose the race, an honest `too_late`; otherwise the bot thinks again.

Mod Spit (V18/V19): each time the spit piles' tops (or the slaps in the open window) change, the bot
looks once at whether to slap the table (`Strategy.table_slap`, one draw of its RNG: the level's
chance of noticing) and, if so, slaps a fresh decision's reaction after the moment they changed,
before anything else it had in mind. Whether a slap would be right is the rules core's judgement of
the tops in sight (`TableSlap.right_now`, in the view), never the bot's own arithmetic.

The ghost card (V14) and "Spit card, please" (V13): while the rules offer only the slap (the ghost
card raced for, a lent spit card slapped for once its borrower has played out), the bot slaps a
simple reaction after it came in sight: nothing to choose and the moment expected, so the floor and
the hand's movement (`continuation`), about 0.25 s for the expert and 0.6 s for the casual player.

Running Spit (V16, `carry`): the runner carries one card from the stock piles to the spit pads,
`Timing.sprint` seconds each way. A press at the pads (a play) from the stock, or at the stock (a
pile) from the pads, comes a sprint later. The runner is at the pads after slapping a card down (or
trying to: a card that no longer fits stays in hand, and the runner runs back and puts it back on
its pile, the first press of whatever it does next, or slaps it onto another pile it now fits);
with two or more runners in the team the next runner is already waiting at the stock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules import Action, FamilyGame, Game
from ..rules.moves import SLAP_TABLE
from ..rules.table import SIDES
from .strategy import Strategy
from .timing import Timing
from .view import OWN_FIELDS, View, seen_after, visible_view

COMMIT = 0.1  # seconds before a press when the hand can no longer be stopped
CARRIED = ("play", "move", "stack")  # moves that pick a card up, then put it down


@dataclass(frozen=True)
class Reaction:
    """One press the bot handed out: when it saw the position it answered, when it pressed, how it
    decided (`decision`: a fresh choice; `continuation`: the next press of a move already decided)."""

    seen: float
    t: float
    control: str
    kind: str


def next_control(game: Game, view: View, action: Action) -> str:
    """The next press that carries out `action` (the rules' `presses_for`), with one hand: a card
    held from a move given up is put back first where a press of another pile would not simply pick
    that pile up instead (it would stack the held card on it, V7, take it in a second hand, V8, or
    the runner carries it, V16)."""
    moves = game.rules.moves
    if action.kind in CARRIED and (moves.stacking or moves.hands > 1 or moves.carry):
        for pile in view.held:
            if pile != action.pile:
                return f"pile{pile}"
    return game.presses_for(view.player, action)[0]


class Bot:
    def __init__(
        self, spec: str, player: int, strategy: Strategy, timing: Timing, seed: int, *, keep_log: bool = False
    ) -> None:
        self.spec = spec
        self.player = player
        self.strategy = strategy
        self.timing = timing
        self.rng = random.Random(f"spit-arcade bot {spec} {player} {seed}")
        self.log: list[Reaction] | None = [] if keep_log else None
        self._watches = strategy.watches_others  # does its view need the others' stock piles?
        # Presses made and their summed reaction times, by kind: {"decision": [n, seconds], ...}
        self.reaction_totals: dict[str, list[float]] = {"decision": [0, 0.0], "continuation": [0, 0.0]}
        self._forget()

    def _forget(self) -> None:
        """Start afresh: nothing seen, nothing planned."""
        self._view: View | None = None
        self._stale = True  # the last planned press was made: decide again even if nothing changed
        self._due: tuple[float, str] | None = None
        self._seen = 0.0
        self._kind = "decision"
        self._action: Action | None = None
        self._follow: list[Action] = []
        self._round = (0, 0.0)  # (round, when the bot first saw its layout)
        self._legal_seen: tuple[object, ...] | None = None
        self._legal: list[Action] = []
        self._idle: list[Action] | None = None  # the legal actions among which it found nothing to do
        # V18/V19: the tops (and slaps) it last looked at for a table slap, when it first saw them, its
        # one draw for noticing, and how long its reaction would take.
        self._slap_sight: tuple[object, ...] | None = None
        self._slap_since = 0.0
        self._slap_roll = 1.0
        self._slap_delay = 0.0
        self._at_pads = False  # V16: the runner stands at the spit pads, not at the stock piles
        self._controls: dict[tuple[object, ...], str] = {}  # see `_control`

    def __repr__(self) -> str:
        return f"Bot({self.spec!r}, player={self.player}, strategy={self.strategy.name!r})"

    def next_press(self, game: FamilyGame, now: float) -> tuple[float, str] | None:
        """(game time of the next press, control) from what the bot sees at `now`, or None to wait.

        A returned time <= `now` means: press now. The caller must then apply it; the bot counts
        it as made and plans its next press from the next call on."""
        if not isinstance(game, Game):
            raise TypeError(f"the computer plays the Spit family's games, not {game.variant!r}")
        if now < self._seen:
            self._forget()  # time went back: a new game (or a replay from the start)
        return self._look(game, now, visible_view(game, self.player, self._watches))

    def next_press_after(self, game: FamilyGame, now: float, presser: int, piles: tuple[int, ...],
                         spit: bool) -> tuple[float, str] | None:
        """`next_press` for a caller that knows what changed since the bot last looked: one press by
        `presser` that changed only what the presser's hands hold, the presser's stock `piles`, and
        with `spit` the spit piles (the simulator, from that press's events; see `view.seen_after`).
        The same answer, with the view brought up to date rather than looked at afresh."""
        view = self._view
        if view is None or now < self._seen or not isinstance(game, Game):
            return self.next_press(game, now)
        return self._look(game, now, seen_after(view, game, presser, piles, spit))

    def _look(self, game: Game, now: float, view: View) -> tuple[float, str] | None:
        if self._stale or view != self._view:
            if view.round != self._round[0]:
                self._round = (view.round, now)
            self._update(game, view, now)
        due = self._due
        if due is None or due[0] > now:
            return due  # (what take_due answers when nothing is due yet, without asking it)
        return self.take_due(now)

    def sees_nothing_new(self) -> bool:
        """Has the bot looked since its last press, so that while the table stays as it is (as far as
        this bot can see) `take_due` answers as `next_press` would?"""
        return not self._stale and self._view is not None

    def take_due(self, now: float) -> tuple[float, str] | None:
        """`next_press` for a caller that knows nothing on the table has changed since its last call
        (the simulator, between asking and pressing): the same answer, without looking again."""
        due = self._due
        if due is not None and due[0] <= now:
            self._due = None
            self._stale = True
            control = due[1]
            if control.startswith("pile"):
                self._at_pads = False
            elif control in SIDES:
                self._at_pads = True
            total = self.reaction_totals[self._kind]
            total[0] += 1
            total[1] += due[0] - self._seen
            if self.log is not None:
                self.log.append(Reaction(self._seen, due[0], due[1], self._kind))
        return due

    # ---------------------------------------------------------------- deciding

    def _update(self, game: Game, view: View, now: float) -> None:
        """Decide again: only ever one of the rules' `legal_actions`, checked the moment it is pressed."""
        self._view = view
        self._stale = False
        due, action = self._due, self._action
        if due is not None and due[0] - now <= COMMIT:
            return  # too late to stop the hand (whether or not the move still works)
        legal = self._legal_actions(game, view)
        if game.rules.table_slap is None and SLAP_TABLE in legal:
            # V14's ghost card raced for, V13's lent spit card slapped for: slap it (nothing else can be done
            # meanwhile: the rules offer only the slap). Nothing to choose, the moment expected: a
            # simple reaction, the floor and the hand's movement (`continuation`), not a decision.
            # (Only then, or with Mod Spit's table slap, do the rules offer the slap: the cheap
            # questions first, asked at every look.)
            if self._action != SLAP_TABLE or self._due is None:
                self._follow.clear()
                self._schedule(game, view, now, SLAP_TABLE, self.timing.continuation(self.rng), "continuation")
            return
        if game.rules.table_slap is not None and SLAP_TABLE in legal:
            if self._table_slap(game, view, now):
                return
            if action == SLAP_TABLE:  # no longer worth it (the tops changed): think again
                self._due = None
                self._action = None
                due = action = None
        if due is not None:
            if action is not None and action in legal and self._control(game, view, action) == due[1]:
                return  # the planned move still works: carry on
            # Interrupted: the move planned no longer works. Think again (the rest of a planned
            # run too: the article's "adapt", which takes a moment's thought).
            self._due = None
            self._action = None
            self._follow.clear()
            action = None
        # Is the card of the planned move in hand, so the next press puts it down?
        if action is not None and action.kind in CARRIED and view.held == (action.pile,):
            if action in legal:  # the card is in hand: put it down
                self._schedule(game, view, now, action, self.timing.continuation(self.rng), "continuation")
                return
            self._follow.clear()  # the card did not go (a race lost): the planned run is off
        while self._follow:
            follow = self._follow.pop(0)
            if follow in legal:
                self._schedule(game, view, now, follow, self.timing.continuation(self.rng), "continuation")
                return
            self._follow.clear()
        # Nothing to do among the same legal actions as last time stays nothing to do: only the bot's
        # own part of the view decides that (see Strategy.choose).
        plan = None if legal is self._idle else self.strategy.choose(view, legal, game.rules, self.rng)
        if plan is None:
            self._idle = legal
            self._action = None
            self._due = None
            return
        self._follow = list(plan.follow)
        if plan.prepared:
            delay, kind = self.timing.continuation(self.rng), "continuation"
        else:
            delay, kind = self.timing.decision(self.rng, plan.choices), "decision"
        delay += plan.wait
        if plan.action.kind == "choose" and view.phase == "ready":
            # A lone spitter choosing its pile just after the slap that dealt this layout would be
            # taken for a late slap: it waits until the slap's race is over.
            delay = max(delay, self._round[1] + game.rules.slap_window + self.timing.floor - now)
        self._schedule(game, view, now, plan.action, delay, kind)

    def _table_slap(self, game: Game, view: View, now: float) -> bool:
        """V18/V19: slap the table, a human reaction after the tops (or another's slap) came in sight?
        True when the slap is planned; it goes before anything else the bot had in mind."""
        sight = (view.round, view.spit, view.spit_sizes, view.table_slaps)
        if sight != self._slap_sight:
            self._slap_sight = sight
            self._slap_since = now
            self._slap_roll = self.rng.random()
            self._slap_delay = self.timing.decision(self.rng, 2)  # slap or not: two choices
        if not self.strategy.table_slap(view, game.rules, self._slap_roll):
            return False
        if self._action != SLAP_TABLE or self._due is None:
            self._follow.clear()
            since = self._slap_since
            self._schedule(game, view, since, SLAP_TABLE, max(self._slap_delay, now - since), "decision")
        return True

    def _control(self, game: Game, view: View, action: Action) -> str:
        """`next_control`, remembered: it depends only on the action, the table and the bot's hands."""
        key = (action, view.held, view.carried, game.rules.table.seats)
        control = self._controls.get(key)
        if control is None:
            control = self._controls[key] = next_control(game, view, action)
        return control

    def _legal_actions(self, game: Game, view: View) -> list[Action]:
        """`game.legal_actions(player)`, asked again whenever anything it depends on has changed: the
        bot's own part of the view (an opponent turning a card changes nothing the bot can do)."""
        seen: tuple[object, ...] = (game.rules, view[OWN_FIELDS], game.deadline())  # (a house rule's race)
        if seen != self._legal_seen:
            self._legal = game.legal_actions(self.player)
            self._legal_seen = seen
        return self._legal

    def _schedule(self, game: Game, view: View, now: float, action: Action, delay: float, kind: str) -> None:
        control = self._control(game, view, action)
        if game.rules.moves.carry:
            delay += self._run(game, view, control)
        self._action = action
        self._seen = now
        self._kind = kind
        self._due = (round(now + delay, 6), control)

    def _run(self, game: Game, view: View, control: str) -> float:
        """V16: how long the runner runs before pressing `control` (0 where it stands already)."""
        # A card carried stays with its runner; with nothing in hand, a team of two or more has its
        # next runner waiting at the stock.
        at_pads = self._at_pads and (bool(view.carried) or game.rules.options.runners[self.player - 1] == 1)
        if control in SIDES:
            return 0.0 if at_pads else self.timing.sprint
        if control.startswith("pile"):
            return self.timing.sprint if at_pads else 0.0
        return 0.0  # "Spit!" is called out, wherever the runner stands
