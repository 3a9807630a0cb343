"""Running Spit (V16): a card is carried off its stock pile until it is slapped down or put back."""

from __future__ import annotations

from typing import Any

import pytest
from positions import kinds, position, presses

from appliance.rules import Action, Game, OptionError, game_from_state, new_game, read_options, restore


def running(p1: list[str], p2: list[str], **kwargs: Any) -> Game:
    return game_from_state(position(p1, p2, variant="running", **kwargs))


def test_a_picked_up_card_leaves_its_pile_and_lands_on_the_pad_slapped() -> None:
    game = running(["QD 5H", "9C", "KS", "2S", "JD"], ["8C", "QH", "KD", "8S", "3H"], spit=("4D", "TC"))
    events = presses(game, (1.0, 1, "pile1"))
    assert kinds(events) == ["select"]
    me = game.players[0]
    assert me.carried == "5H" and me.stock[0].cards == ["QD"] and me.stock[0].up == 0
    assert game.state()["players"][0]["carried"] == "5H"
    # The sprint: slapped onto the pad of spit pile 0 four seconds later.
    events = presses(game, (5.0, 1, "left"))
    assert [(e["card"], e["onto"]) for e in events if e["event"] == "play"] == [("5H", "4D")]
    assert me.carried is None and me.selected is None


def test_the_card_under_a_carried_one_may_be_turned_and_a_card_goes_back_where_it_came_from() -> None:
    game = running(["QD 5H", "9C", "KS", "2S", "JD"], ["8C", "QH", "KD", "8S", "3H"], spit=("4D", "TC"))
    # Pressing the pile the card came from: the face-down QD under it is turned; again: the card goes back.
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "pile1"), (1.15, 1, "pile1"))
    assert kinds(events) == ["select", "flip", "deselect"]
    assert events[1]["card"] == "QD"
    assert game.players[0].stock[0].cards == ["QD", "5H"] and game.players[0].stock[0].up == 2
    assert game.players[0].carried is None
    events = presses(game, (1.2, 1, "pile1"), (1.3, 2, "pile2"), (1.4, 1, "pile2"))
    # One card in hand: taking another puts the first back.
    assert kinds(events) == ["select", "select", "deselect", "select"]
    assert game.players[0].carried == "9C" and game.players[0].stock[0].cards == ["QD", "5H"]


def test_a_carried_card_that_no_longer_fits_stays_in_hand() -> None:
    # Player 2 covers the 4D (their right) while player 1 is still running with the 5H.
    game = running(["5H", "9C", "KS", "2S", "JD"], ["3C", "QH", "KD", "8S", "7H"], spit=("4D", "TC"))
    events = presses(game, (1.0, 1, "pile1"), (1.2, 2, "pile1"), (2.0, 2, "right"), (2.6, 1, "left"))
    assert [e["reason"] for e in events if e["event"] == "reject"] == ["too_late"]
    assert game.players[0].carried == "5H"


def test_a_runner_whose_card_did_not_go_puts_it_back_with_a_press_of_its_pile() -> None:
    game = running(["5H", "9C", "KS", "2S", "JD"], ["3C", "QH", "KD", "8S", "7H"], spit=("4D", "TC"))
    events = presses(game, (1.0, 1, "pile1"), (2.0, 1, "right"), (3.0, 1, "pile1"))
    assert kinds(events) == ["select", "reject", "deselect"]
    assert game.players[0].carried is None and game.players[0].stock[0].cards == ["5H"]


def test_the_stalemate_test_counts_the_carried_card_as_in_reach() -> None:
    # Player 1 carries the only card that fits: no stalemate.
    game = running(["5H", "9C", "KS", "2S", "JD"], ["8C", "QH", "KD", "8S", "3H"], spit=("4D", "JC"),
                   p1_spit="AD", p2_spit="AH")
    presses(game, (1.0, 1, "pile1"))
    assert game.phase == "playing" and game.can_progress(1)


def test_teams_take_turns_the_next_runner_after_each_card() -> None:
    game, _ = new_game("running", 3, {"runners": [3, 2]})
    assert game.state()["players"][0]["runner"] == 0
    position_state = position(["5H", "9C", "KS", "2S", "JD"], ["8C", "QH", "KD", "8S", "3H"], spit=("4D", "TC"),
                              variant="running", options={"runners": [3, 2]})
    game = game_from_state(position_state)
    presses(game, (1.0, 1, "pile1"), (2.0, 1, "left"))
    assert [p.runner for p in game.players] == [1, 0]


def test_runners_are_one_to_four_for_each_seat() -> None:
    assert read_options("running").runners == (1, 1)
    for runners in ([0, 1], [5, 1], [1, 1, 1]):
        with pytest.raises(OptionError, match="runners"):
            read_options("running", {"runners": runners})


def test_a_face_down_card_under_a_top_that_can_be_carried_off_is_no_stalemate() -> None:
    # Nothing fits; in classic this is a stalemate, but a runner lifts the 9C and turns the QD.
    shape: dict[str, Any] = {"p1": ["QD 9C", "KS", "2S", "JS", "QH"], "p2": ["8C", "TH", "KD", "9S", "JH"],
                             "spit": ("4D", "6C"), "p1_spit": "AD", "p2_spit": "AH"}
    assert kinds(game_from_state(position(**shape)).settle(0.0)) == ["stalemate"]
    game = running(**shape)
    assert game.settle(0.0) == []
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "pile1"))
    assert kinds(events)[:2] == ["select", "flip"] and events[1]["card"] == "QD"  # (then nothing fits: stuck)
    assert game_from_state(game.state()).state() == game.state()  # the position reads back


def test_the_legal_actions_of_a_runner_count_the_carried_card_as_back_on_its_pile() -> None:
    # Moving the carried 8C into the space is legal (pressing the space does it); so is lifting a top
    # card off to turn the face-down card under it.
    game = running(["", "QS | 8C", "7C 5D 9H", "2H", "2D"], ["3D", "4C", "8D", "9S", "TH"], spit=("6S", "KC"))
    assert Action("move", 2, 1) in game.legal_actions(1)
    presses(game, (1.0, 1, "pile2"))
    assert game.players[0].carried == "8C"
    assert Action("move", 2, 1) in game.legal_actions(1)
    assert game.presses_for(1, Action("move", 2, 1)) == ["pile1"]
    lift = Action("lift", 3)
    assert lift in game.legal_actions(1)
    events = presses(game, *[(2.0 + 0.1 * n, 1, press) for n, press in enumerate(game.presses_for(1, lift))])
    assert kinds(events)[-1] == "flip" and events[-1]["card"] == "5D"


def test_a_card_moved_into_a_space_that_leaves_a_top_a_runner_can_lift_is_no_stalemate() -> None:
    # Nothing fits and the QD lies under two face-up cards: with one space classic is stuck (only the
    # 8H comes off), but a runner moves the 8H into the space, then lifts the 9C and turns the QD.
    shape: dict[str, Any] = {"p1": ["QD | 9C 8H", "", "KS", "2S", "JS"], "p2": ["8C", "TH", "KD", "9S", "JH"],
                             "spit": ("4D", "6C"), "p1_spit": "AD", "p2_spit": "AH"}
    assert kinds(game_from_state(position(**shape)).settle(0.0)) == ["stalemate"]
    game = running(**shape)
    assert game.settle(0.0) == [] and game.can_progress(1)
    events = []
    for t, press in ((1.0, "pile1"), (1.1, "pile2"), (1.2, "pile1"), (1.3, "pile1")):
        events += presses(game, (t, 1, press))
        # Each position on the way is one the state check accepts, so a rollback restores its
        # snapshot (it refused them when the rules had called this a stalemate).
        assert restore(game.snapshot()).snapshot() == game.snapshot()
    assert kinds(events) == ["select", "move", "select", "flip", "stalemate"]  # (the QD fits nothing either)
    assert events[3]["card"] == "QD"
