"""Speed (S1-S5): the five-card-hand game, with side stacks, scored deal after deal up to `target`.

Each player holds a hand of five (the `pileN` controls name its slots) and draws from one face-down
stock; two side stacks at the ends of the middle row feed the two spit piles when nobody can play.
A deal is won by the first player with an empty hand and an empty stock, who scores a point per
card left in the opponent's hand and stock; deals go on until a player's score reaches `target`.

Same machinery as the Spit engine (`game.py`): time arrives on every press, the only randomness is
the game's own seeded RNG, a press never raises (what can't be done is a `reject` with a reason), a
press older than the last one applied is applied now, and races on a spit pile are decided by edge
time: a card that fitted the top the other player has just covered is told `too_late`, with the
winner and the margin.

Presses: `pileN` selects the card in slot N (again: deselects); on an empty slot it draws the top
of the stock into it. `left`/`right` play the selected card onto that spit pile, one rank up or
down, wrapping; the slot is refilled from the stock at once. `spit` in `ready` or `stalemate` is a
call; when both have called, one card from each side stack is turned onto the spit pile beside it.

Actions (`legal_actions`): `play` (hand slot `pile` onto spit pile `target`), `draw` (into the empty
slot `pile`), `call`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import Card, deck, next_in_rank
from .events import (
    Call,
    Deal,
    Deselect,
    Draw,
    Event,
    GameOver,
    Play,
    Refill,
    Reject,
    Reshuffle,
    RoundOver,
    Score,
    Select,
    Stalemate,
    TurnUp,
)
from .game import CONTROLS, OVER, PLAYING, READY, SNAPSHOT_VERSION, STALEMATE, copy_rng
from .moves import Action
from .options import CARDS_PER_DECK, Options
from .race import Race, clock, misfit
from .speed_hand import HAND_SIZE, SpeedSeat
from .speed_side_stacks import MiddleRow
from .table import SIDES, TWO_SEATS, Table
from .terms import Phase, Reason

PHASES: tuple[Phase, ...] = (READY, PLAYING, STALEMATE, OVER)  # no choosing
# As the family's `Ruleset.race_window`: how long after an opponent's play onto a spit pile a card
# that fitted the covered top is told `too_late` rather than `not_adjacent`. Seconds of press time.
RACE_WINDOW = 1.0


def stock_size(options: Options) -> int:
    """Cards in each player's stock at a deal: 15 with side stacks of 10, 20 with side stacks of 5 (S1)."""
    return (CARDS_PER_DECK - 2 * (options.side_stacks + 1)) // 2


@dataclass
class SpeedGame:
    options: Options
    players: list[SpeedSeat]
    middle: MiddleRow
    variant_name: str = "speed"
    phase: Phase = READY
    round: int = 1
    winner: int | None = None
    seed: int = 0
    now: float = 0.0
    rng: random.Random = field(default_factory=random.Random)
    races: list[Race | None] = field(default_factory=lambda: [None] * TWO_SEATS.spit_piles)

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, options: Options, seed: int = 0, variant: str = "speed") -> tuple[SpeedGame, list[Event]]:
        """A seeded deal: the deck shuffled by the game's RNG, then dealt (see `_deal`)."""
        rng = random.Random(seed)
        cards = deck()
        rng.shuffle(cards)
        game = cls(options=options, players=[], middle=MiddleRow([[], []], [[], []]), variant_name=variant,
                   seed=seed, rng=rng)
        game._deal(cards, [0, 0])
        return game, [game._deal_event(0.0)]

    def _deal(self, cards: list[Card], scores: list[int]) -> None:
        """S1, S2: player 1's stock from the top of the shuffled cards, then player 2's, then the
        side stacks, each with its single middle card on top; each hand is the top five of the stock."""
        size = stock_size(self.options)
        self.players = [SpeedSeat.dealt(cards[n * size:(n + 1) * size], scores[n]) for n in range(2)]
        side = cards[2 * size:]
        half = len(side) // 2
        self.middle = MiddleRow([[], []], [side[:half], side[half:]])
        self.races = [None] * self.table.spit_piles
        self.phase = READY

    # ------------------------------------------------------------------ reading

    @property
    def table(self) -> Table:
        return TWO_SEATS

    @property
    def variant(self) -> str:
        return self.variant_name

    @property
    def spit_piles(self) -> list[list[Card]]:
        return self.middle.spit_piles

    def player(self, number: int) -> SpeedSeat:
        return self.players[number - 1]

    def pile_controls(self, player: int) -> int:
        """The `pileN` controls that mean something: the five hand slots."""
        return HAND_SIZE

    def all_cards(self) -> list[Card]:
        cards = self.middle.all_cards()
        for p in self.players:
            cards += p.all_cards()
        return cards

    def can_move(self, number: int) -> bool:
        """Can `number` play a hand card onto a spit pile, or draw into an empty slot?"""
        me = self.player(number)
        if me.can_draw():
            return True
        tops = self.middle.tops()
        return any(next_in_rank(card, top) for card in me.hand_cards() for top in tops)

    def state(self) -> dict[str, Any]:
        """The state object of the script format's Speed section, as a fresh JSON-ready dict."""
        return {
            "variant": self.variant_name,
            "options": self.options.to_json("speed"),
            "phase": self.phase,
            "round": self.round,
            "winner": self.winner,
            "spit_piles": [list(pile) for pile in self.middle.spit_piles],
            "side_stacks": [list(stack) for stack in self.middle.side_stacks],
            "players": [{"hand": list(p.hand), "stock": list(p.stock), "score": p.score,
                         "selected": p.selected, "called": p.called} for p in self.players],
        }

    def copy(self) -> SpeedGame:
        """A game of its own that goes on exactly as this one would (see `Game.copy`): the seats, the
        middle row, the RNG and the races list copied; the options, cards and races shared."""
        return replace(self, players=[seat.copy() for seat in self.players], middle=self.middle.copy(),
                       rng=copy_rng(self.rng), races=list(self.races))

    def snapshot(self) -> dict[str, Any]:
        """Everything this game holds, JSON-ready: `speed_state.restore` gives back a game that goes
        on identically."""
        version, internal, gauss = self.rng.getstate()
        return {
            "snapshot": SNAPSHOT_VERSION,
            "variant": self.variant_name,
            "options": self.options.to_json("speed"),
            "seed": self.seed,
            "now": self.now,
            "state": self.state(),
            "rng": [version, list(internal), gauss],
            "races": [None if r is None else [r.t, r.player, r.covered] for r in self.races],
        }

    # ------------------------------------------------------------------ what can be done

    def legal_actions(self, player: int) -> list[Action]:
        """Everything `player` can do now that changes the game (not selecting and deselecting)."""
        me = self.player(player)
        if self.phase == OVER:
            return []
        actions: list[Action] = []
        if self.phase in (READY, STALEMATE) and not me.called:
            actions.append(Action("call"))
        if self.phase == PLAYING:
            tops = [(i, pile[-1]) for i, pile in enumerate(self.middle.spit_piles) if pile]
            for slot, card in enumerate(me.hand, start=1):
                if card is not None:
                    actions += [Action("play", slot, i) for i, top in tops if next_in_rank(card, top)]
        if self.phase in (READY, PLAYING) and me.stock:
            actions += [Action("draw", slot) for slot, card in enumerate(me.hand, start=1) if card is None]
        return actions

    def presses_for(self, player: int, action: Action) -> list[str]:
        """The presses that do `action` for `player` from where their hand is now."""
        if action.kind == "play":
            side = self.table.side_for(player, action.target)
            return [side] if self.player(player).selected == action.pile else [f"pile{action.pile}", side]
        if action.kind == "draw":
            return [f"pile{action.pile}"]
        return ["spit"]  # call

    # ------------------------------------------------------------------ pressing

    def press(self, t: float, player: int, control: str) -> list[Event]:
        """Apply one press at time `t`; return what happened. Never raises for any input."""
        t = self._clock(t)
        if not (isinstance(player, int) and 1 <= player <= 2) or control not in CONTROLS:
            return [Reject(t, player, control, Reason.UNKNOWN_PRESS)]
        events: list[Event] = []
        if self.phase == OVER:
            events.append(Reject(t, player, control, Reason.GAME_OVER))
        elif control == "spit":
            self._spit_press(events, t, player)
        elif control in SIDES:
            index = self.table.spit_pile_for(player, control)
            if index is None:
                events.append(Reject(t, player, control, Reason.NO_PILE))
            elif self.phase != PLAYING:
                events.append(Reject(t, player, control, Reason.WRONG_PHASE))
            else:
                self._play(events, t, player, control, index)
        elif control == "slap":
            events.append(Reject(t, player, control, Reason.NOT_IN_THIS_GAME))
        else:
            self._slot_press(events, t, player, int(control[4:]))
        return events

    def advance(self, t: float) -> list[Event]:
        """Time passes without a press: Speed has no windows that close, so only the clock moves."""
        self._clock(t)
        return []

    def settle(self, t: float = 0.0) -> list[Event]:
        """After a setup from an explicit position: a stuck position goes to its stalemate, and one
        that can never go on (see `MiddleRow.can_ever_fit`) to a new deal."""
        events: list[Event] = []
        if self.phase == PLAYING:
            self._after_change(events, t)
        elif self.phase == STALEMATE and not self._can_go_on():
            self._blocked(events, t)
        return events

    def _clock(self, t: float) -> float:
        self.now = clock(self.now, t)
        return self.now

    def _slot_press(self, events: list[Event], t: float, player: int, slot: int) -> None:
        control = f"pile{slot}"
        me = self.player(player)
        if slot > HAND_SIZE:
            events.append(Reject(t, player, control, Reason.NO_PILE))
            return
        card = me.hand[slot - 1]
        if card is None:
            drawn = me.draw(slot)
            if drawn is None:
                events.append(Reject(t, player, control, Reason.NO_CARD))
            else:
                events.append(Draw(t, player, slot, drawn))
                self._after_change(events, t)
        elif me.selected == slot:
            me.selected = None
            events.append(Deselect(t, player, slot))
        else:
            me.selected = slot
            events.append(Select(t, player, slot, card))

    def _spit_press(self, events: list[Event], t: float, player: int) -> None:
        me = self.player(player)
        if self.phase == PLAYING:
            events.append(Reject(t, player, "spit", Reason.NOT_STUCK))
        elif me.called:
            events.append(Reject(t, player, "spit", Reason.ALREADY_CALLED))
        else:
            me.called = True
            events.append(Call(t, player))
            if all(p.called for p in self.players):
                self._reveal(events, t)

    def _reveal(self, events: list[Event], t: float) -> None:
        """Both have called: one card from each side stack onto the spit pile beside it (S2, S4)."""
        middle = self.middle
        if middle.must_reshuffle():
            events.append(Reshuffle(t, middle.reshuffle(self.rng)))
        for card, index in middle.turn_up():
            self.races[index] = None
            events.append(TurnUp(t, card, index))
        for p in self.players:
            p.called = False
        self.phase = PLAYING
        self._after_change(events, t)

    def _play(self, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        me = self.player(player)
        slot = me.selected
        if slot is None:
            events.append(Reject(t, player, side, Reason.NOTHING_SELECTED))
            return
        card = me.hand[slot - 1]
        pile = self.middle.spit_piles[index]
        if card is None or not pile:  # neither happens in a position the core accepts
            events.append(Reject(t, player, side, Reason.NO_CARD if card is None else Reason.NO_PILE, spit_pile=index))
            return
        top = pile[-1]
        if not next_in_rank(card, top):
            events.append(misfit(self.races[index], t, player, side, card, index, top, RACE_WINDOW, next_in_rank))
            return
        me.take(slot)
        pile.append(card)
        self.races[index] = Race(t, player, top)
        me.selected = None
        events.append(Play(t, player, slot, card, index, top))
        refill = me.draw(slot)
        if refill is not None:
            events.append(Refill(t, player, slot, refill))
        if me.played_out():
            self._deal_won(events, t, player)
        else:
            self._after_change(events, t)

    # ------------------------------------------------------------------ stuck

    def _can_go_on(self) -> bool:
        return self.middle.can_ever_fit(card for p in self.players for card in p.hand_cards())

    def _after_change(self, events: list[Event], t: float) -> None:
        """After anything that changes what can be played: is the deal stuck?"""
        if self.phase != PLAYING or self.can_move(1) or self.can_move(2):
            return
        if not self._can_go_on():
            self._blocked(events, t)
            return
        self.phase = STALEMATE
        for p in self.players:
            p.called = False
        events.append(Stalemate(t, [1, 2]))

    # ------------------------------------------------------------------ the end of a deal

    def _deal_won(self, events: list[Event], t: float, player: int) -> None:
        """S5: hand and stock empty: `player` wins the deal and scores the opponent's cards."""
        points = sum(p.card_count() for n, p in enumerate(self.players, start=1) if n != player)
        me = self.player(player)
        me.score += points
        events.append(RoundOver(t, self.round, "played_out", player))
        events.append(Score(t, player, points, me.score))
        for p in self.players:
            p.let_go()
        if me.score >= self.options.target:
            # The game is over; the cards stay where they lie.
            self.winner = player
            self.phase = OVER
            events.append(GameOver(t, player))
            return
        self._new_deal(events, t)

    def _blocked(self, events: list[Event], t: float) -> None:
        """No card the middle can turn up will ever fit a hand: nobody scores, deal again."""
        events.append(RoundOver(t, self.round, "blocked", None))
        self._new_deal(events, t)

    def _new_deal(self, events: list[Event], t: float) -> None:
        """Every card gathered (the middle, then each player's hand and stock), shuffled, dealt."""
        cards = self.all_cards()
        self.rng.shuffle(cards)
        self._deal(cards, [p.score for p in self.players])
        self.round += 1
        events.append(self._deal_event(t))

    def _deal_event(self, t: float) -> Deal:
        return Deal(t, self.round, [{"hand": len(p.hand_cards()), "stock": len(p.stock)} for p in self.players])
