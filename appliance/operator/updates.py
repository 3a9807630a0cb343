"""Updates, as the operator layer asks for them: the updater (appliance/updater/, its own root unit)
is asked over its socket on this object's own thread, never the frame's; the screen reads what came
back (`looked`, `installing`, `status`, `fallback`), each replaced whole by one assignment.

    updates = Updates(office)
    updates.look()                         # the bundles on the stick -> updates.looked
    updates.install(name, confirm_downgrade=False)   # -> updates.installing (percent, step, done)
    updates.check_status()                 # the slots -> updates.status, updates.fallback
    updates.reboot()                       # into the slot just installed

Every update tried is kept in the store's `updates` table (refused, failed, installed, and once a
new slot has booted: applied or rolled_back), and every fallback in `rollbacks`, stamped boot and
sequence like the rest; the slots' outcome is recorded once, by the time it was installed, whether
the game installed it or not (a bundle installed from the command line is counted too).
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from appliance.updater.protocol import SOCKET, Client, ProtocolError

from .office import Office

SOCKET_ENV = "SPIT_ARCADE_UPDATER"  # another socket (a desktop, tests)
INSTALL_TIMEOUT_S = 900.0  # the longest wait for RAUC's next word while it writes a slot


@dataclass(frozen=True)
class Looked:
    """What the updater found on the stick (or why it could not look)."""

    ok: bool
    stick: bool = False
    booted: str = ""
    bundles: tuple[dict[str, Any], ...] = ()
    refused: str = ""  # why nothing could be looked at (no updater; no RAUC on this machine)


@dataclass(frozen=True)
class Installing:
    """An install asked for: RAUC's progress, then how it ended."""

    name: str
    version: str
    from_version: str
    percent: int = 0
    step: str = ""
    done: bool = False
    ok: bool = False
    refused: str = ""
    needs_confirm: bool = False


@dataclass
class Updates:
    office: Office
    path: Path = field(default_factory=lambda: Path(os.environ.get(SOCKET_ENV, "") or SOCKET))
    looked: Looked | None = None  # None: being looked at
    installing: Installing | None = None
    status: dict[str, Any] | None = None
    fallback: dict[str, Any] | None = None  # the last update rolled back: {"from", "to", "why"}
    rebooting: str = ""  # why the restart was refused ("" while none was asked or it went)
    connect: Callable[[Path, float], Client] = field(default=lambda path, timeout: Client(path, timeout))

    def __post_init__(self) -> None:
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._idle = threading.Condition()
        self._busy = 0

    # ------------------------------------------------------------------ asked by the screen (returns at once)
    def look(self) -> None:
        self.looked = None
        self._put(self._look)

    def check_status(self) -> None:
        self._put(self._status)

    def install(self, name: str, confirm_downgrade: bool = False) -> None:
        bundle = next((b for b in (self.looked.bundles if self.looked else ()) if b.get("name") == name), {})
        booted = self.looked.booted if self.looked else ""
        self.installing = Installing(name, str(bundle.get("version", "")), booted, step="asking the updater")
        self._put(lambda: self._install(name, confirm_downgrade))

    def reboot(self) -> None:
        self.rebooting = ""
        self._put(self._reboot)

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every request handed over is answered (tests, a clean exit)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._busy == 0, timeout)

    def close(self) -> None:
        with self._idle:  # _put makes and starts the thread under this lock: never join one not yet started
            thread = self._thread
        if thread is not None:
            self._jobs.put(None)
            thread.join(10)

    # ------------------------------------------------------------------ the thread
    def _put(self, job: Callable[[], None]) -> None:
        with self._idle:
            self._busy += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="updates", daemon=True)
                self._thread.start()
        self._jobs.put(job)

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                job()
            except Exception as error:  # a job's failure is said, never the thread's end
                self.office.notice(f"the updater could not be asked ({type(error).__name__}: {error})")
            finally:
                with self._idle:
                    self._busy -= 1
                    self._idle.notify_all()

    def _ask(self, req: str) -> dict[str, Any]:
        try:
            with self.connect(self.path, 60.0) as client:
                return client.ask(req)
        except (OSError, ProtocolError) as error:
            return {"ok": False, "refused": unreachable(error)}

    def _look(self) -> None:
        reply = self._ask("look")
        booted = str((reply.get("booted") or {}).get("version", ""))
        self.looked = Looked(bool(reply.get("ok")) and not reply.get("refused"), bool(reply.get("stick")), booted,
                             tuple(reply.get("bundles") or ()), str(reply.get("refused", "")))  # fmt: skip

    def _install(self, name: str, confirm: bool) -> None:
        start = self.installing or Installing(name, "", "")
        try:
            with self.connect(self.path, INSTALL_TIMEOUT_S) as client:
                client.send("install", name=name, confirm_downgrade=confirm)
                done: dict[str, Any] = {"ok": False, "refused": "the updater ended without saying how the install went"}
                for reply in client.replies():
                    if reply.get("event") == "progress":
                        self.installing = Installing(name, str(reply.get("version") or start.version),
                                                     start.from_version, int(reply.get("percent", 0)),
                                                     str(reply.get("step", "")))  # fmt: skip
                    elif reply.get("event") == "done" or "ok" in reply:
                        done = reply
                        break
        except (OSError, ProtocolError) as error:
            done = {"ok": False, "refused": unreachable(error)}
        now = self.installing or start
        version = str(done.get("version") or now.version)
        ok = bool(done.get("ok"))
        self.installing = Installing(name, version, now.from_version, 100 if ok else now.percent,
                                     now.step, True, ok, str(done.get("refused", "")),
                                     bool(done.get("needs_confirm")))  # fmt: skip
        if done.get("needs_confirm"):
            return  # asked without the operator's confirmation: nothing was tried
        if ok:
            detail = f"{name}, signed by {done.get('signer') or 'unknown'}"
            self.office.record_update(now.from_version, version, "installed", detail)
        else:
            detail = f"{name}: {done.get('refused', '')}" + (f" ({done['detail']})" if done.get("detail") else "")
            outcome = "failed" if now.percent > 0 else "refused"  # RAUC began, or it was refused before
            self.office.record_update(now.from_version, version or "?", outcome, detail)

    def _status(self) -> None:
        reply = self._ask("status")
        self.status = reply
        last = reply.get("last") or {}
        installed = str(last.get("installed") or "")
        if reply.get("ok") and last.get("outcome") != "rolled_back":
            self.fallback = None  # (a newer update since, or none)
        if last.get("outcome") == "rolled_back":
            self.fallback = {"from": last.get("to"), "to": last.get("from"), "why": last.get("why", ""),
                             "tries": last.get("tries"), "bound_s": last.get("bound_s"), "starts": last.get("starts")}
            mark = f"installed {installed}"
            self.office.record_update(str(last.get("from")), str(last.get("to")), "rolled_back",
                                      f"{mark}: {last.get('why', '')}", once=mark)  # fmt: skip
            self.office.record_rollback(str(last.get("to")), str(last.get("from")),
                                        f"{last.get('why', '')} ({mark})", once=mark)  # fmt: skip
        elif last.get("outcome") == "applied" and installed:
            mark = f"installed {installed}"
            self.office.record_update("", str(last.get("to")), "applied", mark, once=mark)

    def _reboot(self) -> None:
        reply = self._ask("reboot")
        if not reply.get("ok"):
            self.rebooting = str(reply.get("refused", "refused"))


def unreachable(error: Exception) -> str:
    if isinstance(error, FileNotFoundError | ConnectionRefusedError):
        return "the updater is not installed on this machine (no spit-arcade-updater.socket)"
    if isinstance(error, PermissionError):
        return "the updater's socket is not the game's to use (its group is not spit)"
    with contextlib.suppress(Exception):
        return f"the updater did not answer ({error})"
    return "the updater did not answer"
