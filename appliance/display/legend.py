"""The keys as each seat reads them: legends that list only keys that do something, and the names
of the spit piles as each seat sees them (the screen's sides on the desktop, the player's own on
the tabletop)."""

from __future__ import annotations

from .events import side_for
from .i18n import _
from .keys import Keymap, key_label


def pile_side(mode: str, player: int, spit_pile: int) -> str:
    """How a seat names a spit pile: on the desktop by the screen's side (both read the screen the
    same way), on the tabletop by the player's own left and right (their half is turned to them)."""
    if mode == "desktop":
        return "left" if spit_pile == 0 else "right"
    return side_for(player, spit_pile)


def seat_legend(keymap: Keymap, player: int, mode: str, piles: int = 5) -> list[str]:
    """A seat's keys, as its player reads the screen: only keys that do something in the game."""
    lines = []
    stock = [key_label(keymap, player, f"pile{n}") for n in range(1, piles + 1)]
    if any(stock):
        lines.append(_("piles {keys}").format(keys=" ".join(k for k in stock if k)))
    sides = {}
    for index in (0, 1):
        key = key_label(keymap, player, side_for(player, index))
        if key:
            sides[pile_side(mode, player, index)] = key
    if "left" in sides:
        lines.append(_("left pile {key}").format(key=sides["left"]))
    spit = key_label(keymap, player, "spit")
    if spit:
        lines.append(_("SPIT! {key}").format(key=spit))
    if "right" in sides:
        lines.append(_("right pile {key}").format(key=sides["right"]))
    return lines


def cabinet_legend(keymap: Keymap) -> list[str]:
    """The cabinet's own buttons that do something, and Escape."""
    lines = []
    start = key_label(keymap, 0, "start")
    if start:
        lines.append(_("START {key}").format(key=start))
    service = key_label(keymap, 0, "service")
    if service:
        lines.append(_("settings {key}").format(key=service))
    lines.append(_("back Esc"))
    return lines
