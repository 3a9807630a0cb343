"""`spit-arcade simulate`: computer against computer, headless, in virtual time.

    spit-arcade simulate --games 1000 --bots 5,4 --seed 1 --swap
    spit-arcade simulate --games 1000 --bots 5@3,first@3 --seed 1 --journal-dir /tmp/journals
    spit-arcade simulate --variant four-piles --options '{"alternate_colours": true}' --bots 5,1
    spit-arcade simulate --options '{"seats": 4}' --bots 5,1,1,1 --games 1000 --seed 1 --swap

Game k is dealt with seed S + k, of the preset `--variant` (default classic) with the house rules
`--options` (a JSON object) on top; `--bots` names one bot per seat (`--swap` moves them round the
table game by game). No clock is read while playing: every bot is asked for its next press, the
earliest is applied (equal times: a seeded coin decides), and so on until the game is over. Where
the press's events say it changed no more than the presser's hands, stock piles and the spit piles,
the bots bring their view up to date with just that (`Bot.next_press_after`), or answer as they did
if they see none of it: the same games as bots that look at everything every time. Prints
one JSON summary; `wins` counts games won (at three or four seats: the player who ends the game
with no cards at all) per bot in `--bots` order; `games_per_s` is wall time, `games_per_cpu_s`
this process's CPU time (one core, whatever else runs). With `--journal-dir`
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..journal import Journal
from ..match import Match, setup_line
from ..rules import PRESETS, REJECT_REASONS, Event, Game, read_options
from ..rules.events import Flip, Move, Play, Reject, Stack
from ..variant_args import variant_options
from .levels import make_bot, parse_spec
from .opponent import Bot

SKIP = "skip"  # a hint to a bot: nothing it sees has changed since it last looked
Hint = tuple[int, tuple[int, ...], bool] | str | None  # see `hints` in play_game
MAX_PRESSES = 50_000  # a game still going after this many presses is counted unfinished
MAX_SECONDS = 4 * 3_600.0  # ... or after four hours of game time (a safety net)
# Events that change nothing another player sees (a card taken in hand stays on its pile, unless it
# is carried off: V16), so the other bots need not look at the table again. A flip, move or stack
# changes only the presser's stock piles (which some bots never look at), a play those and a spit pile.
UNSEEN_BY_OTHERS = frozenset({"select", "deselect", "reject"})


@dataclass
class GameResult:
    seed: int
    specs: tuple[str, ...]  # the bot in seat 1, in seat 2, ...
    winner: int | None  # the seat that won; None if unfinished
    rounds: int
    seconds: float  # game time at the end
    presses: list[int] = field(default_factory=lambda: [0, 0])  # per seat
    cards_played: list[int] = field(default_factory=lambda: [0, 0])
    rejects: Counter[str] = field(default_factory=Counter)
    reactions: list[dict[str, list[float]]] = field(default_factory=list)  # per seat: Bot.reaction_totals
    stuck: bool = False  # no bot had anything to do in a game that was not over


Watcher = Callable[[float, int, str, list[Event]], None]


def _no_deadline() -> float | None:
    return None


def play_game(
    specs: Sequence[str],
    seed: int,
    journal_dir: Path | None = None,
    watch: Watcher | None = None,
    bots: Sequence[Bot] | None = None,
    variant: str = "classic",
    options: Mapping[str, Any] | None = None,
) -> GameResult:
    """One game between `specs[0]` (seat 1), `specs[1]` (seat 2), ... (one per seat the game has),
    dealt with `seed`, of preset `variant` with house rules `options` on top.

    `watch(t, player, control, events)` is told every press and what it did, and every moment time
    alone decided something (a table slap's window closing: player 0, control ""); `bots` may bring
    ready-made bots (for tests that look at their logs)."""
    specs = tuple(specs)
    journal = None
    if journal_dir is not None:
        name = f"seed{seed}-{'-vs-'.join(specs)}.jsonl".replace("@", "at")
        path = journal_dir / name
        path.unlink(missing_ok=True)
        journal = Journal(path, setup_line(seed, variant, options, dict(enumerate(specs, start=1))),
                          max_dir_bytes=None)
    # The one "journal first, then apply" of the screen and the benchmarks, in virtual time.
    match = Match(seed, 0, journal, variant=variant, options=options, rollback=False)
    game = match.game
    seats = game.table.seats
    if len(specs) != seats:
        raise ValueError(f"{variant} with these options seats {seats}: give {seats} bots, not {len(specs)}")
    players = tuple(bots) if bots is not None else tuple(make_bot(spec, n, seed) for n, spec in enumerate(specs, 1))
    coin = random.Random(f"spit-arcade simulate {seed}")
    result = GameResult(seed, specs, None, 1, 0.0, presses=[0] * seats, cards_played=[0] * seats)
    now = 0.0
    # Spit games where a card taken in hand stays on its pile: a press that only selects, deselects
    # or is rejected changes nothing the other bots see, so they answer without looking again.
    private = isinstance(game, Game) and not game.rules.moves.carry
    # For each bot in turn, what changed since it last looked, when only the last press changed
    # anything: None (look at everything), SKIP (nothing it sees), or (presser, stock) for
    # `Bot.next_press_after`.
    hints: list[Hint] = [None] * seats
    deadline_of: Callable[[], float | None] = getattr(game, "deadline", _no_deadline)
    watching = [bot.strategy.watches_others for bot in players] if private else []  # see others' stock?
    presses, cards_played, rejects = result.presses, result.cards_played, result.rejects
    pressed = 0
    try:
        while game.phase != "over":
            plans: list[tuple[Bot, tuple[float, str]]] = []
            first = float("inf")
            for i, bot in enumerate(players):
                hint = hints[i]
                if hint is None:
                    plan = bot.next_press(game, now)
                elif isinstance(hint, tuple):
                    plan = bot.next_press_after(game, now, *hint)
                else:  # SKIP
                    plan = bot.take_due(now)
                hints[i] = None
                if plan is not None:
                    plans.append((bot, plan))
                    if plan[0] < first:
                        first = plan[0]
            # Time alone decides something (V18/V19: a table slap's window closes) before any press.
            deadline = deadline_of()
            if deadline is not None and first > deadline:
                now = max(now, round(deadline + 1e-6, 6))
                events = match.advance(now)
                if watch is not None:
                    watch(now, 0, "", events)  # a time line: no player, no press
                continue
            if not plans:
                result.stuck = True
                break
            # The earliest intended press happens next (nothing else can happen before it).
            if len(plans) == 1:
                due = plans
            else:
                due = []
                for planned in plans:  # (a loop: cheaper than a comprehension for two or three)
                    if planned[1][0] == first:
                        due.append(planned)
            if len(due) == 2:
                if coin.random() < 0.5:
                    due.reverse()  # both at once: a seeded coin says whose hand lands first
            elif len(due) > 2:
                coin.shuffle(due)
            if first > now:
                now = first
                # Nothing has changed since the bots were asked: at that time the press is due, and
                # the bot counts it as made (the same plan, handed out again).
                handed = []
                for bot, _ in due:
                    made = bot.take_due(now)
                    if made is not None:
                        handed.append((bot, made))
                due = handed
            # What the presses changed, from their events: only what the presser's hands hold,
            # their stock piles (the numbers in `piles`), the spit piles (`spit`), or more (not `known`).
            known, spit = private, False
            piles: list[int] = []
            for bot, plan in due:
                player = bot.player
                events = match.apply(plan[0], player, plan[1], "bot")
                if watch is not None:
                    watch(plan[0], player, plan[1], events)
                presses[player - 1] += 1
                pressed += 1
                for event in events:
                    kind = event.kind
                    if kind in UNSEEN_BY_OTHERS:
                        if isinstance(event, Reject):
                            rejects[event.reason] += 1
                    elif isinstance(event, Flip):
                        piles.append(event.pile)
                    elif isinstance(event, Move | Stack):
                        piles += (event.from_, event.to)
                    elif isinstance(event, Play):
                        cards_played[player - 1] += 1
                        piles.append(event.pile)
                        spit = True
                    else:
                        known = False
            if known and len(due) == 1:
                # Nothing changed but the presser's hands, stock piles and the spit piles: the bots
                # bring what they saw up to date rather than look again, and those who see nothing
                # of it (another's hands, or another's stock for a bot that never looks at it)
                # answer as they did.
                presser = due[0][0]
                change: Hint = (presser.player, tuple(piles), spit)
                for i, bot in enumerate(players):
                    if bot is presser:
                        hints[i] = change
                    elif bot.sees_nothing_new():
                        hints[i] = change if spit or (piles and watching[i]) else SKIP
            if pressed >= MAX_PRESSES or now >= MAX_SECONDS:
                break
    finally:
        if not match.finished:
            match.abandon()  # unfinished (a bound reached): the journal is closed as abandoned
    result.winner = game.winner
    result.rounds = game.round
    result.reactions = [bot.reaction_totals for bot in players]
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
    bots: Sequence[str],
    games: int,
    seed: int,
    swap: bool = False,
    journal_dir: Path | None = None,
    variant: str = "classic",
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play `games` games and sum them up; `bots` one per seat, `wins` in their order. With `swap`
    the bots move round the table game by game (game k seats bot i in seat (i + k) mod N + 1), so
    each sits in every seat equally often."""
    bots = tuple(bots)
    n = len(bots)
    wins = [0] * n
    seat_wins = [0] * n
    unfinished = stuck = 0
    rounds: list[float] = []
    seconds: list[float] = []
    presses: list[float] = []
    cards = [0] * n
    reactions: list[dict[str, list[float]]] = [{"decision": [0, 0.0], "continuation": [0, 0.0]} for _ in bots]
    rejects: Counter[str] = Counter()
    started, cpu_started = time.perf_counter(), time.process_time()
    for k in range(games):
        turn = k % n if swap else 0
        # bot i sits in seat (i + turn) mod n; seat s holds bot (s - turn) mod n
        owner = [(s - turn) % n for s in range(n)]
        specs = tuple(bots[i] for i in owner)
        result = play_game(specs, seed + k, journal_dir, variant=variant, options=options)
        rejects.update(result.rejects)
        for seat in range(n):
            side = owner[seat]
            cards[side] += result.cards_played[seat]
            for kind, (count, total) in result.reactions[seat].items():
                reactions[side][kind][0] += count
                reactions[side][kind][1] += total
        if result.winner is None:
            unfinished += 1
            stuck += result.stuck
            continue
        seat_wins[result.winner - 1] += 1
        wins[owner[result.winner - 1]] += 1
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
            {kind: round(total / count, 3) if count else None for kind, (count, total) in side.items()}
            for side in reactions
        ],
        "rejects": dict(sorted(rejects.items())),
        "reject_words": {reason: REJECT_REASONS.get(reason, reason) for reason in sorted(rejects)},
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
        help="one bot per seat, comma-separated: 1..5, first, or S@T (strategy S, level T's "
        "timing), e.g. 5@3,first@3, or 5,1,1,1 with 4 seats (default 5,first)",
    )
    parser.add_argument("--seed", type=int, default=0, help="game k is dealt with seed SEED+k (default 0)")
    parser.add_argument("--swap", action="store_true",
                        help="move the bots round the table game by game (two seats: alternate)")
    parser.add_argument("--journal-dir", type=Path, help="save each game as a journal in this directory")
    parser.add_argument("--variant", default="classic", help="the preset to play (default classic)")
    parser.add_argument("--options", default=None, metavar="JSON",
                        help='house rules on top of the preset, a JSON object, e.g. \'{"alternate_colours": true}\'')
    args = parser.parse_args(argv)
    options = variant_options(parser, args.variant, args.options)
    if PRESETS[args.variant].game not in ("spit", "speed"):
        parser.error(f"the computer plays the Spit family's games and Speed, not {args.variant!r} yet")
    seats = read_options(args.variant, options).seats
    specs = [s.strip() for s in args.bots.split(",")]
    if len(specs) != seats:
        parser.error(f"--bots takes one bot per seat: {seats} here, e.g. {','.join(['5', *['first'] * (seats - 1)])}")
    for spec in specs:
        try:
            parse_spec(spec)
        except ValueError as error:
            parser.error(str(error))
    if args.games < 0:
        parser.error("--games must be 0 or more")
    if not 0 <= args.seed <= 2**63 - 1 - max(args.games - 1, 0):
        parser.error("--seed must be a whole number from 0 to 2**63-1 (less the games after the first)")
    if args.journal_dir is not None:
        try:
            args.journal_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            parser.error(f"--journal-dir: cannot make {args.journal_dir}: {error.strerror or error}")
    try:
        summary = simulate(specs, args.games, args.seed, args.swap, args.journal_dir,
                           variant=args.variant, options=options)
    except OSError as error:  # a journal that cannot be written: a full disk, a read-only directory
        print(f"spit-arcade simulate: cannot write a journal: {error}", file=sys.stderr)
        return 1
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0
