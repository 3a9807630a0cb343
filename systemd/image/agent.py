#!/usr/bin/python3
"""The virtual cabinet's agent: a root helper on a virtio-serial port, in test images only.

`spit-arcade cabinet-test` (lab/cabinet/) talks to it from the host: one JSON object a line
each way. It is how the test looks inside (unit states, the journal, the partition) and drives what a
cabinet's hardware would (the simulated GPIO lines of the panels), never how a player gets in: it is
not a shell on a console, and the cabinet's own image (build-image.sh without --test) has no agent.

    {"id": 1, "sh": "systemctl is-active spit-arcade"}   -> {"id": 1, "rc": 0, "out": "active\\n"}
    {"id": 2, "line": 4, "level": 0}                      -> {"id": 2, "rc": 0, "t_ns": <CLOCK_MONOTONIC>}
    {"id": 3, "press": 4, "hold_ms": 60, "watch": DIR}    -> {"id": 3, "rc": 0, "latency_ns": N, "file": F}
    {"id": 4, "burst": [[4, 60, 90], [13, 60, 90]]}       -> {"id": 4, "rc": 0} (pressed meanwhile)

`press` closes a line, and measures how long until the newest journal in DIR grows by a line (the
game journals each press it applies before it applies it): edge to journalled, or -1 if it did not
within `wait_ms`. `burst` presses lines one after another on a thread of its own, [line, hold, gap].

A line is driven by the gpio-sim chip's `pull` attribute (pull-down: the button closes to ground).
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import threading
import time

PORT = "/dev/virtio-ports/org.spitarcade.agent"


def sim_pull(line: int) -> str:
    found = glob.glob(f"/sys/devices/platform/gpio-sim.*/gpiochip*/sim_gpio{line}/pull")
    if not found:
        raise FileNotFoundError(f"no simulated GPIO line {line}")
    return found[0]


def drive(line: int, level: int) -> int:
    """Close (0) or open (1) a panel's line; the monotonic time just before."""
    with open(sim_pull(line), "w") as pull:
        t_ns = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        pull.write("pull-down" if level == 0 else "pull-up")
    return t_ns


def newest(directory: str) -> str | None:
    found = glob.glob(os.path.join(directory, "*.jsonl"))
    return max(found, key=os.path.getmtime) if found else None


def size(path: str | None) -> int:
    try:
        return os.path.getsize(path) if path else -1
    except OSError:
        return -1


def press(request: dict) -> dict:
    directory = request.get("watch", "")
    before_file = newest(directory) if directory else None
    before = size(before_file)
    hold_s = float(request.get("hold_ms", 60)) / 1000
    wait_s = float(request.get("wait_ms", 3000)) / 1000
    t_ns = drive(int(request["press"]), 0)
    latency_ns = -1
    released = False
    while directory:
        now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        if not released and now - t_ns >= hold_s * 1e9:
            drive(int(request["press"]), 1)
            released = True
        current = newest(directory)
        if current != before_file or size(current) > before:
            latency_ns = now - t_ns
            before_file = current
            break
        if now - t_ns > wait_s * 1e9:
            break
        time.sleep(0.0005)
    if not released:
        time.sleep(max(0.0, hold_s - (time.clock_gettime_ns(time.CLOCK_MONOTONIC) - t_ns) / 1e9))
        drive(int(request["press"]), 1)
    return {"rc": 0, "t_ns": t_ns, "latency_ns": latency_ns, "file": before_file}


def burst(steps: list) -> None:
    for line, hold_ms, gap_ms in steps:
        drive(int(line), 0)
        time.sleep(hold_ms / 1000)
        drive(int(line), 1)
        time.sleep(gap_ms / 1000)


def answer(request: dict) -> dict:
    if "sh" in request:
        try:
            done = subprocess.run(
                ["/bin/sh", "-c", request["sh"]],
                capture_output=True,
                text=True,
                timeout=float(request.get("timeout", 60)),
            )
        except subprocess.TimeoutExpired:
            return {"rc": 124, "out": "timed out"}
        return {"rc": done.returncode, "out": (done.stdout + done.stderr)[-60000:]}
    if "line" in request:
        return {"rc": 0, "t_ns": drive(int(request["line"]), int(request["level"]))}
    if "press" in request:
        return press(request)
    if "burst" in request:
        threading.Thread(target=burst, args=(request["burst"],), daemon=True).start()
        return {"rc": 0}
    if "now" in request:
        return {"rc": 0, "t_ns": time.clock_gettime_ns(time.CLOCK_MONOTONIC)}
    return {"rc": 2, "out": "unknown request"}


def main() -> int:
    while not os.path.exists(PORT):
        time.sleep(0.2)
    with open(PORT, "r+b", buffering=0) as port:
        port.write(b'{"id": 0, "hello": true}\n')
        pending = b""
        while True:
            chunk = port.read(65536)
            if not chunk:
                time.sleep(0.05)  # the host end is not connected
                continue
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                try:
                    request = json.loads(line)
                    reply = answer(request)
                except Exception as error:  # a bad request never kills the agent
                    request, reply = {}, {"rc": 2, "out": f"{type(error).__name__}: {error}"}
                reply["id"] = request.get("id") if isinstance(request, dict) else None
                port.write(json.dumps(reply).encode() + b"\n")


if __name__ == "__main__":
    sys.exit(main())
