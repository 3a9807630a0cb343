"""`spit-arcade check-config`: are the settings and the inputs configuration right?

    spit-arcade check-config                        # the files `play` would read
    spit-arcade check-config --cabinet              # the kiosk service's files (see systemd/README.md)
    spit-arcade check-config --config FILE --inputs FILE

Names every unknown key (with the nearest known one), wrong type and value out of range, each with
its file and key; exit status 0 when both files are right, 2 when anything is wrong.

`play` runs the same checks and never stops for a mistake: it prints each problem, keeps it in
`Settings.warnings` for the screen to show, and uses the built-in default for each key that is wrong
(for the whole file only where the file cannot be read as TOML at all).

This module also holds what both files' readers share: `Problem` and `Checker`.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CABINET_CONFIG = Path("/var/lib/spit-arcade/config.toml")  # the service: --config this
CABINET_INPUTS = Path("/etc/spit-arcade/inputs.toml")


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a configuration file: the file, the key (dotted: `debounce.button_ms`,
    `serial[0].port`, `keys.retrun`; "" for the whole file) and what is wrong with it."""

    file: str
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: {self.message}" if self.key else f"{self.file}: {self.message}"


def key_name(key: str) -> str:
    """A key as a dotted path shows it: bare if TOML allows it bare, else quoted ("a.b", "")."""
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def shown(value: Any, limit: int = 40) -> str:
    """A value as the message quotes it, cut short (a file of binary junk makes long strings)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class Checker:
    """Reads one file's values, a key at a time: each getter returns the value when it is right,
    else records a Problem and returns the default it was given."""

    file: str
    problems: list[Problem] = field(default_factory=list)

    def problem(self, key: str, message: str) -> None:
        self.problems.append(Problem(self.file, key, message))

    def unknown(self, table: dict[str, Any], known: Iterable[str], prefix: str = "", what: str = "key") -> None:
        """A problem for every key of `table` that is not in `known`, naming the nearest known one."""
        names = list(known)
        for key in table:
            if key not in names:
                near = difflib.get_close_matches(str(key), names, n=1)
                hint = f"did you mean {near[0]!r}?" if near else f"known: {', '.join(names)}"
                self.problem(prefix + key_name(key), f"unknown {what} ({hint}); ignored")

    def table(self, data: dict[str, Any], key: str, prefix: str = "") -> dict[str, Any]:
        value = data.get(key, {})
        if isinstance(value, dict):
            return value
        self.problem(prefix + key, f"must be a table ([{prefix}{key}]), not {shown(value)}; ignored")
        return {}

    def number(
        self,
        data: dict[str, Any],
        key: str,
        default: float,
        low: float,
        high: float,
        prefix: str = "",
        unit: str = "",
    ) -> float:
        """A finite number from `low` to `high` (an int or a float; never a bool, NaN or infinity)."""
        if key not in data:
            return default
        value = data[key]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (isinstance(value, float) and not math.isfinite(value))
            or not low <= value <= high
        ):
            units = f" {unit}" if unit else ""
            self.problem(
                prefix + key, f"must be a number from {low:g} to {high:g}{units}, not {shown(value)}; using {default:g}"
            )
            return default
        return float(value)

    def integer(self, data: dict[str, Any], key: str, default: int, low: int, high: int, prefix: str = "") -> int:
        if key not in data:
            return default
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            message = f"must be a whole number from {low} to {high}, not {shown(value)}; using {default}"
            self.problem(prefix + key, message)
            return default
        return value

    def boolean(self, data: dict[str, Any], key: str, default: bool, prefix: str = "") -> bool:
        if key not in data:
            return default
        value = data[key]
        if not isinstance(value, bool):
            self.problem(prefix + key, f"must be true or false, not {shown(value)}; using {str(default).lower()}")
            return default
        return value

    def string(self, data: dict[str, Any], key: str, default: str, prefix: str = "") -> str:
        if key not in data:
            return default
        value = data[key]
        if not isinstance(value, str) or "\0" in value:
            self.problem(prefix + key, f"must be a string, not {shown(value)}; using {default!r}")
            return default
        return value

    def choice(self, data: dict[str, Any], key: str, default: str, choices: Iterable[str], prefix: str = "") -> str:
        options = tuple(choices)
        if key not in data:
            return default
        value = data[key]
        if value not in options:
            self.problem(prefix + key, f"must be one of {', '.join(options)}, not {shown(value)}; using {default!r}")
            return default
        return str(value)


def check_files(config: Path | None, inputs: Path | None, *, settings: bool = True) -> list[Problem]:
    """Every problem in the settings file (None: the default location; `settings=False`: not read)
    and the inputs configuration (None: $SPIT_INPUTS, else the packaged default)."""
    from appliance.display.settings import load_settings
    from appliance.inputs.config import load_config

    problems = list(load_settings(config).warnings) if settings else []
    return problems + load_config(inputs, strict=False).problems


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
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s); `spit-arcade play` uses the built-in default for each", file=sys.stderr)
        return 2
    print("no problems")
    return 0
