"""What the virtual cabinet checks, from outside, and the figures it reports.

Each check drives the machine the way its owner or its players would (power, keys, buttons, a pad,
a plug pulled) and looks at what a person would see (the screen) and at what the game keeps (its
journal, through the agent). The figures go into `Report`, printed as one JSON object at the end.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .books import COIN_GAP_MS, COIN_HOLD_MS, COIN_LINE, Books
from .screen import MATCH, compare
from .vm import Machine, VmError

UNIT = "spit-arcade.service"
JOURNALS = "/var/lib/spit-arcade/journals"
# The default wiring's lines (appliance/inputs/default.toml: BCM n is line n of the simulated chip).
LINES = {
    (0, "start"): 10,
    (1, "pile1"): 4, (1, "pile2"): 17, (1, "pile3"): 27, (1, "pile4"): 22, (1, "pile5"): 5,
    (1, "left"): 13, (1, "spit"): 19, (1, "right"): 26,
    (2, "pile1"): 23, (2, "pile2"): 24, (2, "pile3"): 25, (2, "pile4"): 8, (2, "pile5"): 7,
    (2, "left"): 16, (2, "spit"): 20, (2, "right"): 21,
}  # fmt: skip
STATE_FSCK = r"systemd-fsck@dev-disk-by\\x2dlabel-spit\\x2dstate.service"
ENTRIES = "/boot/efi/loader/entries"  # systemd-boot's loader entries, one a root slot (slot-switch.sh)
VENUE_COINS = 4  # the venue step's coins (a credit a game then): earnings for the operator's view


@dataclass
class Report:
    accel: str = "tcg"
    image: str = ""
    image_mb: float = 0.0
    boot_to_ready_s: float | None = None
    boot_to_title_s: float | None = None
    title_on_screen: bool = False  # the game says it drew the title, its words as data (STATUS=)
    first_status: str = ""
    screen_dump_matches: bool = False  # a QMP screen dump agrees with the game's own render (required)
    title_score: float = 0.0
    screen_size: list[int] = field(default_factory=list)
    video_driver: str = ""
    kmsdrm_fps: float | None = None  # the game's own count over its first 5 s (emulated CPU, software GL)
    kmsdrm_frame_p99_ms: float | None = None
    gpio_presses_sent: int = 0
    gpio_presses_applied: int = 0
    gpio_p50_ms: float | None = None
    gpio_p99_ms: float | None = None
    keyboard_presses_applied: int = 0
    pad_presses_sent: int = 0
    pad_presses_applied: int = 0
    pad_plugged_late: bool = False
    sound_plugged_late: bool = False
    kill_resume_s: float | None = None
    kill_resumed: bool = False
    kill_scene: str = ""  # what the game showed when it was killed (a game in play, to be resumed)
    journals_unnamed: bool | None = None  # the game's journals start unnamed in its sandbox (O_TMPFILE)
    watchdog_restart_s: float | None = None
    broken_config_runs: bool = False
    broken_config_restarts: int | None = None
    power_cuts_tried: int = 0
    power_cuts_resumed: int = 0
    power_cuts_state_clean: int = 0
    books_power_cuts_tried: int = 0  # cuts during coins and paid games (lab/cabinet/books.py) ...
    books_power_cuts_exact: int = 0  # ... after which credits = coins' credits - games' credits, none lost or twice
    books_coins_late: int = 0  # coins ended 2 s before a cut, not yet written (none lost: committed ones all kept)
    books_coins_seen: int = 0  # a burst of coins without a cut: each one's stamp to its commit seen by a reader
    books_coin_commit_s: list[float] = field(default_factory=list)
    escapes_tried: int = 0
    escapes_held: int = 0
    old_cpu_said: str = ""  # the fallback screen under QEMU's qemu64 CPU (older than x86-64-v2)
    old_cpu_restarts: int | None = None
    state_image_mb: float | None = None  # the state partition as built, and after the first boot
    state_partition_mb: float | None = None
    state_fs_mb: float | None = None
    state_grown: bool = False
    booted_slot: str = ""
    ab_switched: bool = False  # slot B (a copy of A) made primary: booted once, blessed good
    ab_rolled_back: bool = False  # slot A made primary with a game that never comes up: back on B
    ab_rollback_s: float | None = None  # from power-on into the broken slot to the game on the good one
    stick_mounted: bool = False  # a USB stick's first file system at /run/spit-arcade/stick, the game's user writing
    stick_pulled: bool = False  # ... and unmounted when pulled
    # Updates from the stick (lab/cabinet/update.py). The install is driven by `rauc install` as root
    # through the test agent until the service menu drives it (update_driven_by).
    update_driven_by: str = ""
    update_bundle_mb: float | None = None
    update_bundle_made_s: float | None = None  # the host's time to make the full-size bundle (mksquashfs)
    update_tried: int = 0
    update_applied: int = 0  # the new slot booted, blessed good, the state intact, the game resumed
    update_install_s: float | None = None  # `rauc install` of the full-size bundle, in the emulated cabinet
    update_s: float | None = None  # stick in -> the new slot's game up (emulated: install, reboot, boot)
    update_state_kept: bool = False  # credits, coins, high scores, settings, journals: across update and rollback
    update_rollback_tried: int = 0
    update_rolled_back: int = 0  # a bundle whose game never comes up: left, back on the slot before
    update_rollback_s: float | None = None  # from the reboot into it to the game on the slot before
    update_boot_ok_bound_s: float | None = None  # a new slot's bound to show its title, emulated (3x the first boot's)
    update_scene_wait_s: float | None = None  # after the update: a scene's wait, 4 of the new slot's p99 frames
    update_rollback_why: str = ""  # the updater's status after it (what the service menu says): why
    # Where an update's and a rollback's time went, from the guest's own clock (update.py, `Updates.phases`).
    update_phases_s: dict[str, float] = field(default_factory=dict)
    update_rollback_phases_s: dict[str, float] = field(default_factory=dict)
    update_power_cuts_tried: int = 0
    update_power_cuts_booted: int = 0  # a working game on the old or new slot, state partition clean, state kept
    bundles_bad_tried: int = 0
    bundles_refused: int = 0  # by the cabinet's rauc: an error, the boot entries and slot states unchanged
    bundles_bad_wrote_slot: list[str] = field(default_factory=list)  # refused only once writing the other slot
    bundles_listed_newest_first: bool = False  # two good bundles on one stick: the updater lists both, newest first
    stick_read_only_read: bool = False  # a write-protected stick: mounted read-only, read, bad bundles refused
    exposure: float | None = None
    exposure_line: str = ""
    wheel_files: int = 0  # the game's installed files (its wheel's RECORD), of which ...
    wheel_lab_modules: int | None = None  # ... the lab's: none
    manifest_debian_packages: int = 0  # /usr/share/spit-arcade/manifest.json
    manifest_python_packages: int = 0
    # The venue (docs/venue.md): with no spit-venue/ folder given, what listens (ss -tulpn) and the
    # links' global addresses; with one on the ESP and a reboot, the same, and the uplink's unit.
    venue_off_listening: list[str] = field(default_factory=list)
    venue_off_addresses: list[str] = field(default_factory=list)
    venue_off_units: str = ""
    venue_on_listening: list[str] = field(default_factory=list)
    venue_on_addresses: list[str] = field(default_factory=list)
    venue_on_units: str = ""
    uplink_exposure: float | None = None  # `systemd-analyze security spit-arcade-uplink.service`, booted
    uplink_exposure_line: str = ""
    uplink_said: str = ""
    venue_published_s: float | None = None  # from the restart to the uplink's heartbeat at the view
    venue_view_saw: dict[str, Any] = field(default_factory=dict)  # what the operator's view had of the cabinet
    venue_coins_sent: int = 0  # coins put in once the uplink was up, then a paid game started with them
    venue_earnings_s: float | None = None  # from the coins to them in the view's earnings, through the broker
    link_unit: dict[str, Any] = field(default_factory=dict)  # the link unit, booted (lab/cabinet/link.py)
    steps_skipped: list[str] = field(default_factory=list)  # steps left out by --only or --skip
    steps_s: dict[str, float] = field(default_factory=dict)  # each step run: its seconds (for CI's counts)
    checks: dict[str, str] = field(default_factory=dict)  # name -> "ok" or what went wrong
    stopped: str = ""  # "SIGTERM during <step>": the run was stopped, this report is what it had
    run_s: float = 0.0

    def note(self, name: str, ok: bool, detail: str = "") -> None:
        self.checks[name] = "ok" if ok else (detail or "failed")
        mark = "ok  " if ok else "FAIL"
        print(f"cabinet-test: {mark} {name}{': ' + detail if detail else ''}", file=sys.stderr, flush=True)

    def json(self) -> str:
        return json.dumps(asdict(self))


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def wait_for(what: str, test: Callable[[], bool], timeout: float, every: float = 0.5) -> float:
    """Seconds until `test()` holds; VmError after `timeout`."""
    start = time.monotonic()
    while True:
        with contextlib.suppress(VmError):
            if test():
                return time.monotonic() - start
        if time.monotonic() - start > timeout:
            raise VmError(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)


class Cabinet:
    """The checks, in order, on one machine."""

    def __init__(self, machine: Machine, report: Report, layout: str = "tabletop") -> None:
        self.vm = machine
        self.report = report
        self.layout = layout
        self.pad: subprocess.Popen[str] | None = None

    # --- looking

    def unit(self, *props: str) -> dict[str, str]:
        out = self.vm.out(f"systemctl show {UNIT} " + " ".join(f"-p {p}" for p in props))
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def ready(self) -> bool:
        state = self.unit("ActiveState", "SubState")
        return state.get("ActiveState") == "active" and state.get("SubState") == "running"

    def main_pid(self) -> int:
        return int(self.unit("MainPID").get("MainPID", "0") or 0)

    def status(self) -> str:
        """What the game says it shows: the scene on top and its first words (`systemctl status`)."""
        return self.vm.out(f"systemctl show -p StatusText --value {UNIT}")

    def wait_scene(self, scene: str, timeout: float = 20) -> float:
        try:
            return wait_for(f"the {scene} scene", lambda: self.status().startswith(scene + ":"), timeout, 0.3)
        except VmError as error:
            with contextlib.suppress(VmError):
                error.args = (f"{error}; on the screen: {self.status()!r}",)
            raise

    def title_seen(self) -> dict[str, Any]:
        dump = self.vm.screendump(self.vm.workdir / "screen.ppm")
        wait_for("the screen dump", dump.exists, 10, 0.1)
        time.sleep(0.2)
        said = self.vm.out(f"journalctl -u {UNIT} -b -o cat --no-pager | grep -m1 'video driver' || true")
        font = said.rsplit(", font ", 1)[-1].strip() if ", font " in said else ""  # the reference drawn in it
        return compare(dump, self.layout, font)

    def journal_lines(self) -> list[dict[str, Any]]:
        """The presses of the newest journal, as the game wrote them."""
        out = self.vm.out(f"f=$(ls -t {JOURNALS}/*.jsonl 2>/dev/null | head -n1); [ -n \"$f\" ] && cat \"$f\"")
        lines = []
        for raw in out.splitlines():
            with contextlib.suppress(ValueError):
                value = json.loads(raw)
                if isinstance(value, dict) and "press" in value:
                    lines.append(value)
        return lines

    def newest_journal(self) -> str:
        return self.vm.out(f"ls -t {JOURNALS}/*.jsonl 2>/dev/null | head -n1")

    # --- doing

    def press(self, player: int, control: str, watch: bool = False, hold_ms: int = 70) -> float | None:
        """A panel's button pressed and let go (the simulated line closed to ground and opened); with
        `watch`, the milliseconds until the game journalled it (None if it did not)."""
        request: dict[str, Any] = {"press": LINES[(player, control)], "hold_ms": hold_ms}
        if watch:
            request["watch"] = JOURNALS
        reply = self.vm.request(request, timeout=10)
        self.report.gpio_presses_sent += 1
        latency = int(reply.get("latency_ns", -1))
        time.sleep(0.05)
        return latency / 1e6 if latency >= 0 else None

    def finished(self, journal: str) -> bool:
        """Whether a journal ends in its game's closing state line."""
        return self.vm.out(f"tail -n1 {journal} | grep -c '^{{\"state\"' || true") not in ("0", "")

    def to_play(self) -> str:
        """Back at the table whatever is up: the notices taken away, a resumed game's seats back, or
        a new game when the last one ended; the journal of the game now played."""
        if self.status().startswith("notices:"):
            self.press(1, "spit")
            time.sleep(0.5)
        if self.status().startswith("resumed:"):
            self.back_to_play()
        journal = self.newest_journal()
        if not journal or self.finished(journal) or not self.status().startswith("play:"):
            journal = self.start_game()
            self.press(1, "spit")
            self.press(2, "spit")
        return journal

    def back_to_play(self, tries: int = 3) -> None:
        """On the "game resumed" screen both players press SPIT! to be back at the table, and press
        again, as people do, while it is still up (a press can land in the button's lockout after the
        one that took the notices away). What is on the screen is said if the table never comes back."""
        for _ in range(tries):
            self.press(1, "spit")
            self.press(2, "spit")
            with contextlib.suppress(VmError):
                self.wait_scene("play")
                return
            if not self.status().startswith("resumed:"):
                break
        raise VmError(f"the play scene: not back after SPIT! from both; on the screen: {self.status()!r}")

    def start_game(self) -> str:
        """From the title: START, "Two players", the countdown, both SPIT!: the new game's journal."""
        before = self.newest_journal()
        for _ in range(12):  # a game ended with a record: its initials (START takes a letter), then the result
            if not self.status().startswith("reaction initials:"):
                break
            self.press(0, "start")
        if self.status().startswith("game over:"):
            time.sleep(1.5)  # (a press in its first moments is taken for the game's)
            self.press(0, "start")
            self.wait_scene("title")
        if self.status().startswith("notices:"):
            self.press(0, "start")  # the start-up notices go at the first press
            self.wait_scene("title")
        self.press(0, "start")
        self.wait_scene("choose")
        self.press(0, "start")
        wait_for("a new game's journal", lambda: self.newest_journal() not in ("", before), 20, 0.3)
        time.sleep(4.0)  # the countdown
        return self.newest_journal()

    def play_some(self, presses: int, latencies: list[float]) -> None:
        """Both players press SPIT!, then play from their stock piles, the game journalling each press."""
        moves = [(1, "spit"), (2, "spit")]
        for n in range(presses):
            player = 1 + n % 2
            moves += [(player, f"pile{1 + (n // 2) % 5}"), (player, "left" if n % 3 else "right")]
        for player, control in moves[:presses]:
            latency = self.press(player, control, watch=True)
            if latency is not None:
                latencies.append(latency)

    def resume_after_restart(self, journal: str, timeout: float = 120) -> bool:
        """After a restart: the game comes back as "game resumed"; both press SPIT! to be back, and
        the next press lands in the same journal."""
        wait_for("the game running again", self.ready, timeout)
        if self.status().startswith("notices:"):
            self.press(1, "spit")  # the start-up notices go at the first press
        self.wait_scene("resumed")
        self.back_to_play()
        latency = self.press(1, "pile1", watch=True)
        return latency is not None and self.newest_journal() == journal

    # --- the checks

    def boot(self, timeout: float = 600) -> None:  # (a loaded host: the title came after 475 s)
        self.vm.start()
        self.vm.connect_agent(timeout)
        wait_for("the unit READY", self.ready, timeout)
        self.report.boot_to_ready_s = round(time.monotonic() - self.vm.started_at, 1)

    def first_boot(self) -> None:
        """Power on: READY, then the title with its words (under the start-up notices, which the
        first press takes away); the screen dump compared with the game's own render besides."""
        self.boot()
        self.report.first_status = self.status()
        if self.report.first_status.startswith("notices:"):
            self.press(0, "start")
        try:
            self.wait_scene("title", 60)
            self.report.boot_to_title_s = round(time.monotonic() - self.vm.started_at, 1)
        except VmError:
            pass
        status = self.status()
        self.report.title_on_screen = status.startswith("title: SPIT ARCADE")
        seen = self.title_seen()
        deadline = time.monotonic() + 30  # the status is told as the frame is made, before it is shown
        while not seen["title_on_screen"] and self.report.title_on_screen and time.monotonic() < deadline:
            time.sleep(2)
            seen = self.title_seen()
        self.report.title_score = float(seen["score"])
        self.report.screen_dump_matches = bool(seen["title_on_screen"])
        self.report.screen_size = list(seen["size"])
        said = self.vm.out(f"journalctl -u {UNIT} -b -o cat --no-pager | grep -m1 'video driver' || true")
        self.report.video_driver = said.split("video driver", 1)[-1].split(",")[0].strip() if said else ""
        self.frame_rate()
        self.report.note(
            "boots to the title",
            self.report.title_on_screen and self.report.video_driver.lower() == "kmsdrm",
            f"{status!r} on {self.report.video_driver or '?'} after {self.report.boot_to_title_s} s; "
            f"screen dump {'matches' if seen['title_on_screen'] else 'does not match'} the render ({seen['score']})",
        )
        self.report.note(
            "the screen shows the title's own pixels",
            self.report.screen_dump_matches,
            f"QMP's screen dump against the game's own render of the title, inside its texts' boxes: "
            f"{seen['score']} of the letters' pixels agree (at least {MATCH})",
        )

    def frame_rate(self) -> None:
        """What the game says of its own frames on KMSDRM, 5 s after its start (runner.LOG_RATE_AFTER_S):
        a figure of this emulated machine and Mesa's software drawing, not of a Pi."""
        pattern = r"frames a second, frame p99"
        command = f"journalctl -u {UNIT} -b -o cat --no-pager | grep -m1 '{pattern}' || true"
        with contextlib.suppress(VmError):  # a figure to report, not a check: none is no failure
            wait_for("the game's frame rate line", lambda: bool(self.vm.out(command).strip()), 30, 1)
            said = re.search(r"([\d.]+) frames a second, frame p99 ([\d.]+) ms", self.vm.out(command))
            if said:
                self.report.kmsdrm_fps = float(said.group(1))
                self.report.kmsdrm_frame_p99_ms = float(said.group(2))

    def gpio_game(self, presses: int = 40) -> str:
        journal = self.start_game()
        latencies: list[float] = []
        self.play_some(presses, latencies)
        gpio = [line for line in self.journal_lines() if line.get("source") == "gpio"]
        self.report.gpio_presses_applied = len(gpio)
        self.report.gpio_p50_ms = round(percentile(latencies, 0.5) or 0, 2) if latencies else None
        self.report.gpio_p99_ms = round(percentile(latencies, 0.99) or 0, 2) if latencies else None
        self.report.note(
            "panels through the kernel's GPIO",
            len(gpio) >= presses * 0.9,
            f"{len(gpio)} of {presses + 0} journalled, edge to journal p50 {self.report.gpio_p50_ms} ms, "
            f"p99 {self.report.gpio_p99_ms} ms",
        )
        return journal

    def keyboard(self) -> None:
        before = len(self.journal_lines())
        for key in ("q", "a", "u", "j", "w", "d"):
            self.vm.keys(key)
            time.sleep(0.25)
        lines = self.journal_lines()[before:]
        self.report.keyboard_presses_applied = sum(1 for line in lines if line.get("source") == "keyboard")
        self.report.note("a USB keyboard", self.report.keyboard_presses_applied >= 5, f"{lines[-6:]}")

    def plug_pad(self, pty_link: Path) -> None:
        """A USB serial adapter plugged in while the game runs, a pad emulator on its other end."""
        self.vm.qmp("chardev-add", id="pad", backend={"type": "serial", "data": {"device": str(pty_link)}})
        self.vm.qmp("device_add", driver="usb-serial", id="padusb", chardev="pad", bus="xhci.0")

    def pad_game(self, presses: int = 12) -> None:
        link = self.vm.workdir / "pad1"
        self.pad = subprocess.Popen(
            [sys.executable, "-m", "appliance.cli", "pad-emulator", "--link", str(link)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.pad.stdin is not None and self.pad.stdout is not None
        self.pad.stdout.readline()  # "pad 1 on /dev/pts/N via LINK"
        self.plug_pad(link)
        try:
            wait_for(
                "the pad's adapter in the game",
                lambda: "/dev/ttyUSB0" in self.vm.out(f"ls -l /proc/{self.main_pid()}/fd 2>/dev/null"),
                30,
            )
            self.report.pad_plugged_late = True
        except VmError as error:
            self.report.note("a slap pad plugged in late", False, str(error))
            return
        before = len(self.journal_lines())
        for n in range(presses):
            control = "left" if n % 2 else "right"
            self.pad.stdin.write(f"tap {control}\n")
            self.pad.stdin.flush()
            self.report.pad_presses_sent += 1
            time.sleep(0.4)
        time.sleep(1.0)
        lines = self.journal_lines()[before:]
        self.report.pad_presses_applied = sum(1 for line in lines if str(line.get("source", "")).startswith("serial"))
        self.report.note(
            "a slap pad on a USB serial adapter plugged in after the start",
            self.report.pad_presses_applied >= presses * 0.9,
            f"{self.report.pad_presses_applied} of {presses} journalled",
        )

    def plug_sound(self) -> None:
        """A USB sound card plugged in while the game runs: it must be used once it is there."""
        self.vm.qmp("device_add", driver="usb-audio", id="usbsound", audiodev="snd0", bus="xhci.0")
        try:
            wait_for(
                "the game using the sound card",
                lambda: "/dev/snd/pcm" in self.vm.out(f"ls -l /proc/{self.main_pid()}/fd 2>/dev/null"),
                60,
                1.0,
            )
            self.report.sound_plugged_late = True
        except VmError:
            self.report.sound_plugged_late = False
        self.report.note("a sound card plugged in after the start", self.report.sound_plugged_late)

    def kill_and_resume(self) -> None:
        """kill -9 mid-game: back, and the game resumed from its journal. The game is the one the steps
        before left unfinished or, where they were left out (--only kill), one started here: killed at
        the title, a cabinet has no game to resume and rightly shows none (so failed every run of the
        step alone, whatever the journal did)."""
        journal = self.newest_journal()
        if not journal or self.finished(journal):
            journal = self.to_play()
            self.wait_scene("play", 60)  # (past the countdown, which the emulated game draws at 1 frame a second)
            self.press(1, "pile1", watch=True)
        self.report.kill_scene = self.status()
        pid = self.main_pid()
        self.vm.sh(f"kill -9 {pid}")
        start = time.monotonic()
        wait_for("the game back after kill -9", lambda: self.ready() and self.main_pid() not in (0, pid), 120)
        self.report.kill_resume_s = round(time.monotonic() - start, 1)
        self.report.kill_resumed = self.resume_after_restart(journal)
        self.report.note("kill -9: back and resumed", self.report.kill_resumed,
                         f"{self.report.kill_resume_s} s; killed in {self.report.kill_scene!r}")
        # A journal was started in this boot (that game's, or the GPIO step's): unnamed, as on the desktop,
        # unless the game said it could not (appliance/journal.py: O_TMPFILE linked through /proc/self/fd).
        said = self.vm.out(f"journalctl -u {UNIT} -b -o cat --no-pager | grep -m1 'under a temporary name' || true")
        self.report.journals_unnamed = not said
        self.report.note("journals start unnamed in the game's sandbox", not said, said or "O_TMPFILE, /proc/self/fd")

    def watchdog(self) -> None:
        pid = self.main_pid()
        self.vm.sh(f"kill -STOP {pid}")  # a frame loop that hangs: no WATCHDOG=1 any more
        start = time.monotonic()
        # (the test image's watchdog is 60 s, systemd/image/inside.sh; then the start, up to 120 s)
        wait_for("the watchdog's restart", lambda: self.ready() and self.main_pid() not in (0, pid), 180)
        self.report.watchdog_restart_s = round(time.monotonic() - start, 1)
        result = self.vm.out(f"journalctl -u {UNIT} -b -o cat --no-pager | grep -c -i watchdog || true")
        self.report.note(
            "a hung frame loop: the watchdog restarts it",
            result not in ("", "0"),
            f"{self.report.watchdog_restart_s} s from the hang to running again",
        )

    def escapes(self) -> None:
        """The keyboard's ways out of the kiosk, tried: each must leave the game where it was."""
        boot_id = self.vm.out("cat /proc/sys/kernel/random/boot_id")
        pid = self.main_pid()
        tries: list[tuple[str, Callable[[], None]]] = [
            ("Ctrl+Alt+F2", lambda: self.vm.keys("ctrl", "alt", "f2")),
            ("Alt+F2", lambda: self.vm.keys("alt", "f2")),
            ("Ctrl+Alt+F3", lambda: self.vm.keys("ctrl", "alt", "f3")),
            ("Alt+Right", lambda: self.vm.keys("alt", "right")),
            ("Ctrl+Alt+Del", lambda: self.vm.keys("ctrl", "alt", "delete")),
            ("Ctrl+Alt+Del x8", lambda: self.vm.keys("ctrl", "alt", "delete", hold_s=0.03, times=8)),
            ("SysRq+B", lambda: self.vm.keys("alt", "sysrq", "b")),
            ("SysRq+E", lambda: self.vm.keys("alt", "sysrq", "e")),
            ("Ctrl+Alt+Backspace", lambda: self.vm.keys("ctrl", "alt", "backspace")),
            ("Escape", lambda: self.vm.keys("esc")),
        ]
        held_all = True
        for name, act in tries:
            act()
            time.sleep(2.0)
            vt = self.vm.out("cat /sys/class/tty/tty0/active")
            same = (
                self.vm.out("cat /proc/sys/kernel/random/boot_id") == boot_id
                and self.main_pid() == pid
                and vt == "tty1"
            )
            self.report.escapes_tried += 1
            self.report.escapes_held += int(same)
            held_all &= same
            if not same:
                self.report.note(f"escape {name}", False, f"console {vt}, pid {self.main_pid()} (was {pid})")
        gettys = self.vm.out("systemctl list-units --no-legend --state=active 'getty@*' 'serial-getty@*' || true")
        self.report.escapes_tried += 1
        self.report.escapes_held += int(not gettys)
        held_all &= not gettys
        if gettys:
            self.report.note("no login prompt anywhere", False, gettys)
        held = f"{self.report.escapes_held}/{self.report.escapes_tried} held"
        self.report.note("the keyboard's ways out", held_all, held)

    def broken_config(self) -> None:
        config = "/var/lib/spit-arcade/config.toml"
        self.vm.sh(f"cp {config} /run/config.saved && printf 'volume = [[[\\nlayout = 7\\n' >{config}")
        self.vm.sh(f"systemctl restart {UNIT}")
        try:
            wait_for("the game on a broken config.toml", self.ready, 120)
            time.sleep(8.0)
            restarts = int(self.unit("NRestarts").get("NRestarts", "0") or 0)
            self.report.broken_config_restarts = restarts
            self.report.broken_config_runs = self.ready() and restarts == 0
        except VmError:
            self.report.broken_config_runs = False
        finally:
            self.vm.sh(f"cp /run/config.saved {config} && chown spit:spit {config}")
            self.vm.sh(f"systemctl restart {UNIT}")
            wait_for("the game after the config is mended", self.ready, 120)
        self.report.note(
            "a broken config.toml: the game runs on its last good copy, no restart loop",
            self.report.broken_config_runs,
            f"restarts {self.report.broken_config_restarts}",
        )

    def power_cuts(self, count: int, rng: random.Random, books: Books | None = None) -> None:
        """Pull the plug at random moments mid-game; each next boot must resume the game and find the
        state partition clean. With `books`, each game is paid for and coins go in while the players
        press, and the books are checked after each cut too (books.py): the same cuts, no boot more."""
        problems: list[str] = []
        if books is not None:
            books.set_free_play(False)
            with contextlib.suppress(VmError):
                found = books.latency()
                self.report.books_coin_commit_s = [round(x, 3) for x in found]
                self.report.books_coins_seen = len(found)
        for n in range(count):
            if not self.ready():
                wait_for("the game", self.ready, 300)
            if books is not None:
                books.coins_for_a_game()
            journal = self.to_play()
            steps = []
            for k in range(20):  # a pile, then a spit pile, by turns, while the plug is pulled
                steps += [[LINES[(1 + k % 2, f"pile{1 + k % 5}")], 60, 70], [LINES[(1 + k % 2, "left")], 60, 70]]
            before = books.read() if books is not None else {}
            if books is not None:  # a coin before each two presses
                coin = [COIN_LINE, COIN_HOLD_MS, COIN_GAP_MS // 2]
                steps = [step for k in range(0, len(steps), 2) for step in (coin, *steps[k:k + 2])]
            self.vm.request({"burst": steps})
            started = time.monotonic()
            time.sleep(rng.uniform(0.2, 4.0))
            committed = books.read() if books is not None else None  # what the card holds just before the cut
            cut_after = time.monotonic() - started
            self.vm.power_cut()
            self.report.power_cuts_tried += 1
            try:
                self.vm.start()
                self.vm.connect_agent(300)
                if self.finished(journal):  # the burst ended the game before the plug was pulled
                    wait_for("the game", self.ready, 300)
                    resumed = self.status().startswith(("title:", "notices:"))
                else:
                    resumed = self.resume_after_restart(journal, timeout=300)
            except VmError as error:
                print(f"cabinet-test: power cut {n + 1}: {error}", file=sys.stderr)
                resumed = False
            clean = self.state_clean()
            self.report.power_cuts_resumed += int(resumed)
            self.report.power_cuts_state_clean += int(clean)
            wrong = books.check_cut(before, committed, steps, cut_after) if books is not None else []
            problems += [f"cut {n + 1}: {w}" for w in wrong]
            said = f"; books {'exact' if not wrong else '; '.join(wrong)}" if books is not None else ""
            print(
                f"cabinet-test: power cut {n + 1}/{count} {cut_after:.1f} s in: "
                f"{'resumed' if resumed else 'NOT resumed'}, state partition {'clean' if clean else 'NOT clean'}{said}",
                file=sys.stderr,
                flush=True,
            )
        self.report.note(
            "power cuts mid-game",
            self.report.power_cuts_resumed == count and self.report.power_cuts_state_clean == count,
            f"{self.report.power_cuts_resumed}/{count} resumed, {self.report.power_cuts_state_clean}/{count} clean",
        )
        if books is not None:
            books.close(count, problems)
            with contextlib.suppress(VmError):
                if not self.ready():
                    wait_for("the game", self.ready, 300)
                books.set_free_play(True)

    def state_clean(self) -> bool:
        """The state partition after a power cut: fsck passed at boot, it is mounted read-write, the
        kernel reported no file system error, and the root is still read-only."""
        fsck = self.vm.out(f"systemctl show -p Result --value '{STATE_FSCK}'")
        mounts = self.vm.out("findmnt -no OPTIONS /var/lib/spit-arcade; findmnt -no OPTIONS /")
        errors = self.vm.out("dmesg | grep -c 'EXT4-fs error' || true")
        lines = mounts.splitlines()
        return (
            fsck == "success"
            and len(lines) == 2
            and lines[0].startswith("rw")
            and lines[1].startswith("ro")
            and errors in ("0", "")
        )

    def state_grown(self) -> None:
        """The state partition, 256 MiB in the image, fills the larger disk after the first boot
        (systemd-repart, then systemd-growfs), and its file system with it."""
        name = self.vm.out("basename $(readlink -f /dev/disk/by-label/spit-state)")
        disk = int(self.vm.out("lsblk -bdno SIZE /dev/vda") or 0)
        start = int(self.vm.out(f"cat /sys/class/block/{name}/start") or 0) * 512
        room = disk - start - 2**20  # to the disk's end, less the GPT's backup at the end

        def grown() -> bool:
            size = int(self.vm.out(f"cat /sys/class/block/{name}/size") or 0) * 512
            fs = self.fs_size(f"/dev/{name}")
            self.report.state_partition_mb = round(size / 2**20, 1)
            self.report.state_fs_mb = round(fs / 2**20, 1)
            return size >= room - 2**20 and fs >= size - 2**20

        with contextlib.suppress(VmError):
            wait_for("the state partition grown", grown, 120, 2)
        self.report.state_grown = grown()
        self.report.note(
            "the state partition grown to fill the disk",
            self.report.state_grown,
            f"{self.report.state_image_mb} MiB in the image; now the partition {self.report.state_partition_mb} "
            f"MiB, its file system {self.report.state_fs_mb} MiB, of {round(room / 2**20, 1)} MiB to the disk's end",
        )

    def fs_size(self, device: str) -> int:
        """An ext4 file system's own size in bytes (block count × block size; df's is less its metadata)."""
        awk = "awk -F: '/^Block count/{c=$2} /^Block size/{s=$2} END{printf \"%d\", c*s}'"
        return int(self.vm.out(f"dumpe2fs -h {device} 2>/dev/null | {awk}") or 0)

    def slot_states(self) -> dict[str, str]:
        """RAUC's view of the slots (through its D-Bus service, as root): booted and A's and B's state."""
        raw = self.vm.out("rauc status --output-format=json 2>/dev/null", timeout=60)
        states: dict[str, str] = {}
        with contextlib.suppress(ValueError, AttributeError, TypeError):
            status = json.loads(raw)
            states["booted"] = str(status.get("booted", ""))
            for slot in status.get("slots", []):
                for info in slot.values():
                    states[str(info.get("bootname"))] = str(info.get("boot_status", ""))
        return states

    def slots(self) -> None:
        """Booted from slot A (good), slot B empty (bad: never booted), as RAUC sees them."""
        states = self.slot_states()
        self.report.booted_slot = states.get("booted", "")
        self.report.note(
            "A/B root slots: booted from A, B empty",
            states.get("booted") == "A" and states.get("A") == "good" and states.get("B") == "bad",
            f"rauc status: {states}; loader entries {self.vm.out(f'ls {ENTRIES}')!r}",
        )

    def agent_out(self, command: str) -> str:
        """`out` through a reboot inside the machine: the agent's channel opened again if it closed."""
        if self.vm._agent is None:
            self.vm.connect_agent(5)
        return self.vm.out(command, timeout=20)

    def reboot_into(self, slot: str, timeout: float) -> float:
        """Wait for the machine (rebooting by itself) to run `slot` with the game up; seconds taken."""
        return wait_for(
            f"slot {slot} booted with the game up",
            lambda: f"rauc.slot={slot}" in self.agent_out("cat /proc/cmdline") and self.ready(),
            timeout,
            2,
        )

    def new_entry(self, name: str, said: str) -> str:
        """The loader entries once `name` is among them (or after 300 s). `rauc status mark-active`
        gives up waiting for RAUC's service after D-Bus's 25 s ("Timeout was reached"), which the
        emulated, loaded cabinet took to copy a slot's kernel and initrd onto the ESP; the service
        goes on, and the entry is what counts."""
        if "Timeout was reached" in said:
            with contextlib.suppress(VmError):
                wait_for(f"the loader entry {name}", lambda: name in self.vm.out(f"ls {ENTRIES}").split(), 300, 3)
        return self.vm.out(f"ls {ENTRIES}")

    def restart(self) -> None:
        """A clean power-off and power-on (the firmware's variables kept): the game up again."""
        self.vm.shutdown()
        self.vm.start()
        self.vm.connect_agent(300)
        try:
            wait_for("the game after power-on", self.ready, 600)
        except VmError as error:
            raise VmError(f"{error}; {self.what_happened()}") from None

    def what_happened(self) -> str:
        """Why a boot went wrong, as far as the machine says: its kernel command line, the game's
        unit, the boot check, and the last lines of both."""
        with contextlib.suppress(VmError):
            return self.agent_out(
                "cat /proc/cmdline; systemctl show -p Result -p NRestarts spit-arcade.service;"
                " systemctl status --no-pager -n0 spit-arcade-boot-ok.service systemd-bless-boot.service;"
                f" ls {ENTRIES}; journalctl -b --no-pager -o cat -u spit-arcade -u spit-arcade-boot-ok | tail -n 15"
            )[-1500:]
        return "the agent does not answer"

    def ab_slots(self) -> None:
        """The slot switch and the fallback, without a bundle: slot B gets a copy of A's root file
        system and is made primary through RAUC (`rauc status mark-active other`: spit-slot-switch
        copies its kernel and writes its loader entry with 3 tries); it boots, the game comes up, and
        systemd-bless-boot marks it good. Then slot A is made primary with a game that fails at every
        start: after its third failed start (spit-arcade-boot-ok) it is marked bad, the cabinet
        restarts by itself, and is back on B with the game up."""
        size = self.fs_size("/dev/disk/by-partlabel/spit-root-a")
        rc, said = self.vm.sh(
            "dd if=/dev/disk/by-partlabel/spit-root-a of=/dev/disk/by-partlabel/spit-root-b bs=4M "
            f"count={size} iflag=count_bytes conv=fsync status=none && rauc status mark-active other 2>&1",
            timeout=900,
        )
        entries = self.new_entry("spit-b+3.conf", said)
        if (rc != 0 and "Timeout was reached" not in said) or "spit-b+3.conf" not in entries.split():
            self.report.note("A/B: slot B made primary", False, f"rc {rc}: {said[-400:]}; entries {entries!r}")
            return
        self.restart()
        try:
            wait_for("slot B blessed", lambda: "spit-b.conf" in self.vm.out(f"ls {ENTRIES}").split(), 900, 2)
        except VmError as error:
            why = f"{error}; {self.what_happened()}"
            self.report.note("A/B: slot B made primary, booted, blessed good", False, why)
            return
        states = self.slot_states()
        cmdline = self.vm.out("cat /proc/cmdline")
        self.report.ab_switched = "rauc.slot=B" in cmdline and states.get("B") == "good" and states.get("booted") == "B"
        self.report.note(
            "A/B: slot B made primary, booted, blessed good",
            self.report.ab_switched,
            f"rauc status {states}; loader entries {self.vm.out(f'ls {ENTRIES}')!r}",
        )
        if not self.report.ab_switched:
            return
        # Slot A made primary again, with a game that fails at every start.
        rc, said = self.vm.sh(
            "mkdir -p /run/spit-a && mount /dev/disk/by-partlabel/spit-root-a /run/spit-a"
            " && mkdir -p /run/spit-a/etc/systemd/system/spit-arcade.service.d"
            " && printf '[Service]\\nExecStart=\\nExecStart=/bin/false\\n'"
            " >/run/spit-a/etc/systemd/system/spit-arcade.service.d/broken.conf"
            " && umount /run/spit-a && rauc status mark-active other 2>&1",
            timeout=120,
        )
        entries = self.new_entry("spit-a+3.conf", said)
        if (rc != 0 and "Timeout was reached" not in said) or "spit-a+3.conf" not in entries.split():
            self.report.note("A/B: a broken slot A made primary", False, f"rc {rc}: {said[-400:]}; entries {entries!r}")
            return
        self.vm.shutdown()
        self.vm.start()
        try:
            self.reboot_into("B", 900)
            self.report.ab_rollback_s = round(time.monotonic() - self.vm.started_at, 1)
        except VmError as error:
            self.report.note("A/B: a slot whose game never comes up is left", False, f"{error}; {self.what_happened()}")
            return
        entries = self.vm.out(f"ls {ENTRIES}")
        states = self.slot_states()
        self.report.ab_rolled_back = (
            "spit-a+0-1.conf" in entries.split() and states.get("A") == "bad" and states.get("booted") == "B"
        )
        self.report.note(
            "A/B: a slot whose game never comes up is left",
            self.report.ab_rolled_back,
            f"back on B {self.report.ab_rollback_s} s after power-on; rauc status {states}; loader entries {entries!r}",
        )

    def old_cpu(self, timeout: float = 600) -> None:
        """Powered on with QEMU's default CPU, qemu64, older than the x86-64-v2 the wheels are built
        for: the game says so and stops (exit 79), systemd does not restart it, and the fallback
        screen on tty1 (read from /dev/vcs1) says why. Then back on the machine's own CPU."""
        self.vm.shutdown()
        own, self.vm.cpu = self.vm.cpu, "qemu64"
        try:
            self.vm.start()
            self.vm.connect_agent(300)
            words = "processor is older than the game's libraries need"
            with contextlib.suppress(VmError):
                wait_for("the fallback screen", lambda: words in self.vm.out("cat /dev/vcs1"), timeout, 2)
            time.sleep(5)  # a restart, were there one, would come within the unit's RestartSec=1s
            script = f"systemctl show -p ExecMainStatus -p NRestarts {UNIT}"
            state = dict(line.split("=", 1) for line in self.vm.out(script).splitlines() if "=" in line)
            screen = " ".join(self.vm.out("cat /dev/vcs1").split())
            self.report.old_cpu_said = screen[:300]
            self.report.old_cpu_restarts = int(state.get("NRestarts", "-1") or -1)
        finally:
            self.vm.shutdown()
            self.vm.cpu = own
        ok = words in screen and self.report.old_cpu_restarts == 0
        self.report.note(
            "an old processor (qemu64): the fallback screen says why, no restart loop",
            ok,
            f"exit {state.get('ExecMainStatus')}, {self.report.old_cpu_restarts} restarts; tty1: {screen[:200]!r}",
        )
        self.vm.start()
        self.vm.connect_agent(300)
        wait_for("the game after power-on", self.ready, 600)

    def exposure(self) -> None:
        out = self.vm.out(f"systemd-analyze security {UNIT} --no-pager | tail -n1")
        self.report.exposure_line = out
        with contextlib.suppress(ValueError, IndexError):
            self.report.exposure = float(out.split("exposure level for")[1].split(":")[1].split()[0])
        self.report.note("systemd-analyze security", self.report.exposure is not None, out)

    def packaging(self) -> None:
        """Only the game on the card (no file of the lab in the wheel's RECORD, no clone left), and the
        image's manifest naming its packages, the game and its pygame-ce among them."""
        record = "/opt/spit-arcade/venv/lib/python3*/site-packages/spit_arcade-*.dist-info/RECORD"
        counts = self.vm.out(f"cat {record} | wc -l; cat {record} | grep -c '^lab/' || true").split()
        with contextlib.suppress(ValueError, IndexError):
            self.report.wheel_files, self.report.wheel_lab_modules = int(counts[0]), int(counts[1])
        manifest = "/usr/share/spit-arcade/manifest.json"
        read = (f"import json; m = json.load(open('{manifest}')); p = m['python']['packages']; "
                "print(len(m['debian']), len(p), p.get('spit-arcade'), p.get('pygame-ce'))")
        said = self.vm.out(f'python3 -c "{read}"').split()
        with contextlib.suppress(ValueError, IndexError):
            self.report.manifest_debian_packages, self.report.manifest_python_packages = int(said[0]), int(said[1])
        clone = self.vm.out("ls -d /root/spit-arcade 2>/dev/null || true")  # built from; removed at the end
        ok = (self.report.wheel_files > 0 and self.report.wheel_lab_modules == 0 and not clone
              and self.report.manifest_debian_packages > 0 and len(said) == 4 and "None" not in said)  # fmt: skip
        self.report.note("only the game on the card, and the image's manifest", ok,
                         f"{self.report.wheel_files} files, {self.report.wheel_lab_modules} of the lab; "
                         f"{clone or 'no clone'}; manifest: {' '.join(said) or 'none'}")  # fmt: skip

    NETWORK_UNITS = "systemd-networkd.service systemd-resolved.service spit-arcade-uplink.service"

    def network_now(self) -> tuple[list[str], list[str], str]:
        """What listens (`ss -Htulpn`: address and program), the links' global addresses, and the
        network units' states."""
        listening = [" ".join(line.split()[4:5] + line.split()[6:7])
                     for line in self.vm.out("ss -Htulpn").splitlines() if line.strip()]
        addresses = [" ".join(line.split()[1:4]) for line in
                     self.vm.out("ip -o addr show scope global").splitlines() if line.strip()]
        units = " ".join(self.vm.out(f"systemctl is-active {self.NETWORK_UNITS} || true").split())
        return listening, addresses, units

    def venue(self) -> None:
        """Off: nothing listens, no link has an address, the network units are not running. Then a
        venue made on the host (spit-arcade venue init: a real Mosquitto with its TLS and ACLs, and the
        operator's view watching it), the cabinet's folder of it put on the boot partition as
        spit-venue/, and a restart: the folder taken, Ethernet by DHCP, the uplink up and its heartbeat
        at the view through the broker, its exposure read in the booted system. Then coins and a paid game:
        the earnings read from the game's store at the view, and no fault in the heartbeat. Off again
        (and free play again) at the end."""
        import base64
        import tempfile

        from .venue_broker import venue_broker, wait_seen

        report = self.report
        report.venue_off_listening, report.venue_off_addresses, report.venue_off_units = self.network_now()
        nic = [n for n in self.vm.out("ls /sys/class/net").split() if n != "lo"]
        report.note("venue off: nothing listens, no link configured, no network unit running",
                    bool(nic) and not report.venue_off_listening and not report.venue_off_addresses
                    and report.venue_off_units == "inactive inactive inactive",
                    f"links {nic}; listening {report.venue_off_listening}; addresses {report.venue_off_addresses}; "
                    f"units {report.venue_off_units!r}")
        with tempfile.TemporaryDirectory() as made, venue_broker(Path(made), self.vm) as venue:
            writes = " && ".join(f"echo {base64.b64encode(f.read_bytes()).decode()} | base64 -d "
                                 f">/boot/efi/spit-venue/{f.name}" for f in sorted(venue.folder.iterdir()))
            rc, said = self.vm.sh(f"/usr/local/libexec/spit-esp-rw sh -c "
                                  f"'mkdir -p /boot/efi/spit-venue && {writes}'")
            if rc != 0:
                report.note("venue on: the uplink up, Ethernet by DHCP", False,
                            f"the folder not written: {said[-300:]}")
                return
            books = Books(self)
            priced, why = self.vm.sh("runuser -u spit -- spit-arcade settings set --cabinet free_play false")
            self.restart()  # (with the broker's address forwarded; and a credit a game, the setting read)
            started = time.monotonic()
            with contextlib.suppress(VmError):  # (what it came to is looked at below)
                wait_for("the uplink and an address", lambda: "spit-arcade-uplink.service" in self.vm.out(
                    "systemctl list-units --state=active --plain --no-legend spit-arcade-uplink.service")
                    and bool(self.vm.out("ip -o -4 addr show scope global")), 180, 2)
            seen = wait_seen(venue, 240)
            report.venue_published_s = round(time.monotonic() - started, 1) if seen.get("version") else None
            paid = False
            if seen.get("version") and priced == 0:  # the uplink up and read once: what goes in now is today's
                before = int(seen.get("coins_lifetime") or 0)
                report.venue_coins_sent = VENUE_COINS
                books.burst(VENUE_COINS)
                coined = time.monotonic()
                time.sleep(VENUE_COINS * (COIN_HOLD_MS + COIN_GAP_MS) / 1000)  # (the burst runs in the machine)
                with contextlib.suppress(VmError):
                    self.to_play()  # a game paid with them
                    paid = True
                seen = wait_seen(venue, 180, lambda c: int(c.get("coins_lifetime") or 0) >= before + VENUE_COINS)
                if int(seen.get("coins_lifetime") or 0) >= before + VENUE_COINS:
                    report.venue_earnings_s = round(time.monotonic() - coined, 1)
            report.venue_view_saw = {k: seen.get(k) for k in ("version", "messages", "uptime_s", "faults",
                                                              "coins_today", "coins_lifetime", "games_lifetime")}
            broker_log = venue.log()
        report.venue_on_listening, report.venue_on_addresses, report.venue_on_units = self.network_now()
        out = self.vm.out("systemd-analyze security spit-arcade-uplink.service --no-pager | tail -n1")
        report.uplink_exposure_line = out
        with contextlib.suppress(ValueError, IndexError):
            report.uplink_exposure = float(out.split("exposure level for")[1].split(":")[1].split()[0])
        report.uplink_said = self.vm.out("journalctl -b -o cat --no-pager -u spit-arcade-venue-setup "
                                         "-u spit-arcade-uplink | tail -n 6")[-800:]
        # Resolved's stub on loopback, its mDNS (to find the broker's .local name) and networkd's DHCP
        # client: nothing else (seen booted: 127.0.0.53/54:53, *:5353, 10.0.2.15%enp0s1:68).
        loopback_only = all(entry.split(":")[0].startswith(("127.", "[::1]")) or
                            re.search(r":(5353|68) users:\(\(\"systemd-(resolve|network)\"", entry)
                            for entry in report.venue_on_listening)
        report.note("venue on: the uplink up, Ethernet by DHCP",
                    report.venue_on_units == "active active active"
                    and any("10.0.2." in a for a in report.venue_on_addresses) and loopback_only
                    and report.uplink_exposure is not None,
                    f"units {report.venue_on_units!r}; addresses {report.venue_on_addresses}; listening "
                    f"{report.venue_on_listening}; {out}; {report.uplink_said!r}")
        connected = [line for line in broker_log.splitlines() if "table-1" in line][-3:]
        report.note("venue on: the uplink's heartbeat at the operator's view, through the venue's broker",
                    report.venue_published_s is not None,
                    f"the view saw {report.venue_view_saw}; the broker said {connected}")
        coins = (f"free play not turned off ({why[-200:]!r}): no coins" if priced else
                 f"{report.venue_coins_sent} coins put in, a paid game {'started' if paid else 'not started'}")
        report.note("venue on: the earnings at the operator's view, read from the game's store, no fault",
                    report.venue_earnings_s is not None and report.venue_view_saw.get("faults") == [],
                    f"{coins}; the view saw {report.venue_view_saw}")
        # Off again (the folder and the cabinet's copy gone, the units stopped) for whatever runs next.
        self.vm.sh("/usr/local/libexec/spit-esp-rw rm -rf /boot/efi/spit-venue; "
                   "rm -rf /var/lib/spit-arcade/venue-setup /var/lib/spit-arcade/venue; "
                   f"systemctl stop {self.NETWORK_UNITS} systemd-networkd.socket || true")
        books.set_free_play(True)

    def close(self) -> None:
        if self.pad is not None:
            with contextlib.suppress(Exception):
                assert self.pad.stdin is not None
                self.pad.stdin.write("quit\n")
                self.pad.stdin.flush()
                self.pad.wait(timeout=5)
            if self.pad.poll() is None:
                self.pad.kill()


def image_mb(path: Path) -> float:
    return round(path.stat().st_size / 2**20, 1)


def last_partition_mb(path: Path) -> float | None:
    """The size of the image's last partition (the state partition), from its partition table."""
    with contextlib.suppress(subprocess.CalledProcessError, ValueError, KeyError, IndexError, OSError):
        table = json.loads(subprocess.run(["sfdisk", "--json", str(path)], capture_output=True, check=True).stdout)
        return round(int(table["partitiontable"]["partitions"][-1]["size"]) * 512 / 2**20, 1)
    return None
