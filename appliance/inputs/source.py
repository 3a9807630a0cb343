"""What every input source offers, and the status it reports to the switch test."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .press import PressSink


@dataclass
class ControlStatus:
    """One control as the switch test shows it."""

    player: int
    control: str
    wiring: str = ""  # "BCM17", "key q", "pad input 2"
    down: bool = False
    stuck: bool = False
    presses: int = 0  # debounced press edges delivered
    bounces: int = 0  # edges swallowed by the debounce lockout
    last_edge_ns: int | None = None

    def edge(self, pressed: bool, t_ns: int) -> None:
        """A press or release delivered at `t_ns`: held or not, when, and one press more."""
        self.down = pressed
        self.last_edge_ns = t_ns
        if pressed:
            self.presses += 1


@dataclass
class SourceStatus:
    name: str
    link: str = "up"  # "up", or for serial: "closed", "syncing", "lost: ..."
    controls: list[ControlStatus] = field(default_factory=list)
    details: dict[str, str] = field(default_factory=dict)  # clock offset, error bound, counters


class Source(Protocol):
    """An input backend. It stamps every edge where it happens and delivers Press events to a sink.

    name: unique name, used as Press.source
    latency_ns: the longest a press may take from its edge to `sink.put`; the merger waits this long
        for this source before releasing an earlier-stamped press from another source
    start(sink): begin delivering; stop(): release the hardware (idempotent)
    poll(now_ns): called on the consumer's thread by `Merger.ready` before it releases anything;
        sources that do their work there (gpio: debouncing edges queued by the pin callbacks) deliver
        then
    status(now_ns): a snapshot for the switch test
    """

    name: str
    latency_ns: int

    def start(self, sink: PressSink) -> None: ...

    def stop(self) -> None: ...

    def poll(self, now_ns: int) -> None: ...

    def status(self, now_ns: int) -> SourceStatus: ...
