"""The computer in the races the slap decides: V14's ghost card and V13's "Spit card, please".

Each test starts from a seed scenario's position (seeds/scenarios/) and lets the bots press in
virtual time, through the rules' own `legal_actions`, as the simulator does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from appliance.bots import make_bot
from appliance.bots.simulate import play_game
from appliance.rules import Event, Game, game_from_state
from appliance.rules.events import GhostTaken, SpitCardLost, SpitCardTurned, SpitCardWon

SCENARIOS = Path(__file__).parent.parent / "seeds" / "scenarios"


def scenario_game(name: str) -> Game:
    setup = json.loads((SCENARIOS / f"{name}.jsonl").read_text().splitlines()[0])["setup"]
    game = game_from_state(setup["state"], seed=setup["seed"], options=setup.get("options"))
    assert isinstance(game, Game)
    return game


def bot_press(game: Game, bot_level: str, player: int, now: float, seed: int = 0) -> tuple[float, str] | None:
    return make_bot(bot_level, player, seed).next_press(game, now)


def ghost_race(seed: int) -> Game:
    """The ghost card's race: player 1 (beside whom it lies) has just played out."""
    game = scenario_game("ghost-card-the-other-hand-first")
    game.press(1.0, 1, "pile1")
    game.press(1.1, 1, "left")
    assert game.ghost_race is not None
    return game


@pytest.mark.parametrize("level", ["1", "3", "5"])
@pytest.mark.parametrize("player", [1, 2])
def test_in_the_ghost_race_every_bot_slaps_a_human_reaction_later(level: str, player: int) -> None:
    for seed in range(20):
        game = ghost_race(seed)
        plan = bot_press(game, level, player, 1.1, seed)
        assert plan is not None and plan[1] == "slap"
        assert 1.1 + 0.15 <= plan[0] <= 1.1 + 3.0  # never faster than a person, never asleep


def test_a_faster_level_takes_the_ghost_card_more_often() -> None:
    """Seat 1 played out (it wins by taking the card); seat 2 races it. Level 5 beats level 1."""
    taken = {"5": 0, "1": 0}
    for seed in range(40):
        for fast, slow in (("5", "1"), ("1", "5")):
            game = ghost_race(seed)
            bots = {1: make_bot(fast, 1, seed), 2: make_bot(slow, 2, seed)}
            plans = {p: bot.next_press(game, 1.1) for p, bot in bots.items()}
            first = min((plan[0], p) for p, plan in plans.items() if plan is not None)
            events = game.press(first[0], first[1], "slap")
            assert [type(e) for e in events if isinstance(e, GhostTaken)] == [GhostTaken]
            taken[fast if first[1] == 1 else slow] += 1
    assert taken["5"] >= 70, taken  # of 80 races


def duel_asked() -> Game:
    """Player 1 played out and is short at the new layout: they ask player 2 for a spit card."""
    game = scenario_game("spit-card-please-slapped-in-time")
    game.press(1.0, 1, "pile1")
    game.press(1.1, 1, "right")
    assert game.please is not None and game.please[2] is None
    return game


def run_duel(short_level: str, lender_level: str, seed: int) -> list[Event]:
    """Both seats bots, from the duel being asked until it is decided."""
    game = duel_asked()
    bots = {1: make_bot(short_level, 1, seed), 2: make_bot(lender_level, 2, seed)}
    now, happened = 1.1, []
    while game.please is not None:
        plans = [(plan, p) for p, bot in bots.items() if (plan := bot.next_press(game, now)) is not None]
        deadline = game.deadline()
        if not plans or (deadline is not None and min(plans)[0][0] > deadline):
            assert deadline is not None
            now = deadline + 1e-6
            happened += game.advance(now)
            continue
        (t, control), player = min(plans)
        now = max(now, t)
        bots[player].next_press(game, now)  # the press is due: the bot counts it as made
        happened += game.press(now, player, control)
    return happened


def test_the_lender_bot_turns_the_card_and_the_short_bot_slaps_it() -> None:
    for seed in range(10):
        happened = run_duel("5", "3", seed)
        turned = [e for e in happened if isinstance(e, SpitCardTurned)]
        assert len(turned) == 1 and turned[0].giver == 2
        assert turned[0].t < 1.1 + 10.0, "the lender bot turned it itself, not the 10 s rule"
        won = [e for e in happened if isinstance(e, SpitCardWon)]
        lost = [e for e in happened if isinstance(e, SpitCardLost)]
        assert len(won) + len(lost) == 1
        assert not any(e.early for e in lost), "a bot never slaps before the card is turned"


def test_a_fast_bot_catches_the_card_in_time_and_a_slow_one_often_not() -> None:
    caught = {level: sum(any(isinstance(e, SpitCardWon) for e in run_duel(level, "3", seed)) for seed in range(40))
              for level in ("1", "5")}
    assert caught["5"] >= 36, caught  # of 40: an expert's simple reaction is well inside 0.6 s
    assert 4 <= caught["1"] <= 36, caught  # a casual player catches some and misses some


@pytest.mark.parametrize("option", ["ghost_card", "spit_card_please"])
def test_whole_games_with_the_slap_races_finish_and_the_bots_slap(option: str) -> None:
    slaps = 0
    for seed in range(12):
        specs = ("1", "1") if seed % 2 else ("3", "3")

        def watch(t: float, player: int, control: str, events: list[Event]) -> None:
            nonlocal slaps
            slaps += control == "slap" and any(isinstance(e, GhostTaken | SpitCardWon) for e in events)

        result = play_game(specs, seed, watch=watch, options={option: True})
        assert result.winner is not None and not result.stuck
    assert slaps >= 6  # bots' slaps took ghost cards or caught spit cards
