"""House rules as options, and the presets that name a set of them.

An option has a name, the values it may take, a default and one line saying what it does. A preset
(`variant` in a setup) is a name for some options; the options a setup gives go on top. Both are
checked here, and every problem comes back as an `OptionError` naming the option: an unknown one
(with the nearest known name), a value of the wrong type or out of range, or options that can't be
dealt (stock piles needing more cards than a player holds).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from .cards import MAX_DECKS

MAX_STOCK_PILES = 6  # pile1 ... pile6 on a player's panel
CARDS_PER_DECK = 52


class OptionError(ValueError):
    """A variant or option that can't be played: the message says which and why."""


@dataclass(frozen=True)
class Options:
    """Every house rule in force. Classic Spit is all the defaults."""

    stock_piles: tuple[int, ...] = (1, 2, 3, 4, 5)
    decks: int = 1
    seats: int = 2
    alternate_colours: bool = False
    same_rank_stacking: bool = False
    choose: str = "slap"
    goal: str = "fewest"
    refill: bool = False
    two_hands: bool = False
    hidden_last: bool = False
    table_slap: str | None = None
    carry: bool = False
    runners: tuple[int, ...] = (1, 1)
    ghost_card: bool = False
    spit_card_please: bool = False
    # ours, not the sources': a game bounded for a bar (game_length.py); 0: no limit
    limit_rounds: int = 0
    limit_minutes: int = 0
    # Speed (S1-S5)
    target: int = 25
    side_stacks: int = 10

    def to_json(self, game: str = "spit") -> dict[str, Any]:
        """The options that apply to a game of type `game` ("spit" or "speed"), JSON-ready."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if game not in OPTIONS[f.name].games:
                continue
            value = getattr(self, f.name)
            if f.name in LISTED_WHEN_SET and not value:
                continue  # (so every state and journal written before these options reads the same)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @property
    def cards_each(self) -> int:
        """Cards each player is dealt at the start (the deck shared out one at a time)."""
        return CARDS_PER_DECK * self.decks // self.seats


@dataclass(frozen=True)
class OptionSpec:
    name: str
    values: str  # what it may be, in words, for messages and `spit-arcade variants`
    explain: str  # one line: the rule it sets
    rule: str  # where the rule comes from (RULES.md's numbering)
    read: Callable[[Any], Any]  # the value as Options holds it; raises ValueError if out of range
    games: frozenset[str] = frozenset({"spit"})  # the game types it applies to


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError
    return value


def _whole(low: int, high: int) -> Callable[[Any], int]:
    def read(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError
        return value
    return read


def _one_of(*choices: str) -> Callable[[Any], str]:
    def read(value: Any) -> str:
        if value not in choices:
            raise ValueError
        return str(value)
    return read


def _one_of_numbers(*choices: int) -> Callable[[Any], int]:
    def read(value: Any) -> int:
        if isinstance(value, bool) or value not in choices:
            raise ValueError
        return int(value)
    return read


def _one_of_or_none(*choices: str) -> Callable[[Any], str | None]:
    def read(value: Any) -> str | None:
        if value is not None and value not in choices:
            raise ValueError
        return None if value is None else str(value)
    return read


def _runners(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not 2 <= len(value) <= 4:
        raise ValueError
    return tuple(_whole(1, 4)(size) for size in value)


def _pile_sizes(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_STOCK_PILES:
        raise ValueError
    return tuple(_whole(1, CARDS_PER_DECK)(size) for size in value)


CHOICES = ("slap", "shapp", "first_call", "slap_spit")
LISTED_WHEN_SET = ("limit_rounds", "limit_minutes")  # options of ours: in a state's options only when set
GOALS = ("fewest", "all")

OPTIONS: dict[str, OptionSpec] = {spec.name: spec for spec in (
    OptionSpec("stock_piles", f"a list of 1 to {MAX_STOCK_PILES} pile sizes, e.g. [1, 2, 3, 4, 5]",
               "the layout: stock piles of these sizes, dealt row by row, top cards face up", "rule 2, V1-V3",
               _pile_sizes),
    OptionSpec("decks", f"1 or {MAX_DECKS}", "how many decks are shuffled together (two: cards carry their deck, TD1)",
               "V4", _whole(1, MAX_DECKS)),
    OptionSpec("seats", "2, 3 or 4", "players round the table; with 3 or 4 the first out takes a pile and sits out, "
               "the others play on (one stock pile fewer per extra player: 1-2-3-4 at 3 seats, 1-2-3 at 4, "
               "unless given)", "V17", _whole(2, 4)),
    OptionSpec("alternate_colours", "true or false",
               "cards on a spit pile alternate red and black: on a black 5 only a red 4 or 6", "V6", _bool),
    OptionSpec("same_rank_stacking", "true or false",
               "a face-up stock card may be stacked on another of the same rank, to uncover the card below",
               "V7", _bool),
    OptionSpec("choose", " or ".join(f'"{c}"' for c in CHOICES),
               "how spit piles are chosen at a new layout: slap (both slap, first hand wins), shapp (whoever "
               "played out chooses), first_call (first to call Spit! chooses), slap_spit (slap the smaller "
               "pile; equal piles: first call chooses)", "rule 8, V10-V12", _one_of(*CHOICES)),
    OptionSpec("goal", " or ".join(f'"{g}"' for g in GOALS),
               "fewest: get rid of your cards; all: win them all (Reverse Spit: aim for the larger pile)",
               "rule 10, V15", _one_of(*GOALS)),
    OptionSpec("refill", "true or false",
               "a played stock pile is refilled at once from your spit cards", "V5", _bool),
    OptionSpec("two_hands", "true or false",
               "hold two stock cards at once, one per hand, and play either", "V8", _bool),
    OptionSpec("hidden_last", "true or false",
               'with 3 to 5 stock cards left, all face up, press Spit! to pick them up: they are shown face '
               "down from then on and played from memory", "V9", _bool),
    OptionSpec("table_slap", 'null, "mod7" or "rule_deck"',
               "Mod Spit: slap the table when the spit piles' top values meet the rule (mod7: their product "
               "mod 7 is a prime; rule_deck: a modulus and one of 13 rules drawn at the start)", "V18, V19",
               _one_of_or_none("mod7", "rule_deck")),
    OptionSpec("carry", "true or false",
               "Running Spit: a card picked up is carried off its stock pile until it is slapped onto a pile "
               "or put back", "V16", _bool),
    OptionSpec("runners", "a list of 1 to 4 runners for each seat, e.g. [2, 3]",
               "Running Spit: runners per team, taking turns: the next runner runs after each card played",
               "V16", _runners),
    OptionSpec("ghost_card", "true or false",
               "when your spit cards run out the opponent lays a ghost card by you, never turned; play out and "
               "slap it first to win the game", "V14", _bool),
    OptionSpec("spit_card_please", "true or false",
               "a player too short to keep a spit card borrows one; when they play out they must slap it "
               "within 2 s, before the lender does, to win; too late takes the whole spit pile", "V13", _bool),
    OptionSpec("limit_rounds", "0 (no limit) or a whole number from 1 to 99",
               "ours, not the sources': the game ends after this many rounds; the fewest cards left then wins "
               "(Reverse Spit: the most), a tie plays another round", "ours", _whole(0, 99)),
    OptionSpec("limit_minutes", "0 (no limit) or a whole number from 1 to 120",
               "ours, not the sources': once this many minutes are played the round being played is the last; "
               "the fewest cards left then wins (Reverse Spit: the most), a tie plays another round", "ours",
               _whole(0, 120)),
    OptionSpec("target", "a whole number from 1 to 500", "Speed: the score that wins the game", "S5",
               _whole(1, 500), frozenset({"speed"})),
    OptionSpec("side_stacks", "10 or 5", "Speed: side stacks of 10 (stocks of 15) or of 5 (stocks of 20)", "S1",
               _one_of_numbers(10, 5), frozenset({"speed"})),
)}

@dataclass(frozen=True)
class Preset:
    game: str  # the game type: "spit" (rules.game) or "speed" (rules.speed)
    explain: str
    options: dict[str, Any]


def _spit(explain: str, options: dict[str, Any]) -> Preset:
    return Preset("spit", explain, options)


PRESETS: dict[str, Preset] = {
    "classic": _spit("five stock piles of 1, 2, 3, 4 and 5 cards (11 spit cards)", {}),
    "four-piles": _spit("four stock piles of 1, 2, 3, 4 cards (16 spit cards)", {"stock_piles": [1, 2, 3, 4]}),
    "eleven-middle": _spit("eleven cards in the middle pile: stock piles 1, 1, 11, 1, 1",
                      {"stock_piles": [1, 1, 11, 1, 1]}),
    "threes": _spit("five stock piles of three cards", {"stock_piles": [3, 3, 3, 3, 3]}),
    "two-decks": _spit("two decks shuffled together, six stock piles 1 to 6",
                       {"decks": 2, "stock_piles": [1, 2, 3, 4, 5, 6]}),
    "refill": _spit("four stock piles of one card, refilled from your spit cards as you play",
               {"stock_piles": [1, 1, 1, 1], "refill": True}),
    "mod-spit": _spit("Mod Spit: five stock piles of one card; slap the table when the product of the tops mod 7 "
                      "is a prime", {"stock_piles": [1, 1, 1, 1, 1], "table_slap": "mod7"}),
    "mod-spit-advanced": _spit("Mod Spit with a modulus and a slap rule drawn from 13 at the start",
                               {"stock_piles": [1, 1, 1, 1, 1], "table_slap": "rule_deck"}),
    "running": _spit("Running Spit: the spit piles are pads 3 m away; carry each card there and slap it down, "
                     "in teams taking turns", {"carry": True}),
    "reverse": _spit("Reverse Spit: win all the cards; whoever plays out first slaps the larger pile and takes it",
                {"goal": "all"}),
    "speed": Preset("speed", "Speed: hands of five drawn from a stock, side stacks, deals scored up to 25", {}),
}


def _nearest(name: str, known: Any) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.5)
    return f" (did you mean {close[0]!r}?)" if close else ""


def read_options(variant: str, given: Mapping[str, Any] | None = None) -> Options:
    """The options in force for a preset with `given` on top; raises OptionError naming the problem."""
    if not isinstance(variant, str) or variant not in PRESETS:
        known = ", ".join(PRESETS)
        raise OptionError(f"unknown variant {variant!r}{_nearest(str(variant), PRESETS)} (known: {known})")
    if given is not None and not isinstance(given, Mapping):
        raise OptionError("options must be an object of option names and values")
    preset = PRESETS[variant]
    merged: dict[str, Any] = dict(preset.options)
    merged.update(given or {})
    values: dict[str, Any] = {}
    for name, value in merged.items():
        spec = OPTIONS.get(name)
        if spec is None:
            raise OptionError(f"unknown option {name!r}{_nearest(name, OPTIONS)}")
        if preset.game not in spec.games:
            raise OptionError(f"option {name!r} is not an option of {variant!r}")
        try:
            values[name] = spec.read(value)
        except ValueError:
            raise OptionError(f"option {name!r} must be {spec.values}, not {value!r}") from None
    seats = values.get("seats", 2)
    if seats > 2 and "stock_piles" not in merged:
        # One stock pile fewer per extra player (000): 1-2-3-4 at three seats, 1-2-3 at four.
        values["stock_piles"] = tuple(range(1, 5 - (seats - 2) + 1))
    if "runners" not in merged:
        values["runners"] = (1,) * seats
    elif len(values["runners"]) != seats:
        raise OptionError(f"option 'runners' needs one number for each of the {seats} seats, "
                          f"not {list(values['runners'])}")
    options = replace(Options(), **values)
    if preset.game != "spit":
        return options
    if (options.ghost_card or options.spit_card_please) and options.table_slap is not None:
        raise OptionError("options 'ghost_card' and 'spit_card_please' use the slap, as 'table_slap' does: "
                          "choose one")
    if options.ghost_card and options.spit_card_please:
        raise OptionError("options 'ghost_card' and 'spit_card_please' are both a card the player who plays out "
                          "slaps to win: choose one")
    if options.seats > 2:
        for name, two_only in (("choose", options.choose != "slap"), ("goal", options.goal != "fewest"),
                               ("table_slap", options.table_slap is not None), ("ghost_card", options.ghost_card),
                               ("spit_card_please", options.spit_card_please)):
            if two_only:
                raise OptionError(f"option {name!r} is for two seats, not {options.seats}")
    layout = sum(options.stock_piles)
    if layout >= options.cards_each:
        raise OptionError(
            f"option 'stock_piles' {list(options.stock_piles)} needs {layout} cards, but each player is dealt "
            f"{options.cards_each}: a layout must leave at least one spit card")
    return options
