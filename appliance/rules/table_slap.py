"""Mod Spit's table slap (V18) and its advanced rule deck (V19): a rule that watches the table.

Whenever the two spit piles' top values (A=1, 2-10, J=11, Q=12, K=13) meet the slap rule, either
player may slap the table (control `slap`). The first slap opens a window (`window` seconds) in
which the other may slap too; when it closes (a later press, or time passing: `advance`), or when
everybody has slapped, the slaps are judged:

- a wrong slap (the rule was not met at the moment of that slap): the wrong slapper takes both spit
  piles; both wrong: the later slapper chooses which pile to take, and the other takes the other;
- right slaps only: the slower player takes both piles (the one who did not slap, or the second
  slapper); slaps at the same instant are told apart by the game's seeded RNG.

Taken piles go under the taker's spit cards (pile 0, then pile 1, each bottom to top); the middle is
then empty and the game waits for the "Spit!" calls, as at a stalemate. While a slap is being judged
nothing is played onto the spit piles.

A house rule (house_rule.py): the `TableSlap` object of a game holds the rule in force, the slaps
waiting to be judged and who chooses after two wrong ones; the engine only asks it.

V18 plays the one rule "the product mod 7 is a prime". V19 draws its modulus and its rule at the
start of the game: cards are drawn until one of 7 or higher (its value is the modulus, 7 to 13);
it goes back, and the next card drawn picks one of the 13 rules below by its rank. The seed gives
no rules: these are ours, each checkable at a glance from two numbers.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Self

from .cards import Card, deck, rank_of
from .events import Choose, Event, TableSlapJudged
from .events import TableSlap as TableSlapEvent
from .house_rule import Prompt, Step, Verdict, Verdicts
from .moves import SLAP_TABLE, Action
from .setup_values import whole
from .table import SIDES
from .terms import Phase, Reason

if TYPE_CHECKING:
    from .engine import Engine

PRIMES = frozenset({2, 3, 5, 7, 11, 13})


@dataclass(frozen=True)
class SlapRule:
    rank: int  # 1 (ace) .. 13 (king): the card that picks it in V19
    name: str
    words: str  # what the screen shows; {m} is the modulus
    test: Callable[[int, int, int], bool]  # (a, b, modulus) -> slap?

    def says(self, modulus: int) -> str:
        return self.words.format(m=modulus)


RULE_DECK: tuple[SlapRule, ...] = (
    SlapRule(1, "product_prime", "the product mod {m} is a prime", lambda a, b, m: (a * b) % m in PRIMES),
    SlapRule(2, "sum_prime", "the sum mod {m} is a prime", lambda a, b, m: (a + b) % m in PRIMES),
    SlapRule(3, "sum_13", "the two add up to 13", lambda a, b, m: a + b == 13),
    SlapRule(4, "both_odd", "both are odd", lambda a, b, m: a % 2 == 1 and b % 2 == 1),
    SlapRule(5, "both_even", "both are even", lambda a, b, m: a % 2 == 0 and b % 2 == 0),
    SlapRule(6, "neighbours", "they differ by 1 mod {m}", lambda a, b, m: (a - b) % m in (1, m - 1)),
    SlapRule(7, "pair", "the same value (mod {m})", lambda a, b, m: a % m == b % m),
    SlapRule(8, "divides", "one divides the other", lambda a, b, m: a % b == 0 or b % a == 0),
    SlapRule(9, "sum_multiple_3", "the sum is a multiple of 3", lambda a, b, m: (a + b) % 3 == 0),
    SlapRule(10, "difference_prime", "the difference is a prime", lambda a, b, m: abs(a - b) in PRIMES),
    SlapRule(11, "sum_zero", "the sum is a multiple of {m}", lambda a, b, m: (a + b) % m == 0),
    SlapRule(12, "product_one", "the product mod {m} is 1", lambda a, b, m: (a * b) % m == 1),
    SlapRule(13, "big_sum", "the sum is more than {m}", lambda a, b, m: a + b > m),
)
MOD7 = RULE_DECK[0]


def working(rule: str, a: int, b: int, m: int) -> tuple[Step, ...]:
    """How a slap rule is worked out for the tops `a` and `b` with the modulus `m`, step by step, as
    data for the screen ("product_prime", 6, 13, 7: 6 × 13 = 78, 78 mod 7 = 1, 1 is not a prime).
    Its tests (the steps whose result is a bool) are all met exactly when the rule is."""
    def mod(x: int, n: int) -> Step:
        return Step("mod", (x, n), x % n)

    def prime(x: int) -> Step:
        return Step("prime", (x,), x in PRIMES)

    def equals(x: int, n: int) -> Step:
        return Step("equals", (x, n), x == n)

    plus, times = Step("plus", (a, b), a + b), Step("times", (a, b), a * b)
    low, high = min(a, b), max(a, b)
    if rule == "product_prime":
        return (times, mod(a * b, m), prime((a * b) % m))
    if rule == "sum_prime":
        return (plus, mod(a + b, m), prime((a + b) % m))
    if rule == "sum_13":
        return (plus, equals(a + b, 13))
    if rule in ("both_odd", "both_even"):
        test = rule.removeprefix("both_")
        return tuple(Step(test, (x,), x % 2 == (1 if test == "odd" else 0)) for x in (a, b))
    if rule == "neighbours":
        return (Step("minus", (a, b), a - b), mod(a - b, m), Step("one_or", (1, m - 1), (a - b) % m in (1, m - 1)))
    if rule == "pair":
        return (mod(a, m), mod(b, m), Step("same", (a % m, b % m), a % m == b % m))
    if rule == "divides":
        return (Step("divides", (low, high), high % low == 0),)
    if rule == "sum_multiple_3":
        return (plus, mod(a + b, 3), equals((a + b) % 3, 0))
    if rule == "difference_prime":
        return (Step("minus", (high, low), high - low), prime(high - low))
    if rule == "sum_zero":
        return (plus, mod(a + b, m), equals((a + b) % m, 0))
    if rule == "product_one":
        return (times, mod(a * b, m), equals((a * b) % m, 1))
    if rule == "big_sum":
        return (plus, Step("more_than", (a + b, m), a + b > m))
    return ()


@dataclass(frozen=True)
class TableHit:
    """A table slap waiting to be judged."""

    t: float
    player: int
    right: bool


@dataclass
class TableSlap:
    """V18: the one rule, product mod 7 prime. A house rule (house_rule.py): this object holds the
    rule in force, the slaps in the open window, and who chooses a pile after two wrong slaps."""

    key: ClassVar[str] = "table_slap"
    slaps: ClassVar[str] = "table"  # what the slap control slaps in this game (the legends name it)
    window: ClassVar[float] = 0.75  # seconds after the first slap in which another slap still counts
    name: ClassVar[str] = "mod7"

    modulus: int = 7  # the modulus and the rank of the slap rule in force (V19 draws them)
    rank: int = 1
    hits: list[TableHit] = field(default_factory=list)  # table slaps in the open window
    chooser: int | None = None  # two wrong slaps: the later slapper chooses a pile
    said: Verdicts = field(default_factory=Verdicts, compare=False, repr=False)  # what its judging decided

    def draw(self, deal_values: list[int]) -> tuple[int, int]:
        """(modulus, rule rank) for a new game; `deal_values` are card values from a shuffled deck."""
        return 7, MOD7.rank

    @staticmethod
    def rule(rank: int) -> SlapRule:
        return RULE_DECK[rank - 1]

    @property
    def in_force(self) -> SlapRule:
        return RULE_DECK[self.rank - 1]

    def right_now(self, game: Engine) -> bool:
        """Would a table slap be right now (the two spit piles' tops meet the rule)?"""
        values = game.spit_values()
        return values is not None and self.in_force.test(values[0], values[1], self.modulus)

    def may_slap(self, game: Engine, player: int) -> bool:
        return (game.phase in (Phase.PLAYING, Phase.STALEMATE) and game.spit_values() is not None
                and all(hit.player != player for hit in self.hits))

    # ------------------------------------------------------------------ the protocol

    def copy(self) -> Self:
        return replace(self, hits=list(self.hits), said=self.said.copy())

    def begin(self, game: Engine, rng: random.Random) -> None:
        """A new game: the modulus and the rule (V19 draws them from a shuffled deck)."""
        self.modulus, self.rank = self.draw([rank_of(card) for card in rng.sample(deck(), 52)])

    def dealt(self, game: Engine, events: list[Event], t: float) -> None:
        pass

    def revealed(self, game: Engine, events: list[Event], t: float) -> None:
        pass

    def played_out(self, game: Engine, player: int, t: float) -> bool:
        return False

    def holds_play(self) -> bool:
        """A slap is being judged (or a pile chosen after two wrong ones): nothing is played, nobody calls."""
        return bool(self.hits) or self.chooser is not None

    def press(self, game: Engine, events: list[Event], t: float, player: int, control: str) -> bool:
        if control == "slap":
            self._slap(game, events, t, player)
            return True
        if self.chooser is None or control not in SIDES:
            return False
        index = game.table.spit_pile_for(player, control)
        if index is None:
            return False  # (the engine says there is no such pile)
        if player != self.chooser:
            game.reject(events, t, player, control, Reason.NOT_YOUR_CHOICE, winner=self.chooser)
            return True
        self.chooser = None
        events.append(Choose(t, player, index))
        takes: dict[int, list[int]] = {player: [index]}
        rest = [i for i, pile in enumerate(game.spit_piles) if pile and i != index]
        for other in game.table.others(player):
            if rest:
                takes[other] = [rest.pop(0)]
        game.take_into_spit_cards(events, t, takes)
        return True

    def _slap(self, game: Engine, events: list[Event], t: float, player: int) -> None:
        values = game.spit_values()
        if any(hit.player == player for hit in self.hits):
            game.reject(events, t, player, "slap", Reason.ALREADY_SLAPPED)
        elif game.phase not in (Phase.PLAYING, Phase.STALEMATE) or values is None or self.chooser is not None:
            game.reject(events, t, player, "slap", Reason.WRONG_PHASE)
        else:
            right = self.right_now(game)
            self.hits.append(TableHit(t, player, right))
            events.append(TableSlapEvent(t, player, right, values, self.in_force.name))
            if len(self.hits) == game.table.seats:
                self._judge(game, events, t)

    def deadline(self) -> float | None:
        return self.hits[0].t + self.window if self.hits else None

    def close(self, game: Engine, events: list[Event], t: float) -> None:
        self._judge(game, events, t)

    def _later(self, game: Engine, hits: list[TableHit]) -> TableHit:
        """The later of the slaps; slaps at the same instant are told apart by the game's RNG."""
        last = max(hit.t for hit in hits)
        tied = [hit for hit in hits if hit.t == last]
        return tied[0] if len(tied) == 1 else game.rng.choice(tied)

    def working(self, game: Engine) -> tuple[Step, ...]:
        """How the rule in force is worked out for the tops now (nothing is played while a slap is
        judged: the tops every slap was judged by)."""
        values = game.spit_values()
        return () if values is None else working(self.in_force.name, values[0], values[1], self.modulus)

    def _judge(self, game: Engine, events: list[Event], t: float) -> None:
        work = self.working(game)
        hits, self.hits = self.hits, []
        slappers = [hit.player for hit in hits]
        by_ms = round((hits[1].t - hits[0].t) * 1000, 3) if len(hits) > 1 else None
        wrong = [hit for hit in hits if not hit.right]
        if len(wrong) > 1:
            chooser = self._later(game, wrong).player
            self.chooser = chooser
            judged = TableSlapJudged(t, "both_wrong", None, chooser, slappers, by_ms)
            events.append(judged)
            self.said.say(judged, Verdict("slap_both_wrong", chooser, ms=by_ms, working=work))
            return
        if wrong:
            taker, reason = wrong[0].player, "wrong"
        else:
            idle = [n for n in game.table.players if n not in slappers]
            taker, reason = (idle[0] if idle else self._later(game, hits).player), "slower"
        judged = TableSlapJudged(t, reason, taker, None, slappers, by_ms)
        events.append(judged)
        if reason == "wrong":
            said = Verdict("slap_wrong", taker, working=work)
        elif taker in slappers and by_ms is not None:
            said = Verdict("slap_right_late", taker, ms=by_ms, good=True, working=work)
        else:
            said = Verdict("slap_right_idle", taker, good=True, working=work)
        self.said.say(judged, said)
        game.take_into_spit_cards(events, t, {taker: [i for i, pile in enumerate(game.spit_piles) if pile]})

    def actions(self, game: Engine, player: int) -> list[Action] | None:
        if self.chooser is None:
            return None
        if self.chooser != player:
            return []
        return [Action("choose", target=i) for i, pile in enumerate(game.spit_piles) if pile]

    def also(self, game: Engine, player: int) -> list[Action]:
        """The slap, offered beside what the player can do (V18/V19): while it may be slapped."""
        return [SLAP_TABLE] if self.may_slap(game, player) else []

    def prompt(self, game: Engine, player: int) -> Prompt | None:
        """After two wrong slaps: the later slapper chooses a pile to take."""
        if self.chooser is None:
            return None
        return Prompt("you_choose_a_pile_to_take") if player == self.chooser else \
            Prompt("they_choose_a_pile_to_take", self.chooser)

    def verdict(self, event: Event) -> Verdict | None:
        """A judging: both wrong (`slap_both_wrong`: `player` slapped `ms` later and chooses a pile),
        a wrong slap (`slap_wrong`: `player` takes both piles), right slaps (`slap_right_late`: `player`
        slapped `ms` later; `slap_right_idle`: `player` did not slap), and they take both piles."""
        return self.said.of(event)

    def cards(self) -> list[Card]:
        return []

    def gather(self, player: int) -> list[Card]:
        """A new layout: no slap is waiting any more, nobody chooses."""
        self.hits, self.chooser = [], None
        return []

    def to_state(self) -> Any:
        rule = self.in_force
        return {"rule": rule.name, "rank": self.rank, "modulus": self.modulus, "says": rule.says(self.modulus),
                "slaps": [[hit.t, hit.player, hit.right] for hit in self.hits], "chooser": self.chooser}

    def read_state(self, game: Engine, value: Any) -> None:
        """Its part of a setup position; absent: the basic rule, no slaps."""
        if value is None:
            self.modulus, self.rank = 7, 1
            return
        if not isinstance(value, dict):
            raise ValueError("table_slap must be an object")
        seats = game.table.seats
        self.modulus = whole(value.get("modulus", 7), "table_slap.modulus", 7, 13)
        self.rank = whole(value.get("rank", 1), "table_slap.rank", 1, 13)
        slaps = value.get("slaps", [])
        if not isinstance(slaps, list):
            raise ValueError("table_slap.slaps must be a list of [t, player, right]")
        for i, slap in enumerate(slaps):
            if not (isinstance(slap, list) and len(slap) == 3 and isinstance(slap[0], int | float)
                    and isinstance(slap[2], bool)):
                raise ValueError(f"table_slap.slaps[{i}] must be [t, player, right]")
            self.hits.append(TableHit(float(slap[0]), whole(slap[1], f"table_slap.slaps[{i}][1]", 1, seats),
                                      slap[2]))
        chooser = value.get("chooser")
        if chooser is not None:
            self.chooser = whole(chooser, "table_slap.chooser", 1, seats)


@dataclass
class RuleDeck(TableSlap):
    """V19: draw the modulus (the first card of 7 or more) and, after putting it back, the rule."""

    name: ClassVar[str] = "rule_deck"

    def draw(self, deal_values: list[int]) -> tuple[int, int]:
        position = next(i for i, value in enumerate(deal_values) if value >= 7)
        modulus = deal_values[position]
        # "Then draw another card after replacing the first": the cards drawn go back under the
        # deck, and the next card drawn picks the rule.
        rest = deal_values[position + 1:] + deal_values[: position + 1]
        return modulus, rest[0]


TABLE_SLAPS: dict[str, type[TableSlap]] = {"mod7": TableSlap, "rule_deck": RuleDeck}
