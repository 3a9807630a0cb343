"""The link unit in the booted cabinet (`cabinet-test --only link`): with no linked game its socket
waits (root:spit, 0660) and nothing of it runs or listens; a process in the game's own sandbox (the
game's user, `PrivateNetwork=yes`, `IPAddressDeny=any`, only AF_UNIX and AF_NETLINK: it cannot open
a UDP socket itself) opens a listening link through it; systemd starts the relay, which listens on
the port asked; a wire datagram sent to that port in the cabinet reaches the sandboxed process and
its answer comes back; when it closes, the port closes. The unit's exposure is read in the booted
system (`systemd-analyze security`), as the game's and the uplink's are.

Not here (docs/linked.md says what is left): a whole linked game between the booted cabinet and a
table on the host, and its press -> screen figures: under TCG the emulated game draws about a frame
a second at this machine's load, and a linked table sends its word (the beat) once a frame, so the
other table would pause for want of it every few frames; the step needs a faster emulated frame first.
"""

from __future__ import annotations

import contextlib
import shlex
import time
from typing import Any

from .vm import Machine, VmError

SOCKET = "/run/spit-arcade-link.sock"
PORT = 50070
PROBE = "spit-link-probe"
# The game's network sandbox (systemd/spit-arcade.service), its user, and the relay's client.
SANDBOX = ("-p User=spit -p Group=spit -p PrivateNetwork=yes -p IPAddressDeny=any "
           "-p 'RestrictAddressFamilies=AF_UNIX AF_NETLINK' -p NoNewPrivileges=yes")
GAME_SIDE = f"""
import socket
from appliance.linked.relay_client import RelaySocket
try:
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    print("inet allowed", flush=True)
except OSError as error:
    print("inet refused", error.errno, flush=True)
s = RelaySocket({SOCKET!r}, {{"listen": {PORT}}})
s.settimeout(120)
print("port", s.port, flush=True)
data, address = s.recvfrom(2048)
print("got", len(data), address[0], flush=True)
s.sendto(b"back " + data[:2], address)
s.recvfrom(2048)
"""
OTHER_SIDE = f"""
import socket
from appliance.linked import wire
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(60)
s.sendto(wire.Link(3).message(wire.PING, {{"t1": 1}}, 0), ("127.0.0.1", {PORT}))
data, _ = s.recvfrom(64)
print(data.decode())
s.sendto(wire.Link(3).message(wire.BYE, {{}}, 0), ("127.0.0.1", {PORT}))
"""
PYTHON = "/opt/spit-arcade/venv/bin/python"


def _listening(vm: Machine) -> list[str]:
    return [line for line in vm.out("ss -Hulpn").splitlines() if f":{PORT} " in line]


def link_unit_step(vm: Machine, note: Any) -> dict[str, Any]:
    """The figures (for the report's `link_unit`); each check said through `note(name, ok, detail)`."""
    from .checks import wait_for

    found: dict[str, Any] = {}
    states = vm.out("systemctl is-active spit-arcade-link.socket spit-arcade-link.service || true").split()
    owner = vm.out(f"stat -c '%U:%G %a %F' {SOCKET} || true")
    found["off"] = {"units": states, "socket": owner, "listening": _listening(vm)}
    note("link unit off: its socket waits for the game's group, nothing runs or listens",
         states == ["active", "inactive"] and owner == "root:spit 660 socket" and not found["off"]["listening"],
         f"{found['off']}")
    game = shlex.quote(GAME_SIDE)
    rc, said = vm.sh(f"systemctl reset-failed {PROBE} 2>/dev/null; systemd-run --unit={PROBE} --quiet "
                     f"{SANDBOX} -p WorkingDirectory=/ {PYTHON} -c {game}")
    if rc != 0:
        note("a game with no network links through the link unit", False, f"systemd-run: {said[-300:]}")
        return found
    try:
        wait_for("the relay listening", lambda: bool(_listening(vm)), 120, 1)
        found["on"] = {"listening": _listening(vm),
                       "service": vm.out("systemctl is-active spit-arcade-link.service || true")}
        answer = vm.out(f"{PYTHON} -c {shlex.quote(OTHER_SIDE)}", timeout=90)
        found["answer"] = answer
        wait_for("the probe's end", lambda: vm.out(f"systemctl is-active {PROBE} || true") != "active", 60, 1)
        wait_for("the port closed", lambda: not _listening(vm), 30, 1)
        found["after"] = {"listening": _listening(vm)}
    except VmError as error:
        found["error"] = str(error)
    probe = vm.out(f"journalctl -o cat --no-pager -u {PROBE} | tail -n 6")
    found["game_side"] = probe.splitlines()
    found["relay_said"] = vm.out("journalctl -o cat --no-pager -u spit-arcade-link.service | tail -n 4").splitlines()
    note("a game with no network links through the link unit",
         "inet refused" in probe and f"port {PORT}" in probe and "got " in probe
         and str(found.get("answer", "")).startswith("back SL") and not found.get("after", {"x": 1})["listening"]
         if "on" in found else False,
         f"{found}")
    out = vm.out("systemd-analyze security spit-arcade-link.service --no-pager | tail -n1")
    found["exposure_line"] = out
    with contextlib.suppress(ValueError, IndexError):
        found["exposure"] = float(out.split("exposure level for")[1].split(":")[1].split()[0])
    note("the link unit's exposure, booted", "exposure" in found, out)
    found["at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return found
