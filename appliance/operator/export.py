"""The audits exported to the operator's USB stick: the CSV `spit-arcade audits --csv` writes, into
`export_folder(stick_path())` (appliance/shared/usb_stick.py), named by the cabinet, the boot and the
sequence number (`audits-bar-7-boot12-seq40.csv`: never the clock, never one file over another).

    found = write_export(books.report(store), cabinet_name(), stamp)   # an `Export`: done, or why not

`Office.export_audits` reads the report on the store's writer thread and writes the stick on a
thread of its own (a slow stick never holds back a coin); the service menu only asks and shows the
answer. The file is written beside its final name, synced and renamed: a stick pulled halfway leaves
no half a file under the final name. What can go wrong, each in words for the operator:
no stick plugged in, a full stick, a read-only one (its lock switch), any other failure to write.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import socket
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appliance.shared.usb_stick import export_folder, stick_path

from . import books
from .store import Stamp

VENUE_SETTINGS = Path("/etc/spit-arcade/venue/venue.toml")  # the cabinet's name in the venue, if it has one
FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}


@dataclass(frozen=True)
class Export:
    """How an export went: `outcome` is "written" (then `path`), "no_stick", "full", "read_only" or
    "failed"; `detail` the system's words where it failed."""

    outcome: str
    path: Path | None = None
    detail: str = ""

    @property
    def words(self) -> str:
        """The outcome in English (the command line, the notices; the menu has its own translations)."""
        if self.outcome == "written":
            return f"written to the USB stick: {self.path}"
        return {
            "no_stick": "no USB stick: plug one in and try again",
            "full": f"the USB stick is full: make room on it and try again ({self.detail})",
            "read_only": f"the USB stick cannot be written: is its lock switch on? ({self.detail})",
        }.get(self.outcome, f"the USB stick could not be written ({self.detail})")


def cabinet_name(venue: Path = VENUE_SETTINGS) -> str:
    """The cabinet's name: its name in the venue where it has one, else the machine's host name;
    only letters, digits, '-' and '_' (a file name on any stick)."""
    name = ""
    with contextlib.suppress(OSError, ValueError, AttributeError, TypeError):
        name = str(tomllib.loads(venue.read_text(encoding="utf-8"))["venue"]["cabinet"])
    if not name:
        name = socket.gethostname()
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "cabinet"


def file_name(cabinet: str, stamp: Stamp) -> str:
    return f"audits-{cabinet}-boot{stamp.boot}-seq{stamp.seq}.csv"


def write_export(found: dict[str, Any], cabinet: str, stamp: Stamp, stick: Path | None = None) -> Export:
    """The report `found` as CSV on the stick (`stick_path()` unless given); never raises."""
    if stick is None:
        stick = stick_path()
    if stick is None:
        return Export("no_stick")
    folder = export_folder(stick)
    path = folder / file_name(cabinet, stamp)
    part = path.with_name(path.name + ".part")
    try:
        folder.mkdir(exist_ok=True)
        books.write_csv(found, part)
        fd = os.open(part, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        part.replace(path)
        with contextlib.suppress(OSError):  # (not every file system syncs a folder)
            fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    except OSError as error:
        with contextlib.suppress(OSError):
            part.unlink()
        if not stick.is_dir():
            return Export("no_stick", detail=str(error))  # pulled while it was written
        outcome = "full" if error.errno in FULL else "read_only" if error.errno in READ_ONLY else "failed"
        return Export(outcome, detail=error.strerror or str(error))
    return Export("written", path)
