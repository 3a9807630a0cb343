"""Mod Spit's table slap (V18) and the rule deck (V19), from explicit positions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from positions import kinds, position, press, presses

from appliance.rules import Game, game_from_state, new_game
from appliance.rules.table_slap import RULE_DECK, RuleDeck, TableSlap
from appliance.scripting import parse_script, run

P1 = ["5H", "9C", "KS", "2S", "JD"]
P2 = ["8C", "QD", "KD", "8S", "3H"]


def mod_spit(spit: tuple[str, str], **kwargs: Any) -> Game:
    return game_from_state(position(P1, P2, spit=spit, p1_spit="4S 6S", p2_spit="7H 7C", variant="mod-spit",
                                    **kwargs))


def slap_of(game: Game) -> TableSlap:
    slap = game.house_rule(TableSlap)
    assert slap is not None
    return slap


def judged(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["event"] == "table_slap_judged")


def test_an_ace_and_a_king_is_no_slap_13_is_6_mod_7() -> None:
    # The seed's example: A and K, 1 x 13 = 13, which is 6 mod 7: not a prime, so a slap is wrong.
    game = mod_spit(("AD", "KC"))
    assert not slap_of(game).right_now(game)
    events = presses(game, (1.0, 1, "slap"), (2.0, 1, "pile1"))  # the window closes with the next press
    assert events[0] == {"t": 1.0, "event": "table_slap", "player": 1, "right": False, "values": [1, 13],
                         "rule": "product_prime"}
    assert judged(events)["reason"] == "wrong" and judged(events)["taker"] == 1
    assert game.phase == "stalemate" and game.spit_piles == [[], []]
    # Taken piles go under the taker's spit cards, pile 0 then pile 1.
    assert game.players[0].spit_cards[-2:] == ["AD", "KC"]


def test_a_right_slap_gives_both_piles_to_the_player_who_did_not_slap() -> None:
    game = mod_spit(("2D", "KC"))  # 2 x 13 = 26 = 5 mod 7: a prime
    assert slap_of(game).right_now(game)
    presses(game, (1.0, 2, "slap"))
    events = game.advance(1.76)  # a {"t": ...} line: the 0.75 s window is over
    assert [e.to_json()["event"] for e in events][:3] == ["table_slap_judged", "take", "take"]
    assert events[0].to_json() == {"t": 1.76, "event": "table_slap_judged", "reason": "slower", "taker": 1,
                                   "chooser": None, "slaps": [2]}
    assert game.players[0].spit_cards[-2:] == ["2D", "KC"]


def test_two_right_slaps_2_ms_apart_the_second_hand_takes_both() -> None:
    game = mod_spit(("3D", "4C"))  # 12 = 5 mod 7
    events = presses(game, (1.000, 1, "slap"), (1.002, 2, "slap"))
    verdict = judged(events)  # both have slapped: judged at once
    assert verdict == {"t": 1.002, "event": "table_slap_judged", "reason": "slower", "taker": 2, "chooser": None,
                       "slaps": [1, 2], "by_ms": 2.0}


def test_both_wrong_the_later_slapper_chooses_a_pile_and_the_other_takes_the_other() -> None:
    game = mod_spit(("AD", "KC"))
    events = presses(game, (1.000, 1, "slap"), (1.030, 2, "slap"))
    assert judged(events)["reason"] == "both_wrong" and judged(events)["chooser"] == 2
    assert game.state()["table_slap"]["chooser"] == 2
    assert [e["reason"] for e in press(game, 1.1, 1, "left") if e["event"] == "reject"] == ["not_your_choice"]
    events = press(game, 1.2, 2, "left")  # player 2's left is spit pile 1, the KC
    assert [(e["player"], e["spit_pile"]) for e in events if e["event"] == "take"] == [(2, 1), (1, 0)]
    assert game.players[1].spit_cards[-1] == "KC" and game.players[0].spit_cards[-1] == "AD"


def test_slaps_at_the_same_instant_are_told_apart_by_the_seeded_rng() -> None:
    choosers = set()
    for seed in range(12):
        game = game_from_state(position(P1, P2, spit=("AD", "KC"), p1_spit="4S", p2_spit="7H", variant="mod-spit"),
                               seed=seed)
        choosers.add(judged(presses(game, (1.0, 1, "slap"), (1.0, 2, "slap")))["chooser"])
        again = game_from_state(position(P1, P2, spit=("AD", "KC"), p1_spit="4S", p2_spit="7H", variant="mod-spit"),
                                seed=seed)
        assert judged(presses(again, (1.0, 1, "slap"), (1.0, 2, "slap")))["chooser"] == slap_of(game).chooser
    assert choosers == {1, 2}


def test_while_a_slap_is_judged_nothing_is_played_and_a_second_slap_is_refused() -> None:
    game = mod_spit(("4D", "KC"))  # 52 = 3 mod 7
    presses(game, (1.0, 1, "slap"))
    events = presses(game, (1.1, 1, "pile1"), (1.2, 1, "left"), (1.3, 1, "slap"))
    assert [e["reason"] for e in events if e["event"] == "reject"] == ["table_slapped", "already_slapped"]


def test_a_slap_needs_two_spit_piles_and_a_game_with_table_slaps() -> None:
    game = mod_spit(("", "KC"), rest="spit1")
    assert [e["reason"] for e in press(game, 1.0, 1, "slap")] == ["wrong_phase"]
    classic = game_from_state(position(P1, P2, spit=("2D", "KC")))
    assert [e["reason"] for e in press(classic, 1.0, 1, "slap")] == ["not_in_this_game"]


def test_the_journal_of_a_table_slap_replays_with_its_time_line() -> None:
    state = position(P1, P2, spit=("2D", "KC"), p1_spit="4S 6S", p2_spit="7H 7C", variant="mod-spit")

    lines = [json.dumps({"setup": {"variant": "mod-spit", "seed": 1, "state": state}}),
             '{"t": 1.0, "player": 2, "press": "slap"}', '{"t": 1.9}']
    events, _ = run(parse_script(lines))
    assert kinds(events)[-4:] == ["table_slap_judged", "take", "take", "stalemate"]
    assert events[-4].t == 1.9


def test_v19_draws_a_modulus_of_7_or_more_and_a_rule_by_rank() -> None:
    deck_rule = RuleDeck()
    assert deck_rule.draw([3, 5, 9, 12, 2]) == (9, 12)
    assert deck_rule.draw([8, 1]) == (8, 1)
    seen = set()
    for seed in range(60):
        game, _ = new_game("mod-spit-advanced", seed)
        state = game.state()["table_slap"]
        assert 7 <= state["modulus"] <= 13 and 1 <= state["rank"] <= 13
        rule = RULE_DECK[state["rank"] - 1]
        assert state["rule"] == rule.name
        assert "{" not in state["says"] and ("{m}" not in rule.words or str(state["modulus"]) in state["says"])
        seen.add(state["rank"])
    assert len(seen) >= 10
    assert new_game("mod-spit", 3)[0].state()["table_slap"]["says"] == "the product mod 7 is a prime"


@pytest.mark.parametrize(("rank", "a", "b", "m", "slap"), [
    (1, 2, 13, 7, True), (1, 1, 13, 7, False), (2, 3, 4, 7, False), (2, 1, 1, 7, True), (3, 6, 7, 9, True),
    (4, 3, 5, 7, True), (4, 3, 4, 7, False), (5, 2, 4, 7, True), (6, 1, 9, 9, True), (6, 3, 5, 7, False),
    (7, 5, 5, 7, True), (7, 1, 8, 7, True), (8, 3, 12, 7, True), (8, 5, 7, 7, False), (9, 4, 5, 7, True),
    (10, 4, 9, 7, True), (10, 4, 8, 7, False), (11, 3, 6, 9, True), (12, 3, 5, 7, True), (13, 6, 5, 10, True),
    (13, 2, 3, 10, False),
])
def test_each_rule_of_the_deck(rank: int, a: int, b: int, m: int, slap: bool) -> None:
    rule = RULE_DECK[rank - 1]
    assert rule.rank == rank and rule.test(a, b, m) is slap and rule.test(b, a, m) is slap


def test_after_two_wrong_slaps_the_rule_asks_the_later_slapper_to_choose_as_data() -> None:
    from appliance.display.duel_view import seat_prompt

    game = game_from_state(position(P1, P2, spit=("AD", "KC"), p1_spit="4S", p2_spit="7H", variant="mod-spit"), seed=3)
    assert game.house_prompt(1) is None and game.house_prompt(2) is None
    presses(game, (1.0, 1, "slap"), (1.04, 2, "slap"))
    chooser = slap_of(game).chooser
    assert chooser is not None
    other = 3 - chooser
    mine, theirs = game.house_prompt(chooser), game.house_prompt(other)
    assert mine is not None and (mine.key, mine.player) == ("you_choose_a_pile_to_take", None)
    assert theirs is not None and (theirs.key, theirs.player) == ("they_choose_a_pile_to_take", chooser)
    # in the seats' words: the chooser is asked, the other told; a computer's seat only told who chooses
    shown = seat_prompt(game, chooser, computer=False)
    assert shown is not None and shown.words == "you choose: press the spit pile you take"
    told = seat_prompt(game, other, computer=False)
    assert told is not None and told.words == f"Player {chooser} chooses a pile to take"
    computer = seat_prompt(game, chooser, computer=True)
    assert computer is not None and computer.words == f"Player {chooser} chooses a pile to take"


@pytest.mark.parametrize("rule", RULE_DECK, ids=[r.name for r in RULE_DECK])
def test_each_rules_working_is_met_exactly_when_the_rule_is(rule: Any) -> None:
    """The working a verdict shows (`working`): its tests all pass exactly when the rule says slap,
    and each sum, product and remainder in it is right."""
    from appliance.rules.table_slap import working

    sums = {"plus": lambda x, y: x + y, "times": lambda x, y: x * y, "minus": lambda x, y: x - y,
            "mod": lambda x, y: x % y}
    for m in range(7, 14):
        for a in range(1, 14):
            for b in range(1, 14):
                steps = working(rule.name, a, b, m)
                tests = [step.result for step in steps if isinstance(step.result, bool)]
                assert tests, (rule.name, a, b, m)
                assert all(tests) == rule.test(a, b, m), (rule.name, a, b, m, steps)
                for step in steps:
                    if step.op in sums:
                        assert step.result == sums[step.op](*step.args), step
