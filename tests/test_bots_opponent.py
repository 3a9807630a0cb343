"""The computer opponent: steady plans, human reaction times, re-planning, only honest rejects."""

import random
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from positions import game_at

from appliance.bots import make_bot
from appliance.bots.opponent import COMMIT, Bot, next_control
from appliance.bots.simulate import play_game
from appliance.bots.view import View, visible_view
from appliance.rules import PRESETS, Action, Event, Game, new_game
from appliance.rules.events import Play, Reject
from appliance.rules.table_slap import TableSlap
from appliance.scripting import replay_main

# What a press already on its way may be told when the table changed under it (the phase moved on,
# the other got there first). Never `not_adjacent` or `wrong_colour`: a bot plays only legal cards.
# (`table_slapped`: a card on its way as the other slapped the table, V18/V19.)
HONEST = {"too_late", "wrong_phase", "wrong_pile", "call_first", "not_your_choice", "slap_smaller", "no_spit_cards",
          "table_slapped"}
SPIT_PRESETS = [name for name, preset in PRESETS.items() if preset.game == "spit"]


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
    assert events[0].kind == "reject" and getattr(events[0], "reason", None) == "too_late"


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


def test_cards_an_opponent_picked_up_make_no_difference_to_the_plan() -> None:
    """V9: the opponent's picked-up cards are face down to the bot, whichever they are."""
    def table(theirs: list[str]) -> Game:
        game = game_at(["4S", "2C 9D |", "KS", "KD", "9C"], theirs, spit=("5C", "2D"),
                       p1_spit="AC 3C", rest="p2_spit", options={"hidden_last": True})
        game.players[1].hidden = True
        return game

    a, b = table(["6H", "", "QS", "3D", ""]), table(["QH", "", "9S", "JD", ""])  # a 6 for the 5, or nothing
    for spec in ("3", "4", "5"):
        one, two = make_bot(spec, 1, seed=9), make_bot(spec, 1, seed=9)
        assert one.next_press(a, 0.0) == two.next_press(b, 0.0), spec


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
                    if event.kind == "reject":
                        rejects.append((t - last_change[3 - player], player, event))
                if any(event.kind != "reject" for event in events):
                    last_change[player] = t

            result = play_game(specs, seed, watch=watch)
            assert result.winner is not None and not result.stuck
            late = [(dt, player, event) for dt, player, event in rejects if dt > COMMIT + 1e-6]
            assert late == [], (specs, seed)
            assert all(getattr(event, "reason", None) in HONEST for _, _, event in rejects)


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
    game, _ = new_game("classic", seed=21)
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


def random_options(rng: random.Random) -> dict[str, Any]:
    """House rules at random, every option of the Spit family."""
    options: dict[str, Any] = {}
    for name in ("alternate_colours", "same_rank_stacking", "two_hands", "hidden_last"):
        if rng.random() < 0.4:
            options[name] = True
    if rng.random() < 0.5:
        options["choose"] = rng.choice(["slap", "shapp", "first_call", "slap_spit"])
    if rng.random() < 0.3:
        options["goal"] = rng.choice(["fewest", "all"])
    return options


class Checked:
    """Watches every game a bot plays: each action it schedules is one `legal_actions` offers at that
    moment, its remembered legal actions are never stale, and it is told every reject."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.scheduled: Counter[str] = Counter()
        schedule, legal_actions = Bot._schedule, Bot._legal_actions

        def checked_schedule(bot: Bot, game: Game, view: View, now: float, action: Action, *rest: Any) -> None:
            assert view == visible_view(game, bot.player, bot.strategy.watches_others)
            assert action in game.legal_actions(bot.player), (action, game.legal_actions(bot.player))
            self.scheduled[action.kind] += 1
            schedule(bot, game, view, now, action, *rest)

        def checked_legal(bot: Bot, game: Game, view: View) -> list[Action]:
            legal = legal_actions(bot, game, view)
            assert legal == game.legal_actions(bot.player)
            return legal

        monkeypatch.setattr(Bot, "_schedule", checked_schedule)
        monkeypatch.setattr(Bot, "_legal_actions", checked_legal)


class Rejects:
    """A game's watcher: every reject, with how long after the last change by anybody else (another
    player, or time alone: a table slap's window closing, player 0) it came."""

    def __init__(self) -> None:
        self.found: list[tuple[float, Reject]] = []
        self.last_change = {0: -10.0, 1: -10.0, 2: -10.0}
        self.plays: list[Play] = []

    def __call__(self, t: float, player: int, control: str, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, Reject):
                self.found.append((t - max(self.last_change[3 - player], self.last_change[0]), event))
            elif isinstance(event, Play):
                self.plays.append(event)
        if any(event.kind != "reject" for event in events):
            self.last_change[player] = t

    def dishonest(self) -> list[tuple[float, Reject]]:
        return [(dt, event) for dt, event in self.found if event.reason not in HONEST or dt > COMMIT + 1e-6]


@pytest.mark.parametrize("variant", SPIT_PRESETS)
def test_every_action_a_bot_takes_is_legal_under_every_house_rule(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = Checked(monkeypatch)
    rng = random.Random(f"house rules {variant}")
    for seed in range(4):
        options = random_options(rng)
        if seed == 0:
            options["alternate_colours"] = True
        specs = (rng.choice(["5", "4", "3"]), rng.choice(["2", "1", "first"]))
        rejects = Rejects()
        result = play_game(specs, seed, watch=rejects, variant=variant, options=options)
        assert result.winner in (1, 2) and not result.stuck, (options, specs, seed)
        assert rejects.dishonest() == [], (options, specs, seed)
    assert checked.scheduled["play"] > 100


def test_with_alternating_colours_not_one_card_goes_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots that worked out for themselves what fits would play red on red here; these never do."""
    Checked(monkeypatch)
    for seed in range(6):
        for specs in (("5", "first"), ("1", "3")):
            rejects = Rejects()
            result = play_game(specs, seed, watch=rejects, variant="classic", options={"alternate_colours": True})
            assert result.winner in (1, 2)
            assert len(rejects.plays) > 40
            assert all((play.card[1] in "HD") != (play.onto[1] in "HD") for play in rejects.plays)
            assert not [event for _, event in rejects.found if event.reason in ("not_adjacent", "wrong_colour")]
            assert rejects.dishonest() == []


def test_the_next_press_of_an_action() -> None:
    game = game_at(["5H", "KH", "QS", "JS", "9D"], ["2H", "2S", "3H", "3S", "KC"], spit=("4C", "JD"))
    play = Action("play", 1, 0)
    assert next_control(game, visible_view(game, 1), play) == "pile1"
    game.press(0.2, 1, "pile1")
    assert next_control(game, visible_view(game, 1), play) == "left"
    assert next_control(game, visible_view(game, 2), Action("play", 2, 1)) == "pile2"


def test_a_card_held_from_a_move_given_up_is_put_back_before_another_is_picked_up() -> None:
    # V7: holding the 7S, a press of pile 2 (another 7) would stack it there, not pick the 7H up.
    game = game_at(["7S", "7H", "KH", "KS", "6D"], ["2H", "2S", "3H", "3S", "KC"], spit=("8C", "JD"),
                   options={"same_rank_stacking": True})
    game.press(0.2, 1, "pile1")
    view = visible_view(game, 1)
    assert game.presses_for(1, Action("play", 2, 0)) == ["pile2", "left"]  # which would stack
    assert next_control(game, view, Action("play", 2, 0)) == "pile1"  # so put the 7S back first
    assert next_control(game, view, Action("play", 1, 0)) == "left"
    assert next_control(game, view, Action("flip", 3)) == "pile3"  # turning a card needs no free hand


def test_with_one_hand_and_no_stacking_another_pile_is_taken_up_in_place_of_the_card_held() -> None:
    # Classic: a press of another pile takes that one in hand; nothing to put back first (which,
    # right after the held card did not go, would only pick it up again).
    game = game_at(["7S", "7H", "KH", "KS", "6D"], ["2H", "2S", "3H", "3S", "KC"], spit=("8C", "JD"))
    game.press(0.2, 1, "pile1")
    game.press(0.3, 1, "right")  # the 7S does not go on the JD: still in hand
    assert next_control(game, visible_view(game, 1), Action("play", 2, 0)) == "pile2"
    assert [e.kind for e in game.press(0.4, 1, "pile2")] == ["select"] and game.players[0].selected == 2


def play_round_the_table(variant: str, seed: int, specs: list[str], options: dict[str, Any]) -> Game:
    """Bots in every seat, the earliest press first (ties: the lower seat), until the game is over."""
    found, _ = new_game(variant, seed, options)
    assert isinstance(found, Game)
    game = found
    bots = [make_bot(spec, seat, seed) for seat, spec in enumerate(specs, start=1)]
    now = 0.0
    for _ in range(60_000):
        if game.phase == "over":
            break
        due = sorted((move[0], bot.player, move[1]) for bot in bots if (move := bot.next_press(game, now)))
        assert due, "nobody has anything to do"
        t, player, control = due[0]
        now = max(now, t)
        made = bots[player - 1].next_press(game, now)
        assert made == (t, control)
        game.press(now, player, control)
    return game


@pytest.mark.parametrize("seats", [3, 4])
def test_bots_play_round_a_bigger_table(seats: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """V17: three or four seats; whoever goes out takes a pile (the bot chooses it) and sits out."""
    checked = Checked(monkeypatch)
    for seed in range(2):
        game = play_round_the_table("classic", seed, ["5", "3", "1", "2"][:seats],
                                    {"seats": seats, "alternate_colours": seed == 1})
        assert game.phase == "over" and game.winner in range(1, seats + 1)
    assert checked.scheduled["choose"] > 0 and checked.scheduled["play"] > 100


# ------------------------------------------------------------------ V18/V19: the table slap


def mod_spit(spit: tuple[str, str]) -> Game:
    return game_at(["5H", "KH", "8S", "7S", "9D"], ["2H", "2S", "3H", "3S", "QC"], spit=spit, variant="mod-spit")


def test_the_expert_slaps_a_right_pair_a_human_reaction_after_it_showed() -> None:
    game = mod_spit(("3C", "4D"))  # 3 x 4 = 12 = 5 mod 7, a prime; and the 5H fits the 4D
    bot = make_bot("5", 1, seed=3, keep_log=True)
    plan = bot.next_press(game, 2.0)
    assert plan is not None and plan[1] == "slap"  # before the play it could make
    assert plan[0] - 2.0 >= bot.timing.floor
    assert bot.next_press(game, plan[0]) == plan
    events = game.press(plan[0], 1, "slap")
    assert events[0].kind == "table_slap" and getattr(events[0], "right", None) is True
    assert bot.log is not None and bot.log[-1].kind == "decision"
    # A pair that does not meet the rule: the expert plays on.
    quiet = mod_spit(("AC", "4D"))
    plan = make_bot("5", 1, seed=3).next_press(quiet, 2.0)
    assert plan is not None and plan[1] == "pile1"


def test_whether_a_slap_is_right_is_the_cores_judgement(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot asks the rules core (`TableSlap.right_now`), never works the rule out for itself."""
    monkeypatch.setattr(TableSlap, "right_now", lambda self, game: False)
    plan = make_bot("5", 1, seed=3).next_press(mod_spit(("3C", "4D")), 2.0)
    assert plan is not None and plan[1] != "slap"
    monkeypatch.setattr(TableSlap, "right_now", lambda self, game: True)
    plan = make_bot("5", 1, seed=3).next_press(mod_spit(("AC", "4D")), 2.0)
    assert plan is not None and plan[1] == "slap"


def test_a_slap_planned_on_tops_that_change_in_time_goes_on_while_right_and_is_called_off_when_not() -> None:
    game = mod_spit(("3C", "4D"))
    bot = make_bot("5", 1, seed=3)
    plan = bot.next_press(game, 2.0)
    assert plan is not None and plan[1] == "slap"
    early = plan[0] - COMMIT - 0.02
    game.press(early - 0.05, 2, "pile4")
    assert game.press(early, 2, "left")[0].kind == "play"  # the 3S onto the 4D: 3 x 3 = 9 = 2 mod 7, a prime
    assert bot.next_press(game, early) == plan  # the slap is still right: the hand goes on
    game2 = mod_spit(("3C", "4D"))
    bot2 = make_bot("5", 1, seed=3)
    plan2 = bot2.next_press(game2, 2.0)
    assert plan2 is not None
    early2 = plan2[0] - COMMIT - 0.02
    game2.press(early2 - 0.05, 2, "pile1")
    assert game2.press(early2, 2, "right")[0].kind == "play"  # the 2H onto the 3C: 2 x 4 = 8 = 1 mod 7
    calm = bot2.next_press(game2, early2)
    assert calm is not None and calm[1] != "slap"


def slap_rates(spec: str, seeds: int = 60) -> tuple[float, float]:
    """How often a bot slaps a right pair it is shown, and a wrong one."""
    right = sum(1 for seed in range(seeds)
                if (plan := make_bot(spec, 1, seed).next_press(mod_spit(("3C", "4D")), 1.0)) and plan[1] == "slap")
    wrong = sum(1 for seed in range(seeds)
                if (plan := make_bot(spec, 1, seed).next_press(mod_spit(("AC", "4D")), 1.0)) and plan[1] == "slap")
    return right / seeds, wrong / seeds


def test_the_casual_player_rarely_notices_and_sometimes_slaps_wrongly() -> None:
    right, wrong = slap_rates("1", 200)
    assert 0.1 < right < 0.45 and 0.0 < wrong < 0.15
    assert slap_rates("5") == (1.0, 0.0)
    assert slap_rates("first") == (0.0, 0.0)  # the baseline knows nothing of table slaps


def test_mod_spit_games_slap_and_choose_and_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    checked = Checked(monkeypatch)
    judged: Counter[str] = Counter()
    for seed in range(6):
        rejects = Rejects()

        def watch(t: float, player: int, control: str, events: list[Event], rejects: Rejects = rejects) -> None:
            rejects(t, player, control, events)
            judged.update(getattr(event, "reason", "") for event in events if event.kind == "table_slap_judged")

        variant = "mod-spit" if seed % 2 else "mod-spit-advanced"
        result = play_game(("5", "1") if seed % 3 else ("1", "2"), seed, watch=watch, variant=variant,
                           journal_dir=tmp_path)
        assert result.winner in (1, 2) and not result.stuck
        assert rejects.dishonest() == [], seed
    assert checked.scheduled["slap_table"] > 20 and judged["slower"] > 10 and judged["wrong"] > 0
    for path in tmp_path.iterdir():  # time lines where a window closed with nobody pressing
        assert replay_main([str(path)]) == 0
    capsys.readouterr()


# ------------------------------------------------------------------ V16: Running Spit


def running(runners: list[int] | None = None) -> Game:
    options: dict[str, Any] = {"carry": True}
    if runners is not None:
        options["runners"] = runners
    # Player 1 holds a 6 and a 4 for the 5, then a 3 for the 4; player 2 nothing that fits.
    return game_at(["6S", "4H", "3C", "KS", "KD"], ["9H", "9S", "QD", "QS", "2C"], spit=("5C", "JD"),
                   variant="running", options=options)


@pytest.mark.parametrize(("runners", "back"), [([1, 1], True), ([2, 1], False)])
def test_a_runner_sprints_to_the_pads_and_back(runners: list[int], back: bool) -> None:
    game = running(runners)
    bot = make_bot("5", 1, seed=4, keep_log=True)
    sprint = bot.timing.sprint
    assert 1.5 <= sprint <= 3.0 and make_bot("1", 1, 0).timing.sprint > sprint
    t0, pick = bot.next_press(game, 0.0) or (0.0, "")
    assert pick.startswith("pile") and t0 < sprint  # the stock is at hand
    assert bot.next_press(game, t0) == (t0, pick)
    assert game.press(t0, 1, pick)[0].kind == "select" and game.players[0].carried is not None
    t1, side = bot.next_press(game, t0) or (0.0, "")
    assert side == "left" and t1 - t0 >= sprint + bot.timing.floor  # carried 3 m to the pads
    assert bot.next_press(game, t1) == (t1, side)
    assert game.press(t1, 1, side)[0].kind == "play"
    t2, nxt = bot.next_press(game, t1) or (0.0, "")
    assert nxt.startswith("pile")
    # One runner runs back for the next card; with two, the other is waiting at the stock.
    assert (t2 - t1 >= sprint + bot.timing.floor) == back
    assert bot.log is not None and all(r.t - r.seen >= bot.timing.floor for r in bot.log)
