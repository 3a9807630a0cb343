"""`spit-arcade audits`: the operator's books without a screen.

    spit-arcade audits                  # the totals, earnings by day and week, switch health: as text
    spit-arcade audits --json           # everything as one JSON object
    spit-arcade audits --csv FILE       # the same as rows for a spreadsheet
    spit-arcade audits --cabinet        # the kiosk service's store (/var/lib/spit-arcade/store.sqlite)

The store is opened read-only: the command never changes it, and a game running meanwhile goes on
writing (WAL lets one writer and many readers be). Exit 0; 2 for a store that cannot be read.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path
from typing import Any

from . import books
from .store import FILE, Store, store_path


def read_only(path: Path) -> Store:
    """The store at `path`, opened to be read and never written. sqlite3.Error if it cannot be."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
    connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    return Store(path, connection, read_only=True)


def text_lines(found: dict[str, Any]) -> list[str]:
    life, since = found["lifetime"], found["since_cleared"]
    out = [f"credits now: {found['credits']}", f"audits cleared: {found['cleared'] or 'never'}",
           f"{'':<18}{'lifetime':>12}{'since cleared':>15}"]
    for name in ("games", "finished", "abandoned", "play_s", "average_game_s", "races", "coins", "sprints"):
        out.append(f"{name:<18}{life[name]:>12}{since[name]:>15}")
    for variant, games in sorted(life["variants"].items(), key=lambda item: (-item[1], item[0])):
        out.append(f"  {variant:<16}{games:>12}{since['variants'].get(variant, 0):>15}")
    for by in ("day", "week"):
        out.append(f"earnings by {by}: coins, credits given, credits spent, games, play time (s)")
        out += [f"  {r[by]:<14} {r['coins']:>6} {r['credits_given']:>6} {r['credits_spent']:>6} {r['games']:>6}"
                f" {r['play_s']:>10}" for r in found[f"earnings_by_{by}"]]
    health = found["switch_health"]
    out.append("switch health: " + ("every control pressed in the last "
                                    f"{books.SWITCH_GAMES} games" if not health else f"{len(health)} to look at"))
    out += [f"  {row['words']}" for row in health]
    return out


def main(argv: list[str] | None = None) -> int:
    from appliance.check_config import CABINET_CONFIG
    from appliance.shared.settings import default_config_path

    parser = argparse.ArgumentParser(prog="spit-arcade audits", description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", type=Path, help="the settings file the store is kept beside"
                        " (default ~/.config/spit-arcade/config.toml)")
    parser.add_argument("--cabinet", action="store_true", help=f"the kiosk service's: {CABINET_CONFIG.parent / FILE}")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="one JSON object")
    out.add_argument("--csv", type=Path, metavar="FILE", help="write the books to FILE as CSV (for a spreadsheet)")
    args = parser.parse_args(argv)
    config = CABINET_CONFIG if args.cabinet else (args.config or default_config_path())
    path = store_path(config)
    if not path.exists():
        print(f"spit-arcade audits: no store at {path} yet (the game makes it, and moves the old files in,"
              " at its first start)", file=sys.stderr)
        return 2
    try:
        store = read_only(path)
        found = books.report(store)
    except sqlite3.Error as error:
        print(f"spit-arcade audits: {path} cannot be read ({error}); the game keeps a damaged store aside"
              " and starts a new one", file=sys.stderr)
        return 2
    if args.csv is not None:
        try:
            books.write_csv(found, args.csv)
        except OSError as error:
            print(f"spit-arcade audits: cannot write {args.csv} ({error})", file=sys.stderr)
            return 2
        print(f"spit-arcade audits: written to {args.csv}")
    elif args.json:
        import json

        print(json.dumps(found, ensure_ascii=False))
    else:
        print("\n".join(text_lines(found)))
    return 0
