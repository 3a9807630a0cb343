"""What a Pi 4 needs on the card, read from an image: config.txt and cmdline.txt as the Pi's firmware
reads them, and a small card made here (FAT boot, ext4 root) that has it all, then lacks one thing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from lab.cabinet.pi_card import Finding, check, cmdline_findings, config_values, tools_missing

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


def test_cmdline_txt_needs_the_root_by_label_read_only_and_no_blanking() -> None:
    good = "console=tty1 root=LABEL=spit-root rw fsck.repair=yes rootwait ro consoleblank=0\n"
    assert [f.ok for f in cmdline_findings(good)] == [True, True, True, True]
    rw_last = "root=LABEL=spit-root ro consoleblank=0 rw"
    assert [f.ok for f in cmdline_findings(rw_last)] == [True, False, True, True]
    by_device = "root=/dev/mmcblk0p2 ro consoleblank=0"
    assert [f.ok for f in cmdline_findings(by_device)] == [False, True, True, True]
    two_lines = "root=LABEL=spit-root ro\nconsoleblank=0"
    assert [f.ok for f in cmdline_findings(two_lines)] == [True, True, True, False]


def make_card(tmp_path: Path, leave_out: str = "") -> Path:
    """A card laid out as build-image.sh lays the arm64 one: FAT boot, ext4 root, ext4 state."""
    boot = tmp_path / "boot"
    boot.mkdir()
    files = {
        "start4.elf": "", "fixup4.dat": "", "bcm2711-rpi-4-b.dtb": "", f"vmlinuz-{KVER}": "",
        f"initrd.img-{KVER}": "", "config.txt": DEBIAN_CONFIG.replace("6.1.0-99-arm64", KVER),
        "cmdline.txt": "console=tty1 root=LABEL=spit-root rw rootwait ro consoleblank=0\n",
    }  # fmt: skip
    for name, text in files.items():
        if name != leave_out:
            (boot / name).write_text(text)
    root = tmp_path / "root"
    drm = root / f"usr/lib/modules/{KVER}/kernel/drivers/gpu/drm"
    tree = {
        f"{drm}/vc4/vc4.ko.xz": "", f"{drm}/v3d/v3d.ko.xz": "",
        f"{root}/usr/lib/modules/{KVER}/modules.builtin": "kernel/drivers/pinctrl/bcm/pinctrl-bcm2835.ko\n",
        f"{root}/usr/lib/modules/{KVER}/modules.dep": "",
        f"{root}/usr/lib/aarch64-linux-gnu/dri/v3d_dri.so": "",
        f"{root}/opt/spit-arcade/venv-1/bin/spit-arcade": "",
        f"{root}/opt/spit-arcade/venv-1/lib/python3.11/site-packages/lgpio.py": "",
        f"{root}/etc/systemd/system/multi-user.target.wants/spit-arcade.service": "",
        f"{root}/etc/fstab": "LABEL=spit-root / ext4 ro,noatime 0 1\n"
                             "LABEL=spit-state /var/lib/spit-arcade ext4 rw,noatime,nofail 0 2\n",
    }  # fmt: skip
    for path, text in tree.items():
        if leave_out and path.endswith(leave_out):
            continue
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text)
    (root / "opt/spit-arcade/venv").symlink_to("venv-1")
    run = lambda *cmd: subprocess.run(cmd, check=True, capture_output=True)  # noqa: E731
    run("mkfs.vfat", "-C", str(tmp_path / "boot.vfat"), str(8 * 1024))
    run("mcopy", "-s", "-i", str(tmp_path / "boot.vfat"), *[str(p) for p in boot.iterdir()], "::/")
    run("mkfs.ext4", "-q", "-L", "spit-root", "-d", str(root), str(tmp_path / "root.ext4"), "8M")
    card = tmp_path / "card.img"
    with card.open("wb") as out:
        out.truncate(26 * 1024 * 1024)
    subprocess.run(["sfdisk", "--quiet", str(card)], input="label: dos\nstart=1MiB, size=8MiB, type=c\n"
                   "size=8MiB, type=L\nsize=8MiB, type=L\n", text=True, check=True)  # fmt: skip
    run("dd", f"if={tmp_path / 'boot.vfat'}", f"of={card}", "bs=1M", "seek=1", "conv=notrunc", "status=none")
    run("dd", f"if={tmp_path / 'root.ext4'}", f"of={card}", "bs=1M", "seek=9", "conv=notrunc", "status=none")
    return card


needs_tools = pytest.mark.skipif(
    bool(tools_missing()) or not (shutil.which("mkfs.vfat") and shutil.which("mkfs.ext4")),
    reason="needs sfdisk, mtools, e2fsprogs and dosfstools (apt-get install mtools dosfstools)",
)


def failed(findings: list[Finding]) -> list[str]:
    return [f.what for f in findings if not f.ok]


@needs_tools
def test_a_card_with_everything_passes_every_check(tmp_path: Path) -> None:
    findings = check(make_card(tmp_path))
    assert failed(findings) == []
    assert len(findings) == 18


@needs_tools
@pytest.mark.parametrize(
    ("leave_out", "named"),
    [
        ("start4.elf", "the Pi 4's firmware (start4.elf, fixup4.dat)"),
        ("bcm2711-rpi-4-b.dtb", "the Pi 4's device tree (bcm2711-rpi-4-b.dtb)"),
        (f"initrd.img-{KVER}", "config.txt: its initramfs is on the card"),
        ("v3d.ko.xz", "the kernel's Pi 4 GPU driver (v3d)"),
        ("v3d_dri.so", "Mesa's v3d driver (the game's drawing on the Pi's GPU)"),
        ("lgpio.py", "lgpio for gpiozero (the panels' GPIO)"),
        ("modules.builtin", "the kernel's Pi 4 GPIO driver (pinctrl-bcm2835), built in or a module"),
        ("spit-arcade.service", "the kiosk unit enabled"),
    ],
)
def test_a_card_lacking_one_thing_names_it_and_only_it(tmp_path: Path, leave_out: str, named: str) -> None:
    assert failed(check(make_card(tmp_path, leave_out))) == [named]
