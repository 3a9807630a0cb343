"""A small tmpfs mounted by a test (root only; in CI it must work, elsewhere the test is skipped):
a state partition, a USB stick."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def small_tmpfs(where: Path, size_mib: int, what: str) -> Iterator[Path]:
    """`where` (made) with a tmpfs of `size_mib` MiB mounted on it, unmounted after."""
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mib}m", "tmpfs", str(where)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        if os.environ.get("CI") == "true":
            pytest.fail(f"cannot mount a small tmpfs as {what}: {done.stderr.strip()}")
        pytest.skip(f"mounting a tmpfs needs root: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
