"""Spit and its family at the table: what is theirs in the scenes every game shares (table_game.py).

While a game is played each seat is told, in its own prompt place, what it is asked to do now:
- ready and stalemate: "press SPIT!" until it has called ("you called SPIT!");
- lone spitter: "slap the pile you will spit onto";
- choosing: "SLAP!" a spit pile, with both pile sizes as that seat sees them;
- out (at a table of three or four): its place, and whether it may take a pile;
- a house rule with a card of its own (the ghost card, a lent spit card): what it asks (duel_view.py).
A seat the computer plays is told nothing; its calls are said as the computer's. The info place
holds the rules in force, and with a table slap its rule, the two top values and the slaps waiting.
The round summary says why the round ended and who took which spit pile; game over gives each
player's figures (cards played, fastest reaction, races won, rounds won) and what they mean.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from appliance.match import Match
from appliance.rules import Event
from appliance.rules.events import Out, RoundOver, Slap, TableSlapJudged, Take
from appliance.rules.table_slap import TableSlap

from ..captions import Caption, Line
from ..duel_view import GhostAndDuel, seat_prompt
from ..events import seat_of
from ..game_length import ended_words, length_in_force
from ..hints import Told
from ..i18n import _, language
from ..legend import pile_side
from ..rules_words import choice_of, in_force, slap_rule_words
from ..running_view import overlays_for
from ..stats import Figures, figures
from ..table_view import GOLD, PLAYER_COLOURS, SOFT, WHITE, TableView, seat_name
from .base import Context

SOUNDS = {
    "play": "play",
    "reject": "reject",
    "call": "spit",
    "slap": "slap",
    "select": "select",
    "flip": "flip",
    "game_over": "win",
    "table_slap": "slap",
    "table_slap_judged": "reject",
    "choose": "select",
    "out": "win",
    "ghost_laid": "flip",
    "ghost_taken": "slap",
    "spit_card_lent": "flip",
    "spit_card_won": "win",
    "spit_card_lost": "reject",
}


# What a seat is asked while the piles are chosen, by the choosing rule's key (rules/choosing.py).
CHOOSING_WORDS = {
    "slap_smaller": lambda: _("SLAP the smaller pile! left {left} cards, right {right} cards"),
    "slap_larger": lambda: _("SLAP the larger pile! left {left} cards, right {right} cards"),
    "call_first": lambda: _("call SPIT! first to choose the pile: left {left}, right {right} cards"),
    "you_played_out": lambda: _("you played out: choose a spit pile! left {left} cards, right {right} cards"),
    "you_called_first": lambda: _("you called first: choose a spit pile! left {left} cards, right {right} cards"),
    "they_played_out": lambda: _("{who} played out: they choose a pile"),
    "they_called_first": lambda: _("{who} called first: they choose a pile"),
    "you_played_out_slap_larger": lambda: _("you played out: SLAP the larger pile! left {left}, right {right} cards"),
    "they_played_out_take_larger": lambda: _("{who} played out: the larger pile is theirs"),
}


def place_words(place: int) -> str:
    """1st, 2nd ... in the players' language."""
    words = {1: _("1st"), 2: _("2nd"), 3: _("3rd"), 4: _("4th")}
    return words.get(place, str(place))


def summary_lines(events: list[Event], layout_mode: str = "tabletop", seats: int = 2,
                  computer: Collection[int] = ()) -> list[tuple[str, int | None]]:
    """(words, player whose colour it is in) for the round that just ended (`computer`: the seats
    the computer plays, named so)."""
    lines: list[tuple[str, int | None]] = []
    for event in events:
        player = seat_of(event) or None
        if isinstance(event, RoundOver):
            if event.reason == "stock_out":
                words = _("Round {round}: player {n} played out their stock!")
                lines.append((words.format(round=event.round, n=player), player))
            else:
                lines.append((_("Round {round}: blocked, nobody can play").format(round=event.round), None))
        elif isinstance(event, Out) and player is not None:
            words = _("{who} is out: place {place}").format(who=seat_name(player, computer), place=event.place)
            lines.append((words, player))
        elif isinstance(event, TableSlapJudged):
            taker = event.taker or event.chooser
            lines.append((_("Table slap: player {n} takes the piles").format(n=taker), taker))
        elif isinstance(event, Slap):
            lines.append((_("{who} slapped first").format(who=seat_name(player, computer)), player))
        elif isinstance(event, Take) and player is not None:
            side = pile_side(layout_mode, player, event.spit_pile, seats)
            if side not in ("left", "right"):  # a far pile, at a table of three or four
                words = _("{who} takes a far pile: {cards} cards")
            elif layout_mode == "desktop" and seats == 2:  # both read the screen the same way: the screen's sides
                words = (
                    _("{who} takes the left pile: {cards} cards")
                    if side == "left"
                    else _("{who} takes the right pile: {cards} cards")
                )
            else:
                words = (
                    _("{who} takes their left pile: {cards} cards")
                    if side == "left"
                    else _("{who} takes their right pile: {cards} cards")
                )
            lines.append((words.format(who=seat_name(player, computer), cards=event.cards), player))
    return lines


def figure_lines(f: Figures) -> list[str]:
    fastest = f"{f.fastest_reaction_ms:.0f} ms" if f.fastest_reaction_ms is not None else "-"
    return [
        _("cards played {n}").format(n=f.cards_played),
        _("fastest reaction {ms}").format(ms=fastest),
        _("races won {n}").format(n=f.races_won),
        _("rounds won {n}").format(n=f.rounds_won),
    ]


def figures_explained() -> list[str]:
    """What the figures mean, said where they are shown (stats.py works them out)."""
    return [
        _("fastest reaction: the quickest card played after a spit pile changed"),
        _("races won: cards played onto a pile just before another player's press for it"),
    ]


class SpitWords:
    """Spit and its family's part of the shared scenes (table_game.TableGame)."""

    sounds = SOUNDS

    def __init__(self) -> None:
        self._in_force: tuple[str, str] | None = None  # (language, the line of the rules in force)
        self._pick_ups: tuple[object, object, dict[int, bool]] = (None, None, {})  # (game, Match.version, answers)
        self.figures: dict[int, Figures] = {}

    # ------------------------------------------------------------------ playing

    def table(self, ctx: Context, match: Match) -> TableView:
        return ctx.view(computer=frozenset(match.bots), game=match.spit)

    def replay_table(self, ctx: Context, game: Any, computer: frozenset[int]) -> TableView:
        return ctx.view(show_keys=False, computer=computer, game=game)  # its seats and stock piles, as live

    def extras(self, match: Match, view: Any) -> tuple[list[Any], Any]:
        duel = GhostAndDuel(match, view) if match.spit.house else None  # a house rule with a card
        return overlays_for(match, view), duel  # Running Spit's runner board; the late-pad note

    def ending(self, match: Match) -> str:
        return "running_over" if match.spit.rules.moves.carry else "game_over"

    def sides(self, scene: Any, player: int) -> tuple[int, int]:
        """The spit piles on the seat's left and right, as it sees them (the screen's on the desktop)."""
        game = scene.match.spit
        seats = game.table.seats
        if scene.view.layout.mode == "desktop" and seats == 2:
            return 0, 1
        left, right = game.table.spit_pile_for(player, "left"), game.table.spit_pile_for(player, "right")
        return (left or 0), (right or 0)

    def prompt(self, scene: Any, player: int) -> tuple[str, tuple[int, int, int]] | None:
        """What a seat is asked to do now (None: nothing)."""
        match = scene.match
        game = match.spit
        me = game.player(player)
        computer = player in match.bots
        colour = PLAYER_COLOURS[player]
        if me.out:
            place = place_words(me.out)
            if computer:
                return _("the computer is out: {place}").format(place=place), GOLD
            if game.round_end.may_choose_now(game, player):  # (the rules say: a pile to take)
                return _("out — {place}! press a spit pile to take it").format(place=place), GOLD
            return _("out — {place}").format(place=place), GOLD
        asked = seat_prompt(game, player, computer, match.bots)  # what a house rule asks, in this seat's words
        if asked is not None:
            return asked.words, asked.colour
        if game.phase in ("ready", "stalemate"):
            if me.called:
                return (_("the computer called SPIT!") if computer else _("you called SPIT!")), GOLD
            if computer:
                return None
            if not me.spit_cards:
                return _("no spit cards: wait"), colour
            lone = game.lone_spitter()
            if lone == player and game.lone_pile is None:
                return _("you spit alone: slap the pile you want"), colour
            if game.phase == "stalemate":
                return _("Nobody can play: press SPIT!"), colour
            return _("Ready? press SPIT!"), colour
        if game.phase == "choosing" and not computer:
            return self.choosing_prompt(scene, player)
        if game.phase == "playing" and not me.hidden and self._may_pick_up(match, player):  # (V9: the rules offer it)
            return _("press SPIT! to pick up your last cards"), colour
        told = self.stuck(scene, player)
        if told is not None:
            return told.words(), colour
        return None

    def stuck(self, scene: Any, player: int) -> Told | None:
        """The move that is there (`hints.tell`), for a seat the people play that has done nothing
        for `HINT_AFTER_S` while the cards are played; None otherwise."""
        game = scene.match.spit
        if game.phase != "playing" or player in scene.match.bots:
            return None
        keymap = scene.view.keymap if scene.view.show_keys else None
        return scene.watch.stuck(game, player, scene.now_ns, keymap, (len(scene.match.events), id(game)))

    def _may_pick_up(self, match: Match, player: int) -> bool:
        """Whether the rules offer the seat its pick-up (V9), asked of the game again only when it has
        changed (`Match.version`), as the assist asks: the prompt is drawn every frame for every seat."""
        game = match.spit
        if game.rules.moves.pick_up is None:  # (a game without V9's picking up: the rules never offer it)
            return False  # (asked every frame for every seat: legal_actions was a third of a four-seat frame's prompts)
        known, version, answers = self._pick_ups
        if known is not game or version != match.version:
            answers = {}
            self._pick_ups = (game, match.version, answers)
        if player not in answers:
            answers[player] = any(action.kind == "pick_up" for action in game.legal_actions(player))
        return answers[player]

    def rules_in_force(self, match: Match) -> str:
        """The line of the rules in force (worked out once a game, in the language of the moment)."""
        game = match.spit
        key = language()
        if self._in_force is None or self._in_force[0] != key:
            lines = [in_force(choice_of(game.variant, game.rules.options.to_json()))]
            lines += length_in_force(game.rules.options)  # the operator's game length (ours)
            self._in_force = (key, " · ".join(lines))
        return self._in_force[1]

    def choosing_prompt(self, scene: Any, player: int) -> tuple[str, tuple[int, int, int]]:
        """The choosing rule says what this seat is asked (game.choosing_prompt); the screen has the
        words, with the pile sizes as the seat sees them."""
        game = scene.match.spit
        left, right = self.sides(scene, player)
        sizes = {"left": len(game.spit_piles[left]), "right": len(game.spit_piles[right])}
        asked = game.choosing_prompt(player)
        if asked.player is not None:  # another player chooses
            who = seat_name(asked.player, scene.match.bots)
            return CHOOSING_WORDS[asked.key]().format(who=who), PLAYER_COLOURS[player]
        return CHOOSING_WORDS[asked.key]().format(**sizes), GOLD

    def info_lines(self, scene: Any, player: int | None) -> list[str]:
        """The rules in force, and with a table slap its rule and the two top values (never whether
        they meet it: the players do the arithmetic) and the slaps waiting."""
        game = scene.match.spit
        lines = [self.rules_in_force(scene.match)]
        slap = game.house_rule(TableSlap)
        if slap is not None:
            lines.append(_("slap when {rule}").format(rule=slap_rule_words(slap.in_force.name, slap.modulus)))
            values = game.spit_values()
            if values is not None:
                if player is not None:
                    left, right = self.sides(scene, player)
                    values = [values[left], values[right]]
                lines.append(_("tops: {a} and {b}").format(a=values[0], b=values[1]))
            waiting = [hit.player for hit in slap.hits]
            if waiting:
                names = ", ".join(str(n) for n in waiting)
                lines.append(_("slapped: player {names}").format(names=names))
        return lines

    def info(self, scene: Any) -> list[Caption]:
        layout = scene.view.layout
        owners: list[int | None] = [None] if layout.mode == "desktop" else list(layout.seats)
        out = []
        for owner in owners:
            lines = self.info_lines(scene, owner)
            shown = (Line(lines[0], 0.1, SOFT), *(Line(w, 0.11, WHITE) for w in lines[1:]))
            out.append(Caption("info", owner, shown, 130))
        return out

    # ------------------------------------------------------------------ between rounds, and the end

    def summary_lines(self, events: list[Any], view: Any, computer: Collection[int]) -> list[tuple[str, int | None]]:
        return summary_lines(events, view.layout.mode, len(view.layout.seats), computer)

    def summary_head(self, game: Any) -> str:
        return _("New layout")

    def summary_foot(self, game: Any) -> Line:
        counts = ", ".join(
            _("player {n}: {cards} cards").format(n=n, cards=len(p.all_cards())) for n, p in enumerate(game.players, 1)
        )
        return Line(counts, 0.12, WHITE)

    def over_start(self, match: Match) -> None:
        self.figures = figures(match.events, match.seats)

    def over_why(self, scene: Any) -> list[Line]:
        most = scene.match.spit.rules.goal.larger_pile_wanted  # (Reverse Spit)
        return [Line(words, 0.12, WHITE) for words in ended_words(scene.match.events, scene.name, most)]  # (its length)

    def over_seat(self, scene: Any, player: int) -> list[Line]:
        return [Line(words, 0.12, WHITE) for words in figure_lines(self.figures[player])]

    def over_shared(self, scene: Any) -> list[Line]:
        return [Line(words, 0.1, SOFT) for words in figures_explained()]


