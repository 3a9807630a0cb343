"""The Spit engine: a game's state and what each press does to it, for every ruleset of the family.

Deterministic and clock-free: time arrives on every press (`t`, seconds since the setup) or with
`advance(t)`, the only randomness is the game's own seeded RNG, and a press never raises: what
can't be done comes back as a `reject` event with a reason. The caller applies presses in order of
`t`; a press older than the last one applied is applied now, at the last time (`Game.now`), so
every event's `t` is the time it took effect and the journal stays in the order the game saw.

The engine knows seats and spit piles by count (its `Table`) and asks its `Ruleset`'s policies
for everything a variant changes: the layout, what fits, the stock moves, how piles are chosen,
and the goal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from .actions import CALL, Action
from .cards import Card, deck, rank_of
from .carry import lift_presses, seat_in_reach, under
from .choosing import Prompt as ChoosingPrompt
from .choosing import SlapForIt
from .events import (
    Call,
    Choose,
    Deal,
    Deselect,
    Event,
    Flip,
    GameOver,
    Move,
    PickUp,
    Play,
    Refill,
    Reject,
    Reveal,
    RoundOver,
    Select,
    Slap,
    Stack,
    Stalemate,
    Take,
)
from .house_rule import HouseRule
from .house_rule import Prompt as HousePrompt
from .house_rule import Verdict as HouseVerdict
from .race import Race, clock, misfit
from .round_end import FirstOutEndsTheRound, RoundEnd
from .ruleset import CLASSIC, Ruleset
from .seat import Seat
from .stalemate import progress_by_rearranging
from .stock_actions import stock_actions, tops_of, turns_and_plays
from .stock_pile import StockPile
from .table import SIDES, Table
from .terms import Control, Phase, Reason

PHASES: tuple[Phase, ...] = tuple(Phase)
# The phases by their own names here: on Python 3.11 each `Phase.X` goes through the Enum metaclass's
# `__getattr__` hook (0.15 µs, where a global takes 0.02), and every press asks the phase a few times.
READY, PLAYING, STALEMATE, CHOOSING, OVER = PHASES
# Every control of the family; a game that has no use for one rejects it (`not_in_this_game`,
# or `no_pile` for a far spit pile at a table of two).
CONTROLS: tuple[Control, ...] = tuple(Control)
_CONTROL_SET = frozenset(CONTROLS)
SNAPSHOT_VERSION = 1  # of `Game.snapshot` (state.restore reads it back)
R = TypeVar("R")  # `control in CONTROLS`, asked at every press, in one look-up


def copy_rng(rng: random.Random) -> random.Random:
    """A generator of its own that draws what `rng` would draw next (made without seeding it first:
    `Random()` reads the OS's entropy, three times the cost of the copy itself)."""
    twin = random.Random.__new__(random.Random)
    twin.setstate(rng.getstate())
    return twin


def _uncovered(pile: StockPile) -> bool:
    """Did taking a card off `pile` leave a face-down card on top? Then its player can turn it, and
    nobody is stuck: no need to ask `after_change` (it would find that card, and change nothing)."""
    return bool(pile.cards) and not pile.up


@dataclass
class Game:
    rules: Ruleset
    players: list[Seat]
    spit_piles: list[list[Card]]
    phase: Phase = READY
    round: int = 1
    winner: int | None = None
    lone_pile: int | None = None  # the pile a lone spitter chose (rule 7), until the next layout
    seed: int = 0
    now: float = 0.0
    rng: random.Random = field(default_factory=random.Random)
    races: list[Race | None] = field(default_factory=list)
    choosing: SlapForIt = field(default_factory=SlapForIt)  # how piles are chosen, and its state (V10-V12)
    round_end: RoundEnd = field(default_factory=FirstOutEndsTheRound)  # how a round ends, and its state (V17)
    house: tuple[HouseRule, ...] = ()  # the house rules in force, each holding its own state (V13, V14, V18)

    def __post_init__(self) -> None:
        if not self.races:
            self.races = [None] * len(self.spit_piles)
        if not self.house:
            self.house = self.rules.start_house()
        if type(self.choosing) is not self.rules.choosing:
            self.choosing = self.rules.choosing()
        if type(self.round_end) is not self.rules.round_end:
            self.round_end = self.rules.round_end()

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, seed: int = 0, rules: Ruleset = CLASSIC) -> tuple[Game, list[Event]]:
        """A seeded deal: shuffle, deal the cards one at a time round the table, each player lays out."""
        rng = random.Random(seed)
        cards = deck(rules.options.decks)
        rng.shuffle(cards)
        seats = rules.table.seats
        players = []
        for p in range(seats):
            stock, spit_cards = rules.layout.deal(cards[p::seats])
            players.append(Seat(stock, spit_cards))
        game = cls(rules=rules, players=players, spit_piles=[[] for _ in range(rules.table.spit_piles)],
                   seed=seed, rng=rng)
        for rule in game.house:
            rule.begin(game, rng)
        return game, [game._deal_event(0.0)]

    # ------------------------------------------------------------------ reading

    @property
    def table(self) -> Table:
        return self.rules.table

    @property
    def variant(self) -> str:
        return self.rules.variant

    @property
    def decks(self) -> int:
        return self.rules.options.decks

    @property
    def chooser(self) -> int | None:
        """Who chooses the pile at this new layout (V10-V12), as the choosing rule says."""
        return self.choosing.chooser

    def house_rule(self, kind: type[R]) -> R | None:
        """The house rule of this kind in force in this game (its state with it), or None."""
        for rule in self.house:
            if isinstance(rule, kind):
                return rule
        return None

    def copy(self) -> Game:
        """A game of its own that goes on exactly as this one would, played on without changing this
        one (as python-chess's `Board.copy`): every field carried over, and each thing a press changes
        (seats, spit piles, the RNG, the policies' and house rules' state) copied. The ruleset, the
        cards (strings) and the races (values) are shared. It cannot fail: nothing is checked or
        parsed, unlike `state.restore` of a snapshot, so a rollback starts from it."""
        return replace(
            self,
            players=[seat.copy() for seat in self.players],
            spit_piles=[list(pile) for pile in self.spit_piles],
            rng=copy_rng(self.rng),
            races=list(self.races),
            choosing=self.choosing.copy(),
            round_end=self.round_end.copy(),
            house=tuple(rule.copy() for rule in self.house),
        )

    def snapshot(self) -> dict[str, Any]:
        """Everything this game holds, JSON-ready: `state.restore` gives back a game that goes on
        identically (the state object, with each house rule's part, plus the clock, the RNG's state,
        the races on each spit pile, the last settling slap and each seat's card kept for a retry)."""
        version, internal, gauss = self.rng.getstate()
        race = self.choosing.settled
        return {
            "snapshot": SNAPSHOT_VERSION,
            "variant": self.rules.variant,
            "options": self.rules.options_json(),
            "seed": self.seed,
            "now": self.now,
            "state": self.state(),
            "rng": [version, list(internal), gauss],
            "races": [None if r is None else [r.t, r.player, r.covered] for r in self.races],
            "slap_race": None if race is None else [race.t, race.player, sorted(race.taken.items())],
            "chooser_t": self.choosing.chooser_t,
            "retry": [seat.retry for seat in self.players],
        }

    def player(self, number: int) -> Seat:
        return self.players[number - 1]

    def pile_controls(self, player: int) -> int:
        """How many `pileN` controls mean something to `player`: their stock piles."""
        return len(self.player(player).stock)

    def can_progress(self, number: int) -> bool:
        """Can player `number` turn or play a card, now or after rearranging their stock (rule 6)?"""
        me = self.player(number)
        tops = tops_of(self.spit_piles, self.rules.fits.fitting)
        return bool(turns_and_plays(me.stock, tops, me.carried, under(me), first=True)) or \
            progress_by_rearranging(seat_in_reach(me), tops, self.rules.moves)

    def spitters(self) -> list[int]:
        """Players still in the round who hold spit cards."""
        return [n for n, p in enumerate(self.players, start=1) if p.spit_cards and p.playing]

    def lone_spitter(self) -> int | None:
        """The one player who still holds spit cards, when the others have none."""
        spitters = self.spitters()
        return spitters[0] if len(spitters) == 1 else None

    def state(self) -> dict[str, Any]:
        """The state object of the script format, as a fresh JSON-ready dict."""
        rules = self.rules
        out: dict[str, Any] = {"variant": rules.variant}
        if not rules.plain_classic:
            out["options"] = rules.options_json()
        out.update({
            "phase": self.phase,
            "round": self.round,
            "winner": self.winner,
            "spit_piles": [list(pile) for pile in self.spit_piles],
            "players": [self._seat_state(p) for p in self.players],
            "lone_pile": self.lone_pile,
        })
        if self.choosing.chooser is not None:
            out["chooser"] = self.choosing.chooser
        out.update(self.round_end.state_part())  # (V17: who is out and still to choose)
        for house_rule in self.house:
            out[house_rule.key] = house_rule.to_state()
        return out

    def spit_values(self) -> list[int] | None:
        """The two spit piles' top values (A=1 ... K=13), or None unless both piles show a card."""
        tops = [pile[-1] for pile in self.spit_piles if pile]
        return [rank_of(card) for card in tops] if len(tops) == 2 == len(self.spit_piles) else None

    def _seat_state(self, p: Seat) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stock": [pile.to_json() for pile in p.stock],
            "spit_cards": list(p.spit_cards),
            "selected": p.selected,
            "called": p.called,
        }
        if self.rules.moves.hands > 1:
            out["second"] = p.second
        if self.rules.moves.pick_up is not None:
            out["hidden"] = p.hidden
        if self.table.seats > 2:
            out["out"] = p.out
            out["taken"] = list(p.taken)
        out.update(self.rules.moves.holding.seat_part(p))  # (V16: the card carried, the next runner)
        return out

    def all_cards(self) -> list[Card]:
        cards = [card for pile in self.spit_piles for card in pile]
        for rule in self.house:
            cards += rule.cards()
        for p in self.players:
            cards += p.all_cards()
        return cards

    # ------------------------------------------------------------------ what can be done

    def legal_actions(self, player: int, tops: Sequence[Card | None] | None = None) -> list[Action]:
        """Everything `player` can do now that changes the game (not selecting and deselecting).

        The one source of what can be played: the computer players choose from it, the screen's
        assist lights its `play` ones, and the stalemate test asks the same function of the stock
        (stock_actions.py). `tops`: each spit pile's top as the player sees it (None: an empty pile),
        where that is not yet the game's (the screen: a card on its way counts when it lands)."""
        me = self.players[player - 1]
        phase = self.phase
        for rule in self.house:  # a house rule that has its say (a race for a card: only the slap)
            allowed = rule.actions(self, player)
            if allowed is not None:
                return allowed
        if me.out:  # (not playing)
            if self.phase in (PLAYING, STALEMATE) and self.round_end.may_choose_now(self, player):
                return [Action("choose", target=i) for i, pile in enumerate(self.spit_piles) if pile]
            return []
        if phase == CHOOSING:
            return self.choosing.actions(self, player)
        waiting: list[Action] = []  # what house rules offer beside the game's own moves (V18: the slap)
        held = False  # a house rule holds play (V18: a table slap is being judged)
        for rule in self.house:
            waiting += rule.also(self, player)
            held = held or rule.holds_play()
        if phase in (READY, STALEMATE):
            if not me.spit_cards or me.called or held:
                return waiting
            if self.lone_spitter() == player and self.lone_pile is None:
                return waiting + [Action("choose", target=i) for i in range(len(self.spit_piles))
                                  if i in self._reachable(player)]
            return [*waiting, CALL]
        if phase != PLAYING:
            return []
        fitting = self.rules.fits.fitting
        if held:  # a table slap waits to be judged: nothing is played until then (cards are turned)
            showing = []
        elif tops is None:
            showing = tops_of(self.spit_piles, fitting)
        else:
            showing = [(i, fitting[top]) for i, top in enumerate(tops) if top is not None]
        moves = self.rules.moves
        actions = waiting + stock_actions(me.stock, showing, moves, me.carried, under(me))
        pick_up = moves.pick_up
        if pick_up is not None and not me.hidden and pick_up.allowed(me.stock):
            actions.append(Action("pick_up"))
        return actions

    def presses_for(self, player: int, action: Action) -> list[str]:
        """The presses that do `action` for `player` from where their hands are now."""
        me = self.player(player)
        kind = action.kind
        if kind == "play":
            side = self.table.side_for(player, action.target)
            return [side] if me.selected == action.pile else [f"pile{action.pile}", side]
        if kind == "flip":
            return [f"pile{action.pile}"]
        if kind == "lift":  # V16: pick the top card up (if not carried already), then turn the one under it
            return lift_presses(me, action.pile)
        if kind in ("move", "stack"):
            first = [] if me.selected == action.pile else [f"pile{action.pile}"]
            return [*first, f"pile{action.target}"]
        if kind in ("choose", "slap"):
            return [self.table.side_for(player, action.target)]
        if kind == "slap_table":
            return ["slap"]
        return ["spit"]  # call, pick_up

    def _reachable(self, player: int) -> set[int]:
        return {i for side in self.table.sides() if (i := self.table.spit_pile_for(player, side)) is not None}

    # ------------------------------------------------------------------ pressing

    def press(self, t: float, player: int, control: str) -> list[Event]:
        """Apply one press at time `t`; return what happened. Never raises for any input."""
        t = float(t)  # self._clock(t), written out: this is the engine's busiest path
        if not t >= self.now:
            t = self.now
        self.now = t
        if not (isinstance(player, int) and 1 <= player <= len(self.players)
                and isinstance(control, str) and control in _CONTROL_SET):
            return [Reject(t, player, control, Reason.UNKNOWN_PRESS)]
        me = self.players[player - 1]
        retry = me.retry  # (only the press right after a failed play is a retry)
        if retry is not None:
            me.retry = None
        events: list[Event] = []
        if self.house:
            self._close_windows(events, t)  # (no window is open otherwise: `deadline` is None)
        if self.phase == OVER:
            self.reject(events, t, player, control, Reason.GAME_OVER)
        elif me.out:  # (not playing)
            self._out_press(events, t, player, control)
        elif self.house and self._house_press(events, t, player, control):
            pass  # a house rule took it (a slap for its card, or nothing but the slap while it is raced for)
        elif control == "slap":  # (no house rule here slaps)
            self.reject(events, t, player, "slap", Reason.NOT_IN_THIS_GAME)
        elif control == "spit":
            self._spit_press(events, t, player)
        elif control in SIDES:
            index = self.rules.table.spit_pile_for(player, control)
            if index is None:
                self.reject(events, t, player, control, Reason.NO_PILE)
            else:
                self._side_press(events, t, player, control, index)
        else:
            self._pile_press(events, t, player, int(control[4:]), retry)
        return events

    def _out_press(self, events: list[Event], t: float, player: int, control: str) -> None:
        """V17: a player out of the round presses a spit pile to take it, once; nothing else."""
        index = self.table.spit_pile_for(player, control) if control in SIDES else None
        if index is None or not self.round_end.may_choose_now(self, player):
            self.reject(events, t, player, control, Reason.SITTING_OUT)
        elif not self.spit_piles[index]:
            self.reject(events, t, player, control, Reason.NO_PILE, spit_pile=index)
        else:
            self.round_end.take(self, events, t, player, index)

    def advance(self, t: float) -> list[Event]:
        """Time passes without a press (a `{"t": ...}` line): windows that close by `t` resolve."""
        t = self._clock(t)
        events: list[Event] = []
        self._close_windows(events, t)
        return events

    def _house_press(self, events: list[Event], t: float, player: int, control: str) -> bool:
        return any(rule.press(self, events, t, player, control) for rule in self.house)

    def _close_windows(self, events: list[Event], t: float) -> None:
        for rule in self.house:
            deadline = rule.deadline()
            if deadline is not None:
                if t > deadline:
                    rule.close(self, events, t)
                return

    def deadline(self) -> float | None:
        """When time passing alone would decide something (a house rule's race, a table slap's
        window closing), or None."""
        for rule in self.house:
            deadline = rule.deadline()
            if deadline is not None:
                return deadline
        return None

    def _clock(self, t: float) -> float:
        self.now = clock(self.now, t)
        return self.now

    def settle(self, t: float = 0.0) -> list[Event]:
        """After a setup from an explicit position: move on if nobody can play (stalemate, block)."""
        events: list[Event] = []
        if self.phase == PLAYING:
            self.after_change(events, t)
        return events

    def reject(self, events: list[Event], t: float, player: int, control: str, reason: Reason,
               **detail: Any) -> None:
        events.append(Reject(t, player, control, reason, **detail))

    # ------------------------------------------------------------------ presses by control

    def _pile_press(self, events: list[Event], t: float, player: int, number: int, retry: int | None = None) -> None:
        """A stock pile pressed: turn its card, take it in hand, let it go, or put the card held on it.
        Right after a play of the card held failed (`retry`), pressing its pile again picks it up again
        (it stays in hand): the player tries again, pile then spit pile, as they did the first time."""
        me = self.players[player - 1]
        if self.phase == CHOOSING:
            self.reject(events, t, player, f"pile{number}", Reason.WRONG_PHASE)
            return
        if number > len(me.stock):
            self.reject(events, t, player, f"pile{number}", Reason.NO_PILE)
            return
        pile = me.stock[number - 1]
        held = me.selected
        if pile.cards and not pile.up:  # (pile.face_down_top)
            if self.phase != PLAYING:  # no turning cards before "Spit!"
                self.reject(events, t, player, f"pile{number}", Reason.WRONG_PHASE)
                return
            pile.up = 1
            events.append(Flip(t, player, number, pile.cards[-1]))
            self.after_change(events, t)
        elif number == retry and (number == held or number == me.second):  # tried again: still in hand
            events.append(Select(t, player, number, me.held_card(number)))
        elif held is not None and (number == held or number == me.second):  # (number in me.held())
            me.release(number)
            events.append(Deselect(t, player, number))
        elif held is not None and not pile.cards:
            card = me.take_held(held)
            pile.put_face_up(card)
            events.append(Move(t, player, held, number, card))
            source = me.stock[held - 1]
            me.release(held)
            if not _uncovered(source):
                self.after_change(events, t)  # a move can use up the last space that kept a card in reach
        elif held is not None and self.rules.moves.can_stack(me.held_card(held), pile):
            card = me.take_held(held)
            pile.put_face_up(card)
            events.append(Stack(t, player, held, number, card))
            me.release(held)
            self.after_change(events, t)
        elif pile.cards:
            card = pile.cards[-1]
            back = self.rules.moves.hold(me, number)  # (V16: a card carried goes back on its pile first)
            if back is not None:
                events.append(Deselect(t, player, back))
            events.append(Select(t, player, number, card))
        else:
            self.reject(events, t, player, f"pile{number}", Reason.NO_CARD)

    def _side_press(self, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        race = self.choosing.settled
        if self.phase == PLAYING:
            self._play(events, t, player, side, index)
        elif self.phase == CHOOSING:
            self.choosing.side_press(self, events, t, player, side, index)
        elif (self.phase == READY and race is not None and race.player != player
                and t - race.t <= self.rules.slap_window):
            # A slap just after the first one, which settled the piles and dealt: on the pile this
            # player was given it is a slap like any other; on another pile it lost the race.
            by_ms = round((t - race.t) * 1000, 3)
            if race.taken.get(player) == index:
                events.append(Slap(t, player, index, after_ms=by_ms))
            else:
                self.reject(events, t, player, side, Reason.TOO_LATE, spit_pile=index, winner=race.player, by_ms=by_ms)
        elif self.lone_spitter() == player:
            if self.lone_pile is None:
                self.lone_pile = index
                events.append(Choose(t, player, index))
                self._call(events, t, player)
            elif index == self.lone_pile:
                self._call(events, t, player)
            else:
                self.reject(events, t, player, side, Reason.WRONG_PILE, spit_pile=self.lone_pile)
        else:
            self.reject(events, t, player, side, Reason.WRONG_PHASE)

    def _spit_press(self, events: list[Event], t: float, player: int) -> None:
        if self.phase == CHOOSING:
            self.choosing.spit_press(self, events, t, player)
        elif self.phase == PLAYING:
            self._pick_up(events, t, player)
        elif self.phase not in (READY, STALEMATE):
            self.reject(events, t, player, "spit", Reason.WRONG_PHASE)
        elif not self.player(player).spit_cards:
            self.reject(events, t, player, "spit", Reason.NO_SPIT_CARDS)
        elif self.lone_spitter() == player and self.lone_pile is None:
            self.reject(events, t, player, "spit", Reason.CHOOSE_PILE)
        else:
            self._call(events, t, player)

    def _pick_up(self, events: list[Event], t: float, player: int) -> None:
        me = self.player(player)
        pick_up = self.rules.moves.pick_up
        if pick_up is None:
            self.reject(events, t, player, "spit", Reason.WRONG_PHASE)
        elif me.hidden or not pick_up.allowed(me.stock):
            self.reject(events, t, player, "spit", Reason.CANNOT_PICK_UP)
        else:
            me.hidden = True
            events.append(PickUp(t, player, me.stock_count()))

    # ------------------------------------------------------------------ "Spit!"

    def _call(self, events: list[Event], t: float, player: int) -> None:
        me = self.player(player)
        if self.house and self._play_held():
            self.reject(events, t, player, "spit", Reason.TABLE_SLAPPED)
            return
        if me.called:
            self.reject(events, t, player, "spit", Reason.ALREADY_CALLED)
            return
        me.called = True
        self.choosing.called()
        events.append(Call(t, player))
        spitters = self.spitters()
        if all(self.player(n).called for n in spitters):
            self._reveal(events, t, spitters)

    def _reveal(self, events: list[Event], t: float, spitters: list[int]) -> None:
        for number in spitters:
            me = self.player(number)
            index = self.lone_pile if len(spitters) == 1 and self.lone_pile is not None \
                else self.table.starting_pile(number)
            card = me.spit_cards.pop(0)
            self.spit_piles[index].append(card)
            self.races[index] = None
            events.append(Reveal(t, number, card, index))
        for p in self.players:
            p.called = False
        for rule in self.house:
            rule.revealed(self, events, t)
        self.phase = PLAYING
        self.after_change(events, t)

    # ------------------------------------------------------------------ playing a card

    def _play(self, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        me = self.players[player - 1]
        held = me.held()
        if not held:
            self.reject(events, t, player, side, Reason.NOTHING_SELECTED)
            return
        holding = self.rules.moves.holding
        me.retry = holding.retry(held)  # should it not go, the card stays in hand for a retry
        spit_pile = self.spit_piles[index]
        if not spit_pile:
            self.reject(events, t, player, side, Reason.NO_PILE, spit_pile=index)
            return
        if self.house and self._play_held():
            self.reject(events, t, player, side, Reason.TABLE_SLAPPED, spit_pile=index)
            return
        top = spit_pile[-1]
        fit = self.rules.fits.fitting[top]
        number = None
        for n in held:  # the first card held that fits
            if me.held_card(n) in fit:
                number = n
                break
        if number is None:
            card = me.held_card(held[0])
            events.append(misfit(self.races[index], t, player, side, card, index, top, self.rules.race_window,
                                 self.rules.fits.fits, self.rules.fits.misfit(card, top)))
            return
        me.retry = None
        card = me.take_held(number)
        spit_pile.append(card)
        self.races[index] = Race(t, player, top)
        events.append(Play(t, player, number, card, index, top))
        me.release(number)
        holding.landed(me, player)  # (V16: the team's next runner runs)
        refill = self.rules.layout.after_play(me, number)
        if refill is not None:
            events.append(Refill(t, player, number, refill))
        if not any([pile.cards for pile in me.stock]):  # (me.stock_count() == 0: the card in hand was played)
            self.round_end.stock_out(self, events, t, player)
        elif not _uncovered(me.stock[number - 1]):
            self.after_change(events, t)

    def after_change(self, events: list[Event], t: float) -> None:
        """After anything that changes what can be played: is the game stuck?"""
        if self.phase != PLAYING:
            return
        players = self.players
        tops = tops_of(self.spit_piles, self.rules.fits.fitting)
        for p in players:
            # The common answers first, with no search: a card to turn or to play, as things lie.
            if p.out:  # (not playing)
                continue
            if turns_and_plays(p.stock, tops, p.carried, under(p), first=True):
                return
        # Nobody can play or turn a card as things lie: can anybody after rearranging their stock?
        moves = self.rules.moves
        for p in players:
            if p.playing and progress_by_rearranging(seat_in_reach(p), tops, moves):
                return
        if self.spitters():
            self.phase = STALEMATE
            for p in self.players:
                p.called = False
            events.append(Stalemate(t, self.spitters()))
        else:
            self.round_end.blocked(self, events, t)

    # ------------------------------------------------------------------ what house rules ask of the engine

    def _play_held(self) -> bool:
        """Does a house rule hold play (V18: a table slap is being judged)?"""
        return any(rule.holds_play() for rule in self.house)

    def take_into_spit_cards(self, events: list[Event], t: float, takes: dict[int, list[int]]) -> None:
        """The taken spit piles go under the takers' spit cards; then the "Spit!" calls, as at a stalemate."""
        for number, piles in takes.items():
            for index in piles:
                events.append(Take(t, number, index, len(self.spit_piles[index])))
                self.player(number).spit_cards.extend(self.spit_piles[index])
                self.spit_piles[index] = []
                self.races[index] = None
        for p in self.players:
            p.let_go()
            p.called = False
        self.phase = STALEMATE
        events.append(Stalemate(t, self.spitters()))

    # ------------------------------------------------------------------ end of a round

    def close_round(self, events: list[Event], t: float, reason: str, player: int | None) -> None:
        """The round is over: say so; nobody holds a card or has called any more."""
        events.append(RoundOver(t, self.round, reason, player))
        for p in self.players:
            p.let_go()
            p.called = False

    def settle_piles(self, events: list[Event], t: float, player: int, index: int) -> dict[int, int]:
        """`player` takes spit pile `index`; the others take the piles left, going round the table
        from the player's right: who takes which (the choosing rule then asks for the deal)."""
        taken = {player: index}
        rest = [i for i, pile in enumerate(self.spit_piles) if pile and i != index]
        for other in self.table.others(player):
            if rest:
                taken[other] = rest.pop(0)
        return taken

    def deal_after_choosing(self, events: list[Event], t: float, taken: dict[int, int]) -> None:
        """The piles chosen are taken: the new layout."""
        self.new_layout(events, t, {number: [pile] for number, pile in taken.items()})

    def win_now(self, events: list[Event], t: float, winner: int) -> None:
        """`winner` has won the game outright (V14): the middle goes to the others, and it is over."""
        others = self.table.others(winner)
        self.new_layout(events, t, {others[0]: [i for i, pile in enumerate(self.spit_piles) if pile]}, winner=winner)

    def house_prompt(self, player: int) -> HousePrompt | None:
        """What a house rule asks of `player` now (the first that asks anything), as data."""
        for rule in self.house:
            asked = rule.prompt(self, player)
            if asked is not None:
                return asked
        return None

    def verdict(self, event: Event) -> HouseVerdict | None:
        """What a house rule decided with `event` (a table slap judged, a race for a card won or lost),
        as data: the screen says it in words and works nothing out (None: the event decided nothing)."""
        for rule in self.house:
            said = rule.verdict(event)
            if said is not None:
                return said
        return None

    def choosing_prompt(self, player: int) -> ChoosingPrompt:
        """What `player` is asked while the piles are chosen (the choosing rule's answer, as data)."""
        return self.choosing.prompt(self, player, self.rules.goal.larger_pile_wanted)

    def race_held(self, player: int, t: float) -> bool:
        """`player` played out: does a house rule hold the round open for a race (V13, V14)?"""
        return any(rule.played_out(self, player, t) for rule in self.house)

    def after_race(self, events: list[Event], t: float, player: int) -> None:
        """A house rule's race is over and nobody won the game by it: the round ends as usual."""
        self.round_end.after_race(self, events, t, player)

    def start_choosing(self, reason: str, player: int | None) -> None:
        """Phase `choosing`: the ruleset's choosing policy says who may choose."""
        self.phase = CHOOSING
        self.choosing.begin(reason, player, self)

    def single_pile_taker(self, reason: str, player: int | None, index: int) -> int:
        return self.rules.goal.single_pile_taker(self, reason, player, index)

    def new_layout(self, events: list[Event], t: float, takes: dict[int, list[int]],
                   winner: int | None = None) -> None:
        """Each player gathers the piles they took, their spit and stock cards, shuffles and deals."""
        hands: list[list[Card]] = []
        for number, p in enumerate(self.players, start=1):
            hand: list[Card] = []
            for index in takes.get(number, []):
                events.append(Take(t, number, index, len(self.spit_piles[index])))
                hand += self.spit_piles[index]
            hand += p.all_cards()
            for rule in self.house:  # a ghost card not raced for goes home; a lent card stays its borrower's
                hand += rule.gather(number)
            hands.append(hand)
        self.spit_piles = [[] for _ in self.spit_piles]
        self.races = [None] * len(self.spit_piles)
        self.lone_pile = None
        self.choosing.dealt()
        self.round_end.dealt()
        for p in self.players:
            p.hidden = False
            p.out = 0
            p.taken = []
        if winner is None:
            winner = self.rules.goal.winner(self, hands)
        limit = None
        if winner is None:  # ours: a game bounded in rounds or minutes (game_length.py); a tie plays on
            limit = self.rules.length.reached(self.round, t)
            if limit is not None:
                winner = self.rules.length.winner(hands, self.rules.goal.larger_pile_wanted)
        if winner is not None:
            # The game is over. The cards stay accounted for: each player holds what they
            # gathered, face down, as spit cards.
            self.winner = winner
            self.phase = OVER
            for p, hand in zip(self.players, hands, strict=True):
                p.stock = [StockPile() for _ in self.rules.layout.sizes]
                p.spit_cards = hand
            counted = [len(hand) for hand in hands] if limit is not None else None
            events.append(GameOver(t, winner, limit, counted))
            return
        for p, hand in zip(self.players, hands, strict=True):
            self.rng.shuffle(hand)
            p.stock, p.spit_cards = self.rules.layout.deal(hand)
        self.round += 1
        self.phase = READY
        events.append(self._deal_event(t))
        for rule in self.house:
            rule.dealt(self, events, t)

    def _deal_event(self, t: float) -> Deal:
        return Deal(t, self.round, [{"stock": p.stock_count(), "spit_cards": len(p.spit_cards)} for p in self.players])
