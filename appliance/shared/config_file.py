"""The settings file on disk (config.toml): read, with its last good copy behind it, and changed in
place by `adjust`, the one function where an adjustment is made (the service menu's, the game menu's
choice of game and house rules, `spit-arcade settings set`).

The file is the operator's own: a change is made with tomlkit, a style-preserving TOML editor, so only
the value set changes and every other key, comment, quote, blank line and table stays as written (a
quoted key `"volume" = 0.3` is that key; `volume=0.3 # loud` keeps its comment; a multi-line string
that holds `volume = 1` is a string). A setting the file holds as a table (`volume.x = 1`, `[volume]`)
is not overwritten: the change is refused with a reason saying so, and every other value is written.
What is written is read back before the file is replaced: every key not set must read as it did.
The file is replaced atomically (files.py), so a power cut leaves the old settings or the new ones; a
file that cannot be written (the cabinet's read-only root, a full disk) is no reason to stop: the
change holds for this session and the reason is returned.

The last good copy (`config.toml.last-good`, beside it, on the cabinet's state partition): the game
writes it when `play` starts on a file that reads as TOML, and with every adjustment. When the file
is damaged — not TOML, unreadable, or cut short (empty, or the start of the copy ending mid-line,
as a power cut during an editor's save leaves it) — the settings are read from the copy, with a
notice, so a damaged file never turns a paid cabinet into free play. The damaged file is never
overwritten: the next adjustment keeps it aside (`config.toml.damaged`, `.damaged-2`, ...) and writes
the copy's settings with the change.
"""

from __future__ import annotations

import contextlib
import copy
import os
import shutil
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit
import tomlkit.exceptions
import tomlkit.items

from .checks import Checker, key_name, shown
from .files import write_atomically

HOUSE_RULES = "house_rules"


def good_copy_path(path: Path) -> Path:
    """Where the last good copy of the settings file at `path` is kept: beside it."""
    return path.with_name(path.name + ".last-good")


@dataclass
class SettingsText:
    """What was read from the settings file: the text the settings come from (the file's, or its
    last good copy's), its parsed data, and why the file itself could not be used ("" if it could)."""

    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    damaged: str = ""  # not TOML, unreadable, cut short: why
    from_copy: bool = False
    missing: bool = False


def _parse(text: str) -> dict[str, Any]:
    """`text` as TOML; ValueError (tomllib's TOMLDecodeError is one) if it is not."""
    try:
        return tomllib.loads(text)
    except RecursionError as error:
        raise ValueError("nested too deeply") from error


def _read_good_copy(path: Path) -> tuple[str, dict[str, Any]] | None:
    try:
        text = good_copy_path(path).read_text(encoding="utf-8")
        return text, _parse(text)
    except (OSError, ValueError):
        return None


def _cut_short(text: str, good: tuple[str, dict[str, Any]] | None) -> str:
    """Why `text` (TOML) looks like the last good copy cut short, or ""."""
    if good is None or text == good[0]:
        return ""
    if not text.strip() and good[1]:
        return "empty, where its last good copy has settings"
    if good[0].startswith(text) and not text.endswith("\n"):
        return "cut short (it is the start of its last good copy, ending mid-line)"
    return ""


def read_settings_text(path: Path) -> SettingsText:
    """The settings file at `path`, or its last good copy where the file is damaged; never raises."""
    good = _read_good_copy(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return SettingsText(missing=True)
    except (OSError, ValueError) as error:  # unreadable, a directory, not UTF-8
        why = f"cannot read it ({error})"
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            why = f"not valid TOML ({error})"
        except RecursionError:
            why = "not TOML this program reads (nested too deeply)"
        else:
            why = _cut_short(text, good)
            if not why:
                return SettingsText(text, data)
    if good is None:
        return SettingsText(damaged=why)
    return SettingsText(good[0], good[1], damaged=why, from_copy=True)


def read_settings_file(
    path: Path, check: Checker, *, explicit: bool = True, keep_good_copy: bool = False
) -> dict[str, Any]:
    """The settings file's data for `check_settings`: a problem where the file is missing (if it was
    named: `explicit`) or damaged, then the last good copy's data, or none (the built-in settings).
    `keep_good_copy` (what `play` asks): a file read whole becomes the last good copy."""
    read = read_settings_text(path)
    if read.missing:
        if explicit:
            check.problem("", "no such config file; using the built-in settings")
    elif read.from_copy:
        check.problem("", f"{read.damaged}; using its last good copy, {good_copy_path(path)} (the next change "
                          "saved keeps this file aside and writes the copy back with the change)")
    elif read.damaged:
        check.problem("", f"{read.damaged}; using the built-in settings")
    elif keep_good_copy:
        _keep_good_copy(path, read.text)
    return read.data


def _keep_good_copy(path: Path, text: str) -> None:
    copy_path = good_copy_path(path)
    with contextlib.suppress(OSError, ValueError):  # a read-only root: no copy, as before there was one
        if not copy_path.exists() or copy_path.read_text(encoding="utf-8") != text:
            write_atomically(copy_path, text)


# ---------------------------------------------------------------------------------------- changing it


@dataclass(frozen=True)
class Change:
    """One adjustment: the key (`house_rules.NAME` for a house rule), the value the file had (None:
    not in the file, so the built-in default) and the new one (None: taken out)."""

    key: str
    old: Any
    new: Any


@dataclass
class Edited:
    text: str
    changes: list[Change] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # why a value was not written (the file's own form)


def _plain(value: Any) -> Any:
    """A setting's or a house rule's value as TOML holds it (None, which TOML lacks, as "off": the
    settings read it back as none; a tuple as an array)."""
    if value is None:
        return "off"
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a value"


def _is_table(value: Any) -> bool:
    return isinstance(value, dict | tomlkit.items.AoT) or (
        isinstance(value, list) and any(isinstance(each, dict) for each in value))


def _set_table(doc: Any, name: str, entries: dict[str, Any]) -> None:
    """The table `name` (`[house_rules]`, `[link]`) made `entries`: changed in place where it is (its
    other lines and comments kept), removed for none, added last where there was none."""
    have = doc.get(name)
    if not entries:
        if name in doc:
            del doc[name]
        return
    if have is None:
        table = tomlkit.table()
        for key, value in entries.items():
            table[key] = value
        doc[name] = table
        return
    for key in [key for key in have if key not in entries]:
        del have[key]
    for key, value in entries.items():
        if key not in have or have[key] != value:
            have[key] = value


def with_values(text: str, values: Mapping[str, Any], house_rules: Mapping[str, Any] | None = None,
                tables: Mapping[str, Mapping[str, Any]] | None = None) -> Edited:
    """`text` (a settings file) with the top-level settings in `values` set and, unless `house_rules`
    is None, its house rules made those, and each table in `tables` (`{"link": {...}}`; empty: taken
    out) made what is given; everything else kept as written. ValueError if `text` is not TOML, or
    if no edit could keep the rest as it was (then nothing is written)."""
    before = _parse(text)
    expected = copy.deepcopy(before)
    edited = Edited(text)
    settled: dict[str, Any] = {}
    wanted_tables = dict(tables or {})
    if house_rules is not None:
        wanted_tables[HOUSE_RULES] = house_rules
    for key, raw in values.items():
        value = _plain(raw)
        if key == HOUSE_RULES or key in wanted_tables or _is_table(before.get(key)):
            edited.refused.append(f"{key_name(key)} is a table in the file, not {_kind(value)}")
        elif key not in before or before[key] != value or type(before[key]) is not type(value):
            settled[key] = expected[key] = value
            edited.changes.append(Change(key, before.get(key), value))
    changed: dict[str, dict[str, Any]] = {}
    for table, entries in wanted_tables.items():
        have = before.get(table, {})
        wanted = {name: _plain(value) for name, value in entries.items()}
        if not isinstance(have, dict):
            edited.refused.append(f"{key_name(table)} is {shown(have)} in the file, not a table")
        elif wanted != have:
            changed[table] = wanted
            for name in [*have, *(name for name in wanted if name not in have)]:
                if name not in have or name not in wanted or have[name] != wanted[name]:
                    edited.changes.append(Change(f"{key_name(table)}.{key_name(name)}", have.get(name),
                                                 wanted.get(name)))
            if wanted:
                expected[table] = wanted
            else:
                expected.pop(table, None)
    if not edited.changes:
        return edited

    def edit(in_place: bool) -> str:
        doc = tomlkit.parse(text)
        for key, value in settled.items():
            doc[key] = value
        for table, entries in changed.items():
            if not in_place:  # written again, whole, at the end
                with contextlib.suppress(KeyError):
                    del doc[table]
            _set_table(doc, table, entries)
        out = tomlkit.dumps(doc)
        return out if not out or out.endswith("\n") else out + "\n"

    # In place first; dotted entries out of order (`house_rules.refill = true` among the other
    # keys) are more than tomlkit changes in place: then the table is taken out and written whole.
    for in_place in (True, False):
        try:
            out = edit(in_place)
        except (ValueError, KeyError, IndexError, AttributeError, tomlkit.exceptions.TOMLKitError):
            continue
        if _parse(out) == expected:
            edited.text = out
            return edited
    raise ValueError("the settings file is written in a way this program cannot change safely; not changed")


# ----------------------------------------------------------------------------------------- adjusting


@dataclass
class Adjusted:
    """What `adjust` did: the changes written, the values refused (and why), the damaged file kept
    aside (None: there was none), or why nothing could be written (`error`, "" if it was)."""

    changes: list[Change] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    aside: Path | None = None
    error: str = ""

    def why_not(self) -> str | None:
        """None where everything asked was saved; else why not (for the service menu's line)."""
        said = ([self.error] if self.error else []) + self.refused
        return "; ".join(said) or None


def _keep_aside(path: Path) -> Path:
    """A copy of the damaged file at `path` under a name of its own beside it (never overwritten)."""
    for n in range(1, 1000):
        aside = path.with_name(f"{path.name}.damaged" + ("" if n == 1 else f"-{n}"))
        if not aside.exists():
            break
    else:
        raise OSError(f"cannot keep {path} aside: too many damaged copies beside it")
    try:
        os.link(path, aside)
    except OSError:
        shutil.copyfile(path, aside)
    return aside


def adjust(path: Path, values: Mapping[str, Any], house_rules: Mapping[str, Any] | None = None,
           tables: Mapping[str, Mapping[str, Any]] | None = None) -> Adjusted:
    """The one function where an adjustment is made: set top-level settings (and, unless None, the
    house rules; and the `tables`, e.g. `[link]`: with_values) in the settings file at `path`,
    atomically, the rest of the file kept; then the last
    good copy. A damaged file is kept aside first and its last good copy's settings written back with
    the change. Never raises: `Adjusted.error` says why nothing was written."""
    done = Adjusted()
    try:
        read = read_settings_text(path)
        edited = with_values(read.text, values, house_rules, tables)
        done.changes, done.refused = edited.changes, edited.refused
        if not edited.changes and not read.damaged:
            return done  # nothing to change: the file is left alone
        if read.damaged and path.exists():
            done.aside = _keep_aside(path)
        write_atomically(path, edited.text)
    except (OSError, ValueError) as error:
        done.error, done.changes = str(error), []
        return done
    _keep_good_copy(path, edited.text)
    return done


def write_settings(
    path: Path, values: Mapping[str, Any], house_rules: Mapping[str, Any] | None = None
) -> str | None:
    """`adjust`, for the screens: None, or why something could not be written (the change then holds
    for this session only)."""
    return adjust(path, values, house_rules).why_not()


def remember_game(path: Path, game: str, house_rules: Mapping[str, Any]) -> str | None:
    """The game menu's choice written back: `game` and its `[house_rules]` (see write_settings)."""
    return write_settings(path, {"game": game}, house_rules)
