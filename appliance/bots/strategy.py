"""What a computer opponent decides to do next, from the visible view alone.

One `Strategy` type; each level switches on more of the strategy notes of the encyclopedia article
(`000_…` in the seeds, digested in RULES.md):

- `first`: the baseline of other open-source Spit games — the first legal card it sees, else turn
  the first face-down card, else move a card into a space to uncover one; slaps its left pile.
- level 1 (casual): any legal card at random; slaps either pile at random.
- level 2: first legal card, but slaps the smaller spit pile.
- level 3: thinks ahead through runs: with 8, 8, 7, 7, 9, 10 showing on a 10, plays 9 then 8, 7,
  8, 7 rather than 9, 10 (the longest run it can see).
- level 4: also watches the opponent's cards: prefers runs that leave the opponent nothing to cut
  in with, and plays a planned run as one quick series of moves (the pairs of the article), and
  slaps at once when it has just played its own last card (it saw it coming).
- level 5 (expert): also watches the opponent's last stock card go as closely as its own, so it is
  as ready to slap ("by carefully watching the opponent and timing the attack it is possible to
  win a round despite having more cards", Slap Spit); when the opponent is stuck it plays slowly:
  turns up all its face-down cards first, then plans the run that keeps the opponent stuck longest;
  as a lone spitter it spits onto the larger pile, keeping the smaller one small for the slap.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

from ..rules.seats import side_for, spit_pile_for
from .view import EMPTY, FACE_DOWN, View, fits, playable_count


class Action(NamedTuple):
    """One thing to do: `play` (stock pile a onto spit pile b), `flip` (pile a), `move` (pile a into
    the space b), `spit` (call "Spit!"), `slap` (spit pile a, for a new layout), `choose` (spit pile
    a, as a lone spitter)."""

    kind: str
    a: int = 0
    b: int = 0


SPIT = Action("spit")


@dataclass(frozen=True)
class Plan:
    action: Action
    choices: int = 1  # how many options the bot weighed (Hick's law)
    follow: tuple[Action, ...] = ()  # moves planned ahead, played as one quick series
    prepared: bool = False  # the bot saw this coming: only the hand has to move


def valid(view: View, action: Action) -> bool:
    """Does `action` still make sense in `view`? (Its next press does what it was meant to.)"""
    kind = action.kind
    phase = view.phase
    if kind == "play":
        return phase == "playing" and fits(view.mine[action.a - 1], view.spit[action.b])
    if kind == "flip":
        return phase == "playing" and view.mine[action.a - 1] == FACE_DOWN
    if kind == "move":
        return phase == "playing" and view.mine[action.a - 1] > 0 and view.mine[action.b - 1] == EMPTY
    if kind == "spit":
        return (
            phase in ("ready", "stalemate")
            and view.my_spit_cards > 0
            and not view.called
            and not (view.their_spit_cards == 0 and view.lone_pile < 0)
        )
    if kind == "slap":
        return phase == "choosing"
    if kind == "choose":
        return (
            phase in ("ready", "stalemate")
            and view.my_spit_cards > 0
            and view.their_spit_cards == 0
            and not view.called
            and view.lone_pile in (-1, action.a)
        )
    return False


def press_for(view: View, action: Action) -> str:
    """The next control to press to carry out `action`."""
    kind = action.kind
    if kind == "play":
        return f"pile{action.a}" if view.selected != action.a else side_for(view.player, action.b)
    if kind == "flip":
        return f"pile{action.a}"
    if kind == "move":
        return f"pile{action.a}" if view.selected != action.a else f"pile{action.b}"
    if kind in ("slap", "choose"):
        return side_for(view.player, action.a)
    return "spit"


def first_step(view: View, action: Action) -> bool:
    """Is the next press of `action` its first (picking a card up) rather than its finish?"""
    return action.kind in ("play", "move") and view.selected != action.a


@dataclass(frozen=True)
class Options:
    plays: list[Action]
    flips: list[Action]
    moves: list[Action]

    @property
    def count(self) -> int:
        return len(self.plays) + len(self.flips) + len(self.moves)


def options(view: View) -> Options:
    """Everything useful the bot can do while playing, in the order a player scans: piles left to
    right, and for each its own left spit pile first."""
    order = SCAN_ORDER[view.player]
    spit = view.spit
    sizes = view.my_sizes
    plays: list[Action] = []
    flips: list[Action] = []
    movers: list[int] = []
    space = 0
    for number, code in enumerate(view.mine, start=1):
        if code > 0:
            for index in order:
                top = spit[index]
                if top and (code - top) % 13 in (1, 12):
                    plays.append(Action("play", number, index))
            if sizes[number - 1] >= 2:
                movers.append(number)
        elif code == FACE_DOWN:
            flips.append(Action("flip", number))
        elif not space:
            space = number
    moves = [Action("move", src, space) for src in movers] if space else []
    return Options(plays, flips, moves)


# The spit piles in the order a player looks at them: their own left first.
SCAN_ORDER = {player: (spit_pile_for(player, "left"), spit_pile_for(player, "right")) for player in (1, 2)}


@dataclass(frozen=True)
class Strategy:
    name: str
    chooser: str = "first"  # "first" | "random" | "run"
    slap_smaller: bool = False
    exposure: float = 0.0  # how much a play that lets the opponent cut in is worth less (0..1)
    leave_penalty: float = 0.0  # per play the opponent has on the spit piles a run ends on
    pairs: bool = False  # play a planned run as one quick series
    anticipate: bool = False  # slap at once after playing out its own stock
    patient: bool = False  # the opponent is stuck: turn up every card before playing
    lone_larger: bool = False  # a lone spitter spits onto the larger spit pile
    watch_slap: bool = False  # saw the opponent's last card go too: ready to slap as if it were its own

    def choose(self, view: View, rng: random.Random) -> Plan | None:
        """What to do in this position, or None to wait (nothing to do, or waiting for the other)."""
        phase = view.phase
        if phase == "playing":
            return self._play(view, rng)
        if phase in ("ready", "stalemate"):
            return self._spit(view, rng)
        if phase == "choosing":
            return self._slap(view, rng)
        return None

    # ---------------------------------------------------------------- "Spit!" and slaps

    def _spit(self, view: View, rng: random.Random) -> Plan | None:
        if view.my_spit_cards == 0 or view.called:
            return None
        if view.their_spit_cards == 0 and view.lone_pile < 0:
            return Plan(Action("choose", self._lone_choice(view, rng)), 2)
        return Plan(SPIT)

    def _lone_choice(self, view: View, rng: random.Random) -> int:
        left = spit_pile_for(view.player, "left")
        if self.chooser == "random":
            return rng.randrange(2)
        if self.lone_larger and view.spit_sizes[1 - left] > view.spit_sizes[left]:
            return 1 - left
        return left

    def _slap(self, view: View, rng: random.Random) -> Plan:
        left = spit_pile_for(view.player, "left")
        if self.chooser == "random":
            target = rng.randrange(2)
        elif self.slap_smaller and view.spit_sizes[1 - left] < view.spit_sizes[left]:
            target = 1 - left
        else:
            target = left
        prepared = self.anticipate and (sum(view.my_sizes) == 0 or (self.watch_slap and sum(view.their_sizes) == 0))
        return Plan(Action("slap", target), 2, prepared=prepared)

    # ---------------------------------------------------------------- playing

    def _play(self, view: View, rng: random.Random) -> Plan | None:
        found = options(view)
        n = found.count
        if n == 0:
            return None
        if self.chooser == "random":
            pool = found.plays or found.flips or found.moves
            return Plan(pool[rng.randrange(len(pool))], n)
        if self.chooser == "first" or not found.plays:
            if found.plays:
                return Plan(found.plays[0], n)
            if found.flips:
                return Plan(found.flips[0], n, follow=tuple(found.flips[1:]) if self.pairs else ())
            return Plan(self._best_move(view, found.moves), n)
        if self.patient and found.flips and self._opponent_stuck(view):
            # The opponent can't go: no hurry. Turn up everything first, then plan the run.
            return Plan(found.flips[0], n, follow=tuple(found.flips[1:]))
        run = self._best_run(view)
        return Plan(run[0], n, follow=tuple(run[1:]) if self.pairs else ())

    @staticmethod
    def _best_move(view: View, moves: list[Action]) -> Action:
        """The move into a space that uncovers the most: from the highest pile."""
        return max(moves, key=lambda m: view.my_sizes[m.a - 1])

    @staticmethod
    def _opponent_stuck(view: View) -> bool:
        """The opponent has no card showing that fits, and none face down to turn."""
        return playable_count(view.theirs, view.spit) == 0 and FACE_DOWN not in view.theirs

    def _best_run(self, view: View) -> list[Action]:
        """The best series of plays from the cards showing (at least one play must exist).

        A run is worth one per card, each card after a play that leaves the opponent a card to cut
        in with counting `1 - exposure` less; a run that ends on spit piles the opponent can play
        on loses `leave_penalty` per such play. Cards under the ones played are face down: unknown.
        """
        cards = [(number, code) for number, code in enumerate(view.mine, start=1) if code > 0]
        theirs = [rank for rank in view.theirs if rank > 0]
        exposure, penalty = self.exposure, self.leave_penalty
        memo: dict[tuple[int, int, int], tuple[float, tuple[Action, ...]]] = {}

        watching = bool(theirs) and (exposure > 0 or penalty > 0)
        fitting: dict[int, int] = {}

        def threats(t0: int, t1: int) -> int:
            """How many of the opponent's cards showing fit on spit piles showing t0 and t1."""
            if not watching:
                return 0
            if t0 not in fitting:
                fitting[t0] = sum(1 for r in theirs if fits(r, t0))
            if t1 not in fitting:
                fitting[t1] = sum(1 for r in theirs if fits(r, t1))
            return fitting[t0] + fitting[t1]

        def search(used: int, t0: int, t1: int) -> tuple[float, tuple[Action, ...]]:
            key = (used, t0, t1)
            if key in memo:
                return memo[key]
            best: tuple[float, tuple[Action, ...]] = (-penalty * threats(t0, t1), ())
            for i, (number, rank) in enumerate(cards):
                if used >> i & 1:
                    continue
                for index in (0, 1):
                    if not fits(rank, t1 if index else t0):
                        continue
                    n0, n1 = (t0, rank) if index else (rank, t1)
                    rest, seq = search(used | 1 << i, n0, n1)
                    keep = 1.0 - exposure if threats(n0, n1) else 1.0
                    value = 1.0 + keep * rest
                    if value > best[0] + 1e-9:
                        best = (value, (Action("play", number, index), *seq))
            memo[key] = best
            return best

        order = SCAN_ORDER[view.player]
        root: tuple[float, list[Action]] | None = None
        for i, (number, rank) in enumerate(cards):
            for index in order:
                top = view.spit[index]
                if not fits(rank, top):
                    continue
                n0, n1 = (view.spit[0], rank) if index else (rank, view.spit[1])
                rest, seq = search(1 << i, n0, n1)
                keep = 1.0 - exposure if threats(n0, n1) else 1.0
                value = 1.0 + keep * rest + (0.05 if number == view.selected else 0.0)
                if root is None or value > root[0] + 1e-9:
                    root = (value, [Action("play", number, index), *seq])
        assert root is not None, "best_run needs a play"
        return root[1]


STRATEGIES: dict[str, Strategy] = {
    "first": Strategy("first"),
    "1": Strategy("casual", chooser="random"),
    "2": Strategy("steady", slap_smaller=True),
    "3": Strategy("runs", chooser="run", slap_smaller=True),
    "4": Strategy(
        "watchful", chooser="run", slap_smaller=True, exposure=0.5, leave_penalty=0.3, pairs=True, anticipate=True
    ),
    "5": Strategy(
        "expert",
        chooser="run",
        slap_smaller=True,
        exposure=0.6,
        leave_penalty=0.4,
        pairs=True,
        anticipate=True,
        patient=True,
        lone_larger=True,
        watch_slap=True,
    ),
}
