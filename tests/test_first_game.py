"""The guided first game's lesson (appliance/first_game.py): the prepared deals play through the
rules core step by step, at either seat; the partner waits for the learner; a press the step does not
ask for is held back with why, as data."""

from __future__ import annotations

from typing import Any

import pytest

from appliance.first_game import LESSONS, Guide, Partner, Wrong, for_seat, lesson_match
from appliance.match import Match
from appliance.rules import deck, game_from_setup

S = 1_000_000_000


def kinds(events: list[Any]) -> list[str]:
    return [e.to_json()["event"] for e in events]


def play_through(game: str, learner: int) -> tuple[Match, Guide, list[str]]:
    """The lesson played as asked, one press a second (the partner calls when it will)."""
    match, guide = lesson_match(game, learner, 0)
    taught: list[str] = []
    t = 0
    for _ in range(200):
        if guide.done:
            break
        t += S
        match.tick(t)
        if guide.waiting(match.game):
            continue
        ask = guide.ask(match.game)
        assert ask is not None and guide.judge(match.game, ask.control) is None
        match.press(t, learner, ask.control, "test")
        lesson = guide.passed()
        if lesson is not None:
            taught.append(lesson)
    return match, guide, taught


@pytest.mark.parametrize("learner", [1, 2])
def test_the_spit_lesson_teaches_each_step_and_ends_with_the_smaller_pile_slapped(learner: int) -> None:
    match, guide, taught = play_through("spit", learner)
    assert guide.done
    assert taught == ["call", "play", "turn", "move", "turn", "play", "stuck", "play", "play", "slap"]
    said = [e.to_json() for e in match.events]
    plays = [(e["player"], e["card"], e["onto"]) for e in said if e["event"] == "play"]
    assert plays == [(learner, "5H", "6S"), (learner, "4C", "5H"), (learner, "KC", "AH"), (learner, "QS", "KC")]
    assert [e["event"] for e in said if e["event"] in ("stalemate", "round_over")] == ["stalemate", "round_over"]
    (slap,) = [e for e in said if e["event"] == "slap"]
    assert slap["player"] == learner and slap["size"] == 2  # the smaller pile: 2 cards against 6
    assert said[-1]["event"] == "deal" and said[-1]["round"] == 2
    assert {e["player"] for e in said if e["event"] in ("play", "select", "move", "flip", "slap")} == {learner}


@pytest.mark.parametrize("learner", [1, 2])
def test_the_speed_lesson_draws_plays_calls_and_wins_the_deal(learner: int) -> None:
    match, guide, taught = play_through("speed", learner)
    assert guide.done
    assert taught == ["call", "draw", "play", "play", "stuck", "play_out"]
    said = [e.to_json() for e in match.events]
    assert [(e["player"], e["card"]) for e in said if e["event"] == "draw"] == [(learner, "4C")]
    assert [e["card"] for e in said if e["event"] == "play"] == ["5H", "4C", "KC"]
    (over,) = [e for e in said if e["event"] == "round_over"]
    assert over["player"] == learner and over["reason"] == "played_out"
    assert match.game.winner == learner


def test_each_lesson_is_a_real_position_with_every_card_once() -> None:
    for lesson in LESSONS.values():
        for learner in (1, 2):
            setup = {"variant": lesson.variant, "seed": 1, "state": for_seat(lesson.position(), learner)}
            game, _ = game_from_setup(setup)  # refused if it were not a real position
            state = game.state()
            assert state["phase"] == "ready"
            cards = [c for pile in state.get("side_stacks", []) for c in pile]
            for seat in state["players"]:
                stock = seat["stock"]  # Spit: piles; Speed: cards
                cards += [c for pile in stock for c in (pile["cards"] if isinstance(pile, dict) else [pile])]
                cards += seat.get("spit_cards", []) + [c for c in seat.get("hand", []) if c is not None]
            assert sorted(cards) == sorted(deck())


def test_the_partner_calls_only_after_the_learner_and_never_plays() -> None:
    match, _ = lesson_match("spit", 1, 0)
    partner = match.bots[2]
    assert isinstance(partner, Partner)
    for t in range(1, 20):
        match.tick(t * S)
    assert kinds(match.events) == []  # the whole table waits for the learner
    match.press(20 * S, 1, "spit", "test")
    match.tick(20 * S + 100_000_000)
    assert kinds(match.events) == ["call"]  # not at once
    match.tick(21 * S)
    said = [e.to_json() for e in match.events]
    assert [(e["event"], e.get("player")) for e in said[:2]] == [("call", 1), ("call", 2)]
    assert said[1]["t"] == pytest.approx(20.1 + 0.6)  # a moment after it saw the learner's call
    assert match.game.phase == "playing"
    for t in range(22, 40):
        match.tick(t * S)
    assert len(match.events) == len(said)  # it plays nothing


def spit_at(step: int, part: int = 0) -> tuple[Match, Guide]:
    """The Spit lesson at step `step` (from 0), press `part` of it."""
    match, guide = lesson_match("spit", 1, 0)
    t = 0
    while (guide.index, guide.part) != (step, part):
        t += S
        match.tick(t)
        if guide.waiting(match.game):
            continue
        ask = guide.ask(match.game)
        assert ask is not None
        match.press(t, 1, ask.control, "test")
        guide.passed()
    match.tick(t + S)
    match.tick(t + 2 * S)  # (the partner, if it calls, has called)
    return match, guide


@pytest.mark.parametrize(
    ("step", "part", "press", "why"),
    [
        (0, 0, "pile1", Wrong("press_spit")),  # the cards are not turned yet
        (1, 0, "spit", Wrong("spit_not_now")),  # the 5 can be played
        (1, 0, "pile3", Wrong("not_fit", card="QS")),  # the queen fits neither the 6 nor the 8
        (1, 0, "left", Wrong("nothing_held")),
        (1, 0, "pile2", Wrong("empty")),
        (1, 0, "slap", Wrong("not_in_game")),
        (1, 0, "pile6", Wrong("not_in_game")),
        (1, 1, "right", Wrong("other_spit_pile", card="5H", top="8S")),
        (1, 1, "pile3", Wrong("holding", card="5H")),
        (3, 0, "pile1", Wrong("not_fit", card="KC")),
        (6, 0, "pile1", Wrong("press_spit")),  # nobody can play
        (9, 0, "left", Wrong("larger", size=6)),
    ],
)
def test_a_press_the_step_does_not_ask_for_is_held_back_with_why(step: int, part: int, press: str, why: Wrong) -> None:
    match, guide = spit_at(step, part)
    assert guide.judge(match.game, press) == why
    ask = guide.ask(match.game)
    assert ask is not None and guide.judge(match.game, ask.control) is None


def test_while_the_partner_is_calling_the_next_step_waits() -> None:
    match, guide = lesson_match("spit", 1, 0)
    match.press(S, 1, "spit", "test")
    guide.passed()
    match.tick(S + 100_000_000)
    assert guide.waiting(match.game) and guide.judge(match.game, "pile1") == Wrong("wait")
    match.tick(2 * S)
    assert not guide.waiting(match.game) and guide.judge(match.game, "pile1") is None


def test_what_is_asked_names_the_card_the_pile_and_the_top() -> None:
    match, guide = spit_at(1)
    ask = guide.ask(match.game)
    assert ask is not None
    assert (ask.lesson, ask.control, ask.pile, ask.card, ask.onto) == ("play", "pile1", 1, "5H", "6S")
    match, guide = spit_at(1, 1)
    ask = guide.ask(match.game)
    assert ask is not None
    assert (ask.control, ask.spit_pile, ask.card, ask.onto) == ("left", 0, "5H", "6S")
    match, guide = spit_at(9)
    ask = guide.ask(match.game)
    assert ask is not None and (ask.lesson, ask.control, ask.spit_pile, ask.size) == ("slap", "right", 1, 2)
