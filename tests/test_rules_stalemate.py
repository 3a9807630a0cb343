from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from positions import pile

from appliance.rules import CLASSIC, StockPile, can_progress, deck, ruleset

FITS, MOVES = CLASSIC.fits.fitting, CLASSIC.moves


def stock(*texts: str) -> list[StockPile]:
    return [StockPile(p["cards"], p["up"]) for p in (pile(t) for t in texts)]


def test_a_card_that_fits_is_progress() -> None:
    assert can_progress(stock("5H", "9C", "", "", ""), ["4D"], FITS, MOVES)
    assert not can_progress(stock("5H", "9C", "KS", "2S", "JD"), ["7D"], FITS, MOVES)


def test_a_face_down_top_is_progress() -> None:
    assert can_progress(stock("5H", "9C |", "KS", "2S", "JD"), ["7D"], FITS, MOVES)


def test_a_space_to_uncover_a_face_down_card_is_progress_and_a_full_row_is_not() -> None:
    assert can_progress(stock("QH 5H", "", "KS", "2S", "JD"), ["7D"], FITS, MOVES)
    assert not can_progress(stock("QH 5H", "9C", "KS", "2S", "JD"), ["7D"], FITS, MOVES)
    assert not can_progress(stock("5H", "", "KS", "2S", "JD"), ["7D"], FITS, MOVES)  # nothing under the 5H


def test_face_up_cards_within_reach_of_spaces_count_when_they_fit() -> None:
    # Two face-up cards (as after stacking): with one space the 6H under the QH is in reach.
    assert can_progress(stock("| 6H QH", "", "KS", "2S", "JD"), ["7D"], FITS, MOVES)
    assert not can_progress(stock("| 6H QH", "9C", "KS", "2S", "JD"), ["7D"], FITS, MOVES)


def closed_formula(stock: list[StockPile], tops: list[str]) -> bool:
    """Rule 6 for classic's three moves, as a formula: with k empty spaces a player can peel k
    cards off any pile, so each pile's top k+1 cards are within reach."""
    spaces = sum(1 for p in stock if not p.cards)
    for p in stock:
        for depth in range(min(len(p.cards), spaces + 1)):
            if depth >= p.up:
                return True
            if any(CLASSIC.fits.fits(p.cards[-1 - depth], top) for top in tops):
                return True
    return False


@st.composite
def stocks(draw: st.DrawFn) -> tuple[list[StockPile], list[str]]:
    cards = draw(st.permutations(deck()))
    piles, used = [], 0
    for _ in range(5):
        size = draw(st.integers(0, 5))
        up = draw(st.integers(0, size))
        piles.append(StockPile(list(cards[used:used + size]), up))
        used += size
    tops = list(cards[used:used + draw(st.integers(1, 2))])
    return piles, tops


@settings(max_examples=400, deadline=None)
@given(stocks())
def test_the_search_agrees_with_the_closed_formula_for_classic_moves(case: tuple[list[StockPile], list[str]]) -> None:
    stock, tops = case
    assert can_progress(stock, tops, FITS, MOVES) == closed_formula(stock, tops)


def test_stacking_same_ranks_can_uncover_a_card() -> None:
    stacking = ruleset("classic", {"same_rank_stacking": True}).moves
    # No space, nothing fits the 7D: classic is stuck, but the 9C may go onto the 9H and uncover QH.
    piles = stock("QH 9C", "9H", "KS", "2S", "JD")
    assert not can_progress(piles, ["7D"], FITS, MOVES)
    assert can_progress(piles, ["7D"], FITS, stacking)
    # Two stackings in a row: the 5S goes onto the 5D, then the face-up 8C under it onto the 8H,
    # uncovering the face-down AS.
    deep = stock("AS | 8C 5S", "5D", "8H", "KS", "JD")
    assert can_progress(deep, ["3C"], FITS, stacking)
    assert not can_progress(deep, ["3C"], FITS, MOVES)
    # Nothing under the stacked card and nothing fits: still stuck.
    assert not can_progress(stock("9C", "9H", "KS", "2S", "JD"), ["7D"], FITS, stacking)


def test_every_card_face_up_and_none_fitting_is_stuck_however_many_ways_it_can_be_rearranged() -> None:
    """Two decks and same-rank stacking: the 7s, 8s and 10s can be shuffled among the piles in tens of
    thousands of ways, none of which uncovers anything (the search once gave up and called it progress,
    and two computer players then waited for ever)."""
    rules = ruleset("two-decks", {"same_rank_stacking": True, "alternate_colours": True})
    piles = [StockPile(["7S2", "7C2", "7D2", "7S1"], 4), StockPile(["TH1"], 1), StockPile(["8S2", "8D1", "8H2"], 3),
             StockPile([], 0), StockPile(["TH2", "TD2", "TD1"], 3), StockPile(["8H1"], 1)]
    assert rules.moves.rearrangements(piles)  # there are moves to make, and they lead nowhere
    assert not can_progress(piles, ["3C1", "JH1"], rules.fits.fitting, rules.moves)
    piles[2] = StockPile(["QS1", "8S2", "8D1", "8H2"], 3)  # a black queen under the 8s: on the JH1 it fits
    assert can_progress(piles, ["3C1", "JH1"], rules.fits.fitting, rules.moves)


def test_a_runner_may_move_a_card_into_a_space_and_lift_the_next_one() -> None:
    """V16: the 8H goes into the space, then the 9C is carried off and the QD under it turned. Classic
    reaches only the 8H's depth with one space; the search must ask for lifts after every move too."""
    running = ruleset("running").moves
    piles = stock("QD | 9C 8H", "", "KS", "2S", "JS")
    assert not can_progress(piles, ["4D", "6C"], FITS, MOVES)
    assert can_progress(piles, ["4D", "6C"], FITS, running)
    assert not can_progress(stock("QD | 9C 8H", "TC", "KS", "2S", "JS"), ["4D", "6C"], FITS, running)  # no space
