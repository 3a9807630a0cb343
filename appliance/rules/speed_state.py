"""Speed's state object (the script format's Speed section): reading a setup position and checking it
adds up; the snapshot, which is the state plus the clock, the RNG's state and the races; and the
game type the family registers (`SPEED`).

Beyond the documented keys the core writes `called` on each player (optional on input: nobody has
called). Every problem with a position is a SetupError naming it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card, card_help, is_card
from .events import Event
from .game import SNAPSHOT_VERSION
from .options import Options
from .race import Race
from .speed import PHASES, SpeedGame
from .speed_hand import HAND_SIZE, SpeedSeat
from .speed_side_stacks import MiddleRow
from .state import SetupError, check_cards, options_in_force
from .terms import Phase

MAX_SCORE = 1_000_000


def _cards(value: Any, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise SetupError(f"{where} must be a list of cards")
    for card in value:
        if not is_card(card):
            raise SetupError(f"{where}: {card!r} is not a card ({card_help()})")
    return list(value)


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SetupError(f"{where} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _two(value: Any, where: str, what: str) -> list[list[Card]]:
    if not isinstance(value, list) or len(value) != 2:
        raise SetupError(f"{where} must be a list of 2 {what}")
    return [_cards(item, f"{where}[{i}]") for i, item in enumerate(value)]


def _hand(value: Any, where: str) -> list[Card | None]:
    if not isinstance(value, list) or len(value) != HAND_SIZE:
        raise SetupError(f"{where} must be a list of {HAND_SIZE} slots, each a card or null")
    for card in value:
        if card is not None and not is_card(card):
            raise SetupError(f"{where}: {card!r} is neither a card ({card_help()}) nor null")
    return list(value)


def _player(value: Any, number: int) -> SpeedSeat:
    where = f"players[{number - 1}]"
    if not isinstance(value, dict):
        raise SetupError(f"{where} must be an object with hand and stock")
    hand = _hand(value.get("hand"), f"{where}.hand")
    stock = _cards(value.get("stock", []), f"{where}.stock")
    score = _int(value.get("score", 0), f"{where}.score", 0, MAX_SCORE)
    selected = value.get("selected")
    if selected is not None:
        selected = _int(selected, f"{where}.selected", 1, HAND_SIZE)
        if hand[selected - 1] is None:
            raise SetupError(f"{where}.selected names slot {selected}, which holds no card")
    called = value.get("called", False)
    if not isinstance(called, bool):
        raise SetupError(f"{where}.called must be true or false")
    return SpeedSeat(hand, stock, score, selected, called)


def options_for(state: Mapping[str, Any], variant: str | None, options: Mapping[str, Any] | None
                ) -> tuple[str, Options]:
    """The preset and options a Speed state is played by, which must agree with the setup's."""
    return options_in_force(state, variant, options, "speed")


def game_from_state(state: Any, seed: int = 0, variant: str | None = None,
                    options: Mapping[str, Any] | None = None) -> SpeedGame:
    """A Speed game at the given position; raises SetupError naming what is wrong."""
    if not isinstance(state, dict):
        raise SetupError("state must be an object")
    name, opts = options_for(state, variant, options)
    phase = state.get("phase", "playing")
    if phase not in PHASES:
        raise SetupError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
    phase = Phase(phase)
    round_number = _int(state.get("round", 1), "round", 1, 1_000_000)
    winner = state.get("winner")
    if winner is not None:
        winner = _int(winner, "winner", 1, 2)
    if (phase == "over") != (winner is not None):
        raise SetupError("winner must be set exactly when phase is 'over'")
    spit_piles = _two(state.get("spit_piles", [[], []]), "spit_piles", "spit piles")
    side_stacks = _two(state.get("side_stacks", [[], []]), "side_stacks", "side stacks")
    players_value = state.get("players")
    if not isinstance(players_value, list) or len(players_value) != 2:
        raise SetupError("players must be a list of 2 players")
    players = [_player(p, n) for n, p in enumerate(players_value, start=1)]

    game = SpeedGame(options=opts, players=players, middle=MiddleRow(spit_piles, side_stacks), variant_name=name,
                     phase=phase, round=round_number, winner=winner, seed=seed, rng=random.Random(seed))
    check_cards(game.all_cards())
    _check_position(game)
    return game


def _check_position(game: SpeedGame) -> None:
    phase, target = game.phase, game.options.target
    for number, p in enumerate(game.players, start=1):
        where = f"players[{number - 1}]"
        if phase == "over":
            if p.selected is not None or p.called:
                raise SetupError(f"{where}: nothing is selected or called once the game is over")
            continue
        if p.score >= target:
            raise SetupError(f"{where}.score {p.score} has reached the target {target}: the game would be over")
        if p.played_out():
            raise SetupError(f"{where} has no cards in hand or stock: the deal would be over")
        if p.called and phase not in (Phase.READY, Phase.STALEMATE):
            raise SetupError(f"{where}.called: players call only in phase 'ready' or 'stalemate'")
    if all(p.called for p in game.players):
        raise SetupError("both players have called: the middle cards would have been turned")
    if phase == "over":
        assert game.winner is not None
        if game.player(game.winner).score < target:
            raise SetupError(f"winner {game.winner} has not reached the target {target}")
    elif phase == "ready":
        if any(game.middle.spit_piles):
            raise SetupError("phase 'ready': the spit piles are empty until both call")
        if not all(game.middle.side_stacks):
            raise SetupError("phase 'ready': each side stack needs a card to turn up")
    elif not all(game.middle.spit_piles):
        raise SetupError(f"phase {phase!r} needs a card on each spit pile")
    if phase == "stalemate":
        for number in game.table.players:
            if game.can_move(number):
                raise SetupError(f"phase 'stalemate' but player {number} can still play or draw")


# ---------------------------------------------------------------------- snapshots




def snapshot(game: SpeedGame) -> dict[str, Any]:
    """Everything the game holds, JSON-ready (`SpeedGame.snapshot`)."""
    return game.snapshot()


def restore(snap: Any) -> SpeedGame:
    """The game a snapshot was taken of; raises SetupError if it is not a snapshot this core wrote."""
    if not isinstance(snap, dict) or snap.get("snapshot") != SNAPSHOT_VERSION:
        raise SetupError(f"not a snapshot of version {SNAPSHOT_VERSION}")
    try:
        game = game_from_state(snap["state"], seed=snap["seed"], variant=snap["variant"], options=snap["options"])
        version, internal, gauss = snap["rng"]
        game.rng.setstate((version, tuple(internal), gauss))
        game.now = float(snap["now"])
        races = [None if r is None else Race(float(r[0]), int(r[1]), str(r[2])) for r in snap["races"]]
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, SetupError):
            raise
        raise SetupError(f"a damaged snapshot: {error!r}") from None
    if len(races) != game.table.spit_piles:
        raise SetupError("a damaged snapshot: one race per spit pile")
    game.races = races
    return game


@dataclass(frozen=True)
class SpeedGames:
    """The game type `speed` (family.GAME_TYPES)."""

    def new(self, variant: str, options: Options, seed: int) -> tuple[SpeedGame, list[Event]]:
        return SpeedGame.new(options, seed, variant)

    def from_state(self, state: Any, seed: int, variant: str, options: Mapping[str, Any] | None) -> SpeedGame:
        return game_from_state(state, seed=seed, variant=variant, options=options)

    def restore(self, snap: dict[str, Any]) -> SpeedGame:
        return restore(snap)


SPEED = SpeedGames()
