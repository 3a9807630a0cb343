"""`spit-arcade bench store`: coins and games through the one store, the writer killed with kill -9.

    spit-arcade bench store                      # 10,000 coins, 1,000 games, 100 kills
    spit-arcade bench store --coins 1000 --games 100 --kills 10 --json

A child process plays the cabinet's part: its main thread (the frame thread's stand-in) hands every
coin, payment and finished game to the operator layer (appliance/operator/office.py) and journals a
press for each as a game does, the journal synced by the store's writer; the writer says "ok N" once
op N is committed. The parent feeds it the ops (per game: 10 coins, a payment of 10 credits, the
game) and kills it with SIGKILL at `--kills` random moments, restarting it each time on the same
store. After each kill the parent reads the store: an op acknowledged but not there is `lost`; an op
there twice is `counted_twice`; the ops not there are sent again (the writer writes in order, so
they are the last ones sent). At the end the credits must be the coins credited less the credits
spent (`credits_exact`).

`frame_thread_fsyncs` is the syncs the children's main threads made (appliance/operator/fsyncs.py:
the store's commits and the journal's fsyncs, counted by the thread that made them; each child says
its count every few hundred ops, so a killed one's count is known up to then). Goal: 0 lost, 0
counted twice, 0 frame-thread syncs.

`bytes_per_hour_play`: what a cabinet writes to the state partition in an hour of play, measured: a
game of the computer against itself at level 3 journalled, the journal's size, and the bytes the
store's writes of a game's coins, payment and game row cost (the process's write(2) bytes, /proc/self/io
`wchar`), scaled to an hour by the game's length. `bytes_per_hour_attract`: the bytes written in an
hour of attract mode (the title playing itself, in virtual time), measured the same way.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

COINS_PER_GAME = 10
REPORT_EVERY = 200  # ops between a child's reports of its syncs
START_TIMEOUT_S = 60.0


# ---------------------------------------------------------------------- the child


def child(directory: Path) -> int:
    """Take ops from stdin ("coin N", "pay N K", "game N"), hand them to the office, say "ok N" on
    stdout when each is written, and "syncs {...}" (the main thread's) now and then."""
    from appliance.journal import Journal
    from appliance.operator import fsyncs
    from appliance.operator.office import Office
    from appliance.operator.store import GameRow

    office = Office.open(directory / "config.toml")
    out = sys.stdout
    lock = threading.Lock()

    def say(words: str) -> None:
        with lock:
            out.write(words + "\n")
            out.flush()

    def ack(n: int) -> Any:
        return lambda result: say(f"ok {n}")

    journal = Journal(directory / "journals" / f"boot{office.boot}.jsonl", {"seed": office.boot},
                      max_dir_bytes=None, syncer=office.writer.call)
    started = fsyncs.main_thread_syncs()  # (opening the store, a new boot: the start's, before any frame)
    say("ready")
    for done, line in enumerate(sys.stdin, start=1):
        kind, n, *rest = line.split()
        number = int(n)
        if kind == "coin":
            office.coin(f"bench#{number}", done=ack(number))
            journal.record(done * 0.01, 1, "spit")
        elif kind == "pay":
            if not office.pay(int(rest[0]), f"bench#{number}", done=ack(number)):
                say(f"no {number}")
        elif kind == "game":
            office.add_game(GameRow("classic", 2, 180.0, 1, False, (12.5,), (), ((1, "spit"), (2, "spit")), number),
                            done=ack(number))
        journal.tick()
        if done % REPORT_EVERY == 0:
            say(f"syncs {fsyncs.main_thread_syncs() - started}")
    journal.close()
    office.drain()
    say(f"syncs {fsyncs.main_thread_syncs() - started}")
    office.close()
    return 0


# ---------------------------------------------------------------------- the parent


@dataclass
class Op:
    number: int
    kind: str  # coin, pay, game
    credits: int = 0

    def line(self) -> str:
        return f"{self.kind} {self.number} {self.credits}\n" if self.kind == "pay" else f"{self.kind} {self.number}\n"


@dataclass
class Tally:
    kills: int = 0
    lost: int = 0
    counted_twice: int = 0
    refused: int = 0  # payments the child found too few credits for (never, if nothing is lost)
    frame_thread_fsyncs: int = 0
    in_flight: int = 0  # ops sent and not written when their child was killed (sent again)
    acked: set[int] = field(default_factory=set)


def plan(coins: int, games: int) -> list[Op]:
    ops: list[Op] = []
    per_game = max(1, coins // max(1, games))
    n = 0
    for g in range(games):
        for _ in range(per_game if g < games - 1 else coins - per_game * (games - 1)):
            n += 1
            ops.append(Op(n, "coin"))
        n += 1
        ops.append(Op(n, "pay", per_game))
        n += 1
        ops.append(Op(n, "game"))
    return ops


def landed(store: Path) -> dict[int, int]:
    """Op number -> rows the store holds for it."""
    found: dict[int, int] = {}
    if not store.exists():
        return found
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        rows = connection.execute(
            "SELECT source FROM coins UNION ALL SELECT reason FROM spends UNION ALL"
            " SELECT 'bench#' || seed FROM games").fetchall()
    finally:
        connection.close()
    for (name,) in rows:
        if str(name).startswith("bench#"):
            number = int(str(name)[6:])
            found[number] = found.get(number, 0) + 1
    return found


def run_child(directory: Path, ops: list[Op], kill_after: int | None, tally: Tally, rng: random.Random) -> None:
    """One child: send it `ops`; kill it with SIGKILL once `kill_after` have been sent (None: let it finish)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "lab.benchmarks.store", "--child", str(directory)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdin is not None and process.stdout is not None
    syncs = [0]
    ready = threading.Event()

    def read(stdout: Any) -> None:
        for line in stdout:
            word, _, value = line.strip().partition(" ")
            if word == "ready":
                ready.set()
            elif word == "ok":
                tally.acked.add(int(value))
            elif word == "no":
                tally.refused += 1
            elif word == "syncs":
                syncs[0] = int(value)

    reader = threading.Thread(target=read, args=(process.stdout,), daemon=True)
    reader.start()
    ready.wait(START_TIMEOUT_S)  # the store open: the kills fall among the ops
    try:
        for sent, op in enumerate(ops, start=1):
            process.stdin.write(op.line())
            if kill_after is not None and sent >= kill_after:
                process.stdin.flush()
                time.sleep(rng.uniform(0.0, 0.02))  # a random moment: the child is somewhere in the ops sent
                process.send_signal(signal.SIGKILL)
                tally.kills += 1
                break
        process.stdin.close()
    except BrokenPipeError:
        pass
    process.wait()
    reader.join()
    tally.frame_thread_fsyncs += syncs[0]


def bench(coins: int, games: int, kills: int, seed: int, directory: Path) -> dict[str, Any]:
    rng = random.Random(seed)
    ops = plan(coins, games)
    by_number = {op.number: op for op in ops}
    tally = Tally()
    store = directory / "store.sqlite"
    pending = list(ops)
    started = time.monotonic()
    lost: set[int] = set()
    for _ in range(kills):
        if not pending:
            break
        before = len(ops) - len(pending)
        kill_after = rng.randint(1, max(1, min(len(pending), 2 * len(ops) // kills)))
        run_child(directory, pending, kill_after, tally, rng)
        there = landed(store)
        tally.in_flight += kill_after - (len(there) - before)  # sent, not yet written when it was killed
        lost |= {n for n in tally.acked if n not in there}  # said written, and not there after the kill
        pending = [op for op in ops if op.number not in there]
    run_child(directory, pending, None, tally, rng)
    there = landed(store)
    lost |= {op.number for op in ops if op.number not in there}  # never written at all
    tally.lost = len(lost)
    tally.counted_twice = sum(count - 1 for count in there.values() if count > 1)
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        credits = connection.execute("SELECT credits FROM credits").fetchone()[0]
        given = connection.execute("SELECT COALESCE(SUM(credited), 0) FROM coins").fetchone()[0]
        spent = connection.execute("SELECT COALESCE(SUM(credits), 0) FROM spends").fetchone()[0]
        stored = [connection.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("coins", "games")]
    finally:
        connection.close()
    return {
        "coins": stored[0], "games": stored[1], "kills": tally.kills, "lost": tally.lost,
        "counted_twice": tally.counted_twice, "credits": credits, "credits_exact": credits == given - spent,
        "payments_refused": tally.refused, "in_flight_at_kills": tally.in_flight,
        "frame_thread_fsyncs": tally.frame_thread_fsyncs,
        "ops": len(ops), "seconds": round(time.monotonic() - started, 1),
        "ops_expected": {"coins": coins, "games": games, "payments": sum(1 for op in by_number.values()
                                                                          if op.kind == "pay")},
    }  # fmt: skip


# ---------------------------------------------------------------------- bytes written an hour


def written() -> int:
    """This process's bytes handed to write(2) so far (/proc/self/io `wchar`; 0 where there is none)."""
    try:
        for line in Path("/proc/self/io").read_text().splitlines():
            if line.startswith("wchar:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def bytes_per_hour_play(directory: Path, games: int = 5) -> dict[str, Any]:
    """An hour of play: computer-vs-computer games (level 3) journalled as the screen journals them,
    and each game's coins, payment and row through the store; bytes scaled to an hour of play."""
    from appliance.bots.simulate import play_game
    from appliance.operator.office import Office
    from appliance.operator.store import GameRow

    journals = directory / "journals"
    journals.mkdir(parents=True, exist_ok=True)
    office = Office.open(directory / "config.toml")
    office.drain()
    seconds = 0.0
    before = written()
    for seed in range(1, games + 1):
        result = play_game(("3", "3"), seed, journals)
        seconds += result.seconds
        office.coin("gpio")
        office.pay(1)
        office.add_game(GameRow("classic", 2, result.seconds, result.winner, False, (12.0,), (),
                                ((1, "spit"), (2, "spit")), seed))
        office.drain()
    total = written() - before
    office.close()
    journal_bytes = sum(p.stat().st_size for p in journals.iterdir())
    return {"bytes_per_hour_play": round(total * 3600 / seconds), "play_game_s": round(seconds / games, 1),
            "journal_bytes_per_game": round(journal_bytes / games),
            "store_bytes_per_game": round((total - journal_bytes) / games)}  # its coin, payment and row


def bytes_per_hour_attract(directory: Path, seconds: float = 3600.0) -> int:
    """The title playing itself (attract mode) for `seconds` of virtual time, 10 updates a second,
    with a store and a journal directory as the cabinet has them: the bytes written."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from appliance.display.keys import default_keymap
    from appliance.display.scenes.base import Context, make
    from appliance.display.sound import Sound
    from appliance.operator.office import Office
    from appliance.shared.settings import Settings

    pygame.display.init()
    pygame.font.init()
    try:
        now = [0]
        ctx = Context(Settings(free_play=False), (640, 360), default_keymap(), Sound.silence(), directory / "journals",
                      lambda: now[0], config_path=directory / "config.toml")
        ctx.office = Office.open(ctx.config_path)
        ctx.office.drain()
        scene: Any = make("title", ctx)
        before = written()
        for step in range(int(seconds * 10)):  # (what the title hands on, the high-score table, is not played)
            now[0] = step * 100_000_000
            scene.update(now[0])
        ctx.office.drain()
        total = written() - before
        ctx.office.close()
        return total
    finally:
        pygame.quit()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade bench store", description=__doc__.split("\n\n")[0])
    parser.add_argument("--coins", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-hours", action="store_true", help="leave out the bytes written an hour")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        return child(args.child)
    if args.coins < 1 or args.games < 1 or args.kills < 0:
        parser.error("--coins and --games must be at least 1, --kills at least 0")
    with tempfile.TemporaryDirectory(prefix="spit-bench-store-") as tmp:
        result = bench(args.coins, args.games, args.kills, args.seed, Path(tmp) / "kills")
        if not args.no_hours:
            result |= bytes_per_hour_play(Path(tmp) / "play")
            result["bytes_per_hour_attract"] = bytes_per_hour_attract(Path(tmp) / "attract")
    from .figures import print_figures

    print_figures(result, args.json)
    good = result["lost"] == 0 and result["counted_twice"] == 0 and result["credits_exact"]
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
