"""The computer opponent: a strategy with a pair of human hands, pressing the same controls a person does.

The caller (the live game every frame, or the simulator whenever it likes) asks `next_press(game,
now)` for the game time and control of the bot's next press, and applies it with `game.press`
once that time has come. The bot reads only the visible view (view.py). It decides when the view
changes: the reaction timer starts at the moment it first saw the change and is not re-rolled
while nothing changes, so asking again returns the same plan.

When the table changes before the planned press, a player whose planned move still works keeps
going (same time); one whose hand is already on its way (the last `COMMIT` seconds) can't stop and
presses anyway — it may lose the race, an honest `too_late`; otherwise the bot thinks again.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules import Game
from .strategy import Action, Strategy, first_step, press_for, valid
from .timing import Timing
from .view import View, visible_view

COMMIT = 0.1  # seconds before a press when the hand can no longer be stopped


@dataclass(frozen=True)
class Reaction:
    """One press the bot handed out: when it saw the position it answered, when it pressed, how it
    decided (`decision`: a fresh choice; `continuation`: the next press of a move already decided)."""

    seen: float
    t: float
    control: str
    kind: str


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

    def __repr__(self) -> str:
        return f"Bot({self.spec!r}, player={self.player}, strategy={self.strategy.name!r})"

    def next_press(self, game: Game, now: float) -> tuple[float, str] | None:
        """(game time of the next press, control) from what the bot sees at `now`, or None to wait.

        A returned time <= `now` means: press now. The caller must then apply it; the bot counts
        it as made and plans its next press from the next call on."""
        if now < self._seen:
            self._forget()  # time went back: a new game (or a replay from the start)
        view = visible_view(game, self.player)
        if self._stale or view != self._view:
            if view.round != self._round[0]:
                self._round = (view.round, now)
            self._update(view, now, game.variant.slap_window)
        return self.take_due(now)

    def take_due(self, now: float) -> tuple[float, str] | None:
        """`next_press` for a caller that knows nothing on the table has changed since its last call
        (the simulator, between asking and pressing): the same answer, without looking again."""
        due = self._due
        if due is not None and due[0] <= now:
            self._due = None
            self._stale = True
            total = self.reaction_totals[self._kind]
            total[0] += 1
            total[1] += due[0] - self._seen
            if self.log is not None:
                self.log.append(Reaction(self._seen, due[0], due[1], self._kind))
        return due

    # ---------------------------------------------------------------- deciding

    def _update(self, view: View, now: float, slap_window: float) -> None:
        self._view = view
        self._stale = False
        due, action = self._due, self._action
        if due is not None:
            if action is not None and valid(view, action) and press_for(view, action) == due[1]:
                return  # the planned move still works: carry on
            if due[0] - now <= COMMIT:
                return  # too late to stop the hand
            # Interrupted: the move planned no longer works. Think again (the rest of a planned
            # run too: the article's "adapt", which takes a moment's thought).
            self._due = None
            self._action = None
            self._follow.clear()
            action = None
        if action is not None and action.kind in ("play", "move") and not first_step(view, action):
            if valid(view, action):  # the card is in hand: put it down
                self._schedule(view, now, action, self.timing.continuation(self.rng), "continuation")
                return
            self._follow.clear()  # the card did not go (a race lost): the planned run is off
        while self._follow:
            follow = self._follow.pop(0)
            if valid(view, follow):
                self._schedule(view, now, follow, self.timing.continuation(self.rng), "continuation")
                return
            self._follow.clear()
        plan = self.strategy.choose(view, self.rng)
        if plan is None:
            self._action = None
            self._due = None
            return
        self._follow = list(plan.follow)
        if plan.prepared:
            delay, kind = self.timing.continuation(self.rng), "continuation"
        else:
            delay, kind = self.timing.decision(self.rng, plan.choices), "decision"
        if plan.action.kind == "choose" and view.phase == "ready":
            # A lone spitter choosing its pile just after the slap that dealt this layout would be
            # taken for a late slap: it waits until the slap's race is over.
            delay = max(delay, self._round[1] + slap_window + self.timing.floor - now)
        self._schedule(view, now, plan.action, delay, kind)

    def _schedule(self, view: View, now: float, action: Action, delay: float, kind: str) -> None:
        self._action = action
        self._seen = now
        self._kind = kind
        self._due = (round(now + delay, 6), press_for(view, action))
