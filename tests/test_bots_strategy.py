"""The strategies, level by level, from explicit positions: what each one chooses and why."""

import random

from positions import game_at

from appliance.bots.strategy import STRATEGIES, Action, Plan, first_step, options, press_for, valid
from appliance.bots.view import View, visible_view

RNG = random.Random(0)


def view_of(p1: list[str], p2: list[str], spit: tuple[str, str], player: int = 1, **kw: object) -> View:
    return visible_view(game_at(p1, p2, spit=spit, **kw), player)


def choose(spec: str, view: View) -> Plan:
    return choose_with(spec, view, RNG)


def choose_with(spec: str, view: View, rng: random.Random) -> Plan:
    plan = STRATEGIES[spec].choose(view, rng)
    assert plan is not None
    return plan


def run_ranks(spec: str, view: View) -> list[int]:
    """The ranks of the run a strategy plans (its first play and what it planned to follow)."""
    plan = choose(spec, view)
    actions = [plan.action, *plan.follow]
    if not STRATEGIES[spec].pairs:
        actions = [plan.action, *STRATEGIES[spec]._best_run(view)[1:]]
    return [view.mine[a.a - 1] for a in actions if a.kind == "play"]


# The opponent's cards fit nothing in these positions, unless a test says otherwise.
QUIET = ["2H", "2S", "3H", "3S", "KC"]


def test_first_plays_the_first_card_it_sees() -> None:
    view = view_of(["TH", "8C", "8D", "7S", "9S"], QUIET, ("9C", "5D"))
    assert choose("first", view).action == Action("play", 1, 0)  # the ten, onto its left pile


def test_runs_think_ahead_as_the_article_says() -> None:
    # "With two eights, two sevens, a nine and a ten, don't play the nine then the ten: play the
    # nine, then eight, seven, eight ..." (000_…, Strategie). Here: T, 8, 8, 7, 9 onto a ten.
    view = view_of(["TH", "8C", "8D", "7S", "9S"], QUIET, ("TC", "5D"))
    for spec in ("3", "4", "5"):
        assert run_ranks(spec, view) == [9, 8, 7, 8], spec
    # With the nine down, `first` takes the ten (first in line) and ends its run at two cards.
    after = view_of(["TH", "8C", "8D", "7S", ""], QUIET, ("TC 9S", "5D"))
    assert choose("first", after).action == Action("play", 1, 0)
    assert choose("3", after).action.kind == "play" and after.mine[choose("3", after).action.a - 1] == 8


def test_watchful_levels_leave_the_opponent_nothing_to_cut_in_with() -> None:
    # A 6 or a 4 onto the 5: the opponent holds a 7, which fits on a 6 but not on a 4.
    p2 = ["7H", "2C", "2D", "9C", "9D"]
    view = view_of(["6S", "4S", "KH", "KS", "KD"], p2, ("5C", "JD"))
    assert choose("3", view).action == Action("play", 1, 0)  # the 6: as good as any for level 3
    for spec in ("4", "5"):
        assert choose(spec, view).action == Action("play", 2, 0), spec


def test_planned_runs_are_played_as_one_series() -> None:
    view = view_of(["TH", "8C", "8D", "7S", "9S"], QUIET, ("TC", "5D"))
    assert len(choose("4", view).follow) == 3
    assert choose("3", view).follow == ()


def test_the_expert_turns_up_its_cards_first_when_the_opponent_is_stuck() -> None:
    mine = ["6S", "2C 9D |", "KH", "KS", "KD"]
    stuck = view_of(mine, QUIET, ("5C", "JD"))
    plan = choose("5", stuck)
    assert plan.action == Action("flip", 2)
    assert choose("4", stuck).action == Action("play", 1, 0)
    # Not stuck (the opponent has a 4 for the 5): the expert plays at once.
    busy = view_of(mine, ["4H", "2S", "3H", "3S", "KC"], ("5C", "JD"))
    assert choose("5", busy).action == Action("play", 1, 0)


def test_every_strategy_turns_cards_and_moves_into_spaces_when_it_cannot_play() -> None:
    view = view_of(["2C 9D |", "KH", "", "QS", "3C 4C 5C JS"], QUIET, ("5H", "8D"))
    for spec in STRATEGIES:
        assert choose(spec, view).action == Action("flip", 1), spec
    view = view_of(["9D", "KH", "", "QS", "3C 4C 5C JS"], QUIET, ("5H", "7D"))
    assert options(view).moves == [Action("move", 5, 3)]
    for spec in ("first", "2", "3", "4", "5"):
        assert choose(spec, view).action == Action("move", 5, 3), spec
    nothing = view_of(["9D", "KH", "", "QS", "JS"], QUIET, ("5H", "7D"))
    assert all(STRATEGIES[spec].choose(nothing, RNG) is None for spec in STRATEGIES)


def test_slaps() -> None:
    kw = {"phase": "choosing"}
    # Spit pile 0 (player 1's left, player 2's right) is the larger one.
    big_left = view_of(["", "", "", "", ""], ["3D", "", "", "", ""], ("4C 5C 6C 7C", "JD"), rest="spit0", **kw)
    assert choose("first", big_left).action == Action("slap", 0)  # its left, whatever the size
    for spec in ("2", "3", "4", "5"):
        assert choose(spec, big_left).action == Action("slap", 1), spec
    assert press_for(big_left, Action("slap", 1)) == "right"
    # Level 4 and up saw their own last card go: they slap at once (only the hand moves).
    assert choose("4", big_left).prepared and choose("5", big_left).prepared
    assert not choose("2", big_left).prepared
    seat2 = visible_view(game_at(["", "", "", "", ""], ["3D", "", "", "", ""], spit=("4C 5C 6C 7C", "JD"), **kw), 2)
    # Player 2 still holds a card; player 1 played out. The expert watched that last card go too.
    assert choose("5", seat2).action == Action("slap", 1) and choose("5", seat2).prepared
    assert choose("4", seat2).action == Action("slap", 1) and not choose("4", seat2).prepared
    assert press_for(seat2, Action("slap", 1)) == "left"
    casual = {choose_with("1", big_left, random.Random(n)).action.a for n in range(20)}
    assert casual == {0, 1}


def test_spit_calls_and_the_lone_spitter() -> None:
    both = view_of(["5H", "KH", "8S", "7S", "9D"], QUIET, ("5C", "JD"), p1_spit="4C", rest="p2_spit", phase="stalemate")
    assert choose("first", both).action == Action("spit")
    # Player 2 has no spit cards: player 1 spits alone and first chooses a pile.
    lone = view_of(["5H", "KH", "8S", "7S", "9D"], QUIET, ("5C", "2D 4D JD"), phase="stalemate", rest="p1_spit")
    assert lone.their_spit_cards == 0
    assert choose("first", lone).action == Action("choose", 0)  # its left
    assert choose("5", lone).action == Action("choose", 1)  # the larger pile: the smaller stays small
    assert press_for(lone, Action("choose", 1)) == "right"
    # Player 2, with no spit cards, has nothing to call: it waits.
    other_seat = view_of(["5H", "KH", "8S", "7S", "9D"], QUIET, ("5C", "JD"), 2, phase="stalemate", rest="p1_spit")
    assert other_seat.my_spit_cards == 0 and other_seat.their_spit_cards > 0
    assert all(STRATEGIES[spec].choose(other_seat, RNG) is None for spec in STRATEGIES)
    # Having called, a player waits for the other.
    game = game_at(
        ["5H", "KH", "8S", "7S", "9D"], QUIET, spit=("5C", "JD"), p1_spit="4C", rest="p2_spit", phase="stalemate"
    )
    game.press(1.0, 1, "spit")
    assert STRATEGIES["5"].choose(visible_view(game, 1), RNG) is None
    assert choose("5", visible_view(game, 2)).action == Action("spit")


def test_presses_for_an_action() -> None:
    view = view_of(["5H", "KH", "QS", "JS", "9D"], QUIET, ("4C", "JD"))
    play = Action("play", 1, 0)
    assert valid(view, play) and press_for(view, play) == "pile1" and first_step(view, play)
    game = game_at(["5H", "KH", "QS", "JS", "9D"], QUIET, spit=("4C", "JD"))
    game.press(0.2, 1, "pile1")
    held = visible_view(game, 1)
    assert press_for(held, play) == "left" and not first_step(held, play)
    assert not valid(held, Action("play", 1, 1))  # 5 does not fit the jack
    assert not valid(held, Action("spit"))  # no calls while playing
    assert not valid(held, Action("slap", 0))
    assert press_for(held, Action("move", 1, 3)) == "pile3"
