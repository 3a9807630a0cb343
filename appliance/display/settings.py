"""Settings from a TOML file: layout, volume, assist, four-colour deck, key map, journal, idle time.

Default location ~/.config/spit-arcade/config.toml ($XDG_CONFIG_HOME respected); `--config FILE`
picks another. A missing file means the defaults.

    layout = "desktop"        # or "tabletop" (player 2's side turned 180°, for the cabinet)
    volume = 0.6              # 0.0 (silent) .. 1.0
    assist = false            # light the cards that can be played
    four_colour = false       # spades black, hearts red, diamonds blue, clubs green
    journal_dir = ""          # empty: the user's data directory
    idle_timeout_s = 90       # a game nobody touches for this long goes back to the title
    computer_level = "3"      # the computer's level offered first when choosing players ("1".."5")
    free_play = true          # false: a game costs credits from the coin input (appliance/credits.py)
    credits_per_game = 1      # 1..9, when not on free play

    [keys]                    # changes to the default key map: key name (as pygame.key.name gives it) =
    z = "1 pile1"             #   "player control" (the control leaves the key it had), "" unbinds a key

A mistake never stops the game: `load_settings` keeps the built-in default for each setting that is
wrong (for the whole file where it cannot be read as TOML) and lists every problem, with its file and
key, in `Settings.warnings` (`spit-arcade check-config` prints them; the screen may show them).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from appliance.check_config import Checker, Problem, key_name, shown

LAYOUTS = ("desktop", "tabletop")
IDLE_S = (10.0, 24 * 3600.0)  # the shortest and longest idle timeout
LANGUAGE_CODES = ("en", "de", "eo")  # as appliance/display/i18n.LANGUAGES (no pygame imported here)
COMPUTER_LEVELS = ("1", "2", "3", "4", "5")
CREDITS = (1, 9)  # credits a game costs, when not on free play


class SettingsError(ValueError):
    """A bad command-line option (settings files never raise it: see `Settings.warnings`)."""


@dataclass
class Settings:
    layout: str = "desktop"
    volume: float = 0.6
    assist: bool = False
    four_colour: bool = False
    journal_dir: str = ""
    idle_timeout_s: float = 90.0
    kiosk: bool = False  # the cabinet: nothing on the panels or a keyboard quits the program
    keys: dict[str, str] = field(default_factory=dict)  # key name -> "player control" ("": unbound)
    # What was wrong in the files read (each left at its default): for the screen to show.
    warnings: list[Problem] = field(default_factory=list, compare=False)
    game: str = "classic"  # the game chosen in the game menu: a preset (spit-arcade variants)
    house_rules: dict[str, Any] = field(default_factory=dict)  # option -> value, on top of the preset
    # The operator's adjustments (the service menu writes them: `write_settings`).
    language: str = "en"  # the players' language (appliance/display/i18n.LANGUAGES)
    computer_level: str = "3"  # the computer's level offered first (appliance.bots.LEVELS)
    attract: bool = True  # the computer plays itself behind the title
    free_play: bool = True  # False: a game costs `credits_per_game` credits from the coin input
    credits_per_game: int = 1  # (the credits themselves are state, not a setting: appliance/credits.py)


SETTINGS = tuple(name for name in Settings.__dataclass_fields__ if name != "warnings")


def default_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "spit-arcade" / "config.toml"


def _check_keys(table: dict[str, Any], check: Checker) -> dict[str, str]:
    """The `[keys]` entries that are right; a problem for each one that is not."""
    from appliance.inputs.config import key_name_problem

    from .keys import CABINET_PLAYER, amend_keymap, default_keymap, parse_binding

    keys: dict[str, str] = {}
    for key, value in table.items():
        where = f"keys.{key_name(key)}"
        name = key.lower()
        wrong = key_name_problem(key)
        if wrong:
            check.problem(where, wrong)
            continue
        if name in keys:
            check.problem(where, "this key is given twice; the first is kept")
            continue
        if not isinstance(value, str):
            check.problem(where, f'must be "player control", e.g. "1 pile1", not {shown(value)}; ignored')
            continue
        if value:
            try:
                target = parse_binding(value)
            except ValueError as error:
                check.problem(where, f"{error}; ignored")
                continue
            other = next((k for k, v in keys.items() if v and parse_binding(v) == target), None)
            if other is not None:
                check.problem(where, f"{value!r} is given to key {other!r} already; ignored")
                continue
        keys[name] = value
    start = (CABINET_PLAYER, "start")
    if start not in amend_keymap(default_keymap(), keys).values():  # the default start key was taken
        key = next(k for k, v in default_keymap().items() if v == start)
        check.problem(f"keys.{key}", f"would leave no key to start a game; {key} stays start")
        keys.pop(key, None)
    return keys


def _presets() -> tuple[str, ...]:
    from appliance.rules import PRESETS

    return tuple(PRESETS)


def _check_house_rules(table: dict[str, Any], check: Checker) -> dict[str, Any]:
    """The `[house_rules]` that are options of the family with a right value (`table_slap = "off"`:
    none, as TOML has no null); a problem for each one that is not."""
    from appliance.rules import OPTIONS

    check.unknown(table, OPTIONS, prefix="house_rules.", what="house rule")
    rules: dict[str, Any] = {}
    for name, value in table.items():
        spec = OPTIONS.get(name)
        if spec is None:
            continue
        try:
            read = spec.read(None if name == "table_slap" and value == "off" else value)
        except ValueError:
            check.problem(f"house_rules.{name}", f"must be {spec.values}, not {shown(value)}; ignored")
            continue
        rules[name] = list(read) if isinstance(read, tuple) else read
    return rules


def check_settings(data: dict[str, Any], check: Checker) -> Settings:
    """Settings from a parsed file: each wrong value reported and left at its default."""
    d = Settings()
    check.unknown(data, SETTINGS, what="setting")
    return Settings(
        layout=check.choice(data, "layout", d.layout, LAYOUTS),
        volume=check.number(data, "volume", d.volume, 0.0, 1.0),
        assist=check.boolean(data, "assist", d.assist),
        four_colour=check.boolean(data, "four_colour", d.four_colour),
        journal_dir=check.string(data, "journal_dir", d.journal_dir),
        idle_timeout_s=check.number(data, "idle_timeout_s", d.idle_timeout_s, *IDLE_S, unit="seconds"),
        kiosk=check.boolean(data, "kiosk", d.kiosk),
        keys=_check_keys(check.table(data, "keys"), check),
        game=check.choice(data, "game", d.game, _presets()),
        house_rules=_check_house_rules(check.table(data, "house_rules"), check),
        language=check.choice(data, "language", d.language, LANGUAGE_CODES),
        computer_level=check.choice(data, "computer_level", d.computer_level, COMPUTER_LEVELS),
        attract=check.boolean(data, "attract", d.attract),
        free_play=check.boolean(data, "free_play", d.free_play),
        credits_per_game=check.integer(data, "credits_per_game", d.credits_per_game, *CREDITS),
        warnings=check.problems,
    )


def load_settings(path: Path | None = None) -> Settings:
    """The settings in `path` (default location if None): the defaults where the file is missing,
    and for each value that is wrong; never raises. `warnings` lists what was wrong."""
    explicit = path is not None
    path = path if path is not None else default_config_path()
    check = Checker(str(path))
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        if explicit:
            check.problem("", "no such config file; using the built-in settings")
        return Settings(warnings=check.problems)
    except tomllib.TOMLDecodeError as error:
        check.problem("", f"not valid TOML ({error}); using the built-in settings")
        return Settings(warnings=check.problems)
    except RecursionError:
        check.problem("", "not TOML this program reads (nested too deeply); using the built-in settings")
        return Settings(warnings=check.problems)
    except (OSError, ValueError) as error:  # unreadable, a directory, not UTF-8
        check.problem("", f"cannot read it ({error}); using the built-in settings")
        return Settings(warnings=check.problems)
    return check_settings(data, check)


def journal_dir(settings: Settings) -> Path:
    from appliance.journal import default_journal_dir

    return Path(settings.journal_dir).expanduser() if settings.journal_dir else default_journal_dir()


# ---------------------------------------------------------------- the service menu's adjustments


def toml_scalar(value: Any) -> str:
    """A top-level setting's value as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    import json

    return json.dumps(str(value), ensure_ascii=False)


def with_values(text: str, values: dict[str, Any]) -> str:
    """`text` (a settings file) with the top-level keys in `values` set: a key's line replaced where
    it is, else added before the first table; every other line (comments, [keys], [house_rules])
    kept as it was."""
    import re

    lines = text.splitlines()
    first_table = next((i for i, line in enumerate(lines) if re.match(r"^\s*\[", line)), len(lines))
    top, rest = lines[:first_table], lines[first_table:]
    left = dict(values)
    for index, line in enumerate(top):
        match = re.match(r"^\s*([A-Za-z0-9_-]+)\s*=", line)
        if match and match.group(1) in left:
            key = match.group(1)
            top[index] = f"{key} = {toml_scalar(left.pop(key))}"
    while top and not top[-1].strip():
        top.pop()
    top += [f"{key} = {toml_scalar(value)}" for key, value in left.items()]
    out = top + (["", *rest] if rest else [])
    return "\n".join(out) + "\n"


def write_atomically(path: Path, text: str) -> None:
    """Replace the file at `path` with `text` so a power cut leaves the old file or the new one:
    a temporary file beside it, written and synced, renamed over it, the directory synced."""
    import contextlib
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            if path.exists():
                os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def write_settings(path: Path, values: dict[str, Any]) -> str | None:
    """Set top-level settings in the file at `path` (atomically; the rest of the file kept).
    None, or why it could not be written (a read-only card: the change holds for this session)."""
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        write_atomically(path, with_values(text, values))
    except (OSError, ValueError) as error:
        return str(error)
    return None
