"""A real Mosquitto for the venue's tests: TLS, a client certificate required, the venue's ACLs,
on a free loopback port, started and stopped by the test (waiting on its log, with a bound).

Outside CI a test that needs it skips with the reason when mosquitto is not installed; under
CI=true it fails (.ci/run installs it from Debian's packages)."""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from appliance.venue import init as venue_init

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
START_BOUND_S = 20.0


def need(program: str | None, what: str) -> str:
    """The program's path; else skip (fail under CI=true) saying what to install."""
    if program:
        return program
    message = f"{what} is not installed (apt-get install {what}; .ci/run installs it)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Broker:
    directory: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.directory / "mosquitto.log"

    def log_text(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def start(self) -> None:
        program = need(MOSQUITTO, "mosquitto")
        before = len(self.log_text())
        self.process = subprocess.Popen([program, "-c", str(self.directory / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + START_BOUND_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto stopped at once: {self.process.stderr.read().decode()}"  # type: ignore[union-attr]
                                   f"{self.log_text()[before:]}")
            if f"Opening ipv4 listen socket on port {self.port}" in self.log_text()[before:]:
                try:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                        return
                except OSError:
                    pass
            time.sleep(0.02)  # polling the broker's log and port, bounded by the deadline above
        raise RuntimeError(f"mosquitto did not listen within {START_BOUND_S} s:\n{self.log_text()[before:]}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None and self.process.stderr is not None:
            self.process.stderr.close()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def reload(self) -> None:
        """SIGHUP: the broker reads its configuration again (its log says so; waited for, bounded)."""
        assert self.process is not None and self.process.poll() is None, "the broker is not running"
        before = self.log_text().count("Reloading config.")
        self.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + START_BOUND_S
        while self.log_text().count("Reloading config.") == before:
            if time.monotonic() > deadline:
                raise RuntimeError(f"mosquitto did not reload within {START_BOUND_S} s:\n{self.log_text()}")
            time.sleep(0.02)  # polling the broker's log, bounded by the deadline above

    def wait_for_log(self, text: str, bound_s: float = START_BOUND_S) -> bool:
        """Whether the broker's log says `text` within `bound_s` (it writes a moment after it acts)."""
        deadline = time.monotonic() + bound_s
        while text not in self.log_text():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)  # polling the broker's log, bounded by the deadline above
        return True

    def credential(self, name: str) -> Path:
        """The directory with a client's ca.crt, cabinet.crt and cabinet.key ("venue": the view's)."""
        return self.directory / ("view" if name == venue_init.VIEW else f"cabinets/{name}")


def make_venue(directory: Path, cabinets: list[str], port: int | None = None) -> Broker:
    port = port or free_port()
    venue_init.init(directory, cabinets, ["localhost", "127.0.0.1"], port, bind="127.0.0.1",
                    log=f"file {directory / 'mosquitto.log'}", user=getpass.getuser())
    return Broker(directory, port)
