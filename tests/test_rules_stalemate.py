from __future__ import annotations

from positions import pile

from appliance.rules import CLASSIC, StockPile, can_progress, playable


def stock(*texts: str) -> list[StockPile]:
    return [StockPile(p["cards"], p["up"]) for p in (pile(t) for t in texts)]


def test_a_card_that_fits_is_progress() -> None:
    assert can_progress(stock("5H", "9C", "", "", ""), ["4D"], CLASSIC)
    assert not can_progress(stock("5H", "9C", "KS", "2S", "JD"), ["7D"], CLASSIC)


def test_a_face_down_top_is_progress() -> None:
    assert can_progress(stock("5H", "9C |", "KS", "2S", "JD"), ["7D"], CLASSIC)


def test_a_space_to_uncover_a_face_down_card_is_progress_and_a_full_row_is_not() -> None:
    assert can_progress(stock("QH 5H", "", "KS", "2S", "JD"), ["7D"], CLASSIC)
    assert not can_progress(stock("QH 5H", "9C", "KS", "2S", "JD"), ["7D"], CLASSIC)
    assert not can_progress(stock("5H", "", "KS", "2S", "JD"), ["7D"], CLASSIC)  # nothing under the 5H


def test_face_up_cards_within_reach_of_spaces_count_when_they_fit() -> None:
    # Two face-up cards (as after stacking): with one space the 6H under the QH is in reach.
    assert can_progress(stock("| 6H QH", "", "KS", "2S", "JD"), ["7D"], CLASSIC)
    assert not can_progress(stock("| 6H QH", "9C", "KS", "2S", "JD"), ["7D"], CLASSIC)


def test_playable_lists_each_fit() -> None:
    assert playable(stock("5H", "3C", "", "", "8D |"), [["4D"], ["2S"]], CLASSIC) == [(1, 0), (2, 0), (2, 1)]
    assert playable(stock("5H", "", "", "", ""), [[], ["6S"]], CLASSIC) == [(1, 1)]
