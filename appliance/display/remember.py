"""The game menu's choice written back to the settings file: `game` and the `[house_rules]` table.

Only those two are rewritten; every other line of the file is kept as it was (comments too). The file
is replaced atomically by settings.py's writer (`write_atomically`: a temporary file beside it,
synced, renamed over it), so a power cut leaves the old settings or the new ones, never half a file.
A file that can't be written (the cabinet's read-only root, a full disk) is no reason to stop: the
choice is kept for this session and the reason returned.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_TABLE = re.compile(r"^\s*\[")
_GAME = re.compile(r"^\s*game\s*=")
_HOUSE = re.compile(r"^\s*\[\s*house_rules\s*\]")


def toml_value(value: Any) -> str:
    """A house rule's value in TOML (None, which TOML lacks, as "off": settings.py reads it back)."""
    if value is None:
        return '"off"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def with_game(text: str, game: str, house_rules: Mapping[str, Any]) -> str:
    """`text` (a settings file) with its `game` and `[house_rules]` replaced."""
    top: list[str] = []
    tables: list[str] = []
    in_tables = False
    in_house = False
    for line in text.splitlines():
        if _TABLE.match(line):
            in_tables = True
            in_house = bool(_HOUSE.match(line))
        if in_house:
            continue
        if not in_tables:
            if not _GAME.match(line):
                top.append(line)
        else:
            tables.append(line)
    while top and not top[-1].strip():
        top.pop()
    out = [*top, f"game = {toml_value(game)}"]
    if tables:
        out += ["", *tables]
    while out and not out[-1].strip():
        out.pop()
    if house_rules:
        out += ["", "[house_rules]"] + [f"{name} = {toml_value(v)}" for name, v in house_rules.items()]
    return "\n".join(out) + "\n"


def remember_game(path: Path, game: str, house_rules: Mapping[str, Any]) -> str | None:
    """Write the choice into the settings file at `path` (with settings.py's atomic writer); None, or
    why it could not be written."""
    from .settings import write_atomically

    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        write_atomically(path, with_game(text, game, house_rules))
    except (OSError, ValueError) as error:
        return str(error)
    return None
