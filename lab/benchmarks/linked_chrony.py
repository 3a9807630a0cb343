"""chrony on `bench linked`'s network, beside the link's own clock sync (`bench linked --chrony`).

Issue 27 asks for the clock sync "measured against" chrony (Debian's package). For each run a
chronyd server (`local stratum 8`, `allow`) runs in the leader's namespace A, and a chronyd client in
the joiner's namespace B asks it through a second copy of the run's relay in R (the same one-way delay,
jitter and loss as the cabinets' datagrams; NTP is plain UDP, which the relay carries as it is).
Both run with `-x`: the namespaces share this machine's one kernel clock, which chronyd must never
steer. With -x the client still estimates the clock's offset from the server's (it keeps it as a
correction it never applies): the truth is 0, both namespaces reading the same clock, so the
estimate is chrony's error. Sampled with `chronyc -c tracking` every `SAMPLE_S` while the races run,
once chrony says it is synchronised: `chrony_offset_p99_ms` (|System time|, the offset it would
correct), `chrony_last_offset_p99_ms` (|Last offset|, its last measurement's), `chrony_bound_ms`
(p99 of its stated bound on its error, root dispersion + half the root delay, as chrony's docs give
it; `chrony_bound_p50_ms` its median: the p99 holds the first seconds, before chrony has the skew)
and `chrony_within_bound` (the share of samples whose offset is inside the bound stated then);
`chrony_settled_offset_p99_ms`/`chrony_settled_bound_p99_ms`: the same from `SETTLED_S` after chronyd
started (the link sync's figures are from its first race, about 6 s after its start).
The client polls every `POLL` (log2 seconds), iburst at start; the server also runs without steering.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

NTP_PORT, NTP_RELAY_PORT = 123, 7123
POLL = -2  # 4 requests a second (chrony allows down to -6 on a LAN)
SAMPLE_S = 0.25
SETTLED_S = 20.0  # chrony's bound is seconds wide until it has the clock's skew: the p99 from then on too


def chrony_missing() -> str:
    """'' when chronyd and chronyc are here, else why not."""
    missing = [name for name in ("chronyd", "chronyc") if shutil.which(name) is None
               and not Path(f"/usr/sbin/{name}").exists() and not Path(f"/usr/bin/{name}").exists()]
    return f"no {' or '.join(missing)} (Debian's package chrony)" if missing else ""


def _program(name: str) -> str:
    return shutil.which(name) or next(p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if Path(p).exists())


class Chrony:
    """A chronyd server in `server_ns`, a client in `client_ns` asking it through a relay in `relay_ns`."""

    def __init__(self, workdir: Path, server_ns: str, server_addr: str, relay_ns: str, relay_listen: str,
                 client_ns: str, relay_args: list[str], repo: Path) -> None:
        self.dir = workdir / "chrony"
        self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(self.dir, 0o700)  # chronyd refuses a command socket in a directory others may write
        self.server_ns, self.server_addr, self.relay_ns, self.client_ns = server_ns, server_addr, relay_ns, client_ns
        self.relay_listen, self.relay_args, self.repo = relay_listen, relay_args, repo
        self.procs: list[subprocess.Popen[str]] = []
        self.samples: list[tuple[float, float, float]] = []  # (|system time|, |last offset|, bound), seconds
        self.settled: list[tuple[float, float]] = []  # (|system time|, bound) from SETTLED_S after chronyd started
        self.started_ns = 0
        self.unsynced = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _conf(self, name: str, lines: list[str]) -> Path:
        path = self.dir / f"{name}.conf"
        common = [f"pidfile {self.dir / name}.pid", f"bindcmdaddress {self.dir / name}.sock", "cmdport 0"]
        path.write_text("\n".join([*lines, *common]) + "\n")
        return path

    def _chronyd(self, ns: str, conf: Path) -> None:
        # -x: never touch the (shared) clock; -d: in the foreground, logging to stderr; -u root: no
        # dropping to _chrony (the files are in a root-only directory); -F 0: no seccomp filter.
        with open(conf.with_suffix(".log"), "w") as log:  # (the child keeps its own copy of the file)
            self.procs.append(subprocess.Popen(["ip", "netns", "exec", ns, _program("chronyd"), "-x", "-d", "-u",
                                                "root", "-F", "0", "-f", str(conf)],
                                               stdout=subprocess.DEVNULL, stderr=log, text=True))

    def start(self) -> None:
        self.started_ns = time.monotonic_ns()
        relay_host, _, relay_port = self.relay_listen.rpartition(":")
        self._chronyd(self.server_ns, self._conf("server", [
            "local stratum 8", "allow all", f"port {NTP_PORT}", f"bindaddress {self.server_addr}"]))
        relay = subprocess.Popen(["ip", "netns", "exec", self.relay_ns, sys.executable, "-m", "lab.linked_relay",
                                  "--listen", self.relay_listen, "--to", f"{self.server_addr}:{NTP_PORT}",
                                  *self.relay_args],
                                 stdout=subprocess.PIPE, text=True, cwd=self.repo,
                                 env={**os.environ, "PYTHONPATH": str(self.repo)})
        self.procs.append(relay)
        assert relay.stdout is not None
        relay.stdout.readline()  # "relay ready"
        self._chronyd(self.client_ns, self._conf("client", [
            f"server {relay_host} port {relay_port} iburst minpoll {POLL} maxpoll {POLL}", "port 0",
            f"logdir {self.dir}", "log measurements statistics tracking"]))

    def tracking(self) -> list[str] | None:
        out = subprocess.run([_program("chronyc"), "-n", "-c", "-h", str(self.dir / "client.sock"), "tracking"],
                             capture_output=True, text=True, timeout=5)
        fields = out.stdout.strip().split(",")
        return fields if out.returncode == 0 and len(fields) >= 14 else None

    def sample_from(self, start_ns: int, end_ns: int) -> None:
        """Sample chrony's tracking between start_ns and end_ns (CLOCK_MONOTONIC), in a thread."""

        def run() -> None:
            while not self._stop.is_set() and time.monotonic_ns() < end_ns:
                if time.monotonic_ns() >= start_ns:
                    fields = self.tracking()
                    # synchronised: a reference (not 0.0.0.0 / 7F7F0101) and leap status Normal
                    if fields is None or fields[0] in ("00000000", "7F7F0101") or fields[13] != "Normal":
                        self.unsynced += 1
                    else:
                        system, last = abs(float(fields[4])), abs(float(fields[5]))
                        root_delay, root_dispersion = float(fields[10]), float(fields[11])
                        self.samples.append((system, last, root_dispersion + root_delay / 2))
                        if time.monotonic_ns() - self.started_ns >= SETTLED_S * 1e9:
                            self.settled.append((system, root_dispersion + root_delay / 2))
                self._stop.wait(SAMPLE_S)

        self._thread = threading.Thread(target=run, name="chrony-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()

    def figures(self) -> dict[str, Any]:
        def p99_ms(values: list[float]) -> float | None:
            if not values:
                return None
            ordered = sorted(values)
            return round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1e3, 3)

        figures: dict[str, Any] = {
            "chrony_offset_p99_ms": p99_ms([s for s, _, _ in self.samples]),
            "chrony_last_offset_p99_ms": p99_ms([last for _, last, _ in self.samples]),
            "chrony_bound_ms": p99_ms([b for _, _, b in self.samples]),
            "chrony_bound_p50_ms": round(sorted(b for _, _, b in self.samples)[len(self.samples) // 2] * 1e3, 3)
            if self.samples else None,
            "chrony_within_bound": round(sum(1 for s, _, b in self.samples if s <= b) / len(self.samples), 3)
            if self.samples else None,
            "chrony_settled_offset_p99_ms": p99_ms([s for s, _ in self.settled]),
            "chrony_settled_bound_p99_ms": p99_ms([b for _, b in self.settled]),
            "chrony_samples": len(self.samples), "chrony_settled_samples": len(self.settled),
            "chrony_unsynced_samples": self.unsynced,
            "chrony_poll_s": 2.0 ** POLL,
        }
        if not self.samples:
            with contextlib.suppress(OSError):
                figures["chrony_log"] = (self.dir / "client.log").read_text()[-1000:]
        return figures
