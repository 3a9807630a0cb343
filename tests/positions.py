"""Explicit positions for tests, in a compact notation, as full state objects.

A stock pile is written bottom to top; cards after `|` are face up, and with no `|` only the top
card is face up: "2C 9D 5H" = two face-down cards under a face-up 5H; "2C 9D |" = a face-down top;
"" = an empty space. Every card of the deck not placed goes under spit pile 0 (or where `rest` says),
so every position accounts for all 52 cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from appliance.rules import Event, Game, deck, game_from_state
from appliance.rules.ghost_card import GhostCard
from appliance.rules.spit_card_please import SpitCardPlease


def pile(text: str) -> dict[str, Any]:
    if "|" in text:
        down, _, up = text.partition("|")
        down_cards, up_cards = down.split(), up.split()
        return {"cards": down_cards + up_cards, "up": len(up_cards)}
    cards = text.split()
    return {"cards": cards, "up": 1 if cards else 0}


def position(
    p1: list[str],
    p2: list[str],
    spit: tuple[str, str] = ("", ""),
    p1_spit: str = "",
    p2_spit: str = "",
    phase: str = "playing",
    rest: str = "spit0",
    variant: str = "classic",
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A state object. `p1`/`p2`: the stock piles of each; `spit`: the two spit piles, bottom to top;
    `p1_spit`/`p2_spit`: spit cards, top first; `rest`: spit0, spit1, p1_spit or p2_spit.
    `variant` and `options` go into the state (two decks where `options` say so)."""
    stocks = [[pile(text) for text in p1], [pile(text) for text in p2]]
    spit_piles = [spit[0].split(), spit[1].split()]
    spit_cards = [p1_spit.split(), p2_spit.split()]
    used = [c for s in stocks for p in s for c in p["cards"]] + spit_piles[0] + spit_piles[1] \
        + spit_cards[0] + spit_cards[1]
    left = [card for card in deck((options or {}).get("decks", 2 if variant == "two-decks" else 1))
            if card not in used]
    if rest == "spit0":
        spit_piles[0] = left + spit_piles[0]
    elif rest == "spit1":
        spit_piles[1] = left + spit_piles[1]
    elif rest == "p1_spit":
        spit_cards[0] = spit_cards[0] + left
    elif rest == "p2_spit":
        spit_cards[1] = spit_cards[1] + left
    else:
        raise ValueError(rest)
    state: dict[str, Any] = {
        "variant": variant,
        "phase": phase,
        "round": 1,
        "winner": None,
        "spit_piles": spit_piles,
        "players": [
            {"stock": stocks[i], "spit_cards": spit_cards[i], "selected": None} for i in range(2)
        ],
    }
    if options:
        state["options"] = options
    state.update(extra)
    return state


def game_at(*args: Any, **kwargs: Any) -> Game:
    return game_from_state(position(*args, **kwargs))


def kinds(events: Sequence[Event | dict[str, Any]]) -> list[str]:
    return [e.kind if isinstance(e, Event) else e["event"] for e in events]


def as_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    """Events as the script format writes them: what a test compares with literal expectations."""
    return [e.to_json() for e in events]


def press(game: Game, t: float, player: Any, control: Any) -> list[dict[str, Any]]:
    """One press; its events as JSON objects."""
    return as_json(game.press(t, player, control))


def presses(game: Game, *steps: tuple[float, int, str]) -> list[dict[str, Any]]:
    """Apply presses (t, player, control) in the order given; all events, as JSON objects."""
    out: list[dict[str, Any]] = []
    for t, player, control in steps:
        out += press(game, t, player, control)
    return out


def lent_of(game: Game) -> tuple[int, int, str, float | None] | None:
    """V13's lent spit card as (borrower, lender, card, when the borrower played out), or None."""
    rule = game.house_rule(SpitCardPlease)
    if rule is None or rule.card is None:
        return None
    return rule.player, rule.giver, rule.card, rule.since


def ghost_of(game: Game) -> tuple[str, int, int] | None:
    """V14's ghost card as (card, beside, laid by), or None."""
    rule = game.house_rule(GhostCard)
    if rule is None or rule.card is None:
        return None
    return rule.card, rule.beside, rule.giver


def race_of(game: Game) -> tuple[float, int] | None:
    """V14's race for the ghost card: (when it began, who played out), or None."""
    rule = game.house_rule(GhostCard)
    return None if rule is None else rule.race
