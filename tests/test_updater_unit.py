"""The updater's units: socket-activated, the socket only the game's group may use, root with one
capability (to read the stick, which the image mounts as the game's), no network, the file system
read-only; the command it starts is the wheel's `spit-arcade-updater`, which listens where the
game's client connects. The exposure `systemd-analyze security --offline=yes` gives is reported
(0.9 when measured) and must stay ≤ 1.0."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib

import pytest
from test_systemd_service import SYSTEMD, one, parse

from appliance.updater import protocol

SOCKET = SYSTEMD / "spit-arcade-updater.socket"
SERVICE = SYSTEMD / "spit-arcade-updater.service"


def test_the_socket_is_the_clients_and_only_the_games_group_may_connect() -> None:
    socket = parse(SOCKET)["Socket"]
    assert one(socket, "ListenStream") == str(protocol.SOCKET)
    owner = (one(socket, "SocketUser"), one(socket, "SocketGroup"), one(socket, "SocketMode"))
    assert owner == ("root", "spit", "0660")
    assert one(socket, "Accept") == "no"  # one updater, all connections: one install at a time
    assert one(parse(SOCKET)["Install"], "WantedBy") == "sockets.target"
    assert "enable spit-arcade-updater.socket" in (SYSTEMD / "install.sh").read_text()


def test_it_runs_the_wheels_updater_as_root_with_one_capability_and_no_network() -> None:
    service = parse(SERVICE)["Service"]
    project = tomllib.loads((SYSTEMD.parent / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["spit-arcade-updater"] == "appliance.updater.server:main"
    assert one(service, "ExecStart") == "/opt/spit-arcade/venv/bin/spit-arcade-updater"
    assert one(service, "User") == "root" and one(service, "CapabilityBoundingSet") == "CAP_DAC_READ_SEARCH"
    assert one(service, "NoNewPrivileges") == "yes" and one(service, "PrivateNetwork") == "yes"
    assert one(service, "RestrictAddressFamilies") == "AF_UNIX" and one(service, "ProtectSystem") == "strict"
    assert "ReadWritePaths" not in service and "StateDirectory" not in service  # it writes nothing
    assert "Install" not in parse(SERVICE)  # started by its socket only


def test_the_game_stays_without_privilege_and_network() -> None:
    game = parse(SYSTEMD / "spit-arcade.service")["Service"]
    assert one(game, "User") == "spit" and one(game, "CapabilityBoundingSet") == ""
    assert one(game, "PrivateNetwork") == "yes"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
@pytest.mark.parametrize(("unit", "bound"), [(SERVICE, 1.0), (SYSTEMD / "spit-arcade.service", 1.0)])
def test_the_exposure(unit: object, bound: float) -> None:
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(unit)],
                            capture_output=True, text=True, check=False)  # fmt: skip
    found = re.search(r"Overall exposure level for (\S+): (\d+\.\d)", result.stdout)
    assert found, result.stdout + result.stderr
    print(f"{found.group(1)}: exposure {found.group(2)}")
    assert float(found.group(2)) <= bound
