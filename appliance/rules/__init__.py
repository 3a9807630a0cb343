"""The rules core: classic Spit from timestamped presses. Standard library only.

    game, events = Game.new(seed=7)                 # a seeded deal (events: the `deal`)
    events = game.press(0.25, 1, "pile3")            # one press: (t seconds, player, control)
    game.state()                                     # the state object of SCRIPT-FORMAT.md

Presses are applied in the order they are given; give them in order of `t`.
"""

from .cards import RANKS, SUITS, Card, deck, is_card, next_in_rank, rank_of
from .game import CONTROLS, PHASES, PILE_CONTROLS, REJECT_REASONS, Event, Game, PlayerState
from .seats import side_for, spit_pile_for, starting_pile
from .stalemate import can_progress, playable
from .state import SetupError, check_cards, game_from_state
from .stock_pile import StockPile
from .variant import CLASSIC, VARIANTS, Variant, variant_named

__all__ = [
    "CLASSIC",
    "CONTROLS",
    "PHASES",
    "PILE_CONTROLS",
    "RANKS",
    "REJECT_REASONS",
    "SUITS",
    "VARIANTS",
    "Card",
    "Event",
    "Game",
    "PlayerState",
    "SetupError",
    "StockPile",
    "Variant",
    "can_progress",
    "check_cards",
    "deck",
    "game_from_state",
    "is_card",
    "next_in_rank",
    "playable",
    "rank_of",
    "side_for",
    "spit_pile_for",
    "starting_pile",
    "variant_named",
]
