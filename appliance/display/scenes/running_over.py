"""Running Spit's game over: the winning team, and each runner's figures people argue about.

Registered as "running_over"; the play scene hands over to it instead of "game_over" when the game's
cards were carried (Running Spit). For each team, each runner: sprints run, fastest and average
sprint (pick-up to slap), races won and by how many ms. Then, where a runner's fastest sprint makes
the high-score table (and the cabinet keeps one: `ctx.config_path`), "running_initials" for their
three initials; else back to the title. START or SPIT! (after a moment) goes on; so does the clock.
"""

from __future__ import annotations

from typing import Any

import pygame

from appliance import high_scores
from appliance.running_stats import RunnerFigures, runner_figures, runner_name

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..i18n import _
from ..running_view import split_words
from ..table_view import GOLD, PLAYER_COLOURS, SOFT, WHITE
from .base import Context, draw_scene, make
from .ending import Ending
from .initials import Qualifier, sprint_table  # (a qualifier: team, runner, fastest sprint ms)


def runner_line(f: RunnerFigures) -> str:
    """One runner's figures on one line."""
    if not f.sprints:
        return _("{runner}: no sprint").format(runner=runner_name(f.runner))
    words = _("{runner}: {n} sprints, fastest {fastest}, average {average}").format(
        runner=runner_name(f.runner), n=len(f.sprints), fastest=split_words(f.fastest_ms or 0.0),
        average=split_words(f.average_ms or 0.0))
    if f.races_won:
        words += " — " + _("races won {n} (by {ms:.0f} ms on average)").format(
            n=f.races_won, ms=f.average_margin_ms or 0.0)
    return words


def qualifiers(figures: dict[tuple[int, int], RunnerFigures], table: high_scores.HighScores,
               computer: frozenset[int] = frozenset()) -> list[Qualifier]:
    """The runners whose fastest sprint makes the table (people only), fastest first, as they would
    enter it one after another."""
    trial = high_scores.HighScores(list(table.entries))
    out: list[Qualifier] = []
    ranked = sorted((f for f in figures.values() if f.fastest_ms is not None and f.seat not in computer),
                    key=lambda f: f.fastest_ms or 0.0)
    for f in ranked:
        if trial.add(high_scores.Entry("???", f.fastest_ms or 0.0, f.seat, f.runner)) is not None:
            out.append((f.seat, f.runner, f.fastest_ms or 0.0))
    return out


class RunningOverScene(Ending):
    def __init__(self, ctx: Context, match: Any, view: Any) -> None:
        self.ctx = ctx
        self.match = match
        self.view = view
        self.runners = list(match.spit.rules.options.runners)
        self.figures = runner_figures(match.events, self.runners)
        self.start_ending()

    def background(self) -> pygame.Surface:
        return self.view.background()



    def next_scene(self) -> Any:
        if self.ctx.config_path is not None:  # a table kept beside the settings (none on a bare desktop)
            found = qualifiers(self.figures, sprint_table(self.ctx), frozenset(self.match.bots))
            if found:
                return make("running_initials", self.ctx, found, self.view)
        return make("title", self.ctx)

    def team(self, player: int) -> str:
        return _("The computer") if player in self.match.bots else _("Team {n}").format(n=player)

    def captions(self) -> list[Caption]:
        winner = self.match.spit.winner
        head = _("{name} wins!").format(name=self.team(winner)) if winner is not None else _("Game over")
        out = [caption("panel", None, Line(head, 0.3, GOLD), shade=200)]
        for player in self.view.layout.seats:
            lines = [Line(self.team(player), 0.15, PLAYER_COLOURS.get(player, WHITE))]
            for runner in range(self.runners[player - 1]):
                lines.append(Line(runner_line(self.figures[(player, runner)]), 0.11, WHITE))
            out.append(Caption("panel", player, tuple(lines), 200))
        if any(f.races_won for f in self.figures.values()):  # what the figure means, where it is shown
            explained = _("races won: a card slapped onto a pad just before another team's runner did")
            out.append(caption("panel", None, Line(explained, 0.1, SOFT)))
        out.append(caption("panel", None, Line(_("press START or SPIT to go on"), 0.1, WHITE, "start")))
        return out

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.spit, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions(), self.view.layout)
