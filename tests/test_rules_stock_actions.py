"""What a stock offers as it lies: the one source of the legal actions, the stalemate test and the assist."""

from __future__ import annotations

from positions import pile

from appliance.rules import CLASSIC, StockPile, ruleset
from appliance.rules.actions import FLIPS, LIFTS, MOVES, PLAYS
from appliance.rules.stock_actions import stock_actions, tops_of, turns_and_plays

FITS, MOVES_POLICY = CLASSIC.fits.fitting, CLASSIC.moves


def stock(*texts: str) -> list[StockPile]:
    return [StockPile(p["cards"], p["up"]) for p in (pile(t) for t in texts)]


def test_turns_and_plays_lists_each_fit_and_each_face_down_top() -> None:
    assert turns_and_plays(stock("5H", "3C", "", "", "8D |"), tops_of([["4D"], ["2S"]], FITS)) == [
        PLAYS[1][0], PLAYS[2][0], PLAYS[2][1], FLIPS[5]]
    assert turns_and_plays(stock("5H", "", "", "", ""), tops_of([[], ["6S"]], FITS)) == [PLAYS[1][1]]
    assert turns_and_plays(stock("5H", "3C", "", "", "8D |"), tops_of([["4D"], ["2S"]], FITS), first=True) == [
        PLAYS[1][0]]


def test_a_carried_card_plays_from_its_pile_and_the_card_under_it_waits() -> None:
    """V16: the 4D carried off pile 1 fits the 3C; the 5H under it would fit too, but it is reached only
    once the 4D is put back; a face-down card under a carried one can be turned."""
    tops = tops_of([["3C"], ["6S"]], FITS)
    assert turns_and_plays(stock("5H", "9C"), tops, carried="4D", under=1) == [PLAYS[1][0]]
    assert turns_and_plays(stock("5H |", "9C"), tops, carried="KD", under=1) == [FLIPS[1]]
    assert turns_and_plays(stock("5H", "9C"), tops) == [PLAYS[1][1]]  # nothing carried: the 5H plays




def test_the_stock_actions_are_turns_and_plays_then_rearrangements_then_lifts() -> None:
    tops = tops_of([["4D"], ["2S"]], FITS)
    assert stock_actions(stock("QH 5H", "", "8D |"), tops, MOVES_POLICY) == [PLAYS[1][0], FLIPS[3], MOVES[1][2]]
    running = ruleset("running").moves
    assert stock_actions(stock("QH 5H", "", "8D |"), tops, running) == [
        PLAYS[1][0], FLIPS[3], MOVES[1][2], LIFTS[1]]
    # The 5H carried off pile 1: the QH under it can be turned, the 5H plays from there, and pile 1
    # counts as holding it for the moves and the lifts (it can be put back).
    assert stock_actions(stock("QH |", "", "8D |"), tops, running, carried="5H", under=1) == [
        FLIPS[1], FLIPS[3], PLAYS[1][0], MOVES[1][2], LIFTS[1]]


def test_nothing_is_played_where_no_spit_pile_shows_a_card() -> None:
    """(A table slap being judged: the engine asks with no tops, and only cards are turned.)"""
    assert turns_and_plays(stock("5H", "3C |"), []) == [FLIPS[2]]
