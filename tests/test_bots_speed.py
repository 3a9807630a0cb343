"""The computer plays Speed (bots/speed.py): only legal actions, whole games finished, the levels in
order, and never a look at the opponent's hand or any face-down card."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from appliance.bots import make_bot
from appliance.bots import speed as speed_bots
from appliance.bots.simulate import main, play_game, simulate
from appliance.bots.speed import AnyGameBot, SpeedBot, SpeedView, speed_view
from appliance.rules import Action, game_from_setup, new_game
from appliance.rules.events import Event, Reject
from appliance.rules.speed import SpeedGame
from appliance.scripting import parse_script, replay_main, run

LEVELS = ["first", "1", "2", "3", "4", "5"]
# A press already on its way when the table changed (opponent.COMMIT) may come too late: the only
# rejects an honest bot ever meets.
HONEST_REJECTS = {"too_late", "wrong_phase"}


@pytest.mark.parametrize("spec", LEVELS)
def test_every_level_finishes_games_with_only_legal_moves(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen: list[tuple[Action, bool]] = []
    schedule = SpeedBot._schedule

    def checked(self: SpeedBot, game: SpeedGame, view: SpeedView, now: float, action: Action, delay: float,
                kind: str) -> None:
        chosen.append((action, action in game.legal_actions(self.player)))
        schedule(self, game, view, now, action, delay, kind)

    monkeypatch.setattr(SpeedBot, "_schedule", checked)
    rejects: list[str] = []

    def watch(t: float, player: int, control: str, events: list[Event]) -> None:
        rejects.extend(e.reason for e in events if isinstance(e, Reject))

    for seed in range(3):
        result = play_game((spec, "3"), seed, watch=watch, variant="speed")
        assert result.winner in (1, 2) and not result.stuck
    assert chosen and all(legal for _, legal in chosen)
    assert {action.kind for action, _ in chosen} >= {"play", "call"}
    assert set(rejects) <= HONEST_REJECTS


@pytest.mark.parametrize(("stronger", "weaker"), [("2", "1"), ("3", "2"), ("4", "3"), ("5", "4")])
def test_each_level_beats_the_one_below(stronger: str, weaker: str) -> None:
    summary = simulate((stronger, weaker), 12, seed=5, swap=True, variant="speed")
    assert summary["unfinished"] == 0
    assert summary["wins"][0] > summary["wins"][1]


def test_strategy_alone_counts_with_the_same_hands() -> None:
    summary = simulate(("5@3", "first@3"), 30, seed=2, swap=True, variant="speed")
    assert summary["wins"][0] > 2 * summary["wins"][1]


def test_the_expert_beats_the_casual_player() -> None:
    summary = simulate(("5", "1"), 20, seed=9, swap=True, variant="speed")
    assert summary["wins"] == [20, 0]


# ---------------------------------------------------------------- hidden information


def mid_game(seed: int = 4) -> SpeedGame:
    """A dealt game, both called, a few plays in."""
    game, _ = new_game("speed", seed)
    assert isinstance(game, SpeedGame)
    game.press(0.1, 1, "spit")
    game.press(0.2, 2, "spit")
    t = 0.3
    for _ in range(4):
        for player in (1, 2):
            plays = [a for a in game.legal_actions(player) if a.kind == "play"]
            if plays:
                for control in game.presses_for(player, plays[0]):
                    t += 0.1
                    game.press(t, player, control)
    assert game.round == 1
    return game


def hidden_shuffled(game: SpeedGame, player: int) -> SpeedGame:
    """The same game as `player` sees it, with every card they can't see moved about: the opponent's
    hand, both stocks, the side stacks and the cards under the spit piles' tops."""
    state = game.state()
    other = state["players"][2 - player]
    mine = state["players"][player - 1]
    hidden: list[str] = [c for c in other["hand"] if c] + other["stock"] + mine["stock"]
    hidden += [c for stack in state["side_stacks"] for c in stack]
    hidden += [c for pile in state["spit_piles"] for c in pile[:-1]]
    hidden.reverse()
    hidden = hidden[3:] + hidden[:3]
    other["hand"] = [hidden.pop() if c else None for c in other["hand"]]
    other["stock"] = [hidden.pop() for _ in other["stock"]]
    mine["stock"] = [hidden.pop() for _ in mine["stock"]]
    state["side_stacks"] = [[hidden.pop() for _ in stack] for stack in state["side_stacks"]]
    state["spit_piles"] = [[hidden.pop() for _ in pile[:-1]] + pile[-1:] for pile in state["spit_piles"]]
    assert not hidden
    moved, _ = game_from_setup({"variant": "speed", "seed": 0, "state": state})
    assert isinstance(moved, SpeedGame)
    return moved


def plays_the_same_unseen(view_of: Callable[[SpeedGame, int], Any], spec: str = "5") -> bool:
    """Does the bot press the same whatever the cards it can't see are?"""
    tried = 0
    for seed in range(12):
        game = mid_game(seed)
        if game.phase != "playing":
            continue
        other = hidden_shuffled(game, 2)
        if other.phase != "playing":
            continue  # the cards moved about would leave nobody able to play: a position everybody sees
        tried += 1
        assert game.state()["players"][0]["hand"] != other.state()["players"][0]["hand"]
        presses = []
        for position in (game, other):
            bot = make_bot(spec, 2, seed=1)
            assert isinstance(bot, AnyGameBot)
            presses.append([bot.next_press(position, now) for now in (1.0, 1.5, 3.0)])
        if presses[0] != presses[1]:
            return False
    assert tried >= 5
    return True


@pytest.mark.parametrize("spec", LEVELS)
def test_the_bot_never_sees_the_opponents_hand(spec: str) -> None:
    game = mid_game(1)
    assert game.phase == "playing"
    other = hidden_shuffled(game, 2)
    assert speed_view(game, 2) == speed_view(other, 2)
    assert plays_the_same_unseen(speed_view, spec)


def test_a_peeking_bot_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planted bug: a view that lets the opponent's hand in. The check above must see it."""

    def peeking(game: SpeedGame, player: int) -> SpeedView:
        view = speed_view(game, player)
        theirs = tuple(c or "" for c in game.players[2 - player].hand)
        return view._replace(hand=tuple(view.hand) + theirs)

    assert plays_the_same_unseen(speed_view)
    monkeypatch.setattr(speed_bots, "speed_view", peeking)
    monkeypatch.setattr(speed_bots.SpeedStrategy, "choose", _choose_from_view_hand)
    assert not plays_the_same_unseen(peeking)


def _choose_from_view_hand(self: Any, view: SpeedView, legal: list[Action], *rest: Any) -> Any:
    # A planted strategy that lets what it saw of the other hand steer the first choice.
    if not legal:
        return None
    if sum(ord(c[0]) for c in view.hand[5:] if c) % 2:
        return None
    return speed_bots.SpeedPlan(legal[0])


def test_the_view_holds_counts_of_the_opponents_cards_not_the_cards() -> None:
    game = mid_game()
    view = speed_view(game, 1)
    them = game.players[1]
    assert view.their_hand == len(them.hand_cards()) and view.their_stock == len(them.stock)
    assert view.hand == tuple(c or "" for c in game.players[0].hand)
    shown = {c for field in view for c in (field if isinstance(field, tuple) else ()) if isinstance(c, str)}
    assert not shown & set(them.hand_cards() + them.stock)


# ---------------------------------------------------------------- make_bot, simulate, journals


def test_make_bot_plays_spit_and_speed() -> None:
    spit, _ = new_game("classic", 3)
    speed, _ = new_game("speed", 3)
    assert make_bot("4", 1, 0).next_press(spit, 0.0) is not None
    bot = make_bot("4", 1, 0)
    due = bot.next_press(speed, 0.0)
    assert due is not None and due[1] == "spit"  # a new deal: call
    assert 0.15 < due[0] < 3.0


def test_a_speed_journal_replays_a_whole_scored_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = play_game(("5", "2"), 21, journal_dir=tmp_path, variant="speed")
    (path,) = tmp_path.iterdir()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["setup"]["variant"] == "speed"
    script = parse_script(lines)
    events, game = run(script)
    assert game.winner == result.winner is not None and result.rounds > 1
    assert [e.kind for e in events].count("score") >= 2
    assert script.final_state == game.state()
    assert replay_main([str(path)]) == 0
    capsys.readouterr()


def test_simulate_plays_speed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--variant", "speed", "--games", "4", "--bots", "5,1", "--options", '{"target": 10}']) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["variant"] == "speed" and sum(summary["wins"]) == 4


# ---------------------------------------------------------------- the strategies, position by position


def view_of(hand: str, tops: tuple[str, str], their_hand: int = 5) -> SpeedView:
    cards = tuple("" if c == "-" else c for c in hand.split())
    return SpeedView(1, "playing", 1, cards, 0, False, 5, tops, (3, 3), (5, 5), their_hand, 5, False, (0, 0))


def plays_in(view: SpeedView) -> list[Action]:
    from appliance.rules import next_in_rank

    return [Action("play", slot, index) for slot, card in enumerate(view.hand, start=1) if card
            for index, top in enumerate(view.tops) if next_in_rank(card, top)]


def longest_run(hand: list[str], tops: list[str]) -> int:
    """Brute force: the most hand cards that can be played one after another (refills unknown)."""
    from appliance.rules import next_in_rank

    best = 0
    for slot, card in enumerate(hand):
        for index, top in enumerate(tops):
            if card and next_in_rank(card, top):
                rest, after = list(hand), list(tops)
                rest[slot], after[index] = "", card
                best = max(best, 1 + longest_run(rest, after))
    return best


def unseen_everything(view: SpeedView) -> tuple[dict[int, int], int]:
    from appliance.rules.cards import RANK_VALUE

    counts = dict.fromkeys(range(1, 14), 4)
    for card in (*view.hand, *view.tops):
        if card:
            counts[RANK_VALUE[card[0]]] -= 1
    return counts, sum(counts.values())


def test_runs_keeps_the_longest_run_going() -> None:
    import random

    from appliance.bots.speed import SPEED_STRATEGIES

    rng = random.Random(5)
    cards = [c for c in speed_bots._DECK]
    tried = 0
    for _ in range(300):
        picked = rng.sample(cards, 7)
        view = view_of(" ".join(picked[:5]), (picked[5], picked[6]))
        legal = plays_in(view)
        if len(legal) < 2:
            continue
        tried += 1
        plan = SPEED_STRATEGIES["runs"].choose(view, legal, *unseen_everything(view), rng)
        assert plan is not None and plan.action in legal
        hand, tops = list(view.hand), list(view.tops)
        card = hand[plan.action.pile - 1]
        hand[plan.action.pile - 1], tops[plan.action.target] = "", card
        chosen = 1 + min(2, longest_run(hand, tops))  # runs looks two cards past this one
        assert chosen == min(3, longest_run(list(view.hand), list(view.tops))), (view.hand, view.tops, plan)
        assert len(plan.follow) + 1 == chosen and all(a.kind == "play" for a in plan.follow)
    assert tried > 30


def test_watchful_does_not_hand_the_opponent_a_card() -> None:
    from appliance.bots.speed import SPEED_STRATEGIES

    view = view_of("9C 5H KD KS KH", ("4C", "8D"))
    legal = plays_in(view)
    assert sorted((a.pile, a.target) for a in legal) == [(1, 1), (2, 0)]
    counts, total = unseen_everything(view)
    sixes_seen = {**counts, 6: 0}  # every 6 has gone by: a 5 on top gives them little
    tens_seen = {**counts, 10: 0}  # every 10 has gone by: a 9 on top gives them little
    rng = speed_bots.random.Random(0)

    def choice(name: str, unseen: dict[int, int], left: int) -> Action | None:
        plan = SPEED_STRATEGIES[name].choose(view, legal, unseen, left, rng)
        return None if plan is None else plan.action

    assert choice("steady", sixes_seen, total) == Action("play", 1, 1)
    for name in ("watchful", "expert"):
        assert choice(name, sixes_seen, total - 3) == Action("play", 2, 0)
        assert choice(name, tens_seen, total - 3) == Action("play", 1, 1)


def test_the_bot_remembers_the_tops_it_saw_this_deal_and_forgets_them_at_the_next() -> None:
    game = mid_game(1)
    bot = make_bot("5", 1, 0)
    assert isinstance(bot, AnyGameBot)
    bot.next_press(game, 5.0)
    speed = bot.speed_bot()
    view = speed_view(game, 1)
    counts, total = speed.unseen(view)
    known = speed._seen | {c for c in view.hand if c}
    assert set(view.tops) <= speed._seen
    assert total == 52 - len(known) and sum(counts.values()) == total
    speed._round = 0  # as if a new deal had come
    bot.next_press(game, 5.1)
    assert speed._seen == set(view.tops)
