"""The virtual cabinet updated from a USB stick (issue 23): the stick plugged in and pulled, bundles
installed by the cabinet's RAUC, a rollback, bad bundles refused, power cuts mid-update, and the
game's state across it all.

Until the service menu drives it (the updater unit and its Update screen), the install is driven
here as root through the test agent: `rauc install` of a bundle on the mounted stick, then a reboot,
as the updater will do. What is measured is what the slots, RAUC, boot counting and the state
partition do.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from appliance.updater.server import CHECKING
from appliance.updater.slots import BOUND_S

from .bundles import Bundles
from .checks import ENTRIES, JOURNALS, LINES, UNIT, VmError, wait_for

if TYPE_CHECKING:
    from .checks import Cabinet

STICK = "/run/spit-arcade/stick"
VENV_PYTHON = "/opt/spit-arcade/venv/bin/python"
# The service menu's side of the updater's socket (appliance/updater/protocol.py), run in the cabinet:
# `look`, `status`, or `install NAME [confirm]`; every reply a JSON line, with the guest's clock when
# it came ("t": the install's phases are timed by it).
ASK = """import json, sys, time
from appliance.updater.protocol import Client
req, fields = sys.argv[1], {}
if req == "install":
    fields = {"name": sys.argv[2], "confirm_downgrade": len(sys.argv) > 3}
with Client(timeout_s=None) as client:
    client.send(req, **fields)
    for reply in client.replies():
        print(json.dumps({**reply, "t": round(time.time(), 3)}), flush=True)
        if req != "install" or reply.get("event") == "done":
            break
"""
BOUND_FILE = "/var/lib/spit-arcade/vm-boot-ok-bound"  # the test image's boot-ok reads it (inside.sh)
COIN_LINE = 11  # the coin mech's line (appliance/inputs/default.toml: coin = 11)
SERVICE_LINE = 9  # the service button's line (appliance/inputs/default.toml: service = 9)
STORE = "/var/lib/spit-arcade/store.sqlite"
BOOT_CHECK_RECORD = "/var/lib/spit-arcade/boot-ok-failed"  # boot-ok.sh's record of the slot it marked bad
# The processor time of the units an install shares the cabinet with (systemd's cgroup accounting):
# the game (drawing the service menu, emulated: Mesa's llvmpipe), the updater (its check) and RAUC.
CPU_UNITS = ("spit-arcade.service", "spit-arcade-updater.service", "rauc.service")
# The boot as the guest's clock saw it: now, the seconds since the kernel started, what systemd-boot and
# systemd say of firmware and loader, when the game said READY (after its first frame), the boot check's
# "the game is up after N s" (a slot's trial boot only), and the disk's flushes (/sys/block/vda/stat:
# flush requests and their milliseconds, fields 16 and 17).
BOOT_TIMES = (
    "date +%s.%N; cut -d' ' -f1 /proc/uptime; systemd-analyze time 2>&1 | head -n 1; "
    "echo ready $(systemctl show -p ActiveEnterTimestampMonotonic --value spit-arcade.service); "
    "journalctl -b -o cat --no-pager -u spit-arcade-boot-ok | grep 'the game is up after' | tail -n 1; "
    "awk '{print $16, $17}' /sys/block/vda/stat; stat -c %Y " + BOOT_CHECK_RECORD + " 2>/dev/null || echo -"
)
CONFIG = "/var/lib/spit-arcade/config.toml"
DRIVEN = (
    "the service menu opened with its button (the game held), then the updater's socket asked as the service "
    "menu asks it (look, install, reboot, status) through the test agent; the power cuts' installs: rauc install "
    "as root"
)
# What the store holds that an update must keep, read as the game's user (read-only, while it runs).
READ_STATE = (
    "import json, sqlite3; db = sqlite3.connect('file:" + STORE + "?mode=ro', uri=True); q = lambda s: "
    "db.execute(s).fetchall(); print(json.dumps({'credits': q('SELECT credits FROM credits'), "
    "'coins': q('SELECT COUNT(*) FROM coins')[0][0], 'games': q('SELECT COUNT(*) FROM games')[0][0], "
    "'high_scores': q('SELECT kind, initials, ms, boot, seq FROM high_scores ORDER BY kind, ms, boot, seq'), "
    "'schema': q('PRAGMA user_version')[0][0]}))"
)


class Updates:
    """The stick and update steps on one cabinet (after the others: slot-agnostic, from whichever
    slot is booted into the other)."""

    def __init__(self, cabinet: Cabinet, bundles: Bundles, stick: Path) -> None:
        self.cab = cabinet
        self.vm = cabinet.vm
        self.report = cabinet.report
        self.bundles = bundles
        self.stick = stick
        self.plugged = False
        self.plugs = 0  # each plug's drive has a name of its own (one left "in use" never blocks the next)
        self.install_times: dict[str, float] = {}  # the last install asked: phases_of_install

    # --- the stick

    def plug(self, read_only: bool = False) -> None:
        """The stick plugged into a USB port (QMP: a drive, then a usb-storage device on it); with
        `read_only`, a stick whose write-protect switch is on."""
        self.plugs += 1
        for command, args in (
            ("blockdev-add", {"driver": "raw", "node-name": f"stickdisk{self.plugs}", "read-only": read_only,
                              "file": {"driver": "file", "filename": str(self.stick.resolve()),
                                       "read-only": read_only}}),
            ("device_add", {"driver": "usb-storage", "id": f"stickusb{self.plugs}", "drive": f"stickdisk{self.plugs}",
                            "bus": "xhci.0", "removable": True}),
        ):  # fmt: skip
            try:
                self.vm.qmp(command, **args)
            except Exception as error:  # qemu.qmp's ExecuteError: what QEMU said
                raise VmError(f"{command}: {error}") from None
        self.plugged = True

    def pull(self) -> None:
        """The stick pulled out (QMP device_del, then its drive gone)."""
        with contextlib.suppress(Exception):
            self.vm.qmp("device_del", id=f"stickusb{self.plugs}")
        for _ in range(40):  # the drive is free once the guest has let go of the device
            try:
                self.vm.qmp("blockdev-del", **{"node-name": f"stickdisk{self.plugs}"})
                break
            except Exception:  # "Node stickdisk is in use"
                time.sleep(0.5)
        self.plugged = False

    def mounted(self) -> str:
        """What the cabinet has at the stick's mount point: 'SOURCE FSTYPE OPTIONS', or ''."""
        return self.vm.out(f"findmnt -no SOURCE,FSTYPE,OPTIONS {STICK} || true")

    def wait_mounted(self, timeout: float = 60) -> str:
        wait_for("the stick mounted", lambda: bool(self.mounted()), timeout, 0.5)
        return self.mounted()

    def stick_step(self) -> None:
        """Plugged in: its first file system (FAT32, the bundles on it) at /run/spit-arcade/stick, read by
        root, written by the game's user from inside the game's own sandbox, nothing else of it mounted;
        still there after the game restarts; gone when pulled."""
        self.plug()
        try:
            mount = self.wait_mounted()
        except VmError as error:
            self.report.note("a USB stick mounted", False, f"{error}; {self.vm.out('journalctl -b -n 20 -o cat')}")
            self.pull()
            return
        listed = self.vm.out(f"ls {STICK}").split()
        others = self.vm.out("grep -c '^/dev/sd' /proc/mounts || true")
        pid = self.cab.main_pid()
        probe = f"{STICK}/spit-arcade-write-test"
        writes = self.vm.sh(
            f"nsenter -t {pid} -m setpriv --reuid=spit --regid=spit --init-groups"
            f" sh -c 'echo ok >{probe} && cat {probe}'"
            f" && rm {probe}"
        )
        kill_rc, _ = self.vm.sh(f"kill -9 {pid}")
        with contextlib.suppress(VmError):
            wait_for("the game back", lambda: self.cab.ready() and self.cab.main_pid() not in (0, pid), 120)
        after_restart = self.vm.out(f"ls {STICK} 2>/dev/null || true").split()
        self.report.stick_mounted = (
            self.bundles.good.name in listed and others == "1" and writes[0] == 0 and "ok" in writes[1]
            and "vfat" in mount and "noexec" in mount and sorted(after_restart) == sorted(listed) and kill_rc == 0
        )  # fmt: skip
        self.report.note(
            "a USB stick mounted at /run/spit-arcade/stick",
            self.report.stick_mounted,
            f"{mount}; {len(listed)} files; {others} /dev/sd* mounted; the game's user writes: rc {writes[0]} "
            f"{writes[1][-200:]!r}; after the game's restart {len(after_restart)} files",
        )
        self.pull()
        try:
            wait_for("the stick unmounted", lambda: not self.mounted(), 60, 0.5)
            left = self.vm.out("grep -c '^/dev/sd' /proc/mounts || true")
            self.report.stick_pulled = left == "0"
        except VmError:
            self.report.stick_pulled = False
        self.report.note("the stick pulled: unmounted", self.report.stick_pulled, self.mounted() or "nothing mounted")

    # --- looking at the cabinet

    def booted(self) -> str:
        return self.cab.slot_states().get("booted", "")

    def other(self) -> str:
        return {"A": "B", "B": "A"}.get(self.booted(), "")

    def slot_print(self, slot: str) -> tuple[str, str, str]:
        """What a slot holds: a fingerprint of its first 4 MiB (where an install writes first), its
        loader entries and RAUC's state of it."""
        device = f"/dev/disk/by-partlabel/spit-root-{slot.lower()}"
        head = self.vm.out(f"head -c 4194304 {device} | sha256sum | cut -c1-16")
        entries = self.vm.out(f"ls {ENTRIES} | grep -i 'spit-{slot.lower()}' || true")
        return head, entries.replace("\n", ","), self.cab.slot_states().get(slot, "")

    def state(self) -> dict[str, Any]:
        """The game's state that an update must keep: the store's credits, coins, games and high
        scores (read as the game's user), the settings file and the journals' names."""
        said = self.vm.out(f'setpriv --reuid=spit --regid=spit --init-groups python3 -c "{READ_STATE}"')
        found: dict[str, Any] = {}
        with contextlib.suppress(ValueError):
            found = dict(json.loads(said))
        found["config"] = self.vm.out(f"sha256sum {CONFIG} | cut -c1-16")
        found["journals"] = sorted(self.vm.out(f"ls {JOURNALS}").split())
        found["files"] = int(self.vm.out("find /var/lib/spit-arcade -type f | wc -l") or 0)
        return found

    @staticmethod
    def kept(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        """What of `before` an update lost: [] when all is there."""
        lost = [key for key in ("credits", "coins", "high_scores", "config") if before.get(key) != after.get(key)]
        if after.get("games", -1) < before.get("games", 0):
            lost.append("games")
        lost += [f"journal {name}" for name in before.get("journals", []) if name not in after.get("journals", [])]
        if "credits" not in after:
            lost.append("the store unreadable")
        return lost

    def credits_and_scores(self) -> None:
        """Coins in through the coin mech's line, and a high score written to the store as the game's user."""
        for _ in range(3):
            self.vm.request({"press": COIN_LINE, "hold_ms": 100}, timeout=10)
            time.sleep(0.4)
        insert = (
            "import sqlite3, time; db = sqlite3.connect('" + STORE + "'); "
            "db.execute('INSERT OR IGNORE INTO high_scores "
            "(boot, seq, wall, kind, initials, ms, team, runner, date) VALUES (0, 900001, ?, \\'sprint\\', \\'VMU\\', "
            "4321.0, 1, 1, \\'2026-11-25\\')', (time.time(),)); db.commit()"
        )
        self.vm.sh(f'setpriv --reuid=spit --regid=spit --init-groups python3 -c "{insert}"')

    # --- installing

    def open_service_menu(self) -> None:
        """The service menu opened with its button, as the operator does to update: the game
        underneath is held (its clock stands still), so a game in progress waits out the install and
        resumes after the restart. (Asked while a game was played, the install took 704 s on the
        emulated, loaded cabinet, and the game's 90 s idle timeout ended the game meanwhile.)"""
        if not self.cab.status().startswith("service menu"):
            self.vm.request({"press": SERVICE_LINE, "hold_ms": 100}, timeout=10)
        wait_for("the service menu", lambda: self.cab.status().startswith("service menu"),
                 max(60.0, 4 * self.frame_s()), 1)  # fmt: skip


    def install(self, bundle: Path, timeout: float = 2400) -> tuple[int, str, float]:
        """`rauc install` of a bundle on the stick (rc, its last words, seconds)."""
        started = time.monotonic()
        rc, said = self.vm.sh(
            f"rauc install {STICK}/{bundle.name} >/run/rauc-install.out 2>&1; rc=$?; tail -n 5 /run/rauc-install.out;"
            " exit $rc",
            timeout=timeout,
        )
        return rc, said, round(time.monotonic() - started, 1)

    def install_asked(self, bundle: Path, timeout: float = 2400) -> tuple[bool, str, float]:
        """A bundle installed as the service menu installs it: the updater asked over its socket (it
        checks every block, then has RAUC's service install it). (ok, its words, seconds)"""
        started = time.monotonic()
        cpu_before = self.cpu_s()
        replies = self.ask("install", bundle.name, timeout=timeout)
        cpu_after = self.cpu_s()
        reply = replies[-1]
        took = round(time.monotonic() - started, 1)
        self.install_times = self.phases_of_install(replies)
        for unit, seconds in cpu_after.items():  # (the updater may have started for this install: from 0)
            begun = cpu_before.get(unit, 0.0) if seconds >= cpu_before.get(unit, 0.0) else 0.0
            self.install_times[f"cpu_s_{unit}"] = round(seconds - begun, 1)
        if reply.get("ok") is not True:
            return False, f"{reply.get('refused') or reply} {reply.get('detail', '')}", took
        return True, f"{reply.get('from')} -> {reply.get('to')}, signed by {reply.get('signer')}", took

    @staticmethod
    def phases_of_install(replies: list[dict[str, Any]]) -> dict[str, float]:
        """From the updater's replies, timed by the guest's clock: its check of every block (from its
        first progress to RAUC's first), RAUC's install (to the end), and when it ended ("done_t")."""
        checking = [r["t"] for r in replies if r.get("event") == "progress" and r.get("step") == CHECKING and "t" in r]
        rauc = [r["t"] for r in replies if r.get("event") == "progress" and r.get("step") != CHECKING and "t" in r]
        done = [r["t"] for r in replies if r.get("event") == "done" and "t" in r]
        times: dict[str, float] = {}
        if checking and done:
            times["check_s"] = round((rauc[0] if rauc else done[-1]) - checking[0], 1)
        if rauc and done:
            times["rauc_s"] = round(done[-1] - rauc[0], 1)
        if done:
            times["done_t"] = done[-1]
        return times

    def cpu_s(self) -> dict[str, float]:
        """Each of CPU_UNITS' processor seconds so far (a unit not running: left out)."""
        said = self.cab.agent_out(" ".join(f"systemctl show -p CPUUsageNSec --value {unit};" for unit in CPU_UNITS))
        found: dict[str, float] = {}
        for unit, value in zip(CPU_UNITS, said.splitlines(), strict=False):
            with contextlib.suppress(ValueError):
                found[unit.removesuffix(".service")] = round(int(value) / 1e9, 1)
        return found

    def boot_times(self) -> dict[str, float]:
        """This boot as the guest's clock saw it (BOOT_TIMES): "kernel_t" (its start), "firmware_s" and
        "loader_s" (systemd-analyze, from systemd-boot), "game_ready_s" (the game's READY) and "game_up_s"
        (the boot check's), each from the kernel's start, the disk's "flushes" and "flush_ms" so far,
        "marked_bad_t" (the boot check's record)."""
        lines = self.cab.agent_out(BOOT_TIMES).splitlines()
        found: dict[str, float] = {}
        with contextlib.suppress(ValueError, IndexError):
            found["kernel_t"] = round(float(lines[0]) - float(lines[1]), 2)
        said = " ".join(lines)
        for key in ("firmware", "loader"):
            hit = re.search(rf"([\d.]+)(ms|s) \({key}\)", said)
            if hit:
                found[f"{key}_s"] = round(float(hit.group(1)) / (1000 if hit.group(2) == "ms" else 1), 1)
        hit = re.search(r"the game is up after ([\d.]+) s", said)
        if hit:
            found["game_up_s"] = float(hit.group(1))
        hit = re.search(r"ready ([1-9]\d*)", said)
        if hit:
            found["game_ready_s"] = round(int(hit.group(1)) / 1e6, 1)
        with contextlib.suppress(ValueError, IndexError):
            flushes, flush_ms = lines[-2].split()
            found["flushes"], found["flush_ms"] = float(flushes), float(flush_ms)
        with contextlib.suppress(ValueError, IndexError):
            found["marked_bad_t"] = float(lines[-1])
        return found

    @staticmethod
    def phases(install: dict[str, float], before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
        """An install's and the next boots' seconds, all by the guest's clock: the updater's check and
        RAUC's install; from the install's end to the new kernel (the restart: shut down, firmware,
        loader; for a rollback also the tried slot's boot, its failed starts and its restart, split at
        the boot check's mark); that boot's firmware and loader; from the kernel to the game up (the boot
        check's); the disk's flushes (and the guest's milliseconds waiting for them) before and after."""
        out = {key: value for key, value in install.items() if key.endswith("_s") or key.startswith("cpu_s_")}
        done, kernel = install.get("done_t"), after.get("kernel_t")
        if done is not None and kernel is not None:
            out["install_end_to_kernel_s"] = round(kernel - done, 1)
            marked = after.get("marked_bad_t")
            if marked is not None and done < marked < kernel:
                out["install_end_to_marked_bad_s"] = round(marked - done, 1)
                out["marked_bad_to_kernel_s"] = round(kernel - marked, 1)
        for key in ("firmware_s", "loader_s", "game_ready_s", "game_up_s"):
            if key in after:
                out[key] = after[key]
        if "flushes" in before and "flushes" in after:  # (the counts start again at each boot)
            out["guest_flushes_before_install"] = before["flushes"]
            out["guest_flush_ms_before_install"] = before["flush_ms"]
            out["guest_flushes_new_boot"], out["guest_flush_ms_new_boot"] = after["flushes"], after["flush_ms"]
        return out

    def reboot(self, asked: bool = False) -> None:
        """A reboot from inside (the stick stays in): with `asked`, the updater's `reboot`, as the
        service menu restarts into an installed slot; else systemctl."""
        reply: dict[str, Any] = {}
        if asked:
            with contextlib.suppress(VmError):
                reply = self.ask("reboot", timeout=30)[-1]
            if reply.get("ok") is False:
                print(f"cabinet-test: the updater did not restart: {reply}", file=sys.stderr, flush=True)
        with contextlib.suppress(VmError):
            if not asked or reply.get("ok") is False:
                self.vm.sh("systemctl reboot --no-block", timeout=5)
        with contextlib.suppress(OSError):
            if self.vm._agent is not None:
                self.vm._agent.close()
        self.vm._agent = None  # (opened again by the next look: Cabinet.agent_out)
        self.vm.started_at = time.monotonic()

    def on_slot(self, slot: str, timeout: float) -> float:
        """Seconds until `slot` runs with the game up and showing a scene."""
        return wait_for(
            f"slot {slot} booted with the game up",
            lambda: f"rauc.slot={slot}" in self.cab.agent_out("cat /proc/cmdline") and self.cab.ready()
            and self.cab.status().split(":")[0] in ("title", "notices", "resumed", "play"),
            timeout, 2,
        )  # fmt: skip

    def up(self, timeout: float) -> float:
        """Seconds until the game is up on whichever slot, showing a scene."""
        return wait_for(
            "the game up",
            lambda: self.cab.agent_out("true") == "" and self.cab.ready()
            and self.cab.status().split(":")[0] in ("title", "notices", "resumed", "play"),
            timeout, 2,
        )  # fmt: skip

    def frame_s(self) -> float:
        """The game's own worst frame since it started on this boot, in seconds (its one line "N frames a
        second, frame p99 M ms", a few seconds after its start); 0.0 until it has said it."""
        said = self.vm.out(f"journalctl -u {UNIT} -b -o cat --no-pager | grep 'frames a second, frame p99' || true")
        found = re.findall(r"frame p99 ([\d.]+) ms", said)
        return float(found[-1]) / 1000 if found else 0.0

    def resumed_after_update(self, journal: str) -> bool:
        """After the restart into the new slot: the start-up notices taken away, "game resumed", both
        players back at the table, and the next press journalled in the same game. The waits are what
        the game says of its own frames on this boot: on the emulated, loaded cabinet a new slot's first
        frames took 13.7 s each (p99; 0.1 a second), so a scene that comes a frame or two after a press
        is given four of those frames, at least 20 s (the waits of the other steps)."""
        with contextlib.suppress(VmError):
            wait_for("the game's frame rate line", lambda: self.frame_s() > 0, 120, 2)
        scene_s = max(20.0, 4 * self.frame_s())
        self.report.update_scene_wait_s = round(scene_s, 1)
        if self.cab.status().startswith("notices:"):
            self.cab.press(1, "spit")  # the start-up notices go at the first press
        try:
            self.cab.wait_scene("resumed", scene_s)
            for _ in range(3):  # both SPIT! (again, as people do, if one landed in the lockout)
                self.cab.press(1, "spit")
                self.cab.press(2, "spit")
                with contextlib.suppress(VmError):
                    self.cab.wait_scene("play", scene_s)
                    break
            else:
                raise VmError("the play scene: not back after SPIT! from both")
        except VmError as error:
            raise VmError(f"{error} (waits of {scene_s:.0f} s); on the screen: {self.cab.status()!r}") from None
        reply = self.vm.request({"press": LINES[(1, "pile1")], "hold_ms": 70, "watch": JOURNALS,
                                 "wait_ms": round(scene_s * 1000)}, timeout=scene_s + 10)  # fmt: skip
        return int(reply.get("latency_ns", -1)) >= 0 and self.cab.newest_journal() == journal

    def set_bound(self) -> float:
        """A new slot's bound to show the title (its boot-ok check), from this run's first boot: three
        times its time to the title, at least the cabinet's 300 s (the test image reads it from the
        state partition: systemd/image/inside.sh). The waits for a new slot follow from it."""
        measured = self.report.boot_to_title_s or self.report.boot_to_ready_s or 0.0
        bound = max(float(BOUND_S), round(3 * measured))
        self.vm.sh(f"echo {bound:.0f} >{BOUND_FILE}")
        self.report.update_boot_ok_bound_s = bound
        return bound

    def blessed(self, slot: str, timeout: float = 900) -> bool:
        entry = f"spit-{slot.lower()}.conf"
        with contextlib.suppress(VmError):
            wait_for(f"slot {slot} blessed", lambda: entry in self.vm.out(f"ls {ENTRIES}").split(), timeout, 3)
            return True
        return False

    def update_step(self) -> None:
        """Credits, a high score and a game in progress; the newer bundle installed from the stick into
        the other slot; a reboot: the new slot booted, blessed good, the state intact, the game resumed.
        Then a bundle whose game never comes up: installed, booted, left; back on the slot before."""
        journal = self.cab.to_play()
        self.cab.play_some(6, [])
        self.credits_and_scores()
        before = self.state()
        if self.plugged:  # (from the step before: plugged in again, for the time from the plug)
            self.pull()
            wait_for("the stick unmounted", lambda: not self.mounted(), 60, 0.5)
        plugged_at = time.monotonic()
        self.plug()
        self.report.update_tried += 1
        try:
            self.wait_mounted()
        except VmError as error:
            self.report.note("an update from the stick", False, str(error))
            return
        old, new = self.booted(), self.other()
        bound = self.set_bound()
        before_install = self.boot_times()
        try:
            self.open_service_menu()
        except VmError as error:
            self.report.note("an update from the stick", False, f"{error}; on the screen: {self.cab.status()!r}")
            return
        installed, said, took = self.install_asked(self.bundles.good)
        self.report.update_install_s = took
        if not installed:
            self.report.note("an update from the stick", False, f"the updater: {said[-400:]}")
            return
        self.reboot(asked=True)
        try:
            self.on_slot(new, 2 * bound)  # (a shutdown, then the boot within its bound, or rolled back)
            self.report.update_s = round(time.monotonic() - plugged_at, 1)
            resumed = self.resumed_after_update(journal)
        except VmError as error:
            self.report.note("an update from the stick", False, f"{error}; {self.cab.what_happened()}")
            return
        good = self.blessed(new, bound)
        self.report.update_phases_s = self.phases(self.install_times, before_install, self.boot_times())
        after = self.state()
        lost = self.kept(before, after)
        version = self.vm.out("cat /etc/spit-arcade/bundle-version 2>/dev/null || true")
        reported = str((self.ask("status", timeout=120)[-1].get("booted") or {}).get("version", ""))
        states = self.cab.slot_states()
        ok = good and resumed and not lost and version == reported == self.bundles.version and states.get(new) == "good"
        self.report.update_applied += int(ok)
        self.report.update_state_kept = not lost
        self.report.note(
            f"an update from the stick: {old} -> {new}, {self.bundles.base_version} -> {version or '?'} "
            f"(the game says {reported or '?'})",
            ok,
            f"installed in {took} s; stick in to the new slot's game {self.report.update_s} s; blessed {good}; "
            f"rauc {states}; game resumed {resumed}; state {'intact' if not lost else 'LOST ' + ', '.join(lost)} "
            f"({before.get('coins')} coins, credits {before.get('credits')}, {len(before.get('high_scores', []))} "
            f"high scores, {len(before.get('journals', []))} journals)",
        )
        if ok:
            self.rollback_step(new)

    def rollback_step(self, good_slot: str) -> None:
        before = self.state()
        broken = self.other()
        bound = self.set_bound()
        self.report.update_rollback_tried += 1
        with contextlib.suppress(VmError):  # (the game held meanwhile, as for the update)
            self.open_service_menu()
        before_install = self.boot_times()
        installed, said, _ = self.install_asked(self.bundles.broken)
        if not installed:
            self.report.note("a bundle whose game never comes up: rolled back", False, f"the updater: {said[-400:]}")
            return
        self.reboot(asked=True)
        started = time.monotonic()
        try:
            wait_for(f"slot {broken} tried", lambda: f"rauc.slot={broken}" in self.cab.agent_out("cat /proc/cmdline"),
                     2 * bound, 2)  # fmt: skip
            tried = True
        except VmError:
            tried = False
        try:
            self.on_slot(good_slot, 3 * bound)  # (the broken slot tried within its bound, then the good one booted)
        except VmError as error:
            why = f"{error}; {self.cab.what_happened()}"
            self.report.note("a bundle whose game never comes up: rolled back", False, why)
            return
        self.report.update_rollback_s = round(time.monotonic() - started, 1)
        self.report.update_rollback_phases_s = self.phases(self.install_times, before_install, self.boot_times())
        states = self.cab.slot_states()
        after = self.state()
        lost = self.kept(before, after)
        last = self.ask("status", timeout=120)[-1].get("last") or {}  # what the service menu shows after it
        self.report.update_rollback_why = why = str(last.get("why", ""))
        said_why = last.get("outcome") == "rolled_back" and self.names_it(why, bound)
        said_why = said_why and last.get("bound_s") == round(bound)
        ok = tried and states.get(broken) == "bad" and states.get("booted") == good_slot and not lost and said_why
        self.report.update_rolled_back += int(ok)
        self.report.update_state_kept = self.report.update_state_kept and not lost
        self.report.note(
            "a bundle whose game never comes up: rolled back",
            ok,
            f"{broken} tried {tried}; back on {good_slot} {self.report.update_rollback_s} s after the reboot; "
            f"rauc {states}; state {'intact' if not lost else 'LOST ' + ', '.join(lost)}; the updater's status: "
            f"{last}",
        )

    def names_it(self, why: str, bound: float) -> bool:
        """A rollback's words name the versions the games report (the one that did not come up, the one
        gone back to) and the bound this run's boot check used."""
        return (why.startswith(f"{self.bundles.broken_version} did not come up") and f"within {bound:.0f} s" in why
                and why.endswith(f"went back to {self.bundles.version} by itself"))  # fmt: skip

    def ask(self, *args: str, timeout: float = 600) -> list[dict[str, Any]]:
        """The updater asked as the service menu asks it (its socket, protocol v1): every reply."""
        self.vm.sh(f"cat >/run/spit-vm-ask.py <<'EOF'\n{ASK}EOF")
        _, said = self.vm.sh(f"{VENV_PYTHON} /run/spit-vm-ask.py {' '.join(args)}", timeout=timeout)
        replies = []
        for line in said.splitlines():
            with contextlib.suppress(ValueError):
                replies.append(json.loads(line))
        return replies or [{"ok": False, "refused": f"no reply: {said[-300:]}"}]

    def bad_bundles_step(self) -> None:
        """The bad bundles on the stick, each asked for as the service menu asks the updater: each is
        refused in words, and the other slot is as it was (not a byte of it written, its loader entry
        and RAUC's state unchanged, the same slot booted). Then what the stick itself can do wrong:
        pulled during the install, and write-protected (read-only: still read, still refused)."""
        if not self.plugged:
            self.plug()
        self.wait_mounted()
        other, booted = self.other(), self.booted()
        said_all = []
        looked = self.ask("look")[-1]
        listed = [b.get("name") for b in looked.get("bundles", [])]
        both = [self.bundles.broken.name, self.bundles.good.name]  # two good bundles: the newest first
        self.report.bundles_listed_newest_first = [name for name in listed if name in both] == both
        self.report.note(
            "two bundles on one stick: both listed, the newest first",
            self.report.bundles_listed_newest_first,
            f"the updater lists {listed}",
        )
        tries: list[tuple[str, Path, str]] = [(what, bundle, "") for what, bundle in self.bundles.bad.items()]
        tries += [("the stick pulled during the install", self.bundles.good, "pull")]
        for what, bundle, how in tries:
            if how == "pull" and not self.plugged:
                self.plug()
                self.wait_mounted()
            before = self.slot_print(other)
            reply = self.install_pulled(bundle) if how == "pull" else self.ask("install", bundle.name)[-1]
            after = self.slot_print(other)
            refused = reply.get("ok") is False and bool(reply.get("refused")) and self.booted() == booted
            refused = refused and before[1:] == after[1:]  # the loader entries and RAUC's states as they were
            written = before[0] != after[0]
            if how != "pull":  # (pulled: RAUC may have begun; the other slot stays bad, not primary)
                refused = refused and not written
            self.report.bundles_bad_tried += 1
            self.report.bundles_refused += int(refused)
            if written:
                self.report.bundles_bad_wrote_slot.append(what)
            verdict = "refused" if refused else "NOT refused"
            said_all.append(f"{what}: {verdict}{', the other slot written' if written else ''} "
                            f"({reply.get('refused') or reply})")  # fmt: skip
        self.read_only_stick()
        self.report.note(
            "bad bundles refused through the updater, the other slot untouched",
            self.report.bundles_refused == self.report.bundles_bad_tried > 0,
            "; ".join(said_all),
        )

    def install_pulled(self, bundle: Path) -> dict[str, Any]:
        """An install asked for, the stick pulled once the updater has begun reading the bundle."""
        self.vm.sh(f"cat >/run/spit-vm-ask.py <<'EOF'\n{ASK}EOF")
        out = "/run/spit-vm-pulled.out"
        self.vm.sh(
            f"rm -f {out}; systemd-run --unit=spit-vm-pulled-{self.plugs} sh -c "
            f"'{VENV_PYTHON} /run/spit-vm-ask.py install {bundle.name} >{out} 2>&1'"
        )
        with contextlib.suppress(VmError):
            wait_for("the install begun", lambda: '"progress"' in self.vm.out(f"cat {out}"), 120, 0.5)
        self.pull()
        with contextlib.suppress(VmError):
            wait_for("the install ended", lambda: '"done"' in self.vm.out(f"cat {out}"), 900, 2)
        replies = []
        for line in self.vm.out(f"cat {out}").splitlines():
            with contextlib.suppress(ValueError):
                replies.append(json.loads(line))
        return replies[-1] if replies else {"ok": None, "refused": "no end of the install"}

    def read_only_stick(self) -> None:
        """A write-protected stick: mounted read-only, its bundles still listed and the bad ones still
        refused (the updater only reads a stick; a full stick is the same to it)."""
        if self.plugged:
            self.pull()
            with contextlib.suppress(VmError):
                wait_for("the stick unmounted", lambda: not self.mounted(), 60, 0.5)
        self.plug(read_only=True)
        try:
            mount = self.wait_mounted()
        except VmError as error:
            self.report.note("a read-only stick: read, bad bundles refused", False, str(error))
            self.pull()
            return
        looked = self.ask("look")[-1]
        named = {b.get("name"): b for b in looked.get("bundles", [])}
        unsigned = self.bundles.bad["unsigned"].name
        self.report.stick_read_only_read = (
            " ro," in f" {mount.split()[-1]}," and self.bundles.good.name in named
            and bool(named.get(unsigned, {}).get("refused"))
        )  # fmt: skip
        self.report.note(
            "a read-only stick: read, bad bundles refused",
            self.report.stick_read_only_read,
            f"{mount}; {len(named)} bundles listed; unsigned: {named.get(unsigned, {}).get('refused')!r}",
        )
        self.pull()
        with contextlib.suppress(VmError):
            wait_for("the stick unmounted", lambda: not self.mounted(), 60, 0.5)

    def power_cuts_step(self, count: int, rng: random.Random) -> None:
        """Power cuts at random moments of an install from the stick, or of the new slot's first boot:
        each next power-on boots a working game (the old slot or the new), the state partition clean
        and the state kept."""
        # A moment of RAUC's own install (what these installs run: no check before it), as the update
        # step measured it, else of the whole install asked, else 300 s; a moment of the new slot's
        # first boot up to its title, as this run's first boot took.
        install_s = self.report.update_phases_s.get("rauc_s") or self.report.update_install_s or 300.0
        first_boot_s = self.report.boot_to_title_s or self.report.boot_to_ready_s or 120.0
        bound = self.set_bound()
        for n in range(count):
            before = self.state()
            if not self.plugged:
                self.plug()
            try:
                self.wait_mounted()
                old, new = self.booted(), self.other()
                during = "the install" if n % 2 == 0 else "the new slot's first boot"
                if n % 2 == 0:
                    self.vm.sh(f"systemd-run --unit=spit-vm-install-{n} rauc install {STICK}/{self.bundles.good.name}")
                    wait = rng.uniform(1.0, install_s)
                else:
                    rc, said, _ = self.install(self.bundles.good)
                    if rc != 0:
                        raise VmError(f"rauc install: {said[-300:]}")
                    self.reboot()
                    wait = rng.uniform(1.0, first_boot_s)
                time.sleep(wait)
            except VmError as error:
                print(f"cabinet-test: update power cut {n + 1}: not set up: {error}", file=sys.stderr)
                continue
            self.vm.power_cut()
            self.plugged = False
            self.report.update_power_cuts_tried += 1
            booted, where, lost, clean = False, "?", ["the machine"], False
            try:
                self.vm.start()
                self.vm.connect_agent(bound)
                self.up(3 * bound)  # (a new slot that did not come up in its bound is left: a reboot, the old slot)
                where = self.cab.agent_out("cat /proc/cmdline").split("rauc.slot=")[-1].split()[0]
                if where == new and not self.blessed(new, bound):
                    raise VmError(f"slot {new} up but not blessed")
                booted = True
                clean = self.cab.state_clean()
                lost = self.kept(before, self.state())
            except VmError as error:
                print(f"cabinet-test: update power cut {n + 1}: {error}; {self.cab.what_happened()}", file=sys.stderr)
            ok = booted and clean and not lost
            self.report.update_power_cuts_booted += int(ok)
            print(
                f"cabinet-test: update power cut {n + 1}/{count}, {wait:.0f} s into {during}: "
                f"{'booted ' + where if booted else 'NOT booted'} (was {old}), state partition "
                f"{'clean' if clean else 'NOT clean'}, state {'kept' if not lost else 'LOST ' + ', '.join(lost)}",
                file=sys.stderr,
                flush=True,
            )
        self.report.note(
            "power cuts during an update",
            self.report.update_power_cuts_booted == self.report.update_power_cuts_tried == count,
            f"{self.report.update_power_cuts_booted}/{count} booted a working game, state clean and kept",
        )
