"""The worked examples of the seeds, as scripts in seeds/scenarios/, each with what must happen.

NAME.jsonl is a script; NAME.expect.json names the seed and the passage it comes from, the events
that must happen in this order (each a subset of the real event), and a part of the final state
(where `spit_tops` stands for the top card of each spit pile).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from appliance.scripting import parse_script, run

SCENARIOS = Path(__file__).resolve().parent.parent / "seeds" / "scenarios"
SEEDS = {"000_dae4a718f973ab88.txt", "001_31e4170240922642.txt", "002_eb7be7ad3e98b4a9.txt"}
NAMES = sorted(p.name.removesuffix(".jsonl") for p in SCENARIOS.glob("*.jsonl"))


def matches(expected: Any, actual: Any) -> bool:
    """Expected dicts are subsets; lists of dicts match element by element from the start."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and expected and all(isinstance(e, dict) for e in expected):
        return isinstance(actual, list) and len(actual) >= len(expected) and all(
            matches(e, a) for e, a in zip(expected, actual, strict=False))
    return bool(expected == actual)


def test_there_are_scenarios_from_every_seed() -> None:
    sources = {json.loads((SCENARIOS / f"{n}.expect.json").read_text())["source"] for n in NAMES}
    assert sources == SEEDS
    assert len(NAMES) >= 10


@pytest.mark.parametrize("name", NAMES)
def test_seed_scenario(name: str) -> None:
    expect = json.loads((SCENARIOS / f"{name}.expect.json").read_text())
    script = parse_script((SCENARIOS / f"{name}.jsonl").read_text().splitlines())
    events = [e.to_json() for e in run(script)[0]]
    game = run(script)[1]
    position = 0
    for wanted in expect["events"]:
        while position < len(events) and not matches(wanted, events[position]):
            position += 1
        assert position < len(events), f"{name}: expected, in order, an event like {wanted}; got {events}"
        position += 1
    state = game.state()
    state["spit_tops"] = [pile[-1] if pile else None for pile in state["spit_piles"]]
    assert matches(expect["state"], state), f"{name}: final state {state}"


def test_the_matcher_can_fail() -> None:
    assert not matches({"event": "play"}, {"event": "reject"})
    assert not matches([{"a": 1}, {"a": 2}], [{"a": 1}])
    assert not matches({"spit_piles": [["2D"], []]}, {"spit_piles": [["2D", "3C"], []]})
    assert matches({"players": [{}, {"x": []}]}, {"players": [{"y": 1}, {"x": [], "z": 2}]})
