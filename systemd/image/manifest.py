#!/usr/bin/env python3
"""The manifest of a cabinet's image: every Debian package and every Python package the game runs,
with its version, and the game's own version and commit.

    /opt/spit-arcade/venv/bin/python systemd/image/manifest.py --commit SHA --out /usr/share/spit-arcade/manifest.json

build-image.sh writes it into each image as its last step, run inside the new system with the kiosk's
venv (whose Python packages are the game's: requirements/cabinet.txt's, and what the venv sees of the
system's); an update bundle carries the same file. It holds nothing that differs between two builds
of one commit on one day: no time, no host name, no path of the build; keys sorted, one way of
writing it. Standard library only (it runs where pip has been taken out).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import platform
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

FORMAT = 1
GAME = "spit-arcade"
# dpkg's own fields: its status (installed packages are "ii "), the name (with ":ARCH" where the
# package is multi-arch "same", as dpkg names it), its version.
DPKG_FIELDS = "${db:Status-Abbrev}\\t${binary:Package}\\t${Version}\\n"


def debian_packages(dpkg_query_output: str) -> dict[str, str]:
    """NAME -> VERSION of the packages installed, from `dpkg-query -W -f DPKG_FIELDS`; packages
    removed but with their configuration left ("rc") and the like are not installed."""
    found: dict[str, str] = {}
    for line in dpkg_query_output.splitlines():
        status, _, rest = line.partition("\t")
        name, _, version = rest.partition("\t")
        if status.strip() == "ii" and name and version:
            found[name] = version
    return found


def python_packages(distributions: Iterable[tuple[str, str]]) -> dict[str, str]:
    """NAME -> VERSION, names normalised as pip names them (PEP 503: lower case, runs of -_. as -).
    Where one name is found twice on the path (the venv's and the system's), the first is the one
    Python imports; so the first is kept."""
    found: dict[str, str] = {}
    for name, version in distributions:
        key = "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())
        found.setdefault(key, version)
    return found


def manifest(debian: Mapping[str, str], python: Mapping[str, str], python_version: str, arch: str,
             commit: str) -> dict[str, Any]:  # fmt: skip
    return {
        "format": FORMAT,
        "game": {"name": GAME, "version": python.get(GAME, ""), "commit": commit},
        "arch": arch,
        "debian": dict(sorted(debian.items())),
        "python": {"version": python_version, "packages": dict(sorted(python.items()))},
    }


def dumps(data: Mapping[str, Any]) -> str:
    """The one way a manifest is written: sorted keys, two spaces, a newline at the end."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def installed_distributions() -> list[tuple[str, str]]:
    """(name, version) of each distribution on this Python's path, in path order."""
    return [(d.metadata["Name"] or "", d.version) for d in importlib.metadata.distributions() if d.metadata["Name"]]


def dpkg_architecture() -> str:
    return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="manifest.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="", help="the commit the image is built from (SHA, -dirty if changed)")
    parser.add_argument("--out", type=Path, help="write it here (default: print it)")
    args = parser.parse_args(argv)
    dpkg = subprocess.run(["dpkg-query", "-W", "-f", DPKG_FIELDS], capture_output=True, text=True, check=True)
    text = dumps(manifest(debian_packages(dpkg.stdout), python_packages(installed_distributions()),
                          platform.python_version(), dpkg_architecture(), args.commit))  # fmt: skip
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
