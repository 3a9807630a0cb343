"""The Spit engine: a game's state and what each press does to it.

Deterministic and clock-free: time arrives on every press (`t`, seconds since the setup), the
only randomness is the game's own seeded RNG, and a press never raises: what can't be done comes
back as a `reject` event with a reason. The caller applies presses in order of `t`; a press older
than the last one applied is applied now, at the last time (`Game.now`), so every event's `t`
is the time it took effect and the journal stays in the order the game saw.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from . import seats
from .cards import Card, deck
from .layout import deal_layout
from .stalemate import can_progress
from .stock_pile import StockPile
from .variant import CLASSIC, Variant

Event = dict[str, Any]

PHASES = ("ready", "playing", "stalemate", "choosing", "over")
PILE_CONTROLS = tuple(f"pile{n}" for n in range(1, 7))
CONTROLS = (*PILE_CONTROLS, "left", "right", "spit")

# Every reason a press can be rejected for, with what a player would be told.
REJECT_REASONS: dict[str, str] = {
    "not_adjacent": "that card is not one above or below the spit pile",
    "too_late": "the other player got there first",
    "no_card": "there is no card there",
    "no_pile": "there is no such pile",
    "nothing_selected": "pick a card from your stock piles first",
    "wrong_phase": "not now",
    "already_called": "you have called Spit! already",
    "no_spit_cards": "you have no spit cards left",
    "choose_pile": "you spit alone: slap the spit pile you want (left or right)",
    "wrong_pile": "you must keep spitting onto the pile you chose",
    "game_over": "the game is over",
    "unknown_press": "no such player or control",
}


@dataclass
class PlayerState:
    stock: list[StockPile]
    spit_cards: list[Card]  # top first
    selected: int | None = None  # stock pile number, 1-based
    called: bool = False  # has called "Spit!" in this ready/stalemate

    def stock_count(self) -> int:
        return sum(len(pile.cards) for pile in self.stock)

    def all_cards(self) -> list[Card]:
        return [card for pile in self.stock for card in pile.cards] + list(self.spit_cards)


@dataclass
class Race:
    """The last play onto a spit pile, so a card that fitted the covered top is told it was late."""

    t: float
    player: int
    covered: Card


@dataclass
class SlapRace:
    """The first slap of a choosing, which settled both piles: a later slap is answered from it."""

    t: float
    player: int
    taken: dict[int, int]  # player -> spit pile taken


@dataclass
class Game:
    variant: Variant
    players: list[PlayerState]
    spit_piles: list[list[Card]] = field(default_factory=lambda: [[], []])
    phase: str = "ready"
    round: int = 1
    winner: int | None = None
    lone_pile: int | None = None  # the pile a lone spitter chose (rule 7), until the next layout
    seed: int = 0
    now: float = 0.0
    rng: random.Random = field(default_factory=random.Random)
    _races: list[Race | None] = field(default_factory=lambda: [None, None])
    _slap_race: SlapRace | None = None  # the slap that settled the last choosing

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, seed: int = 0, variant: Variant = CLASSIC) -> tuple[Game, list[Event]]:
        """A seeded deal: shuffle, 26 cards each dealt one at a time, each player lays out."""
        rng = random.Random(seed)
        cards = deck(variant.decks)
        rng.shuffle(cards)
        hands = [cards[p :: variant.seats] for p in range(variant.seats)]
        players = []
        for hand in hands:
            stock, spit_cards = deal_layout(hand, variant.stock_layout)
            players.append(PlayerState(stock, spit_cards))
        game = cls(variant=variant, players=players, seed=seed, rng=rng)
        return game, [game._deal_event(0.0)]

    # ------------------------------------------------------------------ reading

    def player(self, number: int) -> PlayerState:
        return self.players[number - 1]

    def spit_tops(self) -> list[Card]:
        return [pile[-1] for pile in self.spit_piles if pile]

    def can_progress(self, number: int) -> bool:
        return can_progress(self.player(number).stock, self.spit_tops(), self.variant)

    def spitters(self) -> list[int]:
        """Players who still hold spit cards."""
        return [n for n, p in enumerate(self.players, start=1) if p.spit_cards]

    def lone_spitter(self) -> int | None:
        """The one player who still holds spit cards, when the other has none."""
        spitters = self.spitters()
        return spitters[0] if len(spitters) == 1 else None

    def state(self) -> dict[str, Any]:
        """The state object of SCRIPT-FORMAT.md, as a fresh JSON-ready dict."""
        return {
            "variant": self.variant.name,
            "phase": self.phase,
            "round": self.round,
            "winner": self.winner,
            "spit_piles": [list(pile) for pile in self.spit_piles],
            "players": [
                {
                    "stock": [pile.to_json() for pile in p.stock],
                    "spit_cards": list(p.spit_cards),
                    "selected": p.selected,
                    "called": p.called,
                }
                for p in self.players
            ],
            "lone_pile": self.lone_pile,
        }

    def all_cards(self) -> list[Card]:
        cards = [card for pile in self.spit_piles for card in pile]
        for p in self.players:
            cards += p.all_cards()
        return cards

    # ------------------------------------------------------------------ pressing

    def press(self, t: float, player: int, control: str) -> list[Event]:
        """Apply one press at time `t`; return what happened. Never raises for any input."""
        t = float(t)
        if not t >= self.now:  # also catches NaN
            t = self.now
        self.now = t
        if not (isinstance(player, int) and 1 <= player <= len(self.players)) or control not in CONTROLS:
            return [{"t": t, "event": "reject", "player": player, "press": control, "reason": "unknown_press"}]
        events: list[Event] = []
        if self.phase == "over":
            self._reject(events, t, player, control, "game_over")
        elif control == "spit":
            self._spit_press(events, t, player)
        elif control in ("left", "right"):
            self._side_press(events, t, player, control)
        else:
            self._pile_press(events, t, player, int(control[4:]))
        return events

    def settle(self, t: float = 0.0) -> list[Event]:
        """After a setup from an explicit position: move on if nobody can play (stalemate, block)."""
        events: list[Event] = []
        if self.phase == "playing":
            self._after_change(events, t)
        return events

    # ------------------------------------------------------------------ presses by control

    def _reject(self, events: list[Event], t: float, player: int, control: str, reason: str,
                **detail: Any) -> None:
        events.append({"t": t, "event": "reject", "player": player, "press": control, "reason": reason,
                       **detail})

    def _pile_press(self, events: list[Event], t: float, player: int, number: int) -> None:
        control = f"pile{number}"
        me = self.player(player)
        if self.phase == "choosing":
            self._reject(events, t, player, control, "wrong_phase")
            return
        if number > len(me.stock):
            self._reject(events, t, player, control, "no_pile")
            return
        pile = me.stock[number - 1]
        if pile.face_down_top:
            if self.phase != "playing":  # no turning cards before "Spit!"
                self._reject(events, t, player, control, "wrong_phase")
                return
            pile.up = 1
            events.append({"t": t, "event": "flip", "player": player, "pile": number, "card": pile.top})
            self._after_change(events, t)
        elif me.selected == number:
            me.selected = None
            events.append({"t": t, "event": "deselect", "player": player, "pile": number})
        elif me.selected is not None and not pile.cards:
            source = me.stock[me.selected - 1]
            card = source.take_top()
            pile.put_face_up(card)
            events.append({"t": t, "event": "move", "player": player, "from": me.selected, "to": number,
                           "card": card})
            me.selected = None
        # V7 (same-rank stacking) plugs in here: a pile is selected and this pile's face-up top has
        # the same rank -> stack the selected card onto it.
        elif pile.cards:
            me.selected = number
            events.append({"t": t, "event": "select", "player": player, "pile": number, "card": pile.top})
        else:
            self._reject(events, t, player, control, "no_card")

    def _side_press(self, events: list[Event], t: float, player: int, side: str) -> None:
        index = seats.spit_pile_for(player, side)
        race = self._slap_race
        if self.phase == "playing":
            self._play(events, t, player, side, index)
        elif self.phase == "choosing":
            self._slap(events, t, player, side, index)
        elif (self.phase == "ready" and race is not None and race.player != player
                and t - race.t <= self.variant.slap_window):
            # A slap just after the first one, which settled both piles and dealt: on the pile this
            # player was given it is a slap like any other; on the other pile it lost the race.
            by_ms = round((t - race.t) * 1000, 3)
            if race.taken[player] == index:
                events.append({"t": t, "event": "slap", "player": player, "spit_pile": index,
                               "after_ms": by_ms})
            else:
                self._reject(events, t, player, side, "too_late", spit_pile=index, winner=race.player,
                             by_ms=by_ms)
        elif self.lone_spitter() == player:
            if self.lone_pile is None:
                self.lone_pile = index
                events.append({"t": t, "event": "choose", "player": player, "spit_pile": index})
                self._call(events, t, player)
            elif index == self.lone_pile:
                self._call(events, t, player)
            else:
                self._reject(events, t, player, side, "wrong_pile", spit_pile=self.lone_pile)
        else:
            self._reject(events, t, player, side, "wrong_phase")

    def _spit_press(self, events: list[Event], t: float, player: int) -> None:
        if self.phase not in ("ready", "stalemate"):
            self._reject(events, t, player, "spit", "wrong_phase")
        elif not self.player(player).spit_cards:
            self._reject(events, t, player, "spit", "no_spit_cards")
        elif self.lone_spitter() == player and self.lone_pile is None:
            self._reject(events, t, player, "spit", "choose_pile")
        else:
            self._call(events, t, player)

    # ------------------------------------------------------------------ "Spit!"

    def _call(self, events: list[Event], t: float, player: int) -> None:
        me = self.player(player)
        if me.called:
            self._reject(events, t, player, "spit", "already_called")
            return
        me.called = True
        self._slap_race = None
        events.append({"t": t, "event": "call", "player": player})
        spitters = self.spitters()
        if all(self.player(n).called for n in spitters):
            self._reveal(events, t, spitters)

    def _reveal(self, events: list[Event], t: float, spitters: list[int]) -> None:
        for number in spitters:
            me = self.player(number)
            index = self.lone_pile if len(spitters) == 1 and self.lone_pile is not None \
                else seats.starting_pile(number)
            card = me.spit_cards.pop(0)
            self.spit_piles[index].append(card)
            self._races[index] = None
            events.append({"t": t, "event": "reveal", "player": number, "card": card, "spit_pile": index})
        for p in self.players:
            p.called = False
        self.phase = "playing"
        self._after_change(events, t)

    # ------------------------------------------------------------------ playing a card

    def _play(self, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        me = self.player(player)
        if me.selected is None:
            self._reject(events, t, player, side, "nothing_selected")
            return
        spit_pile = self.spit_piles[index]
        if not spit_pile:
            self._reject(events, t, player, side, "no_pile", spit_pile=index)
            return
        source = me.stock[me.selected - 1]
        card = source.cards[-1]
        top = spit_pile[-1]
        if not self.variant.fits(card, top):
            race = self._races[index]
            if (race is not None and race.player != player and t - race.t <= self.variant.race_window
                    and self.variant.fits(card, race.covered)):
                self._reject(events, t, player, side, "too_late", card=card, spit_pile=index,
                             winner=race.player, by_ms=round((t - race.t) * 1000, 3))
            else:
                self._reject(events, t, player, side, "not_adjacent", card=card, spit_pile=index, onto=top)
            return
        source.take_top()
        spit_pile.append(card)
        self._races[index] = Race(t, player, top)
        events.append({"t": t, "event": "play", "player": player, "pile": me.selected, "card": card,
                       "spit_pile": index, "onto": top})
        me.selected = None
        # V5 (single-card piles refilled from the spit cards) and V18 (Mod Spit's table slap)
        # plug in here, after a card lands on a spit pile.
        if me.stock_count() == 0:
            self._round_over(events, t, "stock_out", player)
        else:
            self._after_change(events, t)

    def _after_change(self, events: list[Event], t: float) -> None:
        """After anything that changes what can be played: is the game stuck?"""
        if self.phase != "playing":
            return
        tops = self.spit_tops()
        for p in self.players:
            if can_progress(p.stock, tops, self.variant):
                return
        if self.spitters():
            self.phase = "stalemate"
            for p in self.players:
                p.called = False
            events.append({"t": t, "event": "stalemate", "spitters": self.spitters()})
        else:
            self._round_over(events, t, "blocked", None)

    # ------------------------------------------------------------------ end of a round

    def _round_over(self, events: list[Event], t: float, reason: str, player: int | None) -> None:
        events.append({"t": t, "event": "round_over", "round": self.round, "reason": reason,
                       "player": player})
        for p in self.players:
            p.selected = None
            p.called = False
        in_play = [i for i, pile in enumerate(self.spit_piles) if pile]
        if len(in_play) == 2:
            # Rule 8: both choose a spit pile by slapping it. (V10/V11/V12/V15 change this step.)
            self.phase = "choosing"
            return
        # Only one spit pile (rule 9/10): nobody slaps.
        index = in_play[0]
        if reason == "stock_out":
            assert player is not None
            taker = 2 if player == 1 else 1
        else:
            # Blocked with one spit pile: the seeds are silent. As in David Shapp's rule, the player
            # with fewer stock cards left chooses first, and chooses not to take it; equal: the
            # player whose own (left-hand) pile it is takes it. (rules document: docs in seeds/)
            counts = [p.stock_count() for p in self.players]
            if counts[0] != counts[1]:
                taker = 1 if counts[0] > counts[1] else 2
            else:
                taker = 1 if seats.starting_pile(1) == index else 2
        self._new_layout(events, t, {taker: index})

    def _slap(self, events: list[Event], t: float, player: int, side: str, index: int) -> None:
        # The first slap settles it: a later slap on the same pile loses it, and a later slap on the
        # other pile takes what the first slapper left. Either way, the first slapper gets their pile.
        size = len(self.spit_piles[index])
        events.append({"t": t, "event": "slap", "player": player, "spit_pile": index, "size": size})
        taken = {player: index, (2 if player == 1 else 1): 1 - index}
        self._slap_race = SlapRace(t, player, taken)
        self._new_layout(events, t, taken)

    def _new_layout(self, events: list[Event], t: float, takes: dict[int, int]) -> None:
        """Each player gathers the pile they took, their spit and stock cards, shuffles and deals."""
        hands: list[list[Card]] = []
        for number, p in enumerate(self.players, start=1):
            hand: list[Card] = []
            if number in takes:
                index = takes[number]
                events.append({"t": t, "event": "take", "player": number, "spit_pile": index,
                               "cards": len(self.spit_piles[index])})
                hand += self.spit_piles[index]
            hand += p.all_cards()
            hands.append(hand)
        self.spit_piles = [[], []]
        self._races = [None, None]
        self.lone_pile = None
        empty = [number for number, hand in enumerate(hands, start=1) if not hand]
        if empty:
            # Rule 10: a player left with no cards at all has won the game. The cards stay
            # accounted for: each player holds what they gathered, face down, as spit cards.
            self.winner = empty[0]
            self.phase = "over"
            for p, hand in zip(self.players, hands, strict=True):
                p.stock = [StockPile() for _ in self.variant.stock_layout]
                p.spit_cards = hand
            events.append({"t": t, "event": "game_over", "winner": self.winner})
            return
        for p, hand in zip(self.players, hands, strict=True):
            self.rng.shuffle(hand)
            p.stock, p.spit_cards = deal_layout(hand, self.variant.stock_layout)
        self.round += 1
        self.phase = "ready"
        events.append(self._deal_event(t))

    def _deal_event(self, t: float) -> Event:
        return {"t": t, "event": "deal", "round": self.round,
                "players": [{"stock": p.stock_count(), "spit_cards": len(p.spit_cards)}
                            for p in self.players]}
