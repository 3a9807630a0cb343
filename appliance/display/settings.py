"""Settings from a TOML file: layout, volume, assist, four-colour deck, key map, journal, idle time.

Default location ~/.config/spit-arcade/config.toml ($XDG_CONFIG_HOME respected); `--config FILE`
picks another. A missing file means the defaults.

    layout = "desktop"        # or "tabletop" (player 2's side turned 180°, for the cabinet)
    volume = 0.6              # 0.0 (silent) .. 1.0
    assist = false            # light the cards that can be played
    four_colour = false       # spades black, hearts red, diamonds blue, clubs green
    journal_dir = ""          # empty: the user's data directory
    idle_timeout_s = 90       # a game nobody touches for this long goes back to the title

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
        del keys[key]
    return keys


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
    except (OSError, ValueError) as error:  # unreadable, a directory, not UTF-8
        check.problem("", f"cannot read it ({error}); using the built-in settings")
        return Settings(warnings=check.problems)
    return check_settings(data, check)


def journal_dir(settings: Settings) -> Path:
    from appliance.journal import default_journal_dir

    return Path(settings.journal_dir).expanduser() if settings.journal_dir else default_journal_dir()
