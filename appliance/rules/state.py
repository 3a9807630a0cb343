"""The state object of SCRIPT-FORMAT.md: reading a setup position, checking it adds up.

`Game.state()` writes the object; `game_from_state` reads one back. Beyond the documented keys the
core writes `called` on each player and `lone_pile`; both are optional on input (readers ignore
keys they don't know, and a position without them has no calls made and no lone pile chosen).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .cards import deck, is_card
from .game import PHASES, Game, PlayerState
from .stock_pile import StockPile
from .variant import Variant, variant_named


class SetupError(ValueError):
    """A setup position that is not a legal game: the message says what is wrong."""


def _cards(value: Any, where: str) -> list[str]:
    if not isinstance(value, list):
        raise SetupError(f"{where} must be a list of cards")
    for card in value:
        if not is_card(card):
            raise SetupError(f"{where}: {card!r} is not a card (rank A23456789TJQK then suit SHDC, e.g. 'TD')")
    return list(value)


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SetupError(f"{where} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _player(value: Any, number: int, variant: Variant) -> PlayerState:
    where = f"players[{number - 1}]"
    if not isinstance(value, dict):
        raise SetupError(f"{where} must be an object")
    stock_value = value.get("stock")
    if not isinstance(stock_value, list) or len(stock_value) != variant.stock_piles:
        raise SetupError(f"{where}.stock must be a list of {variant.stock_piles} stock piles")
    stock = []
    for i, pile in enumerate(stock_value):
        pwhere = f"{where}.stock[{i}]"
        if not isinstance(pile, dict):
            raise SetupError(f"{pwhere} must be an object with cards and up")
        cards = _cards(pile.get("cards"), f"{pwhere}.cards")
        up = _int(pile.get("up", 1 if cards else 0), f"{pwhere}.up", 0, len(cards))
        stock.append(StockPile(cards, up))
    spit_cards = _cards(value.get("spit_cards", []), f"{where}.spit_cards")
    selected = value.get("selected")
    if selected is not None:
        selected = _int(selected, f"{where}.selected", 1, variant.stock_piles)
        if stock[selected - 1].face_up_top is None:
            raise SetupError(f"{where}.selected names pile {selected}, which has no face-up top card")
    called = value.get("called", False)
    if not isinstance(called, bool):
        raise SetupError(f"{where}.called must be true or false")
    return PlayerState(stock, spit_cards, selected, called)


def game_from_state(state: Any, seed: int = 0, variant_name: str | None = None) -> Game:
    """A game at the given position; raises SetupError naming what is wrong."""
    if not isinstance(state, dict):
        raise SetupError("state must be an object")
    name = state.get("variant", variant_name or "classic")
    if variant_name is not None and name != variant_name:
        raise SetupError(f"state is for variant {name!r} but the setup says {variant_name!r}")
    try:
        variant = variant_named(name)
    except ValueError as error:
        raise SetupError(str(error)) from None
    phase = state.get("phase", "playing")
    if phase not in PHASES:
        raise SetupError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
    round_number = _int(state.get("round", 1), "round", 1, 1_000_000)
    winner = state.get("winner")
    if winner is not None:
        winner = _int(winner, "winner", 1, variant.seats)
    if (phase == "over") != (winner is not None):
        raise SetupError("winner must be set exactly when phase is 'over'")
    piles_value = state.get("spit_piles", [[], []])
    if not isinstance(piles_value, list) or len(piles_value) != 2:
        raise SetupError("spit_piles must be a list of two piles")
    spit_piles = [_cards(pile, f"spit_piles[{i}]") for i, pile in enumerate(piles_value)]
    players_value = state.get("players")
    if not isinstance(players_value, list) or len(players_value) != variant.seats:
        raise SetupError(f"players must be a list of {variant.seats} players")
    players = [_player(p, n, variant) for n, p in enumerate(players_value, start=1)]
    lone_pile = state.get("lone_pile")
    if lone_pile is not None:
        lone_pile = _int(lone_pile, "lone_pile", 0, 1)

    game = Game(variant=variant, players=players, spit_piles=spit_piles, phase=phase,
                round=round_number, winner=winner, lone_pile=lone_pile, seed=seed,
                rng=random.Random(seed))
    check_cards(game.all_cards(), variant)
    if phase == "playing" and not any(spit_piles):
        raise SetupError("phase 'playing' needs at least one spit pile with a card on it")
    for number, p in enumerate(players, start=1):
        if p.selected is not None and phase not in ("ready", "playing", "stalemate"):
            raise SetupError(f"players[{number - 1}].selected: nothing can be selected in phase {phase!r}")
        if p.called and (phase not in ("ready", "stalemate") or not p.spit_cards):
            raise SetupError(f"players[{number - 1}].called: only a player holding spit cards calls, "
                             "in phase 'ready' or 'stalemate'")
    if phase in ("ready", "playing", "stalemate"):
        for number, p in enumerate(players, start=1):
            if p.stock_count() == 0:
                raise SetupError(f"players[{number - 1}] has no stock cards: the round would be over")
    if phase == "stalemate":
        if not game.spitters():
            raise SetupError("phase 'stalemate' needs a player holding spit cards (without, the round is blocked)")
        for number in range(1, variant.seats + 1):
            if game.can_progress(number):
                raise SetupError(f"phase 'stalemate' but player {number} can still move")
    if phase == "choosing" and not all(spit_piles):
        raise SetupError("phase 'choosing' needs both spit piles to have cards")
    return game


def check_cards(cards: list[str], variant: Variant) -> None:
    """Every card of the deck exactly once, or a SetupError naming the missing and duplicate ones."""
    counts = Counter(cards)
    full = deck(variant.decks)
    missing = [card for card in full if card not in counts]
    duplicates = sorted(card for card, n in counts.items() if n > 1)
    problems = []
    if missing:
        problems.append("missing " + " ".join(missing))
    if duplicates:
        problems.append("duplicate " + " ".join(duplicates))
    if problems:
        raise SetupError("cards do not add up: " + "; ".join(problems))
