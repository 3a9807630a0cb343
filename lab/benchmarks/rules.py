"""`spit-arcade bench rules`: how fast the rules core applies presses.

    spit-arcade bench rules --json
    spit-arcade bench rules --variant four-piles --options '{"alternate_colours": true}' --json

A long seeded stream of mashed presses (random_play.mash) is applied to back-to-back games of one
preset (`--variant`, default classic) with house rules (`--options`, a JSON object) on top; each
press is timed alone with perf_counter_ns, so the figures are the core's own cost, not the stream's.
Goal: at least 200,000 presses/s and a p99 of at most 20 us.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time
from collections.abc import Mapping
from typing import Any

from appliance.rules import new_game
from appliance.variant_args import variant_options

from ..random_play import mash, random_game

GOAL_PRESSES_PER_S = 200_000
GOAL_P99_US = 20.0


def measure(presses: int, seed: int, variant: str = "classic",
            options: Mapping[str, Any] | None = None) -> dict[str, float]:
    rng = random.Random(seed)
    game, _ = new_game(variant, seed, options)
    games = 1
    t = 0.0
    durations: list[int] = []
    clock = time.perf_counter_ns
    gc.collect()
    started = clock()
    for _ in range(presses):
        if game.phase == "over":
            games += 1
            game, _ = new_game(variant, seed + games, options)
            t = 0.0
        dt, player, control = mash(game, rng)
        t += dt
        before = clock()
        game.press(t, player, control)
        durations.append(clock() - before)
    wall = (clock() - started) / 1e9
    durations.sort()
    total_apply = sum(durations) / 1e9

    def pct(p: float) -> float:
        return durations[min(len(durations) - 1, int(p * len(durations)))] / 1000

    return {
        "presses": presses,
        "games": games,
        "presses_per_s": round(presses / total_apply),
        "p50_us": round(pct(0.50), 2),
        "p99_us": round(pct(0.99), 2),
        "max_us": round(durations[-1] / 1000, 2),
        "wall_s": round(wall, 3),
    }


def game_lengths(games: int, seed: int, variant: str = "classic",
                 options: Mapping[str, Any] | None = None) -> dict[str, float]:
    """Whole games of two players mashing at random: how many presses and how long they take."""
    presses: list[int] = []
    rounds: list[int] = []
    game_time: list[float] = []
    started = time.perf_counter()
    for n in range(games):
        count = round_count = 0
        last_t = 0.0
        for (t, _, _), events in random_game(seed + n, variant=variant, options=options):
            count += 1
            last_t = t
            round_count += sum(1 for e in events if e.kind == "round_over")
        presses.append(count)
        rounds.append(round_count)
        game_time.append(last_t)
    wall = time.perf_counter() - started
    presses.sort()
    rounds.sort()
    game_time.sort()

    def mid(values: list[int] | list[float]) -> float:
        return values[len(values) // 2]

    return {
        "random_games": games,
        "random_presses_min": presses[0],
        "random_presses_median": mid(presses),
        "random_presses_max": presses[-1],
        "random_rounds_median": mid(rounds),
        "random_rounds_max": rounds[-1],
        "random_game_time_median_s": round(mid(game_time), 1),
        "random_wall_ms_per_game": round(wall * 1000 / games, 2),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade bench rules", description=__doc__)
    parser.add_argument("--presses", type=int, default=200_000, help="presses to apply (default 200000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=0,
                        help="also play N whole games of random mashing and report their length")
    parser.add_argument("--variant", default="classic", help="the preset to play (default classic)")
    parser.add_argument("--options", metavar="JSON", help="house rules on top of the preset, a JSON object")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    options = variant_options(parser, args.variant, args.options)
    if args.presses < 1:
        parser.error("--presses must be at least 1")
    if args.games < 0:
        parser.error("--games must be 0 or more")
    result: dict[str, Any] = {"variant": args.variant, "options": options}
    result.update(measure(args.presses, args.seed, args.variant, options))
    if args.games:
        result.update(game_lengths(args.games, args.seed, args.variant, options))
    if args.json:
        print(json.dumps(result))
    else:
        rules = args.variant + (f" {json.dumps(options)}" if options else "")
        print(f"rules core ({rules}): {result['presses']} presses over {result['games']} games")
        print(f"  {result['presses_per_s']:,} presses/s   p50 {result['p50_us']} us   "
              f"p99 {result['p99_us']} us   max {result['max_us']} us")
        print(f"  goal: >= {GOAL_PRESSES_PER_S:,} presses/s and p99 <= {GOAL_P99_US:g} us")
        if args.games:
            print(f"random play: {args.games} games, presses min {result['random_presses_min']} median "
                  f"{result['random_presses_median']} max {result['random_presses_max']}; rounds median "
                  f"{result['random_rounds_median']} max {result['random_rounds_max']}; "
                  f"{result['random_wall_ms_per_game']} ms a game")
    return 0
