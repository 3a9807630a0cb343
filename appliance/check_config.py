"""`spit-arcade check-config`: are the settings and the inputs configuration right?

    spit-arcade check-config                        # the files `play` would read
    spit-arcade check-config --cabinet              # the kiosk service's files (see systemd/README.md)
    spit-arcade check-config --config FILE --inputs FILE

Names every unknown key (with the nearest known one), wrong type and value out of range, each with
its file and key, and the files it checked; exit status 0 when both files are right, 2 when anything
is wrong.

`play` runs the same checks and never stops for a mistake: it prints each problem, keeps it in
`Settings.warnings` for the screen to show, and uses the built-in default for each key that is wrong
(for a file that is damaged, not TOML or cut short, the last good copy's settings: config_file.py).

What both files' readers share, `Problem` and `Checker`, is appliance/shared/checks.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from appliance.shared.checks import Problem

CABINET_CONFIG = Path("/var/lib/spit-arcade/config.toml")  # the service: --config this
CABINET_INPUTS = Path("/etc/spit-arcade/inputs.toml")


def check_files(config: Path | None, inputs: Path | None, *, settings: bool = True) -> list[Problem]:
    """Every problem in the settings file (None: the default location; `settings=False`: not read)
    and the inputs configuration (None: $SPIT_INPUTS, else the packaged default)."""
    from appliance.inputs.config import load_config
    from appliance.shared.settings import load_settings

    problems = list(load_settings(config).warnings) if settings else []
    return problems + load_config(inputs, strict=False).problems


def files_checked(config: Path | None, inputs: Path | None, *, settings: bool = True) -> str:
    """The files `check_files` reads, in words: "<settings file> and <inputs file>"."""
    import os

    from appliance.shared.settings import default_config_path

    config = config if config is not None else default_config_path()
    said = str(config) if settings and config.exists() else f"the built-in settings (no file at {config})"
    chosen = inputs if inputs is not None else os.environ.get("SPIT_INPUTS") or None
    return f"{said} and " + (str(chosen) if chosen is not None else "the packaged inputs configuration")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="spit-arcade check-config",
        description="Check config.toml and inputs.toml: every unknown key, wrong type and value out of range. "
        "Exit status 0: both right; 2: something is wrong (play would use the built-in default for it).",
    )
    parser.add_argument("--config", type=Path, help="settings file (default ~/.config/spit-arcade/config.toml)")
    parser.add_argument("--inputs", type=Path, help="inputs file (default $SPIT_INPUTS, else the packaged one)")
    parser.add_argument(
        "--cabinet", action="store_true", help=f"the kiosk service's files: {CABINET_CONFIG} and {CABINET_INPUTS}"
    )
    args = parser.parse_args(argv)
    config, inputs, settings = args.config, args.inputs, True
    if args.cabinet:
        inputs = inputs or CABINET_INPUTS
        if config is None:
            config = CABINET_CONFIG
            settings = config.exists()  # none: the kiosk runs with the built-in settings
    problems = check_files(config, inputs, settings=settings)
    checked = files_checked(config, inputs, settings=settings)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s); checked {checked}; `spit-arcade play` uses the built-in default for "
              "each", file=sys.stderr)
        return 2
    print(f"no problems: checked {checked}")
    return 0
