"""A test per rule of each variant, from explicit positions (RULES.md V1-V12, V15; seeds/README.md)."""

from __future__ import annotations

from typing import Any

import pytest
from positions import kinds, position, press, presses

from appliance.rules import Game, OptionError, deck, game_from_state, new_game, read_options


def at(p1: list[str], p2: list[str], variant: str = "classic", options: dict[str, Any] | None = None,
       **kwargs: Any) -> Game:
    return game_from_state(position(p1, p2, variant=variant, options=options, **kwargs))


def rejects(events: list[dict[str, Any]]) -> list[str]:
    return [e["reason"] for e in events if e["event"] == "reject"]


# ---------------------------------------------------------------- V1-V5: layouts and decks

@pytest.mark.parametrize(("variant", "sizes", "spit_cards"), [
    ("classic", [1, 2, 3, 4, 5], 11),
    ("four-piles", [1, 2, 3, 4], 16),
    ("eleven-middle", [1, 1, 11, 1, 1], 11),
    ("threes", [3, 3, 3, 3, 3], 11),
    ("two-decks", [1, 2, 3, 4, 5, 6], 31),
    ("refill", [1, 1, 1, 1], 22),
])
def test_v1_to_v5_each_preset_deals_its_layout_top_cards_face_up(variant: str, sizes: list[int],
                                                                 spit_cards: int) -> None:
    game, events = new_game(variant, seed=5)
    for seat in game.players:
        assert [len(pile.cards) for pile in seat.stock] == sizes
        assert [pile.up for pile in seat.stock] == [1] * len(sizes)
        assert len(seat.spit_cards) == spit_cards
    assert events[0].to_json()["players"] == [{"stock": sum(sizes), "spit_cards": spit_cards}] * 2


def test_v4_two_decks_every_card_names_its_deck_and_equal_cards_both_play() -> None:
    game, _ = new_game("two-decks", seed=2)
    assert sorted(game.all_cards()) == sorted(deck(2))
    game = at(["5H1", "5H2", "KS1", "KS2", "QD1", "QD2"], ["9C1", "9C2", "JS1", "JS2", "2D1", "2D2"],
              variant="two-decks", spit=("4C1", "6C2"))
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"), (1.2, 1, "pile2"), (1.3, 1, "right"))
    assert [(e["card"], e["onto"]) for e in events if e["event"] == "play"] == [("5H1", "4C1"), ("5H2", "6C2")]
    with pytest.raises(Exception, match="'5H' is not a card"):
        at(["5H", "", "", "", "", ""], ["9C1", "", "", "", "", ""], variant="two-decks", spit=("4C1", ""))


def test_v5_a_played_stock_pile_is_refilled_at_once_from_the_spit_cards() -> None:
    game = at(["5H", "KS", "QD", "JC"], ["2C", "3C", "9S", "8S"], variant="refill", spit=("4D", "TC"),
              p1_spit="7D 8D", p2_spit="AH")
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert kinds(events) == ["select", "play", "refill"]
    assert events[-1] == {"t": 1.1, "event": "refill", "player": 1, "pile": 1, "card": "7D"}
    assert game.players[0].stock[0].cards == ["7D"] and game.players[0].stock[0].up == 1
    assert game.players[0].spit_cards == ["8D"]


def test_v5_with_no_spit_cards_left_nothing_refills_and_the_last_card_ends_the_round() -> None:
    game = at(["5H", "", "", ""], ["2C", "3C", "9S", "8S"], variant="refill", spit=("4D", "TC"), p2_spit="AH")
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert kinds(events)[:3] == ["select", "play", "round_over"]
    assert events[2]["reason"] == "stock_out"


# ---------------------------------------------------------------- V6: alternating colours

def test_v6_alternating_colours_a_black_card_on_a_black_card_is_the_wrong_colour() -> None:
    game = at(["6S", "6H", "KS", "2S", "JD"], ["9C", "QD", "KD", "8S", "3H"], options={"alternate_colours": True},
              spit=("5C", "TC"))
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert events[-1] == {"t": 1.1, "event": "reject", "player": 1, "press": "left", "reason": "wrong_colour",
                          "card": "6S", "spit_pile": 0, "onto": "5C"}
    assert game.players[0].selected == 1  # it stays in hand
    events = presses(game, (1.2, 1, "pile2"), (1.3, 1, "left"))
    assert [(e["card"], e["onto"]) for e in events if e["event"] == "play"] == [("6H", "5C")]


def test_v6_a_position_stuck_only_by_colour_is_a_stalemate() -> None:
    stuck: dict[str, Any] = {"p1": ["6S", "KS", "KC", "QS", "QC"], "p2": ["2S", "2C", "9S", "9C", "JS"],
                             "spit": ("5C", "7S"), "p1_spit": "AD", "p2_spit": "AH"}
    assert kinds(at(**stuck, options={"alternate_colours": True}).settle(0.0)) == ["stalemate"]
    assert at(**stuck).settle(0.0) == []  # in classic the 6S plays


# ---------------------------------------------------------------- V7: same-rank stacking

def test_v7_a_card_stacks_on_the_same_rank_and_uncovers_the_card_below() -> None:
    shape = (["QH 9C", "9H", "KS", "2S", "JD"], ["2C", "KC", "KD", "JS", "JC"])
    game = at(*shape, options={"same_rank_stacking": True}, spit=("7D", "5C"), p1_spit="AD", p2_spit="AH")
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "pile2"), (1.2, 1, "pile1"))
    assert kinds(events) == ["select", "stack", "flip", "stalemate"]  # the QH fits nothing either
    assert events[1] == {"t": 1.1, "event": "stack", "player": 1, "from": 1, "to": 2, "card": "9C"}
    assert game.players[0].stock[1].cards == ["9H", "9C"] and game.players[0].stock[1].up == 2
    assert events[2]["card"] == "QH"
    classic = at(*shape, spit=("7D", "5C"), p1_spit="AD", p2_spit="AH")
    assert kinds(presses(classic, (1.0, 1, "pile1"), (1.1, 1, "pile2"))) == ["select", "select"]


def test_v7_stacking_that_would_uncover_a_card_is_no_stalemate() -> None:
    shape: dict[str, Any] = {"p1": ["QH 9C", "9H", "KS", "2S", "JD"], "p2": ["2C", "KC", "KD", "JS", "JC"],
                             "spit": ("7D", "5C"), "p1_spit": "AD", "p2_spit": "AH"}
    assert kinds(at(**shape).settle(0.0)) == ["stalemate"]
    assert at(**shape, options={"same_rank_stacking": True}).settle(0.0) == []


# ---------------------------------------------------------------- V8: two hands

def test_v8_two_hands_hold_two_cards_and_a_spit_pile_takes_the_one_that_fits() -> None:
    game = at(["5H", "9C", "KS", "2S", "JD"], ["8C", "QD", "KD", "8S", "3H"], options={"two_hands": True},
              spit=("4D", "TC"))
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "pile2"))
    assert (game.players[0].selected, game.players[0].second) == (1, 2)
    assert game.state()["players"][0]["second"] == 2
    events = press(game, 1.2, 1, "right")  # the 5H does not fit the TC; the 9C does
    assert [(e["pile"], e["card"]) for e in events if e["event"] == "play"] == [(2, "9C")]
    assert (game.players[0].selected, game.players[0].second) == (1, None)
    events = press(game, 1.3, 1, "left")
    assert [(e["pile"], e["card"]) for e in events if e["event"] == "play"] == [(1, "5H")]


def test_v8_a_third_card_takes_the_place_of_the_one_held_longest_and_either_can_be_let_go() -> None:
    game = at(["5H", "9C", "KS", "2S", "JD"], ["8C", "QD", "KD", "8S", "3H"], options={"two_hands": True},
              spit=("4D", "TC"))
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "pile2"), (1.2, 1, "pile3"))
    assert (game.players[0].selected, game.players[0].second) == (2, 3)
    assert kinds(press(game, 1.3, 1, "pile2")) == ["deselect"]
    assert (game.players[0].selected, game.players[0].second) == (3, None)
    one_hand = at(["5H", "9C", "KS", "2S", "JD"], ["8C", "QD", "KD", "8S", "3H"], spit=("4D", "TC"))
    presses(one_hand, (1.0, 1, "pile1"), (1.1, 1, "pile2"))
    assert (one_hand.players[0].selected, one_hand.players[0].second) == (2, None)
    assert "second" not in one_hand.state()["players"][0]


# ---------------------------------------------------------------- V9: hidden last cards

def test_v9_the_last_three_to_five_cards_face_up_may_be_picked_up_once() -> None:
    options = {"hidden_last": True}
    game = at(["5H", "9C", "KS", "", ""], ["8C", "QD", "KD", "8S", "3H"], options=options, spit=("2D", "TC"))
    events = press(game, 1.0, 1, "spit")
    assert events == [{"t": 1.0, "event": "pick_up", "player": 1, "cards": 3}]
    assert game.players[0].hidden and game.state()["players"][0]["hidden"] is True
    assert rejects(press(game, 1.1, 1, "spit")) == ["cannot_pick_up"]
    assert kinds(presses(game, (1.2, 1, "pile2"), (1.3, 1, "right"))) == ["select", "play"]  # played from memory
    too_many = at(["5H", "9C", "KS", "2S", "JD 4C"], ["8C", "QD", "KD", "8S", "3H"], options=options, spit=("2D", "TC"))
    assert rejects(press(too_many, 1.0, 1, "spit")) == ["cannot_pick_up"]
    face_down = at(["5H", "9C", "KS |", "", ""], ["8C", "QD", "KD", "8S", "3H"], options=options, spit=("2D", "TC"))
    assert rejects(press(face_down, 1.0, 1, "spit")) == ["cannot_pick_up"]
    classic = at(["5H", "9C", "KS", "", ""], ["8C", "QD", "KD", "8S", "3H"], spit=("2D", "TC"))
    assert rejects(press(classic, 1.0, 1, "spit")) == ["wrong_phase"]


# ---------------------------------------------------------------- V10-V12: choosing the piles

def last_card(choose: str, spit: tuple[str, str] = ("4C", "JD TC")) -> Game:
    """Player 1 is down to one stock card, which fits spit pile 0."""
    game = at(["5H", "", "", "", ""], ["9C", "QD", "KD", "", ""], options={"choose": choose}, spit=spit,
              p1_spit="2S 3S", p2_spit="6D 7D")
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert game.phase == "choosing"
    return game


def takes(events: list[dict[str, Any]]) -> dict[int, int]:
    return {e["player"]: e["spit_pile"] for e in events if e["event"] == "take"}


def test_v10_shapp_whoever_played_out_chooses_any_pile_without_a_slap() -> None:
    game = last_card("shapp")
    assert game.state()["chooser"] == 1
    assert rejects(press(game, 2.0, 2, "left")) == ["not_your_choice"]
    events = press(game, 2.5, 1, "left")  # player 1 chooses pile 0, the larger: their choice
    assert kinds(events)[:1] == ["choose"] and takes(events) == {1: 0, 2: 1}
    assert game.phase == "ready"


def test_v10_shapp_on_a_block_the_player_with_fewer_stock_cards_chooses() -> None:
    # Nobody can move and nobody holds spit cards: blocked. Player 2 has fewer stock cards.
    game = at(["9C", "QD", "KD", "", ""], ["JS", "", "", "", ""], options={"choose": "shapp"}, spit=("4C", "6D"))
    assert kinds(game.settle(0.0)) == ["round_over"]
    assert game.phase == "choosing" and game.chooser == 2
    assert rejects(press(game, 1.0, 1, "right")) == ["not_your_choice"]
    assert takes(press(game, 1.1, 2, "right")) == {2: 0, 1: 1}


def test_v11_first_call_the_first_to_call_spit_chooses_the_pile() -> None:
    game = last_card("first_call")
    assert rejects(press(game, 2.0, 1, "left")) == ["call_first"]
    assert kinds(press(game, 2.100, 2, "spit")) == ["call"]
    late = press(game, 2.112, 1, "spit")
    assert late == [{"t": 2.112, "event": "reject", "player": 1, "press": "spit", "reason": "too_late", "winner": 2,
                     "by_ms": 12.0}]
    assert rejects(press(game, 2.2, 1, "left")) == ["not_your_choice"]
    events = press(game, 2.3, 2, "right")  # player 2's right is spit pile 0
    assert kinds(events)[0] == "choose" and takes(events) == {2: 0, 1: 1}


def test_v12_slap_spit_only_the_smaller_pile_may_be_slapped_and_the_first_hand_takes_it() -> None:
    game = last_card("slap_spit")  # pile 0 holds the rest of the deck; pile 1 three cards
    assert rejects(press(game, 2.0, 1, "left")) == ["slap_smaller"]
    events = press(game, 2.05, 2, "left")  # player 2's left is pile 1, the smaller
    assert kinds(events)[0] == "slap" and takes(events) == {2: 1, 1: 0}


def test_v12_slap_spit_equal_piles_the_first_to_call_chooses() -> None:
    # After the 5H lands on the 4C, both spit piles hold two cards; the rest is in the spit cards.
    game = at(["5H", "", "", "", ""], ["9C", "QD", "KD", "", ""], options={"choose": "slap_spit"},
              spit=("4C", "JD TC"), p1_spit="2S 3S", rest="p2_spit")
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert [len(pile) for pile in game.spit_piles] == [2, 2]
    assert rejects(press(game, 2.0, 2, "left")) == ["call_first"]
    assert kinds(press(game, 2.1, 1, "spit")) == ["call"]
    assert takes(press(game, 2.2, 1, "right")) == {1: 1, 2: 0}


# ---------------------------------------------------------------- V15: Reverse Spit

def test_v15_reverse_the_player_left_without_cards_loses_and_the_other_has_them_all() -> None:
    for variant, winner in (("classic", 1), ("reverse", 2)):
        game = at(["5H", "", "", "", ""], ["9C", "QD", "", "", ""], variant=variant, spit=("", "4C"), p1_spit="",
                  p2_spit="", rest="spit1", lone_pile=1)
        events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "right"))
        assert kinds(events)[-1] == "game_over" and game.winner == winner, variant
        assert len(game.players[winner - 1].all_cards()) == 52 if variant == "reverse" else True


def test_v15_reverse_the_player_who_played_out_slaps_and_takes_the_larger_pile_and_nobody_else() -> None:
    """000: "Als ein Spieler ihre komplette Hand losgeworden ist, schlagen sie und nehmen den größeren
    Spieß-Stapel in Besitz": the pile is theirs, not a race the other player can win."""
    game = at(["5H", "", "", "", ""], ["9C", "QD", "", "", ""], variant="reverse", spit=("", "2S 3S 4C"),
              p2_spit="KD QC", rest="spit0")
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "right"))
    assert kinds(events)[-1] == "round_over" and game.phase == "choosing"
    assert game.legal_actions(2) == [] and [a.target for a in game.legal_actions(1)] == [0]
    assert rejects(press(game, 1.2, 2, "right")) == ["not_your_choice"]  # player 2's right: the larger, pile 0
    assert rejects(press(game, 1.25, 1, "right")) == ["slap_larger"]  # the smaller pile is not what they take
    events = press(game, 1.3, 1, "left")
    assert [(e["player"], e["spit_pile"]) for e in events if e["event"] == "take"] == [(1, 0), (2, 1)]
    assert game.phase == "ready" and game.round == 2


def test_v15_reverse_blocked_both_slap_and_the_first_hand_takes_it() -> None:
    game = at(["5H", "", "", "", ""], ["9C", "", "", "", ""], variant="reverse", spit=("7D", "JS"), rest="spit0")
    assert game.settle() and game.phase == "choosing" and game.chooser is None
    events = press(game, 1.0, 2, "left")  # player 2's left: pile 1
    assert sorted((e["player"], e["spit_pile"]) for e in events if e["event"] == "take") == [(1, 0), (2, 1)]
    assert [e["player"] for e in events if e["event"] == "slap"] == [2]


def test_v15_reverse_players_aim_for_the_larger_pile() -> None:
    assert new_game("reverse")[0].rules.goal.larger_pile_wanted
    assert not new_game("classic")[0].rules.goal.larger_pile_wanted


# ---------------------------------------------------------------- the family's controls and options

def test_a_control_the_game_has_no_use_for_is_a_reject() -> None:
    game = at(["5H", "9C", "KS", "2S", "JD"], ["8C", "QD", "KD", "8S", "3H"], spit=("4D", "TC"))
    assert rejects(press(game, 1.0, 1, "far_left")) == ["no_pile"]
    assert rejects(press(game, 1.0, 2, "far_right")) == ["no_pile"]
    assert rejects(press(game, 1.0, 1, "slap")) == ["not_in_this_game"]


def test_time_passes_without_a_press() -> None:
    game, _ = new_game("classic", seed=1)
    assert game.advance(3.5) == [] and game.now == 3.5
    assert game.advance(1.0) == [] and game.now == 3.5  # the clock never goes back


def test_options_are_checked_and_named() -> None:
    assert read_options("four-piles", {"alternate_colours": True}).stock_piles == (1, 2, 3, 4)
    for variant, options, words in [
        ("classic", {"stock_pile": [1]}, "unknown option 'stock_pile' \\(did you mean 'stock_piles'\\?\\)"),
        ("classic", {"stock_piles": []}, "option 'stock_piles' must be"),
        ("classic", {"stock_piles": [1, 2, 3, 4, 5, 6, 7]}, "option 'stock_piles' must be"),
        ("classic", {"stock_piles": [26]}, "needs 26 cards, but each player is dealt 26"),
        ("classic", {"two_hands": "yes"}, "option 'two_hands' must be true or false"),
        ("classic", {"seats": 5}, "option 'seats' must be"),
        ("classic", {"target": 25}, "option 'target' is not an option of 'classic'"),
        ("fours", None, "unknown variant 'fours'"),
    ]:
        with pytest.raises(OptionError, match=words):
            read_options(variant, options)


def test_state_carries_the_options_in_force_except_plain_classic() -> None:
    assert "options" not in new_game("classic")[0].state()
    state = new_game("four-piles", options={"alternate_colours": True})[0].state()
    assert list(state)[:2] == ["variant", "options"]
    assert state["options"]["stock_piles"] == [1, 2, 3, 4] and state["options"]["alternate_colours"] is True
    assert "target" not in state["options"]
    again = game_from_state(state)
    assert again.rules == new_game("four-piles", options={"alternate_colours": True})[0].rules
