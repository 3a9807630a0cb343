"""The books across power cuts: the plug pulled while coins go in, and while a paid game is played.

The cabinet is set to cost a credit a game for the step (and back to free play after it). Each cut
comes in the middle of a burst of coins on the coin line; every other one in the middle of a game
paid for just before, the players pressing while the coins go in. After each cut the machine comes
back, and the store on the state partition is read (read-only, as `spit-arcade audits` reads it):

- the books are exact: the credits held equal the credits given by the coins less the credits spent
  on games, to the credit;
- no coin counted twice: the coins the store gained are no more than the pulses sent;
- no coin lost: every coin the store had committed when the plug was pulled (read by another
  process just before the cut) is in it after (a coin in the last instant before a power cut is the
  one thing no cabinet can keep: it never reached the card);
- late, not lost: the coins whose pulse ended `SETTLE_S` before the cut and were not yet written
  are counted (`books_coins_late`): the write's latency under an emulated CPU, measured on its own
  (`latency`: from a coin's stamp to its commit seen by a reader in the machine).

The power-cuts step checks the books at each of its cuts (`Cabinet.power_cuts(books=...)`): the
game before each cut paid for, the coins going in while the players press. This step alone (`--only
books`) cuts also during coins in attract mode.
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
import time
from typing import TYPE_CHECKING

from .vm import VmError

if TYPE_CHECKING:
    from .checks import Cabinet

COIN_LINE = 11  # appliance/inputs/default.toml: `coin = 11`
COIN_HOLD_MS = 60  # a coin mech's pulse (the input takes 5-500 ms as one coin)
COIN_GAP_MS = 240
COINS = 25  # a burst: 7.5 s of coins
SETTLE_S = 2.0  # a coin this long before the cut has been written (the writer thread syncs it at once)
BOOT_S = 600  # power-on to the game, the most waited: an emulated CPU on a loaded machine took 340 s
STORE = "/var/lib/spit-arcade/store.sqlite"
READ = (
    "import json, sqlite3; c = sqlite3.connect('file:" + STORE + "?mode=ro', uri=True); "
    "q = lambda s: c.execute(s).fetchone()[0] or 0; "
    "print(json.dumps({'credits': q('SELECT credits FROM credits'), 'coins': q('SELECT COUNT(*) FROM coins'), "
    "'credited': q('SELECT SUM(credited) FROM coins'), 'spent': q('SELECT SUM(credits) FROM spends'), "
    "'games': q('SELECT COUNT(*) FROM games')}))"
)


def coins_due(cut_after_s: float, steps: list[list[int]] | None = None) -> int:
    """How many of a burst's coins (default: COINS alone) had ended their pulse `SETTLE_S` before a
    cut `cut_after_s` after the burst began: the coins the store should hold if writes kept up."""
    return sum(1 for end in coin_ends(steps or Books.steps(COINS)) if end <= cut_after_s - SETTLE_S)


def coin_ends(steps: list[list[int]]) -> list[float]:
    """When each coin's pulse of a burst ended, in seconds after the burst began."""
    ends, t_ms = [], 0
    for line, hold, gap in steps:
        if line == COIN_LINE:
            ends.append((t_ms + hold) / 1000)
        t_ms += hold + gap
    return ends


def exact(before: dict[str, int], after: dict[str, int], sent: int, due: int,
          committed: dict[str, int] | None = None) -> list[str]:
    """What is wrong with the books after a cut (nothing: an empty list). With `committed` (the
    store read just before the cut), a coin is lost when it was committed then and is not now; without
    it, when it had ended `due`'s SETTLE_S before the cut."""
    wrong = []
    if after["credits"] != after["credited"] - after["spent"]:
        wrong.append(f"credits {after['credits']} but coins gave {after['credited']} and games took {after['spent']}")
    gained = after["coins"] - before["coins"]
    if gained > sent:
        wrong.append(f"{gained} coins in the store of {sent} sent: counted twice")
    if committed is not None and after["coins"] < committed["coins"]:
        wrong.append(f"{gained} coins in the store, {committed['coins'] - before['coins']} were committed before "
                     "the cut: lost")
    if committed is None and gained < due:
        wrong.append(f"{gained} coins in the store, {due} had ended {SETTLE_S} s before the cut: lost")
    return wrong


def late(before: dict[str, int], after: dict[str, int], due: int) -> int:
    """Of the coins that had ended SETTLE_S before the cut, how many were not in the store after it."""
    return max(0, due - (after["coins"] - before["coins"]))


# Run in the machine during a burst: each coin's stamp (`wall`, when the game took it) against when a
# reader first saw it committed, polled every 10 ms; one JSON list of latencies (s) at the end.
LATENCY = (
    "import json, sqlite3, time; c = sqlite3.connect('file:" + STORE + "?mode=ro', uri=True); "
    "top = c.execute('SELECT COALESCE(MAX(id), 0) FROM coins').fetchone()[0]; out = []; end = time.time() + {s}\n"
    "while time.time() < end:\n"
    "    rows = c.execute('SELECT id, wall FROM coins WHERE id > ?', (top,)).fetchall(); now = time.time()\n"
    "    out += [now - w for _, w in rows]; top = max([top] + [i for i, _ in rows]); time.sleep(0.01)\n"
    "print(json.dumps(out))"
)


class Books:
    """The step, on the cabinet's machine."""

    def __init__(self, cabinet: Cabinet) -> None:
        self.cab = cabinet
        self.vm = cabinet.vm
        self.report = cabinet.report

    def read(self) -> dict[str, int]:
        said = self.vm.out(f'python3 -c "{READ}"')
        try:
            found: dict[str, int] = json.loads(said.splitlines()[-1])
        except (ValueError, IndexError):
            raise VmError(f"the store could not be read: {said[-300:]}") from None
        return found

    def set_free_play(self, free: bool) -> None:
        value = "true" if free else "false"
        rc, said = self.vm.sh(f"runuser -u spit -- spit-arcade settings set --cabinet free_play {value}")
        if rc != 0:
            raise VmError(f"settings set free_play {value}: {said[-300:]}")
        self.vm.sh("systemctl restart spit-arcade.service")
        from .checks import wait_for

        wait_for("the game after the setting", self.cab.ready, BOOT_S)

    @staticmethod
    def steps(coins: int, presses: list[list[int]] | None = None) -> list[list[int]]:
        """A burst: coins on the coin line, the players' presses between them."""
        steps: list[list[int]] = []
        for k in range(coins):
            steps.append([COIN_LINE, COIN_HOLD_MS, COIN_GAP_MS if not presses else COIN_GAP_MS // 2])
            if presses:
                line, hold, _ = presses[k % len(presses)]
                steps.append([line, hold, COIN_GAP_MS - COIN_GAP_MS // 2 - hold])
        return steps

    def burst(self, coins: int, presses: list[list[int]] | None = None) -> None:
        """Coins (and presses) on the machine's own thread."""
        self.vm.request({"burst": self.steps(coins, presses)})

    def latency(self, coins: int = COINS) -> list[float]:
        """A burst of coins in attract mode, each coin's stamp to its commit as another process
        sees it (seconds, in coin order): the write's latency on this machine, with no cut."""
        watch = (COIN_HOLD_MS + COIN_GAP_MS) * coins / 1000 + 15
        self.vm.sh(f"nohup python3 -c \"{LATENCY.format(s=watch)}\" >/run/coin-latency.json 2>&1 &")
        time.sleep(2)  # the reader started (python under an emulated CPU)
        self.burst(coins)
        time.sleep(watch)
        from .checks import wait_for

        with contextlib.suppress(VmError):
            wait_for("the latency reader", lambda: self.vm.out("cat /run/coin-latency.json").startswith("["), 60, 1)
        said = self.vm.out("cat /run/coin-latency.json")
        try:
            return [float(x) for x in json.loads(said)]
        except (ValueError, TypeError):
            raise VmError(f"the coins' latency could not be read: {said[-300:]}") from None

    def coins_for_a_game(self) -> None:
        """Coins for a paid game, given time to be written."""
        self.burst(4)
        time.sleep(4 * (COIN_HOLD_MS + COIN_GAP_MS) / 1000 + SETTLE_S)

    def check_cut(self, before: dict[str, int], committed: dict[str, int] | None, steps: list[list[int]],
                  cut_after: float) -> list[str]:
        """After the machine is back from a cut `cut_after` s into the burst `steps`: what is wrong with
        the books (counted in the report), and the coins that were late (not lost) counted too."""
        sent, due = len(coin_ends(steps)), coins_due(cut_after, steps)
        try:
            after = self.read()
            wrong = exact(before, after, sent, due, committed)
            self.report.books_coins_late += late(before, after, due)
        except VmError as error:
            wrong = [str(error)]
        self.report.books_power_cuts_tried += 1
        self.report.books_power_cuts_exact += not wrong
        return wrong

    def close(self, count: int, problems: list[str]) -> None:
        tried, exact_count = self.report.books_power_cuts_tried, self.report.books_power_cuts_exact
        self.report.note(
            "power cuts during coins and paid games: the books exact",
            tried == count and exact_count == count,
            f"{exact_count}/{count} exact" + (f"; {'; '.join(problems[:4])}" if problems else ""),
        )

    def paid_game(self) -> bool:
        """Coins for a game, then a game started with them: whether the table is up."""
        self.coins_for_a_game()
        try:
            self.cab.to_play()
            return True
        except VmError as error:
            print(f"cabinet-test: books: no paid game: {error}", file=sys.stderr)
            return False

    def cuts(self, count: int, rng: random.Random) -> None:
        """The step alone: cuts during coins in attract mode and, every other one, in a paid game."""
        from .checks import LINES, wait_for

        problems: list[str] = []
        try:
            self.set_free_play(False)
            for n in range(count):
                if not self.cab.ready():
                    wait_for("the game", self.cab.ready, BOOT_S)
                with contextlib.suppress(VmError):
                    if self.cab.status().startswith("notices:"):
                        self.cab.press(1, "spit")
                playing = n % 2 == 1 and self.paid_game()
                before = self.read()
                presses = None
                if playing:  # the players race while the coins go in
                    presses = [[LINES[(1 + k % 2, f"pile{1 + k % 5}")], 60, 0] for k in range(10)]
                    presses += [[LINES[(1 + k % 2, "left")], 60, 0] for k in range(4)]
                steps = self.steps(COINS, presses)
                self.vm.request({"burst": steps})
                started = time.monotonic()
                time.sleep(rng.uniform(0.5, COINS * (COIN_HOLD_MS + COIN_GAP_MS) / 1000))
                committed = self.read()  # what the card holds just before the plug is pulled
                cut_after = time.monotonic() - started
                self.vm.power_cut()
                try:
                    self.vm.start()
                    self.vm.connect_agent(BOOT_S)
                    wait_for("the game", self.cab.ready, BOOT_S)
                    wrong = self.check_cut(before, committed, steps, cut_after)
                except VmError as error:
                    self.report.books_power_cuts_tried += 1
                    wrong = [str(error)]
                problems += [f"cut {n + 1}: {w}" for w in wrong]
                print(
                    f"cabinet-test: books: cut {n + 1}/{count} {cut_after:.1f} s into the coins"
                    f"{' of a paid game' if playing else ''}: {'exact' if not wrong else '; '.join(wrong)}",
                    file=sys.stderr,
                    flush=True,
                )
        finally:
            with contextlib.suppress(VmError):
                if not self.cab.ready():
                    wait_for("the game", self.cab.ready, BOOT_S)
                self.set_free_play(True)
        self.close(count, problems)
