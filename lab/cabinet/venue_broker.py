"""The venue step's broker: a real Mosquitto on the host's loopback, with the venue's TLS and ACLs
(`spit-arcade venue init`), that the virtual cabinet's uplink reaches through one QEMU guestfwd
address (tcp_relay.py), and the operator's view (appliance/venue/view.py) watching it from the host.

    with venue_broker(workdir, machine) as venue:
        ... venue.folder: the cabinet's spit-venue/ files; venue.seen(): what the view has of it
"""

from __future__ import annotations

import contextlib
import getpass
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .vm import Machine

CABINET = "table-1"
# The broker's address in the guest: in QEMU's user network (10.0.2.0/24), which the uplink's unit
# allows (IPAddressAllow=10.0.0.0/8); QEMU carries each connection to it to the host's broker.
GUEST_ADDRESS = "10.0.2.100"
RELAY = Path(__file__).with_name("tcp_relay.py")


@dataclass
class Venue:
    directory: Path
    port: int
    view: Any = None  # appliance.venue.view.Venue
    client: Any = None  # the view's paho client

    @property
    def folder(self) -> Path:
        return self.directory / "cabinets" / CABINET

    def seen(self) -> dict[str, Any]:
        """What the operator's view has of the cabinet ({} while it has heard nothing)."""
        for cabinet in self.view.state()["cabinets"]:
            if cabinet["name"] == CABINET:
                return dict(cabinet)
        return {}

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return (self.directory / "mosquitto.log").read_text(errors="replace")
        return ""


@contextlib.contextmanager
def venue_broker(directory: Path, machine: Machine) -> Iterator[Venue]:
    """A venue with one cabinet, its broker started and watched; the machine's network forwards
    GUEST_ADDRESS:port to it from its next start on. Stopped, and the forward taken away, after."""
    from appliance.venue import init as venue_init
    from appliance.venue import view
    from lab.benchmarks.venue import Broker, _free_port

    port = _free_port()
    venue_init.init(directory, [CABINET], [GUEST_ADDRESS, "127.0.0.1"], port, bind="127.0.0.1",
                    log=f"file {directory / 'mosquitto.log'}", persistence=False, user=getpass.getuser())
    broker = Broker(directory, [])
    broker.start(port)
    venue = Venue(directory, port, view.Venue())
    try:
        venue.client = view.watch(venue.view, view.Feed(), "127.0.0.1", port, directory / "view",
                                  client_id="cabinet-test-view")
        machine.guest_forward = f"tcp:{GUEST_ADDRESS}:{port}-cmd:{sys.executable} {RELAY} 127.0.0.1 {port}"
        yield venue
    finally:
        machine.guest_forward = ""
        if venue.client is not None:
            with contextlib.suppress(Exception):
                venue.client.disconnect()
                venue.client.loop_stop()
        broker.stop()


def wait_seen(venue: Venue, timeout: float,
              until: Callable[[dict[str, Any]], bool] = lambda found: bool(found.get("version"))) -> dict[str, Any]:
    """What the view has of the cabinet once `until` holds of it (by default: its heartbeat, health
    with its version, came), or by `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = venue.seen()
        if until(found):
            return found
        time.sleep(1)  # the view's paho thread fills it; polled, bounded by the deadline
    return venue.seen()
