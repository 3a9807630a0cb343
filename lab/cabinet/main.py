"""`spit-arcade cabinet-test`: build the cabinet's image, boot it under QEMU, play it from outside.

    ./spit cabinet-test                  # build the test image if the tree changed, boot, check all
    ./spit cabinet-test --json           # ... and print the figures as one JSON object, last
    ./spit cabinet-test --if-available   # CI: say plainly why it was skipped where QEMU can't be had

SIGTERM (or Ctrl-C) stops a run: its QEMU is stopped, and it prints what it has (a partial report
whose `stopped` says where) and exits 143 (130 for Ctrl-C).

Needs root (mmdebstrap, mkfs) and Debian's qemu-system-x86, qemu-utils, ovmf, mmdebstrap, e2fsprogs,
dosfstools, mtools and fdisk: installed with apt-get when missing and run as root. The image is
systemd/image/build-image.sh --test; the checks are lab/cabinet/checks.py.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from .books import Books
from .bundles import Bundles, make_bundles, stick_image
from .checks import Cabinet, Report, image_mb, last_partition_mb
from .link import link_network_step, link_unit_step
from .update import DRIVEN, Updates
from .vm import OVMF_CODE, Machine, VmError

TOOLS = {  # command -> Debian package
    "qemu-system-x86_64": "qemu-system-x86",
    "qemu-img": "qemu-utils",
    "mmdebstrap": "mmdebstrap",
    "mkfs.ext4": "e2fsprogs",
    "mkfs.vfat": "dosfstools",
    "mcopy": "mtools",
    "sfdisk": "fdisk",
}


class Stopped(Exception):
    """A signal to stop came (SIGTERM, Ctrl-C): the run ends, stopping its QEMU, with what it has."""

    def __init__(self, number: int) -> None:
        super().__init__(signal.Signals(number).name)
        self.number = number


def stop_on_signals() -> None:
    """SIGTERM and SIGINT raise Stopped in the main thread, wherever it waits (a boot, the agent, a
    subprocess). Installed first: SDL (pygame, which draws the title's reference) puts its own
    handlers only where the default is, and its own turns SIGTERM into an event nobody reads."""

    def stop(number: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: the stopping itself is not cut short
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise Stopped(number)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")  # (and SDL is asked not to)


def repo_root() -> Path | None:
    here = Path(__file__).resolve().parents[2]
    return here if (here / "systemd" / "image" / "build-image.sh").exists() else None


def missing_tools() -> list[str]:
    packages = sorted({package for tool, package in TOOLS.items() if shutil.which(tool) is None})
    if not any(os.path.exists(path) for path in OVMF_CODE):
        packages.append("ovmf")
    return packages


def install(packages: list[str]) -> str:
    """Install Debian packages; '' when done, else why not."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return f"needs {' '.join(packages)} (Debian packages) and root"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print(f"cabinet-test: installing {' '.join(packages)} with apt-get ...", file=sys.stderr, flush=True)
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *packages]):
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            return f"apt-get could not install {' '.join(packages)}: {done.stderr.strip()[-300:]}"
    return ""


def tree_stamp(repo: Path) -> str:
    """What the image is built from: the commit, the uncommitted change and the untracked files."""
    digest = hashlib.sha256()
    for command in (["git", "rev-parse", "HEAD"], ["git", "diff", "HEAD", "--binary"]):
        digest.update(subprocess.run(command, cwd=repo, capture_output=True, check=True).stdout)
    untracked = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard", "-z"], cwd=repo, capture_output=True, check=True
    ).stdout
    for name in sorted(filter(None, untracked.split(b"\0"))):
        digest.update(name)
        with contextlib.suppress(OSError):
            digest.update((repo / name.decode()).read_bytes())
    return digest.hexdigest()


def build_image(repo: Path, out: Path, rebuild: bool) -> Path:
    image = out / "spit-arcade-bookworm-amd64-test.img"
    stamp_file = out / "spit-arcade-bookworm-amd64-test.stamp"
    stamp = tree_stamp(repo)
    if image.exists() and not rebuild and stamp_file.exists() and stamp_file.read_text() == stamp:
        print(f"cabinet-test: {image} is of this tree; not built again", file=sys.stderr)
        return image
    started = time.monotonic()
    # (its lines go to standard error: standard output holds the report alone, for `--json`)
    subprocess.run([str(repo / "systemd/image/build-image.sh"), "--test", "--out", str(out)], check=True,
                   stdout=sys.stderr)
    stamp_file.write_text(stamp)
    print(f"cabinet-test: image built in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return image


def arm64(args: argparse.Namespace, repo: Path | None, out: Path) -> int:
    """The Pi 4 image: built from the clone (or given), booted emulated as far as QEMU can take it."""
    from . import pi_card
    from .vm import boot_arm64

    if args.arm64 != "build":
        image = Path(args.arm64)
    elif repo is None:
        print("cabinet-test: run it from a clone of the project to build the arm64 image", file=sys.stderr)
        return 2
    else:
        started = time.monotonic()
        built = subprocess.run(
            [str(repo / "systemd/image/build-image.sh"), "--arch", "arm64", "--out", str(out)],
            check=False,
            stdout=subprocess.PIPE,
            text=True,
        )
        if built.returncode != 0:
            print(f"cabinet-test: the arm64 image could not be built (exit {built.returncode})", file=sys.stderr)
            return 1
        image = Path(built.stdout.strip().splitlines()[-1])
        print(f"cabinet-test: arm64 image built in {time.monotonic() - started:.0f} s", file=sys.stderr)
    findings = pi_card.check(image)  # what the Pi's firmware reads, and the Pi's drivers: no Pi here
    for finding in findings:
        verdict = "ok  " if finding.ok else "FAIL"
        print(f"cabinet-test: {verdict} on the card: {finding.what} ({finding.detail})", file=sys.stderr)
    sends = pi_card.kernel_sends_tryboot(image)
    print(
        f"cabinet-test: note the kernel {'can' if sends else 'cannot' if sends is False else 'may or may not'} "
        'pass the firmware the tryboot flag (reboot "0 tryboot"; only a Pi can show it: systemd/README.md)',
        file=sys.stderr,
    )
    # Slot B, booted as the firmware's tryboot would start it after an update: autoboot.txt names
    # slot A, so this is a trial boot, which spit-arcade-boot-ok commits once the game is up.
    booted = boot_arm64(image, out / "run-arm64", slot="B")
    started = (
        booted["started_s"] is not None
        and booted["video_driver"].lower() == "kmsdrm"
        and booted["on_screen"].startswith(("title: SPIT ARCADE", "notices:"))
    )
    verdict = "ok  " if started else "FAIL"
    print(
        f"cabinet-test: {verdict} the Pi 4 image's slot B boots (emulated, virt machine; "
        f"{booted['cmdline'].split()[0] if booted['cmdline'] else 'no command line'}) to the game: ready after "
        f"{booted['started_s']} s on {booted['video_driver'] or '?'} {booted['screen_size']}, "
        f"showing {booted['on_screen'] or '?'!r}",
        file=sys.stderr,
    )
    committed = bool(booted["committed"])
    print(
        f"cabinet-test: {'ok  ' if committed else 'FAIL'} the trial boot of slot B is committed by its check "
        f"(spit-arcade-boot-ok: {booted['boot_ok'] or 'not heard'}; autoboot.txt after: "
        f"{' '.join(booted['autoboot'].split()) or 'unread'}; marked bad: {', '.join(booted['marked_bad']) or 'none'})",
        file=sys.stderr,
    )
    if not (started and committed):
        print(booted["console"], file=sys.stderr)
    figures = {
        "image": str(image),
        "image_mb": image_mb(image),
        "slot": booted["slot"],
        "game_ready_s": booted["started_s"],
        "video_driver": booted["video_driver"],
        "screen_size": booted["screen_size"],
        "on_screen": booted["on_screen"],
        "trial_committed": committed,
        "marked_bad": booted["marked_bad"],
        "kernel_sends_tryboot": sends,
        "card_checks": len(findings),
        "card_checks_failed": [finding.what for finding in findings if not finding.ok],
    }
    if args.json:
        print(json.dumps(figures))
    return 0 if started and committed and all(finding.ok for finding in findings) else 1


def stick_for(repo: Path, image: Path, folder: Path, report: Report) -> tuple[Bundles, Path] | None:
    """The bundles of `image` (made once per image) and a stick's disk holding them, or None (said)."""
    try:
        bundles = make_bundles(repo, image, folder)
        stick = stick_image(folder / "stick.img", [bundles.good, bundles.broken, *bundles.bad.values()])
    except (subprocess.CalledProcessError, OSError, ValueError, RuntimeError) as error:
        said = getattr(error, "stderr", "") or ""
        report.note("update bundles made", False, f"{error} {said[-300:]}")
        return None
    report.update_driven_by = DRIVEN
    report.update_bundle_mb = round(bundles.good.stat().st_size / 2**20, 1)
    report.update_bundle_made_s = bundles.made_s.get("good")
    return bundles, stick


def kvm_works() -> bool:
    """KVM has been seen to hang here: it is used only when a machine starts under it and answers."""
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return False
    try:
        done = subprocess.run(
            ["qemu-system-x86_64", "-accel", "kvm", "-machine", "q35", "-display", "none", "-nodefaults",
             "-no-reboot", "-kernel", "/nonexistent"],
            capture_output=True, text=True, timeout=15,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return False
    return "kvm" not in done.stderr.lower()


STEPS: tuple[str, ...] = ("grown", "slots", "gpio", "keyboard", "pad", "sound", "kill", "watchdog", "escapes")
STEPS += ("config", "power-cuts", "books", "ab", "venue", "old-cpu", "stick", "bad-bundles", "update", "update-cuts")
STEPS += ("link",)
UPDATE_STEPS = {"stick", "bad-bundles", "update", "update-cuts"}  # these need the bundles and the stick


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="spit-arcade cabinet-test", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object, last")
    parser.add_argument("--if-available", action="store_true", help="skip, saying why, where QEMU can't be had")
    parser.add_argument("--image", type=Path, help="boot this image instead of building one")
    parser.add_argument("--rebuild", action="store_true", help="build the image even if the tree has not changed")
    parser.add_argument("--out", type=Path, help="where images and runs go (default: build/cabinet in the clone)")
    parser.add_argument("--power-cuts", type=int, default=20, help="power cuts at random moments (default 20)")
    parser.add_argument(
        "--books-cuts",
        type=int,
        default=20,
        help="with power-cuts left out: power cuts during coins and paid games, books checked (default 20); "
        "else the books are checked at each of the power cuts",
    )
    parser.add_argument(
        "--update-power-cuts",
        type=int,
        default=20,
        help="power cuts at random moments of an update's install or first boot (default 20)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for the moments of the power cuts")
    parser.add_argument("--accel", choices=("auto", "kvm", "tcg"), default="tcg", help="tcg (default) or kvm")
    parser.add_argument(
        "--only",
        metavar="STEPS",
        help=f"after the first boot's checks, run only these steps (comma-separated: {','.join(STEPS)}); "
        "for working on one step, never for the figures",
    )
    parser.add_argument(
        "--skip",
        metavar="STEPS",
        help="leave these steps out (comma-separated, as --only names them); the report lists them as skipped",
    )
    parser.add_argument(
        "--arm64",
        nargs="?",
        const="build",
        metavar="IMAGE",
        help="instead: build (or take) the Raspberry Pi 4 image, read what a Pi 4 needs off the card (its A/B "
        "layout and tryboot files), and boot its slot B emulated to the game's first frame and the trial's commit",
    )
    args = parser.parse_args(argv)
    named = (args.only.split(",") if args.only else []) + (args.skip.split(",") if args.skip else [])
    unknown = sorted(set(named) - set(STEPS))
    if unknown:
        parser.error(f"no step called {', '.join(unknown)}; the steps: {', '.join(STEPS)}")
    return args


def main(argv: list[str]) -> int:
    args = parse(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # (the title's reference is drawn with pygame)
    stop_on_signals()
    started = time.monotonic()
    report = Report()
    try:
        return _main(args, report, started)
    except Stopped as stopped:  # before the machine was made (the build, the bundles): nothing to stop
        return _stopped(args, report, started, stopped, "the image's build")


def _stopped(args: argparse.Namespace, report: Report, started: float, stopped: Stopped, where: str) -> int:
    """What a stopped run had: noted as a failure, the report printed, 128 + the signal."""
    if not report.stopped:
        report.stopped = f"{stopped} during {where}"
        report.note("the run", False, f"stopped by {stopped} during {where}: the report is partial")
    report.run_s = round(time.monotonic() - started, 1)
    passed = sum(verdict == "ok" for verdict in report.checks.values())
    print(f"cabinet-test: stopped ({report.stopped}); {passed} passed, {len(report.checks) - passed} failed",
          file=sys.stderr)
    if args.json:
        print(report.json())
    return 128 + stopped.number


def _main(args: argparse.Namespace, report: Report, started: float) -> int:
    repo = repo_root()
    if repo is None and args.image is None:
        print("cabinet-test: run it from a clone of the project (it builds the image from the clone)", file=sys.stderr)
        return 2
    out = args.out or ((repo / "build" / "cabinet") if repo else Path.cwd())
    out.mkdir(parents=True, exist_ok=True)
    needed = missing_tools()
    if args.arm64 and shutil.which("qemu-system-aarch64") is None:
        needed += ["qemu-system-arm", "qemu-user-static"]
    if needed:
        why = install(needed)
        if why:
            print(f"cabinet-test: skipped: {why}", file=sys.stderr)
            return 0 if args.if_available else 2
    if args.arm64:
        return arm64(args, repo, out)
    try:
        image = args.image or build_image(repo, out, args.rebuild)  # type: ignore[arg-type]
    except subprocess.CalledProcessError as error:
        print(f"cabinet-test: the image could not be built ({error})", file=sys.stderr)
        return 1
    report.image = str(image)
    report.image_mb = image_mb(image)
    report.state_image_mb = last_partition_mb(image)
    accel = "kvm" if args.accel == "kvm" or (args.accel == "auto" and kvm_works()) else "tcg"
    report.accel = accel
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"cabinet-test: booting {image.name} under QEMU ({accel}); power cuts seeded {seed}", file=sys.stderr)
    only = set(args.only.split(",")) if args.only else None
    wanted = UPDATE_STEPS - set(args.skip.split(",") if args.skip else ())
    updates = None
    if wanted and (only is None or only & wanted) and repo is not None:  # the bundles only where used
        updates = stick_for(repo, image, out / "update", report)
    machine = Machine(image=image, workdir=out / "run", accel=accel, sound=False)
    machine.prepare()
    cabinet = Cabinet(machine, report)

    def folded() -> bool:  # the books checked at the power cuts (the steps left out are known before any runs)
        return not {"power-cuts", "books"} & set(report.steps_skipped)
    failed = False
    where = "the first boot"
    caught: Stopped | None = None
    try:
        cabinet.first_boot()
        cabinet.exposure()
        cabinet.packaging()
        steps: list[tuple[str, str, Callable[[], object]]] = [
            ("grown", "the state partition grown to fill the disk", cabinet.state_grown),
            ("slots", "A/B root slots: booted from A, B empty", cabinet.slots),
            ("gpio", "panels through the kernel's GPIO", cabinet.gpio_game),
            ("keyboard", "a USB keyboard", cabinet.keyboard),
            ("pad", "a slap pad on a USB serial adapter plugged in after the start", cabinet.pad_game),
            ("sound", "a sound card plugged in after the start", cabinet.plug_sound),
            ("kill", "kill -9: back and resumed", cabinet.kill_and_resume),
            ("watchdog", "a hung frame loop: the watchdog restarts it", cabinet.watchdog),
            ("escapes", "the keyboard's ways out", cabinet.escapes),
            (
                "config",
                "a broken config.toml: the game runs on its last good copy, no restart loop",
                cabinet.broken_config,
            ),
            # (Before the power cuts: its one restart shows the venue up before a loaded machine's many boots.)
            ("venue", "the venue's network only when the venue is on", cabinet.venue),
            # The books are checked at each power cut mid-game (a paid game, coins going in): the books
            # step's own cuts (--books-cuts, coins in attract mode too) only where power-cuts is left out.
            (
                "power-cuts",
                "power cuts mid-game",
                lambda: cabinet.power_cuts(args.power_cuts, random.Random(seed), Books(cabinet) if folded() else None),
            ),
            (
                "books",
                "power cuts during coins and paid games",
                lambda: None if folded() else Books(cabinet).cuts(args.books_cuts, random.Random(seed + 1)),
            ),
            ("ab", "A/B: slot switch and fallback", cabinet.ab_slots),
            ("old-cpu", "an old processor (qemu64): the fallback screen says why", cabinet.old_cpu),
            ("link", "the link unit: a game with no network links through it; a spit-link.toml's network",
             lambda: setattr(report, "link_unit", {**link_unit_step(cabinet.vm, report.note),
                                                   "network": link_network_step(cabinet, report.note)})),
        ]
        skip = set(args.skip.split(",")) if args.skip else set()
        if updates is not None:
            update = Updates(cabinet, *updates)
            cuts = random.Random(seed + 2)
            steps += [
                ("stick", "a USB stick plugged in and pulled", update.stick_step),
                ("bad-bundles", "bad bundles refused", update.bad_bundles_step),
                ("update", "an update from the stick, and a rollback", update.update_step),
                ("update-cuts", "power cuts during an update",
                 lambda: update.power_cuts_step(args.update_power_cuts, cuts)),
            ]  # fmt: skip
        elif wanted and (only is None or only & wanted):
            report.note("updates from a stick", False, "no bundles: run it from a clone (make-bundle.sh)")
        report.steps_skipped = [key for key in STEPS if key in skip or (only is not None and key not in only)]
        assert only is None or updates is None or only <= {key for key, _, _ in steps}, "STEPS and the steps differ"
        steps_run = [(key, name, step) for key, name, step in steps if key not in report.steps_skipped]
        for key, name, step in steps_run:
            where = f"the step {key!r}"
            step_started = time.monotonic()
            try:
                step()
            except VmError as error:
                report.note(name, False, str(error))
            report.steps_s[key] = round(time.monotonic() - step_started, 1)
    except VmError as error:
        report.note("the machine", False, str(error))
        print(machine.console()[-3000:], file=sys.stderr)
    except Stopped as stopped:
        caught = stopped
    finally:
        cabinet.close()
        if caught is not None:
            machine.power_cut()  # at once: whoever stopped the run is waiting
        else:
            machine.shutdown()
    if caught is not None:
        return _stopped(args, report, started, caught, where)
    failed = any(verdict != "ok" for verdict in report.checks.values())
    report.run_s = round(time.monotonic() - started, 1)
    passed = sum(verdict == "ok" for verdict in report.checks.values())
    print(f"cabinet-test: {passed} passed, {len(report.checks) - passed} failed", file=sys.stderr)
    if args.json:
        print(report.json())
    return 1 if failed else 0
