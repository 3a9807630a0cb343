"""Credits on the screen: the app's coin box, a coin taken whatever is showing, and what the title and
the players-choosing scene say about it.

    insert_coin(ctx)       # the runner, for every `coin` press (no scene sees it: a game goes on)
    may_play(ctx)          # free play, or enough credits for a game
    pay_for_game(ctx)      # the players-choosing scene, as a game starts: True if paid (or free)
    credit_words(ctx)      # "free play" / "credits: 3" for the title

The coin box (appliance/credits.py) is read the first time it is needed and kept on the context; a
credits file that was not right is said on stderr and in the start's notices (the service menu's
Diagnostics), and the cabinet starts from 0 credits.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from appliance.credits import CreditBank, credits_path

from .i18n import _

if TYPE_CHECKING:
    from .scenes.base import Context


def credit_bank(ctx: Context) -> CreditBank:
    """The coin box of this run (read from beside the settings file the first time, and again if the
    context is given another settings file)."""
    path = credits_path(ctx.config_path) if ctx.config_path is not None else None
    found = ctx.credit_bank
    if found is None or found.path != path:
        found = CreditBank.load(path)
        if found.problem:
            print(f"spit-arcade: {found.problem}", file=sys.stderr)
            from .scenes.service_notices import startup_notices

            startup_notices(ctx).append(found.problem)
        ctx.credit_bank = found
    return found


def insert_coin(ctx: Context) -> bool:
    """One coin (a debounced `coin` press): a credit more, kept at once. Whether it added one."""
    added = credit_bank(ctx).coin()
    ctx.sound.play("select")
    return added


def cost(ctx: Context) -> int:
    """Credits a game costs now (0 on free play)."""
    settings = ctx.settings
    return 0 if settings.free_play else max(0, int(settings.credits_per_game))


def may_play(ctx: Context) -> bool:
    return credit_bank(ctx).enough(cost(ctx)) if cost(ctx) else True


def pay_for_game(ctx: Context) -> bool:
    """A game is starting: take its credits (nothing on free play). False, nothing taken, if there are
    too few."""
    price = cost(ctx)
    return credit_bank(ctx).pay(price) if price else True


def credit_words(ctx: Context) -> str:
    """The title's line: "free play", or the credits there are."""
    if ctx.settings.free_play:
        return _("free play")
    return _("credits: {n}").format(n=credit_bank(ctx).credits)


def insert_coin_words(ctx: Context) -> str:
    """What to do when there are too few credits for a game."""
    price = cost(ctx)
    if price <= 1:
        return _("insert coin")
    return _("insert coin: a game costs {n} credits").format(n=price)
