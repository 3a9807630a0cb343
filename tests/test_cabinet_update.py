"""The virtual cabinet's update steps, as far as they run without a machine: the report's keys, the
bundles' versions, the stick's disk and what counts as state lost."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from appliance.updater.server import CHECKING
from appliance.updater.slots import fallback_words
from lab.cabinet.bundles import Bundles, newer, put_file, set_game_version, stick_image
from lab.cabinet.checks import Report
from lab.cabinet.update import ASK, Updates


def test_the_report_has_the_update_keys_the_issue_names() -> None:
    figures = json.loads(Report().json())
    for key in ("update_tried", "update_applied", "update_rollback_tried", "update_rolled_back",
                "update_power_cuts_tried", "update_power_cuts_booted", "bundles_bad_tried", "bundles_refused",
                "update_s", "update_driven_by", "stick_mounted", "stick_pulled"):  # fmt: skip
        assert key in figures, key


def test_a_newer_version_has_its_last_number_one_more() -> None:
    assert newer("0.1.0") == "0.1.1"
    assert newer("0.1.9", 2) == "0.1.11"
    assert newer("1.2.3rc") == "1.2.4rc"
    assert newer("abc") == "abc.1"


def test_state_lost_is_named_and_state_added_is_not() -> None:
    before = {"credits": [[3]], "coins": 3, "games": 2, "high_scores": [["sprint", "VMU", 4321.0, 0, 1]],
              "config": "ab12", "journals": ["a.jsonl", "b.jsonl"]}  # fmt: skip
    assert Updates.kept(before, {**before, "games": 3, "journals": ["a.jsonl", "b.jsonl", "c.jsonl"]}) == []
    lost = Updates.kept(before, {**before, "coins": 0, "high_scores": [], "journals": ["b.jsonl"]})
    assert lost == ["coins", "high_scores", "journal a.jsonl"]
    assert "the store unreadable" in Updates.kept(before, {"config": "ab12", "journals": before["journals"]})


@pytest.mark.skipif(not all(shutil.which(t) for t in ("mkfs.vfat", "mcopy", "mdir", "sfdisk")),
                    reason="needs dosfstools, mtools and fdisk")  # fmt: skip
def test_the_stick_holds_the_files_on_its_first_partition_and_has_a_second(tmp_path: Path) -> None:
    bundle = tmp_path / "spit-arcade-0.1.1-amd64.raucb"
    bundle.write_bytes(b"bundle" * 1000)
    stick = stick_image(tmp_path / "stick.img", [bundle])
    table = json.loads(subprocess.run(["sfdisk", "--json", str(stick)], capture_output=True, check=True).stdout)
    parts = table["partitiontable"]["partitions"]
    assert len(parts) == 2 and parts[0]["start"] == 2048
    listed = subprocess.run(["mdir", "-b", "-i", f"{stick}@@{2048 * 512}", "::/"], capture_output=True, text=True)
    assert bundle.name in listed.stdout


@pytest.mark.skipif(not all(shutil.which(t) for t in ("mkfs.ext4", "debugfs")), reason="needs e2fsprogs")
def test_a_file_is_written_into_an_ext4_image_without_mounting_it(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "etc").mkdir(parents=True)
    rootfs = tmp_path / "root.ext4"
    subprocess.run(["mkfs.ext4", "-q", "-d", str(tree), str(rootfs), "8M"], check=True)
    put_file(rootfs, "/etc/version", "0.1.1\n")
    put_file(rootfs, "/etc/version", "0.1.2\n")  # written again: replaced
    put_file(rootfs, "/etc/d/x.conf", "[Service]\n", mkdir="/etc/d")
    said = subprocess.run(["debugfs", "-R", "cat /etc/version", str(rootfs)], capture_output=True, text=True)
    assert said.stdout == "0.1.2\n"


@pytest.mark.skipif(not all(shutil.which(t) for t in ("mkfs.ext4", "debugfs", "e2fsck")), reason="needs e2fsprogs")
def test_the_newer_bundles_game_says_its_new_version_where_it_reads_it(tmp_path: Path) -> None:
    """The installed package's metadata (what the updater and the service menu show), its folder's
    name, and appliance.__version__ (its cached bytecode gone); the file system still clean."""
    packages = tmp_path / "tree/opt/spit-arcade/venv/lib/python3.11/site-packages"
    (packages / "spit_arcade-0.1.0.dist-info").mkdir(parents=True)
    (packages / "spit_arcade-0.1.0.dist-info/METADATA").write_text("Metadata-Version: 2.1\nName: spit-arcade\n"
                                                                    "Version: 0.1.0\nSummary: x\n")  # fmt: skip
    (packages / "appliance/__pycache__").mkdir(parents=True)
    (packages / "appliance/__init__.py").write_text('"""The game."""\n\n__version__ = "0.1.0"\n')
    (packages / "appliance/__pycache__/__init__.cpython-311.pyc").write_bytes(b"old")
    (packages / "appliance/__pycache__/store.cpython-311.pyc").write_bytes(b"kept")
    rootfs = tmp_path / "root.ext4"
    subprocess.run(["mkfs.ext4", "-q", "-d", str(tmp_path / "tree"), str(rootfs), "8M"], check=True)
    assert set_game_version(rootfs, "0.1.1") == "0.1.0"

    def cat(path: str) -> str:
        return subprocess.run(["debugfs", "-R", f"cat {path}", str(rootfs)], capture_output=True, text=True).stdout

    def ls(path: str) -> str:
        return subprocess.run(["debugfs", "-R", f"ls {path}", str(rootfs)], capture_output=True, text=True).stdout

    site = "/opt/spit-arcade/venv/lib/python3.11/site-packages"
    assert "Version: 0.1.1\n" in cat(f"{site}/spit_arcade-0.1.1.dist-info/METADATA")
    assert "spit_arcade-0.1.0.dist-info" not in ls(site)
    assert '__version__ = "0.1.1"' in cat(f"{site}/appliance/__init__.py")
    assert "__init__.cpython" not in ls(f"{site}/appliance/__pycache__")
    assert "store.cpython" in ls(f"{site}/appliance/__pycache__")
    checked = subprocess.run(["e2fsck", "-fn", str(rootfs)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert set_game_version(rootfs, "0.1.2") == "0.1.1"  # (again, as for the broken bundle)
    assert "Version: 0.1.2\n" in cat(f"{site}/spit_arcade-0.1.2.dist-info/METADATA")


def test_the_updater_is_asked_in_the_cabinet_by_a_script_that_compiles() -> None:
    compile(ASK, "spit-vm-ask.py", "exec")
    assert "from appliance.updater.protocol import Client" in ASK


def test_an_installs_phases_are_timed_by_the_guests_clock() -> None:
    replies = [{"event": "progress", "step": CHECKING, "percent": 0, "t": 100.0},
               {"event": "progress", "step": "Installing", "percent": 0, "t": 350.5},
               {"event": "progress", "step": "Copying image to rootfs.1", "percent": 40, "t": 400.0},
               {"event": "done", "ok": True, "t": 600.0}]  # fmt: skip
    install = Updates.phases_of_install(replies)
    assert install == {"check_s": 250.5, "rauc_s": 249.5, "done_t": 600.0}
    after = {"kernel_t": 700.0, "firmware_s": 3.1, "loader_s": 0.5, "game_up_s": 90.0, "flushes": 4.0,
             "flush_ms": 1.0, "marked_bad_t": 650.0}  # fmt: skip
    phases = Updates.phases({**install, "cpu_s_rauc": 120.0}, {"flushes": 10.0, "flush_ms": 5.0}, after)
    assert phases["install_end_to_kernel_s"] == 100.0 and phases["game_up_s"] == 90.0
    assert phases["install_end_to_marked_bad_s"] == 50.0 and phases["marked_bad_to_kernel_s"] == 50.0
    assert phases["cpu_s_rauc"] == 120.0 and "done_t" not in phases
    assert "install_end_to_marked_bad_s" not in Updates.phases(install, {}, {**after, "marked_bad_t": 10.0})


def test_a_rollbacks_words_must_name_the_real_versions_and_the_bound_used() -> None:
    """What the lab requires of the updater's words after the rollback: the version that did not come
    up, the one gone back to (as the games report them) and this run's bound, not the default's."""
    updates = Updates.__new__(Updates)
    updates.bundles = Bundles("0.1.0", "0.1.1", Path("good.raucb"), Path("broken.raucb"), broken_version="0.1.2")
    assert updates.names_it(fallback_words("0.1.2", "0.1.1", 1, 900, 3, "starts"), 900.0)
    assert not updates.names_it(fallback_words("0.1.2", "0.1.1", 1), 900.0)  # the default 300 s
    assert not updates.names_it(fallback_words("0.1.2", "0.1.0", 1, 900, 3), 900.0)  # the slot's old version
