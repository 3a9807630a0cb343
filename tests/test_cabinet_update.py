"""The virtual cabinet's update steps, as far as they run without a machine: the report's keys, the
bundles' versions, the stick's disk and what counts as state lost."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from lab.cabinet.bundles import newer, put_file, stick_image
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


def test_the_updater_is_asked_in_the_cabinet_by_a_script_that_compiles() -> None:
    compile(ASK, "spit-vm-ask.py", "exec")
    assert "from appliance.updater.protocol import Client" in ASK
