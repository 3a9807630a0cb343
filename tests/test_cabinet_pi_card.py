"""What a Pi 4 needs on the card, read from an image: autoboot.txt, config.txt and the command lines as
the Pi's firmware reads them, and a small A/B card made here (GPT: autoboot.txt's partition, a FAT
boot and an ext4 root a slot, the state) that has it all, then lacks one thing or has one mistake."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from lab.cabinet.pi_card import (
    Finding,
    autoboot_findings,
    check,
    cmdline_findings,
    config_values,
    kernel_sends_tryboot,
    tools_missing,
)

KVER = "6.1.0-99-arm64"
DEBIAN_CONFIG = """# Do not modify this file!
arm_64bit=1
enable_uart=1
upstream_kernel=1

kernel=vmlinuz-6.1.0-99-arm64
# For details on the initramfs directive, see
initramfs initrd.img-6.1.0-99-arm64 followkernel

[pi3]
arm_64bit=0
kernel=other
[all]
disable_overscan=1
"""


def test_config_txt_is_read_as_the_pi_4s_firmware_reads_it() -> None:
    values = config_values(DEBIAN_CONFIG)
    assert values["arm_64bit"] == "1"  # the [pi3] section's 0 is not the Pi 4's
    assert values["kernel"] == "vmlinuz-6.1.0-99-arm64"
    assert values["initramfs"] == "initrd.img-6.1.0-99-arm64"
    assert values["disable_overscan"] == "1"


def test_config_txt_gives_each_boot_partition_its_own_command_line() -> None:
    text = DEBIAN_CONFIG + SLOT_FILTERS
    assert config_values(text, 2)["cmdline"] == "cmdline-a.txt"
    assert config_values(text, 3)["cmdline"] == "cmdline-b.txt"
    assert "cmdline" not in config_values(text)  # no partition said: neither filter is the Pi 4's
    assert config_values(text + "[tryboot]\narm_64bit=0\n", 3)["arm_64bit"] == "1"  # a normal boot's reading


def test_the_command_line_needs_the_slots_root_by_name_read_only_and_no_blanking() -> None:
    good = "console=tty1 root=PARTLABEL=spit-root-b rauc.slot=B rw fsck.repair=yes rootwait ro consoleblank=0\n"
    assert [f.ok for f in cmdline_findings(good, "B")] == [True, True, True, True, True]
    assert [f.ok for f in cmdline_findings(good, "A")] == [False, False, True, True, True]  # slot A's root it is not
    rw_last = "root=PARTLABEL=spit-root-a rauc.slot=A ro consoleblank=0 rw"
    assert [f.ok for f in cmdline_findings(rw_last, "A")] == [True, True, False, True, True]
    by_label = "root=LABEL=spit-root rauc.slot=A ro consoleblank=0"  # both slots carry that label
    assert [f.ok for f in cmdline_findings(by_label, "A")] == [False, True, True, True, True]
    two_lines = "root=PARTLABEL=spit-root-a rauc.slot=A ro\nconsoleblank=0"
    assert [f.ok for f in cmdline_findings(two_lines, "A")] == [True, True, True, True, False]


def test_autoboot_txt_as_raspberry_pi_documents_its_a_b_use() -> None:
    assert [f.ok for f in autoboot_findings(AUTOBOOT)] == [True, True, True, True]
    committed_b = "[all]\ntryboot_a_b=1\nboot_partition=3\n[tryboot]\nboot_partition=2\n"
    assert [f.ok for f in autoboot_findings(committed_b)] == [True, True, True, True]
    def oks(text: str) -> list[bool]:
        return [f.ok for f in autoboot_findings(text)]

    assert oks(AUTOBOOT.replace("tryboot_a_b=1", "tryboot_a_b=0")) == [True, False, True, True]
    assert oks(AUTOBOOT.replace("partition=3", "partition=2")) == [True, True, True, False]
    assert oks(AUTOBOOT.replace("partition=2", "partition=4")) == [True, True, False, True]
    assert oks(AUTOBOOT + "#" * 512) == [False, True, True, True]
    assert [f.ok for f in autoboot_findings(None)] == [False]


SLOT_FILTERS = "\n[boot_partition=2]\ncmdline=cmdline-a.txt\n[boot_partition=3]\ncmdline=cmdline-b.txt\n[all]\n"
AUTOBOOT = "[all]\ntryboot_a_b=1\nboot_partition=2\n[tryboot]\nboot_partition=3\n"
RAUC_CONF = "".join(
    f"[slot.{cls}.{n}]\ndevice=/dev/disk/by-partlabel/spit-{part}-{s}\n"
    for n, s in enumerate("ab") for cls, part in (("rootfs", "root"), ("bootfs", "boot"))
)
PARTS = """label: gpt
start=1MiB, size=2MiB, type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7, name=boot
size=8MiB, type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7, name=spit-boot-a
size=8MiB, type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7, name=spit-boot-b
size=8MiB, type=B921B045-1DF0-41C3-AF44-4C6F280D3FAE, name=spit-root-a
size=8MiB, type=B921B045-1DF0-41C3-AF44-4C6F280D3FAE, name=spit-root-b
size=2MiB, type=L, name=spit-state
"""


def make_card(
    tmp_path: Path, leave_out: str = "", slot: str = "a", change: tuple[str, str, str] = ("", "", "")
) -> Path:
    """A card laid out as build-image.sh lays the arm64 one (GPT: autoboot.txt's FAT partition, a
    FAT boot partition and an ext4 root a slot, the state partition), lacking `leave_out` in `slot`,
    or with one file's text changed (`change`: the file's name, the text, what replaces it)."""
    boot = tmp_path / "boot"
    boot.mkdir()
    files = {
        "start4.elf": "", "fixup4.dat": "", "bcm2711-rpi-4-b.dtb": "", f"vmlinuz-{KVER}": "",
        f"initrd.img-{KVER}": "", "config.txt": DEBIAN_CONFIG.replace("6.1.0-99-arm64", KVER) + SLOT_FILTERS,
        "cmdline.txt": "console=tty1 root=PARTLABEL=spit-root-a rauc.slot=A rw rootwait ro consoleblank=0\n",
        "cmdline-a.txt": "console=tty1 root=PARTLABEL=spit-root-a rauc.slot=A rw rootwait ro consoleblank=0\n",
        "cmdline-b.txt": "console=tty1 root=PARTLABEL=spit-root-b rauc.slot=B rw rootwait ro consoleblank=0\n",
    }  # fmt: skip
    root = tmp_path / "root"
    drm = f"usr/lib/modules/{KVER}/kernel/drivers/gpu/drm"
    tree = {
        f"{drm}/vc4/vc4.ko.xz": "", f"{drm}/v3d/v3d.ko.xz": "",
        f"usr/lib/modules/{KVER}/modules.builtin": "kernel/drivers/pinctrl/bcm/pinctrl-bcm2835.ko\n",
        f"usr/lib/modules/{KVER}/modules.dep": "",
        "usr/lib/aarch64-linux-gnu/dri/v3d_dri.so": "",
        "opt/spit-arcade/venv-1/bin/spit-arcade": "",
        "opt/spit-arcade/venv-1/lib/python3.11/site-packages/lgpio.py": "",
        "etc/systemd/system/multi-user.target.wants/spit-arcade.service": "",
        "etc/systemd/system/multi-user.target.wants/spit-arcade-boot-ok.service": "",
        "etc/systemd/system/spit-arcade-boot-ok.service.d/spit-arcade.conf":
            "[Service]\nExecCondition=/usr/local/libexec/spit-slot-switch is-trial\n"
            "Environment=SPIT_SLOT_MARK=tryboot\n",
        "usr/local/libexec/spit-slot-switch": "",
        "etc/repart.d/50-spit-state.conf": "[Partition]\nType=linux-generic\n",
        "etc/rauc/system.conf": "[system]\ncompatible=spit-arcade-arm64\nbootloader=custom\n[handlers]\n"
                                "bootloader-custom-backend=/usr/local/libexec/spit-slot-switch\n" + RAUC_CONF,
        "etc/fstab": "LABEL=spit-root / ext4 ro,noatime 0 1\n"
                     "LABEL=spit-state /var/lib/spit-arcade ext4 rw,noatime,nofail,x-systemd.growfs 0 2\n"
                     "LABEL=SPITBOOT /boot/firmware vfat ro,noatime,nofail 0 2\n",
    }  # fmt: skip
    card = tmp_path / "card.img"
    with card.open("wb") as out:
        out.truncate(40 * 1024 * 1024)
    subprocess.run(["sfdisk", "--quiet", str(card)], input=PARTS if change[0] != "partitions" else
                   PARTS.replace(change[1], change[2]), text=True, check=True)  # fmt: skip
    run = lambda *cmd: subprocess.run(cmd, check=True, capture_output=True)  # noqa: E731
    first = tmp_path / "autoboot"
    first.mkdir()
    if leave_out != "autoboot.txt":
        text = AUTOBOOT.replace(change[1], change[2]) if change[0] == "autoboot.txt" else AUTOBOOT
        (first / "autoboot.txt").write_text(text)
    run("mkfs.vfat", "-C", str(tmp_path / "autoboot.vfat"), str(2 * 1024))
    if any(first.iterdir()):
        run("mcopy", "-s", "-i", str(tmp_path / "autoboot.vfat"), *[str(p) for p in first.iterdir()], "::/")
    run("dd", f"if={tmp_path / 'autoboot.vfat'}", f"of={card}", "bs=1M", "seek=1", "conv=notrunc", "status=none")
    for n, s in enumerate("ab"):
        folder, rootdir = boot / s, root / s
        folder.mkdir()
        for name, text in files.items():
            if not (s == slot and name == leave_out):
                mine = s == slot and name == change[0]
                (folder / name).write_text(text.replace(change[1], change[2]) if mine else text)
        for path, text in tree.items():
            if s == slot and leave_out and path.endswith(leave_out):
                continue
            (rootdir / path).parent.mkdir(parents=True, exist_ok=True)
            mine = s == slot and path.rsplit("/", 1)[-1] == change[0]
            (rootdir / path).write_text(text.replace(change[1], change[2]) if mine else text)
        (rootdir / "opt/spit-arcade/venv").symlink_to("venv-1")
        run("mkfs.vfat", "-C", str(tmp_path / f"boot-{s}.vfat"), str(8 * 1024))
        run("mcopy", "-s", "-i", str(tmp_path / f"boot-{s}.vfat"), *[str(p) for p in folder.iterdir()], "::/")
        run("mkfs.ext4", "-q", "-L", "spit-root", "-d", str(rootdir), str(tmp_path / f"root-{s}.ext4"), "8M")
        run("dd", f"if={tmp_path / f'boot-{s}.vfat'}", f"of={card}", "bs=1M", f"seek={3 + 8 * n}", "conv=notrunc",
            "status=none")  # fmt: skip
        run("dd", f"if={tmp_path / f'root-{s}.ext4'}", f"of={card}", "bs=1M", f"seek={19 + 8 * n}", "conv=notrunc",
            "status=none")  # fmt: skip
    return card


@pytest.fixture
def card_tools() -> None:
    """Outside CI a card test skips, saying why, when a tool is missing; under CI=true it fails."""
    missing = tools_missing() + [tool for tool in ("mkfs.vfat", "mkfs.ext4", "mcopy") if shutil.which(tool) is None]
    if missing:
        why = f"needs {', '.join(missing)} (apt-get install fdisk mtools e2fsprogs dosfstools)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)


needs_tools = pytest.mark.usefixtures("card_tools")


def failed(findings: list[Finding]) -> list[str]:
    return [f.what for f in findings if not f.ok]


@needs_tools
def test_a_card_with_everything_passes_every_check(tmp_path: Path) -> None:
    findings = check(make_card(tmp_path))
    assert failed(findings) == []
    assert len(findings) == 5 + 4 + 2 * (10 + 14)


@needs_tools
@pytest.mark.parametrize(
    ("leave_out", "slot", "named"),
    [
        ("autoboot.txt", "a", "autoboot.txt on the first partition"),
        ("start4.elf", "a", "slot A: the Pi 4's firmware (start4.elf, fixup4.dat)"),
        ("bcm2711-rpi-4-b.dtb", "b", "slot B: the Pi 4's device tree (bcm2711-rpi-4-b.dtb)"),
        (f"initrd.img-{KVER}", "b", "slot B: config.txt: its initramfs is on the card"),
        ("cmdline-b.txt", "b", "slot B: cmdline-b.txt"),
        ("v3d.ko.xz", "a", "slot A: the kernel's Pi 4 GPU driver (v3d)"),
        ("v3d_dri.so", "b", "slot B: Mesa's v3d driver (the game's drawing on the Pi's GPU)"),
        ("lgpio.py", "a", "slot A: lgpio for gpiozero (the panels' GPIO)"),
        ("modules.builtin", "b", "slot B: the kernel's Pi 4 GPIO driver (pinctrl-bcm2835), built in or a module"),
        ("spit-arcade.service", "a", "slot A: the kiosk unit enabled"),
        ("spit-slot-switch", "b", "slot B: the slot switch (spit-slot-switch)"),
        ("50-spit-state.conf", "a", "slot A: systemd-repart grows the state partition"),
        ("spit-arcade-boot-ok.service", "b",
         "slot B: the trial boot's check (spit-arcade-boot-ok) enabled, on trial boots only"),
    ],
)
def test_a_card_lacking_one_thing_names_it_and_only_it(tmp_path: Path, leave_out: str, slot: str, named: str) -> None:
    assert failed(check(make_card(tmp_path, leave_out, slot))) == [named]


@needs_tools
@pytest.mark.parametrize(
    ("slot", "change", "named"),
    [
        ("a", ("autoboot.txt", "[tryboot]\nboot_partition=3", "[tryboot]\nboot_partition=2"),
         ["autoboot.txt: [tryboot] starts the other slot's"]),
        ("a", ("autoboot.txt", "tryboot_a_b=1\n", ""),
         ["autoboot.txt: [all] tryboot_a_b=1 (a trial starts the other partition's config.txt)"]),
        # slot B's config.txt without its filter: it would read cmdline.txt, which mounts slot A's root
        ("b", ("config.txt", "[boot_partition=3]\ncmdline=cmdline-b.txt\n", ""),
         ["slot B: its command line mounts its root (spit-root-b) by name",
          "slot B: its command line tells RAUC the slot (rauc.slot=B)"]),
        ("b", ("cmdline-b.txt", "spit-root-b", "spit-root-a"),
         ["slot B: its command line mounts its root (spit-root-b) by name"]),
        ("a", ("fstab", ",x-systemd.growfs", ""),
         ["slot A: fstab: the state partition by its label, grown (x-systemd.growfs)"]),
        ("b", ("fstab", "/boot/firmware vfat ro,", "/boot/firmware vfat rw,"),
         ["slot B: fstab: autoboot.txt's partition (SPITBOOT) at /boot/firmware, read-only"]),
        ("a", ("system.conf", "bootloader=custom", "bootloader=uboot"),
         ["slot A: RAUC: bootloader=custom with spit-slot-switch, each slot's boot and root by name"]),
        ("b", ("system.conf", "spit-boot-b", "mmcblk0p3"),
         ["slot B: RAUC: bootloader=custom with spit-slot-switch, each slot's boot and root by name"]),
        ("b", ("spit-arcade.conf", "ExecCondition", "ExecStartPre"),
         ["slot B: the trial boot's check (spit-arcade-boot-ok) enabled, on trial boots only"]),
        ("a", ("partitions", "name=spit-boot-b", "name=spit-boot-c"),
         ["the disk: boot, spit-boot-a, spit-boot-b, spit-root-a, spit-root-b, spit-state, in that order"]),
        ("a", ("partitions", "B921B045-1DF0-41C3-AF44-4C6F280D3FAE, name=spit-root-b", "L, name=spit-root-b"),
         ["the disk: the root slots of type root-arm64",
          "the disk: the state partition last, the only linux-generic one (systemd-repart grows it)"]),
    ],
)
def test_a_card_with_one_mistake_names_it(tmp_path: Path, slot: str, change: tuple[str, str, str],
                                          named: list[str]) -> None:  # fmt: skip
    assert failed(check(make_card(tmp_path, slot=slot, change=change))) == named


@needs_tools
def test_whether_the_kernel_can_send_the_tryboot_flag_is_read_from_the_kernel_itself(tmp_path: Path) -> None:
    card = make_card(tmp_path)
    assert kernel_sends_tryboot(card) is False  # (an empty kernel file)
    at = f"{card}@@{2 * 1024 * 1024 + 1024 * 1024}"  # slot A's boot partition: after 1 MiB and 2 MiB
    for content, sends in ((b"reboot flags\x00 tryboot\x00more", True), (b"tryboot_a_b\x00", False)):
        kernel = tmp_path / "kernel.gz"
        kernel.write_bytes(gzip.compress(b"\x00" * 4096 + content))
        subprocess.run(["mcopy", "-o", "-i", at, str(kernel), f"::/vmlinuz-{KVER}"], check=True)
        assert kernel_sends_tryboot(card) is sends
