"""What every configuration file's reader shares: `Problem` (file, key, what is wrong) and
`Checker`, which reads one file's values a key at a time, records a Problem for each wrong one and
hands back the default instead. The settings (`settings.py`) and the inputs configuration
(`appliance/inputs/config.py`) are both read with it; `spit-arcade check-config` prints what it found.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


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
