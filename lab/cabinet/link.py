"""The link unit in the booted cabinet (`cabinet-test --only link`): with no linked game its socket
waits (root:spit, 0660) and nothing of it runs or listens; a process in the game's own sandbox (the
game's user, `PrivateNetwork=yes`, `IPAddressDeny=any`, only AF_UNIX and AF_NETLINK: it cannot open
a UDP socket itself) opens a listening link through it; systemd starts the relay, which listens on
the port asked; a wire datagram sent to that port in the cabinet reaches the sandboxed process and
its answer comes back; when it closes, the port closes. The unit's exposure is read in the booted
system (`systemd-analyze security`), as the game's and the uplink's are.

Then the linked game's network (`link_network_step`): a `spit-link.toml` with `[link] listen =
50070` put on the boot partition, and a restart: the file taken into the settings, the link's flag
written, systemd-networkd and systemd-resolved up (the venue off), an address by DHCP, and the game
itself, started by the kiosk, waiting for the other table through the link unit on the port asked;
nothing else listening. Off again at the end.

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


def link_network_step(cabinet: Any, note: Any) -> dict[str, Any]:
    """A `spit-link.toml` on the boot partition and a restart: the settings' [link] from it, the
    network up for it (the venue off), the kiosk's game waiting for the other table on the port; then
    the link off again (settings and file) for whatever runs next."""
    vm = cabinet.vm
    found: dict[str, Any] = {}
    rc, said = vm.sh("/usr/local/libexec/spit-esp-rw sh -c "
                     f"'printf \"[link]\\nlisten = {PORT}\\n\" >/boot/efi/spit-link.toml'")
    if rc != 0:
        note("a spit-link.toml on the boot partition: the network and the link for it", False,
             f"not written: {said[-300:]}")
        return found
    try:
        cabinet.restart()
        from .checks import wait_for

        with contextlib.suppress(VmError):
            wait_for("an address and the game's link", lambda: bool(vm.out("ip -o -4 addr show scope global"))
                     and bool(_listening(vm)), 240, 2)
        found["settings"] = vm.out("spit-arcade settings get --cabinet link || true")
        found["flag"] = vm.out("cat /run/spit-arcade/link/on || true")
        found["units"] = " ".join(vm.out("systemctl is-active systemd-networkd.service systemd-resolved.service "
                                         "spit-arcade-uplink.service spit-arcade-link.service || true").split())
        found["addresses"] = [" ".join(line.split()[1:4]) for line in
                              vm.out("ip -o addr show scope global").splitlines() if line.strip()]
        found["listening"] = [" ".join(line.split()[4:5] + line.split()[6:7])
                              for line in vm.out("ss -Htulpn").splitlines() if line.strip()]
        found["game"] = cabinet.status()
        found["setup_said"] = vm.out("journalctl -b -o cat --no-pager -u spit-arcade-venue-setup | tail -n 5")[-600:]
    except VmError as error:
        found["error"] = str(error)
    # Resolved's stub on loopback, its mDNS, networkd's DHCP client, and the relay on the link's port.
    allowed = all(entry.split(":")[0].startswith(("127.", "[::1]")) or f":{PORT} " in entry + " "
                  or any(f":{port} " in entry + " " and name in entry
                         for port, name in (("5353", "systemd-resolve"), ("68", "systemd-network")))
                  for entry in found.get("listening", []))
    note("a spit-link.toml on the boot partition: the network and the link for it",
         f"link.listen = {PORT}" in found.get("settings", "") and found.get("flag") == f"listen on port {PORT}"
         and found.get("units") == "active active inactive active"
         and any("10.0.2." in a for a in found.get("addresses", []))
         and any(f":{PORT} " in e + " " for e in found.get("listening", [])) and allowed,
         f"{found}")
    vm.sh("/usr/local/libexec/spit-esp-rw rm -f /boot/efi/spit-link.toml; "
          "runuser -u spit -- spit-arcade settings set --cabinet link off")
    return found
