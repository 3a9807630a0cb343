"""A UDP relay between two linked cabinets that makes the network worse: delay, jitter, loss,
duplicates and reordering, each direction on its own (this machine's kernel has no netem).

    python -m lab.linked_relay --listen 0.0.0.0:7001 --to 10.0.0.1:7000 --delay-ms 20 --jitter-ms 10 --loss 0.02

The calling cabinet sends to `--listen`; the relay sends on to `--to` from a socket of its own and
carries the answers back to whoever called last. Each datagram independently: lost with `loss`,
else held `delay_ms` plus a uniform 0..`jitter_ms` (so datagrams sent close together overtake each
other: reordering), and sent twice with `duplicate`. Seeded: the same seed, the same fate for the
n-th datagram. The tests use it in-process (`Relay(...).start()`); the bench as a process of its own.
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import random
import selectors
import socket
import threading
import time
from dataclasses import dataclass


@dataclass
class Impairment:
    delay_ms: float = 0.0
    jitter_ms: float = 0.0
    loss: float = 0.0
    duplicate: float = 0.0


class Relay:
    def __init__(self, listen: tuple[str, int], target: tuple[str, int], impairment: Impairment,
                 seed: int = 1) -> None:
        self.impairment = impairment
        self.rng = random.Random(seed)
        self.down = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  # the calling cabinet's side
        self.down.bind(listen)
        self.up = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  # the listening cabinet's side
        self.up.bind(("0.0.0.0", 0))
        self.target = target
        self.caller: tuple[str, int] | None = None
        self.cut = False  # a pulled cable: everything dropped while True
        self.forwarded = 0
        self.dropped = 0
        self._queue: list[tuple[float, int, socket.socket, bytes, tuple[str, int]]] = []
        self._n = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self.down.getsockname()[1])

    def start(self) -> Relay:
        self._thread = threading.Thread(target=self.run, name="linked-relay", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.down.close()
        self.up.close()

    def _schedule(self, sock: socket.socket, data: bytes, to: tuple[str, int]) -> None:
        imp = self.impairment
        if self.cut or self.rng.random() < imp.loss:
            self.dropped += 1
            return
        copies = 2 if self.rng.random() < imp.duplicate else 1
        for _ in range(copies):
            due = time.monotonic() + (imp.delay_ms + self.rng.uniform(0.0, imp.jitter_ms)) / 1000
            self._n += 1
            heapq.heappush(self._queue, (due, self._n, sock, data, to))

    def run(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self.down, selectors.EVENT_READ, "down")
        selector.register(self.up, selectors.EVENT_READ, "up")
        while not self._stop.is_set():
            now = time.monotonic()
            while self._queue and self._queue[0][0] <= now:
                _, _, sock, data, to = heapq.heappop(self._queue)
                try:
                    sock.sendto(data, to)
                    self.forwarded += 1
                except OSError:
                    self.dropped += 1
            wait = min(0.05, self._queue[0][0] - now) if self._queue else 0.05
            for key, _ in selector.select(max(0.0, wait)):
                source = self.down if key.data == "down" else self.up
                try:
                    data, address = source.recvfrom(4096)
                except OSError:
                    continue
                if key.data == "down":
                    self.caller = (str(address[0]), int(address[1]))
                    self._schedule(self.up, data, self.target)
                elif self.caller is not None:
                    self._schedule(self.down, data, self.caller)
        selector.close()


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host or "0.0.0.0", int(port)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.linked_relay", description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", required=True, help="HOST:PORT the calling cabinet sends to")
    parser.add_argument("--to", required=True, help="HOST:PORT of the listening cabinet")
    parser.add_argument("--delay-ms", type=float, default=0.0)
    parser.add_argument("--jitter-ms", type=float, default=0.0)
    parser.add_argument("--loss", type=float, default=0.0)
    parser.add_argument("--duplicate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    relay = Relay(_address(args.listen), _address(args.to),
                  Impairment(args.delay_ms, args.jitter_ms, args.loss, args.duplicate), args.seed)
    print(f"relay ready {relay.port}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        relay.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
