"""Running Spit's high-score table: the fastest sprints, with their initials (attract mode too).

Registered as "running_scores", made with the places to light (just entered) or none. Shown for
`SHOW_S`, then the title; START or SPIT! goes to the title at once. The title's attract cycle can
show it between its demo games: `make("running_scores", ctx)`. Where the cabinet is in a venue, the
venue's best sprints and fastest reactions follow, each with its cabinet's name (the board the uplink
keeps, read-only: appliance/venue/board.py).
"""

from __future__ import annotations

import pygame

from appliance import high_scores
from appliance.running_stats import runner_name
from appliance.venue.board import Place, Reaction, board_path, read_board, read_reactions

from ..captions import Caption, Line, caption
from ..compositor import Canvas
from ..i18n import _
from ..running_view import split_words
from ..table_view import GOLD, PLAYER_COLOURS, WHITE
from .base import BACK, Context, Input, Replace, Transition, draw_scene, is_press, make
from .initials import sprint_table

SHOW_S = 12.0
MIN_S = 0.5
VENUE_PLACES = 5  # the venue's best, under the cabinet's own ten
VENUE_REACTIONS = 3  # and its fastest reactions under those
OWN_WITH_VENUE = 5  # with the venue's board under it, the cabinet's own best five (and a new place lit)


def table_lines(table: high_scores.HighScores, lit: tuple[int, ...] = (), places: int | None = None) -> list[Line]:
    """The cabinet's own fastest sprints: all ten, or the first `places` and any lit place below them."""
    if not table.entries:
        return [Line(_("no sprints yet: be the first"), 0.14, WHITE)]
    lines = []
    for place, entry in enumerate(table.entries, start=1):
        if places is not None and place > places and place not in lit:
            continue
        words = f"{place:>2}. {entry.initials}  {split_words(entry.sprint_ms)}"
        if entry.team:
            words += "  " + _("team {n} {runner}").format(n=entry.team, runner=runner_name(entry.runner))
        colour = GOLD if place in lit else PLAYER_COLOURS.get(entry.team, WHITE)
        lines.append(Line(words, 0.13, colour))
    return lines


def venue_lines(places: list[Place]) -> list[Line]:
    """The venue's board (none: no lines, a lone cabinet shows its own table only)."""
    if not places:
        return []
    lines = [Line(_("THE VENUE — FASTEST SPRINTS"), 0.15, GOLD)]
    for number, place in enumerate(places, start=1):
        words = f"{number:>2}. {place.initials}  {split_words(place.sprint_ms)}  {place.cabinet}"
        lines.append(Line(words, 0.12, WHITE))
    return lines


def reaction_lines(reactions: list[Reaction]) -> list[Line]:
    """The venue's fastest reactions (none: no lines)."""
    if not reactions:
        return []
    lines = [Line(_("THE VENUE — FASTEST REACTIONS"), 0.15, GOLD)]
    for number, reaction in enumerate(reactions, start=1):
        words = f"{number:>2}. {reaction.initials}  {reaction.reaction_ms:.0f}\u00a0ms  {reaction.cabinet}"
        lines.append(Line(words, 0.12, WHITE))
    return lines


class RunningScoresScene:
    def __init__(self, ctx: Context, lit: tuple[int, ...] = ()) -> None:
        self.ctx = ctx
        self.lit = tuple(lit)
        self.table = sprint_table(ctx)
        path = ctx.config_path
        self.venue = read_board(board_path(path), VENUE_PLACES) if path is not None else []
        self.reactions = read_reactions(board_path(path), VENUE_REACTIONS) if path is not None else []
        self.start_ns = ctx.clock()
        self._leave = False

    def background(self) -> pygame.Surface:
        return self.ctx.view().background()

    def on_event(self, press: Input) -> Transition | None:
        late_enough = press.t_ns - self.start_ns >= MIN_S * 1e9
        if (press.control == BACK and press.pressed) or (is_press(press, "start", "spit") and late_enough):
            self._leave = True
        return None

    def update(self, now_ns: int) -> Transition | None:
        if self._leave or now_ns - self.start_ns >= SHOW_S * 1e9:
            return Replace(make("title", self.ctx))
        return None

    def captions(self) -> list[Caption]:
        head = caption("panel", None, Line(_("RUNNING SPIT — FASTEST SPRINTS"), 0.2, GOLD), shade=200)
        venue = venue_lines(self.venue) + reaction_lines(self.reactions)
        own = table_lines(self.table, self.lit, OWN_WITH_VENUE if venue else None)  # every line at a legible size
        lines = own + venue
        return [head, Caption("panel", None, tuple(lines), 200)]

    def draw(self, canvas: Canvas) -> None:
        draw_scene(canvas, self.ctx, self.captions())
