"""systemd/image/tryboot-switch.sh: RAUC's boot loader backend on the Raspberry Pi 4 cabinet, on a
folder that stands for the card's first partition (autoboot.txt) and a file for the kernel's command
line; the reboot's parameter (systemd's /run/systemd/reboot-param) is a file here too. The flow is
Raspberry Pi's A/B example: install into the other slot, one trial boot with "0 tryboot", commit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "systemd" / "image" / "tryboot-switch.sh"
BUILT = "[all]\ntryboot_a_b=1\nboot_partition=2\n[tryboot]\nboot_partition=3\n"  # build-image.sh's


class Card:
    """The first partition, the booted slot's command line and the reboot's parameter."""

    def __init__(self, tmp_path: Path) -> None:
        self.dir = tmp_path / "firmware"
        self.dir.mkdir()
        (self.dir / "autoboot.txt").write_text(BUILT)
        self.cmdline = tmp_path / "cmdline"
        self.param = tmp_path / "run" / "reboot-param"
        self.boot("A")

    def boot(self, slot: str) -> None:
        """A boot of `slot` (/run is empty again: the reboot's parameter is gone)."""
        self.cmdline.write_text(f"console=tty1 root=PARTLABEL=spit-root-{slot.lower()} rauc.slot={slot} ro\n")
        self.param.unlink(missing_ok=True)

    def firmware_boots(self, tryboot: bool) -> str:
        """The slot the Pi's firmware starts: autoboot.txt's [tryboot] with the flag, else [all]."""
        lines = self.autoboot().split("[tryboot]")[1 if tryboot else 0].splitlines()
        number = next(line.split("=")[1] for line in lines if line.startswith("boot_partition="))
        return {"2": "A", "3": "B"}[number]

    def autoboot(self) -> str:
        return (self.dir / "autoboot.txt").read_text()

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {
            "PATH": "/usr/bin:/bin",
            "SPIT_AUTOBOOT_DIR": str(self.dir),
            "SPIT_AUTOBOOT_NO_MOUNT": "1",
            "SPIT_CMDLINE": str(self.cmdline),
            "SPIT_REBOOT_PARAM": str(self.param),
        }
        return subprocess.run(["sh", str(SCRIPT), *args], env=env, capture_output=True, text=True, check=False)

    def out(self, *args: str) -> str:
        done = self.run(*args)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()


@pytest.fixture
def card(tmp_path: Path) -> Card:
    return Card(tmp_path)


def test_the_card_as_built_boots_slot_a_and_both_slots_are_good(card: Card) -> None:
    assert card.out("get-primary") == "A"
    assert card.out("get-current") == "A"
    assert [card.out("get-state", s) for s in "AB"] == ["good", "good"]
    assert card.run("is-trial").returncode == 1  # slot A is autoboot.txt's [all]: not on trial


def test_an_install_into_b_asks_one_trial_boot_and_a_good_b_is_committed(card: Card) -> None:
    # RAUC: the target is marked bad while it is written, then made primary.
    assert card.out("set-state", "B", "bad") == ""
    assert card.out("get-state", "B") == "bad"
    card.out("set-primary", "B")
    assert card.out("get-state", "B") == "good"
    assert card.param.read_text().strip() == "0 tryboot"  # what the next reboot passes the firmware
    assert card.out("get-primary") == "B"  # (the updater offers the restart only then)
    assert card.autoboot() == BUILT  # not committed: without the flag the firmware still boots A
    # The reboot "0 tryboot": the firmware starts [tryboot]'s partition, once.
    slot = card.firmware_boots(tryboot=card.param.exists())
    assert slot == "B"
    card.boot(slot)
    assert card.run("is-trial").returncode == 0
    assert card.out("get-primary") == "A"  # a power cut now: [all]'s slot, A
    # spit-arcade-boot-ok: the game came up; the slot on trial is committed.
    card.out("set-state", card.out("get-current"), "good")
    assert card.autoboot() == "[all]\ntryboot_a_b=1\nboot_partition=3\n[tryboot]\nboot_partition=2\n"
    assert card.out("get-primary") == "B"
    assert card.run("is-trial").returncode == 1
    card.boot(card.firmware_boots(tryboot=False))
    assert card.out("get-current") == "B"


def test_a_trial_that_fails_leaves_a_booting_and_b_bad(card: Card) -> None:
    card.out("set-state", "B", "bad")
    card.out("set-primary", "B")
    card.boot(card.firmware_boots(tryboot=True))
    assert card.out("get-current") == "B"
    # spit-arcade-boot-ok: the game did not come up; the slot is marked bad, the cabinet restarts.
    card.out("set-state", "B", "bad")
    assert card.autoboot() == BUILT
    assert not card.param.exists()
    card.boot(card.firmware_boots(tryboot=card.param.exists()))
    assert card.out("get-current") == "A"
    assert card.out("get-primary") == "A"
    assert card.out("get-state", "B") == "bad"  # the updater's "rolled back"
    assert card.run("is-trial").returncode == 1


def test_a_power_cut_during_the_trial_or_before_the_reboot_boots_the_old_slot(card: Card) -> None:
    card.out("set-state", "B", "bad")
    card.out("set-primary", "B")
    card.boot(card.firmware_boots(tryboot=False))  # the plug pulled: no reboot, no flag
    assert card.out("get-current") == "A"
    assert card.out("get-primary") == "A"


def test_the_next_update_goes_into_a_from_b(card: Card) -> None:
    (card.dir / "autoboot.txt").write_text("[all]\ntryboot_a_b=1\nboot_partition=3\n[tryboot]\nboot_partition=2\n")
    card.boot("B")
    card.out("set-state", "A", "bad")
    card.out("set-primary", "A")
    assert card.autoboot() == "[all]\ntryboot_a_b=1\nboot_partition=3\n[tryboot]\nboot_partition=2\n"
    assert card.firmware_boots(tryboot=True) == "A"
    card.boot("A")
    card.out("set-state", "A", "good")
    assert card.autoboot() == BUILT


def test_set_primary_of_the_booted_slot_commits_it_and_asks_no_trial(card: Card) -> None:
    card.out("set-state", "B", "bad")
    card.out("set-primary", "B")
    card.out("set-primary", "A")  # (rauc status mark-active on A: the install is called off)
    assert card.autoboot() == BUILT
    assert not card.param.exists()
    assert card.out("get-primary") == "A"


def test_marking_the_committed_slot_bad_gives_autoboot_to_the_other(card: Card) -> None:
    card.out("set-state", "A", "bad")
    assert card.autoboot() == "[all]\ntryboot_a_b=1\nboot_partition=3\n[tryboot]\nboot_partition=2\n"
    assert card.out("get-primary") == "B"


def test_what_it_cannot_do_it_says(card: Card) -> None:
    assert card.run("set-primary", "C").returncode == 1
    assert "no slot C" in card.run("set-primary", "C").stderr
    assert card.run("set-state", "B", "maybe").returncode == 1
    (card.dir / "autoboot.txt").write_text("[all]\ntryboot_a_b=1\nboot_partition=5\n")
    done = card.run("get-primary")
    assert done.returncode == 1
    assert "partition '5'" in done.stderr
    (card.dir / "autoboot.txt").unlink()
    assert "no " in card.run("get-primary").stderr
    card.cmdline.write_text("console=tty1 ro\n")
    assert "booted slot is not known" in card.run("set-primary", "B").stderr
