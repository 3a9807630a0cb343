"""The rules core: the Spit family from timestamped presses. Standard library only.

    game, events = new_game("four-piles", seed=7, options={"alternate_colours": True})
    events = game.press(0.25, 1, "pile3")            # one press: (t seconds, player, control)
    events = game.advance(3.5)                       # time passes: windows close
    game.state()                                     # the state object of the script format
    game.legal_actions(1)                            # what player 1 can do now
    same = restore(game.snapshot())                  # everything, to resume exactly

Presses are applied in the order they are given; give them in order of `t`.
"""

from .cards import RANKS, SUITS, Card, deck, is_card, next_in_rank, rank_of
from .events import EVENT_KINDS, REJECT_REASONS, Event
from .family import GAME_TYPES, FamilyGame, game_from_setup, new_game, restore, seats_of
from .game import CONTROLS, PHASES, Game
from .moves import Action
from .options import OPTIONS, PRESETS, OptionError, Options, read_options
from .ruleset import CLASSIC, Ruleset, ruleset
from .seat import Seat
from .stalemate import can_progress
from .state import SetupError, check_cards, game_from_state
from .stock_pile import StockPile
from .table import Table
from .terms import PILE_CONTROLS, Control, Phase, Reason

__all__ = [
    "CLASSIC",
    "CONTROLS",
    "EVENT_KINDS",
    "GAME_TYPES",
    "OPTIONS",
    "PHASES",
    "PILE_CONTROLS",
    "PRESETS",
    "RANKS",
    "REJECT_REASONS",
    "SUITS",
    "Action",
    "Card",
    "Control",
    "Event",
    "FamilyGame",
    "Game",
    "OptionError",
    "Options",
    "Phase",
    "Reason",
    "Ruleset",
    "Seat",
    "SetupError",
    "StockPile",
    "Table",
    "can_progress",
    "check_cards",
    "deck",
    "game_from_setup",
    "game_from_state",
    "is_card",
    "new_game",
    "next_in_rank",
    "rank_of",
    "read_options",
    "restore",
    "ruleset",
    "seats_of",
]
