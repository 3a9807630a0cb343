"""Safe file writing: the settings, the credits, the audits and the high scores are each replaced
whole, so a power cut leaves the old file or the new one, never half of one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Replace the file at `path` with `text` so a power cut leaves the old file or the new one:
    a temporary file beside it, written and synced, renamed over it, the directory synced (with the
    old file's mode, and its owner where root writes it).
    OSError (or ValueError for text that cannot be written) if it cannot be done; the old file is
    then as it was and no temporary file is left."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            if path.exists():
                os.chmod(tmp, path.stat().st_mode & 0o777)
        with contextlib.suppress(OSError):  # root (`sudo spit-arcade settings set`) keeps the game's own files its
            if os.geteuid() == 0:            # own: the owner of the file it replaces, or of its directory
                owner = (path if path.exists() else path.parent).stat()
                os.chown(tmp, owner.st_uid, owner.st_gid)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
