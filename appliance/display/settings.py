"""Settings from a TOML file: layout, volume, assist, four-colour deck, key map, journal, idle time.

Default location ~/.config/spit-arcade/config.toml ($XDG_CONFIG_HOME respected); `--config FILE`
picks another. A missing file means the defaults; a bad value is named in a clear error.

    layout = "desktop"        # or "tabletop" (player 2's side turned 180°, for the cabinet)
    volume = 0.6              # 0.0 (silent) .. 1.0
    assist = false            # light the cards that can be played
    four_colour = false       # spades black, hearts red, diamonds blue, clubs green
    journal_dir = ""          # empty: the user's data directory
    idle_timeout_s = 90       # a game nobody touches for this long goes back to the title

    [keys]                    # key name (as pygame.key.name gives it) = "player control"
    a = "1 pile1"
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LAYOUTS = ("desktop", "tabletop")


class SettingsError(ValueError):
    """A config file that cannot be read or holds a bad value."""


@dataclass
class Settings:
    layout: str = "desktop"
    volume: float = 0.6
    assist: bool = False
    four_colour: bool = False
    journal_dir: str = ""
    idle_timeout_s: float = 90.0
    kiosk: bool = False  # the cabinet: nothing on the panels or a keyboard quits the program
    keys: dict[str, str] = field(default_factory=dict)  # key name -> "player control"


def default_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "spit-arcade" / "config.toml"


def _check(data: dict[str, Any], path: Path) -> Settings:
    settings = Settings()
    known = set(Settings.__dataclass_fields__)
    for key in data:
        if key not in known:
            raise SettingsError(f"{path}: unknown setting {key!r} (settings: {', '.join(sorted(known))})")
    if "layout" in data:
        if data["layout"] not in LAYOUTS:
            raise SettingsError(f"{path}: layout must be one of {', '.join(LAYOUTS)}, not {data['layout']!r}")
        settings.layout = data["layout"]
    if "volume" in data:
        volume = data["volume"]
        if isinstance(volume, bool) or not isinstance(volume, int | float) or not 0 <= volume <= 1:
            raise SettingsError(f"{path}: volume must be a number from 0.0 to 1.0, not {volume!r}")
        settings.volume = float(volume)
    for name in ("assist", "four_colour", "kiosk"):
        if name in data:
            if not isinstance(data[name], bool):
                raise SettingsError(f"{path}: {name} must be true or false, not {data[name]!r}")
            setattr(settings, name, data[name])
    if "journal_dir" in data:
        if not isinstance(data["journal_dir"], str):
            raise SettingsError(f"{path}: journal_dir must be a string")
        settings.journal_dir = data["journal_dir"]
    if "idle_timeout_s" in data:
        idle = data["idle_timeout_s"]
        if isinstance(idle, bool) or not isinstance(idle, int | float) or idle <= 0:
            raise SettingsError(f"{path}: idle_timeout_s must be a positive number of seconds, not {idle!r}")
        settings.idle_timeout_s = float(idle)
    if "keys" in data:
        keys = data["keys"]
        if not isinstance(keys, dict) or not all(isinstance(v, str) for v in keys.values()):
            raise SettingsError(f'{path}: [keys] maps a key name to "player control", e.g. a = "1 pile1"')
        settings.keys = {str(k): v for k, v in keys.items()}
    return settings


def load_settings(path: Path | None = None) -> Settings:
    """The settings in `path` (default location if None); defaults where the file is missing."""
    explicit = path is not None
    path = path if path is not None else default_config_path()
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        if explicit:
            raise SettingsError(f"{path}: no such config file") from None
        return Settings()
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"{path}: not valid TOML: {error}") from None
    except OSError as error:
        raise SettingsError(f"{path}: cannot read: {error}") from None
    return _check(data, path)


def journal_dir(settings: Settings) -> Path:
    from appliance.journal import default_journal_dir

    return Path(settings.journal_dir).expanduser() if settings.journal_dir else default_journal_dir()
