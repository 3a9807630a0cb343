from __future__ import annotations

import pytest

from appliance.rules import RANKS, deck, is_card, next_in_rank, rank_of
from appliance.rules.ruleset import CLASSIC, ruleset


def test_a_deck_is_52_different_cards() -> None:
    cards = deck()
    assert len(cards) == 52 == len(set(cards))
    assert all(is_card(card) for card in cards)


@pytest.mark.parametrize("text", ["10H", "1S", "TX", "th", "", "TDD", 5, None])
def test_is_card_refuses_what_is_not_a_card(text: object) -> None:
    assert not is_card(text)


def test_next_in_rank_is_one_up_or_down_with_the_ace_between_king_and_two() -> None:
    for i, rank in enumerate(RANKS):
        up, down = RANKS[(i + 1) % 13], RANKS[(i - 1) % 13]
        assert next_in_rank(up + "S", rank + "H") and next_in_rank(down + "S", rank + "H")
        others = [r for r in RANKS if r not in (up, down)]
        assert not any(next_in_rank(r + "S", rank + "H") for r in others)
    assert rank_of("AS") == 1 and rank_of("KD") == 13


def test_alternating_colours_is_a_fits_policy() -> None:
    alternating = ruleset("classic", {"alternate_colours": True}).fits
    assert CLASSIC.fits.fits("6S", "5C")
    assert not alternating.fits("6S", "5C") and alternating.fits("6H", "5C")
    assert alternating.misfit("6S", "5C") == "wrong_colour" and alternating.misfit("9H", "5C") == "not_adjacent"


def test_two_decks_carry_their_deck_behind_every_card() -> None:
    cards = deck(2)
    assert len(cards) == 104 == len(set(cards))
    assert cards[0] == "AS1" and cards[-1] == "KC2"
    assert is_card("TD2", decks=2) and not is_card("TD", decks=2) and not is_card("TD1")
    assert rank_of("QH2") == 12 and next_in_rank("KS1", "AD2")
    with pytest.raises(ValueError):
        deck(3)
