"""The strategies, level by level, from explicit positions: what each one chooses among the moves the
rules offer, and why."""

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from positions import game_at

from appliance.bots.strategy import HOLD_BACK, STRATEGIES, Plan, uncover
from appliance.bots.view import is_card, visible_view
from appliance.rules import Action, Game, new_game
from appliance.rules.table_slap import TableSlap
from lab.random_play import mash

RNG = random.Random(0)


def choose_with(spec: str, game: Game, player: int, rng: random.Random) -> Plan:
    legal = game.legal_actions(player)
    plan = STRATEGIES[spec].choose(visible_view(game, player), legal, game.rules, rng)
    assert plan is not None
    assert plan.action in legal  # only ever a move the rules offer
    return plan


def choose(spec: str, game: Game, player: int = 1) -> Plan:
    return choose_with(spec, game, player, RNG)


def run_ranks(spec: str, game: Game, player: int = 1) -> list[str]:
    """The ranks of the run a strategy plans (its first play and what it planned to follow)."""
    plan = choose(spec, game, player)
    actions = [plan.action, *plan.follow]
    view = visible_view(game, player)
    if not STRATEGIES[spec].pairs:
        plays = [a for a in game.legal_actions(player) if a.kind == "play"]
        actions = [plan.action, *STRATEGIES[spec]._best_run(view, plays, game.rules)[1:]]
    return [view.mine[a.pile - 1][0] for a in actions if a.kind == "play"]


# The opponent's cards fit nothing in these positions, unless a test says otherwise.
QUIET = ["2H", "2S", "3H", "3S", "KC"]


def test_first_plays_the_first_card_it_sees() -> None:
    game = game_at(["TH", "8C", "8D", "7S", "9S"], QUIET, spit=("9C", "5D"))
    assert choose("first", game) == Plan(Action("play", 1, 0), len(game.legal_actions(1)))  # onto its left


def test_runs_think_ahead_as_the_article_says() -> None:
    # "With two eights, two sevens, a nine and a ten, don't play the nine then the ten: play the
    # nine, then eight, seven, eight ..." (000_…, Strategie). Here: T, 8, 8, 7, 9 onto a ten.
    game = game_at(["TH", "8C", "8D", "7S", "9S"], QUIET, spit=("TC", "5D"))
    for spec in ("3", "4", "5"):
        assert run_ranks(spec, game) == ["9", "8", "7", "8"], spec
    # With the nine down, `first` takes the ten (first in line) and ends its run at two cards.
    after = game_at(["TH", "8C", "8D", "7S", ""], QUIET, spit=("TC 9S", "5D"))
    assert choose("first", after).action == Action("play", 1, 0)
    assert visible_view(after, 1).mine[choose("3", after).action.pile - 1][0] == "8"


def test_runs_keep_to_alternating_colours() -> None:
    # On the black ten: with alternating colours only the red nine fits, then a black eight, a red
    # seven; the black nine and the red eight are no use.
    mine = ["9S", "9H", "8D", "8C", "7H"]
    plain = game_at(mine, QUIET, spit=("TC", "5D"))
    colours = game_at(mine, QUIET, spit=("TC", "5D"), options={"alternate_colours": True})
    assert run_ranks("5", colours) == ["9", "8", "7"]
    assert _run_cards("5", colours) == ["9H", "8C", "7H"]
    assert run_ranks("5", plain) == ["9", "8", "9", "8", "7"]  # one rank apart, whatever the colour
    assert choose("first", colours).action == Action("play", 2, 0)  # the first card that fits: 9H


def _run_cards(spec: str, game: Game, player: int = 1) -> list[str]:
    plan = choose(spec, game, player)
    view = visible_view(game, player)
    return [view.mine[a.pile - 1] for a in (plan.action, *plan.follow) if a.kind == "play"]


def play_out_run(game: Game, player: int, plan: Plan) -> list[tuple[str, str]]:
    """The plan's plays as (card, onto) over the visible cards, each the top of its spit pile then."""
    view = visible_view(game, player)
    tops = list(view.spit)
    mine = list(view.mine)
    out = []
    for action in (plan.action, *plan.follow):
        if action.kind != "play":
            break
        card = mine[action.pile - 1]
        assert is_card(card), "a run plays only cards it can see"
        out.append((card, tops[action.target]))
        tops[action.target] = card
        mine[action.pile - 1] = ""  # what lies under it is unknown
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400),
       variant=st.sampled_from(["classic", "four-piles", "threes", "two-decks", "refill"]),
       stacking=st.booleans())
def test_every_planned_run_fits_by_the_rules_in_force(seed: int, steps: int, variant: str, stacking: bool) -> None:
    """With alternating colours, whatever the position: every card of a planned run goes onto the
    card it meets by the ruleset's fits (which rejects what the colours forbid)."""
    options: dict[str, Any] = {"alternate_colours": True, "same_rank_stacking": stacking}
    game, _ = new_game(variant, seed, options)
    rng = random.Random(seed)
    t = 0.0
    for _ in range(steps):
        if game.phase == "over":
            break
        dt, player, control = mash(game, rng)
        t += dt
        game.press(t, player, control)
    for player in (1, 2):
        if game.phase != "playing":
            continue
        for spec in ("4", "5"):
            plan = STRATEGIES[spec].choose(visible_view(game, player), game.legal_actions(player), game.rules, rng)
            if plan is None:
                continue
            assert plan.action in game.legal_actions(player)
            for card, onto in play_out_run(game, player, plan):
                assert game.rules.fits.fits(card, onto), (card, onto)


def test_watchful_levels_leave_the_opponent_nothing_to_cut_in_with() -> None:
    # A 6 or a 4 onto the 5: the opponent holds a 7, which fits on a 6 but not on a 4.
    p2 = ["7H", "2C", "2D", "9C", "9D"]
    game = game_at(["6S", "4S", "KH", "KS", "KD"], p2, spit=("5C", "JD"))
    assert choose("3", game).action == Action("play", 1, 0)  # the 6: as good as any for level 3
    for spec in ("4", "5"):
        assert choose(spec, game).action == Action("play", 2, 0), spec


def test_planned_runs_are_played_as_one_series() -> None:
    game = game_at(["TH", "8C", "8D", "7S", "9S"], QUIET, spit=("TC", "5D"))
    assert len(choose("4", game).follow) == 3
    assert choose("3", game).follow == ()


def test_the_expert_turns_up_its_cards_first_when_the_opponent_is_stuck() -> None:
    mine = ["6S", "2C 9D |", "KH", "KS", "KD"]
    stuck = game_at(mine, QUIET, spit=("5C", "JD"))
    assert choose("5", stuck).action == Action("flip", 2)
    assert choose("4", stuck).action == Action("play", 1, 0)
    # Not stuck (the opponent has a 4 for the 5): the expert plays at once.
    busy = game_at(mine, ["4H", "2S", "3H", "3S", "KC"], spit=("5C", "JD"))
    assert choose("5", busy).action == Action("play", 1, 0)
    # Cards the opponent picked up (V9) might fit: the expert does not count on them being stuck.
    hidden = game_at(mine, ["2S", "3H", "KC", "", ""], spit=("5C", "JD"), options={"hidden_last": True})
    hidden.players[1].hidden = True
    assert choose("5", hidden).action == Action("play", 1, 0)


def test_every_strategy_turns_cards_and_moves_into_spaces_when_it_cannot_play() -> None:
    game = game_at(["2C 9D |", "KH", "", "QS", "3C 4C 5C JS"], QUIET, spit=("5H", "8D"))
    for spec in STRATEGIES:
        assert choose(spec, game).action == Action("flip", 1), spec
    game = game_at(["9D", "KH", "", "QS", "3C 4C 5C JS"], QUIET, spit=("5H", "7D"))
    for spec in STRATEGIES:
        assert choose(spec, game).action == Action("move", 5, 3), spec
    nothing = game_at(["9D", "KH", "", "QS", "JS"], QUIET, spit=("5H", "7D"))
    view, legal = visible_view(nothing, 1), nothing.legal_actions(1)
    assert all(STRATEGIES[spec].choose(view, legal, nothing.rules, RNG) is None for spec in STRATEGIES)


def test_stacking_is_planned_to_uncover_a_card_and_never_goes_round_in_circles() -> None:
    # V7: no space, nothing fits. Stacking the 7S on the 7H frees pile 1; then the 9D goes into the
    # space and the card under it can be turned. (Stacking back and forth would uncover nothing.)
    stacking = {"same_rank_stacking": True}
    game = game_at(["7S", "7H", "2C 9D", "KS", "KD"], QUIET, spit=("5C", "JD"), options=stacking)
    path = uncover(visible_view(game, 1), game.rules)
    assert path == [Action("stack", 1, 2), Action("move", 3, 1)]
    for spec in STRATEGIES:
        assert choose(spec, game).action == Action("stack", 1, 2), spec
    assert choose("4", game).follow == (Action("move", 3, 1),)
    # Nothing to uncover: two sevens to stack on each other, and nothing under them.
    stuck = game_at(["7S", "7H", "9S", "KS", "KD"], QUIET, spit=("5C", "JD"), options=stacking)
    assert uncover(visible_view(stuck, 1), stuck.rules) == []


def test_slaps_for_the_pile_the_goal_wants() -> None:
    kw: dict[str, Any] = {"phase": "choosing", "rest": "spit0"}
    # Spit pile 0 (player 1's left, player 2's right) is the larger one.
    big_left = game_at(["", "", "", "", ""], ["3D", "", "", "", ""], spit=("4C 5C 6C 7C", "JD"), **kw)
    assert choose("first", big_left).action == Action("slap", target=0)  # its left, whatever the size
    for spec in ("2", "3", "4", "5"):
        assert choose(spec, big_left).action == Action("slap", target=1), spec
    # Reverse Spit: the larger pile.
    reverse = game_at(["", "", "", "", ""], ["3D", "", "", "", ""], spit=("4C 5C 6C 7C", "JD"),
                      options={"goal": "all"}, **kw)
    for spec in ("2", "3", "4", "5"):
        assert choose(spec, reverse).action == Action("slap", target=0), spec
    # Level 4 and up saw their own last card go: they slap at once (only the hand moves).
    assert choose("4", big_left).prepared and choose("5", big_left).prepared
    assert not choose("2", big_left).prepared
    # Player 2 still holds a card; player 1 played out. The expert watched that last card go too.
    assert choose("5", big_left, 2).action == Action("slap", target=1) and choose("5", big_left, 2).prepared
    assert not choose("4", big_left, 2).prepared
    casual = {choose_with("1", big_left, 1, random.Random(n)).action.target for n in range(20)}
    assert casual == {0, 1}


def test_the_ways_of_choosing_piles() -> None:
    kw: dict[str, Any] = {"phase": "choosing", "rest": "spit0"}
    piles = ("4C 5C 6C 7C", "JD")
    # V10: the player who played out chooses, no slap; the other waits.
    shapp = game_at(["", "", "", "", ""], ["3D", "", "", "", ""], spit=piles, options={"choose": "shapp"},
                    chooser=1, **kw)
    assert choose("5", shapp).action == Action("choose", target=1)
    assert choose("first", shapp).action == Action("choose", target=0)
    assert shapp.legal_actions(2) == [] and STRATEGIES["5"].choose(visible_view(shapp, 2), [], shapp.rules, RNG) is None
    # V11: the first to call "Spit!" chooses: both call, the one who played out (and saw it coming)
    # as fast as its hand goes.
    first_call = game_at(["", "", "", "", ""], ["3D", "", "", "", ""], spit=piles,
                         options={"choose": "first_call"}, **kw)
    assert choose("5", first_call).action == Action("call") and choose("5", first_call).prepared
    assert choose("2", first_call, 2).action == Action("call")
    # V12: only the smaller pile may be slapped, and every level slaps it, at once ...
    slap_spit = game_at(["", "", "", "", ""], ["3D", "", "", "", ""], spit=piles,
                        options={"choose": "slap_spit"}, **kw)
    for spec in STRATEGIES:
        assert choose(spec, slap_spit).action == Action("slap", target=1), spec
        assert choose(spec, slap_spit).wait == 0
    # ... except in Reverse Spit, where the thinking levels would rather the other took it.
    reverse = game_at(["", "", "", "", ""], ["3D", "", "", "", ""], spit=piles,
                      options={"choose": "slap_spit", "goal": "all"}, **kw)
    for spec in STRATEGIES:
        plan = choose(spec, reverse)
        assert plan.action == Action("slap", target=1), spec
        assert plan.wait == (HOLD_BACK if spec in ("3", "4", "5") else 0), spec


def test_spit_calls_and_the_lone_spitter() -> None:
    both = game_at(["5H", "KH", "8S", "7S", "9D"], QUIET, spit=("5C", "JD"), p1_spit="4C", rest="p2_spit",
                   phase="stalemate")
    assert choose("first", both).action == Action("call")
    # Player 2 has no spit cards: player 1 spits alone and first chooses a pile.
    lone = game_at(["5H", "KH", "8S", "7S", "9D"], QUIET, spit=("5C", "2D 4D JD"), phase="stalemate",
                   rest="p1_spit")
    assert choose("first", lone).action == Action("choose", target=0)  # its left
    assert choose("5", lone).action == Action("choose", target=1)  # the larger pile: the smaller stays small
    # Player 2, with no spit cards, has nothing to call: it waits.
    assert lone.legal_actions(2) == []
    # Having called, a player waits for the other.
    game = game_at(["5H", "KH", "8S", "7S", "9D"], QUIET, spit=("5C", "JD"), p1_spit="4C", rest="p2_spit",
                   phase="stalemate")
    game.press(1.0, 1, "spit")
    assert STRATEGIES["5"].choose(visible_view(game, 1), game.legal_actions(1), game.rules, RNG) is None
    assert choose("5", game, 2).action == Action("call")


def test_watchful_levels_pick_up_their_last_cards_when_they_have_a_moment() -> None:
    # V9: three cards left, all face up, none fits: levels 4 and 5 hide them; the others don't.
    game = game_at(["9D", "KH", "", "QS", ""], QUIET, spit=("5H", "7D"), options={"hidden_last": True})
    assert Action("pick_up") in game.legal_actions(1)
    for spec in ("4", "5"):
        assert choose(spec, game).action == Action("pick_up"), spec
    view, legal = visible_view(game, 1), game.legal_actions(1)
    for spec in ("first", "1", "2", "3"):
        assert STRATEGIES[spec].choose(view, legal, game.rules, RNG) is None, spec
    # With a card to play, they play it.
    busy = game_at(["6D", "KH", "", "QS", ""], QUIET, spit=("5H", "7D"), options={"hidden_last": True})
    assert choose("5", busy).action.kind == "play"


def test_in_reverse_spit_the_thinking_levels_hold_their_cards_back() -> None:
    mine = ["TH", "8C", "KH", "KS", "KD"]
    busy = ["4H", "2S", "3H", "3S", "KC"]  # the opponent has a 4 for the 5
    reverse = game_at(mine, busy, spit=("5C", "9D"), options={"goal": "all"})
    for spec in ("3", "4", "5"):
        plan = choose(spec, reverse)
        assert plan.action.kind == "play" and plan.wait == HOLD_BACK and plan.follow == (), spec
    for spec in ("first", "1", "2"):
        assert choose(spec, reverse).wait == 0, spec
    # The opponent stuck: nothing would happen. Classic: no reason to wait.
    stuck = game_at(mine, QUIET, spit=("5C", "9D"), options={"goal": "all"})
    assert choose("5", stuck).wait == 0
    classic = game_at(mine, busy, spit=("5C", "9D"))
    assert choose("5", classic).wait == 0


# ------------------------------------------------------------------ V18/V19: the table slap

MOD = {"variant": "mod-spit"}
MINE5 = ["5H", "KH", "8S", "7S", "9D"]
THEIRS5 = ["2H", "2S", "3H", "3S", "KC"]


def test_whether_to_slap_is_the_cores_judgement_and_the_levels_chance() -> None:
    right = visible_view(game_at(MINE5, THEIRS5, spit=("3C", "4D"), **MOD), 1)  # 3 x 4 = 12 = 5 mod 7
    wrong = visible_view(game_at(MINE5, THEIRS5, spit=("AC", "KD"), **MOD), 1)  # 13 = 6 mod 7
    assert right.slap_right and not wrong.slap_right
    rules = game_at(MINE5, THEIRS5, spit=("3C", "4D"), **MOD).rules
    for spec, strategy in STRATEGIES.items():
        # A draw below the level's chance notices the right slap (or slaps wrongly), above it doesn't.
        assert strategy.table_slap(right, rules, 0.0) == (strategy.notice_slap > 0), spec
        assert strategy.table_slap(right, rules, 0.999) == (strategy.notice_slap == 1.0), spec
        assert strategy.table_slap(wrong, rules, 0.0) == (strategy.wrong_slap > 0), spec
    assert STRATEGIES["5"].notice_slap == 1.0 and STRATEGIES["5"].wrong_slap == 0.0
    assert STRATEGIES["1"].notice_slap < 0.5 and STRATEGIES["1"].wrong_slap > 0
    notice = [STRATEGIES[level].notice_slap for level in ("1", "2", "3", "4", "5")]
    assert notice == sorted(notice) and len(set(notice)) == 5


def test_after_the_others_slap_a_thinking_player_follows_only_when_it_helps() -> None:
    def slapped(spit: tuple[str, str], options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        game = game_at(MINE5, THEIRS5, spit=spit, options=options, **MOD)
        assert game.press(1.0, 2, "slap")[0].kind == "table_slap"
        return visible_view(game, 1), game.rules

    right, rules = slapped(("3C", "4D"))
    wrong, _ = slapped(("AC", "KD"))
    assert right.table_slaps == (2,) == wrong.table_slaps
    for spec in ("3", "4", "5"):
        # Theirs right: slapping too only makes me the slower of two (I take both either way).
        # Theirs wrong: they take both unless I slap too and turn it into "two wrong, the later chooses".
        for roll in (0.0, 0.5, 0.99):
            assert not STRATEGIES[spec].table_slap(right, rules, roll), spec
            assert not STRATEGIES[spec].table_slap(wrong, rules, roll), spec
    # Reverse Spit (wanting cards): following a wrong slap gets me a pile; slapping first never helps.
    reverse_wrong, reverse = slapped(("AC", "KD"), {"goal": "all"})
    assert STRATEGIES["5"].table_slap(reverse_wrong, reverse, 0.5)
    fresh = visible_view(game_at(MINE5, THEIRS5, spit=("3C", "4D"), options={"goal": "all"}, **MOD), 1)
    assert not STRATEGIES["5"].table_slap(fresh, reverse, 0.0)
    # The casual player just joins in, now and then, right or wrong.
    assert STRATEGIES["1"].table_slap(right, rules, 0.1) and STRATEGIES["1"].table_slap(wrong, rules, 0.1)
    assert not STRATEGIES["1"].table_slap(wrong, rules, 0.9)


def test_after_two_wrong_slaps_the_later_slapper_chooses_the_smaller_pile() -> None:
    game = game_at(MINE5, THEIRS5, spit=("AC", "2C 3C 4C KD"), **MOD)
    game.press(1.0, 2, "slap")
    game.press(1.2, 1, "slap")
    game.advance(2.0)
    slap = game.house_rule(TableSlap)
    assert slap is not None and slap.chooser == 1
    legal = game.legal_actions(1)
    assert {a.kind for a in legal} == {"choose"}
    sizes = [len(pile) for pile in game.spit_piles]
    smaller = sizes.index(min(sizes))
    for spec in ("2", "3", "4", "5"):
        assert choose(spec, game).action == Action("choose", target=smaller), spec
    assert STRATEGIES["5"].choose(visible_view(game, 2), game.legal_actions(2), game.rules, RNG) is None


def test_a_runner_moves_a_card_into_a_space_to_lift_the_one_under_it() -> None:
    """V16: nothing fits the 4D and 6C and the QD lies under two face-up cards. The rules see the way
    on (the 8H into the space, then the 9C lifted off the QD) and call no stalemate; every level
    takes the first step, or the game would wait for ever (simulate called it stuck)."""
    game = game_at(["QD | 9C 8H", "", "KS", "2S", "JS"], ["8C", "TH", "KD", "9S", "JH"],
                   spit=("4D", "6C"), variant="running", p1_spit="AD", p2_spit="AH")
    assert game.settle(0.0) == [] and game.phase == "playing"
    assert uncover(visible_view(game, 1), game.rules) == [Action("move", 1, 2)]
    for spec in STRATEGIES:
        assert choose(spec, game).action == Action("move", 1, 2), spec


def test_a_card_carried_off_its_pile_is_planned_as_back_on_it() -> None:
    """V16: carrying the 8D off a lone 5D, nothing fits the 6D and 9C; the way on is the 8D into the
    space, then the 5D onto the 6D. The plan counts the carried card as back on its pile."""
    game = game_at(["", "| 5D 8D", "KH", "KS", "QD"], ["2H", "2S", "3H", "3S", "KC"],
                   spit=("6D", "9C"), variant="running", options={"carry": True})
    game.press(0.5, 1, "pile2")  # the 8D is carried off: the 5D shows
    view = visible_view(game, 1)
    assert view.carried == "8D" and view.mine[1] == "5D"
    assert uncover(view, game.rules) == [Action("move", 2, 1)]
