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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


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

    def read(self, data: dict[str, Any], key: str, default: T, accept: Callable[[Any], T | None], must: str,
             prefix: str = "", using: str | None = None) -> T:
        """The one shape of every getter: `key`'s value as `accept` reads it (None: it is wrong); the
        default where the key is absent, and where it is wrong, with a problem "must `must`, not
        <the value>; using <`using`, or the default>"."""
        if key not in data:
            return default
        value = data[key]
        read = accept(value)
        if read is None:
            said = repr(default) if using is None else using
            self.problem(prefix + key, f"must {must}, not {shown(value)}; using {said}")
            return default
        return read

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
        def accept(value: Any) -> float | None:
            if isinstance(value, bool) or not isinstance(value, int | float):
                return None
            if isinstance(value, float) and not math.isfinite(value):
                return None
            return float(value) if low <= value <= high else None

        units = f" {unit}" if unit else ""
        return self.read(data, key, default, accept, f"be a number from {low:g} to {high:g}{units}", prefix,
                         f"{default:g}")

    def integer(self, data: dict[str, Any], key: str, default: int, low: int, high: int, prefix: str = "") -> int:
        def accept(value: Any) -> int | None:
            ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
            return value if ok else None

        return self.read(data, key, default, accept, f"be a whole number from {low} to {high}", prefix, str(default))

    def boolean(self, data: dict[str, Any], key: str, default: bool, prefix: str = "") -> bool:
        return self.read(data, key, default, lambda value: value if isinstance(value, bool) else None,
                         "be true or false", prefix, str(default).lower())

    def string(self, data: dict[str, Any], key: str, default: str, prefix: str = "") -> str:
        return self.read(data, key, default, lambda value: value if isinstance(value, str) and "\0" not in value
                         else None, "be a string", prefix)

    def choice(self, data: dict[str, Any], key: str, default: str, choices: Iterable[str], prefix: str = "") -> str:
        options = tuple(choices)
        return self.read(data, key, default, lambda value: str(value) if value in options else None,
                         f"be one of {', '.join(options)}", prefix)
