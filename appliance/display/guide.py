"""The guided first game's words (appliance/first_game.py has the lesson as data): what the learner
is asked to press, with their own keys as the legend names them; the praise for a step done; why a
press was held back, kindly; and the guide's own lines (which step, how to leave).

    asked_words(ask, keymap, player, "spit")   # "Play a card: press Q to pick up the lit card (5)."
    praise_words("turn")                        # "Well done! A turned card can be played."
    wrong_words(Wrong("not_fit", card="9C"))    # "9 fits neither spit pile: ..."
"""

from __future__ import annotations

from appliance.first_game import Ask, Wrong

from .i18n import _
from .keys import Keymap
from .legend import key_words, seat_key_label


def card_words(card: str | None) -> str:
    """A card by its rank, as players say it (the suit does not matter to what fits)."""
    if not card:
        return "?"
    names = {"A": _("ace"), "K": _("king"), "Q": _("queen"), "J": _("jack"), "T": "10"}
    return names.get(card[0], card[0])


def key_for(keymap: Keymap, player: int, control: str) -> str:
    """The key a seat presses for `control`, as its legend names it (a cabinet's button by its name
    where the key map has none)."""
    key = seat_key_label(keymap, player, control)
    if key:
        return key_words(key)
    names = {"spit": "SPIT", "left": _("left"), "right": _("right")}
    return names.get(control, control)


def asked_words(ask: Ask, keymap: Keymap, player: int, game: str) -> str:
    """What the learner is asked to press now, in their language, with their key."""
    speed = game == "speed"
    said = {
        ("call", 0): _("Press {key} for SPIT!: it turns a card from each side stack. The computer presses it too.")
        if speed else _("Press {key} for SPIT!: it turns your first spit card. The computer presses it too."),
        ("play", 0): _("Play a card: press {key} to pick up the lit card ({card})."),
        ("play", 1): _("Now press {key}: {card} on {onto}, one rank up or down (A is next to 2 and K)."),
        ("turn", 0): _("A card lies face down: press {key} to turn it face up."),
        ("move", 0): _("Move a card into a space: press {key} to pick up the lit card ({card})."),
        ("move", 1): _("Now press {key}, the empty pile: the card moves into the space."),
        ("stuck", 0): _("Nobody can play! Press {key} for SPIT!: the side stacks turn a new card each.")
        if speed else _("Nobody can play! Press {key} for SPIT!: you both turn a new spit card."),
        ("slap", 0): _("You played out! Slap the smaller spit pile: press {key} ({size} cards)."),
        ("draw", 0): _("A slot of your hand is empty: press {key} to draw a card from your stock into it."),
        ("play_out", 0): _("Your last card! Press {key} to pick it up ({card})."),
        ("play_out", 1): _("Now press {key}: {card} on {onto}, one rank up or down (A is next to 2 and K)."),
    }[(ask.lesson, ask.part)]
    return said.format(key=key_for(keymap, player, ask.control), card=card_words(ask.card),
                       onto=card_words(ask.onto), size=ask.size)


def praise_words(lesson: str) -> str:
    """The praise for a step done: what it taught, in a line."""
    return {
        "call": _("Well done! The game is on: both play at once, no turns."),
        "play": _("Well done! That is how a card is played."),
        "turn": _("Well done! A turned card can be played."),
        "move": _("Well done! A card moved into a space uncovers the one under it."),
        "stuck": _("Well done! New cards: play on."),
        "slap": _("Well done! The smaller pile is yours: fewer cards to play next round."),
        "draw": _("Well done! Your hand is full again."),
        "play_out": _("Well done! Hand and stock empty: you win the deal!"),
    }[lesson]


def wrong_words(wrong: Wrong) -> str:
    """Why a press was held back, kindly."""
    return {
        "wait": _("Just a moment: the computer is pressing SPIT! too."),
        "press_spit": _("Nobody can play yet: press SPIT! first."),
        "spit_not_now": _("Not yet: SPIT! is for when nobody can play, and you can."),
        "nothing_held": _("Pick up a card first, then press the spit pile."),
        "other_spit_pile": _("{card} does not go on {top}: it needs one rank up or down."),
        "larger": _("That is the larger pile ({size} cards): slap the smaller one."),
        "not_fit": _("{card} fits neither spit pile: it needs one rank up or down."),
        "face_down": _("That card is face down: follow the lit card first."),
        "empty": _("That pile is empty: follow the lit card."),
        "holding": _("You are holding {card}: follow the lit pile."),
        "not_in_game": _("That key does nothing in this game."),
        "not_this_one": _("That works too, but follow the lit card in this first game."),
    }[wrong.reason].format(card=card_words(wrong.card), top=card_words(wrong.top), size=wrong.size)


def guide_lines(game: str, step: int, steps: int) -> list[str]:
    """The guide's own lines: which game and step, and how to leave."""
    title = _("First game of Speed: step {step} of {steps}") if game == "speed" else _(
        "First game of Spit: step {step} of {steps}")
    return [title.format(step=step, steps=steps), _("START leaves the guide")]


def invitation(keymap: Keymap) -> str:
    """The title's (and the attract loop's) invitation: the key that starts the guide, at each seat."""
    one, two = (key_words(seat_key_label(keymap, player, "pile1")) for player in (1, 2))
    return _("New here? Press {one} or {two} for a first game that teaches you.").format(one=one, two=two)


def learned_lines(game: str) -> list[str]:
    """The end of the guide: what was learnt, and what next."""
    if game == "speed":
        return [
            _("You have played your first game of Speed."),
            _("A real game is dealt again and again, until someone reaches the target score."),
        ]
    return [
        _("You have played your first game of Spit."),
        _("A real game goes on, round after round, until someone has no cards left."),
    ]
