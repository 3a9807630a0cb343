"""`spit-arcade bench resume`: kill -9 a real `play` at random moments; does every restart resume?

    spit-arcade bench resume                  # 100 kills
    spit-arcade bench resume --kills 20 --json

Runs `spit-arcade play` in a subprocess on SDL's dummy drivers, its presses from a scripted input
source (a seeded stream of both players' presses, "Spit!" among them, new for each run), its
journals in a directory of its own. Each run is killed with SIGKILL at a random moment, and the next run must resume the
newest unfinished journal at the position the journal reached: its stderr line `spit-arcade:
resumed NAME at press N` must name that journal and the number of complete press lines in it. Every
`--tear-every`-th kill also tears the journal's last line (as a power cut would): the restart must
leave the torn line out. At the end every journal must replay (script format) without an error.

Goal: every restart resumed to the journal's position (100/100).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RESUMED = re.compile(r"spit-arcade: resumed (\S+) at press (\d+)")
UP = "video driver"  # the start's line once the screen is open (the first frame follows at once)
START_TIMEOUT_S = 30.0
CONTROLS = ("pile1", "pile2", "pile3", "pile4", "pile5", "left", "right", "spit", "spit")


def write_script(path: Path, seed: int, seconds: float = 120.0, rate: float = 25.0) -> None:
    """START and player 1's SPIT (the title, then two players), player 2's SPIT (a resumed game waits
    for both), then a seeded stream of both players' presses."""
    rng = random.Random(seed)
    lines: list[dict[str, Any]] = [
        {"t": 0.05, "player": 0, "press": "start"},
        {"t": 0.15, "player": 1, "press": "spit"},
        {"t": 0.2, "player": 2, "press": "spit"},
    ]
    t = 0.25
    while t < seconds:
        t += rng.expovariate(rate)
        lines.append({"t": round(t, 4), "player": rng.choice((1, 2)), "press": rng.choice(CONTROLS)})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def journal_position(path: Path) -> int:
    """The presses a resume of this journal must reach: its complete press lines."""
    from appliance.journal import read_journal

    lines, _ = read_journal(path)
    count = 0
    for line in lines[1:]:
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and "press" in value:
            count += 1
    return count


def tear(path: Path, rng: random.Random) -> bool:
    """Cut the journal's last line short, as a power cut can; False if it has no press line to cut."""
    data = path.read_bytes()
    body = data.rstrip(b"\n")
    start = body.rfind(b"\n") + 1
    if start <= 0 or b'"press"' not in body[start:]:
        return False
    keep = start + rng.randrange(1, len(body) - start)
    os.truncate(path, keep)
    return True


@dataclass
class Figures:
    kills: int = 0
    checked: int = 0  # restarts that found an unfinished journal and had to resume it
    resumed: int = 0  # ... and resumed it at the journal's position
    torn: int = 0  # of those, with a torn last line
    fresh: int = 0  # restarts with no game to resume (the first run, or a game that ended)
    positions: list[int] = field(default_factory=list)  # the press each checked restart resumed at
    failures: list[str] = field(default_factory=list)
    replayed: int = 0  # journals that replay without an error at the end
    journals: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "kills": self.kills,
            "checked": self.checked,
            "resumed": self.resumed,
            "torn": self.torn,
            "fresh": self.fresh,
            "journals": self.journals,
            "replayed": self.replayed,
            "seconds": round(self.seconds, 1),
            "positions": len(set(self.positions)),
            "furthest": max(self.positions, default=0),
            "failures": self.failures[:10],
        }


def play_command(root: Path, inputs: Path, journals: Path) -> list[str]:
    return [
        sys.executable, "-m", "appliance.cli", "play", "--inputs", str(inputs), "--journal-dir", str(journals),
        "--size", "320x240", "--volume", "0", "--frames", str(60 * 60),
    ]  # fmt: skip


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET")}
    env.update(
        SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"), PYGAME_HIDE_SUPPORT_PROMPT="1",
    )  # fmt: skip
    return env


def read_until(proc: subprocess.Popen[bytes], pattern: re.Pattern[str] | str, timeout_s: float) -> tuple[str, Any]:
    """stderr read until a line matches `pattern` (or the process ends, or the time is up)."""
    assert proc.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(proc.stderr, selectors.EVENT_READ)
    text = ""
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            found = pattern.search(text) if isinstance(pattern, re.Pattern) else (pattern in text or None)
            if found:
                return text, found
            left = deadline - time.monotonic()
            if left <= 0 or not selector.select(left):
                return text, None
            chunk = os.read(proc.stderr.fileno(), 65536)
            if not chunk:
                return text, None
            text += chunk.decode("utf-8", "replace")
    finally:
        selector.close()


def kill_test(
    kills: int = 100,
    seed: int = 1,
    max_delay_s: float = 0.5,
    tear_every: int = 5,
    directory: Path | None = None,
    root: Path | None = None,
) -> Figures:
    """`kills` restarts that each had a game to resume (plus the runs that start a game)."""
    from appliance.journal import newest_unfinished, read_journal
    from appliance.scripting import parse_script, run

    rng = random.Random(seed)
    root = root or Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory(prefix="spit-resume-") as scratch:
        base = directory or Path(scratch)
        journals, script, inputs = base / "journals", base / "script.jsonl", base / "inputs.toml"
        journals.mkdir(parents=True, exist_ok=True)
        inputs.write_text(f'sources = ["mock"]\n[mock]\nscript = {json.dumps(str(script))}\n', encoding="utf-8")
        env = environment(base)
        figures = Figures()
        started = time.monotonic()
        runs = 0
        while figures.checked < kills and runs < 3 * kills + 10:
            runs += 1
            unfinished = newest_unfinished(journals)
            torn = False
            if unfinished is not None and tear_every and (figures.checked + 1) % tear_every == 0:
                torn = tear(unfinished, rng)
            expected = journal_position(unfinished) if unfinished is not None else None
            write_script(script, rng.randrange(1 << 30))  # each run presses differently
            proc = subprocess.Popen(
                play_command(root, inputs, journals), cwd=root, env=env,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            )  # fmt: skip
            try:
                if unfinished is None:
                    said, up = read_until(proc, UP, START_TIMEOUT_S)
                    figures.fresh += 1
                    if up is None:
                        figures.failures.append(f"run {runs}: did not start: {said[-500:]}")
                        continue
                else:
                    said, found = read_until(proc, RESUMED, START_TIMEOUT_S)
                    figures.checked += 1
                    figures.torn += torn
                    if found is None:
                        figures.failures.append(f"run {runs}: did not resume {unfinished.name}: {said[-500:]}")
                        continue
                    name, at = found.group(1), int(found.group(2))
                    if (name, at) != (unfinished.name, expected):
                        figures.failures.append(
                            f"run {runs}: resumed {name} at press {at}, the journal is {unfinished.name} at {expected}"
                        )
                        continue
                    figures.resumed += 1
                    figures.positions.append(at)
                time.sleep(rng.uniform(0.0, max_delay_s))  # the random moment of the kill: a stimulus
            finally:
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=30)
                if proc.stderr is not None:
                    proc.stderr.close()
                figures.kills += 1
        figures.seconds = time.monotonic() - started
        for path in sorted(journals.glob("*.jsonl")):
            figures.journals += 1
            try:
                lines, _ = read_journal(path)
                run(parse_script(lines))
            except Exception as error:
                figures.failures.append(f"{path.name} does not replay: {error}")
            else:
                figures.replayed += 1
        return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade bench resume", description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=100, help="restarts with a game to resume (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=0.5, help="the kill comes 0..this many s after resuming")
    parser.add_argument("--tear-every", type=int, default=5, help="tear the journal's last line every Nth kill")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.kills < 1:
        parser.error("--kills must be at least 1")
    if not 0 <= args.max_delay <= 60:
        parser.error("--max-delay must be from 0 to 60 seconds")
    if args.tear_every < 0:
        parser.error("--tear-every must be 0 (never) or more")
    figures = kill_test(args.kills, args.seed, args.max_delay, args.tear_every)
    if args.json:
        print(json.dumps(figures.as_dict()))
    else:
        print(
            f"kill -9 at {figures.kills} random moments: {figures.resumed}/{figures.checked} restarts resumed the "
            f"journal's position ({figures.torn} with a torn last line), {figures.fresh} fresh starts; "
            f"{figures.replayed}/{figures.journals} journals replay; {figures.seconds:.1f} s"
        )
        for failure in figures.failures[:10]:
            print(f"  {failure}")
    ok = figures.checked >= args.kills and figures.resumed == figures.checked and figures.replayed == figures.journals
    return 0 if ok and not figures.failures else 1
