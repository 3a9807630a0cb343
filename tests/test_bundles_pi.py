"""The Raspberry Pi 4's update bundle (systemd/image/make-bundle.sh --bootfs): a slot's root file
system and its FAT boot partition, two images RAUC writes together (system-tryboot.conf's `bootfs`
slots are the `rootfs` slots' children), for spit-arcade-arm64 only. RAUC from Debian's packages."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

IMAGE = Path(__file__).resolve().parents[1] / "systemd" / "image"
CA = IMAGE / "dev-keys" / "ca.cert.pem"


def test_an_arm64_bundle_holds_the_root_and_the_boot_partition_for_the_slots_rauc_knows(tmp_path: Path) -> None:
    missing = [tool for tool in ("rauc", "mksquashfs", "mkfs.ext4", "mkfs.vfat", "mcopy") if shutil.which(tool) is None]
    if missing:
        why = f"needs {', '.join(missing)} (apt-get install rauc squashfs-tools e2fsprogs dosfstools mtools)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    tree = tmp_path / "tree"
    (tree / "etc").mkdir(parents=True)
    (tree / "etc" / "os-release").write_text('NAME="Spit Arcade test root"\n')
    (tree / "noise").write_bytes(os.urandom(200_000))
    root = tmp_path / "root.ext4"
    subprocess.run(["mkfs.ext4", "-q", "-L", "spit-root", "-d", str(tree), str(root), "8M"], check=True)
    boot = tmp_path / "boot.vfat"
    subprocess.run(["mkfs.vfat", "-n", "SPITSLOT", "-C", str(boot), "4096"], check=True, capture_output=True)
    (tmp_path / "config.txt").write_text("arm_64bit=1\n[boot_partition=3]\ncmdline=cmdline-b.txt\n[all]\n")
    subprocess.run(["mcopy", "-i", str(boot), str(tmp_path / "config.txt"), "::/"], check=True)
    out = tmp_path / "spit-arcade-0.2.0-arm64.raucb"
    args = ["--rootfs", str(root), "--bootfs", str(boot), "--arch", "arm64", "--version", "0.2.0"]
    done = subprocess.run(["bash", str(IMAGE / "make-bundle.sh"), *args, "--out", str(out)], capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    info = subprocess.run(["rauc", "info", "--output-format=json", f"--keyring={CA}", str(out)], capture_output=True,
                          text=True)  # fmt: skip
    assert info.returncode == 0, info.stderr
    said = json.loads(info.stdout)
    assert said["compatible"] == "spit-arcade-arm64"
    images = {name: image["filename"] for each in said["images"] for name, image in each.items()}
    assert images == {"rootfs": "rootfs.ext4", "bootfs": "bootfs.vfat"}
    conf = (IMAGE / "rauc" / "system-tryboot.conf").read_text()
    for n, s in enumerate("ab"):  # the bundle's classes are slots on the card, each boot a root's child
        assert f"[slot.bootfs.{n}]\ndevice=/dev/disk/by-partlabel/spit-boot-{s}\ntype=vfat\nparent=rootfs.{n}" in conf
    elsewhere = [*args[:2], "--bootfs", str(tmp_path / "none"), *args[4:], "--out", str(tmp_path / "x.raucb")]
    no_boot = subprocess.run(["bash", str(IMAGE / "make-bundle.sh"), *elsewhere], capture_output=True, text=True)
    assert no_boot.returncode == 2 and "no boot file system" in no_boot.stderr
