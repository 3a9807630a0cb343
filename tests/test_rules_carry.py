"""How a card in hand is held: on its pile (every game), or carried off it by a team's runners (V16)."""

from __future__ import annotations

from appliance.rules import Seat, StockPile, ruleset
from appliance.rules.carry import Carried, InHand, in_reach, lift_presses, seat_in_reach, under


def seat() -> Seat:
    return Seat([StockPile(["QH", "5H"], 1), StockPile(["9C"], 1), StockPile(["2S"], 1)], ["7H"])


def test_in_hand_the_card_stays_on_its_pile_one_hand_or_two() -> None:
    me = seat()
    assert InHand().hold(me, 1, 1) is None and (me.selected, me.carried) == (1, None)
    assert InHand().hold(me, 2, 1) is None and (me.selected, me.second) == (2, None)
    assert InHand().hold(me, 3, 2) is None and (me.selected, me.second) == (2, 3)
    assert InHand().hold(me, 1, 2) is None and (me.selected, me.second) == (3, 1)  # the one held longest goes
    assert [len(pile.cards) for pile in me.stock] == [2, 1, 1]


def test_carried_the_card_leaves_its_pile_and_one_carried_already_goes_back_first() -> None:
    carry, me = Carried((1, 1)), seat()
    assert carry.hold(me, 1, 2) is None  # (two hands or not: one card is carried at a time)
    assert (me.selected, me.second, me.carried, me.stock[0].cards) == (1, None, "5H", ["QH"])
    assert under(me) == 1 and seat_in_reach(me)[0] == StockPile(["QH", "5H"], 1)
    assert carry.hold(me, 2, 2) == 1  # the 5H goes back on pile 1 first
    assert (me.selected, me.carried, me.stock[0].cards, me.stock[1].cards) == (2, "9C", ["QH", "5H"], [])


def test_each_card_landed_sends_the_teams_next_runner() -> None:
    carry, me = Carried((3, 1)), seat()
    runners = []
    for _ in range(4):
        carry.landed(me, 1)
        runners.append(me.runner)
    assert runners == [1, 2, 0, 1]
    InHand().landed(me, 1)
    assert me.runner == 1


def test_only_a_carried_card_is_in_the_seat_state_and_only_it_keeps_no_retry() -> None:
    me = seat()
    me.carried, me.selected, me.runner = "KD", 2, 1
    assert InHand().seat_part(me) == {} and Carried().seat_part(me) == {"carried": "KD", "runner": 1}
    assert (InHand().retry([2, 3]), Carried().retry([2])) == (2, None)


def test_lifts_and_their_presses() -> None:
    me = seat()
    assert Carried().lifts(me.stock) == [("lift", 1, 0)] and InHand().lifts(me.stock) == []
    assert lift_presses(me, 1) == ["pile1", "pile1"]
    Carried().hold(me, 1, 1)
    assert lift_presses(me, 1) == ["pile1"]
    assert in_reach(me.stock, None, 0) is me.stock


def test_the_running_preset_carries_and_classic_does_not() -> None:
    running = ruleset("running", {"runners": [2, 3]}).moves
    assert running.carry and running.holding == Carried((2, 3))
    assert not ruleset("classic").moves.carry
