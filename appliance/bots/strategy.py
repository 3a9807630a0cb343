"""What a computer opponent decides to do next: one of the moves the rules offer, chosen from what it sees.

The rules core says what can be done (`game.legal_actions(player)`); a strategy only chooses among
those, reading the visible view (view.py) and the ruleset's public rules: what fits on a spit pile
(`rules.fits`, to plan runs over the cards it can see), the stock moves (`rules.moves`, to plan how
to uncover a card), whether the goal wants the larger pile (`rules.goal`), and the table. It never
decides by itself what is legal, so it plays every preset and house rule the core plays.

One `Strategy` type; each level switches on more of the strategy notes of the encyclopedia article
(`000_…` in the seeds, digested in RULES.md):

- `first`: the baseline of other open-source Spit games — the first legal card it sees, else turn
  the first face-down card, else rearrange its stock to uncover one; slaps its left pile.
- level 1 (casual): any legal card at random; slaps or chooses any pile at random.
- level 2: first legal card, but slaps for the pile the goal wants (the smaller; Reverse Spit's
  larger).
- level 3: thinks ahead through runs: with 8, 8, 7, 7, 9, 10 showing on a 10, plays 9 then 8, 7,
  8, 7 rather than 9, 10 (the longest run it can see; with alternating colours, a run whose
  colours alternate). In Reverse Spit, where a card played is a card given away, it holds each card
  back a few seconds (unless the opponent is stuck), so the opponent plays out first, then slaps
  for the larger pile.
- level 4: also watches the opponent's cards: prefers runs that leave the opponent nothing to cut
  in with, and plays a planned run as one quick series of moves (the pairs of the article); slaps
  (or calls, where the first call chooses) at once when it has just played its own last card (it
  saw it coming); with hidden last cards (V9) picks them up when it has a moment.
- level 5 (expert): also watches the opponent's last stock card go as closely as its own, so it is
  as ready to slap ("by carefully watching the opponent and timing the attack it is possible to
  win a round despite having more cards", Slap Spit); when the opponent is stuck it plays slowly:
  turns up all its face-down cards first, then plans the run that keeps the opponent stuck longest;
  as a lone spitter it spits onto the larger pile (the smaller stays small for the slap; in Reverse
  Spit the larger grows).

Every level plays every spit pile it can reach: at a table of three or four (V17) the far piles are
in its runs like its own two (scanned after them), and a player who goes out takes the pile the
goal wants (the smallest; the largest in Reverse Spit; level 1 any). Mod Spit's table slap (V18/V19,
`table_slap`): each sight of new tops, a level notices a right slap with its chance (`notice_slap`:
0.25 for level 1 up to always for level 5) and slaps wrongly with another (`wrong_slap`: level 1
now and then, never from level 4); after another's slap the casual levels join in by chance
(`herd_slap`), the thinking ones (3-5) only when it helps (see `Strategy.table_slap`); `first`
never slaps the table. After two wrong slaps the later slapper chooses a pile as it slaps for one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress
from typing import NamedTuple

from ..rules import Action, Card, Ruleset
from ..rules.moves import PLAYS
from ..rules.stock_pile import StockPile
from .view import FACE_DOWN, View, face_up, is_card

CALL = Action("call")
PICK_UP = Action("pick_up")
REARRANGE = ("move", "stack")
MAX_REARRANGEMENTS = 2_000  # positions searched for a way to uncover a card (a few dozen in practice)
# Reverse Spit: how long a player holds each card back before playing it (see `Strategy.hold_back`),
# unless the others are stuck.
HOLD_BACK = 3.0
NOTHING: frozenset[Card] = frozenset()  # what fits on a spit pile with no card


class Plan(NamedTuple):
    action: Action
    choices: int = 1  # how many options the bot weighed (Hick's law)
    follow: tuple[Action, ...] = ()  # moves planned ahead, played as one quick series
    prepared: bool = False  # the bot saw this coming: only the hand has to move
    wait: float = 0.0  # seconds it holds the move back, on top of its reaction time


def scan_order(rules: Ruleset, player: int) -> tuple[int, ...]:
    """The spit piles in the order a player looks at them: their own left first, then right (then
    the far ones, at a bigger table)."""
    table = rules.table
    key = (table.seats, player)
    found = _SCAN_ORDER.get(key)
    if found is None:
        order: list[int] = []
        for side in table.sides():
            index = table.spit_pile_for(player, side)
            if index is not None and index not in order:
                order.append(index)
        found = _SCAN_ORDER[key] = tuple(order)
    return found


_SCAN_ORDER: dict[tuple[int, int], tuple[int, ...]] = {}
_SCAN_RANK: dict[tuple[int, int], dict[int, int]] = {}
_PLAY_ORDER: dict[tuple[int, int], dict[Action, tuple[int, int]]] = {}


def _play_order(rules: Ruleset, player: int) -> dict[Action, tuple[int, int]]:
    """Each play's place in the order a player weighs them: by stock pile, then spit pile in `scan_order`."""
    key = (rules.table.seats, player)
    found = _PLAY_ORDER.get(key)
    if found is None:
        rank = _scan_rank(rules, player)
        found = _PLAY_ORDER[key] = {play: (play.pile, rank.get(play.target, 9)) for row in PLAYS for play in row}
    return found


def _scan_rank(rules: Ruleset, player: int) -> dict[int, int]:
    """Each spit pile's place in the player's `scan_order`."""
    key = (rules.table.seats, player)
    found = _SCAN_RANK.get(key)
    if found is None:
        found = _SCAN_RANK[key] = {index: n for n, index in enumerate(scan_order(rules, player))}
    return found


@dataclass(frozen=True)
class Strategy:
    name: str
    chooser: str = "first"  # "first" | "random" | "run"
    wise_slap: bool = False  # slap (or choose) the pile the goal wants, not just its left
    exposure: float = 0.0  # how much a play that lets the opponent cut in is worth less (0..1)
    leave_penalty: float = 0.0  # per play the opponent has on the spit piles a run ends on
    pairs: bool = False  # play a planned run as one quick series
    anticipate: bool = False  # slap (or call) at once after playing out its own stock
    patient: bool = False  # the opponent is stuck: turn up every card before playing
    lone_larger: bool = False  # a lone spitter spits onto the larger spit pile
    watch_slap: bool = False  # saw the opponent's last card go too: ready to slap as if it were its own
    hide_last: bool = False  # V9: picks up its last cards when it has nothing to play
    hold_back: bool = False  # Reverse Spit: lets the others play out first
    # V18/V19, the table slap: each time the spit piles' tops change, the chance it notices that
    # they meet the rule (and slaps), and the chance it slaps when they don't (a wrong slap);
    # after another player's slap, the chance it slaps too without thinking (the levels that think
    # follow only when it helps: `follow_table_slap`).
    notice_slap: float = 0.0
    wrong_slap: float = 0.0
    herd_slap: float = 0.0

    @property
    def thinks(self) -> bool:
        """Plans runs, and thinks about what a table slap would bring before slapping (levels 3-5)."""
        return self.chooser == "run"

    def table_slap(self, view: View, rules: Ruleset, roll: float) -> bool:
        """V18/V19: slap the table now? `roll` is the bot's one draw (0..1) for this sight of the tops
        (and of who has slapped): it notices, or slaps wrongly, when it falls below the level's chance.

        Whether the tops meet the rule is `view.slap_right`, the rules core's own judgement of the
        tops in sight. What a slap brings (V18, seeds/README.md): a right slap alone makes the other
        take both piles; a wrong one, both yourself. After another's slap, slapping too changes
        nothing if theirs was right (the slower of two right slaps takes both, as does the one who
        did not slap), and if theirs was wrong it turns "the wrong slapper takes both" into "two
        wrong: the later chooses one pile and the other takes the other". So a thinking player
        follows only a wrong slap, and only when it wants cards (Reverse Spit); in Reverse Spit it
        never slaps first either (a right slap gives the other cards)."""
        wants_cards = rules.goal.larger_pile_wanted
        if view.table_slaps:
            if self.thinks:
                return wants_cards and not view.slap_right
            return roll < self.herd_slap
        if wants_cards and self.thinks:
            return False
        return roll < (self.notice_slap if view.slap_right else self.wrong_slap)

    @property
    def watches_others(self) -> bool:
        """Does it ever look at the other players' stock piles? (If not, its view leaves them out.)"""
        return self.exposure > 0 or self.leave_penalty > 0 or self.patient or self.watch_slap or self.hold_back

    def choose(self, view: View, legal: Sequence[Action], rules: Ruleset, rng: random.Random) -> Plan | None:
        """What to do in this position, one of `legal` (the rules' `legal_actions`), or None to wait.

        Whether there is anything to do at all depends only on `legal` and the bot's own stock and
        the spit piles (view.OWN_FIELDS), never on the opponents' cards: the bot does not ask again
        while those stay the same."""
        if not legal:
            return None
        phase = view.phase
        if phase == "choosing" or view.out or view.table_chooser:
            # Piles to choose for a new layout, or a pile to take: going out (V17), or after two
            # wrong table slaps (V18).
            return self._new_layout(view, legal, rules, rng)
        if phase == "playing":
            return self._play(view, legal, rules, rng)
        return self._spit(view, legal, rules, rng)

    # ---------------------------------------------------------------- "Spit!", slaps and choices

    def _spit(self, view: View, legal: Sequence[Action], rules: Ruleset, rng: random.Random) -> Plan | None:
        if CALL in legal:
            return Plan(CALL)
        targets = [a.target for a in legal if a.kind == "choose"]
        if not targets:
            return None
        # A lone spitter chooses the pile it will keep spitting onto.
        order = [i for i in scan_order(rules, view.player) if i in targets]
        if self.chooser == "random":
            target = order[rng.randrange(len(order))]
        elif self.lone_larger:
            target = max(order, key=lambda i: view.spit_sizes[i])  # ties: the first in scan order
        else:
            target = order[0]
        return Plan(Action("choose", target=target), len(order))

    def _new_layout(self, view: View, legal: Sequence[Action], rules: Ruleset, rng: random.Random) -> Plan:
        prepared = self.anticipate and (
            sum(view.my_sizes) == 0 or (self.watch_slap and any(sum(sizes) == 0 for sizes in view.their_sizes)))
        if CALL in legal:  # the first call chooses (V11, V12 with equal piles)
            return Plan(CALL, prepared=prepared)
        kind = legal[0].kind  # `slap` or `choose`
        order = [i for i in scan_order(rules, view.player) if Action(kind, target=i) in legal]
        if self.chooser == "random":
            target = order[rng.randrange(len(order))]
        elif self.wise_slap:
            sizes = view.spit_sizes
            best = max if rules.goal.larger_pile_wanted else min
            target = best(order, key=lambda i: sizes[i])
            wanted = best((size for size in sizes if size), default=0)
            if self.hold_back and sizes[target] != wanted:
                # Slap Spit in Reverse Spit: only the smaller pile may be slapped, and it is the
                # one nobody wants; whoever does not slap takes the larger. Let the other slap.
                return Plan(Action(kind, target=target), max(2, len(order)), wait=HOLD_BACK)
        else:
            target = order[0]
        return Plan(Action(kind, target=target), max(2, len(order)), prepared=prepared)

    # ---------------------------------------------------------------- playing

    def _play(self, view: View, legal: Sequence[Action], rules: Ruleset, rng: random.Random) -> Plan | None:
        plays: list[Action] = []
        flips: list[Action] = []  # lift: V16, carry the top off, turn the card under it
        pick_up = rearrange = False
        for action in legal:  # (one plain loop: this runs at most presses of a simulated game)
            kind = action.kind
            if kind == "play":
                plays.append(action)
            elif kind == "flip" or kind == "lift":
                flips.append(action)
            elif kind in REARRANGE:
                rearrange = True
            elif action == PICK_UP:
                pick_up = True
        if len(plays) > 1:  # by stock pile, then the spit piles in the order the player looks at them
            plays.sort(key=_play_order(rules, view.player).__getitem__)
        n = len(legal) - pick_up
        if plays:
            if self.chooser == "random":
                return Plan(plays[rng.randrange(len(plays))], n)
            if self.chooser == "first":
                return Plan(plays[0], n)
            if self.patient and flips and self._opponent_stuck(view, rules):
                # The opponent can't go: no hurry. Turn up everything first, then plan the run.
                return Plan(flips[0], n, follow=tuple(flips[1:]))
            run = self._best_run(view, plays, rules)
            if self.hold_back and rules.goal.larger_pile_wanted and not self._opponent_stuck(view, rules):
                # Reverse Spit: every card played is a card given to the middle, and whoever plays
                # out first only gets the larger pile back (down to one spit pile, nothing at all:
                # the other picks it up). So let the others play: each card waits a few seconds
                # (the others play theirs meanwhile), unless they are stuck.
                return Plan(run[0], n, wait=HOLD_BACK)
            return Plan(run[0], n, follow=tuple(run[1:]) if self.pairs else ())
        if flips:
            if self.chooser == "random":
                return Plan(flips[rng.randrange(len(flips))], n)
            return Plan(flips[0], n, follow=tuple(flips[1:]) if self.pairs else ())
        if self.hide_last and pick_up:
            return Plan(PICK_UP, n)
        if rearrange:
            path = uncover(view, rules)
            if path and path[0] in legal:  # (it always is where legal_actions searches the same moves)
                return Plan(path[0], n, follow=tuple(path[1:]) if self.pairs else ())
        return None

    @staticmethod
    def _opponent_stuck(view: View, rules: Ruleset) -> bool:
        """Nobody else has a card showing that fits, nor a face-down card to turn (or a hidden one)."""
        fitting = rules.fits.fitting  # what fits on each top, as the ruleset's `fits` says
        fit_sets = [fitting[top] for top in view.spit if is_card(top)]
        for stock in view.theirs:
            for code in stock:
                if code == FACE_DOWN:
                    return False
                if is_card(code):
                    for fit in fit_sets:
                        if code in fit:
                            return False
        return True

    def _best_run(self, view: View, plays: Sequence[Action], rules: Ruleset) -> list[Action]:
        """The best series of plays from the cards showing, starting with one of `plays`.

        A run is worth one per card, each card after a play that leaves the opponent a card to cut
        in with counting `1 - exposure` less; a run that ends on spit piles the opponent can play
        on loses `leave_penalty` per such play. Cards under the ones played are unknown: a run uses
        only the top cards showing now, and what fits is the ruleset's own `fits`.
        """
        fitting = rules.fits.fitting  # what fits on each top, as the ruleset's `fits` says
        # (Plain loops, `len(code) > 1` for is_card: this runs for most of the expert's plays.)
        numbers: list[int] = []  # my cards showing: their stock piles ...
        codes: list[Card] = []  # ... and the cards
        carried = view.carried
        under = view.held[0] if carried else 0  # V16: the card in hand stands for its pile (what lies under it waits)
        for number, code in enumerate(view.mine, start=1):
            if len(code) > 1 and number != under:
                numbers.append(number)
                codes.append(code)
        if carried:
            numbers.append(under)
            codes.append(carried)
        spit = view.spit
        if len(plays) == 1:
            # One play, and often nothing to follow it: no card of mine fits on the tops it leaves.
            # Then the run is that play alone, whatever it is worth (the search finds no more).
            play = plays[0]
            i, target = numbers.index(play.pile), play.target
            followed = False
            for top in (*spit[:target], codes[i], *spit[target + 1:]):
                if len(top) > 1:
                    fit = fitting[top]
                    for j, code in enumerate(codes):
                        if j != i and code in fit:
                            followed = True
            if not followed:
                return [play]
        theirs: list[Card] = []
        for stock in view.theirs:
            for code in stock:
                if len(code) > 1:
                    theirs.append(code)
        exposure, penalty = self.exposure, self.leave_penalty
        watching = bool(theirs) and (exposure > 0 or penalty > 0)
        exposed = 1.0 - exposure  # what a card played is worth when it leaves the opponent a card to cut in
        # For each top a spit pile shows during a run (what is there now, or one of my cards): which
        # of my cards fit on it (a bit per card) and how many of the opponents' cards do.
        fit_masks: dict[Card, int] = {}
        threat: dict[Card, int] = {}
        threat_of: dict[tuple[Card, ...], int] = {}
        bits = [1 << i for i in range(len(codes))]
        moves = [PLAYS[number] for number in numbers]  # moves[i][index]: card i onto spit pile `index`
        memo: dict[tuple[int, tuple[Card, ...]], tuple[float, tuple[Action, ...]]] = {}
        piles = range(len(view.spit))

        def fit_mask(top: Card) -> int:
            fit = fitting[top] if len(top) > 1 else NOTHING
            mask = fit_masks[top] = sum(compress(bits, map(fit.__contains__, codes)))
            return mask

        def threats(tops: tuple[Card, ...]) -> int:
            """How many of the opponents' cards showing fit on spit piles showing `tops`."""
            if not watching:
                return 0
            total = threat_of.get(tops)
            if total is None:
                total = 0
                for top in tops:
                    count = threat.get(top)
                    if count is None:
                        fit = fitting[top] if len(top) > 1 else NOTHING
                        count = threat[top] = sum(map(fit.__contains__, theirs))
                    total += count
                threat_of[tops] = total
            return total

        def search(used: int, tops: tuple[Card, ...]) -> tuple[float, tuple[Action, ...]]:
            key = (used, tops)
            found = memo.get(key)
            if found is not None:
                return found
            value_now = -penalty * threats(tops)
            seq_now: tuple[Action, ...] = ()
            masks: list[int] = []
            free = 0
            for top in tops:
                mask = fit_masks.get(top)
                if mask is None:
                    mask = fit_mask(top)
                masks.append(mask)
                free |= mask
            free &= ~used  # my cards still showing that fit some pile
            i = 0
            while free:
                bit = 1 << i
                if free & bit:
                    free ^= bit
                    card = codes[i]
                    for index in piles:
                        if not masks[index] & bit:
                            continue
                        after = (*tops[:index], card, *tops[index + 1:])
                        rest, seq = search(used | bit, after)
                        value = 1.0 + (exposed if watching and threats(after) else 1.0) * rest
                        if value > value_now + 1e-9:
                            value_now, seq_now = value, (moves[i][index], *seq)
                i += 1
            memo[key] = found = (value_now, seq_now)
            return found

        root: tuple[float, list[Action]] | None = None
        held = view.held
        for play in plays:
            i = numbers.index(play.pile)
            target = play.target
            after = (*spit[:target], codes[i], *spit[target + 1:])
            rest, seq = search(1 << i, after)
            keep = exposed if watching and threats(after) else 1.0
            value = 1.0 + keep * rest + (0.05 if play.pile in held else 0.0)
            if root is None or value > root[0] + 1e-9:
                root = (value, [play, *seq])
        assert root is not None, "best_run needs a play"
        return root[1]


def uncover(view: View, rules: Ruleset) -> list[Action]:
    """The shortest series of stock rearrangements (moves into spaces, V7 stacking) after which a
    face-down card can be turned (V16: lifted to), or a card showing fits a spit pile; [] if none.

    Searched over the bot's own stock as it sees it (face-down cards unknown; a card carried off a
    pile, V16, counted back on it, as the rules' stalemate test counts it), with the ruleset's own
    `moves` and `fits`: the same moves `legal_actions` offers, so the first step is one of them.
    """
    moves = rules.moves
    lifts = moves.carry
    fitting = [rules.fits.fitting[top] for top in view.spit if is_card(top)]  # what fits on each top

    def shows_progress(pile: StockPile) -> bool:
        cards = pile.cards
        if not cards:
            return False
        if pile.up == 0 or (lifts and pile.up == 1 and len(cards) > 1):
            return True  # a face-down top to turn, or (V16) a top a runner lifts to turn the one under it
        card = cards[-1]
        return any(card in fit for fit in fitting)

    start = [StockPile([FACE_DOWN] * (size - len(up)) + list(up), len(up))
             for size, up in zip(view.my_sizes, face_up(view), strict=True)]
    if view.carried:  # V16: the card in the runner's hand can go back on its pile, or into a space
        start[view.held[0] - 1].put_face_up(view.carried)
    # Every stock searched from shows no progress (the start is checked here; the others were
    # checked before they were searched from), so a rearrangement shows progress exactly where one
    # of the two piles it changes does. The piles it leaves alone are shared, never changed.
    for pile in start:
        if shows_progress(pile):
            return next(([action] for action in moves.rearrangements(start)), [])
    start_key = _key(start)
    seen = {start_key}
    frontier: list[tuple[list[StockPile], tuple[tuple[tuple[Card, ...], int], ...], list[Action]]] = [
        (start, start_key, [])]
    while frontier:
        following: list[tuple[list[StockPile], tuple[tuple[tuple[Card, ...], int], ...], list[Action]]] = []
        for stock, key, path in frontier:
            for action in moves.rearrangements(stock):
                a, b = action.pile - 1, action.target - 1
                source, target = stock[a], stock[b]
                moved, taken = source.cards[-1], StockPile(source.cards[:-1], max(0, source.up - 1))  # take_top
                put = StockPile([*target.cards, moved], target.up + 1)  # put_face_up
                if shows_progress(taken) or shows_progress(put):
                    return [*path, action]
                after = list(stock)
                after[a], after[b] = taken, put
                after_key = list(key)
                after_key[a], after_key[b] = (tuple(taken.cards), taken.up), (tuple(put.cards), put.up)
                new_key = tuple(after_key)
                if new_key in seen or len(seen) >= MAX_REARRANGEMENTS:
                    continue
                seen.add(new_key)
                following.append((after, new_key, [*path, action]))
        frontier = following
    return []


def _key(stock: list[StockPile]) -> tuple[tuple[tuple[Card, ...], int], ...]:
    return tuple((tuple(pile.cards), pile.up) for pile in stock)


STRATEGIES: dict[str, Strategy] = {
    "first": Strategy("first"),
    "1": Strategy("casual", chooser="random", notice_slap=0.25, wrong_slap=0.05, herd_slap=0.5),
    "2": Strategy("steady", wise_slap=True, notice_slap=0.5, wrong_slap=0.02, herd_slap=0.25),
    "3": Strategy("runs", chooser="run", wise_slap=True, hold_back=True, notice_slap=0.7, wrong_slap=0.01),
    "4": Strategy(
        "watchful", chooser="run", wise_slap=True, exposure=0.5, leave_penalty=0.3, pairs=True, anticipate=True,
        hide_last=True, hold_back=True, notice_slap=0.85,
    ),
    "5": Strategy(
        "expert",
        chooser="run",
        wise_slap=True,
        exposure=0.6,
        leave_penalty=0.4,
        pairs=True,
        anticipate=True,
        patient=True,
        lone_larger=True,
        watch_slap=True,
        hide_last=True,
        hold_back=True,
        notice_slap=1.0,
    ),
}
