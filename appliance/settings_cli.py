"""`spit-arcade settings`: the operator's adjustments without a screen.

    spit-arcade settings list                       # every setting in effect, as TOML (`# default` where
                                                    #   the file has none, or a wrong one)
    spit-arcade settings get volume                 # one setting's value in effect
    spit-arcade settings set volume 0.4             # change it in the file, the rest of the file kept
    spit-arcade settings set house_rules.refill true
    spit-arcade settings set --cabinet free_play false   # the kiosk service's file (check-config's --cabinet)
    spit-arcade settings set link.join 192.168.1.20:50070  # a linked game (docs/linked.md): listen or join
    spit-arcade settings set link off                   #   replace each other; `link off`: no link

VALUE is read as a TOML value (`0.4`, `true`, `[1, 2, 3]`, `"de"`), and as a string where it is not
one (`tabletop`, `de`). A value is checked as `check-config` checks the file, and a wrong one gets
the same words (an unknown key with the nearest known one, a wrong type, a value out of range):
nothing is written, exit status 2. A change is made by config_file.adjust, as the service menu
makes it: only that value changes in the file, atomically, and its last good copy is kept; a game
running reads it at its next start. The change is recorded in the operator's store beside the file
(the audits' adjustments, with when), under a boot of its own (`record_adjustments`).
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path
from typing import Any

import tomlkit

from appliance.check_config import CABINET_CONFIG
from appliance.shared.checks import Checker, Problem, key_name
from appliance.shared.config_file import HOUSE_RULES, adjust, read_settings_text
from appliance.shared.link_setting import hidden
from appliance.shared.settings import (
    SETTINGS,
    Settings,
    check_settings,
    default_config_path,
    link_with,
    load_settings,
)

LINK = "link"
TABLES = ("keys", HOUSE_RULES, LINK)


def toml(value: Any) -> str:
    """A value as TOML writes it (none as "off", as the settings file holds it)."""
    return tomlkit.item("off" if value is None else value).as_string()


def plain(value: Any) -> str:
    """A value as `get` prints it: a string as it is, anything else as TOML."""
    return value if isinstance(value, str) else toml(value)


def read_value(text: str) -> Any:
    """VALUE from the command line: a TOML value, else the words as a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except (tomllib.TOMLDecodeError, RecursionError):
        return text


def problems_with(path: Path, key: str, value: Any) -> list[Problem]:
    """What check-config would say of `key = value` in the file at `path` (none: it is right)."""
    check = Checker(str(path))
    table, _, name = key.partition(".")
    if table == LINK and key in (LINK, f"{LINK}.{name}"):  # the table as it would be: listen and join together
        try:
            check_settings({LINK: link_with(read_settings_text(path).data.get(LINK), name, value)}, check)
        except ValueError as error:
            check.problem(LINK, str(error))
    elif name and table in TABLES:
        check_settings({table: {name: value}}, check)
    elif name:  # `volume.x`: check-config names the setting
        check.problem(key_name(table) + "." + key_name(name), "no setting has parts")
    else:
        check_settings({key: value}, check)
    return check.problems


def refused(problem: Problem) -> str:
    """A check-config problem as `set` says it: the same words, then that nothing was written."""
    head, _, tail = problem.message.rpartition("; ")
    said = head if head and (tail.startswith("using") or tail in ("ignored", "no link")) else problem.message
    return str(Problem(problem.file, problem.key, f"{said}; not changed"))


def settings_in_effect(settings: Settings) -> list[tuple[str, Any]]:
    """Every setting in effect, as `list` prints them: the top-level ones, then each table's entries."""
    rows: list[tuple[str, Any]] = [(name, getattr(settings, name)) for name in SETTINGS if name not in TABLES]
    rows += [(f"{HOUSE_RULES}.{key_name(name)}", value) for name, value in settings.house_rules.items()]
    rows += [(f"keys.{key_name(name)}", value) for name, value in settings.keys.items()]
    rows += [(f"{LINK}.{name}", hidden(f"{LINK}.{name}", value)) for name, value in settings.link.items()]
    return rows


def list_main(path: Path) -> int:
    settings = load_settings(path)
    data = read_settings_text(path).data
    wrong = {problem.key for problem in settings.warnings}
    for key, value in settings_in_effect(settings):
        in_file = "." in key or (key in data and key not in wrong)
        print(f"{key} = {toml(value)}" + ("" if in_file else "  # default"))
    for problem in settings.warnings:
        print(problem, file=sys.stderr)
    return 0


def get_main(path: Path, key: str) -> int:
    settings = load_settings(path)
    for problem in settings.warnings:
        if problem.key in ("", key):
            print(problem, file=sys.stderr)
    rows = dict(settings_in_effect(settings))
    if key in TABLES:  # a whole table: its entries
        for name, value in rows.items():
            if name.startswith(key + "."):
                print(f"{name} = {toml(value)}")
        return 0
    if key in rows:
        print(plain(rows[key]))
        return 0
    table, _, name = key.partition(".")
    if table in TABLES and name:
        own = {HOUSE_RULES: "the game's own", "keys": "the key map's own",
               LINK: "not given" if settings.link else "no linked game"}[table]
        print(f"{key} is not set ({own})", file=sys.stderr)
        return 1
    for problem in problems_with(path, key, None):
        print(refused(problem).removesuffix("; not changed"), file=sys.stderr)
    return 2


def set_main(path: Path, key: str, text: str) -> int:
    value = read_value(text)
    problems = problems_with(path, key, value)
    table, _, name = key.partition(".")
    if not problems and table == "keys":
        problems = [Problem(str(path), key, "the key map is changed in the [keys] table by hand")]
    elif not problems and key == HOUSE_RULES:
        problems = [Problem(str(path), key, f"set one house rule at a time: {HOUSE_RULES}.NAME VALUE")]
    if problems:
        for problem in problems:
            print(refused(problem), file=sys.stderr)
        return 2
    if table == HOUSE_RULES:
        have = read_settings_text(path).data.get(HOUSE_RULES, {})
        rules = {**have, name: None if value == "off" else value} if isinstance(have, dict) else {name: value}
        done = adjust(path, {}, rules)
    elif table == LINK:  # (checked above: the table as it will be)
        done = adjust(path, {}, tables={LINK: link_with(read_settings_text(path).data.get(LINK), name, value)})
    else:
        done = adjust(path, {key: value})
    if done.aside is not None:
        print(f"{path}: the damaged file is kept as {done.aside}; written again from its last good copy")
    for why in done.refused:
        print(f"{path}: {why}; not changed (fix it by hand)", file=sys.stderr)
    if done.error:
        print(f"{path}: not changed: {done.error}", file=sys.stderr)
        return 1
    if done.refused:
        return 2
    for change in done.changes:
        was = "not in the file" if change.old is None else f"was {toml(hidden(change.key, change.old))}"
        print(f"{path}: {change.key} = {toml(hidden(change.key, change.new))} ({was}); a game running takes it "
              "at its next start")
    from appliance.operator.office import record_adjustments

    why_not = record_adjustments(path, [(c.key, hidden(c.key, c.old), hidden(c.key, c.new)) for c in done.changes],
                                 "settings set")
    if why_not is not None:  # the setting is changed; only its line in the audits is missing
        print(f"{path}: changed, but not recorded in the audits' adjustments: {why_not}", file=sys.stderr)
    if not done.changes:
        print(f"{path}: {key} is {toml(hidden(key, value))} already")
    return 0


def main(argv: list[str]) -> int:
    where = argparse.ArgumentParser(add_help=False)  # before the action or after it
    which = where.add_mutually_exclusive_group()
    which.add_argument("--config", type=Path, default=argparse.SUPPRESS,
                       help="settings file (default ~/.config/spit-arcade/config.toml)")
    which.add_argument("--cabinet", action="store_true", default=argparse.SUPPRESS,
                       help=f"the kiosk service's file, {CABINET_CONFIG}")
    parser = argparse.ArgumentParser(
        prog="spit-arcade settings", parents=[where],
        description="The operator's adjustments without a screen: list them, get one, set one. A wrong key or "
        "value gets check-config's words and exit status 2; nothing else in the file changes.",
    )
    action = parser.add_subparsers(dest="action", required=True, metavar="{list,get,set}")
    action.add_parser("list", parents=[where], help="every setting in effect, as TOML (# default: not in the file)")
    get = action.add_parser("get", parents=[where], help="one setting's value in effect")
    get.add_argument("key", help="a setting (volume), a house rule (house_rules.refill) or a key (keys.z)")
    put = action.add_parser("set", parents=[where], help="change one setting in the file, the rest kept as written")
    put.add_argument("key", help="a setting (volume), a house rule (house_rules.refill) or the link (link.listen, "
                     "link.join, link.seats; link off)")
    put.add_argument("value", help='a TOML value (0.4, true, [1, 2], "de") or words (tabletop)')
    args = parser.parse_args(argv)
    config, cabinet = getattr(args, "config", None), getattr(args, "cabinet", False)
    if config is not None and cabinet:
        parser.error("--config and --cabinet name two files: give one")
    path = CABINET_CONFIG if cabinet else config if config is not None else default_config_path()
    if args.action == "list":
        return list_main(path)
    if args.action == "get":
        return get_main(path, args.key)
    return set_main(path, args.key, args.value)
