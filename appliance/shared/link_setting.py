"""The settings' `[link]` (a linked game: docs/linked.md), checked: kept apart from settings.py so
that the image's boot-time link setup (appliance/linked/setup.py) reads it, in the same words, without
loading the rules (settings.py's key map does: half a second of a Pi's boot).
"""

from __future__ import annotations

from typing import Any

from .checks import Checker, shown

LINK_KEYS = ("listen", "join", "seats")


def check_link(table: dict[str, Any], check: Checker) -> dict[str, Any]:
    """`[link]`: `listen` (a UDP port) or `join` ("HOST:PORT", "venue", "venue:CABINET"), and `seats`.
    A wrong one is left out, and a table with neither `listen` nor `join` is no link at all."""
    check.unknown(table, LINK_KEYS, prefix="link.", what="key of [link]")
    link: dict[str, Any] = {}
    port = check.integer(table, "listen", 0, 1, 65535, prefix="link.")
    join = check.string(table, "join", "", prefix="link.")
    host, _, number = join.rpartition(":")
    if join and join.partition(":")[0] != "venue" and not (host and number.isdigit() and 0 < int(number) < 65536):
        check.problem("link.join", f'must be "HOST:PORT", "venue" or "venue:CABINET", not {shown(join)}; ignored')
        join = ""
    if port and join:
        check.problem("link", "has both listen and join: a cabinet either waits or joins; no link")
        return {}
    if port:
        link["listen"] = port
    elif join:
        link["join"] = join
    elif "seats" in table:
        check.problem("link", "has seats but neither listen nor join; no link")
        return {}
    seats = table.get("seats")
    if seats is not None:
        if (isinstance(seats, list) and seats and len(set(seats)) == len(seats)
                and all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 4 for n in seats)):
            link["seats"] = list(seats)
        else:
            check.problem("link.seats", f"must be a list of seats from 1 to 4, e.g. [1], not {shown(seats)}; "
                          "using the default")
    return link


def link_with(have: Any, key: str, value: Any) -> dict[str, Any]:
    """The `[link]` table `have` (as the file holds it) with one entry set, as the service menu and
    `settings set link.KEY VALUE` set it: `listen` and `join` are one choice (setting one takes the
    other out); `key` "" with "off" (or None) is no link at all. Checked afterwards, as any file is."""
    table = dict(have) if isinstance(have, dict) else {}
    if key == "":
        if value in ("off", None):
            return {}
        raise ValueError('[link] is set one key at a time (link.listen, link.join, link.seats), or "off"')
    if key in ("listen", "join"):
        table.pop("join" if key == "listen" else "listen", None)
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value
    return table
