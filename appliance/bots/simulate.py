"""`spit-arcade simulate`: computer against computer, headless, in virtual time.

    spit-arcade simulate --games 1000 --bots 5,4 --seed 1 --swap
    spit-arcade simulate --games 1000 --bots 5@3,first@3 --seed 1 --journal-dir /tmp/journals
    spit-arcade simulate --variant four-piles --options '{"alternate_colours": true}' --bots 5,1

Game k is dealt with seed S + k, of the preset `--variant` (default classic) with the house rules
`--options` (a JSON object) on top. No clock is read while playing: both bots are asked for their
next press, the earliest is applied (equal times: a seeded coin decides), and so on until the game
is over. Prints one JSON summary; `wins` counts per bot in `--bots` order; `games_per_s` is wall
time, `games_per_cpu_s` this process's CPU time (one core, whatever else runs). With `--journal-dir`
each game is saved as a journal in the script format, which `spit-arcade replay` plays back to the
same end: its setup line names the variant, the options given and the bots in each seat.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..journal import Journal
from ..match import setup_line
from ..random_play import variant_options
from ..rules import PRESETS, Event, new_game, read_options
from ..rules.events import Play, Reject
from . import Bot, make_bot, parse_spec

MAX_PRESSES = 50_000  # a game still going after this many presses is counted unfinished
MAX_SECONDS = 4 * 3_600.0  # ... or after four hours of game time (a safety net)


@dataclass
class GameResult:
    seed: int
    specs: tuple[str, str]  # the bot in seat 1, in seat 2
    winner: int | None  # the seat that won; None if unfinished
    rounds: int
    seconds: float  # game time at the end
    presses: list[int] = field(default_factory=lambda: [0, 0])  # per seat
    cards_played: list[int] = field(default_factory=lambda: [0, 0])
    rejects: Counter[str] = field(default_factory=Counter)
    reactions: list[dict[str, list[float]]] = field(default_factory=list)  # per seat: Bot.reaction_totals
    stuck: bool = False  # neither bot had anything to do in a game that was not over


Watcher = Callable[[float, int, str, list[Event]], None]


def play_game(
    specs: tuple[str, str],
    seed: int,
    journal_dir: Path | None = None,
    watch: Watcher | None = None,
    bots: tuple[Bot, Bot] | None = None,
    variant: str = "classic",
    options: Mapping[str, Any] | None = None,
) -> GameResult:
    """One game between `specs[0]` (seat 1) and `specs[1]` (seat 2), dealt with `seed`, of preset
    `variant` with house rules `options` on top.

    `watch(t, player, control, events)` is told every press and what it did; `bots` may bring
    ready-made bots (for tests that look at their logs)."""
    game, _ = new_game(variant, seed, options)
    if bots is None:
        bots = (make_bot(specs[0], 1, seed), make_bot(specs[1], 2, seed))
    coin = random.Random(f"spit-arcade simulate {seed}")
    journal = None
    if journal_dir is not None:
        name = f"seed{seed}-{specs[0]}-vs-{specs[1]}.jsonl".replace("@", "at")
        path = journal_dir / name
        path.unlink(missing_ok=True)
        journal = Journal(path, setup_line(seed, variant, options, {1: specs[0], 2: specs[1]}))
    result = GameResult(seed, specs, None, 1, 0.0)
    now = 0.0
    one, two = bots
    try:
        while game.phase != "over":
            plan1, plan2 = one.next_press(game, now), two.next_press(game, now)
            if plan1 is None and plan2 is None:
                result.stuck = True
                break
            # The earliest intended press happens next (nothing else can happen before it).
            due: list[tuple[Bot, tuple[float, str]]]
            if plan1 is not None and (plan2 is None or plan1[0] < plan2[0]):
                due = [(one, plan1)]
            elif plan2 is not None and (plan1 is None or plan2[0] < plan1[0]):
                due = [(two, plan2)]
            else:
                assert plan1 is not None and plan2 is not None
                due = [(one, plan1), (two, plan2)]
                if coin.random() < 0.5:
                    due.reverse()  # both at once: a seeded coin says whose hand lands first
            if due[0][1][0] > now:
                now = due[0][1][0]
                # Nothing has changed since the bots were asked: at that time the press is due, and
                # the bot counts it as made (the same plan, handed out again).
                due = [(bot, made) for bot, _ in due if (made := bot.take_due(now)) is not None]
            for bot, plan in due:
                assert plan is not None
                player = bot.player
                if journal is not None:
                    journal.record(plan[0], player, plan[1], source="bot")
                events = game.press(plan[0], player, plan[1])
                if watch is not None:
                    watch(plan[0], player, plan[1], events)
                result.presses[player - 1] += 1
                for event in events:
                    if isinstance(event, Play):
                        result.cards_played[player - 1] += 1
                    elif isinstance(event, Reject):
                        result.rejects[event.reason] += 1
            if sum(result.presses) >= MAX_PRESSES or now >= MAX_SECONDS:
                break
    finally:
        if journal is not None:
            if game.phase == "over":
                journal.finish(game.state())
            else:
                journal.close()
    result.winner = game.winner
    result.rounds = game.round
    result.reactions = [bot.reaction_totals for bot in bots]
    result.seconds = now
    return result


def _spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {
        "mean": round(statistics.fmean(ordered), 3),
        "median": round(statistics.median(ordered), 3),
        "p90": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 3),
        "max": round(ordered[-1], 3),
    }


def simulate(
    bots: tuple[str, str],
    games: int,
    seed: int,
    swap: bool = False,
    journal_dir: Path | None = None,
    variant: str = "classic",
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play `games` games and sum them up; `wins` in the order of `bots`."""
    wins = [0, 0]
    seat_wins = [0, 0]
    unfinished = stuck = 0
    rounds: list[float] = []
    seconds: list[float] = []
    presses: list[float] = []
    cards = [0, 0]
    reactions: list[dict[str, list[float]]] = [{"decision": [0, 0.0], "continuation": [0, 0.0]} for _ in bots]
    rejects: Counter[str] = Counter()
    started, cpu_started = time.perf_counter(), time.process_time()
    for k in range(games):
        swapped = swap and k % 2 == 1
        specs = (bots[1], bots[0]) if swapped else (bots[0], bots[1])
        result = play_game(specs, seed + k, journal_dir, variant=variant, options=options)
        rejects.update(result.rejects)
        for seat in (0, 1):
            side = 1 - seat if swapped else seat
            cards[side] += result.cards_played[seat]
            for kind, (n, total) in result.reactions[seat].items():
                reactions[side][kind][0] += n
                reactions[side][kind][1] += total
        if result.winner is None:
            unfinished += 1
            stuck += result.stuck
            continue
        seat_wins[result.winner - 1] += 1
        side = result.winner - 1
        wins[1 - side if swapped else side] += 1
        rounds.append(result.rounds)
        seconds.append(result.seconds)
        presses.append(sum(result.presses))
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    finished = games - unfinished
    return {
        "games": games,
        "variant": variant,
        "options": dict(options or {}),
        "bots": list(bots),
        "seed": seed,
        "swap": swap,
        "wins": wins,
        "win_rate": [round(w / finished, 4) if finished else None for w in wins],
        "seat_wins": seat_wins,
        "unfinished": unfinished,
        "stuck": stuck,
        "games_per_s": round(games / elapsed, 1) if elapsed > 0 else None,
        "elapsed_s": round(elapsed, 3),
        # Games per second of this process's own CPU time: one core, whatever else the machine runs.
        "games_per_cpu_s": round(games / cpu, 1) if cpu > 0 else None,
        "rounds": _spread(rounds),
        "game_seconds": _spread(seconds),
        "presses": _spread(presses),
        "cards_played": [round(c / games, 1) if games else 0 for c in cards],
        "reaction_s": [
            {kind: round(total / n, 3) if n else None for kind, (n, total) in side.items()} for side in reactions
        ],
        "rejects": dict(sorted(rejects.items())),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="spit-arcade simulate",
        description="Computer against computer in virtual time (no waiting); prints a JSON summary.",
    )
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument(
        "--bots",
        default="5,first",
        help="two bots, comma-separated: 1..5, first, or S@T (strategy S, level T's "
        "timing), e.g. 5@3,first@3 (default 5,first)",
    )
    parser.add_argument("--seed", type=int, default=0, help="game k is dealt with seed SEED+k (default 0)")
    parser.add_argument("--swap", action="store_true", help="alternate seats game by game")
    parser.add_argument("--journal-dir", type=Path, help="save each game as a journal in this directory")
    parser.add_argument("--variant", default="classic", help="the preset to play (default classic)")
    parser.add_argument("--options", default=None, metavar="JSON",
                        help='house rules on top of the preset, a JSON object, e.g. \'{"alternate_colours": true}\'')
    args = parser.parse_args(argv)
    options = variant_options(parser, args.variant, args.options)
    if PRESETS[args.variant].game != "spit":
        parser.error(f"the computer plays the Spit family's games, not {args.variant!r} yet")
    if read_options(args.variant, options).seats != 2:
        parser.error("simulate seats two bots: the option 'seats' must be 2")
    specs = [s.strip() for s in args.bots.split(",")]
    if len(specs) != 2:
        parser.error("--bots takes exactly two bots, e.g. 5,first")
    for spec in specs:
        try:
            parse_spec(spec)
        except ValueError as error:
            parser.error(str(error))
    if args.games < 0:
        parser.error("--games must be 0 or more")
    summary = simulate((specs[0], specs[1]), args.games, args.seed, args.swap, args.journal_dir,
                       variant=args.variant, options=options)
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0
