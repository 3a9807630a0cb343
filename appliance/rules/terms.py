"""The words a game is played in, as enumerations: its phases, the controls pressed, and the reasons
a press is rejected. Each is a `StrEnum` whose value is the text the script format pins (docs/
script-format.md), so a member is the string itself: it compares, hashes and writes to JSON exactly
as that text, and journals, scripts and the golden corpus are byte for byte what they were. Code
names a member (`Phase.OVER`, `Reason.TOO_LATE`), so a misspelt word is a type error, not a state
nobody reaches; what arrives as text (a script, a journal, the wire) is read with `Phase(text)` etc.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    READY = "ready"  # dealt, waiting for "Spit!"
    PLAYING = "playing"
    STALEMATE = "stalemate"  # nobody can move: "Spit!" again
    CHOOSING = "choosing"  # the round is over, the spit piles are being chosen (not in Speed)
    OVER = "over"


class Control(StrEnum):
    PILE1 = "pile1"
    PILE2 = "pile2"
    PILE3 = "pile3"
    PILE4 = "pile4"
    PILE5 = "pile5"
    PILE6 = "pile6"
    LEFT = "left"
    RIGHT = "right"
    SPIT = "spit"
    FAR_LEFT = "far_left"
    FAR_RIGHT = "far_right"
    SLAP = "slap"


class Reason(StrEnum):
    """Why a press did nothing (the `reason` of a reject event; player_words.py has the words)."""

    NOT_ADJACENT = "not_adjacent"
    TOO_LATE = "too_late"
    NO_CARD = "no_card"
    NO_PILE = "no_pile"
    NOTHING_SELECTED = "nothing_selected"
    WRONG_PHASE = "wrong_phase"
    ALREADY_CALLED = "already_called"
    NO_SPIT_CARDS = "no_spit_cards"
    CHOOSE_PILE = "choose_pile"
    WRONG_PILE = "wrong_pile"
    GAME_OVER = "game_over"
    UNKNOWN_PRESS = "unknown_press"
    # The family's rules.
    WRONG_COLOUR = "wrong_colour"
    NOT_YOUR_CHOICE = "not_your_choice"
    CALL_FIRST = "call_first"
    SLAP_SMALLER = "slap_smaller"
    SLAP_LARGER = "slap_larger"
    NOT_IN_THIS_GAME = "not_in_this_game"
    CANNOT_PICK_UP = "cannot_pick_up"
    ALREADY_SLAPPED = "already_slapped"
    GHOST_FIRST = "ghost_first"
    CARD_FIRST = "card_first"
    SITTING_OUT = "sitting_out"
    TABLE_SLAPPED = "table_slapped"
    # Speed (S1-S5).
    NOT_STUCK = "not_stuck"


PILE_CONTROLS: tuple[Control, ...] = tuple(Control(f"pile{n}") for n in range(1, 7))
