"""The updater's server: `spit-arcade-updater`, started by systemd/spit-arcade-updater.socket (the
listening socket handed over as fd 3) or, on a desktop and in tests, `--socket PATH`.

Each connection is served on its own thread, a request at a time (protocol.py). One install at a
time: a second is refused while one runs. An install goes on to its end when the game that asked
for it goes away (its progress is then only in `status`). The server ends after `IDLE_S` with no
connection and no install: the socket starts it again at the next request.

    look                          the bundles on the stick (bundles.look), newest first
    install NAME [confirm_downgrade]
                                  NAME from look's list (a file name, never a path), checked again,
                                  every block of it checked (bundles.check_payload: nothing written
                                  when one is changed), then `rauc install` (RAUC checks the
                                  signature and every block again as it writes the other slot);
                                  progress as RAUC reports it, then done (ok, or refused and why)
    status                        the booted slot and version, the last update's outcome (slots.py),
                                  an install running and its progress
    reboot                        restart into the slot installed: only when one waits to boot (the
                                  reply first, then the restart)

Not refused while a game is on: the service menu holds the game (its clock stopped) while the
operator updates, and the game resumes from its journal after the restart.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from appliance.shared import unix_listener
from appliance.shared.usb_stick import stick_path

from . import bundles, slots
from .protocol import MAX_LINE, REQUESTS, SOCKET, ProtocolError, decode, encode

IDLE_S = 120.0
NOT_ON_STICK = "that bundle is not on the stick (pulled, or renamed?): look again"
CHECKING = "checking every block of the bundle"
UNTOUCHED = " The running version is untouched."
PROGRESS = re.compile(r"^\s*(\d{1,3})% (.*)$")


def reboot_now() -> None:
    subprocess.run(["systemctl", "reboot"], check=False, stdin=subprocess.DEVNULL)


class Updater:
    """What the requests do (apart from the socket, so tests can drive it directly too)."""

    def __init__(self, cabinet: bundles.Cabinet, stick: Callable[[], Path | None] = stick_path,
                 run: bundles.Run = bundles.run_rauc, rauc: str = "rauc",
                 reboot: Callable[[], None] = reboot_now, entries: Path = slots.ENTRIES,
                 tool: bundles.Tool = bundles.run_tool) -> None:
        self.cabinet = cabinet
        self.stick = stick
        self.run = run
        self.tool = tool
        self.rauc = rauc
        self.reboot_now = reboot
        self.entries = entries
        self.lock = threading.Lock()  # held while an install runs
        self.progress: dict[str, Any] | None = None  # the install running: percent, step, name
        self.last_install: dict[str, Any] | None = None  # the last install this run of the updater made

    # ------------------------------------------------------------------ requests
    def look(self) -> dict[str, Any]:
        stick = self.stick()
        found = bundles.look(stick, self.cabinet, self.run)
        reply: dict[str, Any] = {"ok": True, "booted": {"version": self.cabinet.version}, "stick": stick is not None,
                                 "bundles": [b.as_reply() for b in found]}  # fmt: skip
        if self.cabinet.problem:
            reply["refused"] = self.cabinet.problem
        return reply

    def status(self) -> dict[str, Any]:
        reply = slots.read_status(self.cabinet, self.run, self.entries)
        reply["installing"] = self.progress
        reply["last_install"] = self.last_install
        return reply

    def reboot(self) -> dict[str, Any]:
        if self.lock.locked():
            return {"ok": False, "refused": "an update is being installed: the cabinet restarts when it is done"}
        state = slots.read_status(self.cabinet, self.run, self.entries)
        booted, primary = (state.get("booted") or {}).get("slot"), state.get("primary")
        if not state.get("ok") or not primary or primary == booted:
            return {"ok": False, "refused": "no installed update waits for a restart"}
        return {"ok": True, "slot": primary}  # (the restart follows the reply: `after`)

    def after(self, req: str, reply: dict[str, Any]) -> None:
        """What a request does once its reply is sent: a reboot granted restarts the cabinet (after
        the reply, so the service menu hears that the restart goes ahead, not a connection cut by the
        shutdown)."""
        if req == "reboot" and reply.get("ok") is True:
            self.reboot_now()

    def install(self, name: Any, confirm_downgrade: Any, tell: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        """Check NAME again as look does, then `rauc install` it, telling progress as it goes."""
        if not isinstance(name, str) or not isinstance(confirm_downgrade, bool):
            return {"ok": False, "refused": "install needs a bundle's name (from look) and confirm_downgrade"}
        if not self.lock.acquire(blocking=False):
            return {"ok": False, "refused": "an update is being installed already: wait for it to end"}
        try:
            return self._install(name, confirm_downgrade, tell)
        finally:
            self.progress = None
            self.lock.release()

    def _install(self, name: str, confirm: bool, tell: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        path = bundles.named(self.stick(), name)
        if path is None:
            return self._ended(name, "", {"ok": False, "refused": NOT_ON_STICK})
        bundle = bundles.inspect(path, self.cabinet, self.run)
        if bundle.refused:
            return self._ended(name, bundle.version, {"ok": False, "refused": bundle.refused, "detail": bundle.detail})
        if bundle.needs_confirm and not confirm:
            return self._ended(name, bundle.version, {"ok": False, "needs_confirm": True, "refused": (
                f"{bundle.version} is older than {self.cabinet.version}, which the cabinet runs: going back is "
                "installed only when the operator confirms it")})
        self.progress = {"name": name, "version": bundle.version, "percent": 0, "step": CHECKING}
        tell({"event": "progress", "percent": 0, "step": CHECKING, "version": bundle.version})
        refused, detail = bundles.check_payload(path, self.cabinet, self.run, self.tool)
        if refused:  # before RAUC is asked: nothing written
            words = install_refusal(detail, path) if not path.exists() else refused.rstrip(".") + "." + UNTOUCHED
            return self._ended(name, bundle.version, {"ok": False, "refused": words, "detail": detail})
        args = [self.rauc, "install"]
        if self.cabinet.conf is not None:
            args.append(f"--conf={self.cabinet.conf}")
        said: list[str] = []
        try:
            process = subprocess.Popen([*args, str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, text=True)  # fmt: skip
        except OSError as error:
            return self._ended(name, bundle.version, {"ok": False, "refused": f"RAUC could not be started ({error})"})
        assert process.stdout is not None
        for line in process.stdout:
            said.append(line.rstrip())
            found = PROGRESS.match(line)
            if found:
                percent, step = min(100, int(found.group(1))), found.group(2).strip()
                self.progress = {"name": name, "version": bundle.version, "percent": percent, "step": step}
                tell({"event": "progress", "percent": percent, "step": step, "version": bundle.version})
        code = process.wait()
        detail = next((line.split(":", 1)[1].strip() for line in reversed(said) if line.startswith("LastError:")), "")
        if code == 0:
            return self._ended(name, bundle.version, {"ok": True, "from": self.cabinet.version,
                                                      "to": bundle.version, "signer": bundle.signer})
        return self._ended(name, bundle.version, {"ok": False, "refused": install_refusal(detail, path),
                                                  "detail": detail or (said[-1] if said else "")})

    def _ended(self, name: str, version: str, reply: dict[str, Any]) -> dict[str, Any]:
        reply = {"event": "done", "name": name, "version": version, **reply}
        if not reply["ok"]:
            reply.setdefault("detail", "")
        self.last_install = {k: reply.get(k) for k in ("name", "version", "ok", "refused", "detail")}
        return reply

    # ------------------------------------------------------------------ one request
    def answer(self, message: dict[str, Any], tell: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        req = message.get("req")
        if req not in REQUESTS:
            return {"ok": False, "refused": f"no such request {req!r}: {', '.join(REQUESTS)}"}
        if req == "look":
            return self.look()
        if req == "status":
            return self.status()
        if req == "reboot":
            return self.reboot()
        return self.install(message.get("name"), message.get("confirm_downgrade", False), tell)


def install_refusal(detail: str, path: Path) -> str:
    """Why RAUC's install failed, in the operator's words; the running slot is never touched."""
    said = detail.lower()
    untouched = UNTOUCHED
    if not path.exists():
        return "the stick was pulled during the install: plug it in and install again." + untouched
    if "input/output error" in said or "payload is corrupted" in said:
        return ("the bundle could not be read to its end: it is damaged (a block does not match its signature) or "
                "the stick is failing: copy it again." + untouched)
    if "compatible" in said:
        return "made for another machine: this cabinet does not take it." + untouched
    if "no space" in said or "too large" in said or "larger than" in said:
        return "the new version does not fit into the cabinet's other slot." + untouched
    if "already in progress" in said or "busy" in said:
        return "RAUC is installing something already: wait for it to end." + untouched
    if "failed mounting bundle" in said:
        return f"RAUC could not open the bundle to check it ({detail})." + untouched
    return bundles.refusal(detail, path).rstrip(".") + "." + untouched


class Server:
    """The socket, its connections and the idle end."""

    def __init__(self, updater: Updater, listener: socket.socket, idle_s: float = IDLE_S) -> None:
        self.updater = updater
        self.listener = listener
        self.idle_s = idle_s
        self.connections = 0
        self.count_lock = threading.Lock()
        self.stopping = threading.Event()

    def serve(self) -> None:
        """Until idle (no connection, no install for idle_s) or stop()."""
        self.listener.settimeout(min(self.idle_s, 1.0))
        idle = 0.0
        while not self.stopping.is_set():
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                with self.count_lock:
                    busy = self.connections or self.updater.lock.locked()
                idle = 0.0 if busy else idle + min(self.idle_s, 1.0)
                if idle >= self.idle_s:
                    return
                continue
            except OSError:
                return
            idle = 0.0
            with self.count_lock:
                self.connections += 1
            threading.Thread(target=self.connection, args=(conn,), name="updater-conn", daemon=True).start()

    def stop(self) -> None:
        self.stopping.set()

    def connection(self, conn: socket.socket) -> None:
        conn.settimeout(self.idle_s)  # a client that says nothing is let go (the updater can end)
        try:
            with conn, conn.makefile("rb") as lines:
                def tell(message: dict[str, Any]) -> None:
                    with contextlib.suppress(OSError):  # the game went away: the install goes on
                        conn.sendall(encode({"req": current, **message}))

                current = ""
                while True:
                    line = lines.readline(MAX_LINE + 1)
                    if not line:
                        return
                    try:
                        message = decode(line)
                    except ProtocolError as error:
                        tell({"ok": False, "refused": f"not understood: {error}"})
                        return
                    current = str(message.get("req", ""))
                    reply = self.updater.answer(message, tell)
                    tell(reply)
                    self.updater.after(current, reply)
        except OSError:
            return
        finally:
            with self.count_lock:
                self.connections -= 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade-updater", description=__doc__.split("\n\n")[0])
    parser.add_argument("--socket", type=Path, help=f"bind this socket (without systemd's; default {SOCKET})")
    parser.add_argument("--conf", type=Path, help="RAUC's system.conf (default /etc/rauc/system.conf)")
    parser.add_argument("--idle", type=float, default=IDLE_S, help="end after this many seconds idle")
    args = parser.parse_args(argv)
    listener = unix_listener.from_systemd() or unix_listener.bind(args.socket or SOCKET)
    cabinet = bundles.Cabinet.read(args.conf)
    if cabinet.problem:
        print(f"spit-arcade-updater: {cabinet.problem}", file=sys.stderr)
    Server(Updater(cabinet), listener, args.idle).serve()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
