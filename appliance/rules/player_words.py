"""What a player is told, in English: why a press did nothing and what to do instead, and the move
that is there. The one source of these words: `script --words` writes them beside each reject's
`reason` code, and the screen says them translated (`display/hints.py` hands its `_` in as `say`;
every English text here is a msgid of the catalogues, written as a literal in a `say(...)` call).

    reject_words("wrong_phase", "pile3", "ready")      # "cards are turned only after SPIT!: ..."
    reject_words("wrong_phase", "spit", "playing", told_words("move", ("pile4", "pile5")))
    tell(game, 1)                                      # ("move", ("pile4", "pile5")), or None

The move told is always one the rules offer (`game.legal_actions`, pressed as `game.presses_for`
says), never worked out here: first "Spit!" (nobody can play), then turning a card, drawing a card
(Speed), moving a card into a space, stacking, picking up the last cards, Running Spit's lifting a
card, choosing a pile. Never a play (the race is the game) and never a table slap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .cards import RANKS, Card

Say = Callable[[str], str]

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

TOLD = ("call", "flip", "draw", "move", "stack", "pick_up", "lift", "choose")  # the kinds told, in this order


def english(text: str) -> str:
    return text


def tell(game: Any, player: int) -> tuple[str, tuple[str, ...]] | None:
    """The move to tell `player` now: its kind (the first of `legal_actions` by the order of `TOLD`)
    and the controls that do it, or None if the rules offer none of those."""
    actions = game.legal_actions(player)
    for told_kind in TOLD:
        for action in actions:
            if action.kind == told_kind:
                return told_kind, tuple(game.presses_for(player, action))
    return None


def told_words(kind: str, keys: tuple[str, ...], say: Say = english) -> str:
    """The move of `kind` done by pressing `keys` (empty where no key is shown: a cabinet's buttons
    are named on its panel)."""
    if kind in ("call", "pick_up"):
        if kind == "call":
            return say("Nobody can play: press SPIT! {key}").format(key=keys[0] if keys else "").strip()
        return say("Pick up your last cards: press SPIT! {key}").format(key=keys[0] if keys else "").strip()
    if kind == "flip":
        return say("Turn a card: press {key}").format(key=keys[0]) if keys else say("Turn a card: press its pile")
    if kind == "draw":  # Speed: a card from the stock into an empty place of the hand
        return say("Draw a card: press {key}").format(key=keys[0]) if keys else say("Draw a card: press an empty place")
    if kind == "lift":
        if len(keys) > 1 and len(set(keys)) == 1:  # pick it up, then its pile again: one key, twice
            return say("Lift a card to turn the one under it: press {key} twice").format(key=keys[0])
        return say("Lift a card to turn the one under it: press {keys}").format(keys=", ".join(keys)) if keys \
            else say("Lift a card to turn the one under it: press its pile twice")
    if kind == "choose":
        if keys:
            return say("Choose a spit pile: press {key}").format(key=keys[0])
        return say("Choose a spit pile: press it")
    if kind == "move":
        if len(keys) > 1:
            return say("Move a card into the space: press {first}, then {then}").format(first=keys[0], then=keys[1])
        if keys:
            return say("Move a card into the space: press {key}").format(key=keys[0])
        return say("Move a card into the space: its pile, then the space")
    if len(keys) > 1:
        return say("Stack on the same rank: press {first}, then {then}").format(first=keys[0], then=keys[1])
    if keys:
        return say("Stack on the same rank: press {key}").format(key=keys[0])
    return say("Stack on the same rank: its pile, then the other")


def reject_words(reason: str, press: str = "", phase: str = "", instead: str | None = None,
                 say: Say = english, speed: bool = False) -> str:
    """Why a press did nothing and what to do instead. `press` and `phase` (the control pressed, the
    game's phase) say which "not now" it was; `instead`: the move that is there, in words
    (`told_words`), for a "Spit!" called while the player can still do something; `speed`: Speed's
    words, a hand rather than stock piles."""
    if speed:
        found = speed_words(reason, say)
        if found is not None:
            return found
    if reason == "wrong_phase":
        return wrong_phase_words(press, phase, instead, say)
    if reason == "no_pile" and press.startswith("pile"):
        return say("you have no stock pile there: press one of yours")
    words = reason_words(reason, say)
    return words if words is not None else reason


def reason_words(reason: str, say: Say = english) -> str | None:
    """A reason's words where they do not hang on the press or the phase (None: not a reason)."""
    words = {
        "not_adjacent": say("that card does not fit on that spit pile: one rank up or down"),
        "too_late": say("too late: someone was faster. Find another card"),
        "no_card": say("no card there: press a pile with a card"),
        "no_pile": say("no spit pile there: play onto one with cards"),
        "nothing_selected": say("pick a card first: a stock pile, then a spit pile"),
        "wrong_phase": say("that does nothing at this moment: wait until the cards are turned"),
        "already_called": say("you called SPIT! already: wait for the others"),
        "no_spit_cards": say("no spit cards left: the others turn theirs"),
        "choose_pile": say("you spit alone: slap the spit pile you want"),
        "wrong_pile": say("you must keep spitting onto the pile you chose"),
        "game_over": say("the game is over"),
        "unknown_press": say("that button does nothing: see your keys"),
        "wrong_colour": say("the colours must alternate: red on black, black on red"),
        "not_your_choice": say("another player chooses the pile this time: wait"),
        "call_first": say("be first to call SPIT! to choose the pile"),
        "slap_smaller": say("slap the smaller spit pile"),
        "not_in_this_game": say("that button does nothing in this game: see your keys"),
        "cannot_pick_up": say("you may pick up your last 3 to 5 cards once they all lie face up"),
        "already_slapped": say("you slapped the table already: wait for the verdict"),
        "table_slapped": say("a table slap is being judged: wait a moment"),
        "sitting_out": say("you are out of this round: press a spit pile to take it"),
        "ghost_first": say("the ghost card first: SLAP to take it"),
        "card_first": say("the lent spit card first: SLAP it"),
        "slap_larger": say("slap the larger spit pile: it is yours"),
        "not_stuck": say("somebody can still play: the side stacks turn only when nobody can"),
    }
    return words.get(reason)


def card_words(card: Card) -> str:
    """A card as the players read it on the table: 10♦, Q♠ (a two-deck game's deck left out)."""
    return ("10" if card[0] == "T" else card[0]) + SUIT_SIGNS.get(card[1:2], card[1:2])


def takers(game: Any, player: int, pressed: int) -> list[Card]:
    """The tops of the other spit piles that would take the card `player` holds, with one press now:
    the plays `legal_actions` offers (the one source of what can be played), as `presses_for` says."""
    targets = sorted({action.target for action in game.legal_actions(player)
                      if action.kind == "play" and action.target != pressed
                      and len(game.presses_for(player, action)) == 1})
    return [game.spit_piles[i][-1] for i in targets if game.spit_piles[i]]


def misfit_words(card: Card, onto: Card, fitting: Sequence[Card], piles: int, say: Say = english) -> str:
    """A card that does not fit the spit pile it was pressed onto: what that pile needs, then where
    the card fits (`fitting`: the tops of the other spit piles that take it), or that none does.
    With two spit piles "the other" is where; with three or four the piles are named by their tops."""
    rank = RANKS.index(onto[0])
    low, high = (("10" if r == "T" else r) for r in (RANKS[rank - 1], RANKS[(rank + 1) % len(RANKS)]))
    needs = say("{top} needs {low} or {high}").format(top=card_words(onto), low=low, high=high)
    tops = [card_words(top) for top in fitting]
    if not tops:
        then = say("no spit pile takes {card}").format(card=card_words(card))
    elif piles <= 2:
        then = say("try the other spit pile")
    elif len(tops) == 1:
        then = say("{card} fits on {top}").format(card=card_words(card), top=tops[0])
    elif len(tops) == 2:
        then = say("{card} fits on {first} or {second}").format(card=card_words(card), first=tops[0], second=tops[1])
    else:
        then = say("{card} fits on {first}, {second} or {third}").format(
            card=card_words(card), first=tops[0], second=tops[1], third=tops[2])
    return f"{needs}: {then}"


def speed_words(reason: str, say: Say = english) -> str | None:
    """Speed's own words for a reason (None: Spit's words serve)."""
    words = {
        "nothing_selected": say("pick a card from your hand first"),
        "not_stuck": say("somebody can still play: the side stacks turn only when nobody can"),
        "no_card": say("your stock is used up: nothing to draw"),
        "not_in_this_game": say("that button does nothing in Speed: see your keys"),
    }
    return words.get(reason)


def wrong_phase_words(press: str, phase: str, instead: str | None = None, say: Say = english) -> str:
    """"Not now", said as what is going on and what to do instead."""
    if press == "spit" and phase == "playing":
        if instead is not None:
            return say("SPIT! only if nobody can play. {move}").format(move=instead)
        return say("SPIT! only if nobody can play: someone still can")
    if press == "spit" and phase == "choosing":
        return say("no call now: slap the spit pile you take")
    if press == "slap":
        if phase in ("playing", "stalemate"):
            return say("nothing to slap now: wait for a card to slap")
        return say("no slap now: wait until the cards are played")
    if phase == "choosing":
        return say("wait: the spit piles are being chosen first")
    if phase in ("ready", "stalemate"):
        if press.startswith("pile"):
            return say("cards are turned only after SPIT!: press SPIT! first")
        return say("the spit cards are not turned yet: press SPIT! first")
    return say("that does nothing at this moment: wait until the cards are turned")


def game_reject_words(game: Any, event: Any, speed: bool = False) -> str:
    """A reject's words as `script --words` writes them, asked right after the press (the game's
    phase then; the move that is there named by its controls, `pile4`, `left`, `spit`); `speed`:
    the game is Speed."""
    press, reason = str(event.press), str(event.reason)
    if reason == "not_adjacent" and event.card and event.onto and event.spit_pile is not None:
        fitting = takers(game, int(event.player), int(event.spit_pile))
        return misfit_words(event.card, event.onto, fitting, len(game.spit_piles))
    instead = None
    if reason == "wrong_phase" and press == "spit" and game.phase == "playing":
        told = tell(game, int(event.player))
        instead = told_words(*told) if told is not None else None
    return reject_words(reason, press, str(game.phase), instead, speed=speed)
