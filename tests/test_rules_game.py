"""Classic Spit, rule by rule (RULES.md 1-10), and every reject reason, from explicit positions."""

from __future__ import annotations

from collections import Counter

import pytest
from positions import game_at, kinds, position, press, presses

from appliance.rules import REJECT_REASONS, Game, deck, game_from_state

EMPTY = ["", "", "", "", ""]


def rejects(events: list[dict]) -> list[str]:
    return [e["reason"] for e in events if e["event"] == "reject"]


def assert_all_cards(game: Game) -> None:
    assert Counter(game.all_cards()) == Counter(deck())


# ---------------------------------------------------------------- rules 1-3: deal, layout, "Spit!"


def test_rule_1_2_a_seeded_deal_gives_26_cards_each_in_a_1_to_5_layout() -> None:
    game, events = Game.new(seed=11)
    assert kinds(events) == ["deal"]
    assert_all_cards(game)
    for p in game.players:
        assert [len(pile.cards) for pile in p.stock] == [1, 2, 3, 4, 5]
        assert [pile.up for pile in p.stock] == [1, 1, 1, 1, 1]
        assert len(p.spit_cards) == 11
    assert game.phase == "ready"
    assert game.spit_piles == [[], []]


def test_rule_1_the_same_seed_deals_the_same_and_another_seed_differently() -> None:
    assert Game.new(seed=5)[0].state() == Game.new(seed=5)[0].state()
    assert Game.new(seed=5)[0].state() != Game.new(seed=6)[0].state()


def test_rule_3_both_call_spit_and_each_turns_a_card_onto_the_pile_on_their_left() -> None:
    game = game_at(["3H", "", "", "", ""], ["9C", "", "", "", ""], p1_spit="2S 3S", p2_spit="JD QD",
                   phase="ready", rest="p1_spit")
    first = press(game, 0.10, 1, "spit")
    assert kinds(first) == ["call"]
    assert game.phase == "ready"
    second = press(game, 0.20, 2, "spit")
    assert kinds(second) == ["call", "reveal", "reveal"]
    assert game.spit_piles == [["2S"], ["JD"]]  # player 1's left is pile 0, player 2's left is pile 1
    assert game.phase == "playing"
    assert game.players[0].spit_cards[0] == "3S"


def test_rule_3_a_second_call_by_the_same_player_is_rejected() -> None:
    game = game_at(["5H", "", "", "", ""], ["9C", "", "", "", ""], p1_spit="2S", p2_spit="JD",
                   phase="ready", rest="p1_spit")
    events = presses(game, (0.1, 1, "spit"), (0.2, 1, "spit"))
    assert rejects(events) == ["already_called"]
    assert game.phase == "ready"


def test_rule_3_no_card_may_be_turned_or_played_before_spit() -> None:
    game = game_at(["9H 5H |", "", "", "", "4C"], ["9C", "", "", "", ""], p1_spit="2S", p2_spit="JD",
                   phase="ready", rest="p1_spit")
    events = presses(game, (0.1, 1, "pile1"), (0.2, 1, "pile5"), (0.3, 1, "left"))
    assert rejects(events) == ["wrong_phase", "wrong_phase"]
    assert game.players[0].selected == 5  # a hand may hover over a card before "Spit!"


# ---------------------------------------------------------------- rule 4: what a player may do


@pytest.mark.parametrize(("card", "top"), [("5H", "4C"), ("3H", "4C"), ("KH", "AC"), ("2H", "AC"),
                                           ("AH", "KC"), ("QH", "KC")])
def test_rule_4_a_card_one_rank_up_or_down_plays_wrapping_a_to_k(card: str, top: str) -> None:
    game = game_at([card, "7D", "", "", ""], ["9C", "", "", "", "4S |"], spit=(top, "JD"),
                   p1_spit="2S", p2_spit="3S")
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert kinds(events) == ["select", "play"]
    assert events[1] == {"t": 1.1, "event": "play", "player": 1, "pile": 1, "card": card, "spit_pile": 0,
                         "onto": top}
    assert game.spit_piles[0][-1] == card
    assert game.players[0].stock[0].cards == []
    assert game.players[0].selected is None


@pytest.mark.parametrize("card", ["6H", "4H", "QH", "2H", "7H"])
def test_rule_4_a_card_not_next_in_rank_is_not_adjacent_and_stays_selected(card: str) -> None:
    game = game_at([card, "", "", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD" if card != "QH" else "8D"),
                   p1_spit="2S", p2_spit="3S")
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert rejects(events) == ["not_adjacent"]
    assert events[-1]["onto"] == "4C"
    assert game.players[0].selected == 1
    assert game.spit_piles[0][-1] == "4C"


def test_rule_4_suits_do_not_matter() -> None:
    game = game_at(["5C", "", "", "", "AS |"], ["9C", "", "", "", "4S |"], spit=("4C", "JD"), p1_spit="2S",
                   p2_spit="3S")
    assert kinds(presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))) == ["select", "play"]


def test_rule_4_right_plays_onto_the_pile_on_the_players_right() -> None:
    game = game_at(["5H", "", "", "", "AS |"], ["QC", "", "", "", "4S |"], spit=("4C", "JD"), p1_spit="2S",
                   p2_spit="3S")
    p1 = presses(game, (1.0, 1, "pile1"), (1.1, 1, "right"))
    assert rejects(p1) == ["not_adjacent"]  # player 1's right is pile 1 (JD)
    p2 = presses(game, (1.2, 2, "pile1"), (1.3, 2, "left"))  # player 2's left is pile 1 (JD)
    assert kinds(p2) == ["select", "play"]
    assert p2[-1]["spit_pile"] == 1


def test_rule_4_playing_uncovers_a_face_down_card_which_a_press_turns_up() -> None:
    game = game_at(["8D 5H", "", "", "", ""], ["9C", "", "", "", "4S |"], spit=("4C", "JD"), p1_spit="2S",
                   p2_spit="3S")
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    pile = game.players[0].stock[0]
    assert pile.cards == ["8D"] and pile.up == 0
    events = press(game, 1.2, 1, "pile1")
    assert events == [{"t": 1.2, "event": "flip", "player": 1, "pile": 1, "card": "8D"}]
    assert pile.up == 1
    assert game.players[0].selected is None


def test_rule_4_a_face_up_card_moves_into_an_empty_space() -> None:
    game = game_at(["8D 5H", "", "KS", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD"),
                   p1_spit="2S", p2_spit="3S")
    events = presses(game, (1.0, 1, "pile3"), (1.1, 1, "pile2"))
    assert events[-1] == {"t": 1.1, "event": "move", "player": 1, "from": 3, "to": 2, "card": "KS"}
    stock = game.players[0].stock
    assert stock[1].cards == ["KS"] and stock[1].up == 1 and stock[2].cards == []
    assert game.players[0].selected is None


def test_rule_4_pressing_the_selected_pile_deselects_and_another_face_up_pile_reselects() -> None:
    game = game_at(["8D 5H", "", "KS", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD"),
                   p1_spit="2S", p2_spit="3S")
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "pile3"), (1.2, 1, "pile3"))
    assert kinds(events) == ["select", "select", "deselect"]
    assert game.players[0].selected is None


def test_rule_4_never_more_than_five_stock_piles() -> None:
    game = game_at(["8D 5H", "", "KS", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD"),
                   p1_spit="2S", p2_spit="3S")
    assert rejects(press(game, 1.0, 1, "pile6")) == ["no_pile"]


def test_reject_no_card_an_empty_space_with_nothing_selected() -> None:
    game = game_at(["8D 5H", "", "KS", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD"),
                   p1_spit="2S", p2_spit="3S")
    assert rejects(press(game, 1.0, 1, "pile2")) == ["no_card"]


def test_reject_nothing_selected_a_spit_pile_press_with_no_card_in_hand() -> None:
    game = game_at(["5H", "", "", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD"), p1_spit="2S", p2_spit="3S")
    assert rejects(press(game, 1.0, 1, "left")) == ["nothing_selected"]


def test_reject_wrong_phase_spit_while_playing() -> None:
    game = game_at(["5H", "", "", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD"), p1_spit="2S", p2_spit="3S")
    assert rejects(press(game, 1.0, 1, "spit")) == ["wrong_phase"]


def test_reject_unknown_press_never_raises() -> None:
    game = game_at(["5H", "", "", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD"), p1_spit="2S", p2_spit="3S")
    assert rejects(press(game, 1.0, 3, "left")) == ["unknown_press"]
    assert rejects(press(game, 1.0, 1, "kick")) == ["unknown_press"]
    assert rejects(press(game, float("nan"), 1, "pile1")) == []  # NaN time: applied now, selects


def test_every_reject_reason_has_words_for_the_players() -> None:
    assert all(isinstance(text, str) and text for text in REJECT_REASONS.values())


# The card that did not go: 6C tried on the 2H (left), then tried again. It stays in hand, and every
# way a player tries again works: its pile then the other spit pile, the other spit pile alone.
RETRY = (["6C", "KH", "KS |", "QD", ""], ["4S", "JH", "JS", "JD", "3C"], ("2H", "7D"))


def retried(*steps: tuple[float, int, str]) -> tuple[Game, list[dict]]:
    game = game_at(*RETRY[:2], spit=RETRY[2])
    events = presses(game, (0.1, 1, "pile1"), (0.2, 1, "left"))
    assert rejects(events) == ["not_adjacent"] and game.players[0].selected == 1
    return game, presses(game, *steps)


def test_after_a_card_did_not_go_its_pile_then_the_other_spit_pile_plays_it() -> None:
    _, events = retried((0.3, 1, "pile1"), (0.4, 1, "right"))
    assert kinds(events) == ["select", "play"]  # picked up again, not let go
    assert events[1]["card"] == "6C" and events[1]["onto"] == "7D"


def test_after_a_card_did_not_go_the_other_spit_pile_alone_plays_it() -> None:
    _, events = retried((0.3, 1, "right"))
    assert kinds(events) == ["play"]


def test_after_a_card_did_not_go_its_pile_twice_lets_it_go_and_another_pile_takes_that() -> None:
    game, events = retried((0.3, 1, "pile1"), (0.4, 1, "pile1"))
    assert kinds(events) == ["select", "deselect"] and game.players[0].selected is None
    game, events = retried((0.3, 1, "pile2"))
    assert kinds(events) == ["select"] and game.players[0].selected == 2
    game, events = retried((0.3, 1, "pile5"))  # the space: the card moves into it, as ever
    assert kinds(events) == ["move"]


def test_a_retry_is_only_the_press_right_after_the_card_did_not_go() -> None:
    _, events = retried((0.3, 1, "pile3"), (0.4, 1, "pile1"))  # a card turned in between
    assert kinds(events) == ["flip", "deselect"]
    _, events = retried((0.3, 2, "pile1"), (0.4, 1, "pile1"))  # the other player's press is theirs
    assert kinds(events) == ["select", "select"]


def test_a_retry_survives_a_snapshot() -> None:
    from appliance.rules import restore

    game, _ = retried()
    again = restore(game.snapshot())
    assert kinds(presses(again, (0.3, 1, "pile1"), (0.4, 1, "right"))) == ["select", "play"]


# ---------------------------------------------------------------- rule 5: the race


def race_position() -> Game:
    # Pile 0 (player 1's left) shows an 8: player 1 wants to put a 7 on it, player 2 a 9.
    return game_at(["7H", "QS", "", "", "AS |"], ["9C", "QD", "", "", "4S |"], spit=("8D", "2C"),
                   p1_spit="2S", p2_spit="3S")


def test_rule_5_the_earlier_touch_wins_and_the_later_card_stays_where_it_was() -> None:
    game = race_position()
    presses(game, (1.000, 1, "pile1"), (1.000, 2, "pile1"))
    first = press(game, 1.500, 2, "right")  # player 2's right is pile 0
    late = press(game, 1.502, 1, "left")
    assert kinds(first) == ["play"]
    assert late == [{"t": 1.502, "event": "reject", "player": 1, "press": "left", "reason": "too_late",
                     "card": "7H", "spit_pile": 0, "winner": 2, "by_ms": 2.0}]
    assert game.spit_piles[0][-1] == "9C"
    assert game.players[0].stock[0].cards == ["7H"] and game.players[0].selected == 1


def test_rule_5_a_card_that_never_fitted_is_not_adjacent_not_late() -> None:
    game = race_position()
    presses(game, (1.0, 1, "pile2"), (1.0, 2, "pile1"), (1.5, 2, "right"))
    assert rejects(press(game, 1.502, 1, "left")) == ["not_adjacent"]


def test_rule_5_long_after_the_other_play_a_misfit_is_not_adjacent() -> None:
    game = race_position()
    presses(game, (1.0, 1, "pile1"), (1.0, 2, "pile1"), (1.5, 2, "right"))
    assert rejects(press(game, 9.0, 1, "left")) == ["not_adjacent"]


def test_rule_5_the_opponent_may_play_at_once_on_a_played_card() -> None:
    game = game_at(["7H", "", "", "", "AS |"], ["6C", "QD", "", "", "4S |"], spit=("8D", "2C"), p1_spit="2S",
                   p2_spit="3S")
    events = presses(game, (1.0, 1, "pile1"), (1.0, 2, "pile1"), (1.1, 1, "left"), (1.101, 2, "right"))
    assert kinds(events)[-2:] == ["play", "play"]
    assert game.spit_piles[0][-2:] == ["7H", "6C"]


# ---------------------------------------------------------------- rule 6: stalemate


def test_rule_6_nobody_can_move_is_a_stalemate_then_both_spit_onto_their_own_piles() -> None:
    game = game_at(["7H", "QS", "", "", ""], ["4C", "QD", "", "", ""], spit=("8D", "2C"),
                   p1_spit="5S 6S", p2_spit="5D 6D")
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))  # 7H on 8D: nobody can move now
    assert kinds(events) == ["select", "play", "stalemate"]
    assert game.phase == "stalemate"
    events = presses(game, (2.0, 2, "spit"), (2.1, 1, "spit"))
    assert kinds(events) == ["call", "call", "reveal", "reveal"]
    assert game.spit_piles[0][-1] == "5S" and game.spit_piles[1][-1] == "5D"
    assert game.phase == "playing"


def test_rule_6_a_face_down_card_to_turn_is_no_stalemate() -> None:
    game = game_at(["7H", "9S QS |", "", "", ""], ["4C", "QD", "", "", ""], spit=("8D", "2C"),
                   p1_spit="5S", p2_spit="5D")
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert game.phase == "playing"


def test_rule_6_moving_a_card_into_a_space_to_turn_one_up_is_no_stalemate() -> None:
    # Player 1 could move QS into the empty third space and turn up the 9S under it.
    game = game_at(["7H", "9S QS", "", "", ""], ["4C", "QD", "", "", ""], spit=("8D", "2C"),
                   p1_spit="5S", p2_spit="5D")
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert game.phase == "playing"


def test_rule_6_a_full_row_with_nothing_to_uncover_is_a_stalemate() -> None:
    game = game_at(["7H", "9S QS", "TH", "5C", "JC"], ["4C", "QD", "", "", ""], spit=("8D", "2C"),
                   p1_spit="5S", p2_spit="5D")
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert game.phase == "playing"  # pile 1 is empty now: QS can move there, uncovering 9S
    game2 = game_at(["9H 7H", "9S QS", "TH", "5C", "JC"], ["4C", "QD", "", "", ""], spit=("8D", "2C"),
                    p1_spit="5S", p2_spit="5D")
    presses(game2, (1.0, 1, "pile1"), (1.1, 1, "left"), (1.2, 1, "pile1"))
    assert game2.phase == "stalemate"  # 9H turned: no fits, no space


def test_reject_wrong_phase_a_spit_pile_press_in_a_stalemate() -> None:
    game = game_at(["7H", "QS", "", "", ""], ["4C", "QD", "", "", ""], spit=("8D", "2C"),
                   p1_spit="5S", p2_spit="5D")
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert rejects(press(game, 1.5, 1, "left")) == ["wrong_phase"]


def test_settle_a_setup_that_is_already_stuck_goes_straight_to_stalemate() -> None:
    game = game_at(["7H", "", "", "", ""], ["4C", "", "", "", ""], spit=("TD", "2C"), p1_spit="5S", p2_spit="5D")
    assert kinds(game.settle(0.0)) == ["stalemate"]


# ---------------------------------------------------------------- rule 7: the lone spitter


def lone_position() -> Game:
    # Player 2 has no spit cards; nobody can move: player 1 spits alone.
    return game_at(["7H", "QS", "", "", ""], ["4C", "QD", "", "", ""], spit=("TD", "2C"),
                   p1_spit="9S 6S 9H", p2_spit="", phase="stalemate", rest="spit1")


def test_rule_7_the_lone_spitter_chooses_one_pile_by_slapping_it() -> None:
    game = lone_position()
    assert rejects(press(game, 1.0, 1, "spit")) == ["choose_pile"]
    assert rejects(press(game, 1.0, 2, "spit")) == ["no_spit_cards"]
    events = press(game, 1.1, 1, "right")  # player 1's right: pile 1
    assert kinds(events) == ["choose", "call", "reveal", "stalemate"]  # 9S fits nothing either
    assert game.spit_piles[1][-1] == "9S"
    assert game.lone_pile == 1


def test_rule_7_the_lone_spitter_must_keep_spitting_onto_that_pile() -> None:
    game = lone_position()
    presses(game, (1.1, 1, "right"))  # 9S onto pile 1 (2C): nobody can move, stalemate again
    assert game.phase == "stalemate"
    assert rejects(press(game, 2.0, 1, "left")) == ["wrong_pile"]
    events = press(game, 2.1, 1, "spit")
    assert kinds(events)[:2] == ["call", "reveal"]
    assert game.spit_piles[1][-1] == "6S"


# ---------------------------------------------------------------- rule 8: new layout by slapping


def last_card_position() -> Game:
    # Player 1 is down to one stock card; pile 0 is big (the rest is under it), pile 1 is small.
    return game_at(["5H", "", "", "", ""], ["9C", "QD", "KD", "", ""], spit=("4C", "JD TC"),
                   p1_spit="2S 3S", p2_spit="6D 7D")


def test_rule_8a_a_player_who_plays_out_their_stock_ends_the_round_and_both_slap() -> None:
    game = last_card_position()
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert kinds(events) == ["select", "play", "round_over"]
    assert events[-1]["reason"] == "stock_out" and events[-1]["player"] == 1
    assert game.phase == "choosing"
    assert rejects(press(game, 1.2, 1, "pile1")) == ["wrong_phase"]


def test_rule_8_same_pile_the_first_slap_takes_it_and_the_other_takes_the_other() -> None:
    game = last_card_position()
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    small = len(game.spit_piles[1])
    big = len(game.spit_piles[0])
    p2_cards = game.players[1].stock_count() + len(game.players[1].spit_cards)
    first = press(game, 2.000, 2, "left")  # player 2's left is pile 1, the small one
    late = press(game, 2.015, 1, "right")  # player 1 also goes for pile 1, 15 ms later
    assert kinds(first) == ["slap", "take", "take", "deal"]
    assert {(e["player"], e["spit_pile"]) for e in first if e["event"] == "take"} == {(2, 1), (1, 0)}
    assert late == [{"t": 2.015, "event": "reject", "player": 1, "press": "right", "reason": "too_late",
                     "spit_pile": 1, "winner": 2, "by_ms": 15.0}]
    assert game.phase == "ready" and game.round == 2
    assert game.players[1].stock_count() + len(game.players[1].spit_cards) == small + p2_cards
    assert game.players[0].stock_count() + len(game.players[0].spit_cards) == big + 2
    assert game.spit_piles == [[], []]
    assert_all_cards(game)


def test_rule_8_different_piles_each_takes_the_one_they_slapped() -> None:
    game = last_card_position()
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    first = press(game, 2.0, 1, "right")  # player 1 slaps pile 1
    second = press(game, 2.01, 2, "right")  # player 2 slaps pile 0: theirs anyway
    assert {(e["player"], e["spit_pile"]) for e in first if e["event"] == "take"} == {(1, 1), (2, 0)}
    assert kinds(second) == ["slap"] and second[0]["after_ms"] == 10.0


def test_a_lone_spitter_may_choose_a_pile_soon_after_the_slap_that_dealt() -> None:
    # Player 1 plays out; player 2 slaps the small pile (JD) and is left with 2 cards: player 1
    # spits alone in the new layout. A press 10 ms after the slap lost the slap; 300 ms after, it
    # is player 1 choosing the pile.
    game = game_at(["5H", "", "", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD"), p1_spit="2S")
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"), (2.0, 2, "left"))
    assert game.lone_spitter() == 1
    assert rejects(press(game, 2.010, 1, "right")) == ["too_late"]
    assert kinds(press(game, 2.300, 1, "right"))[:3] == ["choose", "call", "reveal"]


def test_rule_8b_both_out_of_spit_cards_and_stuck_is_a_block_and_a_new_layout() -> None:
    game = game_at(["7H", "QS", "", "", ""], ["4C", "QD", "", "", ""], spit=("8D", "2C"), rest="spit1")
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert kinds(events)[-1] == "round_over" and events[-1]["reason"] == "blocked"
    assert game.phase == "choosing"


def test_rule_8_the_new_layout_is_dealt_from_what_each_player_gathered() -> None:
    game = last_card_position()
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"), (2.0, 2, "left"))
    p1, p2 = game.players
    assert [len(pile.cards) for pile in p1.stock] == [1, 2, 3, 4, 5]  # 40 cards: a full layout
    assert len(p1.spit_cards) == p1.stock_count() + len(p1.spit_cards) - 15
    # player 2: pile 1 (JD TC) + 9C QD KD + 6D 7D = 7 cards, dealt in rows of 5 and 2
    assert [len(pile.cards) for pile in p2.stock] == [1, 2, 2, 1, 1]
    assert p2.spit_cards == []
    assert all(pile.up == 1 for p in game.players for pile in p.stock if pile.cards)


# ---------------------------------------------------------------- rules 9-10: short hands, the end


def test_rule_9_fewer_than_15_cards_deal_row_by_row_and_only_one_spit_pile() -> None:
    # Player 1 plays out; player 2 grabs the small pile (2 cards): player 2 then has 2 + 3 + 0 + ...
    game = game_at(["5H", "", "", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD"), p1_spit="2S",
                   p2_spit="6D 7D 8D 9D TD JS QS KS AH", rest="spit0")
    presses(game, (1.0, 1, "pile1"), (1.1, 1, "left"), (2.0, 2, "left"))
    short = game.players[1]
    assert short.stock_count() == 1 + 1 + 9  # pile 1 (JD) + 9C + 9 spit cards = 11 cards
    assert [len(p.cards) for p in short.stock] == [1, 2, 3, 3, 2]  # rows of 5, 4, then 2
    assert short.spit_cards == []
    events = press(game, 3.0, 2, "spit")
    assert rejects(events) == ["no_spit_cards"]
    assert rejects(press(game, 3.1, 1, "spit")) == ["choose_pile"]
    events = press(game, 3.2, 1, "left")  # the lone spitter starts the one spit pile
    assert kinds(events)[:3] == ["choose", "call", "reveal"]
    assert sum(1 for pile in game.spit_piles if pile) == 1


def single_pile_end(p1_spit: str) -> Game:
    # One spit pile only (pile 1); player 1 is about to play out their last stock card.
    return game_at(["5H", "", "", "", ""], ["9C", "QD", "", "", ""], spit=("", "4C"), p1_spit=p1_spit,
                   p2_spit="", rest="spit1", lone_pile=1)


def test_rule_10_with_no_spit_cards_the_first_to_play_out_wins() -> None:
    game = single_pile_end(p1_spit="")
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "right"))
    assert kinds(events)[-3:] == ["round_over", "take", "game_over"]
    assert events[-1]["winner"] == 1
    assert game.phase == "over" and game.winner == 1
    assert game.players[0].all_cards() == []
    assert_all_cards(game)
    assert rejects(press(game, 2.0, 2, "pile1")) == ["game_over"]


def test_rule_10_with_spit_cards_left_the_first_out_takes_nothing_from_the_middle() -> None:
    game = game_at(["5H", "", "", "", ""], ["9C", "QD", "", "", ""], spit=("", "4C"), p1_spit="2S 3S",
                   p2_spit="", rest="spit1", lone_pile=1)
    before_p2 = game.players[1].stock_count() + len(game.spit_piles[1]) + 1  # +1: the 5H played
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "right"))
    assert kinds(events)[-3:] == ["round_over", "take", "deal"]
    assert [e["player"] for e in events if e["event"] == "take"] == [2]
    assert game.players[0].stock_count() + len(game.players[0].spit_cards) == 2
    assert game.players[1].stock_count() + len(game.players[1].spit_cards) == before_p2
    assert game.phase == "ready" and game.round == 2


def test_single_pile_block_the_player_with_more_stock_takes_the_pile() -> None:
    game = game_at(["7H", "QS", "", "", ""], ["4C", "QD", "KD", "", ""], spit=("", "8D"), rest="spit1",
                   lone_pile=1)
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "right"))
    assert [e["player"] for e in events if e["event"] == "take"] == [2]
    assert game.phase == "ready"


def test_state_round_trips_through_the_state_object() -> None:
    game, _ = Game.new(seed=3)
    presses(game, (0.1, 1, "spit"), (0.2, 2, "spit"), (0.3, 1, "pile5"))
    again = game_from_state(game.state())
    assert again.state() == game.state()


def test_presses_in_a_position_account_for_every_card() -> None:
    state = position(["5H", "", "", "", ""], ["9C", "", "", "", ""], spit=("4C", "JD"), p1_spit="2S", p2_spit="3S")
    assert sorted(state["spit_piles"][0] + state["spit_piles"][1] + ["5H", "9C", "2S", "3S"]) == sorted(deck())


def test_a_move_that_uses_up_the_last_space_can_leave_everyone_stuck_a_stalemate() -> None:
    # Player 1 could move the 9H into the space and turn the 8C under it; moving the QS there instead
    # uses the space up, and then nobody can do anything: that is a stalemate (rule 6), not a dead game.
    game = game_at(["", "TD | 3S QS", "7C 8C 9H", "2H", "2D"], ["3D", "4C", "8D", "9S", "TH"], spit=("6S", "QC"),
                   p1_spit="5C", p2_spit="5D")
    assert game.settle(0.0) == []
    events = presses(game, (1.0, 1, "pile2"), (1.2, 1, "pile1"))
    assert kinds(events) == ["select", "move", "stalemate"]
