"""Headless Chromium (Debian's `chromium`), driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in a NUL byte, on its fds 3 and 4), so a test reads
what a real browser shows, live, with no package of its own. Outside CI a test that needs it skips
saying so when chromium is missing; under CI=true it fails (.ci/run installs it)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from venue_broker import need

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--remote-debugging-pipe"]


class Browser:
    def __init__(self, profile: Path) -> None:
        program = need(shutil.which("chromium"), "chromium")
        command = " ".join([program, *FLAGS, f"--user-data-dir={profile}", "about:blank"])
        # fd 3: what chromium reads (our stdin pipe); fd 4: what it writes (our stdout pipe).
        self.process = subprocess.Popen(["bash", "-c", f"exec 3<&0 4>&1 </dev/null >/dev/null 2>&1; exec {command}"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0
        self.buffer = b""
        self.session = ""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

    def call(self, method: str, params: dict[str, Any] | None = None, bound_s: float = 30.0) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session:
            message["sessionId"] = self.session
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\0")
        self.process.stdin.flush()
        deadline = time.monotonic() + bound_s
        while True:
            while b"\0" in self.buffer:
                raw, _, self.buffer = self.buffer.partition(b"\0")
                answer = json.loads(raw)
                if answer.get("id") == self.next_id:
                    if "error" in answer:
                        raise RuntimeError(f"{method}: {answer['error']}")
                    return dict(answer.get("result", {}))
            left = deadline - time.monotonic()
            if left <= 0 or self.process.poll() is not None:
                raise RuntimeError(f"chromium did not answer {method} within {bound_s} s")
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                self.buffer += os.read(self.process.stdout.fileno(), 65536)

    def open(self, url: str) -> None:
        self.call("Page.navigate", {"url": url})

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result.get("result", {}).get("value")

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(RuntimeError, BrokenPipeError):
                self.call("Browser.close", bound_s=5)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()
