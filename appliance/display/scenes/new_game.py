"""A new game from the players' menu or the game-over screen's rematch: its match, journalled and
counted in the operator's books, and its first scene. Not a scene: the scenes that start a game
import it (base.py cannot: the books' notices are a scene that imports base)."""

from __future__ import annotations

import sys
from typing import Any

from appliance.match import Match, make_bot, open_journal
from appliance.rules import Game

from ..coins import office
from ..game_length import length_options
from ..rules_words import choice_of
from .base import Context, Scene, make


def start_game(ctx: Context, choice: Any, computer: dict[int, str]) -> Scene:
    """A new game of `choice` (rules_words.GameChoice) with the computer at the seats `computer`
    names (seat -> level), journalled: its first scene (the countdown; Speed's own table). The seats
    are remembered for the players' menu (`Context.computer_seats`)."""
    ctx.computer_seats = dict(computer)
    seed = ctx.seed_source()
    bots = {seat: make_bot(level, seat, seed) for seat, level in computer.items()}
    options = {**choice.given, **length_options(ctx.settings, choice.is_speed)}  # (the operator's)
    journal = None
    if ctx.journal_dir is not None:
        try:
            journal = open_journal(ctx.journal_dir, seed, choice.preset, options, bots=computer,
                                   syncer=office(ctx).writer.call,  # synced off the frame loop
                                   order=office(ctx).journal_order())  # named by boot, never by the clock
        except OSError as error:  # a full disk, a read-only card: play on, say so once
            print(f"spit-arcade play: cannot journal this game ({error})", file=sys.stderr)
    match = Match(seed, ctx.clock(), journal, bots, variant=choice.preset, options=options)
    match.ended = office(ctx).game_over  # its figures into the audits when it ends
    match.levels = dict(computer)
    if choice.is_speed:
        return make("play", ctx, match)
    return make("countdown", ctx, match)


def rematch(ctx: Context, match: Any) -> Scene:
    """The same game again, from a new deal: the same rules, the computer at the same seats and levels."""
    options = match.game.rules.options if isinstance(match.game, Game) else match.game.options
    game_type = "spit" if isinstance(match.game, Game) else "speed"
    return start_game(ctx, choice_of(match.variant, options.to_json(game_type)), dict(match.levels))
