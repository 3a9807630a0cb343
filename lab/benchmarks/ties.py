"""`spit-arcade bench ties`: a person mashing keys against the computer, through the live match.

    spit-arcade bench ties                          # 10 games against level 5, 25 presses a second
    spit-arcade bench ties --games 40 --level 3 --rate 25 --json

A scripted person (seat 1) presses about `--rate` times a second (exponential gaps), mostly the
next press of something the rules offer (`legal_actions`), now and then any control at all; the
computer (seat 2, `--level`) plays as it does on the screen. Everything goes through `Match` as the
screen drives it, in virtual time: frames 60 times a second, a key press waking a frame of its own
a moment after its edge (the press is handed to the match, then `tick` polls the computer), so the
computer's presses that fell due between two frames are polled after the keys that frame delivered.

Counted: the computer's presses applied at exactly the time of one of the person's presses though
the computer made it at another time (`false_ties`: goal 0, a race the computer was first to must
never end "Player 1 first by 0 ms"), true ties (both made at the same time), the computer's presses
applied at another time than it made them (`moved`), and the races each side won.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from appliance.bots import make_bot
from appliance.match import Match
from appliance.rules import CONTROLS

from .figures import print_figures
from .press_log import PressLog

SECOND = 1_000_000_000
FRAME_NS = SECOND // 60


def mash_game(seed: int, level: str = "5", rate: float = 25.0, seconds: float = 300.0,
              wake_ms: float = 2.0) -> dict[str, Any]:
    """One game (or its first `seconds`): the scripted person in seat 1 against the computer."""
    rng = random.Random(f"spit-arcade bench ties {seed}")
    bot = make_bot(level, 2, seed, keep_log=True)
    log = PressLog()
    match = Match(seed, 0, log, {2: bot})
    edge = 0
    next_frame = FRAME_NS
    end = int(seconds * SECOND)
    human: list[float] = []
    while not match.finished and edge < end:
        edge += max(1, int(rng.expovariate(rate) * SECOND))
        while next_frame <= edge and not match.finished:  # the frames before the key press
            match.tick(next_frame)
            next_frame += FRAME_NS
        if match.finished:
            break
        game = match.game
        actions = game.legal_actions(1)
        if actions and rng.random() < 0.85:
            control = game.presses_for(1, rng.choice(actions))[0]
        else:
            control = rng.choice((*CONTROLS[:6], "left", "right", "spit"))
        woken = edge + int(rng.uniform(0.0, wake_ms) * 1e6)  # the frame the key press wakes
        match.press(edge, 1, control)
        human.append(round(edge / SECOND, 6))
        match.tick(woken)
    made = [reaction.t for reaction in bot.log or []]
    applied = [round(t, 6) for t, player, _, source in log.presses if player == 2 and source == "bot"]
    human_times = set(human)
    false_ties = sum(1 for t, m in zip(applied, made, strict=True) if t in human_times and m != t)
    true_ties = sum(1 for m in made if m in human_times)
    moved = sum(1 for t, m in zip(applied, made, strict=True) if t != m)
    won = {1: 0, 2: 0}
    for event in match.events:
        if event.kind == "reject" and getattr(event, "reason", "") == "too_late":
            winner = getattr(event, "winner", None)
            if winner in won:
                won[winner] += 1
    return {
        "computer_presses": len(applied),
        "person_presses": len(human),
        "false_ties": false_ties,
        "true_ties": true_ties,
        "moved": moved,
        "late_presses": match.late_presses,
        "rollbacks": match.rollbacks,
        "races_won_by_person": won[1],
        "races_won_by_computer": won[2],
        "seconds": round(match.game.now, 3),
        "finished": match.finished,
    }


def bench_ties(games: int, level: str, rate: float, seed: int, seconds: float = 300.0) -> dict[str, Any]:
    totals: dict[str, Any] = {"games": games, "level": level, "rate": rate, "seed": seed}
    for number in range(games):
        for key, value in mash_game(seed + number, level, rate, seconds).items():
            if isinstance(value, bool):
                totals[key] = totals.get(key, 0) + int(value)
            elif isinstance(value, int | float):
                totals[key] = round(totals.get(key, 0) + value, 3)
    return totals


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade bench ties", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--level", default="5", help="the computer's level, 1-5")
    parser.add_argument("--rate", type=float, default=25.0, help="the person's presses a second")
    parser.add_argument("--seconds", type=float, default=300.0, help="game time at most, per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = bench_ties(args.games, args.level, args.rate, args.seed, args.seconds)
    print_figures(result, args.json)
    return 0
