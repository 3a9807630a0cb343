"""The generic invariants, for every registered preset and for random combinations of house rules.

Players mashing at random (lab.random_play) through a game of each preset: no press raises,
every card of the deck(s) is in exactly one place after every press (counted from the state object,
whatever the game type), the same setup and presses give byte-identical output, the script of the
game replays to the same output, a game resumed from a snapshot taken at any point (through
JSON, as the cabinet stores it) goes on exactly as the uninterrupted game, and so does a copy of it
(`copy()`, a rollback's start), which shares nothing a press can change with the original and
leaves it as it was. A new preset gets all of this by being registered.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from appliance.rules import PRESETS, Event, FamilyGame, OptionError, deck, is_card, new_game, read_options, restore
from appliance.rules.options import CHOICES, GOALS, Options
from appliance.rules.ruleset import Ruleset
from appliance.scripting import output_lines, parse_script, run
from lab.random_play import mash

Press = tuple[float, int, str]


def cards_in(value: Any, decks: int) -> Counter[str]:
    """Every card named anywhere in a state object."""
    found: Counter[str] = Counter()
    if isinstance(value, str):
        if is_card(value, decks):
            found[value] += 1
    elif isinstance(value, list):
        for item in value:
            found += cards_in(item, decks)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "options":
                found += cards_in(item, decks)
    return found


def mashed(variant: str, options: dict[str, Any] | None, seed: int, limit: int, check_each: bool = True
           ) -> tuple[list[Press], list[str]]:
    """Mash `limit` presses (or to the game's end), checking every card after each (or only at the
    end); returns the presses and the output lines (events, then the state)."""
    game, events = new_game(variant, seed, options)
    decks = read_options(variant, options).decks
    full = Counter(deck(decks))
    rng = random.Random(seed)
    presses: list[Press] = []
    t = 0.0
    for _ in range(limit):
        if game.phase == "over":
            break
        dt, player, control = mash(game, rng)
        t = round(t + dt, 6)
        happened = game.press(t, player, control)
        assert happened, "every press has an outcome"
        assert all(e.t == t for e in happened)
        events += happened
        presses.append((t, player, control))
        if check_each:
            assert cards_in(game.state(), decks) == full, f"{variant} {options}: cards after press {len(presses)}"
    assert cards_in(game.state(), decks) == full
    return presses, list(output_lines(events, game))


def script_of(variant: str, options: dict[str, Any] | None, seed: int, presses: list[Press]) -> list[str]:
    setup: dict[str, Any] = {"variant": variant, "seed": seed}
    if options:
        setup["options"] = options
    return [json.dumps({"setup": setup})] + [
        json.dumps({"t": t, "player": p, "press": c}) for t, p, c in presses]


def mutable_parts(value: Any, seen: dict[int, Any] | None = None) -> dict[int, Any]:
    """Every object reachable from `value` that a press could change (lists, dicts, sets, the RNG,
    objects with fields that are not frozen), by id. Frozen dataclasses and tuples are walked into,
    as their parts may still be mutable; classes, functions, events (records, never changed once
    made) and the ruleset (the rules, shared by every game of them: its caches are derived) are not."""
    seen = {} if seen is None else seen
    if id(value) in seen or callable(value) or isinstance(
            value, (str, int, float, bool, type(None), type, Event, Ruleset, Options)):
        return seen
    params = getattr(type(value), "__dataclass_params__", None)
    if not isinstance(value, (tuple, frozenset)) and not (params is not None and params.frozen):
        seen[id(value)] = value
    if isinstance(value, dict):
        parts: list[Any] = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        parts = list(value)
    elif isinstance(value, random.Random):
        parts = []
    else:
        parts = [getattr(value, name) for name in getattr(value, "__dict__", {})]
        parts += [getattr(value, f.name) for f in dataclasses.fields(value)] if dataclasses.is_dataclass(value) else []
    for part in parts:
        mutable_parts(part, seen)
    return seen


def check_copy(game: FamilyGame, presses: list[Press], expected: list[Any], whole: FamilyGame) -> None:
    """A copy of `game` is equal to it, shares nothing a press changes, and played on with `presses`
    gives `expected` and the state of `whole`, while `game` itself stays as it was."""
    original = json.dumps(game.snapshot())
    twin = game.copy()
    assert type(twin) is type(game)
    assert json.dumps(twin.snapshot()) == original, "copy = original"
    mine, theirs = mutable_parts(game), mutable_parts(twin)
    shared = [type(theirs[n]).__name__ for n in theirs.keys() & mine.keys()]
    assert not shared, f"the copy shares {shared} with the original"
    played: list[Any] = []
    for t, p, c in presses:
        played += twin.press(t, p, c)
    assert [e.to_json() for e in played] == expected, "a copy goes on as the original would"
    assert json.dumps(twin.state()) == json.dumps(whole.state())
    assert json.dumps(game.snapshot()) == original, "playing on a copy never changes the original"


def check_family_invariants(variant: str, options: dict[str, Any] | None, seed: int, limit: int,
                            cut: float) -> None:
    presses, live = mashed(variant, options, seed, limit)
    # Deterministic: the same again, byte for byte.
    assert mashed(variant, options, seed, limit) == (presses, live)
    # Replay = live: the script of the game gives the same output.
    events, game = run(parse_script(script_of(variant, options, seed, presses)))
    assert list(output_lines(events, game)) == live
    # Snapshot resume = live: stop anywhere, store, restore, go on.
    k = int(cut * len(presses))
    first, _ = new_game(variant, seed, options)
    before: list[Any] = []
    for t, p, c in presses[:k]:
        before += first.press(t, p, c)
    resumed: FamilyGame = restore(json.loads(json.dumps(first.snapshot())))
    assert resumed.state() == first.state()
    after: list[Any] = []
    for t, p, c in presses[k:]:
        after += resumed.press(t, p, c)
    whole, _ = new_game(variant, seed, options)
    expected: list[Any] = []
    for t, p, c in presses:
        expected += whole.press(t, p, c)
    assert [e.to_json() for e in before + after] == [e.to_json() for e in expected]
    assert json.dumps(resumed.state()) == json.dumps(whole.state())
    # Copy = original, and a copy played on never changes the original.
    check_copy(first, presses[k:], [e.to_json() for e in after], whole)


@pytest.mark.parametrize("variant", sorted(PRESETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_preset_keeps_the_invariants(variant: str, seed: int) -> None:
    check_family_invariants(variant, None, seed, limit=2000, cut=(seed * 0.37) % 1)


@pytest.mark.parametrize(("variant", "options"), [("classic", {"seats": 3}), ("classic", {"seats": 4}),
                                                  ("four-piles", {"seats": 4, "decks": 2})])
def test_three_and_four_seats_keep_the_invariants(variant: str, options: dict[str, Any]) -> None:
    check_family_invariants(variant, options, 7, limit=2000, cut=0.45)
    _, live = mashed(variant, options, 7, limit=400_000, check_each=False)
    final = json.loads(live[-1])["state"]
    assert final["phase"] == "over" and final["winner"] in range(1, options["seats"] + 1)


def assert_nobody_wins_holding_a_card(state: dict[str, Any], decks: int, what: str) -> None:
    """The family invariant: where the goal is to get rid of one's cards, the winner holds none (under
    every house rule: the lent card of V13 and the ghost card of V14 go back before a win)."""
    if state.get("variant") == "speed" or state.get("options", {}).get("goal", "fewest") != "fewest":
        return  # Speed scores points; Reverse Spit's winner holds every card
    winner = state["winner"]
    assert winner is not None, what
    held = cards_in(state["players"][winner - 1], decks)
    assert not held, f"{what}: player {winner} won holding {sorted(held)}"


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_every_preset_plays_to_the_end(variant: str) -> None:
    presses, live = mashed(variant, None, 11, limit=400_000, check_each=False)
    final = json.loads(live[-1])["state"]
    assert final["phase"] == "over" and final["winner"] in (1, 2), f"{variant}: not over after {len(presses)}"
    assert_nobody_wins_holding_a_card(final, read_options(variant).decks, variant)


HOUSE_RULES: list[dict[str, Any]] = [
    {"ghost_card": True}, {"spit_card_please": True}, {"choose": "shapp"}, {"choose": "first_call"},
    {"choose": "slap_spit"}, {"two_hands": True}, {"hidden_last": True}, {"carry": True}, {"refill": True},
    {"alternate_colours": True}, {"same_rank_stacking": True}, {"seats": 3}, {"seats": 4},
    {"stock_piles": [3, 3, 3, 3, 3], "spit_card_please": True}, {"stock_piles": [1, 1, 1, 1], "ghost_card": True},
]


@pytest.mark.parametrize("options", HOUSE_RULES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("seed", [11, 12])
def test_where_the_goal_is_to_get_rid_of_ones_cards_nobody_wins_holding_one(options: dict[str, Any],
                                                                             seed: int) -> None:
    """Whole games of mashing, under each house rule: the winner holds no card (V13's winner gave the
    lent card back, V14's handed the ghost card over; nobody wins at a deal holding a layout)."""
    presses, live = mashed("classic", options, seed, limit=400_000, check_each=False)
    final = json.loads(live[-1])["state"]
    assert final["phase"] == "over", f"{options}: not over after {len(presses)}"
    assert_nobody_wins_holding_a_card(final, read_options("classic", options).decks, f"{options} seed {seed}")


@st.composite
def spit_options(draw: st.DrawFn) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["stock_piles"] = draw(st.sampled_from(
            [[1, 2, 3, 4, 5], [1, 2, 3, 4], [1, 1, 11, 1, 1], [3, 3, 3, 3, 3], [1, 1, 1, 1], [2, 2],
             [1, 2, 3, 4, 5, 6]]))
    for name in ("alternate_colours", "same_rank_stacking", "refill", "two_hands", "hidden_last", "carry",
                 "ghost_card", "spit_card_please"):
        if draw(st.booleans()):
            options[name] = draw(st.booleans())
    if draw(st.booleans()):
        options["choose"] = draw(st.sampled_from(CHOICES))
    if draw(st.booleans()):
        options["goal"] = draw(st.sampled_from(GOALS))
    if draw(st.booleans()):
        options["decks"] = draw(st.sampled_from([1, 2]))
    if draw(st.integers(0, 3)) == 0:  # three or four seats, with the options that go with them
        options["seats"] = draw(st.sampled_from([3, 4]))
        for two_seats_only in ("choose", "goal", "ghost_card", "spit_card_please"):
            options.pop(two_seats_only, None)
        if options.get("stock_piles") and sum(options["stock_piles"]) >= 52 * options.get("decks", 1) // options[
                "seats"]:
            options.pop("stock_piles")
    return options


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from([n for n, p in PRESETS.items() if p.game == "spit" and "mod" not in n]),
       options=spit_options(),
       seed=st.integers(0, 2**16), cut=st.floats(0, 1))
def test_random_house_rules_keep_the_invariants(variant: str, options: dict[str, Any], seed: int, cut: float) -> None:
    if variant == "reverse":
        options.pop("seats", None)  # Reverse Spit is for two
    try:
        read_options(variant, options)
    except OptionError:
        assume(False)  # e.g. eleven in the middle pile can't be dealt to four players from one deck
    check_family_invariants(variant, options, seed, limit=800, cut=cut)
    _, live = mashed(variant, options, seed, limit=800, check_each=False)
    final = json.loads(live[-1])["state"]
    if final["phase"] == "over":
        assert_nobody_wins_holding_a_card(final, read_options(variant, options).decks, f"{variant} {options}")
