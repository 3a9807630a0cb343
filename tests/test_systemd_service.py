"""The kiosk service: starts a command line `spit-arcade play` accepts, comes back whatever ends it
(backing off when it keeps failing), tells systemd it is alive, runs as a user that owns nothing it
runs, with only the devices it needs and no network; and the cabinet's keyboard reaches nothing else."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from appliance import check_config
from appliance.display import app

SYSTEMD = Path(__file__).resolve().parent.parent / "systemd"
UNIT = SYSTEMD / "spit-arcade.service"


def parse(path: Path) -> dict[str, dict[str, list[str]]]:
    """A unit file as systemd reads it: every assignment kept (DeviceAllow= and the like add up)."""
    sections: dict[str, dict[str, list[str]]] = {}
    section: dict[str, list[str]] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        section.setdefault(key.strip(), []).append(value.strip())
    return sections


def one(values: dict[str, list[str]], key: str) -> str:
    (value,) = values[key]
    return value


@pytest.fixture(scope="module")
def service() -> dict[str, list[str]]:
    return parse(UNIT)["Service"]


def test_the_service_runs_play_in_the_kiosk_from_the_root_owned_venv(service: dict[str, list[str]]) -> None:
    words = shlex.split(one(service, "ExecStart"))
    assert words[0] == "/opt/spit-arcade/venv/bin/spit-arcade" and words[1] == "play"
    args = app.parse_args(words[2:])
    settings = app.apply_options(app.Settings(), args)
    assert settings.kiosk and args.fullscreen and settings.layout == "tabletop"
    # `spit-arcade check-config --cabinet` checks the very files the service reads.
    assert (args.config, args.inputs) == (check_config.CABINET_CONFIG, check_config.CABINET_INPUTS)


def test_the_service_restarts_whatever_ends_it_and_backs_off(service: dict[str, list[str]]) -> None:
    unit = parse(UNIT)["Unit"]
    assert one(service, "Restart") == "always"
    assert int(one(unit, "StartLimitBurst")) >= 3 and one(unit, "StartLimitIntervalSec") not in ("0", "infinity")
    # systemd 252 (bookworm, the base of Raspberry Pi OS) knows no RestartSteps=/RestartMaxDelaySec=:
    # the back-off is a script of our own, run as root before each start.
    assert "RestartSteps" not in service and "RestartMaxDelaySec" not in service
    assert service["ExecStartPre"] == ["+/usr/local/libexec/spit-arcade-backoff"]
    assert "/usr/local/libexec/spit-arcade-backoff" in (SYSTEMD / "install.sh").read_text()
    fallback = one(unit, "OnFailure")
    assert (SYSTEMD / fallback).exists()
    script = parse(SYSTEMD / fallback)["Service"]["ExecStart"][0]
    assert script == "/usr/local/libexec/spit-arcade-fallback"
    text = (SYSTEMD / "fallback.sh").read_text()
    assert "/dev/tty1" in text and "reset-failed spit-arcade.service" in text and "start" in text


def test_systemd_is_told_the_game_is_alive(service: dict[str, list[str]]) -> None:
    assert one(service, "Type") == "notify" and one(service, "NotifyAccess") == "main"
    assert re.fullmatch(r"\d+s", one(service, "WatchdogSec")) and int(one(service, "WatchdogSec")[:-1]) >= 5


def test_it_runs_as_a_user_with_no_privileges(service: dict[str, list[str]]) -> None:
    assert one(service, "User") not in ("root", "0") and one(service, "User") == one(service, "Group")
    for key, value in {
        "NoNewPrivileges": "yes",
        "CapabilityBoundingSet": "",
        "AmbientCapabilities": "",
        "RestrictSUIDSGID": "yes",
        "PrivateUsers": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes",
        "ProtectKernelLogs": "yes",
        "ProtectControlGroups": "yes",
        "ProtectClock": "yes",
        "ProtectHostname": "yes",
        "ProtectProc": "invisible",
        "RestrictNamespaces": "yes",
        "RestrictRealtime": "yes",
        "LockPersonality": "yes",
        "SystemCallArchitectures": "native",
        "UMask": "0027",
    }.items():
        assert service[key] == [value], key
    assert service["SystemCallFilter"][0] == "@system-service"
    assert {"@privileged", "@mount", "@module", "@raw-io", "@reboot"} <= set(service["SystemCallFilter"][1][1:].split())
    assert "ReadWritePaths" not in service  # it writes its StateDirectory and RuntimeDirectory, nothing else


def test_only_the_devices_it_needs_and_no_network(service: dict[str, list[str]]) -> None:
    assert one(service, "DevicePolicy") == "closed"
    assert sorted(service["DeviceAllow"]) == sorted(
        [
            "char-drm rw",  # the screen
            "char-gpiochip rw",  # the panels (lgpio)
            "/dev/gpiomem rw",  # the panels (older pin factories)
            "char-alsa rw",  # sound
            "char-input r",  # keyboards
            "/dev/tty1 rw",  # the console it draws on
            "char-ttyACM rw",  # remote pads: a Pico's USB serial
            "char-ttyUSB rw",  # remote pads: a USB-serial adapter
        ]
    )
    assert one(service, "PrivateNetwork") == "yes" and one(service, "IPAddressDeny") == "any"
    # sd_notify, and SDL's udev device events (it crashed in pygame.display.init() on the first boot)
    assert one(service, "RestrictAddressFamilies") == "AF_UNIX AF_NETLINK"


def test_what_the_first_boot_found_stays_fixed(service: dict[str, list[str]]) -> None:
    """Mesa's software renderer needs writable, executable memory; a serial console has no login; a
    pad's or sound card's driver is loaded before the unit resolves its DeviceAllow= by driver."""
    assert service.get("MemoryDenyWriteExecute", ["no"]) == ["no"]
    install = (SYSTEMD / "install.sh").read_text()
    for tty in ("ttyS0", "ttyAMA0"):
        assert tty in install
    assert 'systemctl mask "serial-getty@$tty.service"' in install
    modules = (SYSTEMD / "modules-load.conf").read_text().split()
    assert {"snd", "usbserial", "cdc_acm"} <= set(modules)
    assert "systemd-modules-load.service" in " ".join(parse(UNIT)["Unit"]["After"])
    # gpio: a group plain Debian lacks; SupplementaryGroups= of a missing group fails the unit (216/GROUP)
    assert "groupadd --system gpio" in install and "60-spit-arcade-gpio.rules" in install


@pytest.mark.parametrize(
    ("earlier", "waits"),
    [
        ([], ""),  # the first start in ten minutes: at once
        ([1000], "1"),
        ([1000, 1001], "2"),
        ([1000, 1001, 1003], "4"),
        ([1000, 1001, 1003, 1007, 1015], "16"),
        ([1000 + n for n in range(9)], "30"),  # at most 30 s
        ([100, 200, 300], ""),  # starts more than ten minutes ago are forgotten
    ],
)
def test_the_back_off_grows_from_1_to_30_seconds(tmp_path: Path, earlier: list[int], waits: str) -> None:
    starts = tmp_path / "starts"
    starts.write_text("".join(f"{t}\n" for t in earlier))
    env = {"SPIT_BACKOFF_STARTS": str(starts), "SPIT_BACKOFF_NOW": "1020", "SPIT_BACKOFF_SLEEP": "echo"}
    env["PATH"] = "/usr/bin:/bin"
    done = subprocess.run(["sh", str(SYSTEMD / "backoff.sh")], env=env, capture_output=True, text=True, check=True)
    said = done.stdout.strip().splitlines()
    assert (said[-1] if said and not said[-1].startswith("spit-arcade") else "") == waits
    assert starts.read_text().split()[-1] == "1020"  # this start is kept for the next


def test_it_writes_only_its_state_and_lgpio_has_a_working_directory(service: dict[str, list[str]]) -> None:
    state = "/var/lib/" + one(service, "StateDirectory").split()[0]
    env = dict(value.split("=", 1) for value in service["Environment"])
    assert env["SPIT_ARCADE_JOURNALS"].startswith(state + "/")
    assert str(check_config.CABINET_CONFIG).startswith(state + "/")
    assert one(service, "WorkingDirectory") == "/run/" + one(service, "RuntimeDirectory")


def test_the_keyboard_reaches_nothing_but_the_game() -> None:
    logind = parse(SYSTEMD / "logind.conf")["Login"]
    assert logind["NAutoVTs"] == ["0"] and logind["ReserveVT"] == ["0"] and logind["HandlePowerKey"] == ["ignore"]
    assert parse(SYSTEMD / "system.conf")["Manager"]["CtrlAltDelBurstAction"] == ["none"]
    assert re.search(r"^kernel\.sysrq\s*=\s*0$", (SYSTEMD / "sysctl.conf").read_text(), re.M)
    remap = (SYSTEMD / "console-remap.inc").read_text()
    for code in (59, 68, 87, 88):  # Ctrl+Alt+F1, F10, F11, F12
        assert f"control alt keycode {code} = VoidSymbol" in remap
    install = (SYSTEMD / "install.sh").read_text()
    for step in (
        "systemctl mask ctrl-alt-del.target",
        "logind.conf.d/spit-arcade.conf",
        "system.conf.d/spit-arcade.conf",
        "sysctl.d/90-spit-arcade.conf",
        "consoleblank=0",
        "remap.inc",
        "systemctl disable getty@tty1.service",
    ):
        assert step in install, step


def test_the_install_is_a_wheel_in_a_root_owned_venv() -> None:
    install = (SYSTEMD / "install.sh").read_text()
    assert "cp -a" not in install and "pip install -e" not in install and "[dev]" not in install
    assert '"$here/systemd/build-wheel.sh"' in install
    assert "-m pip wheel" in (SYSTEMD / "build-wheel.sh").read_text()
    assert "chown -R root:root \"$prefix\"" in install and "--shell /usr/sbin/nologin" in install
    subprocess.run(["bash", "-n", str(SYSTEMD / "install.sh")], check=True)
    subprocess.run(["bash", "-n", str(SYSTEMD / "build-wheel.sh")], check=True)
    subprocess.run(["sh", "-n", str(SYSTEMD / "fallback.sh")], check=True)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_exposure_is_at_most_2() -> None:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(UNIT)], capture_output=True, text=True, check=False
    )
    found = re.search(r"Overall exposure level for spit-arcade\.service: (\d+\.\d)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) <= 2.0
