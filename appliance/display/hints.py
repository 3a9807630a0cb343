"""What a player can do, in words they know: why a press did nothing and what to do instead, and
the move that is there for a player who looks stuck.

The move told is always one the rules offer (`game.legal_actions`, pressed as `game.presses_for`
says), never worked out here: first "Spit!" (nobody can play), then turning a card, drawing a card
(Speed), moving a card into a space, stacking, picking up the last cards, Running Spit's lifting a
card, choosing a pile. A seat is stuck when it has done nothing for `HINT_AFTER_S` (`StuckWatch`).
Never a play (the race is the game: the `assist` setting lights playable cards for whoever wants
it) and never a table slap (the players do the arithmetic).

    told = tell(game, 1, keymap)      # a Told, or None
    told.words()                      # "Move a card into the space: press Q, then T"
    reject_words("wrong_phase", "spit", "playing", told)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from appliance.rules import REJECT_REASONS

from .events import detail, kind
from .i18n import _
from .keys import SEAT_KEYS, Keymap, key_label

HINT_AFTER_S = 5.0  # a seat that has done nothing for this long is shown the move that is there
TOLD = ("call", "flip", "draw", "move", "stack", "pick_up", "lift", "choose")  # the kinds told, in this order


def seat_key(keymap: Keymap, player: int, control: str) -> str:
    """The key a seat presses for `control` ("" if it has none), as its legend shows it."""
    found = key_label(keymap, player, control)
    if not found and player > 2:
        found = key_label(SEAT_KEYS, player, control)
    return found


@dataclass(frozen=True)
class Told:
    """A move the rules offer a seat: its kind, and the keys that do it (empty where no key is
    shown: a cabinet's buttons are named on its panel)."""

    kind: str
    presses: int
    keys: tuple[str, ...] = ()

    def words(self) -> str:
        """The move in the players' language (said when it is drawn)."""
        keys, kind = self.keys, self.kind
        if kind in ("call", "pick_up"):
            if kind == "call":
                return _("Nobody can play: press SPIT! {key}").format(key=keys[0] if keys else "").strip()
            return _("Pick up your last cards: press SPIT! {key}").format(key=keys[0] if keys else "").strip()
        if kind == "flip":
            return _("Turn a card: press {key}").format(key=keys[0]) if keys else _("Turn a card: press its pile")
        if kind == "draw":  # Speed: a card from the stock into an empty place of the hand
            return _("Draw a card: press {key}").format(key=keys[0]) if keys else _("Draw a card: press an empty place")
        if kind == "lift":
            return _("Lift a card to turn the one under it: press {keys}").format(keys=", ".join(keys)) if keys \
                else _("Lift a card to turn the one under it: press its pile twice")
        if kind == "choose":
            if keys:
                return _("Choose a spit pile: press {key}").format(key=keys[0])
            return _("Choose a spit pile: press it")
        if kind == "move":
            if len(keys) > 1:
                return _("Move a card into the space: press {first}, then {then}").format(first=keys[0], then=keys[1])
            if keys:
                return _("Move a card into the space: press {key}").format(key=keys[0])
            return _("Move a card into the space: its pile, then the space")
        if len(keys) > 1:
            return _("Stack on the same rank: press {first}, then {then}").format(first=keys[0], then=keys[1])
        if keys:
            return _("Stack on the same rank: press {key}").format(key=keys[0])
        return _("Stack on the same rank: its pile, then the other")


def tell(game: Any, player: int, keymap: Keymap | None = None) -> Told | None:
    """The move to show `player` now (the first of `legal_actions` by the order of `TOLD`), with
    the keys of `keymap` (None: no keys shown), or None if the rules offer none of those."""
    actions = game.legal_actions(player)
    for told_kind in TOLD:
        for action in actions:
            if action.kind == told_kind:
                presses = game.presses_for(player, action)
                keys = tuple(seat_key(keymap, player, control) for control in presses) if keymap else ()
                return Told(told_kind, len(presses), keys if all(keys) else ())
    return None


@dataclass
class StuckWatch:
    """When each seat last did something (any event of theirs but a reject; a new deal starts them
    all afresh), and the move to show a seat that has done nothing for `HINT_AFTER_S` (`stuck`)."""

    since_ns: int
    progress_ns: dict[int, int] = field(default_factory=dict)
    _told: dict[int, tuple[object, Told | None]] = field(default_factory=dict)

    def notice(self, events: Iterable[Any], now_ns: int) -> None:
        for event in events:
            what = kind(event)
            if what == "deal":
                self.progress_ns.clear()
                self.since_ns = now_ns
            elif what != "reject":
                player = detail(event, "player", 0)
                if isinstance(player, int) and player:
                    self.progress_ns[player] = now_ns

    def stuck(self, game: Any, player: int, now_ns: int, keymap: Keymap | None, key: object) -> Told | None:
        """The move for `player` if they have done nothing for `HINT_AFTER_S` (else None); asked
        every frame, the rules are asked again only when `key` (the table as it stands) changes."""
        if now_ns - self.progress_ns.get(player, self.since_ns) < HINT_AFTER_S * 1e9:
            return None
        told = self._told.get(player)
        if told is None or told[0] != key:
            told = self._told[player] = (key, tell(game, player, keymap))
        return told[1]


def reject_words(reason: str, press: str = "", phase: str = "", instead: Told | None = None) -> str:
    """Why a press did nothing and what to do instead, in the players' language. `press` and `phase`
    (the control pressed, the game's phase) say which "not now" it was; `instead`: the move that is
    there (`tell`), for a "Spit!" called while the player can still do something."""
    if reason == "wrong_phase":
        return wrong_phase_words(press, phase, instead)
    if reason == "no_pile" and press.startswith("pile"):
        return _("you have no stock pile there: press one of yours")
    words = {
        "not_adjacent": _("that card does not fit there: try the other spit pile"),
        "too_late": _("too late: someone was faster. Find another card"),
        "no_card": _("no card there: press a pile with a card"),
        "no_pile": _("no spit pile there: play onto one with cards"),
        "nothing_selected": _("pick a card first: a stock pile, then a spit pile"),
        "already_called": _("you called SPIT! already: wait for the others"),
        "no_spit_cards": _("no spit cards left: the others turn theirs"),
        "choose_pile": _("you spit alone: slap the spit pile you want"),
        "wrong_pile": _("you must keep spitting onto the pile you chose"),
        "game_over": _("the game is over"),
        "unknown_press": _("that button does nothing: see your keys"),
        "wrong_colour": _("the colours must alternate: red on black, black on red"),
        "not_your_choice": _("another player chooses the pile this time: wait"),
        "call_first": _("be first to call SPIT! to choose the pile"),
        "slap_smaller": _("slap the smaller spit pile"),
        "not_in_this_game": _("that button does nothing in this game: see your keys"),
        "cannot_pick_up": _("you may pick up your last 3 to 5 cards once they all lie face up"),
        "already_slapped": _("you slapped the table already: wait for the verdict"),
        "table_slapped": _("a table slap is being judged: wait a moment"),
        "sitting_out": _("you are out of this round: press a spit pile to take it"),
        "ghost_first": _("the ghost card first: SLAP to take it"),
        "card_first": _("the lent spit card first: SLAP it"),
        "slap_larger": _("slap the larger spit pile: it is yours"),
        "not_stuck": _("somebody can still play: the side stacks turn only when nobody can"),
    }
    return words.get(reason) or _(REJECT_REASONS.get(reason, reason))


def wrong_phase_words(press: str, phase: str, instead: Told | None = None) -> str:
    """"Not now", said as what is going on and what to do instead."""
    if press == "spit" and phase == "playing":
        if instead is not None:
            return _("SPIT! only if nobody can play. {move}").format(move=instead.words())
        return _("SPIT! only if nobody can play: someone still can")
    if press == "spit" and phase == "choosing":
        return _("no call now: slap the spit pile you take")
    if press == "slap":
        if phase in ("playing", "stalemate"):
            return _("nothing to slap now: wait for a card to slap")
        return _("no slap now: wait until the cards are played")
    if phase == "choosing":
        return _("wait: the spit piles are being chosen first")
    if phase in ("ready", "stalemate"):
        if press.startswith("pile"):
            return _("cards are turned only after SPIT!: press SPIT! first")
        return _("the spit cards are not turned yet: press SPIT! first")
    return _("not now: wait until the cards are turned")
