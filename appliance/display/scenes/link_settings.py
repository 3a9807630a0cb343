"""The service menu's page for a linked game (`[link]` in the settings: docs/linked.md): off, wait for
the other cabinet on a port, join one at an address, or find one on the venue's broker; and the seats
this cabinet takes. Each change is checked as `check-config` checks the file (the same words where it
is refused) and saved by the operator layer as every adjustment is (`Office.adjust_later`: the menu
does no file I/O). The link opens when the game starts, so the page says a change holds from the
next start.

The address is set on a page of its own, a digit at a time, as an arcade's initials are: LEFT and
RIGHT (the arrow keys) move along the digits to SAVE, START or SPIT steps the digit under the cursor
(the keyboard's up and down step it either way), START on SAVE keeps it; SERVICE goes back without.
A name (`cabinet-a.local:50070`) is set in the file or with `spit-arcade settings set link.join`.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any, Protocol

from appliance.shared.checks import Checker
from appliance.shared.settings import check_settings, link_with

from ..captions import Line
from ..i18n import _
from ..table_view import GOLD, RED, WHITE
from .base import Input

Row = tuple[Callable[[], str], Callable[[int], None] | None]  # the words, and what START (or a step) does


class Menu(Protocol):
    """What the page needs of the service menu (service_menu.py) that shows it."""

    message: str

    @property
    def settings(self) -> Any: ...
    def open(self, page: str) -> None: ...
    def back(self) -> Any: ...
    def write_link(self, link: dict[str, Any]) -> None: ...

MODES = ("off", "listen", "join", "venue")
PORTS = tuple(range(50070, 50080))  # the ports the page offers to listen on (the file may hold any)
FIRST_ADDRESS = "192.168.1.2:50070"  # where the address editor starts when the settings have none
DIGITS = 12 + 5  # four numbers of three digits, and the port's five
SAVE = DIGITS  # the cursor on SAVE


def link_mode(link: dict[str, Any]) -> str:
    if "listen" in link:
        return "listen"
    join = str(link.get("join", ""))
    if not join:
        return "off"
    return "venue" if join.partition(":")[0] == "venue" else "join"


def link_words(link: dict[str, Any]) -> str:
    """The Adjustments page's row: what the cabinet does at its start."""
    mode = link_mode(link)
    if mode == "listen":
        return _("linked game: waits on port {port}").format(port=link["listen"])
    if mode == "join":
        return _("linked game: joins {address}").format(address=link["join"])
    if mode == "venue":
        name = str(link["join"]).partition(":")[2]
        return _("linked game: joins {name} on the venue").format(name=name) if name else _(
            "linked game: finds one on the venue")
    return _("linked game: off")


def mode_words(mode: str) -> str:
    return {"off": _("off"), "listen": _("wait for the other cabinet"), "join": _("join an address"),
            "venue": _("find one on the venue")}[mode]


def seat_choices(table_seats: int) -> list[list[int] | None]:
    """None (the default: the listener the first half, the joiner the rest), then every set of seats
    short of the whole table, fewest first."""
    seats = range(1, table_seats + 1)
    return [None, *([list(c) for n in range(1, table_seats) for c in combinations(seats, n)])]


def seats_words(seats: list[int]) -> str:
    return " + ".join(str(n) for n in seats)


def address_digits(join: str) -> str:
    """The editor's 17 digits for `join` (an address by numbers), else FIRST_ADDRESS's."""
    host, _sep, port = join.rpartition(":")
    parts = host.split(".")
    if len(parts) != 4 or not all(p.isdigit() and len(p) <= 3 for p in parts) or not port.isdigit() or len(port) > 5:
        host, _sep, port = FIRST_ADDRESS.rpartition(":")
        parts = host.split(".")
    return "".join(p.zfill(3) for p in parts) + port.zfill(5)


def digits_address(digits: str) -> str:
    """"192.168.1.20:50070" from the editor's digits (leading zeros dropped)."""
    numbers = [str(int(digits[i : i + 3])) for i in range(0, 12, 3)]
    return ".".join(numbers) + ":" + str(int(digits[12:]))


class LinkPage:
    """The `[link]` page and its address editor, for the service menu (which draws and routes them)."""

    def __init__(self, menu: Menu) -> None:
        self.menu = menu
        self.digits = address_digits(FIRST_ADDRESS)
        self.at = 0  # the editor's cursor: a digit, or SAVE

    @property
    def link(self) -> dict[str, Any]:
        return self.menu.settings.link

    def table_seats(self) -> int:
        from appliance.rules import seats_of

        from ..rules_words import game_choice

        choice = game_choice(self.menu.settings)
        return seats_of(choice.preset, choice.given)

    # ------------------------------------------------------------------ the page
    def rows(self) -> list[Row]:
        """The page's rows (the menu makes them its items)."""
        mode = link_mode(self.link)
        rows: list[Row] = [(lambda: _("linked game: {mode}").format(mode=mode_words(link_mode(self.link))),
                            self.step_mode)]
        if mode == "listen":
            rows.append((lambda: _("port: {port}").format(port=self.link.get("listen")), self.step_port))
        elif mode == "join":
            rows.append((lambda: _("address: {address}").format(address=self.link.get("join")), self.edit))
        elif mode == "venue":
            rows.append((self.venue_words, None))
        if mode != "off":
            rows.append((self.seats_row, self.step_seats))
        return rows

    def venue_words(self) -> str:
        name = str(self.link.get("join", "")).partition(":")[2]
        if name:
            return _("the cabinet {name}, when it offers a game").format(name=name)
        return _("the first cabinet on the venue whose game fits")

    def seats_row(self) -> str:
        seats = self.link.get("seats")
        if seats:
            return _("this cabinet's seats: {seats}").format(seats=seats_words(seats))
        table = self.table_seats()
        half = table // 2
        mine = list(range(1, half + 1)) if "listen" in self.link else list(range(half + 1, table + 1))
        return _("this cabinet's seats: {seats} (the default)").format(seats=seats_words(mine))

    def notes(self) -> list[Line]:
        """Under the rows: where the link's settings are, and that the link opens at the next start."""
        if link_mode(self.link) == "off":
            return [Line(_("no linked game: this cabinet plays alone and opens no port"), 0.11, WHITE)]
        word = _("link word: set") if self.link.get("word") else _("no link word")  # (set outside: docs/linked.md)
        return [Line(_("the link opens at the cabinet's next start (docs/linked.md)"), 0.11, WHITE),
                Line(word, 0.11, WHITE)]

    def step_mode(self, step: int) -> None:
        mode = MODES[(MODES.index(link_mode(self.link)) + step) % len(MODES)]
        seats = self.link.get("seats")
        if mode == "off":
            self.save({})
            return
        kept = {"seats": seats} if seats else {}
        if self.link.get("word"):  # (the link word is set in the file or by `settings set`: kept)
            kept["word"] = self.link["word"]
        if mode == "listen":
            self.save({"listen": PORTS[0], **kept})
        elif mode == "join":
            self.save({"join": digits_address(self.digits), **kept})
        else:
            self.save({"join": "venue", **kept})

    def step_port(self, step: int) -> None:
        now = self.link.get("listen")
        index = PORTS.index(now) if now in PORTS else -1 if step > 0 else 0
        self.save(link_with(self.link, "listen", PORTS[(index + step) % len(PORTS)]))

    def step_seats(self, step: int) -> None:
        choices = seat_choices(self.table_seats())
        now = self.link.get("seats")
        index = choices.index(now) if now in choices else 0
        self.save(link_with(self.link, "seats", choices[(index + step) % len(choices)]))

    def edit(self, step: int) -> None:
        if step > 0:
            self.digits = address_digits(str(self.link.get("join", "")))
            self.at = 0
            self.menu.open("link_address")

    def save(self, table: dict[str, Any]) -> bool:
        """`table` as the new `[link]`, checked as check-config checks the file: saved through the
        operator layer, or refused in check-config's words (nothing changed)."""
        check = Checker("config")
        checked = check_settings({"link": table}, check).link
        if check.problems:
            problem = check.problems[0]
            self.menu.message = _("not changed: {why}").format(why=f"{problem.key}: {problem.message}")
            return False
        self.menu.write_link(checked)
        return True

    # ------------------------------------------------------------------ the address editor
    def on_editor(self, press: Input) -> None:
        arrow = press.player == 0 and press.control in ("left", "right", "up", "down")
        if press.control in ("left", "right"):
            self.at = (self.at + (1 if press.control == "right" else -1)) % (DIGITS + 1)
        elif arrow and press.control in ("up", "down") and self.at < SAVE:
            self.turn(1 if press.control == "up" else -1)
        elif press.control in ("start", "spit"):
            if self.at < SAVE:
                self.turn(1)
            else:
                self.keep()

    def turn(self, step: int) -> None:
        digit = (int(self.digits[self.at]) + step) % 10
        self.digits = self.digits[: self.at] + str(digit) + self.digits[self.at + 1 :]
        self.menu.message = ""

    def keep(self) -> None:
        numbers = [int(self.digits[i : i + 3]) for i in range(0, 12, 3)]
        if any(n > 255 for n in numbers):
            self.menu.message = _("not changed: each number of an address is 0 to 255")
            return
        if self.save(link_with(self.link, "join", digits_address(self.digits))):
            self.menu.back()

    def editor_lines(self) -> list[Line]:
        shown = ""
        for index, digit in enumerate(self.digits):
            shown += "." if index in (3, 6, 9) else " : " if index == 12 else ""
            shown += f"[{digit}]" if index == self.at else digit
        done = "▶ " + _("SAVE") + " ◀" if self.at == SAVE else _("SAVE")
        colour = RED if any(int(self.digits[i : i + 3]) > 255 for i in range(0, 12, 3)) else WHITE
        return [Line(_("the other cabinet's address and port:"), 0.12, WHITE),
                Line(f"{shown}   {done}", 0.16, GOLD, "start"),
                Line(_("now: {address}").format(address=digits_address(self.digits)), 0.12, colour)]

    def editor_hint(self, service: str) -> str:
        return _("LEFT/RIGHT: move; START: next digit, or save; {service}: back without saving").format(
            service=service)

