"""What a Raspberry Pi 4 needs on the card, read from the arm64 image without a Pi.

QEMU has no Pi 4 machine, so the emulated boot (`vm.boot_arm64`) starts the image's own kernel on
QEMU's generic `virt` machine and never runs the Pi's firmware. What the Pi's firmware reads is
checked here instead, as files. The card is A/B with the firmware's tryboot (systemd/image/
build-image.sh): a GPT disk whose first partition (FAT) holds `autoboot.txt` (`[all]
tryboot_a_b=1`, the slot that boots, and under `[tryboot]` the other one), then a boot partition a
slot (FAT: the Pi 4's firmware, its device tree, a `config.txt` whose kernel and initramfs are
there and whose cmdline file for that partition mounts that slot's root by name, read-only), two
root slots (ext4: the kernel's drivers for the Pi 4's screen (vc4) and GPU (v3d), Mesa's v3d
driver, GPIO, the game, RAUC set up for tryboot) and the state partition, last, which grows at the
first boot. Read with sfdisk, mtools and e2fsprogs' debugfs: no loop devices, no mounts; it runs
as any user who can read the image. Each finding can fail (tests/test_cabinet_pi_card.py plants
one mistake at a time).
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

# The arm64 image's partitions (systemd/image/build-image.sh), by number and GPT name.
AUTOBOOT, BOOT_A, BOOT_B, ROOT_A, ROOT_B, STATE = 1, 2, 3, 4, 5, 6
BOOT = BOOT_A  # the boot partition the card is made to start (autoboot.txt's [all])
ROOT = ROOT_A
NAMES = ["boot", "spit-boot-a", "spit-boot-b", "spit-root-a", "spit-root-b", "spit-state"]
SLOTS = {"A": (BOOT_A, ROOT_A), "B": (BOOT_B, ROOT_B)}
BASIC_DATA = "EBD0A0A2-B9E5-4433-87C0-68B6B72699C7"  # GPT's type for a FAT partition the firmware reads
ROOT_ARM64 = "B921B045-1DF0-41C3-AF44-4C6F280D3FAE"
LINUX_GENERIC = "0FC63DAF-8483-4772-8E79-3D69D8477DE4"


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


def partitions(image: Path) -> list[dict[str, object]]:
    """The partition table (sfdisk's JSON): its label ("gpt", "dos") and each partition's fields."""
    dump = subprocess.run(["sfdisk", "--json", str(image)], capture_output=True, text=True, check=True).stdout
    table = json.loads(dump)["partitiontable"]
    return [{"label": table.get("label", ""), **part} for part in table.get("partitions", [])]


def boot_files(image: Path, number: int = BOOT) -> set[str]:
    """The names in a FAT partition's top folder."""
    at = f"{image}@@{partition_offset(image, number)}"
    listed = subprocess.run(["mdir", "-b", "-i", at, "::/"], capture_output=True, text=True, check=True).stdout
    return {line.strip().removeprefix("::/").rstrip("/") for line in listed.splitlines() if line.strip()}


def boot_text(image: Path, name: str, number: int = BOOT) -> str:
    at = f"{image}@@{partition_offset(image, number)}"
    return subprocess.run(["mtype", "-i", at, f"::/{name}"], capture_output=True, text=True, check=True).stdout


def root_paths(image: Path, paths: list[str], number: int = ROOT) -> dict[str, bool]:
    """Which of `paths` exist on a root partition (one debugfs run for all of them)."""
    device = f"{image}?offset={partition_offset(image, number)}"
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


def root_listing(image: Path, folder: str, number: int = ROOT) -> list[str]:
    device = f"{image}?offset={partition_offset(image, number)}"
    done = subprocess.run(["debugfs", "-R", f"ls -p {folder}", device], capture_output=True, text=True, check=False)
    names = []
    for line in done.stdout.splitlines():
        fields = line.split("/")  # "/inode/mode/uid/gid/name/size/"
        if len(fields) >= 6 and fields[5] not in ("", ".", ".."):
            names.append(fields[5])
    return names


def root_text(image: Path, path: str, number: int = ROOT) -> str:
    device = f"{image}?offset={partition_offset(image, number)}"
    return subprocess.run(["debugfs", "-R", f"cat {path}", device], capture_output=True, text=True, check=False).stdout


def config_values(text: str, partition: int | None = None) -> dict[str, str]:
    """config.txt's `key=value` lines and its `initramfs FILE followkernel` line (comments and
    [filter] sections as the Pi's firmware reads them on a normal boot from boot partition
    `partition`: [all], [pi4] and [boot_partition=N] of that partition are the Pi 4's; any other
    section, [tryboot] too, is not)."""
    values: dict[str, str] = {}
    section_ours = True
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1].strip().lower().replace(" ", "")
            section_ours = name in ("all", "pi4", "board-type=0x11") or (
                partition is not None and name == f"boot_partition={partition}"
            )
            continue
        if not section_ours:
            continue
        if "=" in line:
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
        elif line.startswith("initramfs "):
            values["initramfs"] = line.split()[1]
    return values


def autoboot_values(text: str) -> dict[str, dict[str, str]]:
    """autoboot.txt's sections ([all], [tryboot]; [none] and others kept too) and their values."""
    sections: dict[str, dict[str, str]] = {"all": {}}
    current = "all"
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip().lower()
            sections.setdefault(current, {})
        elif "=" in line:
            key, _, value = line.partition("=")
            sections[current][key.strip()] = value.strip()
    return sections


def autoboot_findings(text: str | None) -> list[Finding]:
    """autoboot.txt as Raspberry Pi documents its A/B use: [all] tryboot_a_b=1 and the boot
    partition of one slot, [tryboot] the other's; at most 512 bytes (the firmware reads no more)."""
    if text is None:
        return [Finding("autoboot.txt on the first partition", False, "missing")]
    values = autoboot_values(text)
    first = values["all"].get("boot_partition", "")
    trial = values.get("tryboot", {}).get("boot_partition", "")
    slots = {str(BOOT_A), str(BOOT_B)}
    return [
        Finding("autoboot.txt: at most 512 bytes", len(text.encode()) <= 512, f"{len(text.encode())} bytes"),
        Finding("autoboot.txt: [all] tryboot_a_b=1 (a trial starts the other partition's config.txt)",
                values["all"].get("tryboot_a_b") == "1", f"tryboot_a_b={values['all'].get('tryboot_a_b')}"),
        Finding("autoboot.txt: [all] boots a slot's boot partition (2 or 3)", first in slots,
                f"boot_partition={first or 'none'}"),
        Finding("autoboot.txt: [tryboot] starts the other slot's", trial in slots and trial != first,
                f"[tryboot] boot_partition={trial or 'none'}"),
    ]  # fmt: skip


def layout_findings(parts: list[dict[str, object]]) -> list[Finding]:
    """The disk: GPT, the six partitions in order by name, their types, the state partition last."""
    names = [str(p.get("name", "")) for p in parts]
    types = [str(p.get("type", "")).upper() for p in parts]
    label = str(parts[0]["label"]) if parts else "none"
    fat = [types[n - 1] == BASIC_DATA for n in (AUTOBOOT, BOOT_A, BOOT_B) if n <= len(types)]
    roots = [types[n - 1] == ROOT_ARM64 for n in (ROOT_A, ROOT_B) if n <= len(types)]
    generic = [n for n, t in enumerate(types, 1) if t == LINUX_GENERIC]
    ends = [int(str(p.get("start", 0))) + int(str(p.get("size", 0))) for p in parts]
    return [
        Finding("the disk: GPT", label == "gpt", label),
        Finding("the disk: " + ", ".join(NAMES) + ", in that order", names == NAMES, ", ".join(names) or "none"),
        Finding("the disk: autoboot's and the slots' boot partitions FAT (basic data)", fat == [True] * 3,
                ", ".join(types[:3])),
        Finding("the disk: the root slots of type root-arm64", roots == [True] * 2, ", ".join(types[3:5])),
        Finding("the disk: the state partition last, the only linux-generic one (systemd-repart grows it)",
                generic == [STATE] and len(parts) == STATE and max(ends, default=0) == ends[-1],
                f"linux-generic: {generic or 'none'}"),
    ]  # fmt: skip


def cmdline_findings(cmdline: str, slot: str = "A") -> list[Finding]:
    words = cmdline.split()
    last_mode = next((word for word in reversed(words) if word in ("ro", "rw")), None)
    root = f"root=PARTLABEL=spit-root-{slot.lower()}"
    return [
        Finding(f"slot {slot}: its command line mounts its root (spit-root-{slot.lower()}) by name",
                root in words, next((w for w in words if w.startswith("root=")), "no root=")),
        Finding(f"slot {slot}: its command line tells RAUC the slot (rauc.slot={slot})", f"rauc.slot={slot}" in words,
                next((w for w in words if w.startswith("rauc.slot=")), "no rauc.slot=")),
        Finding(f"slot {slot}: the root read-only (the last of ro/rw wins)", last_mode == "ro", str(last_mode)),
        Finding(f"slot {slot}: the screen never blanks", "consoleblank=0" in words, cmdline.strip()),
        Finding(f"slot {slot}: its command line is one line", cmdline.strip().count("\n") == 0,
                f"{cmdline.count(chr(10))} newlines"),
    ]  # fmt: skip


def boot_findings(image: Path, slot: str) -> list[Finding]:
    """What the firmware reads from one slot's boot partition."""
    number = SLOTS[slot][0]
    files = boot_files(image, number)
    lower = {name.lower(): name for name in files}
    findings = [
        Finding(f"slot {slot}: the Pi 4's firmware (start4.elf, fixup4.dat)",
                {"start4.elf", "fixup4.dat"} <= set(lower),
                ", ".join(sorted(n for n in files if n.lower().startswith(("start", "fixup")))) or "none"),
        Finding(f"slot {slot}: the Pi 4's device tree (bcm2711-rpi-4-b.dtb)", "bcm2711-rpi-4-b.dtb" in lower,
                ", ".join(sorted(n for n in files if n.lower().endswith(".dtb"))) or "none"),
    ]  # fmt: skip
    config = config_values(boot_text(image, lower["config.txt"], number), number) if "config.txt" in lower else {}
    kernel, initramfs = config.get("kernel", ""), config.get("initramfs", "")
    findings += [
        Finding(f"slot {slot}: config.txt: a 64-bit kernel", config.get("arm_64bit") == "1",
                f"arm_64bit={config.get('arm_64bit')}"),
        Finding(f"slot {slot}: config.txt: its kernel is on the card", bool(kernel) and kernel.lower() in lower,
                kernel or "none"),
        Finding(f"slot {slot}: config.txt: its initramfs is on the card",
                bool(initramfs) and initramfs.lower() in lower, initramfs or "none"),
    ]  # fmt: skip
    name = config.get("cmdline", "cmdline.txt").lower()
    cmdline = boot_text(image, lower[name], number) if name in lower else ""
    findings += cmdline_findings(cmdline, slot) if cmdline else [Finding(f"slot {slot}: {name}", False, "missing")]
    return findings


def root_findings(image: Path, slot: str) -> list[Finding]:
    """What one root slot needs: the Pi 4's drivers, the game, and the tryboot slot switch."""
    number = SLOTS[slot][1]
    versions = root_listing(image, "/usr/lib/modules", number)  # (/lib is a link to usr/lib)
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
        "the slot switch (spit-slot-switch)": ["/usr/local/libexec/spit-slot-switch"],
        "systemd-repart grows the state partition": ["/etc/repart.d/50-spit-state.conf"],
    }  # fmt: skip
    present = root_paths(image, [path for paths in wanted.values() for path in paths], number)
    findings = []
    for what, paths in wanted.items():
        hits = [path for path in paths if present[path]]
        findings.append(
            Finding(
                f"slot {slot}: {what}", bool(hits), hits[0] if hits else f"none of {', '.join(paths)} (kernel {kver})"
            )
        )
    dropin = root_text(image, "/etc/systemd/system/spit-arcade-boot-ok.service.d/spit-arcade.conf", number)
    enabled = root_paths(image, ["/etc/systemd/system/multi-user.target.wants/spit-arcade-boot-ok.service"], number)
    condition = "ExecCondition=/usr/local/libexec/spit-slot-switch is-trial" in dropin.splitlines()
    findings.append(
        Finding(f"slot {slot}: the trial boot's check (spit-arcade-boot-ok) enabled, on trial boots only",
                all(enabled.values()) and condition and "SPIT_SLOT_MARK=tryboot" in dropin,
                f"enabled: {all(enabled.values())}, ExecCondition is-trial: {condition}")
    )  # fmt: skip
    modules = root_text(image, f"/usr/lib/modules/{kver}/modules.builtin", number) + root_text(
        image, f"/usr/lib/modules/{kver}/modules.dep", number
    )
    findings.append(
        Finding(f"slot {slot}: the kernel's Pi 4 GPIO driver (pinctrl-bcm2835), built in or a module",
                "pinctrl-bcm2835.ko" in modules, f"kernel {kver}")
    )  # fmt: skip
    fstab = [
        line.split()
        for line in root_text(image, "/etc/fstab", number).splitlines()
        if line.strip() and not line.startswith("#")
    ]
    root = next((f for f in fstab if len(f) >= 4 and f[1] == "/"), [])
    state = next((f for f in fstab if len(f) >= 4 and f[1] == "/var/lib/spit-arcade"), [])
    first = next((f for f in fstab if len(f) >= 4 and f[1] == "/boot/firmware"), [])
    findings += [
        Finding(f"slot {slot}: fstab: the root read-only", bool(root) and "ro" in root[3].split(","),
                " ".join(root) or "no / line"),
        Finding(f"slot {slot}: fstab: the state partition by its label, grown (x-systemd.growfs)",
                bool(state) and state[0] == "LABEL=spit-state" and "x-systemd.growfs" in state[3].split(","),
                " ".join(state) or "no /var/lib/spit-arcade line"),
        Finding(f"slot {slot}: fstab: autoboot.txt's partition (SPITBOOT) at /boot/firmware, read-only",
                bool(first) and first[0] == "LABEL=SPITBOOT" and "ro" in first[3].split(","),
                " ".join(first) or "no /boot/firmware line"),
    ]  # fmt: skip
    conf = root_text(image, "/etc/rauc/system.conf", number)
    keys = {line.split("=", 1)[0].strip(): line.split("=", 1)[1].strip() for line in conf.splitlines() if "=" in line}
    slots_named = all(f"device=/dev/disk/by-partlabel/{name}" in conf for name in NAMES[1:5])
    findings.append(
        Finding(f"slot {slot}: RAUC: bootloader=custom with spit-slot-switch, each slot's boot and root by name",
                keys.get("bootloader") == "custom"
                and keys.get("bootloader-custom-backend") == "/usr/local/libexec/spit-slot-switch"
                and keys.get("compatible") == "spit-arcade-arm64" and slots_named,
                f"bootloader={keys.get('bootloader')}, compatible={keys.get('compatible')}, "
                f"every slot named: {slots_named}")
    )  # fmt: skip
    return findings


def kernel_sends_tryboot(image: Path, slot: str = "A") -> bool | None:
    """Whether the slot's kernel can pass the firmware the tryboot flag: Raspberry Pi's kernel has a
    reboot notifier in its firmware driver that sends it when the reboot's argument holds
    " tryboot" (that string is in its image); mainline Linux's driver, which Debian's kernel is,
    has none. None when the kernel cannot be read. Reported, not required (systemd/README.md)."""
    number = SLOTS[slot][0]
    files = {name.lower(): name for name in boot_files(image, number)}
    kernel = config_values(boot_text(image, files.get("config.txt", "config.txt"), number), number).get("kernel", "")
    if kernel.lower() not in files:
        return None
    at = f"{image}@@{partition_offset(image, number)}"
    data = subprocess.run(["mcopy", "-i", at, f"::/{files[kernel.lower()]}", "-"], capture_output=True).stdout
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError):
            return None
    return b" tryboot\x00" in data


def check(image: Path) -> list[Finding]:
    """Everything a Pi 4 needs on this card that can be read without one."""
    parts = partitions(image)
    findings = layout_findings(parts)
    if len(parts) < STATE:
        return findings
    files = {name.lower(): name for name in boot_files(image, AUTOBOOT)}
    text = boot_text(image, files["autoboot.txt"], AUTOBOOT) if "autoboot.txt" in files else None
    findings += autoboot_findings(text)
    for slot in SLOTS:
        findings += boot_findings(image, slot) + root_findings(image, slot)
    return findings
