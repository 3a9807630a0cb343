"""A house rule's part of a setup position: each value read, and told where it is when it is wrong."""

from __future__ import annotations

import pytest

from appliance.rules import game_from_state
from appliance.rules.setup_values import card, seat_number, whole


def test_good_values_are_read() -> None:
    assert (whole(7, "m", 7, 13), seat_number(2, "ghost.giver", 2), card("TD2", "ghost.card", 2)) == (7, 2, "TD2")


@pytest.mark.parametrize(("read", "message"), [
    (lambda: whole(True, "table_slap.rank", 1, 13), "table_slap.rank must be a whole number from 1 to 13, not True"),
    (lambda: whole(14, "table_slap.rank", 1, 13), "table_slap.rank must be a whole number from 1 to 13, not 14"),
    (lambda: seat_number(3, "please.giver", 2), "please.giver must be a whole number from 1 to 2, not 3"),
    (lambda: seat_number("1", "ghost.beside", 2), "ghost.beside must be a whole number from 1 to 2, not '1'"),
    (lambda: card("TD2", "ghost.card", 1), "ghost.card: 'TD2' is not a card"),
    (lambda: card(None, "please.card", 1), "please.card: None is not a card"),
])
def test_a_bad_value_says_where_it_is_what_it_must_be_and_what_it_was(read: object, message: str) -> None:
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"):
        read()  # type: ignore[operator]


@pytest.mark.parametrize(("key", "part", "message"), [
    ("ghost", {"card": "5H", "beside": 3, "giver": 1, "race": None}, "ghost.beside must be a whole number from 1 to 2"),
    ("ghost", {"card": "XX", "beside": 1, "giver": 2, "race": None}, "ghost.card: 'XX' is not a card"),
    ("please", {"player": 1, "giver": 0, "card": "5H", "since": None},
     "please.giver must be a whole number from 1 to 2"),
    ("please", {"player": 1, "giver": 2, "card": 5, "since": None}, "please.card: 5 is not a card"),
])
def test_the_ghost_card_and_the_lent_card_read_their_seats_and_cards_alike(key: str, part: dict[str, object],
                                                                          message: str) -> None:
    from positions import position

    options = {"ghost_card": True} if key == "ghost" else {"spit_card_please": True}
    state = position(["5H", "9C", "2S", "", ""], ["6D", "3S", "8C", "", ""], spit=("4C", "JD"), p1_spit="7H",
                     p2_spit="7S 8S", options=options)
    state[key] = part
    with pytest.raises(ValueError, match=message):
        game_from_state(state)
