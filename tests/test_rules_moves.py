"""The stock moves: the actions made once for the engine, and the rearrangements it offers."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.rules import Game, Seat, StockPile, new_game
from appliance.rules.carry import seat_in_reach
from appliance.rules.moves import FLIPS, LIFTS, MOVES, PLAYS, STACKS, Action, StockMoves
from lab.random_play import mash


def test_the_actions_made_once_are_the_actions_made_anywhere() -> None:
    assert PLAYS[3][1] == Action("play", 3, 1) and FLIPS[6] == Action("flip", 6)
    assert MOVES[2][5] == Action("move", 2, 5) and STACKS[1][4] == Action("stack", 1, 4)
    assert LIFTS[5] == Action("lift", 5)


piles = st.lists(st.tuples(st.lists(st.sampled_from(["5H", "5S", "9C", "KD"]), max_size=4),
                           st.integers(0, 4)), min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(piles, st.booleans())
def test_the_first_space_given_or_looked_for_makes_the_same_rearrangements(
        shape: list[tuple[list[str], int]], stacking: bool) -> None:
    stock = [StockPile(cards, min(up, len(cards))) for cards, up in shape]
    space = next((n for n, pile in enumerate(stock, start=1) if not pile.cards), 0)
    moves = StockMoves(stacking=stacking)
    found = moves.rearrangements(stock)
    assert moves.rearrangements(stock, space) == found
    assert all(action.kind in ("move", "stack") and action.pile != action.target for action in found)
    if space and not stacking:
        assert found == [Action("move", n, space) for n, pile in enumerate(stock, start=1)
                         if len(pile.cards) > 1 and pile.up]


@pytest.mark.parametrize(("variant", "options"), [
    ("classic", None), ("two-decks", None), ("eleven-middle", None), ("four-piles", {"same_rank_stacking": True}),
    ("classic", {"seats": 3, "two_hands": True}), ("running", None)])
def test_the_engine_offers_the_stock_moves_and_plays_the_policies_say(variant: str,
                                                                      options: dict[str, Any] | None) -> None:
    """Whatever the engine works out for itself (the first space as it goes, what fits on each top),
    its `legal_actions` hold exactly the policy's rearrangements of the stock as the player can use
    it, and the plays worked out here card by card with the ruleset's `fits` (a card carried off its
    pile, V16, plays from there; the card under it does not)."""
    checked = 0
    for seed in range(4):
        game, _ = new_game(variant, seed, options)
        assert isinstance(game, Game)
        rng, now = random.Random(seed), 0.0
        for _ in range(3000):
            if game.phase == "over":
                break
            if game.phase == "playing" and not any(rule.holds_play() for rule in game.house):
                for player, seat in enumerate(game.players, start=1):
                    if not seat.playing:
                        continue
                    legal = game.legal_actions(player)
                    reach = seat_in_reach(seat)
                    assert [a for a in legal if a.kind in ("move", "stack")] == game.rules.moves.rearrangements(reach)
                    assert {(a.pile, a.target) for a in legal if a.kind == "play"} == plays(game, seat)
                    checked += 1
            wait, player, control = mash(game, rng)
            now += wait
            game.press(now, player, control)
    assert checked > 200


def plays(game: Game, seat: Seat) -> set[tuple[int, int]]:
    """Every (stock pile, spit pile) a card in reach of the hand fits onto, asked of `fits` one by one."""
    showing: list[tuple[int, str]] = []
    for number, pile in enumerate(seat.stock, start=1):
        if seat.carried is not None and number == seat.selected:
            showing.append((number, seat.carried))
        elif pile.cards and pile.up:
            showing.append((number, pile.cards[-1]))
    return {(number, index) for number, card in showing for index, spit_pile in enumerate(game.spit_piles)
            if spit_pile and game.rules.fits.fits(card, spit_pile[-1])}
