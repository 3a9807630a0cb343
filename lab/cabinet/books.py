"""The books across power cuts: the plug pulled while coins go in, and while a paid game is played.

The cabinet is set to cost a credit a game for the step (and back to free play after it). Each cut
comes in the middle of a burst of coins on the coin line; every other one in the middle of a game
paid for just before, the players pressing while the coins go in. After each cut the machine comes
back, and the store on the state partition is read (read-only, as `spit-arcade audits` reads it):

- the books are exact: the credits held equal the credits given by the coins less the credits spent
  on games, to the credit;
- no coin counted twice: the coins the store gained are no more than the pulses sent;
- no coin lost that had time to be written: every coin whose pulse ended `SETTLE_S` before the plug
  was pulled is in the store (a coin in the last instant before a power cut is the one thing no
  cabinet can keep: it never reached the card).
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


def coins_due(cut_after_s: float, coins: int = COINS) -> int:
    """How many of a burst's coins had ended their pulse `SETTLE_S` before a cut `cut_after_s` after
    the burst began: the coins the store must hold."""
    period = (COIN_HOLD_MS + COIN_GAP_MS) / 1000
    return sum(1 for k in range(coins) if k * period + COIN_HOLD_MS / 1000 <= cut_after_s - SETTLE_S)


def exact(before: dict[str, int], after: dict[str, int], sent: int, due: int) -> list[str]:
    """What is wrong with the books after a cut (nothing: an empty list)."""
    wrong = []
    if after["credits"] != after["credited"] - after["spent"]:
        wrong.append(f"credits {after['credits']} but coins gave {after['credited']} and games took {after['spent']}")
    gained = after["coins"] - before["coins"]
    if gained > sent:
        wrong.append(f"{gained} coins in the store of {sent} sent: counted twice")
    if gained < due:
        wrong.append(f"{gained} coins in the store, {due} had ended {SETTLE_S} s before the cut: lost")
    return wrong


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

        wait_for("the game after the setting", self.cab.ready, 120)

    def burst(self, coins: int, presses: list[list[int]] | None = None) -> None:
        """Coins on the coin line, the players' presses between them, on the machine's own thread."""
        steps: list[list[int]] = []
        for k in range(coins):
            steps.append([COIN_LINE, COIN_HOLD_MS, COIN_GAP_MS if not presses else COIN_GAP_MS // 2])
            if presses:
                line, hold, _ = presses[k % len(presses)]
                steps.append([line, hold, COIN_GAP_MS - COIN_GAP_MS // 2 - hold])
        self.vm.request({"burst": steps})

    def paid_game(self) -> bool:
        """Coins for a game, then a game started with them: whether the table is up."""
        self.burst(4)
        time.sleep(4 * (COIN_HOLD_MS + COIN_GAP_MS) / 1000 + SETTLE_S)
        try:
            self.cab.to_play()
            return True
        except VmError as error:
            print(f"cabinet-test: books: no paid game: {error}", file=sys.stderr)
            return False

    def cuts(self, count: int, rng: random.Random) -> None:
        from .checks import LINES, wait_for

        tried = exact_count = 0
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
                self.burst(COINS, presses)
                cut_after = rng.uniform(0.5, COINS * (COIN_HOLD_MS + COIN_GAP_MS) / 1000)
                time.sleep(cut_after)
                self.vm.power_cut()
                tried += 1
                try:
                    self.vm.start()
                    self.vm.connect_agent(BOOT_S)
                    wait_for("the game", self.cab.ready, BOOT_S)
                    after = self.read()
                    wrong = exact(before, after, COINS, coins_due(cut_after))
                except VmError as error:
                    wrong = [str(error)]
                exact_count += not wrong
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
        self.report.books_power_cuts_tried = tried
        self.report.books_power_cuts_exact = exact_count
        self.report.note(
            "power cuts during coins and paid games: the books exact",
            tried == count and exact_count == count,
            f"{exact_count}/{count} exact" + (f"; {'; '.join(problems[:4])}" if problems else ""),
        )
