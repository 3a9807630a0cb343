"""The one rewriter of the settings file (config.toml): the service menu's adjustments and the game
menu's choice (`game` and its `[house_rules]`) are written back by it alone.

Only the settings named are rewritten: a top-level key's line is replaced where it is (else added
after the other top-level keys), and the `[house_rules]` table, when given, replaces the one there
(it goes last; none is written for no house rules). Every other line — comments, `[keys]`, settings
this program does not know — is kept as it was. The file is replaced atomically (files.py), so a
power cut leaves the old settings or the new ones; a file that cannot be written (the cabinet's
read-only root, a full disk) is no reason to stop: the change holds for this session and the reason
is returned.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .files import write_atomically

_TABLE = re.compile(r"^\s*\[")
_HOUSE_RULES = re.compile(r"^\s*\[\s*house_rules\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


def toml_value(value: Any) -> str:
    """A setting's or a house rule's value in TOML (None, which TOML lacks, as "off": the settings
    read it back as none)."""
    if value is None:
        return '"off"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def with_values(text: str, values: Mapping[str, Any], house_rules: Mapping[str, Any] | None = None) -> str:
    """`text` (a settings file) with the top-level settings in `values` set and, unless
    `house_rules` is None, its `[house_rules]` table replaced by them; every other line kept."""
    top: list[str] = []
    tables: list[str] = []
    in_tables = in_house = False
    for line in text.splitlines():
        if _TABLE.match(line):
            in_tables = True
            in_house = house_rules is not None and bool(_HOUSE_RULES.match(line))
        if in_house:
            continue
        (tables if in_tables else top).append(line)
    left = dict(values)
    for index, line in enumerate(top):
        match = _KEY.match(line)
        if match and match.group(1) in left:
            key = match.group(1)
            top[index] = f"{key} = {toml_value(left.pop(key))}"
    while top and not top[-1].strip():
        top.pop()
    out = top + [f"{key} = {toml_value(value)}" for key, value in left.items()]
    while tables and not tables[-1].strip():
        tables.pop()
    if tables:
        out += ["", *tables]
    if house_rules:
        out += ["", "[house_rules]"] + [f"{name} = {toml_value(v)}" for name, v in house_rules.items()]
    return "\n".join(out) + "\n"


def write_settings(
    path: Path, values: Mapping[str, Any], house_rules: Mapping[str, Any] | None = None
) -> str | None:
    """Set top-level settings (and, unless None, the `[house_rules]`) in the file at `path`,
    atomically, the rest of the file kept. None, or why it could not be written (the change then
    holds for this session only)."""
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        write_atomically(path, with_values(text, values, house_rules))
    except (OSError, ValueError) as error:
        return str(error)
    return None


def remember_game(path: Path, game: str, house_rules: Mapping[str, Any]) -> str | None:
    """The game menu's choice written back: `game` and its `[house_rules]` (see write_settings)."""
    return write_settings(path, {"game": game}, house_rules)
