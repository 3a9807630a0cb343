"""Settings from a TOML file: layout, volume, assist, four-colour deck, key map, journal, idle time.

Default location ~/.config/spit-arcade/config.toml ($XDG_CONFIG_HOME respected); `--config FILE`
picks another. A missing file means the defaults.

    layout = "desktop"        # or "tabletop" (player 2's side turned 180°, for the cabinet)
    volume = 0.6              # 0.0 (silent) .. 1.0
    assist = false            # light the cards that can be played
    four_colour = false       # spades black, hearts red, diamonds blue, clubs green
    journal_dir = ""          # empty: the user's data directory
    idle_timeout_s = 90       # a game nobody touches for this long goes back to the title
    computer_level = 3        # the level the players' menu recommends (1..5)
    free_play = true          # false: a game costs credits from the coin input (appliance/credits.py)
    credits_per_game = 1      # 1..9, when not on free play
    credits_kept_off_h = 0    # credits left when the cabinet is switched off expire after this many hours (0: never)
    limit_rounds = 0          # ours: a Spit game ends after this many rounds (0: no limit; 1..99)
    limit_minutes = 0         # ours: or its last round starts after this many minutes (0: no limit; 1..120)

    [keys]                    # changes to the default key map: key name (as pygame.key.name gives it) =
    z = "1 pile1"             #   "player control" (the control leaves the key it had), "" unbinds a key

    [link]                    # a linked game with another cabinet (docs/linked.md); none without this table
    listen = 50070            # wait for the other cabinet on this UDP port (this cabinet leads), or
    join = "venue"            #   join one: "HOST:PORT", "venue" or "venue:CABINET" (offered on the venue's broker)
    seats = [1]               # this cabinet's seats (default: the listener the first half of the table)

A mistake never stops the game: `load_settings` keeps the built-in default for each setting that is
wrong (for the whole file where it cannot be read as TOML: its last good copy's settings where the
game kept one, config_file.py) and lists every problem, with its file and key, in `Settings.warnings`
(`spit-arcade check-config` prints them; the screen may show them). The service menu, the game
menu and `spit-arcade settings set` change settings through config_file.py's `adjust`, the one writer.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bindings import CABINET_PLAYER, START_KEY, key_name_problem, parse_binding
from .checks import Checker, Problem, key_name, shown
from .config_file import read_settings_file
from .link_setting import LINK_KEYS as LINK_KEYS
from .link_setting import check_link
from .link_setting import link_with as link_with

LAYOUTS = ("desktop", "tabletop")
IDLE_S = (10.0, 24 * 3600.0)  # the shortest and longest idle timeout
LANGUAGE_CODES = ("en", "de", "eo")  # the screen's languages (appliance/display/i18n.LANGUAGES)
COMPUTER_LEVELS = ("1", "2", "3", "4", "5")
CREDITS = (1, 9)  # credits a game costs, when not on free play
KEPT_OFF_H = (0.0, 24 * 365.0)  # hours credits survive a power-off (0: for ever), up to a year


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
    # The operator's adjustments (the service menu writes them: config_file.adjust).
    language: str = "en"  # the players' language (appliance/display/i18n.LANGUAGES)
    computer_level: str = "3"  # the level the players' menu recommends (appliance.bots.LEVELS)
    attract: bool = True  # the computer plays itself behind the title
    free_play: bool = True  # False: a game costs `credits_per_game` credits from the coin input
    credits_per_game: int = 1  # (the credits themselves are state, not a setting: appliance/operator/)
    credits_kept_off_h: float = 0.0  # hours credits survive a power-off (0: for ever; MPF's persist_credits_while_off)
    limit_rounds: int = 0  # a game's length, ours (rules/game_length.py): 0 no limit, else 1..99 rounds
    limit_minutes: int = 0  # or 1..120 minutes, after which the round being played is the last
    link: dict[str, Any] = field(default_factory=dict)  # [link]: listen (a port) or join, and seats; {}: no link


SETTINGS = tuple(name for name in Settings.__dataclass_fields__ if name != "warnings")


def default_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "spit-arcade" / "config.toml"


def _check_keys(table: dict[str, Any], check: Checker) -> dict[str, str]:
    """The `[keys]` entries that are right; a problem for each one that is not."""
    keys: dict[str, str] = {}
    bound: dict[tuple[int, str], str] = {}  # the controls given so far, and to which key
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
            if target in bound:
                check.problem(where, f"{value!r} is given to key {bound[target]!r} already; ignored")
                continue
            bound[target] = name
        keys[name] = value
    # A change takes its key from the default map, and its control from the key that had it, so
    # the only way to leave no START is to give the default START key something else and START none.
    if START_KEY in keys and (CABINET_PLAYER, "start") not in bound:
        check.problem(f"keys.{START_KEY}", f"would leave no key to start a game; {START_KEY} stays start")
        keys.pop(START_KEY)
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


def _computer_level(data: dict[str, Any], check: Checker, default: str) -> str:
    """`computer_level = 3` (as TOML writes a number) or `"3"`: a level from 1 to 5."""
    def accept(value: Any) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool) and str(value) in COMPUTER_LEVELS:
            return str(value)
        return value.strip() if isinstance(value, str) and value.strip() in COMPUTER_LEVELS else None

    low, high = COMPUTER_LEVELS[0], COMPUTER_LEVELS[-1]
    return check.read(data, "computer_level", default, accept, f"be a level from {low} to {high}, e.g. 3",
                      using=default)


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
        computer_level=_computer_level(data, check, d.computer_level),
        attract=check.boolean(data, "attract", d.attract),
        free_play=check.boolean(data, "free_play", d.free_play),
        credits_per_game=check.integer(data, "credits_per_game", d.credits_per_game, *CREDITS),
        credits_kept_off_h=check.number(data, "credits_kept_off_h", d.credits_kept_off_h, *KEPT_OFF_H, unit="hours"),
        limit_rounds=check.integer(data, "limit_rounds", d.limit_rounds, 0, 99),
        limit_minutes=check.integer(data, "limit_minutes", d.limit_minutes, 0, 120),
        link=check_link(check.table(data, "link"), check),
        warnings=check.problems,
    )


def load_settings(path: Path | None = None, *, keep_good_copy: bool = False) -> Settings:
    """The settings in `path` (default location if None): the defaults where the file is missing,
    and for each value that is wrong; the last good copy's where the file is damaged (config_file.py);
    never raises. `warnings` lists what was wrong. `keep_good_copy` (`play`): a file read whole
    becomes the last good copy."""
    explicit = path is not None
    path = path if path is not None else default_config_path()
    check = Checker(str(path))
    data = read_settings_file(path, check, explicit=explicit, keep_good_copy=keep_good_copy)
    return check_settings(data, check)
