"""The audits, read from the store: the totals the service menu shows, earnings by day and week,
games per variant, play time, switch health; and their export (`spit-arcade audits`, a USB stick).

    totals(store, since_reset=False)    # appliance.audits.Totals: lifetime (or since the last reset)
    report(store)                       # everything, as one JSON-ready dict
    write_csv(report, path)             # the same as rows for a spreadsheet

Days and weeks are the wall clock's (the operator's books are kept by the calendar); with no clock
set (a cabinet with no network keeps 1970) the rows say so rather than guess. The counting itself
never depends on the clock: a game or a coin is counted once, by its row.
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from appliance.audits import GameFigures, Totals

from .store import Store

SWITCH_GAMES = 30  # a control not pressed in this many of the last games its seat played is flagged
CONTROLS = ("left", "right", "spit")  # what every seat presses in a game worth the name
CLOCK_SET_AFTER = 1_600_000_000  # a wall time before this (September 2020) is a clock never set


def _reset_point(store: Store) -> tuple[int, int, str | None]:
    found = store.rows("SELECT games_through, coins_through, wall FROM audit_resets ORDER BY id DESC LIMIT 1")
    if found:
        games, coins, wall = found[0]
        return int(games), int(coins), day(float(wall))
    return 0, 0, store.get_meta("audits cleared")


def cleared(store: Store) -> str | None:
    """When the resettable audits were last cleared (a date), or None: never."""
    return _reset_point(store)[2]


def totals(store: Store, since_reset: bool = False) -> Totals:
    """The totals of every game and coin (the files moved in included), or those since the last reset."""
    games_after, coins_after = _reset_point(store)[:2] if since_reset else (0, 0)
    carried = store.rows("SELECT totals FROM carried WHERE scope = ?", ("since" if since_reset else "lifetime",))
    out = Totals.from_json(json.loads(carried[0][0])) if carried else Totals()
    found = store.rows("SELECT variant, length_s, abandoned, margins, sprints FROM games WHERE id > ? ORDER BY id",
                       (games_after,))
    for variant, length, abandoned, margins, sprints in found:
        out.add(GameFigures(str(variant), float(length), bool(abandoned), json.loads(margins), json.loads(sprints)))
    out.coins += int(store.rows("SELECT COUNT(*) FROM coins WHERE id > ?", (coins_after,))[0][0])
    return out


def day(wall: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(wall)) if wall >= CLOCK_SET_AFTER else "clock not set"


def week(wall: float) -> str:
    return time.strftime("%G-W%V", time.localtime(wall)) if wall >= CLOCK_SET_AFTER else "clock not set"


def earnings(store: Store, by: str = "day") -> list[dict[str, Any]]:
    """Coins, credits given and spent, games and play time per day (or "week"), oldest first."""
    key = day if by == "day" else week
    rows: dict[str, dict[str, Any]] = {}

    def row(wall: float) -> dict[str, Any]:
        name = key(wall)
        return rows.setdefault(name, {by: name, "coins": 0, "credits_given": 0, "credits_spent": 0, "games": 0,
                                      "play_s": 0.0, "first": wall})

    for wall, credited in store.rows("SELECT wall, credited FROM coins ORDER BY id"):
        found = row(float(wall))
        found["coins"] += 1
        found["credits_given"] += int(credited)
    for wall, credits in store.rows("SELECT wall, credits FROM spends WHERE reason = 'game' ORDER BY id"):
        row(float(wall))["credits_spent"] += int(credits)
    for wall, length in store.rows("SELECT wall, length_s FROM games ORDER BY id"):
        found = row(float(wall))
        found["games"] += 1
        found["play_s"] = round(found["play_s"] + float(length), 3)
    ordered = sorted(rows.values(), key=lambda r: (r[by] == "clock not set", r["first"]))
    for each in ordered:
        del each["first"]
    return ordered


def switch_health(store: Store, games: int = SWITCH_GAMES) -> list[dict[str, Any]]:
    """Each seat's controls not pressed in any of the last `games` games that seat played (a finished
    or abandoned game with somebody at it): "player 2's SPIT button: not pressed in the last 30 games".
    Only where the seat played that many games since the control was last pressed."""
    recent = store.rows("SELECT seats, controls FROM games ORDER BY id DESC LIMIT ?", (games * 4,))
    out: list[dict[str, Any]] = []
    for player in range(1, 5):
        played = [set(json.loads(controls)) for seats, controls in recent if int(seats) >= player and controls != "[]"]
        for control in CONTROLS:
            since = 0
            for pressed in played:
                if f"{player} {control}" in pressed:
                    break
                since += 1
            if since >= games:
                words = f"player {player}'s {control.upper()} button: not pressed in the last {since} games"
                out.append({"player": player, "control": control, "games_not_pressed": since, "words": words})
    return out


def report(store: Store) -> dict[str, Any]:
    """Everything `spit-arcade audits --json` prints."""
    life, since = totals(store), totals(store, since_reset=True)
    credits, _ = store.credits()
    return {
        "credits": credits,
        "cleared": cleared(store),
        "lifetime": life.to_json() | {"average_game_s": round(life.average_game_s, 3)},
        "since_cleared": since.to_json() | {"average_game_s": round(since.average_game_s, 3)},
        "earnings_by_day": earnings(store, "day"),
        "earnings_by_week": earnings(store, "week"),
        "switch_health": switch_health(store),
        "high_scores": [vars(s) for s in store.high_scores("sprint")],
        "adjustments": [{"key": k, "old": json.loads(o) if o else None, "new": json.loads(n) if n else None,
                         "when": day(float(w))}
                        for k, o, n, w in store.rows("SELECT key, old, new, wall FROM adjustments ORDER BY id")],
    }


def csv_rows(found: dict[str, Any]) -> Iterable[list[Any]]:
    """The report as spreadsheet rows: a section name, then its table."""
    yield ["section", "name", "lifetime", "since cleared"]
    life, since = found["lifetime"], found["since_cleared"]
    for name in ("games", "finished", "abandoned", "play_s", "average_game_s", "races", "coins", "sprints"):
        yield ["totals", name, life[name], since[name]]
    for variant, games in sorted(life["variants"].items()):
        yield ["games per variant", variant, games, since["variants"].get(variant, 0)]
    yield ["totals", "credits now", found["credits"], ""]
    for by in ("day", "week"):
        yield []
        yield [f"earnings by {by}", by, "coins", "credits given", "credits spent", "games", "play s"]
        for row in found[f"earnings_by_{by}"]:
            yield [f"earnings by {by}", row[by], row["coins"], row["credits_given"], row["credits_spent"],
                   row["games"], row["play_s"]]
    yield []
    yield ["switch health", "player", "control", "games not pressed"]
    for row in found["switch_health"]:
        yield ["switch health", row["player"], row["control"], row["games_not_pressed"]]


def write_csv(found: dict[str, Any], path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(csv_rows(found))
