"""The image's manifest (systemd/image/manifest.py): what Debian and Python packages an image runs,
the same bytes for two builds of one commit, written by build-image.sh into every image."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
IMAGE = ROOT / "systemd" / "image"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("manifest", IMAGE / "manifest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


manifest = load()

DPKG = (
    "ii \tlibc6:amd64\t2.36-9+deb12u10\n"
    "rc \told-thing\t1.0-1\n"  # removed, its configuration left: not installed
    "ii \tpython3\t3.11.2-1+b1\n"
    "un \tnever-installed\t\n"
    "ii \tsystemd\t252.38-1~deb12u1\n"
)


def test_debian_packages_are_the_installed_ones() -> None:
    assert manifest.debian_packages(DPKG) == {"libc6:amd64": "2.36-9+deb12u10", "python3": "3.11.2-1+b1",
                                              "systemd": "252.38-1~deb12u1"}  # fmt: skip


def test_python_names_are_pips_and_the_first_found_is_the_one_imported() -> None:
    found = manifest.python_packages([("pygame_ce", "2.5.8"), ("Qemu.QMP", "0.0.6"), ("lgpio", "0.2.2.0"),
                                      ("lgpio", "0.2.0.0")])  # fmt: skip
    assert found == {"pygame-ce": "2.5.8", "qemu-qmp": "0.0.6", "lgpio": "0.2.2.0"}


def test_the_same_packages_in_any_order_give_the_same_bytes() -> None:
    lines = DPKG.splitlines(keepends=True)
    dists = [("pygame-ce", "2.5.8"), ("gpiozero", "2.0.1.post3"), ("spit-arcade", "0.1.0"), ("pyserial", "3.5")]
    written = set()
    rng = random.Random(7)
    for _ in range(5):
        rng.shuffle(lines)
        rng.shuffle(dists)
        data = manifest.manifest(manifest.debian_packages("".join(lines)), manifest.python_packages(dists),
                                 "3.11.2", "amd64", "abc123")  # fmt: skip
        written.add(manifest.dumps(data))
    assert len(written) == 1
    text = written.pop()
    assert list(json.loads(text)["debian"]) == ["libc6:amd64", "python3", "systemd"]
    assert json.loads(text)["game"] == {"name": "spit-arcade", "version": "0.1.0", "commit": "abc123"}
    assert text.endswith("}\n")


def run(out: Path) -> str:
    subprocess.run([sys.executable, str(IMAGE / "manifest.py"), "--commit", "f00d", "--out", str(out)],
                   check=True, timeout=60)  # fmt: skip
    return out.read_text(encoding="utf-8")


def test_written_twice_it_is_the_same_and_names_what_this_python_runs(tmp_path: Path) -> None:
    if shutil.which("dpkg-query") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("dpkg-query is missing in CI")
        pytest.skip("dpkg-query is not installed (not a Debian system)")
    first, second = run(tmp_path / "a" / "manifest.json"), run(tmp_path / "b" / "manifest.json")
    assert first == second
    data = json.loads(first)
    assert data["format"] == 1 and data["game"]["commit"] == "f00d"
    assert "dpkg" in data["debian"] and data["arch"] == subprocess.run(
        ["dpkg", "--print-architecture"], capture_output=True, text=True, check=True).stdout.strip()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert data["game"]["version"] == version
    pinned = re.search(r"^pygame-ce==(\S+) ", (ROOT / "requirements" / "dev.txt").read_text(), re.M)
    assert pinned and data["python"]["packages"]["pygame-ce"] == pinned.group(1)
    assert str(tmp_path) not in first and str(ROOT) not in first  # nothing of where it was built


def test_every_image_gets_one_written_last() -> None:
    build = (IMAGE / "build-image.sh").read_text(encoding="utf-8")
    hooks = [line for line in build.splitlines() if "--customize-hook=" in line]
    writes = [n for n, hook in enumerate(hooks) if "manifest.py" in hook]
    assert len(writes) == 1
    # after the install, inside.sh and the test image's module; only the clone's removal and the build
    # host's CAs go after it
    after = [hook for hook in hooks[writes[0] + 1:] if "ca-certificates" not in hook]
    assert after == ["""hooks+=(--customize-hook='rm -rf "$1/root/spit-arcade"')"""]
    assert "/opt/spit-arcade/venv/bin/python" in hooks[writes[0]]
    assert "/usr/share/spit-arcade/manifest.json" in hooks[writes[0]]
