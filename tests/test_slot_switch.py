"""systemd/image/slot-switch.sh: RAUC's boot loader backend on the amd64 cabinet, on a folder that
stands for the EFI system partition (the booted cabinet runs it for real: `cabinet-test`'s A/B step)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "systemd" / "image" / "slot-switch.sh"
KERNEL = b"a kernel of slot B"


@pytest.fixture
def esp(tmp_path: Path) -> Path:
    """The ESP as the image is built: slot A's entry, good, version 1; no entry for B."""
    entries = tmp_path / "esp" / "loader" / "entries"
    entries.mkdir(parents=True)
    (entries / "spit-a.conf").write_text(
        "title Spit Arcade (slot A)\nsort-key spit-arcade\nversion 1\nlinux /spit-a/vmlinuz\n"
        "initrd /spit-a/initrd.img\noptions root=PARTLABEL=spit-root-a rauc.slot=A ro quiet\n"
    )
    slot = tmp_path / "slot-b"
    (slot / "boot").mkdir(parents=True)
    (slot / "boot" / "vmlinuz-6.1.0-9-amd64").write_bytes(KERNEL)
    (slot / "boot" / "initrd.img-6.1.0-9-amd64").write_bytes(b"its initrd")
    (slot / "etc" / "kernel").mkdir(parents=True)
    (slot / "etc" / "kernel" / "cmdline").write_text("ro rootwait quiet consoleblank=0\n")
    (tmp_path / "cmdline").write_text("BOOT_IMAGE=/spit-a/vmlinuz root=PARTLABEL=spit-root-a rauc.slot=A ro\n")
    return tmp_path / "esp"


def switch(esp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": "/usr/bin:/bin",
        "SPIT_ESP": str(esp),
        "SPIT_ESP_NO_MOUNT": "1",
        "SPIT_CMDLINE": str(esp.parent / "cmdline"),
        "SPIT_SLOT_SOURCE": str(esp.parent / "slot-b"),
    }
    return subprocess.run(["sh", str(SCRIPT), *args], env=env, capture_output=True, text=True)


def said(esp: Path, *args: str) -> str:
    done = switch(esp, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def entries(esp: Path) -> list[str]:
    return sorted(path.name for path in (esp / "loader" / "entries").iterdir())


def test_a_fresh_image_boots_a_and_b_is_bad(esp: Path) -> None:
    assert said(esp, "get-primary") == "A"
    assert said(esp, "get-state", "A") == "good"
    assert said(esp, "get-state", "B") == "bad"
    assert said(esp, "get-current") == "A"


def test_set_primary_writes_the_slots_kernel_and_an_entry_with_three_tries(esp: Path) -> None:
    said(esp, "set-primary", "B")
    assert entries(esp) == ["spit-a.conf", "spit-b+3.conf"]
    entry = (esp / "loader" / "entries" / "spit-b+3.conf").read_text().splitlines()
    assert "version 2" in entry
    assert "linux /spit-b/vmlinuz" in entry
    assert "options root=PARTLABEL=spit-root-b rauc.slot=B ro rootwait quiet consoleblank=0" in entry
    assert (esp / "spit-b" / "vmlinuz").read_bytes() == KERNEL
    assert (esp / "spit-b" / "initrd.img").read_bytes() == b"its initrd"
    assert said(esp, "get-primary") == "B"  # the newest version, and not bad: what systemd-boot boots
    assert said(esp, "get-state", "B") == "good"  # tries left: not bad yet


def test_a_slot_out_of_tries_is_bad_and_the_other_boots(esp: Path) -> None:
    said(esp, "set-primary", "B")
    entries_dir = esp / "loader" / "entries"
    (entries_dir / "spit-b+3.conf").rename(entries_dir / "spit-b+0-3.conf")  # systemd-boot, three boots
    assert said(esp, "get-state", "B") == "bad"
    assert said(esp, "get-primary") == "A"


def test_marks_good_and_bad_rename_the_entries(esp: Path) -> None:
    said(esp, "set-primary", "B")
    entries_dir = esp / "loader" / "entries"
    (entries_dir / "spit-b+3.conf").rename(entries_dir / "spit-b+2-1.conf")  # booted once
    said(esp, "set-state", "B", "good")
    assert entries(esp) == ["spit-a.conf", "spit-b.conf"]
    said(esp, "set-state", "A", "bad")
    assert entries(esp) == ["spit-a+0.conf", "spit-b.conf"]
    assert said(esp, "get-primary") == "B"
    (esp.parent / "cmdline").write_text("root=PARTLABEL=spit-root-b rauc.slot=B ro\n")  # B booted now
    said(esp, "set-primary", "A")  # installed again: a higher version than B's, three tries
    assert said(esp, "get-current") == "B"
    assert entries(esp) == ["spit-a+3.conf", "spit-b.conf"]
    assert "version 3" in (entries_dir / "spit-a+3.conf").read_text().splitlines()
    assert said(esp, "get-primary") == "A"


def test_the_running_slot_made_primary_needs_no_tries(esp: Path) -> None:
    said(esp, "set-primary", "A")  # `rauc status mark-active booted`
    assert entries(esp) == ["spit-a.conf"]
    assert "version 1" in (esp / "loader" / "entries" / "spit-a.conf").read_text().splitlines()


def test_no_slot_that_can_boot_and_bad_words_are_errors(esp: Path) -> None:
    said(esp, "set-state", "A", "bad")
    done = switch(esp, "get-primary")
    assert done.returncode != 0 and "no slot can boot" in done.stderr
    for args in (("set-state", "C", "good"), ("set-state", "C", "bad"), ("get-state", "X"),
                 ("set-primary", "C"), ("set-state", "A", "fine"), ("frobnicate",)):
        done = switch(esp, *args)
        assert done.returncode != 0 and done.stderr.startswith("spit-slot-switch: "), args
    assert entries(esp) == ["spit-a+0.conf"]  # nothing changed by the wrong words
