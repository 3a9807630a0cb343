"""What a Raspberry Pi 4 needs on the card, read from the arm64 image without a Pi.

QEMU has no Pi 4 machine, so the emulated boot (`vm.boot_arm64`) starts the image's own kernel on
QEMU's generic `virt` machine and never runs the Pi's firmware. What the Pi's firmware reads is
checked here instead, as files: the first partition (FAT, read with mtools) must hold the Pi 4's
firmware, its device tree, a `config.txt` whose kernel and initramfs are there, and a `cmdline.txt`
that mounts the root by label, read-only; the root partition (ext4, read with e2fsprogs' debugfs)
must hold the kernel's drivers for the Pi 4's screen (vc4) and GPU (v3d), Mesa's v3d driver, GPIO
and the game. No loop devices, no mounts: it runs as any user who can read the image.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

BOOT, ROOT, STATE = 1, 2, 3  # the arm64 image's partitions (systemd/image/build-image.sh)
ROOT_LABEL = "spit-root"


@dataclass(frozen=True)
class Finding:
    """One thing the card needs: what it is, whether it is there, and what was found."""

    what: str
    ok: bool
    detail: str


def tools_missing() -> list[str]:
    return [tool for tool in ("sfdisk", "mdir", "mtype", "debugfs") if shutil.which(tool) is None]


def partition_offset(image: Path, number: int) -> int:
    """Where partition `number` starts in `image`, in bytes (from sfdisk's dump)."""
    dump = subprocess.run(["sfdisk", "--dump", str(image)], capture_output=True, text=True, check=True).stdout
    for line in dump.splitlines():
        name, _, fields = line.partition(":")
        if name.strip().endswith(str(number)) and "start=" in fields:
            return int(fields.split("start=")[1].split(",")[0]) * 512
    raise ValueError(f"{image} has no partition {number}")


def boot_files(image: Path) -> set[str]:
    """The names in the boot partition's top folder."""
    at = f"{image}@@{partition_offset(image, BOOT)}"
    listed = subprocess.run(["mdir", "-b", "-i", at, "::/"], capture_output=True, text=True, check=True).stdout
    return {line.strip().removeprefix("::/").rstrip("/") for line in listed.splitlines() if line.strip()}


def boot_text(image: Path, name: str) -> str:
    at = f"{image}@@{partition_offset(image, BOOT)}"
    return subprocess.run(["mtype", "-i", at, f"::/{name}"], capture_output=True, text=True, check=True).stdout


def root_paths(image: Path, paths: list[str]) -> dict[str, bool]:
    """Which of `paths` exist on the root partition (one debugfs run for all of them)."""
    device = f"{image}?offset={partition_offset(image, ROOT)}"
    script = "".join(f"stat {path}\n" for path in paths)
    done = subprocess.run(["debugfs", "-f", "-", device], input=script, capture_output=True, text=True, check=False)
    # debugfs echoes each request ("debugfs: stat PATH") and answers "Inode: ..." or an error line
    found: dict[str, bool] = {}
    current: str | None = None
    for line in (done.stdout + done.stderr).splitlines():
        if line.startswith("debugfs: stat "):
            current = line.removeprefix("debugfs: stat ").strip()
            found.setdefault(current, False)
        elif current is not None and line.startswith("Inode:"):
            found[current] = True
    return {path: found.get(path, False) for path in paths}


def root_listing(image: Path, folder: str) -> list[str]:
    device = f"{image}?offset={partition_offset(image, ROOT)}"
    done = subprocess.run(["debugfs", "-R", f"ls -p {folder}", device], capture_output=True, text=True, check=False)
    names = []
    for line in done.stdout.splitlines():
        fields = line.split("/")  # "/inode/mode/uid/gid/name/size/"
        if len(fields) >= 6 and fields[5] not in ("", ".", ".."):
            names.append(fields[5])
    return names


def config_values(text: str) -> dict[str, str]:
    """config.txt's `key=value` lines and its `initramfs FILE followkernel` line (comments and
    [filter] sections as the Pi's firmware reads them: a section other than [all] or [pi4] is not
    the Pi 4's)."""
    values: dict[str, str] = {}
    section_ours = True
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            section_ours = line[1:-1].strip().lower() in ("all", "pi4", "board-type=0x11")
            continue
        if not section_ours:
            continue
        if "=" in line:
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
        elif line.startswith("initramfs "):
            values["initramfs"] = line.split()[1]
    return values


def cmdline_findings(cmdline: str) -> list[Finding]:
    words = cmdline.split()
    last_mode = next((word for word in reversed(words) if word in ("ro", "rw")), None)
    return [
        Finding("cmdline.txt: the root by its label", f"root=LABEL={ROOT_LABEL}" in words,
                next((w for w in words if w.startswith("root=")), "no root=")),
        Finding("cmdline.txt: the root read-only (the last of ro/rw wins)", last_mode == "ro", str(last_mode)),
        Finding("cmdline.txt: the screen never blanks", "consoleblank=0" in words, cmdline.strip()),
        Finding("cmdline.txt: one line", cmdline.strip().count("\n") == 0, f"{cmdline.count(chr(10))} newlines"),
    ]  # fmt: skip


def check(image: Path) -> list[Finding]:
    """Everything a Pi 4 needs on this card that can be read without one."""
    files = boot_files(image)
    lower = {name.lower(): name for name in files}
    findings = [
        Finding("the Pi 4's firmware (start4.elf, fixup4.dat)", {"start4.elf", "fixup4.dat"} <= set(lower),
                ", ".join(sorted(n for n in files if n.lower().startswith(("start", "fixup")))) or "none"),
        Finding("the Pi 4's device tree (bcm2711-rpi-4-b.dtb)", "bcm2711-rpi-4-b.dtb" in lower,
                ", ".join(sorted(n for n in files if n.lower().endswith(".dtb"))) or "none"),
    ]  # fmt: skip
    config = config_values(boot_text(image, lower["config.txt"])) if "config.txt" in lower else {}
    kernel, initramfs = config.get("kernel", ""), config.get("initramfs", "")
    findings += [
        Finding("config.txt: a 64-bit kernel", config.get("arm_64bit") == "1", f"arm_64bit={config.get('arm_64bit')}"),
        Finding("config.txt: its kernel is on the card", bool(kernel) and kernel.lower() in lower, kernel or "none"),
        Finding("config.txt: its initramfs is on the card", bool(initramfs) and initramfs.lower() in lower,
                initramfs or "none"),
    ]  # fmt: skip
    cmdline = boot_text(image, lower["cmdline.txt"]) if "cmdline.txt" in lower else ""
    findings += cmdline_findings(cmdline) if cmdline else [Finding("cmdline.txt", False, "missing")]
    versions = root_listing(image, "/usr/lib/modules")  # (/lib is a link to usr/lib)
    kver = sorted(versions)[-1] if versions else "?"
    drm = f"/usr/lib/modules/{kver}/kernel/drivers/gpu/drm"
    wanted = {
        "the kernel's Pi 4 display driver (vc4)": [f"{drm}/vc4/vc4.ko", f"{drm}/vc4/vc4.ko.xz"],
        "the kernel's Pi 4 GPU driver (v3d)": [f"{drm}/v3d/v3d.ko", f"{drm}/v3d/v3d.ko.xz"],
        "Mesa's v3d driver (the game's drawing on the Pi's GPU)": ["/usr/lib/aarch64-linux-gnu/dri/v3d_dri.so"],
        "the game installed (/opt/spit-arcade/venv)": ["/opt/spit-arcade/venv/bin/spit-arcade"],
        "lgpio for gpiozero (the panels' GPIO)": ["/opt/spit-arcade/venv/lib/python3.11/site-packages/lgpio.py"],
        "the kiosk unit enabled": ["/etc/systemd/system/multi-user.target.wants/spit-arcade.service",
                                   "/etc/systemd/system/graphical.target.wants/spit-arcade.service"],
    }  # fmt: skip
    present = root_paths(image, [path for paths in wanted.values() for path in paths])
    for what, paths in wanted.items():
        hits = [path for path in paths if present[path]]
        findings.append(Finding(what, bool(hits), hits[0] if hits else f"none of {', '.join(paths)} (kernel {kver})"))
    modules = root_text(image, f"/usr/lib/modules/{kver}/modules.builtin") + root_text(
        image, f"/usr/lib/modules/{kver}/modules.dep"
    )
    findings.append(
        Finding(
            "the kernel's Pi 4 GPIO driver (pinctrl-bcm2835), built in or a module",
            "pinctrl-bcm2835.ko" in modules,
            f"kernel {kver}",
        )
    )
    fstab = [
        line.split()
        for line in root_text(image, "/etc/fstab").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    root = next((f for f in fstab if len(f) >= 4 and f[1] == "/"), [])
    state = next((f for f in fstab if len(f) >= 4 and f[1] == "/var/lib/spit-arcade"), [])
    findings += [
        Finding("fstab: the root read-only", bool(root) and "ro" in root[3].split(","), " ".join(root) or "no / line"),
        Finding("fstab: the state partition by its label", bool(state) and state[0] == "LABEL=spit-state",
                " ".join(state) or "no /var/lib/spit-arcade line"),
    ]  # fmt: skip
    return findings


def root_text(image: Path, path: str) -> str:
    device = f"{image}?offset={partition_offset(image, ROOT)}"
    return subprocess.run(["debugfs", "-R", f"cat {path}", device], capture_output=True, text=True, check=False).stdout
