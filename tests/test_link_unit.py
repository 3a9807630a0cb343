"""The link unit (systemd/spit-arcade-link.socket, .service): the game's only way to a linked game's
network. The socket is the one the game calls (only the game's group may), a packet a datagram; the
service runs the relay command of the wheel with the network of the bar alone, no devices, no
privilege, nothing written; the game's own unit keeps no network; install.sh installs both and
enables the socket only (the relay starts when the game calls)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess

import pytest
from test_systemd_service import SYSTEMD, one, parse

from appliance.cli import COMMANDS
from appliance.linked import relay_client as relay

SOCKET = SYSTEMD / "spit-arcade-link.socket"
SERVICE = SYSTEMD / "spit-arcade-link.service"


def test_the_socket_is_the_one_the_game_calls_and_only_the_games_group_may() -> None:
    sock = parse(SOCKET)["Socket"]
    assert one(sock, "ListenSequentialPacket") == str(relay.SOCKET)  # SOCK_SEQPACKET, as RelaySocket makes
    assert (one(sock, "SocketUser"), one(sock, "SocketGroup"), one(sock, "SocketMode")) == ("root", "spit", "0660")
    assert one(sock, "Accept") == "no"  # one relay, handed the listening socket (appliance/shared/unix_listener.py)


def test_the_game_is_told_where_the_link_unit_is() -> None:
    game = parse(SYSTEMD / "spit-arcade.service")["Service"]
    env = dict(value.split("=", 1) for value in game["Environment"])
    assert env[relay.ENV] == str(relay.SOCKET)


def test_it_runs_the_wheels_relay_with_the_bars_network_and_nothing_else() -> None:
    service = parse(SERVICE)["Service"]
    words = shlex.split(one(service, "ExecStart"))
    assert words == ["/opt/spit-arcade/venv/bin/spit-arcade", "link-relay"]
    assert COMMANDS[words[1]][0] == "appliance.linked.relay:main"
    assert one(service, "Type") == "notify"  # relay.main says READY=1
    assert one(service, "RestrictAddressFamilies").split() == ["AF_INET", "AF_INET6", "AF_UNIX"]
    assert one(service, "IPAddressDeny") == "any"
    allowed = one(service, "IPAddressAllow").split()
    assert "any" not in allowed and "0.0.0.0/0" not in allowed and "192.168.0.0/16" in allowed
    assert one(service, "PrivateDevices") == "yes" and "DeviceAllow" not in service
    assert one(service, "DynamicUser") == "yes" and "User" not in service
    # the venue's credential (root:spit-uplink), on the image below the game's state (spit 0750)
    assert one(service, "SupplementaryGroups").split() == ["spit", "spit-uplink"]
    assert one(service, "CapabilityBoundingSet") == "" and one(service, "NoNewPrivileges") == "yes"
    assert one(service, "ProtectSystem") == "strict" and "ReadWritePaths" not in service
    assert "StateDirectory" not in service  # it writes nothing


def test_the_game_keeps_its_sandbox_and_no_network() -> None:
    game = parse(SYSTEMD / "spit-arcade.service")["Service"]
    assert one(game, "PrivateNetwork") == "yes" and one(game, "IPAddressDeny") == "any"
    assert one(game, "RestrictAddressFamilies").split() == ["AF_UNIX", "AF_NETLINK"]  # the relay's socket is AF_UNIX


def test_install_puts_both_in_place_and_enables_only_the_socket() -> None:
    install = (SYSTEMD / "install.sh").read_text()
    for unit in (SOCKET, SERVICE):
        assert f'"$here/systemd/{unit.name}" /etc/systemd/system/{unit.name}' in install
    assert re.search(r"systemctl enable spit-arcade-link\.socket", install)
    assert not re.search(r"systemctl enable[^\n]*spit-arcade-link\.service", install)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_exposure_is_at_most_1_5() -> None:
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(SERVICE)],
                            capture_output=True, text=True, check=False)
    found = re.search(r"Overall exposure level for spit-arcade-link\.service: (\d+\.\d)", result.stdout)
    assert found, result.stdout + result.stderr
    print(f"spit-arcade-link.service: exposure {found.group(1)}")
    assert float(found.group(1)) <= 1.5
