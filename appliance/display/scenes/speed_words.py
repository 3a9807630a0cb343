"""Speed at the table: what is its own in the scenes every game shares (table_game.py).

Speed's table is speed_view.py's (each hand at its player's edge, the stock beside it, the two spit
piles with a side stack at each end). While it is played each seat is told in its own prompt place
what it is asked to do now: in `ready` and in a stalemate "press SPIT!" until it has called; while
playing with nothing that fits, to wait for the other player. Its info place holds the deal and the
score as it reads them (mine first; on the desktop one shared line, player 1 first), and the target.
A seat the computer plays is told nothing. Between deals: who won the deal and by how many cards,
and the scores; game over: every deal (who played out, the points it scored) and the scores.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from appliance.match import Match
from appliance.rules import Event
from appliance.rules.events import RoundOver, Score

from ..captions import Caption, Line, caption
from ..i18n import _
from ..speed_view import SpeedTable
from ..table_view import GOLD, PLAYER_COLOURS, SOFT, WHITE
from .base import Context

SOUNDS = {"play": "play", "reject": "reject", "call": "spit", "select": "select", "turn_up": "flip",
          "draw": "select", "game_over": "win"}
MAX_DEALS_SHOWN = 8  # the last deals at game over, where a long game had more


def score_lines(game: Any, seat: int, desktop: bool = False) -> tuple[str, str]:
    """The running score as `seat` reads it (on the desktop, where both read the screen alike, by
    player: each seat's own beside it), and the deal."""
    deal = _("deal {round} · first to {target}").format(round=game.round, target=game.options.target)
    (other,) = game.table.others(seat)  # Speed is for two
    mine, theirs = game.player(seat).score, game.player(other).score
    if desktop:
        return _("player {n}: {score}").format(n=seat, score=mine), deal
    return _("you {mine} · them {theirs}").format(mine=mine, theirs=theirs), deal


def deal_lines(events: list[Event], computer: Collection[int] = frozenset()) -> list[tuple[str, int | None]]:
    """(words, whose colour) for the deal that just ended."""
    lines: list[tuple[str, int | None]] = []
    for event in events:
        if isinstance(event, RoundOver):
            number = event.round
            if event.reason == "played_out":
                player = event.player or 0
                name = _("The computer") if player in computer else _("Player {n}").format(n=player)
                lines.append((_("Deal {round}: {name} played out!").format(round=number, name=name), player))
            else:
                lines.append((_("Deal {round}: nobody can ever play, dealt again").format(round=number), None))
        elif isinstance(event, Score):
            words = _("Player {n} scores {points}")
            lines.append((words.format(points=event.points, n=event.player), event.player))
    return lines


def deals_of(events: list[Event]) -> list[tuple[int, int | None, int]]:
    """(deal, who played out (None: thrown in), points) for every deal that ended."""
    deals: list[tuple[int, int | None, int]] = []
    for event in events:
        if isinstance(event, RoundOver):
            deals.append((event.round, event.player, 0))
        elif isinstance(event, Score) and deals:
            number, player, _points = deals[-1]
            deals[-1] = (number, player, event.points)
    return deals


def deal_words(deal: tuple[int, int | None, int]) -> str:
    number, player, points = deal
    if player is None:
        return _("Deal {round}: dealt again, no score").format(round=number)
    return _("Deal {round}: player {n} +{points}").format(round=number, n=player, points=points)


class SpeedWords:
    """Speed's part of the shared scenes (table_game.TableGame)."""

    sounds = SOUNDS

    def __init__(self) -> None:
        self.deals: list[tuple[int, int | None, int]] = []

    # ------------------------------------------------------------------ playing

    def table(self, ctx: Context, match: Match) -> SpeedTable:
        """The Speed table for this screen (its layout and card art are the classic two-seat table's)."""
        layout, art = ctx.table_for(None)
        return SpeedTable(layout, art, ctx.keymap, True, frozenset(match.bots))

    def replay_table(self, ctx: Context, game: Any, computer: frozenset[int]) -> SpeedTable:
        return SpeedTable(*ctx.table_for(None), show_keys=False, computer=computer)

    def extras(self, match: Match, view: Any) -> tuple[list[Any], Any]:
        return [], None

    def ending(self, match: Match) -> str:
        return "game_over"

    def prompt(self, scene: Any, player: int) -> tuple[str, tuple[int, int, int]] | None:
        """What a seat is asked to do now (None: nothing)."""
        match = scene.match
        game = match.game
        me = game.player(player)
        computer = player in match.bots
        colour = PLAYER_COLOURS[player]
        if game.phase in ("ready", "stalemate"):
            if me.called:
                return (_("the computer called SPIT!") if computer else _("you called SPIT!")), GOLD
            if computer:
                return None
            if game.phase == "stalemate":
                return _("Nobody can play: press SPIT!"), colour
            return _("Ready? press SPIT!"), colour
        if game.phase == "playing" and not computer and not game.can_move(player):
            return _("nothing of yours fits: watch for a card"), colour
        if game.phase == "playing" and not computer:  # stuck a while: the move that is there (a draw)
            keymap = scene.view.keymap if scene.view.show_keys else None
            told = scene.watch.stuck(game, player, scene.now_ns, keymap, (len(match.events), id(game)))
            if told is not None:
                return told.words(), colour
        return None

    def info(self, scene: Any) -> list[Caption]:
        layout = scene.view.layout
        out = []
        for owner in layout.seats:
            score, deal = score_lines(scene.match.game, owner, layout.mode == "desktop")
            out.append(caption("info", owner, Line(score, 0.13, GOLD), Line(deal, 0.1, SOFT), shade=130))
        return out

    # ------------------------------------------------------------------ between deals, and the end

    def summary_lines(self, events: list[Any], view: Any, computer: Collection[int]) -> list[tuple[str, int | None]]:
        return deal_lines(events, computer)

    def summary_head(self, game: Any) -> str:
        return _("Deal {round}").format(round=game.round)

    def summary_foot(self, game: Any) -> Line:
        one, two = (p.score for p in game.players)
        words = _("Score {one} – {two}, first to {target}").format(one=one, two=two, target=game.options.target)
        return Line(words, 0.13, WHITE)

    def over_start(self, match: Match) -> None:
        self.deals = deals_of(match.events)

    def over_why(self, scene: Any) -> list[Line]:
        return []

    def over_seat(self, scene: Any, player: int) -> list[Line]:
        return [Line(_("score {n}").format(n=scene.match.game.player(player).score), 0.14, WHITE)]

    def over_shared(self, scene: Any) -> list[Line]:
        return [Line(deal_words(d), 0.12, PLAYER_COLOURS.get(d[1] or 0, WHITE)) for d in self.deals[-MAX_DEALS_SHOWN:]]
