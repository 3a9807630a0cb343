"""Where the operator's USB stick is found: the one place the updater (bundles read from it) and the
service menu's export (audits written to it) agree on.

On the cabinet the image mounts the first file system of a USB stick, when it is plugged in, at
`/run/spit-arcade/stick` (udev and `systemd-mount`, see systemd/README.md), and unmounts it when it is
pulled. On a desktop, and in tests, `SPIT_ARCADE_STICK` names a folder that stands for the stick.

    stick = stick_path()          # None: no stick plugged in
    bundles_on(stick)             # the update bundles at the stick's top level, by name
    export_folder(stick)          # where exports go: <stick>/spit-arcade/
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["BUNDLE_SUFFIX", "CABINET_MOUNT", "EXPORT_FOLDER", "STICK_ENV", "bundles_on", "export_folder", "stick_path"]

STICK_ENV = "SPIT_ARCADE_STICK"
CABINET_MOUNT = Path("/run/spit-arcade/stick")
BUNDLE_SUFFIX = ".raucb"  # RAUC's bundles
EXPORT_FOLDER = "spit-arcade"


def stick_path(environ: dict[str, str] | None = None, mount: Path = CABINET_MOUNT) -> Path | None:
    """The stick's folder, or None when no stick is plugged in (or the folder named is not there)."""
    named = (os.environ if environ is None else environ).get(STICK_ENV, "")
    if named:
        path = Path(named)
        return path if path.is_dir() else None
    return mount if os.path.ismount(mount) else None


def bundles_on(stick: Path) -> list[Path]:
    """The update bundles at the stick's top level, sorted by name; none when it cannot be read."""
    try:
        return sorted(p for p in stick.iterdir() if p.name.endswith(BUNDLE_SUFFIX) and p.is_file())
    except OSError:
        return []


def export_folder(stick: Path) -> Path:
    """Where the cabinet writes what it exports to a stick (made by the writer when needed)."""
    return stick / EXPORT_FOLDER
