"""Speed (S1-S5), rule by rule from explicit positions: the deal, the calls, plays and races, refills
and draws, the stalemate reveal from the side stacks and their reshuffle, scoring, the target, both
side-stack sizes, every reject reason, setups that don't add up, snapshots and scripts."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from appliance.cli import main
from appliance.rules import CLASSIC, Action, SetupError, deck, game_from_setup, new_game, restore
from appliance.rules.events import (
    Call,
    Deal,
    Draw,
    Event,
    GameOver,
    Play,
    Refill,
    Reject,
    Reshuffle,
    RoundOver,
    Score,
    Select,
    Stalemate,
    TurnUp,
)
from appliance.rules.speed import RACE_WINDOW, SpeedGame
from appliance.rules.speed_state import game_from_state

FULL_DECK = Counter(deck())


def speed_state(hand1: str, hand2: str, stock1: str = "", stock2: str = "", spit: tuple[str, str] = ("", ""),
                side: tuple[str, str] = ("", ""), phase: str = "playing", rest: str = "spit0",
                scores: tuple[int, int] = (0, 0), **extra: Any) -> dict[str, Any]:
    """A Speed state object. Hands are five slots, `-` for an empty one: "5H KD - 2C 9S"; stocks
    and side stacks top first; spit piles bottom to top. Every card of the deck not placed goes to
    `rest`: under spit pile 0 (`spit0`), under side stack 0 or 1 (`side0`, `side1`), or under a
    player's stock (`stock1`, `stock2`)."""
    hands = [[None if c == "-" else c for c in hand.split()] for hand in (hand1, hand2)]
    stocks = [stock1.split(), stock2.split()]
    spit_piles = [spit[0].split(), spit[1].split()]
    side_stacks = [side[0].split(), side[1].split()]
    used = [c for h in hands for c in h if c] + stocks[0] + stocks[1] + spit_piles[0] + spit_piles[1] \
        + side_stacks[0] + side_stacks[1]
    left = [card for card in deck() if card not in used]
    if rest == "spit0":
        spit_piles[0] = left + spit_piles[0]
    elif rest.startswith("side"):
        side_stacks[int(rest[4:])] += left
    else:
        stocks[int(rest[5:]) - 1] += left
    state: dict[str, Any] = {
        "variant": "speed", "phase": phase, "round": 1, "winner": None, "spit_piles": spit_piles,
        "side_stacks": side_stacks,
        "players": [{"hand": hands[n], "stock": stocks[n], "score": scores[n], "selected": None} for n in range(2)],
    }
    for key, value in extra.items():
        if key in ("selected", "called"):
            for n in range(2):
                state["players"][n][key] = value[n]
        else:
            state[key] = value
    return state


def speed_game(*args: Any, options: dict[str, Any] | None = None, seed: int = 0, **kwargs: Any) -> SpeedGame:
    game, _ = game_from_setup({"variant": "speed", "seed": seed, "options": options,
                               "state": speed_state(*args, **kwargs)})
    assert isinstance(game, SpeedGame)
    return game


def check(game: SpeedGame) -> None:
    assert Counter(game.all_cards()) == FULL_DECK, "every card in exactly one place"


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def only(events: list[Event], cls: type[Any]) -> Any:
    found = [e for e in events if isinstance(e, cls)]
    assert len(found) == 1, events
    return found[0]


# Player 1's 4H fits the 5S on pile 0 (player 1's left, player 2's right); nothing of player 2's fits.
RACE = ("3C 4H KS KH QD", "7D KD QS QH QC", "2S 2H 2D", "JS JH JD")


def race_game() -> SpeedGame:
    return speed_game(*RACE, spit=("5S", "9C"), side=("TC", "TD"))


# ---------------------------------------------------------------------- the deal (S1, S2)

@pytest.mark.parametrize(("side_stacks", "stock"), [(10, 15), (5, 20)])
def test_a_seeded_deal_lays_out_stocks_hands_and_side_stacks(side_stacks: int, stock: int) -> None:
    game, events = new_game("speed", 4, {"side_stacks": side_stacks})
    assert isinstance(game, SpeedGame)
    state = game.state()
    assert state["phase"] == "ready" and state["round"] == 1 and state["spit_piles"] == [[], []]
    # Each side stack: its side-stack cards and, on top, the single middle card.
    assert [len(s) for s in state["side_stacks"]] == [side_stacks + 1] * 2
    for p in state["players"]:
        assert len(p["hand"]) == 5 and None not in p["hand"]
        assert len(p["hand"]) + len(p["stock"]) == stock
        assert p["score"] == 0 and p["selected"] is None
    assert [e.to_json() for e in events] == [
        {"t": 0.0, "event": "deal", "round": 1, "players": [{"hand": 5, "stock": stock - 5}] * 2}]
    check(game)
    assert state["options"] == {"target": 25, "side_stacks": side_stacks}


def test_the_deal_is_the_seeds_own() -> None:
    a, b, c = new_game("speed", 9)[0], new_game("speed", 9)[0], new_game("speed", 10)[0]
    assert a.state() == b.state() != c.state()


def test_the_state_object_has_the_formats_keys() -> None:
    state = new_game("speed", 1)[0].state()
    assert list(state) == ["variant", "options", "phase", "round", "winner", "spit_piles", "side_stacks", "players"]
    assert list(state["players"][0]) == ["hand", "stock", "score", "selected", "called"]


# ---------------------------------------------------------------------- the calls (S2, S4)

def test_both_calls_turn_the_two_middle_cards_at_once() -> None:
    game, _ = new_game("speed", 2)
    tops = [stack[0] for stack in game.state()["side_stacks"]]
    first = game.press(0.5, 2, "spit")
    assert kinds(first) == ["call"] and game.phase == "ready"
    assert game.press(0.6, 2, "spit") == [Reject(0.6, 2, "spit", "already_called")]
    second = game.press(0.9, 1, "spit")
    assert second[:3] == [Call(0.9, 1), TurnUp(0.9, tops[0], 0), TurnUp(0.9, tops[1], 1)]
    assert game.state()["spit_piles"] == [[tops[0]], [tops[1]]]
    assert game.phase in ("playing", "stalemate")
    assert not any(p["called"] for p in game.state()["players"])


def test_spit_while_somebody_can_still_play_is_not_a_stalemate() -> None:
    game = race_game()
    assert game.press(1.0, 2, "spit") == [Reject(1.0, 2, "spit", "not_stuck")]


def test_before_the_middle_cards_are_turned_nothing_is_played() -> None:
    game = speed_game(*RACE, side=("5S TC", "9C TD"), phase="ready", rest="side0")
    assert kinds(game.press(0.1, 1, "pile2")) == ["select"]  # a hand may hover
    assert game.press(0.2, 1, "left") == [Reject(0.2, 1, "left", "wrong_phase")]


# ---------------------------------------------------------------------- playing (S3)

def test_a_card_one_rank_up_or_down_plays_and_its_slot_refills_from_the_stock_at_once() -> None:
    game = race_game()
    assert game.press(1.0, 1, "pile2") == [Select(1.0, 1, 2, "4H")]
    events = game.press(1.1, 1, "left")
    assert events == [Play(1.1, 1, 2, "4H", 0, "5S"), Refill(1.1, 1, 2, "2S")]
    me = game.state()["players"][0]
    assert me["hand"] == ["3C", "2S", "KS", "KH", "QD"] and me["stock"] == ["2H", "2D"]
    assert me["selected"] is None
    # One down again, onto the card just played: 3C on 4H.
    game.press(1.2, 1, "pile1")
    assert kinds(game.press(1.3, 1, "left"))[:2] == ["play", "refill"]
    check(game)


@pytest.mark.parametrize(("card", "top"), [("AS", "KD"), ("KS", "AD"), ("2S", "AD"), ("AS", "2D")])
def test_ranks_wrap_round_the_ace(card: str, top: str) -> None:
    game = speed_game(f"{card} 9H 9D 9C 9S", "5H 5D 5C 5S 6C", spit=(top, "TC"), side=("JC", "JD"))
    game.press(1.0, 1, "pile1")
    events = game.press(1.1, 1, "left")
    assert events[0] == Play(1.1, 1, 1, card, 0, top) and "refill" not in kinds(events)  # no stock to refill from


def test_a_card_that_does_not_fit_stays_selected_in_the_hand() -> None:
    game = race_game()
    game.press(1.0, 1, "pile4")
    assert game.press(1.1, 1, "right") == [Reject(1.1, 1, "right", "not_adjacent", card="KH", spit_pile=1,
                                                  onto="9C")]
    assert game.state()["players"][0]["selected"] == 4


def test_nothing_selected() -> None:
    game = race_game()
    assert game.press(1.0, 1, "left") == [Reject(1.0, 1, "left", "nothing_selected")]


def test_a_second_press_on_the_selected_slot_deselects_and_another_slot_takes_its_place() -> None:
    game = race_game()
    game.press(1.0, 1, "pile1")
    assert kinds(game.press(1.1, 1, "pile1")) == ["deselect"]
    game.press(1.2, 1, "pile1")
    assert game.press(1.3, 1, "pile3") == [Select(1.3, 1, 3, "KS")]


@pytest.mark.parametrize(("control", "reason"), [("pile6", "no_pile"), ("far_left", "no_pile"),
                                                 ("far_right", "no_pile"), ("slap", "not_in_this_game")])
def test_controls_speed_has_no_use_for_are_rejected(control: str, reason: str) -> None:
    assert race_game().press(1.0, 2, control) == [Reject(1.0, 2, control, reason)]


@pytest.mark.parametrize(("player", "control"), [(3, "pile1"), (0, "spit"), (1, "jump"), ("1", "left")])
def test_no_such_player_or_control(player: Any, control: Any) -> None:
    assert race_game().press(1.0, player, control) == [Reject(1.0, player, control, "unknown_press")]


# ---------------------------------------------------------------------- races (rule 5, the family's)

# Both hold a card for the 5 on pile 0: player 1 a 4, player 2 a 6 (player 2 also a T for the 9).
RACE2 = ("4H KS KH QD QC", "6D KD QS QH TH", "2S", "2H")


def test_a_card_that_fitted_the_covered_top_lost_the_race_by_edge_time() -> None:
    game = speed_game(*RACE2, spit=("5S", "9C"), side=("TC", "TD"))
    game.press(1.0, 1, "pile1")
    game.press(1.0, 2, "pile1")
    # Presses are applied in order of t: player 2's touch at 1.498, player 1's at 1.5.
    assert game.press(1.498, 2, "right") == [Play(1.498, 2, 1, "6D", 0, "5S"), Refill(1.498, 2, 1, "2H")]
    late = game.press(1.5, 1, "left")
    assert late == [Reject(1.5, 1, "left", "too_late", card="4H", spit_pile=0, winner=2, by_ms=2.0)]
    assert game.state()["players"][0]["hand"][0] == "4H" and game.state()["players"][0]["selected"] == 1


def test_a_late_card_long_after_the_race_is_simply_not_adjacent() -> None:
    game = speed_game(*RACE2, spit=("5S", "9C"), side=("TC", "TD"))
    game.press(1.0, 1, "pile1")
    game.press(1.0, 2, "pile1")
    game.press(1.1, 2, "right")
    t = round(1.1 + RACE_WINDOW + 0.001, 6)
    assert only(game.press(t, 1, "left"), Reject).reason == "not_adjacent"
    assert CLASSIC.race_window == RACE_WINDOW  # the family's one race rule


def test_a_race_is_against_the_other_player_only() -> None:
    # Player 1 plays 6D then 4H onto pile 0 straight after: their own 6D covered the 5, no race lost.
    game = speed_game("6D 4H KS QD QC", "KD QS QH JC TH", "2S 2H", "", spit=("5S", "9C"), side=("TC", "TD"))
    game.press(1.0, 1, "pile1")
    game.press(1.1, 1, "left")
    game.press(1.2, 1, "pile2")
    assert only(game.press(1.3, 1, "left"), Reject).reason == "not_adjacent"


def test_a_press_older_than_the_last_one_applies_now() -> None:
    game = race_game()
    game.press(2.0, 1, "pile2")
    events = game.press(1.0, 1, "left")
    assert events[0] == Play(2.0, 1, 2, "4H", 0, "5S") and game.now == 2.0


# ---------------------------------------------------------------------- stock and hand (S3, S5)

def test_with_the_stock_empty_a_played_slot_stays_empty_and_the_player_plays_on_from_the_hand() -> None:
    game = speed_game("4H KS KH QD QC", "7D KD QS QH TH", "", "2S", spit=("5S", "9C"), side=("TC", "TD"))
    game.press(1.0, 1, "pile1")
    assert kinds(game.press(1.1, 1, "left")) == ["play"]
    assert game.state()["players"][0]["hand"] == [None, "KS", "KH", "QD", "QC"]
    assert game.press(1.2, 1, "pile1") == [Reject(1.2, 1, "pile1", "no_card")]


def test_an_empty_slot_draws_the_top_of_the_stock() -> None:
    game = speed_game("4H - KH QD QC", "7D KD QS QH JC", "KS 2S", "2H", spit=("5S", "9C"), side=("TC", "TD"))
    assert game.press(1.0, 1, "pile2") == [Draw(1.0, 1, 2, "KS")]
    assert game.state()["players"][0]["stock"] == ["2S"]
    assert game.legal_actions(1) == [Action("play", 1, 0)]


# ---------------------------------------------------------------------- stalemate and reveal (S4)

# Tops 5S and 5D; neither hand holds a 4 or a 6.
STUCK_HANDS = ("9S 9H 9D 9C TS", "JS JH JD JC TH")


def test_when_neither_can_play_nor_draw_it_is_a_stalemate() -> None:
    game = speed_game("4H 9H 9D 9C TS", "JS JH JD JC TH", "2S", "2H", spit=("3S", "5D"), side=("QS", "QH"))
    game.press(1.0, 1, "pile1")
    events = game.press(1.1, 1, "left")
    assert kinds(events) == ["play", "refill", "stalemate"] and events[-1] == Stalemate(1.1, [1, 2])
    assert game.phase == "stalemate"
    assert game.legal_actions(1) == game.legal_actions(2) == [Action("call")]
    assert game.press(1.2, 2, "right") == [Reject(1.2, 2, "right", "wrong_phase")]


def test_a_player_who_cannot_draw_because_the_stock_is_empty_counts_as_stuck() -> None:
    game = speed_game("9S - - 9C TS", "JS JH JD JC TH", "", "2H", spit=("5S", "5D"), side=("QS", "QH"))
    assert game.phase == "stalemate"  # settled at the setup
    assert game_from_setup({"variant": "speed", "state": speed_state(
        "9S - - 9C TS", "JS JH JD JC TH", "", "2H", spit=("5S", "5D"), side=("QS", "QH"))})[1] == [
        Stalemate(0.0, [1, 2])]


def test_one_player_stuck_while_the_other_can_play_is_no_stalemate() -> None:
    game = speed_game("9S 9H 9D 9C TS", "JS JH JD JC 6C", "2S", "2H", spit=("5S", "5D"), side=("QS", "QH"))
    assert game.phase == "playing"
    assert game.legal_actions(1) == [] and game.legal_actions(2) == [Action("play", 5, 0), Action("play", 5, 1)]


def test_a_player_who_can_still_draw_is_not_stuck() -> None:
    game = speed_game("9S - 9D 9C TS", "JS JH JD JC TH", "9H", "2H", spit=("5S", "5D"), side=("QS", "QH"))
    assert game.phase == "playing"
    events = game.press(1.0, 1, "pile2")
    assert kinds(events) == ["draw", "stalemate"]


def test_the_stalemate_reveal_turns_a_card_from_each_side_stack_onto_the_pile_beside_it() -> None:
    game = speed_game(*STUCK_HANDS, "2S", "2H", spit=("5S", "5D"), side=("QS 3C", "6H 3D"), phase="stalemate")
    assert kinds(game.press(1.0, 1, "spit")) == ["call"]
    events = game.press(1.4, 2, "spit")
    assert events[:3] == [Call(1.4, 2), TurnUp(1.4, "QS", 0), TurnUp(1.4, "6H", 1)]
    state = game.state()
    assert [pile[-1] for pile in state["spit_piles"]] == ["QS", "6H"] and game.phase == "playing"
    assert state["side_stacks"] == [["3C"], ["3D"]]
    check(game)


def test_a_reveal_that_still_leaves_everybody_stuck_is_another_stalemate() -> None:
    game = speed_game(*STUCK_HANDS, "2S", "2H", spit=("5S", "5D"), side=("5C 3C", "5H 3D"), phase="stalemate")
    game.press(1.0, 1, "spit")
    events = game.press(1.0, 2, "spit")
    assert kinds(events) == ["call", "turn_up", "turn_up", "stalemate"]


# ---------------------------------------------------------------------- reshuffle (S4)

def test_when_the_side_stacks_are_used_up_the_middle_but_its_tops_makes_new_side_stacks() -> None:
    # Everything but the hands, stocks and tops lies under spit pile 0: 52 - 10 - 2 - 2 = 38 cards.
    game = speed_game(*STUCK_HANDS, "2S", "2H", spit=("5S", "5D"), phase="stalemate", seed=5)
    under = game.state()["spit_piles"][0][:-1]
    assert len(under) == 38
    game.press(1.0, 1, "spit")
    events = game.press(1.1, 2, "spit")
    assert events[1] == Reshuffle(1.1, [19, 19])
    turned = [e for e in events if isinstance(e, TurnUp)]
    state = game.state()
    # The tops stayed; one new card turned onto each; the rest are the new side stacks.
    assert state["spit_piles"] == [["5S", turned[0].card], ["5D", turned[1].card]]
    assert [len(s) for s in state["side_stacks"]] == [18, 18]
    assert sorted(state["side_stacks"][0] + state["side_stacks"][1] + [e.card for e in turned]) == sorted(under)
    check(game)
    # Shuffled by the game's seeded RNG: the same seed, the same side stacks; another seed, others.
    again = speed_game(*STUCK_HANDS, "2S", "2H", spit=("5S", "5D"), phase="stalemate", seed=5)
    other = speed_game(*STUCK_HANDS, "2S", "2H", spit=("5S", "5D"), phase="stalemate", seed=6)
    for g in (again, other):
        g.press(1.0, 1, "spit")
        g.press(1.1, 2, "spit")
    assert again.state() == state != other.state()


def test_an_odd_card_goes_to_side_stack_0_and_a_side_stack_left_over_joins_the_shuffle() -> None:
    # Side stack 0 still holds 7C, side stack 1 nothing: a reveal needs a card from each, so 7C is
    # shuffled with the 34 cards left over (under spit pile 0) and 3C 4C: 37 cards, 19 and 18.
    game = speed_game(*STUCK_HANDS, "2S 3S", "2H", spit=("3C 4C 5S", "5D"), side=("7C", ""), phase="stalemate")
    assert len(game.state()["spit_piles"][0]) == 34 + 3
    game.press(1.0, 1, "spit")
    events = game.press(1.0, 2, "spit")
    assert only(events, Reshuffle) == Reshuffle(1.0, [19, 18])
    state = game.state()
    assert [len(s) for s in state["side_stacks"]] == [18, 17]
    assert [pile[0] for pile in state["spit_piles"]] == ["5S", "5D"] and all(len(p) == 2 for p in state["spit_piles"])
    check(game)


# ---------------------------------------------------------------------- a deal that can never go on

def test_a_deal_whose_middle_can_never_fit_a_hand_is_dealt_again_without_a_score() -> None:
    # Hands of 9s, Ts and Js; stocks of 8s... no: nothing in the middle is an 8, 9, T, J or Q.
    hands = ("9S 9H 9D 9C TS", "JS JH JD JC TH")
    middle_ok = [c for c in deck() if c[0] not in "89TJQ"]
    rest = [c for c in deck() if c[0] in "8Q" or c in ("TD", "TC")]
    state = speed_state(*hands, " ".join(rest[:5]), " ".join(rest[5:]), spit=("2S", "2H"),
                        side=(" ".join(c for c in middle_ok if c not in ("2S", "2H")), ""),
                        scores=(7, 3))
    game, events = game_from_setup({"variant": "speed", "seed": 1, "state": state})
    assert kinds(events) == ["round_over", "deal"]
    assert events[0] == RoundOver(0.0, 1, "blocked", None)
    assert game.round == 2 and game.phase == "ready"
    assert [p["score"] for p in game.state()["players"]] == [7, 3]
    assert isinstance(game, SpeedGame)
    check(game)


# ---------------------------------------------------------------------- scoring and the target (S5)

def test_the_player_who_empties_hand_and_stock_wins_the_deal_and_scores_the_opponents_cards() -> None:
    game = speed_game("4H - - - -", "7D KD QS QH JC", "", "2H 3H 4S", spit=("5S", "9C"), side=("TC", "TD"),
                      scores=(10, 4), seed=3)
    game.press(1.0, 1, "pile1")
    events = game.press(1.2, 1, "left")
    assert events[:3] == [Play(1.2, 1, 1, "4H", 0, "5S"), RoundOver(1.2, 1, "played_out", 1),
                          Score(1.2, 1, 8, 18)]
    assert isinstance(events[3], Deal) and events[3].round == 2
    state = game.state()
    assert [p["score"] for p in state["players"]] == [18, 4]
    assert state["round"] == 2 and state["phase"] == "ready" and state["spit_piles"] == [[], []]
    assert [len(s) for s in state["side_stacks"]] == [11, 11]
    check(game)


def test_reaching_the_target_wins_the_game() -> None:
    game = speed_game("4H - - - -", "7D KD QS QH JC", "", "2H 3H 4S", spit=("5S", "9C"), side=("TC", "TD"),
                      scores=(17, 4))
    game.press(1.0, 1, "pile1")
    events = game.press(1.2, 1, "left")
    assert kinds(events) == ["play", "round_over", "score", "game_over"] and events[-1] == GameOver(1.2, 1)
    state = game.state()
    assert state["phase"] == "over" and state["winner"] == 1 and state["players"][0]["score"] == 25
    assert game.press(1.3, 2, "pile1") == [Reject(1.3, 2, "pile1", "game_over")]
    assert game.legal_actions(1) == game.legal_actions(2) == []
    check(game)


@pytest.mark.parametrize(("target", "over"), [(26, False), (25, True), (1, True)])
def test_the_target_is_an_option_and_exceeding_it_wins_too(target: int, over: bool) -> None:
    game = speed_game("4H - - - -", "7D KD QS QH JC", "", "2H 3H 4S", spit=("5S", "9C"), side=("TC", "TD"),
                      scores=(0, 0) if target == 1 else (17, 4), options={"target": target})
    game.press(1.0, 1, "pile1")
    game.press(1.2, 1, "left")
    assert (game.phase == "over") == over


def test_with_side_stacks_of_5_the_new_deal_has_stocks_of_20() -> None:
    game = speed_game("4H - - - -", "7D KD QS QH JC", "", "2H", spit=("5S", "9C"), side=("TC", "TD"),
                      options={"side_stacks": 5})
    game.press(1.0, 1, "pile1")
    game.press(1.2, 1, "left")
    state = game.state()
    assert [len(s) for s in state["side_stacks"]] == [6, 6]
    assert [len(p["stock"]) for p in state["players"]] == [15, 15]


# ---------------------------------------------------------------------- actions

def test_the_presses_for_each_legal_action_do_it() -> None:
    for seed in range(30):
        game, _ = new_game("speed", seed)
        rng = random.Random(seed)
        t = 0.0
        for _ in range(400):
            if game.phase == "over":
                break
            player = rng.randint(1, 2)
            actions = game.legal_actions(player)
            if not actions:
                player = 3 - player
                actions = game.legal_actions(player)
            if not actions:
                break
            action = rng.choice(actions)
            events: list[Event] = []
            for control in game.presses_for(player, action):
                t = round(t + 0.05, 6)
                events += game.press(t, player, control)
            wanted = {"play": Play, "call": Call, "draw": Draw}[action.kind]
            assert any(isinstance(e, wanted) for e in events), (action, events)
            assert not any(isinstance(e, Reject) for e in events), (action, events)


# ---------------------------------------------------------------------- setups that don't add up

@pytest.mark.parametrize(("change", "words"), [
    (lambda s: s["players"][0]["hand"].pop(), "players[0].hand must be a list of 5 slots"),
    (lambda s: s["players"][0]["hand"].__setitem__(0, "1X"), "'1X' is neither a card"),
    (lambda s: s["spit_piles"][0].pop(0), "cards do not add up: missing"),
    (lambda s: s["side_stacks"][1].append("4H"), "duplicate 4H"),
    (lambda s: s["players"][1].__setitem__("selected", 6), "selected must be a whole number from 1 to 5"),
    (lambda s: s["players"][1].__setitem__("score", 25), "has reached the target 25"),
    (lambda s: s["players"][1].__setitem__("score", -1), "score must be a whole number"),
    (lambda s: s["players"][0].__setitem__("called", True), "call only in phase"),
    (lambda s: s.__setitem__("phase", "choosing"), "phase must be one of ready, playing, stalemate, over"),
    (lambda s: s.__setitem__("phase", "stalemate"), "player 1 can still play or draw"),
    (lambda s: s.__setitem__("phase", "ready"), "the spit piles are empty until both call"),
    (lambda s: s.__setitem__("winner", 1), "winner must be set exactly when phase is 'over'"),
    (lambda s: s.__setitem__("side_stacks", [[]]), "side_stacks must be a list of 2 side stacks"),
    (lambda s: s.__setitem__("variant", "classic"), "is for variant 'classic' but the setup says 'speed'"),
    (lambda s: s.__setitem__("options", {"target": 30}), "the options in the state and in the setup do not agree"),
    (lambda s: s.__setitem__("options", {"stock_piles": [1]}), "'stock_piles' is not an option of 'speed'"),
    (lambda s: s.__setitem__("options", {"side_stacks": 7}), "'side_stacks' must be 10 or 5"),
])
def test_setups_that_are_not_a_speed_game_are_named(change: Any, words: str) -> None:
    state = speed_state(*RACE, spit=("5S", "9C"), side=("TC", "TD"))
    change(state)
    with pytest.raises(SetupError, match=re.escape(words)):
        game_from_state(state, variant="speed", options={"target": 25} if "options" in state else None)


def test_a_player_with_no_cards_left_in_a_deal_is_not_a_position() -> None:
    with pytest.raises(SetupError, match="no cards in hand or stock"):
        game_from_state(speed_state("- - - - -", "7D KD QS QH JC", spit=("5S", "9C"), side=("TC", "TD")))


def test_a_position_where_both_have_called_is_not_one() -> None:
    state = speed_state(*RACE, side=("5S TC", "9C TD"), phase="ready", rest="side0", called=(True, True))
    with pytest.raises(SetupError, match="both players have called"):
        game_from_state(state)
    state["players"][1]["called"] = False
    game = game_from_state(state)
    assert game.legal_actions(1) == [] and game.legal_actions(2) == [Action("call")]
    assert kinds(game.press(0.5, 2, "spit")) == ["call", "turn_up", "turn_up"]


def test_a_ready_position_needs_a_card_on_each_side_stack() -> None:
    with pytest.raises(SetupError, match="each side stack needs a card"):
        game_from_state(speed_state(*RACE, phase="ready", rest="side0"))


def test_a_finished_game_needs_its_winner_at_the_target() -> None:
    state = speed_state(*RACE, spit=("5S", "9C"), side=("TC", "TD"), phase="over", winner=2, scores=(3, 24))
    with pytest.raises(SetupError, match="winner 2 has not reached the target 25"):
        game_from_state(state)
    state["players"][1]["score"] = 31
    assert game_from_state(state).winner == 2


# ---------------------------------------------------------------------- snapshots

def test_a_snapshot_resumes_the_game_exactly_races_and_rng_included() -> None:
    game = speed_game(*RACE2, spit=("5S", "9C"), side=("TC", "TD"))
    game.press(1.0, 1, "pile1")
    game.press(1.0, 2, "pile1")
    game.press(1.498, 2, "right")
    resumed = restore(json.loads(json.dumps(game.snapshot())))
    assert resumed.state() == game.state()
    late = resumed.press(1.5, 1, "left")
    assert only(late, Reject).reason == "too_late"  # the race survived the snapshot
    assert isinstance(resumed, SpeedGame) and resumed.rng.getstate() == game.rng.getstate()


@pytest.mark.parametrize("damage", [
    lambda s: s.__setitem__("snapshot", 9),
    lambda s: s.pop("rng"),
    lambda s: s.__setitem__("races", [None]),
    lambda s: s["state"]["players"][0]["hand"].pop(),
])
def test_a_damaged_snapshot_is_a_setup_error(damage: Any) -> None:
    snap = new_game("speed", 1)[0].snapshot()
    damage(snap)
    with pytest.raises(SetupError):
        restore(snap)


# ---------------------------------------------------------------------- scripts

def test_a_speed_script_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "speed.jsonl"
    path.write_text('{"setup": {"variant": "speed", "seed": 3, "options": {"side_stacks": 5}}}\n'
                    '{"t": 0.1, "player": 1, "press": "spit"}\n{"t": 0.2, "player": 2, "press": "spit"}\n')
    assert main(["script", str(path)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [e["event"] for e in out[:4]] == ["deal", "call", "call", "turn_up"]
    assert out[-1]["state"]["options"] == {"target": 25, "side_stacks": 5}


@pytest.mark.parametrize(("lines", "line", "words"), [
    (['{"setup": {"variant": "speed", "options": {"side_stacks": 4}}}'], 1, "'side_stacks' must be 10 or 5"),
    (['{"setup": {"variant": "speed", "options": {"decks": 2}}}'], 1, "'decks' is not an option of 'speed'"),
    (['{"setup": {"variant": "speed", "state": {"phase": "playing"}}}'], 1, "players must be a list of 2"),
    (['{"setup": {"variant": "speed"}}', '{"t": 0.1, "player": 1, "press": "spit"}',
      '{"t": 0.2, "player": 2, "press": "draw"}'], 3, "unknown control 'draw'"),
    (['{"setup": {"variant": "speed"}}', '{"t": 0.1, "player": 3, "press": "spit"}'], 2, "unknown player 3"),
])
def test_bad_speed_input_exits_2_naming_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  lines: list[str], line: int, words: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["script", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"line {line}: " in captured.err and words in captured.err
