"""The game and its house rules in the players' words: names, the line saying which rules are in
force, the how-to-play lines of the chosen rules, and the game menu's rows.

The one-line explanations are the rules core's own (`PRESETS[name].explain`, `OPTIONS[name].explain`,
the slap rules' words), put through gettext at the moment they are shown, so the catalogues carry
them (tests/test_display_family.py, `test_the_rules_cores_lines_have_translations`, checks every one
has a translation; this module's own words, `test_every_text_has_a_translation` in
tests/test_display_captions.py). What a game is played with comes from `game_choice(settings)`: the
preset and the house rules the settings remember, those that do not apply to the preset left out,
and any combination the core refuses dropped one rule at a time (so a remembered choice can never
stop a game from starting). The names, rules in force and menu rows are tested in
tests/test_display_family.py and tests/test_display_ghost_duel.py (the game menu's rows and the
combinations it never offers).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from appliance.rules import OPTIONS, PRESETS, OptionError, Options, read_options
from appliance.rules.ghost_card import GhostCard
from appliance.rules.spit_card_please import SpitCardPlease
from appliance.rules.table_slap import RULE_DECK

from .i18n import _

SPEED = "speed"


def preset_name(name: str) -> str:
    names = {
        "classic": _("Classic Spit"),
        "four-piles": _("Four piles"),
        "eleven-middle": _("Eleven in the middle"),
        "threes": _("Threes"),
        "two-decks": _("Two decks"),
        "refill": _("Refill"),
        "reverse": _("Reverse Spit"),
        "running": _("Running Spit"),
        "mod-spit": _("Mod Spit"),
        "mod-spit-advanced": _("Mod Spit, advanced"),
        "speed": _("Speed"),
    }
    return names.get(name, name)


def preset_explain(name: str) -> str:
    return _(PRESETS[name].explain) if name in PRESETS else name


def option_explain(name: str) -> str:
    return _(OPTIONS[name].explain) if name in OPTIONS else name


def option_help(name: str, value: Any) -> str:
    """A house rule's one line of help for the players, for the value it has: in their words, never
    the core's identifiers (the core's own line, `option_explain`, names every value as a script
    writes it, "shapp", "mod7"; `spit-arcade variants` shows that one)."""
    if name == "choose":
        return {
            "slap": _("At a new layout both slap the spit pile they want; the first hand down gets it."),
            "shapp": _("At a new layout whoever played out chooses the spit pile (David Shapp's rule)."),
            "first_call": _("At a new layout the first to call Spit! chooses the spit pile."),
            "slap_spit": _(
                "At a new layout slap the smaller spit pile; equal piles: the first to call Spit! chooses."
            ),
        }.get(str(value), option_explain(name))
    if name == "goal":
        if value == "all":
            return _("Win all the cards: whoever plays out first takes the larger spit pile.")
        return _("Get rid of all your cards to win.")
    if name == "table_slap":
        return {
            None: _("No table slap."),
            "mod7": _("Mod Spit: slap the table when the two tops multiplied, divided by 7, leave 2, 3 or 5."),
            "rule_deck": _(
                "Mod Spit: a number and one of 13 slap rules, drawn at the start, say when to slap the table."
            ),
        }.get(value, option_explain(name))
    if name == "decks":
        return _("Two decks shuffled together: a card may come twice.") if value == 2 else _("One deck of 52 cards.")
    return option_explain(name)


def option_label(name: str) -> str:
    """The option's name as the menu shows it."""
    labels = {
        "seats": _("Players"),
        "decks": _("Decks"),
        "stock_piles": _("Stock piles"),
        "alternate_colours": _("Alternating colours"),
        "same_rank_stacking": _("Same-rank stacking"),
        "choose": _("Choosing the spit pile"),
        "goal": _("Goal"),
        "refill": _("Refill the stock"),
        "two_hands": _("Two hands"),
        "hidden_last": _("Hide your last cards"),
        "table_slap": _("Table slap"),
        "ghost_card": _("Ghost card"),
        "spit_card_please": _("Spit card, please"),
        "carry": _("Carry the cards (Running Spit)"),
        "runners": _("Runners per team"),
        "target": _("Winning score"),
        "side_stacks": _("Side stacks"),
    }
    return labels.get(name, name)


def value_words(name: str, value: Any) -> str:
    """An option's value as the menu shows it."""
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if name == "choose":
        return {
            "slap": _("slap"),
            "shapp": _("Shapp: who played out chooses"),
            "first_call": _("first to call Spit! chooses"),
            "slap_spit": _("slap, then call Spit!"),
        }.get(str(value), str(value))
    if name == "goal":
        return _("get rid of your cards") if value == "fewest" else _("win all the cards")
    if name == "table_slap":
        return {None: _("off"), "mod7": _("mod 7"), "rule_deck": _("a rule drawn at the start")}.get(value, str(value))
    if name in ("stock_piles", "runners") and isinstance(value, list | tuple):
        return "-".join(str(n) for n in value)
    return str(value)


def in_force_words(name: str, value: Any) -> str:
    """One house rule in force, as a few words for the line shown during play."""
    if name == "choose":
        return {
            "slap": _("slap for the piles"),
            "shapp": _("Shapp"),
            "first_call": _("first call chooses"),
            "slap_spit": _("slap and Spit!"),
        }.get(str(value), str(value))
    if name == "goal":
        return _("aim for the larger pile") if value == "all" else _("get rid of your cards")
    if name == "seats":
        return _("{n} players").format(n=value)
    if name == "decks":
        return _("{n} decks").format(n=value)
    if name == "stock_piles":
        return _("stock piles {sizes}").format(sizes=value_words(name, value))
    if name == "table_slap":
        return {"mod7": _("table slap mod 7"), "rule_deck": _("table slap, rule drawn")}.get(str(value), "")
    if name == "target":
        return _("to {n} points").format(n=value)
    if name == "side_stacks":
        return _("side stacks of {n}").format(n=value)
    if name == "runners":
        sizes = list(value) if isinstance(value, list | tuple) else [value]
        if len(set(sizes)) == 1:
            return _("{n} runners a team").format(n=sizes[0])
        return _("runners {sizes}").format(sizes="-".join(str(n) for n in sizes))
    words = {
        "alternate_colours": _("alternating colours"),
        "same_rank_stacking": _("same-rank stacking"),
        "refill": _("refill"),
        "two_hands": _("two hands"),
        "hidden_last": _("hidden last cards"),
        "ghost_card": _("ghost card"),
        "spit_card_please": _("spit card, please"),
        "carry": _("cards carried"),
    }
    return words.get(name, name) if value else ""


def slap_rule_words(rule: str, modulus: int) -> str:
    """A Mod Spit slap rule (by its name) in the players' language."""
    for slap_rule in RULE_DECK:
        if slap_rule.name == rule:
            return _(slap_rule.words).format(m=modulus)
    return rule


# ---------------------------------------------------------------------- what is played

# The values the menu offers for each option (the core's, in a sensible order), in the menu's order;
# `stock_piles` comes with the preset and is not changed in the menu. `runners` is offered as a number
# for every team alike (`menu_value`, `given_value`).
MENU_VALUES: dict[str, tuple[Any, ...]] = {
    "seats": (2, 3, 4),
    "decks": (1, 2),
    "alternate_colours": (False, True),
    "same_rank_stacking": (False, True),
    "choose": ("slap", "shapp", "first_call", "slap_spit"),
    "goal": ("fewest", "all"),
    "refill": (False, True),
    "two_hands": (False, True),
    "hidden_last": (False, True),
    "table_slap": (None, "mod7", "rule_deck"),
    "ghost_card": (False, True),
    "spit_card_please": (False, True),
    "carry": (False, True),
    "runners": (1, 2, 3, 4),
    "target": (10, 25, 50, 100),
    "side_stacks": (10, 5),
}
TWO_SEATS_ONLY = ("choose", "goal", "table_slap", "ghost_card", "spit_card_please")
SLAPPED = ("ghost_card", "spit_card_please")  # rules that use the slap, as the table slap does: never with it


def menu_options(preset: str, seats: int = 2, options: Options | None = None) -> list[str]:
    """The options the menu offers for `preset` at a table of `seats`; with the `options` in force,
    only those that can be changed with them: no ghost card or lent spit card beside a table slap
    (nor a table slap beside them: the core refuses both at once), nor beside each other, runners
    only where cards are carried."""
    game = PRESETS[preset].game if preset in PRESETS else "spit"
    out = []
    for name in MENU_VALUES:
        if game not in OPTIONS[name].games:
            continue
        if seats > 2 and name in TWO_SEATS_ONLY:
            continue
        if options is not None and not _offered_with(name, options):
            continue
        out.append(name)
    return out


def _offered_with(name: str, options: Options) -> bool:
    if name == "ghost_card":  # (each a card the player who plays out slaps to win: one at a time)
        return options.table_slap is None and not options.spit_card_please
    if name == "spit_card_please":
        return options.table_slap is None and not options.ghost_card
    if name in SLAPPED:
        return options.table_slap is None
    if name == "table_slap":
        return not (options.ghost_card or options.spit_card_please)
    if name == "runners":
        return options.carry
    return True


def menu_value(options: Options, name: str) -> Any:
    """An option's value as the menu holds it: `runners` as one number when every team has as many
    (a list where they differ), other lists as lists."""
    value = getattr(options, name)
    if name == "runners" and len(set(value)) == 1:
        return value[0]
    return list(value) if isinstance(value, tuple) else value


def given_value(name: str, value: Any, seats: int) -> Any:
    """A menu value as a house rule: `runners` a number for each of the `seats` teams."""
    if name == "runners" and isinstance(value, int):
        return [value] * seats
    return value


@dataclass(frozen=True)
class GameChoice:
    """The game to play: a preset, the house rules given on top (only those that differ from the
    preset), and every option in force."""

    preset: str
    given: dict[str, Any]
    options: Options

    @property
    def seats(self) -> int:
        return self.options.seats

    @property
    def is_speed(self) -> bool:
        return PRESETS[self.preset].game == SPEED


def choice_of(preset: str, house_rules: Mapping[str, Any] | None) -> GameChoice:
    """The game `preset` with those `house_rules` that apply to it and that the core accepts."""
    if preset not in PRESETS:
        preset = "classic"
    base = read_options(preset)
    base_json = base.to_json(PRESETS[preset].game)
    wanted = dict(house_rules or {})
    seats = wanted.get("seats", base.seats)
    seats = seats if isinstance(seats, int) and not isinstance(seats, bool) else 2
    applies = set(menu_options(preset, seats))
    runners = wanted.get("runners")
    if isinstance(runners, list | tuple) and runners and len(set(runners)) == 1 and len(runners) != seats:
        wanted["runners"] = [runners[0]] * seats  # as many runners a team at a table of another size
    given = {k: v for k, v in wanted.items() if k in applies and base_json.get(k) != v}
    while True:
        try:
            options = read_options(preset, given)
        except OptionError:
            given.popitem()  # the last rule added is the one left out
            continue
        if "runners" in given and (not options.carry or options.runners == (1,) * options.seats):
            del given["runners"]  # runners run only where cards are carried; one a team is no rule
            continue
        return GameChoice(preset, given, options)


def game_choice(settings: Any) -> GameChoice:
    """What the settings say to play (`game` and `house_rules`, default classic)."""
    return choice_of(getattr(settings, "game", "classic"), getattr(settings, "house_rules", None))


def in_force(choice: GameChoice) -> str:
    """The rules in force in one line: "Four piles · alternating colours · Shapp"."""
    parts = [preset_name(choice.preset)]
    given = sorted(choice.given.items(), key=lambda item: list(OPTIONS).index(item[0]))  # the core's order
    parts += [w for name, value in given if (w := in_force_words(name, value))]
    if choice.options.goal == "all" and "goal" not in choice.given:  # Reverse Spit's own goal, said too
        parts.append(in_force_words("goal", "all"))
    return " · ".join(parts)


def rules_help(choice: GameChoice) -> list[str]:
    """The chosen game's lines: the preset's, then each house rule's given on top."""
    lines = [preset_explain(choice.preset)]
    defaults = Options()
    for name, value in sorted(choice.given.items(), key=lambda item: list(OPTIONS).index(item[0])):
        if value != getattr(defaults, name, None) and name not in ("seats", "target", "side_stacks"):
            lines.append(option_help(name, value))
    if choice.options.spit_card_please:  # the lent card's control and its exact time, as the cabinet plays it
        seconds = f"{SpitCardPlease().window:g}"
        words = _("Spit card, please: play out, then SLAP the lent card within {s} s, before the lender does")
        lines.append(words.format(s=seconds))
    if choice.options.ghost_card:
        seconds = f"{GhostCard().window:g}"
        lines.append(_("Ghost card: when a player plays out, both SLAP; {s} s to take it").format(s=seconds))
    if choice.is_speed:  # how a shared screen shows the hands (seeds/README.md, "Speed")
        lines.append(_("Hands lie open, each facing its owner; the computer never looks at yours."))
    return lines


def how_to_play(choice: GameChoice) -> list[str]:
    """How the chosen game is played, in four lines for the title: its goal, how a card is played,
    what to do when nobody can, and how a round ends (Speed: its own lines)."""
    if choice.is_speed:
        from .speed_view import speed_how_to_play

        lines = speed_how_to_play(choice.options.target)
        return [lines[0], lines[1], lines[2], lines[4]]
    o = choice.options
    many = o.seats > 2
    if o.goal == "all":  # (two seats only)
        goal = _("Win all the cards. Both play at once: no turns!")
    elif many:
        goal = _("Get rid of your cards first. Everybody plays at once: no turns!")
    else:
        goal = _("Get rid of your cards first. Both play at once: no turns!")
    if o.carry:
        play = _("Pick a stock card, carry it to a pad and slap it on one rank up or down (A is next to 2 and K).")
    else:
        play = _("Pick a stock card, then play it onto a spit pile one rank up or down (A is next to 2 and K).")
    if many:
        stuck = _("Nobody can play? Everybody presses SPIT! and turns a new card.")
    else:
        stuck = _("Nobody can play? Both press SPIT! and turn a new card.")
    return [goal, play, stuck, round_end_words(o)]


def round_end_words(o: Options) -> str:
    """How a round ends and the spit piles are taken, by the choosing rule and the goal."""
    if o.goal == "all":
        return _("A round is over: whoever played out slaps the larger pile and takes it!")
    return {
        "shapp": _("A round is over: whoever played out chooses a spit pile."),
        "first_call": _("A round is over: the first to call SPIT! chooses a spit pile."),
        "slap_spit": _("A round is over: slap the smaller spit pile; equal piles, call SPIT!"),
    }.get(o.choose, _("A round is over: slap the smaller spit pile!"))
