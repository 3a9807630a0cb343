"""The title and attract loop: the computer playing itself behind the title, how to play, keys.

With the computer opponent installed the attract game is computer against computer (never
journalled); without it, a built-in script deals and calls "Spit!", and a new deal follows.
Any player's SPIT or the cabinet's START goes to choosing players; player 1's or 2's first pile key
to the guided first game of the game chosen (scenes/learn.py), at that seat; Escape leaves the program.
A click or a tap on "press SPIT or START" is START; on the invitation to the guided game, that seat's
first pile key (on the tabletop each seat taps its own copy; on the desktop, player 1's).
When a game costs credits (not on free play), the title says how many there are and, when there are
too few for a game, "insert coin"; START then stays here (the credits are taken when the game starts,
in the players-choosing scene). A coin is counted by the runner whatever is showing.
"""

from __future__ import annotations

import pygame

from appliance.bots import demo_bots
from appliance.match import Match
from appliance.rules.ruleset import compose

from ..captions import Caption, Line, caption
from ..coins import books_words, credit_words, insert_coin_words, may_play
from ..compositor import Canvas
from ..events import EventReader
from ..guide import invitation
from ..i18n import _
from ..keys import table_keymap
from ..legend import cabinet_legend, seat_legend
from ..rules_words import game_choice, in_force, rules_help
from ..rules_words import how_to_play as game_how_to_play
from ..table_view import GOLD, PLAYER_COLOURS, RED, SOFT, WHITE, TableView
from .base import BACK, Context, Input, Push, Quit, Replace, Transition, draw_scene, is_press, make

ATTRACT_GAME_S = 600.0
RULE_LINE_S = 5.0  # each line of the chosen rules is shown this long
TITLE_VEIL = 190  # the title's panels dim the attract game behind them, which still shows through
REFUSED_S = 3.0  # "insert coin" is shown in red this long after START found too few credits


def how_to_play(ctx: Context) -> list[str]:
    """How the game chosen in the game menu is played (rules_words.how_to_play)."""
    return game_how_to_play(game_choice(ctx.settings))


class TitleScene:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.view: TableView = ctx.view(assist=False, show_keys=False, names=False)  # nobody's seat yet
        self.now_ns = ctx.clock()
        self.start_ns = self.now_ns
        self.deals = 0
        self.refused_ns: int | None = None  # when START last found too few credits
        self.match = self._attract_match(self.now_ns)

    def _attract_match(self, now_ns: int) -> Match:
        self.deals += 1
        seed = 1000 + self.deals
        one, two = demo_bots(seed)
        match = Match(seed, now_ns, None, {1: one, 2: two})
        self.reader = EventReader(match)
        return match

    def background(self) -> pygame.Surface:
        return self.view.background()

    def on_event(self, press: Input) -> Transition | None:
        if press.control == BACK and press.pressed:
            return None if self.ctx.settings.kiosk else Quit(0)
        if is_press(press, "service"):
            return Push(make("settings", self.ctx))
        if is_press(press, "pile1") and press.player in (1, 2):  # the guided first game (free: a lesson)
            self.ctx.sound.play("select")
            game = "speed" if game_choice(self.ctx.settings).is_speed else "spit"
            return Replace(make("learn", self.ctx, press.player, game))
        if is_press(press, "start", "spit"):
            if not may_play(self.ctx):
                self.ctx.sound.play("reject")
                self.refused_ns = press.t_ns
                return None
            self.ctx.sound.play("select")
            return Replace(make("choose", self.ctx))
        return None

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        match = self.match
        if getattr(self.ctx.settings, "attract", True):  # the operator may switch the attract game off
            match.tick(now_ns)
        self.view.notice(self.reader.new_events(), now_ns, match.spit)
        over_for = match.game_time(now_ns) - match.spit.now
        if (match.finished and over_for > 5.0) or match.game_time(now_ns) > ATTRACT_GAME_S:
            self.match = self._attract_match(now_ns)
            if self._has_high_scores():  # between attract games: Running Spit's fastest sprints (and the venue's board)
                return Replace(make("running_scores", self.ctx))
        return None

    def _has_high_scores(self) -> bool:
        from appliance.venue.board import board_path, read_board, read_reactions

        from ..coins import office

        path = self.ctx.config_path
        if office(self.ctx).high_scores("sprint"):
            return True
        return path is not None and bool(read_board(board_path(path), 1) or read_reactions(board_path(path), 1))

    def rules_lines(self) -> list[str]:
        """The chosen game in one line, and its rules' lines, one at a time (a new one every few
        seconds: a steady line, not a blink)."""
        chosen = game_choice(self.ctx.settings)
        explained = rules_help(chosen)
        shown = explained[int((self.now_ns - self.start_ns) / (RULE_LINE_S * 1e9)) % len(explained)]
        return [_("Playing: {rules}").format(rules=in_force(chosen)), shown]

    def captions(self) -> list[Caption]:
        lines = [Line("SPIT ARCADE", 0.42, GOLD)]
        lines += [Line(words, 0.13, WHITE) for words in how_to_play(self.ctx)]
        playing, explained = self.rules_lines()
        lines += [Line(playing, 0.13, GOLD), Line(explained, 0.12, SOFT)]
        # steady, not blinking: a blink repaints and uploads the whole panel twice a second
        lines.append(self.play_line())
        lines.append(Line(invitation(self.ctx.keymap), 0.12, WHITE, "pile1"))  # the guided game (a tap: that seat's)
        out = [Caption("panel", None, tuple(lines), 200, TITLE_VEIL)]  # the computer's game seen through
        chosen = game_choice(self.ctx.settings)
        piles, seats = len(chosen.options.stock_piles), chosen.seats
        slap = "" if chosen.is_speed else compose(chosen.preset, chosen.options).slaps  # (the rules say)
        mode = self.ctx.layout.mode
        for player in range(1, seats + 1):
            keys = seat_legend(table_keymap(self.ctx.keymap, mode, seats), player, mode, piles, seats, slap)
            if keys:
                words = _("Player {n}").format(n=player) + ":  " + "   ".join(keys)
                # on the tabletop each seat's keys face it; on the desktop (and for players 3 and 4, on the
                # keyboard's map) they are in the one block everybody reads
                owner = player if mode == "tabletop" and player in self.ctx.layout.seats else None
                out.append(caption("panel", owner, Line(words, 0.11, PLAYER_COLOURS[player]), backdrop=0))
        # the cabinet's keys, and at the end of that line, as arcade games have it, "free play" or
        # the credits there are
        bottom = [*cabinet_legend(self.ctx.keymap, not self.ctx.settings.free_play), credit_words(self.ctx)]
        out.append(caption("panel", None, Line("   ".join(bottom), 0.11, SOFT), backdrop=0))
        trouble = books_words(self.ctx)  # a coin or a game not written yet (the card full): said, never only on stderr
        if trouble is not None:
            out.append(caption("panel", None, Line(trouble, 0.1, RED), backdrop=0))
        return out

    def play_line(self) -> Line:
        """How to play; or "insert coin" when there are too few credits for a game (in red for a
        moment after START found too few)."""
        if may_play(self.ctx):
            return Line(_("press SPIT or START to play"), 0.14, GOLD, "start")
        refused = self.refused_ns is not None and self.now_ns - self.refused_ns < REFUSED_S * 1e9
        return Line(insert_coin_words(self.ctx), 0.14, RED if refused else GOLD, "start")

    def draw(self, canvas: Canvas) -> None:
        self.view.draw(canvas, self.match.spit, self.now_ns)
        draw_scene(canvas, self.ctx, self.captions())
