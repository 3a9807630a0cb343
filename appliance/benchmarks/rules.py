"""`spit-arcade bench rules`: how fast the rules core applies presses.

A long seeded stream of mashed presses (random_play.mash) is applied to back-to-back games; each
press is timed alone with perf_counter_ns, so the figures are the core's own cost, not the stream's.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time

from ..random_play import mash
from ..rules import Game


def measure(presses: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    game, _ = Game.new(seed)
    games = 1
    t = 0.0
    durations: list[int] = []
    clock = time.perf_counter_ns
    gc.collect()
    started = clock()
    for _ in range(presses):
        if game.phase == "over":
            games += 1
            game, _ = Game.new(seed + games)
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


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade bench rules", description=__doc__)
    parser.add_argument("--presses", type=int, default=200_000, help="presses to apply (default 200000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.presses < 1:
        parser.error("--presses must be at least 1")
    result = measure(args.presses, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"rules core: {result['presses']} presses over {result['games']} games")
        print(f"  {result['presses_per_s']:,} presses/s   p50 {result['p50_us']} us   "
              f"p99 {result['p99_us']} us   max {result['max_us']} us")
        print("  goal: >= 50,000 presses/s and p99 <= 100 us")
    return 0
