"""The settings' `[link]` (a linked game: docs/linked.md), checked: kept apart from settings.py so
that the image's boot-time link setup (appliance/linked/setup.py) reads it, in the same words, without
loading the rules (settings.py's key map does: half a second of a Pi's boot).
"""

from __future__ import annotations

from typing import Any

from .checks import Checker, shown

LINK_KEYS = ("listen", "join", "seats", "word")
WORD = "link.word"  # the operator's link word: never shown, never written to the audits (`hidden`)
MIN_WORD, MAX_WORD = 8, 128


def check_link(table: dict[str, Any], check: Checker) -> dict[str, Any]:
    """`[link]`: `listen` (a UDP port) or `join` ("HOST:PORT", "venue", "venue:CABINET"), `seats`, and
    `word` (the link word: both cabinets the same, docs/linked.md). A wrong one is left out, and a
    table with neither `listen` nor `join` is no link at all."""
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
    word = check.string(table, "word", "", prefix="link.")
    if word and not (MIN_WORD <= len(word) <= MAX_WORD and word.isprintable()):
        # (the word itself is not said: it is a secret, and the message may be shown or logged)
        check.problem(WORD, f"must be {MIN_WORD} to {MAX_WORD} printable characters (this one has {len(word)}); "
                      "no link word")
    elif word:
        link["word"] = word
    return link


def hidden(key: str, value: Any) -> Any:
    """`value` as it may be shown or recorded: the link word only as whether one is set."""
    if key != WORD or value in (None, ""):
        return value
    return "(set)"


def link_with(have: Any, key: str, value: Any) -> dict[str, Any]:
    """The `[link]` table `have` (as the file holds it) with one entry set, as the service menu and
    `settings set link.KEY VALUE` set it: `listen` and `join` are one choice (setting one takes the
    other out); `key` "" with "off" (or None) is no link at all. Checked afterwards, as any file is."""
    table = dict(have) if isinstance(have, dict) else {}
    if key == "":
        if value in ("off", None):
            return {}
        raise ValueError('[link] is set one key at a time (link.listen, link.join, link.seats, link.word), or "off"')
    if key in ("listen", "join"):
        table.pop("join" if key == "listen" else "listen", None)
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value
    return table
