"""`./spit`, the one entry point: a fresh set-up says nothing that is not the user's business (the
editable-install notice setuptools gives every time), and still says every other warning and error."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPIT = ROOT / "spit"
# What setuptools (84) says on every editable install of a flat layout, as pip passes it on; and a
# warning that is the project's business (setuptools' own, had pyproject.toml's licence been a table).
NOTICE = ("Editable installation.\n!!\n\n        ****\n        Please be careful with folders in your working "
          "directory with the same\n        name as your package as they may take precedence during imports.")
OTHER = "`project.license` as a TOML table is deprecated"
# pip's relay (pyproject_hooks): the backend's warnings, caught in its process, warned again in pip's
RELAY = """
import sys, warnings
class BuildBackendWarning(UserWarning):
    pass
for line, message in enumerate(sys.argv[1:], start=1):
    warnings.warn_explicit(message=message, category=BuildBackendWarning, filename="editable_wheel.py", lineno=line)
"""


def pip_filter() -> list[str]:
    """The Python options `spit` runs pip's install with (checked to be on that line)."""
    text = SPIT.read_text(encoding="utf-8")
    found = re.search(r'^not_theirs="([^"]+)"$', text, re.M)
    assert found, "spit names no warning it leaves out"
    assert re.search(r'^\s*"\$venv/bin/python" -W "\$not_theirs" -m pip install -q --no-deps --no-build-isolation '
                     r'-e "\$here"$', text, re.M)
    return ["-W", found.group(1)]


def relayed(options: list[str]) -> str:
    result = subprocess.run([sys.executable, *options, "-c", RELAY, NOTICE, OTHER], capture_output=True, text=True,
                            timeout=30, check=True)
    return result.stderr


def test_a_fresh_set_up_leaves_out_the_editable_install_notice_and_nothing_else() -> None:
    said = relayed(pip_filter())
    assert "Editable installation" not in said and "careful with folders" not in said
    assert OTHER in said  # the project's business still shows
    unfiltered = relayed([])
    assert "Editable installation" in unfiltered and OTHER in unfiltered  # the check can fail


def test_the_script_is_valid_bash() -> None:
    subprocess.run(["bash", "-n", str(SPIT)], check=True, timeout=30)
