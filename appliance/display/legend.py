"""The keys as each seat reads them: legends that list only keys that do something, and the names
of the spit piles as each seat sees them (the screen's sides on the desktop, the player's own on
the tabletop).

The slap key is named for what it slaps in the game, as the rules say (the ruleset's `slaps`, from
its house rules): the table (Mod Spit's table slap), the ghost card (V14; "the ghost", as its label
on the table says), or the card (the spit card lent to the short player, V13 "Spit card, please").
Short words: the legend's corner is narrow, and a longer line is broken between words.
"""

from __future__ import annotations

from .events import side_for
from .i18n import _
from .keys import Keymap, key_label


def pile_side(mode: str, player: int, spit_pile: int, seats: int = 2) -> str:
    """How a seat names a spit pile: at a table of two on the desktop by the screen's side (both read
    the screen the same way), otherwise by the player's own left and right (their side is turned to
    them), and "far_left"/"far_right" for the far piles at a table of three or four."""
    if mode == "desktop" and seats == 2:
        return "left" if spit_pile == 0 else "right"
    return side_for(player, spit_pile, seats)


def key_words(key: str) -> str:
    """A key as a legend names it: as its cap reads, and a punctuation mark with its name too (a bare
    "," or "." is lost in a line of text)."""
    names = {",": _("comma"), ".": _("full stop"), "-": _("minus"), "/": _("slash"), ";": _("semicolon"),
             "'": _("apostrophe"), "=": _("equals")}  # fmt: skip
    return f"{key}\u00a0({names[key]})" if key in names else key  # kept on one line


def slap_words(slap: str, key: str) -> str:
    """The legend's line for the slap key, in the words of what it slaps (the ruleset's `slaps`)."""
    words = {
        "table": _("slap the table {key}"),
        "ghost": _("slap the ghost {key}"),
        "card": _("slap the card {key}"),
    }
    return words[slap].format(key=key)


def seat_key_label(keymap: Keymap, player: int, control: str) -> str:
    """The key a seat presses for `control`: the key map's, and for players 3 and 4 (whom the map of
    the inputs layer does not know) the keyboard's number row and keypad (keys.SEAT_KEYS)."""
    from .keys import SEAT_KEYS

    found = key_label(keymap, player, control)
    if not found and player > 2:
        found = key_label(SEAT_KEYS, player, control)
    return found


def pile_keys(keymap: Keymap, player: int, spit_pile: int, seats: int) -> str:
    """The key(s) with which `player` plays onto `spit_pile`: at a table of three both far keys
    reach the one pile across. A punctuation key with its name (". (full stop)"): a bare "." beside
    a pile is lost."""
    control = side_for(player, spit_pile, seats)
    controls = ("far_left", "far_right") if seats == 3 and control.startswith("far") else (control,)
    return " ".join(key_words(k) for k in (seat_key_label(keymap, player, c) for c in controls) if k)


def seat_legend(
    keymap: Keymap, player: int, mode: str, piles: int = 5, seats: int = 2, slap: str = ""
) -> list[str]:
    """A seat's keys, as its player reads the screen: only keys that do something in the game (the far
    piles at a table of three or four, the slap key where the game has a slap, named by `slap`,
    from the ruleset's `slaps`)."""

    def label(control: str) -> str:
        found = seat_key_label(keymap, player, control)
        return key_words(found) if found else ""

    lines = []
    stock = [label(f"pile{n}") for n in range(1, piles + 1)]
    if any(stock):
        lines.append(_("piles {keys}").format(keys=" ".join(k for k in stock if k)))
    sides = {}
    for index in range(seats):
        key = label(side_for(player, index, seats))
        if key:
            sides[pile_side(mode, player, index, seats)] = key
    if "left" in sides:
        lines.append(_("left pile {key}").format(key=sides["left"]))
    spit = label("spit")
    if spit:
        lines.append(_("SPIT! {key}").format(key=spit))
    if "right" in sides:
        lines.append(_("right pile {key}").format(key=sides["right"]))
    far = [sides[side] for side in ("far_left", "far_right") if side in sides]
    if seats == 3 and far:  # both far keys reach the one pile across
        far = [" ".join(label(c) for c in ("far_left", "far_right") if label(c))]
    if far:
        lines.append(_("far piles {keys}").format(keys=" ".join(far)))
    slap_key = label("slap")
    if slap and slap_key:
        lines.append(slap_words(slap, slap_key))
    return lines


def cabinet_legend(keymap: Keymap, coins: bool = False) -> list[str]:
    """The cabinet's own buttons that do something, and Escape; the coin key where a game costs
    credits (`coins`)."""
    lines = []
    start = key_label(keymap, 0, "start")
    if start:
        lines.append(_("START {key}").format(key=start))
    coin = key_label(keymap, 0, "coin") if coins else ""
    if coin:
        lines.append(_("coin {key}").format(key=coin))
    service = key_label(keymap, 0, "service")
    if service:
        lines.append(_("service menu {key}").format(key=service))
    lines.append(_("back Esc"))
    return lines
