"""The computer opponent: steady plans, human reaction times, re-planning, only honest rejects."""

import statistics

import pytest
from positions import game_at

from appliance.bots import make_bot
from appliance.bots.opponent import COMMIT, Bot
from appliance.bots.simulate import play_game
from appliance.rules import Event, Game


def racing_game() -> Game:
    # Player 2 holds a 6 for the 5 on spit pile 0 (player 2's right); player 1 holds a 4 for it.
    # Player 2 also has a face-down card to turn.
    return game_at(["4S", "KH", "KS", "KD", "9C"], ["6H", "QH", "QS", "QD", "2C 9D |"], spit=("5C", "2D"))


def test_asking_again_without_a_change_gives_the_same_plan() -> None:
    game = racing_game()
    bot = make_bot("5", 2, seed=1)
    plan = bot.next_press(game, 0.0)
    assert plan is not None and plan[1] == "pile1"
    assert plan[0] >= bot.timing.floor
    for now in (0.0, 0.01, plan[0] / 2, plan[0] - 1e-6):
        assert bot.next_press(game, now) == plan


def test_a_due_press_is_made_once_and_the_next_one_follows() -> None:
    game = racing_game()
    bot = make_bot("5", 2, seed=1, keep_log=True)
    plan = bot.next_press(game, 0.0)
    assert plan is not None
    t, control = plan
    assert bot.next_press(game, t) == (t, control)
    game.press(t, 2, control)
    plan = bot.next_press(game, t)
    assert plan is not None
    t2, control2 = plan
    assert control2 == "right"  # the 6 onto the 5: spit pile 0 is player 2's right
    assert t2 - t >= bot.timing.floor
    assert bot.log is not None and [r.kind for r in bot.log] == ["decision"]
    assert bot.next_press(game, t2) == (t2, control2)
    assert [r.kind for r in bot.log] == ["decision", "continuation"]  # the hand only had to move


def held(seed: int) -> tuple[Game, Bot, tuple[float, str]]:
    game = racing_game()
    game.press(0.0, 2, "pile1")
    bot = make_bot("5", 2, seed=seed)
    plan = bot.next_press(game, 0.0)
    assert plan is not None and plan[1] == "right"
    return game, bot, plan


def test_a_player_who_sees_the_pile_change_in_time_stops() -> None:
    game, bot, (t, _) = held(2)
    early = t - COMMIT - 0.02
    game.press(early - 0.01, 1, "pile1")
    game.press(early, 1, "left")  # the 4 onto the 5: the 6 no longer fits
    again = bot.next_press(game, early)
    assert again is not None and again[1] == "pile5"  # the 6 is no good now: turn the card instead
    assert again[0] >= early + bot.timing.floor


def test_a_hand_already_moving_cannot_stop_and_loses_the_race() -> None:
    game, bot, (t, control) = held(2)
    late = t - COMMIT / 2
    game.press(late - 0.01, 1, "pile1")
    game.press(late, 1, "left")
    assert bot.next_press(game, late) == (t, control)
    events = game.press(t, 2, control)
    assert events[0]["event"] == "reject" and events[0]["reason"] == "too_late"


def test_hidden_cards_make_no_difference_to_the_plan() -> None:
    a = game_at(
        ["4S", "2C 9D |", "KS", "KD", "9C"],
        ["6H", "QH", "QS", "QD", "9S"],
        spit=("5C", "2D"),
        p1_spit="AC 3C",
        rest="p2_spit",
    )
    b = game_at(
        ["4S", "2H 7D |", "KS", "KD", "9C"],
        ["6H", "QH", "QS", "QD", "9S"],
        spit=("5C", "2D"),
        p1_spit="3C AC",
        rest="p2_spit",
    )
    for player in (1, 2):
        one, two = make_bot("5", player, seed=9), make_bot("5", player, seed=9)
        assert one.next_press(a, 0.0) == two.next_press(b, 0.0)


def test_reaction_times_respect_each_level_floor_over_whole_games() -> None:
    for specs in (("1", "2"), ("3", "4"), ("5", "first")):
        for seed in range(3):
            bots = (make_bot(specs[0], 1, seed, keep_log=True), make_bot(specs[1], 2, seed, keep_log=True))
            result = play_game(specs, seed, bots=bots)
            assert result.winner is not None
            for bot in bots:
                assert bot.log
                assert all(r.t - r.seen >= bot.timing.floor - 1e-6 for r in bot.log), bot
                decisions = [r.t - r.seen for r in bot.log if r.kind == "decision"]
                moves = [r.t - r.seen for r in bot.log if r.kind == "continuation"]
                assert len(decisions) > 20 and len(moves) > 20
                # Drawn from the level's distribution: the hand's moves average what the model
                # says; decisions take at least a single-choice decision on average (Hick's law
                # adds time for more choices).
                assert statistics.fmean(moves) == pytest.approx(bot.timing.mean_continuation(), rel=0.2)
                assert statistics.fmean(decisions) > 0.9 * bot.timing.mean_decision(1)


def test_the_bot_only_loses_honest_races() -> None:
    """Every press the rules reject comes within COMMIT of a change the other player made: a hand
    already on its way. Nothing a bot presses is impossible in the position it saw."""
    for specs in (("5", "4"), ("3", "2"), ("1", "first"), ("5@3", "first@3")):
        for seed in range(25):
            last_change = {1: -10.0, 2: -10.0}
            rejects: list[tuple[float, int, Event]] = []

            def watch(
                t: float,
                player: int,
                control: str,
                events: list[Event],
                last_change: dict[int, float] = last_change,
                rejects: list[tuple[float, int, Event]] = rejects,
            ) -> None:
                for event in events:
                    if event["event"] == "reject":
                        rejects.append((t - last_change[3 - player], player, event))
                if any(event["event"] != "reject" for event in events):
                    last_change[player] = t

            result = play_game(specs, seed, watch=watch)
            assert result.winner is not None and not result.stuck
            late = [(dt, player, event) for dt, player, event in rejects if dt > COMMIT + 1e-6]
            assert late == [], (specs, seed)
            assert all(event["reason"] in ("too_late", "wrong_phase", "wrong_pile") for _, _, event in rejects)


def test_taking_a_due_press_without_looking_again_is_the_same_as_asking() -> None:
    game = racing_game()
    asked, taken = make_bot("4", 2, seed=5), make_bot("4", 2, seed=5)
    plan = asked.next_press(game, 0.0)
    assert plan is not None and taken.next_press(game, 0.0) == plan
    assert taken.take_due(plan[0] / 2) == plan  # not due yet: still the plan, still pending
    assert asked.next_press(game, plan[0]) == taken.take_due(plan[0]) == plan
    game.press(plan[0], 2, plan[1])
    assert asked.next_press(game, plan[0]) == taken.next_press(game, plan[0])


def test_a_new_game_starts_the_bot_afresh() -> None:
    bot = make_bot("3", 1, seed=2)
    first = racing_game()
    plan = bot.next_press(first, 5.0)
    assert plan is not None and plan[0] > 5.0
    again = bot.next_press(racing_game(), 0.0)  # time went back: a new game
    assert again is not None and again[0] < 5.0


def test_a_bot_asked_every_frame_plays_a_whole_game() -> None:
    """The live game asks every frame (60 a second) and applies what is due, as the display does;
    the bots see each change up to a frame late, and the game still runs to its end."""
    game, _ = Game.new(seed=21)
    bots = (make_bot("4", 1, 21, keep_log=True), make_bot("2", 2, 21, keep_log=True))
    frame = 1 / 60
    now = 0.0
    for _ in range(200_000):
        if game.phase == "over":
            break
        now += frame
        for _ in range(8):  # what is due this frame, in time order
            due = sorted((move[0], bot.player, move[1]) for bot in bots if (move := bot.next_press(game, now)))
            due = [d for d in due if d[0] <= now]
            if not due:
                break
            for t, player, control in due:
                game.press(max(t, game.now), player, control)
    assert game.phase == "over" and game.winner in (1, 2)
    for bot in bots:
        assert bot.log and all(r.t - r.seen >= bot.timing.floor - 1e-6 for r in bot.log)
