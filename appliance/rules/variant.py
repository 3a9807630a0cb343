"""A variant is a set of options composed onto the one engine, never a copy of it.

Only classic Spit is built. Each variant that RULES.md names has a place to plug in, written here
next to the option it would set, and at the spot in the engine that would read it:

- V1 four piles 1-2-3-4, V2 piles 1-1-11-1-1, V3 five piles of three, V18 Mod Spit's five singles:
  `stock_layout` (layout.deal reads it; nothing else assumes five piles of 1..5).
- V4 two decks, five or six piles: `decks` (cards.deck) and `stock_layout`.
- V5 four single-card piles refilled from the spit cards: a refill step after a play (Game._play).
- V6 alternating colours: `fits` below.
- V7 same-rank stacking: the `pileN` press with a pile selected (Game._pile_press), and
  stalemate.can_progress (stacking can expose a card).
- V8 two hands: a second selection per player (PlayerState.selected becomes two slots).
- V9 hidden last cards: a visibility flag on the player, for the display and bots only.
- V10 David Shapp, V11 first to call, V12 Slap Spit: `choose_piles` (Game._start_choosing / _slap).
- V13 "Spit card, please", V14 ghost card: an extra pile per player and one more press kind.
- V15 Reverse Spit: `reverse` flips which pile a slap should aim for and who wins (Game._round_over).
- V16 Running Spit: nothing in the rules; the remote pads are an input source.
- V17 more than two seats: `seats`; seat mapping lives in seats.py, the engine loops over players.
- V18/V19 Mod Spit's table slap: a rule checked after every play onto a spit pile (Game._after_play).
- S1-S5 Speed: `stock_layout=()` plus a hand of five; pileN then names a hand card.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, is_red, next_in_rank


@dataclass(frozen=True)
class Variant:
    name: str = "classic"
    seats: int = 2
    decks: int = 1
    # Cards dealt to each stock pile, left to right; the deal goes row by row over this.
    stock_layout: tuple[int, ...] = (1, 2, 3, 4, 5)
    alternate_colours: bool = False  # V6: not built yet
    same_rank_stacking: bool = False  # V7: not built yet
    choose_piles: str = "slap"  # V10 "shapp", V11 "first_call", V12 "slap_spit": not built yet
    # How long after an opponent's play onto a spit pile a card that fitted the covered top is
    # told `too_late` (it lost the race) rather than `not_adjacent`. Seconds of press time.
    race_window: float = 1.0
    # How long after the slap that settled the piles another slap is still told it lost that race.
    # Shorter than race_window: a lone spitter choosing a pile in the new layout needs to see it
    # first (a human reaction, 150 ms at the very least), and that press is a choice, not a slap.
    slap_window: float = 0.25

    @property
    def stock_piles(self) -> int:
        return len(self.stock_layout)

    @property
    def full_layout(self) -> int:
        """Cards in a full layout (15 in classic); fewer than this and a player has no spit cards."""
        return sum(self.stock_layout)

    def fits(self, card: Card, top: Card) -> bool:
        """May `card` be played onto a spit pile whose top is `top`?"""
        if not next_in_rank(card, top):
            return False
        return not (self.alternate_colours and is_red(card) == is_red(top))


CLASSIC = Variant()

VARIANTS: dict[str, Variant] = {"classic": CLASSIC}


def variant_named(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise ValueError(f"unknown variant {name!r} (known: {known})") from None
