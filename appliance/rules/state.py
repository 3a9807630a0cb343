"""The state object of the script format: reading a setup position, checking it adds up; and the
snapshot, which is the state plus everything else a game holds, so a game resumes from it exactly.

`Game.state()` writes the object; `game_from_state` reads one back. Beyond the documented keys the
core writes `called` on each player, `lone_pile`, and where a rule needs them `second` (V8's second
hand), `hidden` (V9) and `chooser` (who chooses the pile at this new layout); all are optional on
input (a position without them has no calls made, nothing hidden, nobody chosen yet).

A snapshot (`snapshot(game)` / `restore(snapshot)`) adds the clock, the RNG's state, the races on
each spit pile and the last settling slap: resuming from it and going on gives, byte for byte, what
the uninterrupted game gives.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from .cards import card_help, deck, is_card
from .choosing import SlapRace
from .game import PHASES, SNAPSHOT_VERSION, Game
from .options import PRESETS, OptionError, Options, read_options
from .race import Race
from .ruleset import Ruleset, compose
from .seat import Seat
from .stock_pile import StockPile
from .terms import Phase


class SetupError(ValueError):
    """A setup position that is not a legal game: the message says what is wrong."""


def _cards(value: Any, where: str, decks: int) -> list[str]:
    if not isinstance(value, list):
        raise SetupError(f"{where} must be a list of cards")
    for card in value:
        if not is_card(card, decks):
            raise SetupError(f"{where}: {card!r} is not a card ({card_help(decks)})")
    return list(value)


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SetupError(f"{where} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise SetupError(f"{where} must be true or false")
    return value


def _pile_number(value: Any, where: str, stock: list[StockPile], carrying: bool = False) -> int | None:
    if value is None:
        return None
    number = _int(value, where, 1, len(stock))
    if not carrying and stock[number - 1].face_up_top is None:
        raise SetupError(f"{where} names pile {number}, which has no face-up top card")
    return number


def _player(value: Any, number: int, rules: Ruleset) -> Seat:
    where = f"players[{number - 1}]"
    decks = rules.options.decks
    piles = len(rules.layout.sizes)
    if not isinstance(value, dict):
        raise SetupError(f"{where} must be an object")
    stock_value = value.get("stock")
    if not isinstance(stock_value, list) or len(stock_value) != piles:
        raise SetupError(f"{where}.stock must be a list of {piles} stock piles")
    stock = []
    for i, pile in enumerate(stock_value):
        pwhere = f"{where}.stock[{i}]"
        if not isinstance(pile, dict):
            raise SetupError(f"{pwhere} must be an object with cards and up")
        cards = _cards(pile.get("cards"), f"{pwhere}.cards", decks)
        up = _int(pile.get("up", 1 if cards else 0), f"{pwhere}.up", 0, len(cards))
        stock.append(StockPile(cards, up))
    spit_cards = _cards(value.get("spit_cards", []), f"{where}.spit_cards", decks)
    selected = _pile_number(value.get("selected"), f"{where}.selected", stock,
                            carrying=value.get("carried") is not None)
    second = _pile_number(value.get("second"), f"{where}.second", stock)
    if second is not None and (rules.moves.hands < 2 or selected is None or second == selected):
        raise SetupError(f"{where}.second: a second hand holds a card only with two_hands, beside `selected`")
    called = _bool(value.get("called", False), f"{where}.called")
    hidden = _bool(value.get("hidden", False), f"{where}.hidden")
    if hidden and rules.moves.pick_up is None:
        raise SetupError(f"{where}.hidden: cards are picked up only with hidden_last")
    out = _int(value.get("out", 0), f"{where}.out", 0, rules.table.seats)
    taken = _cards(value.get("taken", []), f"{where}.taken", decks)
    if (out or taken) and rules.table.seats == 2:
        raise SetupError(f"{where}: only at a table of three or four does a player go out or take a pile early")
    if out and (selected is not None or called or any(pile.cards for pile in stock)):
        raise SetupError(f"{where}.out: a player out of the round has no stock cards, holds nothing, calls nothing")
    carried = value.get("carried")
    if carried is not None and (not rules.moves.carry or selected is None or not is_card(carried, decks)):
        raise SetupError(f"{where}.carried: a card is carried only in Running Spit, from the `selected` pile")
    runner = _int(value.get("runner", 0), f"{where}.runner", 0, rules.options.runners[number - 1] - 1)
    return Seat(stock, spit_cards, selected, called, second, hidden, out, taken, carried, runner)


def options_in_force(state: Mapping[str, Any], variant: str | None, options: Mapping[str, Any] | None,
                     game: str) -> tuple[str, Options]:
    """The preset and options a state of game type `game` is played by: its own, which must agree
    with the setup's where both give them."""
    name = state.get("variant", variant or ("classic" if game == "spit" else game))
    if variant is not None and name != variant:
        raise SetupError(f"state is for variant {name!r} but the setup says {variant!r}")
    if isinstance(name, str) and name in PRESETS and PRESETS[name].game != game:
        raise SetupError(f"unknown variant {name!r} for a {game} position (a game of its own: game_from_setup "
                         "reads it)")
    in_state = state.get("options")
    try:
        if in_state is not None and options is not None \
                and read_options(name, in_state) != read_options(name, options):
            raise SetupError("the options in the state and in the setup do not agree")
        return name, read_options(name, options if options is not None else in_state)
    except OptionError as error:
        raise SetupError(str(error)) from None


def rules_for(state: Mapping[str, Any], variant: str | None, options: Mapping[str, Any] | None) -> Ruleset:
    """The ruleset a state is played by: its variant and options, which must agree with the setup's."""
    return compose(*options_in_force(state, variant, options, "spit"))


def game_from_state(state: Any, seed: int = 0, variant_name: str | None = None,
                    options: Mapping[str, Any] | None = None) -> Game:
    """A game at the given position; raises SetupError naming what is wrong."""
    if not isinstance(state, dict):
        raise SetupError("state must be an object")
    rules = rules_for(state, variant_name, options)
    table = rules.table
    decks = rules.options.decks
    phase = state.get("phase", "playing")
    if phase not in PHASES:
        raise SetupError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
    phase = Phase(phase)
    round_number = _int(state.get("round", 1), "round", 1, 1_000_000)
    winner = state.get("winner")
    if winner is not None:
        winner = _int(winner, "winner", 1, table.seats)
    if (phase == "over") != (winner is not None):
        raise SetupError("winner must be set exactly when phase is 'over'")
    piles_value = state.get("spit_piles", [[] for _ in range(table.spit_piles)])
    if not isinstance(piles_value, list) or len(piles_value) != table.spit_piles:
        raise SetupError(f"spit_piles must be a list of {table.spit_piles} piles")
    spit_piles = [_cards(pile, f"spit_piles[{i}]", decks) for i, pile in enumerate(piles_value)]
    players_value = state.get("players")
    if not isinstance(players_value, list) or len(players_value) != table.seats:
        raise SetupError(f"players must be a list of {table.seats} players")
    players = [_player(p, n, rules) for n, p in enumerate(players_value, start=1)]
    lone_pile = state.get("lone_pile")
    if lone_pile is not None:
        lone_pile = _int(lone_pile, "lone_pile", 0, table.spit_piles - 1)
    chooser = state.get("chooser")
    if chooser is not None:
        chooser = _int(chooser, "chooser", 1, table.seats)
        if phase != "choosing":
            raise SetupError("chooser is set only in phase 'choosing'")

    game = Game(rules=rules, players=players, spit_piles=spit_piles, phase=phase, round=round_number,
                winner=winner, lone_pile=lone_pile, seed=seed, rng=random.Random(seed))
    game.choosing.chooser = chooser
    for rule in game.house:  # each house rule reads its own part
        try:
            rule.read_state(game, state.get(rule.key))
        except ValueError as error:
            raise SetupError(str(error)) from None
    check_cards(game.all_cards(), decks)
    if phase == "playing" and not any(spit_piles):
        raise SetupError("phase 'playing' needs at least one spit pile with a card on it")
    for number, p in enumerate(players, start=1):
        if p.selected is not None and phase not in (Phase.READY, Phase.PLAYING, Phase.STALEMATE):
            raise SetupError(f"players[{number - 1}].selected: nothing can be selected in phase {phase!r}")
        if p.called and (phase not in (Phase.READY, Phase.STALEMATE) or not p.spit_cards):
            raise SetupError(f"players[{number - 1}].called: only a player holding spit cards calls, "
                             "in phase 'ready' or 'stalemate'")
    try:
        game.round_end.read_state(players, state.get("choosers_out"))
    except ValueError as error:
        raise SetupError(str(error)) from None
    places = sorted(p.out for p in players if p.out)
    if places != list(range(1, len(places) + 1)) or len(places) >= table.seats:
        raise SetupError("players' out places must be 1, 2, ... and somebody must still be playing")
    if phase in (Phase.READY, Phase.PLAYING, Phase.STALEMATE):
        for number, p in enumerate(players, start=1):
            if p.stock_count() == 0 and p.playing:
                raise SetupError(f"players[{number - 1}] has no stock cards: the round would be over")
    if phase == "stalemate":
        if not game.spitters():
            raise SetupError("phase 'stalemate' needs a player holding spit cards (without, the round is blocked)")
        for number in table.players:
            # An empty middle (after a table slap took the piles) waits for the calls whatever the stock.
            if any(spit_piles) and game.player(number).playing and game.can_progress(number):
                raise SetupError(f"phase 'stalemate' but player {number} can still move")
    racing = any(rule.deadline() is not None for rule in game.house)  # a house rule's race holds the round
    if phase == "choosing" and sum(1 for pile in spit_piles if pile) < 2 and not racing:
        raise SetupError("phase 'choosing' needs at least two spit piles with cards")
    return game


def check_cards(cards: list[str], decks: int = 1) -> None:
    """Every card of the deck(s) exactly once, or a SetupError naming the missing and duplicate ones."""
    counts = Counter(cards)
    full = deck(decks)
    missing = [card for card in full if card not in counts]
    duplicates = sorted(card for card, n in counts.items() if n > 1)
    problems = []
    if missing:
        problems.append("missing " + " ".join(missing))
    if duplicates:
        problems.append("duplicate " + " ".join(duplicates))
    if problems:
        raise SetupError("cards do not add up: " + "; ".join(problems))


# ---------------------------------------------------------------------- snapshots

def snapshot(game: Game) -> dict[str, Any]:
    """Everything the game holds, JSON-ready (`Game.snapshot`): `restore` gives back a game that goes
    on identically."""
    return game.snapshot()


def restore(snap: Any) -> Game:
    """The game a snapshot was taken of; raises SetupError if it is not a snapshot this core wrote."""
    if not isinstance(snap, dict) or snap.get("snapshot") != SNAPSHOT_VERSION:
        raise SetupError(f"not a snapshot of version {SNAPSHOT_VERSION}")
    try:
        game = game_from_state(snap["state"], seed=snap["seed"], variant_name=snap["variant"],
                               options=snap["options"])
        version, internal, gauss = snap["rng"]
        game.rng.setstate((version, tuple(internal), gauss))
        game.now = float(snap["now"])
        game.races = [None if r is None else Race(float(r[0]), int(r[1]), str(r[2])) for r in snap["races"]]
        slap = snap["slap_race"]
        game.choosing.settled = None if slap is None else SlapRace(float(slap[0]), int(slap[1]),
                                                            {int(p): int(i) for p, i in slap[2]})
        game.choosing.chooser_t = float(snap["chooser_t"])
        for seat, retry in zip(game.players, snap.get("retry") or [None] * len(game.players), strict=True):
            seat.retry = None if retry is None else int(retry)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, SetupError):
            raise
        raise SetupError(f"a damaged snapshot: {error!r}") from None
    if len(game.races) != len(game.spit_piles):
        raise SetupError("a damaged snapshot: one race per spit pile")
    return game
