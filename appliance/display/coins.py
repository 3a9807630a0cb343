"""Credits on the screen: what the title and the players-choosing scene say about them, and the
coin handed on. A view: the money is the operator layer's (appliance/operator/office.py), which keeps
the credits and writes them off the frame loop; nothing here touches a file or counts money.

    insert_coin(ctx, source, service)   # the runner, for every `coin` press (in service mode: no credit)
    may_play(ctx)          # free play, or enough credits for a game
    pay_for_game(ctx)      # the players-choosing scene, as a game starts: True if paid (or free)
    credit_words(ctx)      # "free play" / "credits: 3" for the title
    books_words(ctx)       # what went wrong with the books, if anything (the title shows it)

The app opens the office at start (`ctx.office`); a context without one (tests, a bare desktop) is
given one here the first time it is asked, kept in memory when there is no settings file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from appliance.operator.office import Office

from .i18n import _

if TYPE_CHECKING:
    from .scenes.base import Context


def office(ctx: Context) -> Office:
    """The operator's office of this run (opened beside the settings file if the app did not)."""
    found = ctx.office
    if found is None or found.config_path != ctx.config_path:  # (a test gives the context a settings file late)
        found = ctx.office = Office.open(ctx.config_path, keep_credits_s=ctx.settings.credits_kept_off_h * 3600)
        if found.notices:
            from .scenes.base import startup_notices

            startup_notices(ctx).extend(found.notices)
    return found


def insert_coin(ctx: Context, source: str = "coin", service: bool = False) -> bool:
    """One coin (a debounced `coin` press): a credit more, kept (no credit in service mode: the
    switch test shows it). Whether it added one."""
    added = office(ctx).coin(source, service)
    if not service:
        ctx.sound.play("select")
    return added


def cost(ctx: Context) -> int:
    """Credits a game costs now (0 on free play)."""
    settings = ctx.settings
    return 0 if settings.free_play else max(0, int(settings.credits_per_game))


def may_play(ctx: Context) -> bool:
    return office(ctx).enough(cost(ctx)) if cost(ctx) else True


def pay_for_game(ctx: Context) -> bool:
    """A game is starting: take its credits (nothing on free play). False, nothing taken, if there are
    too few."""
    price = cost(ctx)
    return office(ctx).pay(price) if price else True


def credit_words(ctx: Context) -> str:
    """The title's line: "free play", or the credits there are."""
    if ctx.settings.free_play:
        return _("free play")
    return _("credits: {n}").format(n=office(ctx).credits)


def books_words(ctx: Context) -> str | None:
    """What is wrong with the books now (writes held in memory: the card is full or read-only), for
    the title; None when every coin and game is written."""
    failure = office(ctx).failure
    if failure is None:
        return None
    return _("the books are held in memory: {why}").format(why=failure)


def insert_coin_words(ctx: Context) -> str:
    """What to do when there are too few credits for a game."""
    price = cost(ctx)
    if price <= 1:
        return _("insert coin")
    return _("insert coin: a game costs {n} credits").format(n=price)
