from __future__ import annotations

from appliance.rules import deck
from appliance.rules.layout import deal_layout


def test_a_full_layout_is_dealt_row_by_row_with_the_rest_kept_as_spit_cards() -> None:
    cards = deck()[:26]
    piles, spit = deal_layout(cards, (1, 2, 3, 4, 5))
    # Row 1 gives cards 0-4 to piles 1-5, row 2 cards 5-8 to piles 2-5, and so on.
    assert [p.cards for p in piles] == [
        [cards[0]], [cards[1], cards[5]], [cards[2], cards[6], cards[9]],
        [cards[3], cards[7], cards[10], cards[12]], [cards[4], cards[8], cards[11], cards[13], cards[14]]]
    assert [p.up for p in piles] == [1, 1, 1, 1, 1]
    assert spit == cards[15:]


def test_fewer_than_15_cards_fill_the_rows_as_far_as_they_go_and_leave_no_spit_cards() -> None:
    for n, sizes in [(7, [1, 2, 2, 1, 1]), (11, [1, 2, 3, 3, 2]), (3, [1, 1, 1, 0, 0]), (15, [1, 2, 3, 4, 5])]:
        piles, spit = deal_layout(deck()[:n], (1, 2, 3, 4, 5))
        assert [len(p.cards) for p in piles] == sizes, n
        assert spit == []
        assert [p.up for p in piles] == [1 if s else 0 for s in sizes]


def test_other_layouts_are_one_option_away() -> None:
    piles, spit = deal_layout(deck()[:26], (1, 1, 11, 1, 1))
    assert [len(p.cards) for p in piles] == [1, 1, 11, 1, 1] and len(spit) == 11
