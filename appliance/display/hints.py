"""What a player can do, in words they know: why a press did nothing and what to do instead, and
the move that is there for a player who looks stuck.

The words are the core's (`rules/player_words.py`, English: `script --words` says the same),
translated here. The move told is always one the rules offer (`player_words.tell`), never worked out
here. A seat is stuck when it has done nothing for `HINT_AFTER_S` (`StuckWatch`).
Never a play (the race is the game: the `assist` setting lights playable cards for whoever wants
it) and never a table slap (the players do the arithmetic).

    told = tell(game, 1, keymap)      # a Told, or None
    told.words()                      # "Move a card into the space: press Q, then T"
    reject_words("wrong_phase", "spit", "playing", told)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from appliance.rules import Event
from appliance.rules.events import Deal, Reject
from appliance.rules.player_words import TOLD as TOLD  # the kinds told, in this order
from appliance.rules.player_words import misfit_words as rules_misfit_words
from appliance.rules.player_words import reject_words as rules_reject_words
from appliance.rules.player_words import takers, told_words
from appliance.rules.player_words import tell as rules_tell
from appliance.rules.terms import Reason

from .events import seat_of
from .i18n import _
from .keys import SEAT_KEYS, Keymap, key_label

HINT_AFTER_S = 5.0  # a seat that has done nothing for this long is shown the move that is there


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
        return told_words(self.kind, self.keys, _)


def tell(game: Any, player: int, keymap: Keymap | None = None) -> Told | None:
    """The move to show `player` now (`player_words.tell`), with the keys of `keymap` (None: no
    keys shown), or None if the rules offer none of those."""
    told = rules_tell(game, player)
    if told is None:
        return None
    kind, presses = told
    keys = tuple(seat_key(keymap, player, control) for control in presses) if keymap else ()
    return Told(kind, len(presses), keys if all(keys) else ())


@dataclass
class StuckWatch:
    """When each seat last did something (any event of theirs but a reject; a new deal starts them
    all afresh), and the move to show a seat that has done nothing for `HINT_AFTER_S` (`stuck`)."""

    since_ns: int
    progress_ns: dict[int, int] = field(default_factory=dict)
    _told: dict[int, tuple[object, Told | None]] = field(default_factory=dict)

    def notice(self, events: Iterable[Event], now_ns: int) -> None:
        for event in events:
            if isinstance(event, Deal):
                self.progress_ns.clear()
                self.since_ns = now_ns
            elif not isinstance(event, Reject):
                player = seat_of(event)
                if player:
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
    """Why a press did nothing and what to do instead, in the players' language (the core's words,
    `player_words.reject_words`, translated). `press` and `phase` (the control pressed, the game's
    phase) say which "not now" it was; `instead`: the move that is there (`tell`), for a "Spit!"
    called while the player can still do something."""
    return rules_reject_words(reason, press, phase, None if instead is None else instead.words(), _)


def misfit(game: Any, event: Event) -> Callable[[], str] | None:
    """For a card that fits no spit pile it was pressed onto (`not_adjacent`): its words, said when
    drawn (what that pile needs, and which piles would take the card, as the table stands at the
    reject: `player_words.misfit_words`, translated); None for any other reject."""
    if not isinstance(event, Reject) or event.reason != Reason.NOT_ADJACENT or game is None:
        return None
    card, onto, pile = event.card, event.onto, event.spit_pile
    if not card or not onto or pile is None or not isinstance(event.player, int):
        return None
    fitting = tuple(takers(game, event.player, pile))
    piles = len(game.spit_piles)
    return lambda: rules_misfit_words(str(card), str(onto), fitting, piles, _)
