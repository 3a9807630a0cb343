"""Computer opponents: a strategy from the seeds' strategy notes, with a human's reaction times.

They play every preset and house rule of the Spit family: they choose only among the moves the rules
core offers (`game.legal_actions`) and see only what a player at the table sees (view.py).

    bot = make_bot("5", player=2, seed=7)     # levels "1" (casual) .. "5" (expert), or "first"
    bot = make_bot("5@3", player=2, seed=7)   # the expert's strategy with level 3's hands
    t, control = bot.next_press(game, now)    # press `control` at game time t (once t <= now)
    one, two = demo_bots(seed)                # the attract mode's two players

One bot plays one game: make new bots for a new game.
"""

from __future__ import annotations

from .demo import demo_bots
from .levels import BASELINE, LEVELS, make_bot, parse_spec
from .opponent import Bot

__all__ = ["BASELINE", "LEVELS", "Bot", "demo_bots", "make_bot", "parse_spec"]
