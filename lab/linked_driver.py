"""Scripted players for a linked table, and replaying its journals: shared by the tests and
`spit-arcade bench linked`.

A `ScriptedSeat` presses at given touch times (this cabinet's clock, ns) for one seat: mostly the
next press of something the rules offer that seat now (`legal_actions`), now and then any control,
picked by a seeded generator from the game as this table sees it then.
"""

from __future__ import annotations

import json
import random
from collections import deque
from pathlib import Path
from typing import Any

from appliance.journal import read_journal
from appliance.linked.game import LinkedTable
from appliance.rules import CONTROLS
from appliance.scripting import parse_script, run


class ScriptedSeat:
    def __init__(self, table: LinkedTable, seat: int, touches_ns: list[int], seed: int) -> None:
        self.table = table
        self.seat = seat
        self.touches: deque[int] = deque(sorted(touches_ns))
        self.rng = random.Random(f"linked seat {seat} {seed}")
        self.pressed: list[tuple[int, str, int]] = []  # (touch time, control, game time µs) as pressed
        self.moved = 0  # presses that reached the table too late to keep their own time (a stalled loop)
        self.refused = 0

    def due(self, now_ns: int) -> None:
        """Press every touch whose time has come (at its own touch time: the edge)."""
        while self.touches and self.touches[0] <= now_ns:
            touch = self.touches.popleft()
            match = self.table.match
            if match is None or match.finished:
                self.refused += 1
                continue
            game = match.game
            actions = game.legal_actions(self.seat)
            if actions and self.rng.random() < 0.85:
                control = game.presses_for(self.seat, self.rng.choice(actions))[0]
            else:
                control = self.rng.choice((*CONTROLS[:6], "left", "right", "spit"))
            before, moved = self.table.refused_local, self.table.late_local
            self.table.press(touch, self.seat, str(control), "script")
            if self.table.refused_local > before:
                self.refused += 1
            else:
                self.pressed.append((touch, str(control), self.table.last_local_us))
                self.moved += self.table.late_local - moved


def replayed_state(path: Path) -> str:
    """The final state a journal replays to, as the JSON text `replay` prints (sorted keys)."""
    lines, _ = read_journal(path)
    _, game = run(parse_script(lines))
    return json.dumps(game.state(), sort_keys=True)


def closing_state(path: Path) -> Any:
    lines, _ = read_journal(path)
    last = json.loads(lines[-1])
    return last.get("state")


# ---------------------------------------------------------------------- one cabinet as a process

def cabinet(args: Any) -> int:
    """One linked cabinet on this machine's clock, its scripted seat pressing at the touch times given
    (CLOCK_MONOTONIC ns; with --touches-after-play, ns after its table first plays, however long the
    start took); it resumes the linked game its journals were cut off in, if any. It says
    each change of its state on standard output (a JSON line), and when standard input closes it
    plays on (its seat pressing no more) until the other's word has passed that moment, then prints
    its figures and leaves."""
    import socket
    import sys
    import threading
    import time

    from appliance.linked.game import BEAT_NS, unfinished_linked
    from appliance.linked.peer import Peer, offer

    mine = offer(args.variant, {}, [args.seat], 2, f"seat {args.seat}")
    journals = Path(args.journals)  # (the pairing's secret is kept there too: it proves this cabinet after a cut)
    journals.mkdir(parents=True, exist_ok=True)
    if args.relay and args.listen is not None:  # through the link unit (relay.py), as on a cabinet
        peer = Peer.through(args.relay, {"listen": args.listen}, mine, keep=journals)
    elif args.relay:
        host, _, port = args.connect.rpartition(":")
        peer = Peer.through(args.relay, {"connect": [host, int(port)]}, mine, keep=journals)
    elif args.listen is not None:
        peer = Peer.listen(args.listen, mine, host="127.0.0.1", keep=journals)
    else:
        host, _, port = args.connect.rpartition(":")
        peer = Peer.connect(host, int(port), mine, keep=journals)
    table = LinkedTable(peer, [args.seat], args.variant, journal_dir=journals, start_delay_ns=200_000_000,
                        seed=lambda g: args.seed * 1000 + g)
    cut = unfinished_linked(journals)
    if cut is not None:
        table.resume_from(cut)
    touches = json.loads(Path(args.touches).read_text()) if args.touches else []
    after_play = touches if args.touches_after_play else []  # (ns after the table first plays, from then on)
    player = ScriptedSeat(table, args.seat, [] if after_play else touches, args.seed)
    stop = threading.Event()
    def stop_at_eof() -> None:
        sys.stdin.read()
        stop.set()

    threading.Thread(target=stop_at_eof, daemon=True).start()

    def say(**what: Any) -> None:
        print(json.dumps(what), flush=True)

    said = ""
    end_ns: int | None = None
    leave_ns: int | None = None
    while True:
        now = time.monotonic_ns()
        player.due(now)
        table.tick(now)
        if table.state != said:
            said = table.state
            say(state=said, game=table.game_no, presses=table.match.presses if table.match else 0)
        if after_play and said == "playing":
            player.touches.extend(sorted(now + t for t in after_play))
            after_play = []
        if stop.is_set() and end_ns is None:
            end_ns = now
            player.touches.clear()  # (its seat stops pressing at the end: every press is before it)
        if end_ns is not None and leave_ns is None and (
                (table.remote_w_us >= table.raw_us(end_ns) and table.w_sent_us >= table.raw_us(end_ns)
                 and peer.link.in_flight == 0)
                or now > end_ns + 30_000_000_000 or not table.state.startswith(("play", "paus"))):
            # both words are past the end (the other's `end` is before this one's): a few beats more, so
            # the beat that carried this table's word past it is not the last one the other might miss
            leave_ns = now + 5 * BEAT_NS
        if leave_ns is not None and now >= leave_ns:
            break
        peer.wait_for(lambda _: False, 0.004)
    match = table.match
    path = getattr(match.journal, "path", None) if match is not None else None
    say(done=True, state=table.state, presses=match.presses if match else 0, journal=str(path),
        resumed_from=str(table.resumed_from) if table.resumed_from else None, repairs=table.repairs,
        refusals=dict(table.refusals), late_local=table.late_local, pressed=len(player.pressed),
        network=[name for _, name in socket.if_nameindex()])
    peer.close(say_bye=False)  # (the game stays unfinished in both journals: the test compares them)
    return 0


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m lab.linked_driver", description=cabinet.__doc__)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--listen", type=int, metavar="PORT")
    where.add_argument("--connect", metavar="HOST:PORT")
    parser.add_argument("--relay", metavar="SOCKET", help="through the link unit's socket (relay.py), as a cabinet")
    parser.add_argument("--seat", type=int, required=True)
    parser.add_argument("--journals", required=True)
    parser.add_argument("--touches", help="a JSON list of touch times (CLOCK_MONOTONIC ns)")
    parser.add_argument("--touches-after-play", action="store_true",
                        help="the touch times are ns after this cabinet's table first plays")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    return cabinet(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
