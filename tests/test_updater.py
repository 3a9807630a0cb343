"""The updater (appliance/updater/): the game's narrow way to updates, over its real socket and
protocol, with the real `rauc` binary: bundles made by make-bundle.sh with the development key and a
second, throwaway key; every bad bundle refused in plain words; an install driven through RAUC's own
D-Bus service on a private bus (D-Bus activation, as on the cabinet), its progress read as RAUC says
it. `.ci/run` installs rauc, squashfs-tools and dbus where they are missing."""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from appliance.updater import bundles, slots
from appliance.updater.protocol import MAX_LINE, Client, decode, encode
from appliance.updater.server import NOT_ON_STICK, Server, Updater, install_refusal

IMAGE = Path(__file__).resolve().parents[1] / "systemd" / "image"
MAKE = IMAGE / "make-bundle.sh"
CA = IMAGE / "dev-keys" / "ca.cert.pem"
TOOLS = ("rauc", "mksquashfs", "mkfs.ext4", "openssl", "dbus-daemon", "veritysetup")
BOOTED = "0.1.0"


@pytest.fixture(scope="module", autouse=True)
def tools() -> None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        why = f"needs {', '.join(missing)} (apt-get install rauc squashfs-tools e2fsprogs openssl dbus cryptsetup-bin)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)


# ---------------------------------------------------------------------- bundles, made as the lab makes them
@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every bundle the tests put on sticks, made once: good ones of three versions, one for arm64,
    one signed by another key, an unsigned one, two tampered ones and a file that is no bundle."""
    work = tmp_path_factory.mktemp("made")
    tree = work / "tree"
    (tree / "etc").mkdir(parents=True)
    (tree / "noise").write_bytes(random.Random(23).randbytes(300_000))
    rootfs = work / "root.ext4"
    subprocess.run(["mkfs.ext4", "-q", "-L", "spit-root", "-d", str(tree), str(rootfs), "8M"], check=True)
    changes = work / "changes.txt"
    changes.write_text("Faster deal\nRunning Spit: sprint times kept\n")
    out: dict[str, Path] = {}

    def make(key: str, version: str, *extra: str, arch: str = "amd64") -> None:
        path = work / f"spit-arcade-{version}-{arch}-{key}.raucb"
        args = ["--rootfs", str(rootfs), "--arch", arch, "--version", version, "--out", str(path), *extra]
        done = subprocess.run(["bash", str(MAKE), *args], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        out[key] = path

    make("new", "0.2.0", "--changes", str(changes))
    make("newer", "0.10.0")
    make("old", "0.0.9")
    make("same", BOOTED)
    make("arm", "0.2.0", arch="arm64")
    other_ca, other_key = work / "other-ca.pem", work / "other-ca.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30",
         "-subj", "/O=Someone Else/CN=not the cabinet's key", "-keyout", str(other_key), "-out", str(other_ca)],
        check=True, capture_output=True,
    )  # fmt: skip
    make("other_key", "0.2.0", "--cert", str(other_ca), "--key", str(other_key), "--keyring", str(other_ca))
    unsigned = work / "unsigned"
    unsigned.mkdir()
    (unsigned / "manifest.raucm").write_text("[update]\ncompatible=spit-arcade-amd64\nversion=9.9.9\n")
    (unsigned / "rootfs.ext4").write_bytes(random.Random(5).randbytes(100_000))
    out["unsigned"] = work / "unsigned.raucb"
    subprocess.run(["mksquashfs", str(unsigned), str(out["unsigned"]), "-quiet", "-all-root", "-noappend"], check=True)
    data = bytearray(out["new"].read_bytes())
    data[len(data) - 200] ^= 0x01  # one byte of the signature
    out["tampered"] = work / "tampered.raucb"
    out["tampered"].write_bytes(bytes(data))
    data = bytearray(out["new"].read_bytes())
    data[len(data) // 3] ^= 0x01  # one byte of the payload (the root file system): the signature still holds
    out["damaged"] = work / "damaged.raucb"
    out["damaged"].write_bytes(bytes(data))
    out["junk"] = work / "junk.raucb"
    out["junk"].write_bytes(b"not a bundle\n" * 100)
    return out


def stick_with(tmp_path: Path, made: dict[str, Path], *keys: str) -> Path:
    stick = tmp_path / "stick"
    stick.mkdir(exist_ok=True)
    for key in keys:
        shutil.copy(made[key], stick / f"{key}.raucb")
    (stick / "spit-arcade").mkdir(exist_ok=True)  # the audits' export folder: not a bundle
    (stick / "notes.txt").write_text("not a bundle either\n")
    return stick


def cabinet(tmp_path: Path, compatible: str = "spit-arcade-amd64") -> bundles.Cabinet:
    """A cabinet's RAUC configuration in a folder: the development CA as its keyring, slots as files,
    the custom boot loader backend a small script that keeps its answers in files."""
    conf = tmp_path / "rauc" / "system.conf"
    conf.parent.mkdir(exist_ok=True)
    backend = conf.parent / "backend.sh"
    backend.write_text(
        "#!/bin/sh\nd=$(dirname \"$0\")\n"
        'case "$1" in get-primary) cat "$d/primary" 2>/dev/null || echo A ;; set-primary) echo "$2" >"$d/primary" ;;\n'
        '  get-state) cat "$d/state-$2" 2>/dev/null || echo good ;; set-state) echo "$3" >"$d/state-$2" ;; esac\n'
    )
    backend.chmod(0o755)
    for slot in "AB":
        with open(conf.parent / f"slot{slot}.img", "wb") as image:
            image.truncate(16 << 20)
    (conf.parent / "mnt").mkdir(exist_ok=True)
    conf.write_text(
        f"[system]\ncompatible={compatible}\nbootloader=custom\nmountprefix={conf.parent}/mnt\nbundle-formats=verity\n"
        f"statusfile={conf.parent}/status.raucs\n\n[keyring]\npath={CA}\ncheck-purpose=codesign\n"
        f"use-bundle-signing-time=true\n\n[handlers]\nbootloader-custom-backend={backend}\n\n"
        f"[slot.rootfs.0]\ndevice={conf.parent}/slotA.img\ntype=ext4\nbootname=A\n\n"
        f"[slot.rootfs.1]\ndevice={conf.parent}/slotB.img\ntype=ext4\nbootname=B\n"
    )
    return bundles.Cabinet.read(conf, BOOTED)


@pytest.fixture
def bus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private D-Bus that starts RAUC's service when first asked (activation, as the cabinet's
    system bus does), booted from slot A; `rauc install`/`status` find it by DBUS_SYSTEM_BUS_ADDRESS."""
    conf = cabinet(tmp_path).conf
    assert conf is not None
    services = tmp_path / "dbus-services"
    services.mkdir()
    (services / "de.pengutronix.rauc.service").write_text(
        f"[D-BUS Service]\nName=de.pengutronix.rauc\nExec={shutil.which('rauc')} service --conf={conf} "
        "--override-boot-slot=A\n"
    )
    address = tmp_path / "bus"
    (tmp_path / "bus.conf").write_text(
        '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"\n'
        ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">\n'
        f"<busconfig><type>session</type><listen>unix:path={address}</listen><servicedir>{services}</servicedir>"
        '<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/>'
        '<allow receive_sender="*"/></policy></busconfig>\n'
    )
    daemon = subprocess.Popen(["dbus-daemon", f"--config-file={tmp_path / 'bus.conf'}", "--nofork", "--print-address"],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert daemon.stdout is not None
    assert daemon.stdout.readline().strip()  # printed once it listens
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", f"unix:path={address}")
    try:
        yield conf
    finally:
        # RAUC's service (the bus's child) ends when its bus goes
        daemon.terminate()
        daemon.wait(10)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, Updater]]:
    """The updater on a real socket in a folder (as systemd's socket unit hands it over), the stick
    a folder too (SPIT_ARCADE_STICK's way)."""
    stick = tmp_path / "stick"
    stick.mkdir()
    updater = Updater(cabinet(tmp_path), stick=lambda: stick if stick.is_dir() else None, reboot=lambda: None,
                      entries=tmp_path / "entries")  # fmt: skip
    path = tmp_path / "updater.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(4)
    server = Server(updater, listener, idle_s=600)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        yield path, updater
    finally:
        server.stop()
        thread.join(10)
        listener.close()


def reasons(looked: dict[str, Any]) -> dict[str, str]:
    return {b["name"]: b["refused"] for b in looked["bundles"]}


# ---------------------------------------------------------------------- look
def test_look_lists_every_bundle_on_the_stick_newest_first_with_its_signer_and_changes(
    served: tuple[Path, Updater], made: dict[str, Path], tmp_path: Path
) -> None:
    path, _ = served
    stick_with(tmp_path, made, "new", "newer", "old")
    with Client(path) as client:
        looked = client.ask("look")
    assert looked["ok"] and looked["v"] == 1 and looked["req"] == "look" and looked["stick"] is True
    assert looked["booted"] == {"version": BOOTED}
    assert [(b["name"], b["version"], b["compare"]) for b in looked["bundles"]] == [
        ("newer.raucb", "0.10.0", "newer"), ("new.raucb", "0.2.0", "newer"), ("old.raucb", "0.0.9", "older")]
    new = looked["bundles"][1]
    assert new["installable"] and not new["needs_confirm"] and new["refused"] == ""
    assert new["signer"] == "Spit Arcade DEVELOPMENT signer - not for the field"  # (its O is in its CN)
    assert new["compatible"] == "spit-arcade-amd64"
    assert new["description"].splitlines() == ["Spit Arcade 0.2.0 for amd64", "Faster deal",
                                               "Running Spit: sprint times kept"]
    old = looked["bundles"][2]
    assert old["installable"] and old["needs_confirm"]  # a downgrade: only when confirmed


def test_every_bad_bundle_is_refused_in_plain_words(
    served: tuple[Path, Updater], made: dict[str, Path], tmp_path: Path
) -> None:
    path, _ = served
    stick_with(tmp_path, made, "unsigned", "tampered", "other_key", "arm", "same", "junk")
    with Client(path) as client:
        said = reasons(client.ask("look"))
    assert said == {
        "arm.raucb": "made for another machine (spit-arcade-arm64); this cabinet is spit-arcade-amd64",
        "same.raucb": "the cabinet runs 0.1.0 already: nothing to update",
        "unsigned.raucb": "not signed: this bundle has no signature, and the cabinet installs only signed bundles",
        "other_key.raucb": "not signed by this cabinet's key: it was signed by someone else, or changed after it "
                           "was signed",
        "tampered.raucb": "not signed by this cabinet's key: it was signed by someone else, or changed after it "
                          "was signed",
        "junk.raucb": "not an update bundle (or only part of one): copy it again",
    }  # fmt: skip


def test_a_read_only_stick_is_only_read(served: tuple[Path, Updater], made: dict[str, Path], tmp_path: Path) -> None:
    """Nothing is written to the stick (a full or read-only one looks the same): every file, folder
    and time on it is as it was."""
    path, _ = served
    stick = stick_with(tmp_path, made, "new", "unsigned")

    def snapshot() -> list[tuple[str, int, int]]:
        return sorted((str(p.relative_to(stick)), p.stat().st_size, p.stat().st_mtime_ns) for p in stick.rglob("*"))

    before = snapshot()
    for mode_path in [stick, *stick.rglob("*")]:
        mode_path.chmod(0o555 if mode_path.is_dir() else 0o444)
    try:
        with Client(path) as client:
            looked = client.ask("look")
    finally:
        for mode_path in [stick, *stick.rglob("*")]:
            mode_path.chmod(0o755 if mode_path.is_dir() else 0o644)
    assert [b["name"] for b in looked["bundles"]] == ["new.raucb", "unsigned.raucb"]
    assert snapshot() == before


def test_no_stick_and_a_stick_pulled_while_it_is_read(made: dict[str, Path], tmp_path: Path) -> None:
    stick = stick_with(tmp_path, made, "new", "newer")
    updater = Updater(cabinet(tmp_path), stick=lambda: None)
    assert updater.look() == {"ok": True, "booted": {"version": BOOTED}, "stick": False, "bundles": []}

    def pulled(args: list[str]) -> subprocess.CompletedProcess[str]:
        shutil.rmtree(stick)  # gone between the stick's listing and RAUC's read
        return bundles.run_rauc(args)

    updater = Updater(cabinet(tmp_path), stick=lambda: stick, run=pulled)
    looked = updater.look()
    assert {b["refused"] for b in looked["bundles"]} == {
        "the stick was pulled (or the bundle removed) while it was being read: plug it in and look again"}


# ---------------------------------------------------------------------- install
def install(path: Path, name: str, confirm: bool = False) -> list[dict[str, Any]]:
    with Client(path, timeout_s=120) as client:
        client.send("install", name=name, confirm_downgrade=confirm)
        said = []
        for reply in client.replies():
            said.append(reply)
            if reply.get("event") == "done":
                return said
    raise AssertionError(f"no end: {said}")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("../new.raucb", NOT_ON_STICK),
        ("/etc/passwd", NOT_ON_STICK),
        ("notes.txt", NOT_ON_STICK),
        ("gone.raucb", NOT_ON_STICK),
        ("arm.raucb", "made for another machine (spit-arcade-arm64); this cabinet is spit-arcade-amd64"),
        ("same.raucb", "the cabinet runs 0.1.0 already: nothing to update"),
        ("unsigned.raucb", "not signed: this bundle has no signature, and the cabinet installs only signed bundles"),
    ],
)
def test_install_takes_only_a_good_bundle_the_stick_holds_by_its_name(
    served: tuple[Path, Updater], made: dict[str, Path], tmp_path: Path, name: str, words: str
) -> None:
    path, updater = served
    stick_with(tmp_path, made, "arm", "same", "unsigned")
    said = install(path, name)
    assert said == [{"v": 1, "req": "install", "event": "done", "name": name, "version": said[-1]["version"],
                     "ok": False, "refused": words, "detail": said[-1].get("detail", "")}]  # fmt: skip
    assert updater.last_install is not None and updater.last_install["refused"] == words


def test_a_downgrade_is_refused_until_it_is_confirmed(
    served: tuple[Path, Updater], made: dict[str, Path], tmp_path: Path, bus: Path
) -> None:
    path, _ = served
    stick_with(tmp_path, made, "old")
    said = install(path, "old.raucb")
    assert said[-1]["ok"] is False and said[-1]["needs_confirm"] is True
    assert said[-1]["refused"] == ("0.0.9 is older than 0.1.0, which the cabinet runs: going back is installed only "
                                   "when the operator confirms it")  # fmt: skip
    confirmed = install(path, "old.raucb", confirm=True)
    assert confirmed[0]["event"] == "progress"  # handed to RAUC


def test_an_install_goes_through_raucs_service_with_its_progress(
    served: tuple[Path, Updater], made: dict[str, Path], tmp_path: Path, bus: Path
) -> None:
    """RAUC's own service (started on the private bus) checks the signature and the manifest and
    reports its progress, which the game is told step by step. Where the kernel has no device
    mapper (this container: no /dev/mapper/control), RAUC cannot open a verity bundle and says so:
    the install ends there, refused in plain words, nothing written; on a cabinet it goes on to
    write the other slot and make it primary (the virtual cabinet's update step)."""
    path, updater = served
    stick_with(tmp_path, made, "new")
    said = install(path, "new.raucb")
    progress = [r for r in said if r["event"] == "progress"]
    percents = [r["percent"] for r in progress]
    assert percents == sorted(percents) and percents[0] == 0
    steps = [r["step"] for r in progress]
    assert "Verifying signature done." in steps and "Checking manifest contents" in steps
    done = said[-1]
    if os.path.exists("/dev/mapper/control"):
        assert done["ok"] is True, done
        assert (done["from"], done["to"]) == (BOOTED, "0.2.0")
        state = updater.status()
        assert state["last"]["outcome"] == "installed" and state["primary"] == "B"
    else:
        assert done["ok"] is False
        assert done["refused"] == (f"RAUC could not open the bundle to check it ({done['detail']}). "
                                   "The running version is untouched.")  # fmt: skip
        assert "/dev/mapper/control" in done["detail"]


def test_a_bundle_changed_after_it_was_signed_is_refused_before_rauc_writes_a_byte(
    made: dict[str, Path], tmp_path: Path
) -> None:
    """One byte of the payload changed: `rauc info` still takes it (the signature covers the manifest,
    whose root hash covers the payload), so look offers it; the install checks every block first and
    refuses it without asking RAUC to install (RAUC's own install would find it only part-way through
    writing the other slot). The same bundle unchanged passes the check and goes on to RAUC."""
    stick = stick_with(tmp_path, made, "damaged", "new")
    asked = tmp_path / "rauc-install-asked"
    rauc = tmp_path / "rauc-install.sh"
    rauc.write_text(f"#!/bin/sh\necho \"$@\" >>{asked}\nexit 1\n")
    rauc.chmod(0o755)
    updater = Updater(cabinet(tmp_path), stick=lambda: stick, rauc=str(rauc))
    assert {b["name"]: b["installable"] for b in updater.look()["bundles"]} == {"new.raucb": True,
                                                                               "damaged.raucb": True}
    told: list[dict[str, Any]] = []
    done = updater.install("damaged.raucb", False, told.append)
    assert done["ok"] is False and done["refused"] == (
        "damaged: its contents do not match its signature (changed, or copied badly): copy it again. "
        "The running version is untouched.")  # fmt: skip
    assert "Verification" in done["detail"]  # veritysetup's own words
    assert [t["step"] for t in told] == ["checking every block of the bundle"]
    assert not asked.exists()
    assert bundles.check_payload(stick / "new.raucb", cabinet(tmp_path)) == ("", "")
    updater.install("new.raucb", False, told.append)
    assert asked.read_text().split()[-1] == str(stick / "new.raucb")


def test_the_check_of_every_block_says_why_it_could_not_be_made(made: dict[str, Path], tmp_path: Path) -> None:
    """The stick pulled before the check, another key's bundle (RAUC refuses its signature before
    anything is read), and a cabinet whose image lacks veritysetup."""
    stick = stick_with(tmp_path, made, "new", "other_key")
    gone = bundles.check_payload(stick / "gone.raucb", cabinet(tmp_path))
    assert gone[0].startswith("the stick was pulled")
    other = bundles.check_payload(stick / "other_key.raucb", cabinet(tmp_path))
    assert other[0].startswith("not signed by this cabinet's key")

    def without_veritysetup(args: list[str], timeout: float | None) -> subprocess.CompletedProcess[str]:
        if args[0] == "veritysetup":
            raise FileNotFoundError(2, "No such file or directory", "veritysetup")
        return bundles.run_tool(args, timeout)

    said = bundles.check_payload(stick / "new.raucb", cabinet(tmp_path), tool=without_veritysetup)
    assert said == ("the cabinet cannot check bundles (veritysetup is missing): its image is incomplete", "")


def test_a_second_install_while_one_runs_is_refused(made: dict[str, Path], tmp_path: Path) -> None:
    stick = stick_with(tmp_path, made, "new")
    updater = Updater(cabinet(tmp_path), stick=lambda: stick)
    with updater.lock:
        reply = updater.install("new.raucb", False, lambda message: None)
    assert reply == {"ok": False, "refused": "an update is being installed already: wait for it to end"}


def test_the_stick_pulled_during_the_install(made: dict[str, Path], tmp_path: Path, bus: Path) -> None:
    stick = stick_with(tmp_path, made, "new")
    told: list[dict[str, Any]] = []

    def checked_then_pulled(args: list[str]) -> subprocess.CompletedProcess[str]:
        done = bundles.run_rauc(args)
        if args[0] == "info":
            shutil.rmtree(stick)  # pulled after the check, before RAUC opens it to install
        return done

    updater = Updater(cabinet(tmp_path), stick=lambda: stick, run=checked_then_pulled)
    done = updater.install("new.raucb", False, told.append)
    assert told[0]["event"] == "progress"
    assert done["ok"] is False and done["refused"] == (
        "the stick was pulled during the install: plug it in and install again. The running version is untouched.")
    assert install_refusal("Failed to read: Input/output error", made["new"]).startswith(
        "the bundle could not be read to its end: it is damaged")


# ---------------------------------------------------------------------- status, reboot
def test_status_through_raucs_service_on_a_cabinet_never_updated(
    served: tuple[Path, Updater], bus: Path
) -> None:
    path, _ = served
    with Client(path) as client:
        state = client.ask("status")
        reboot = client.ask("reboot")
    assert state["ok"] is True
    assert state["booted"] == {"slot": "A", "version": BOOTED, "boot_status": "good"}
    assert state["primary"] == "A" and state["other"]["slot"] == "B"
    assert state["last"] == {"outcome": "none"} and state["installing"] is None
    assert reboot == {"v": 1, "req": "reboot", "ok": False, "refused": "no installed update waits for a restart"}


def rauc_status(a: dict[str, Any], b: dict[str, Any], booted: str = "A", primary: str = "rootfs.0") -> dict[str, Any]:
    """`rauc status --detailed --output-format=json` as RAUC 1.8 writes it."""
    def slot(bootname: str, state: str, extra: dict[str, Any]) -> dict[str, Any]:
        return {"class": "rootfs", "device": f"/dev/disk/by-partlabel/spit-root-{bootname.lower()}", "type": "ext4",
                "bootname": bootname, "state": state, "parent": None, "mountpoint": None, **extra}  # fmt: skip

    return {"compatible": "spit-arcade-amd64", "variant": "", "booted": booted, "boot_primary": primary,
            "slots": [{"rootfs.1": slot("B", "booted" if booted == "B" else "inactive", b)},
                      {"rootfs.0": slot("A", "booted" if booted == "A" else "inactive", a)}]}  # fmt: skip


AT = "2026-11-25T23:00:00Z"


def installed(version: str, at: str) -> dict[str, Any]:
    return {"bundle": {"compatible": "spit-arcade-amd64", "version": version}, "status": "ok",
            "installed": {"timestamp": at, "count": 1}}  # fmt: skip


def test_the_last_updates_outcome_from_the_slots(tmp_path: Path) -> None:
    entries = tmp_path / "entries"
    entries.mkdir()
    none = {"bundle": {"compatible": None}}
    fresh = slots.outcome(rauc_status({"boot_status": "good", "slot_status": none},
                                      {"boot_status": "bad", "slot_status": none}), BOOTED, entries)
    assert fresh["last"] == {"outcome": "none"}
    waiting = slots.outcome(rauc_status({"boot_status": "good", "slot_status": none},
                                        {"boot_status": "good", "slot_status": installed("0.2.0", AT)},
                                        primary="rootfs.1"), BOOTED, entries)  # fmt: skip
    assert waiting["last"]["outcome"] == "installed" and waiting["primary"] == "B"
    applied = slots.outcome(rauc_status({"boot_status": "good", "slot_status": none},
                                        {"boot_status": "good", "slot_status": installed("0.2.0", AT)},
                                        booted="B", primary="rootfs.1"), "0.2.0", entries)  # fmt: skip
    assert applied["last"] == {"outcome": "applied", "to": "0.2.0", "installed": AT}
    (entries / "spit-a.conf").write_text("")
    (entries / "spit-b+0-1.conf").write_text("")
    fell_back = slots.outcome(rauc_status({"boot_status": "good", "slot_status": none},
                                          {"boot_status": "bad", "slot_status": installed("0.2.0", AT)}),
                              BOOTED, entries, tmp_path / "no-record")  # fmt: skip
    assert fell_back["last"] == {
        "outcome": "rolled_back", "from": BOOTED, "to": "0.2.0", "installed": AT, "tries": 1, "bound_s": 300,
        "starts": 3,
        "why": "0.2.0 did not come up (tried on 1 boot): its game did not show the title within 300 s of power-on, "
               "or failed 3 starts; the cabinet went back to 0.1.0 by itself"}  # fmt: skip


def test_a_rollbacks_words_name_the_boot_checks_own_bound_and_what_ran_out(tmp_path: Path) -> None:
    """The bound and starts in the words are those the new slot's boot check used, as it wrote them
    when it marked the slot bad (an emulated cabinet's 900 s, not the 300 s default), with which ran
    out; a record of the other slot, or one older than the slot's installation, is not taken."""
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / "spit-b+0-1.conf").write_text("")
    record = tmp_path / "boot-ok-failed"
    record.write_text("slot=B\nbound_s=900\nstarts=3\nfailed=starts\n")
    status = rauc_status({"boot_status": "good", "slot_status": none_installed()},
                         {"boot_status": "bad", "slot_status": installed("0.1.2", AT)})
    last = slots.outcome(status, "0.1.1", entries, record)["last"]
    assert last["bound_s"] == 900 and last["starts"] == 3
    assert last["why"] == ("0.1.2 did not come up (tried on 1 boot): its game did not show the title within 900 s of "
                           "power-on, or failed 3 starts (here: 3 starts failed); the cabinet went back to 0.1.1 by "
                           "itself")  # fmt: skip
    record.write_text("slot=B\nbound_s=900\nstarts=3\nfailed=bound\n")
    assert "(here: no title within 900 s)" in slots.outcome(status, "0.1.1", entries, record)["last"]["why"]
    record.write_text("slot=A\nbound_s=900\nstarts=3\nfailed=bound\n")  # (the other slot's)
    assert slots.outcome(status, "0.1.1", entries, record)["last"]["bound_s"] == 300
    record.write_text("slot=B\nbound_s=900\nstarts=3\nfailed=bound\n")
    before = datetime.fromisoformat(AT.replace("Z", "+00:00")).timestamp() - 60
    os.utime(record, (before, before))  # (written before the slot was installed: an earlier rollback's)
    stale = slots.outcome(status, "0.1.1", entries, record)["last"]
    assert stale["bound_s"] == 300 and "here:" not in stale["why"] and "within 300 s" in stale["why"]


def none_installed() -> dict[str, Any]:
    return {"bundle": {"compatible": None}}


def test_a_restart_into_the_installed_slot_is_answered_before_the_cabinet_goes_down(tmp_path: Path) -> None:
    """The reply first, then the restart: a restart begun first takes the updater and the line to it
    down before the service menu hears that it goes ahead (the virtual cabinet: "no reply")."""
    waiting = rauc_status({"boot_status": "good", "slot_status": {"bundle": {"compatible": None}}},
                          {"boot_status": "good", "slot_status": installed("0.2.0", AT)}, primary="rootfs.1")
    answered, restarted = threading.Event(), []

    def status(args: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(args, 0, json.dumps(waiting), "")

    updater = Updater(cabinet(tmp_path), stick=lambda: None, run=status, entries=tmp_path / "entries",
                      reboot=lambda: restarted.append(answered.wait(30)))
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(tmp_path / "updater.sock"))
    listener.listen(1)
    server = Server(updater, listener, idle_s=600)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        with Client(tmp_path / "updater.sock") as client:
            reply = client.ask("reboot")
            answered.set()
            assert client.ask("status")["primary"] == "B"  # (the restart has been asked for by now)
    finally:
        server.stop()
        thread.join(10)
        listener.close()
    assert reply == {"v": 1, "req": "reboot", "ok": True, "slot": "B"}
    assert restarted == [True]  # asked once, after the reply had reached the service menu


# ---------------------------------------------------------------------- the protocol
def test_what_is_not_a_request_is_refused_and_the_connection_closed(served: tuple[Path, Updater]) -> None:
    path, _ = served
    for line, words in (
        (b"hello\n", "not understood: not JSON"),
        (b'{"v": 2, "req": "look"}\n', "not understood: protocol version 2; this updater speaks 1"),
        (b"[1]\n", "not understood: not a JSON object"),
        (b"x" * (MAX_LINE + 10) + b"\n", "not understood: a line longer than"),
    ):
        with Client(path) as client:
            client.sock.sendall(line)
            replies = list(client.replies())
        assert len(replies) == 1 and replies[0]["ok"] is False and replies[0]["refused"].startswith(words)
    with Client(path) as client:
        assert client.ask("format") == {"v": 1, "req": "format", "ok": False,
                                        "refused": "no such request 'format': look, install, status, reboot"}
        assert client.ask("status")["req"] == "status"  # the connection goes on after a refused request
    assert decode(encode({"req": "look"})) == {"v": 1, "req": "look"}


def test_versions_compare_as_semantic_versions() -> None:
    assert bundles.compare("0.10.0", "0.9.9") == "newer"
    assert bundles.compare("1.0.0-rc1", "1.0.0") == "older"
    assert bundles.compare("1.0", "1.0.0") == "same"
    assert bundles.compare("0.2.0+build5", "0.2.0") == "same"
