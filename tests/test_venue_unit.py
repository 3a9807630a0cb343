"""The venue uplink's unit: off unless the cabinet has a [venue], the only unit with a network, no
devices, its own user, writing only its own state, and the command line it starts is one the uplink
takes (the files it names are the uplink's defaults)."""

from __future__ import annotations

import inspect
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from test_systemd_service import SYSTEMD, one, parse

from appliance.venue import setup, uplink

UNIT = SYSTEMD / "spit-arcade-uplink.service"


def test_it_starts_only_where_the_cabinet_has_a_venue() -> None:
    unit = parse(UNIT)["Unit"]
    assert one(unit, "ConditionPathExists") == str(uplink.SETTINGS)


def test_it_runs_the_uplink_on_the_files_the_uplink_reads_by_default(tmp_path: Path) -> None:
    words = shlex.split(one(parse(UNIT)["Service"], "ExecStart"))
    assert words[0] == "/opt/spit-arcade/venv/bin/spit-arcade" and words[1] == "uplink"
    assert words[2:] == ["--settings", str(uplink.SETTINGS), "--state", str(uplink.STATE)]


def test_no_devices_no_privilege_and_only_its_own_state_written() -> None:
    service = parse(UNIT)["Service"]
    assert one(service, "PrivateDevices") == "yes" and "DeviceAllow" not in service
    assert one(service, "User") == "spit-uplink" and one(service, "Group") == "spit"
    assert one(service, "ProtectSystem") == "strict" and one(service, "StateDirectory") == "spit-arcade/venue"
    assert "ReadWritePaths" not in service
    assert one(service, "CapabilityBoundingSet") == "" and one(service, "NoNewPrivileges") == "yes"
    assert one(service, "IPAddressDeny") == "any"


def test_the_uplink_holds_the_group_its_credential_is_written_for() -> None:
    """systemd gives the process Group= and SupplementaryGroups=, and of the user's groups only those
    that list it as a member (getgrouplist): install.sh's `useradd --user-group` makes spit-uplink's
    own group with no members, and `usermod -aG spit` lists it in spit. The setup writes the venue's
    files root:spit-uplink 0640: the uplink must hold that group (booted without it: EACCES)."""
    service = parse(UNIT)["Service"]
    install = (SYSTEMD / "install.sh").read_text()
    listed = set(re.findall(r"usermod -aG (\S+) spit-uplink", install))
    held = {one(service, "Group"), *" ".join(service.get("SupplementaryGroups", [])).split(), *listed}
    group = inspect.signature(setup.take).parameters["group"].default
    assert group in held, f"the uplink runs with groups {sorted(held)}, not {group}"


def test_the_game_keeps_no_network() -> None:
    game = parse(SYSTEMD / "spit-arcade.service")["Service"]
    assert one(game, "PrivateNetwork") == "yes" and one(game, "IPAddressDeny") == "any"


def test_the_uplink_is_off_without_a_venue_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "venue.toml").write_text("# nothing here\n")
    assert uplink.main(["--settings", str(tmp_path / "venue.toml"), "--state", str(tmp_path)]) == 0
    assert "the venue is off" in capsys.readouterr().out
    assert not (tmp_path / "venue").exists()  # no outbox, no board: nothing made, nothing sent
    assert uplink.main(["--settings", str(tmp_path / "missing.toml"), "--state", str(tmp_path)]) == 0


@pytest.mark.parametrize(("text", "says"), [
    ('[venue]\nbroker = "v"\ncabinet = "table-1"\nca = "a"\ncert = "b"\n', "needs key"),
    ('[venue]\nbroker = "v"\ncabinet = "Table 1"\nca = "a"\ncert = "b"\nkey = "c"\n', "not a cabinet name"),
    ('[venue]\nbroker = "v"\ncabinet = "t"\nca = "a"\ncert = "b"\nkey = "c"\nport = 0\n', "port"),
    ('[venue]\nbroker = "v"\ncabinet = "t"\nca = "a"\ncert = "b"\nkey = "c"\nhost = "x"\n', "unknown key"),
    ('[venue\n', "venue.toml"),
])
def test_a_wrong_venue_section_says_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  text: str, says: str) -> None:
    (tmp_path / "venue.toml").write_text(text)
    assert uplink.main(["--settings", str(tmp_path / "venue.toml"), "--state", str(tmp_path)]) == 2
    assert says in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_exposure_is_at_most_1_5() -> None:
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(UNIT)],
                            capture_output=True, text=True, check=False)
    found = re.search(r"Overall exposure level for spit-arcade-uplink\.service: (\d+\.\d)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) <= 1.5
