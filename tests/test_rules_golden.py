"""Classic output stays byte-identical: every classic scenario and a corpus of mashed classic games
give exactly the output they gave before the engine served the whole family.

`golden/classic-output.sha256.json` holds the SHA-256 of `spit-arcade script`'s output for each seed
scenario and for mashed games made by the classic masher frozen below (so changing the project's
masher never changes this corpus). The hashes were taken from the classic-only engine, and taken
again only for a deliberate change of a classic rule, each game's first difference checked to be
that rule's: the retry after a card that did not go (issue 19: its pile pressed again picks it up
again, `select` where it was `deselect`; the scenarios unchanged).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from appliance.rules import Game
from appliance.scripting import output_lines, parse_script, run

HERE = Path(__file__).resolve().parent
GOLDEN = json.loads((HERE / "golden" / "classic-output.sha256.json").read_text())
SCENARIOS = HERE.parent / "seeds" / "scenarios"

PLAYING = ("pile1", "pile2", "pile3", "pile4", "pile5", "pile1", "pile2", "pile3", "pile4", "pile5",
           "left", "right", "left", "right", "spit", "pile6")
WAITING = ("spit", "spit", "spit", "left", "right", "pile1", "pile3")
CHOOSING = ("left", "right", "pile2")


def classic_mash_script(seed: int, limit: int) -> list[str]:
    """The masher of the classic-only engine, frozen: a script of up to `limit` presses."""
    rng = random.Random(seed ^ 0x5EED)
    game, _ = Game.new(seed)
    lines = [json.dumps({"setup": {"variant": "classic", "seed": seed}})]
    t = 0.0
    for _ in range(limit):
        if game.phase == "over":
            break
        player = rng.randint(1, 2)
        phase = game.phase
        controls = PLAYING if phase == "playing" else CHOOSING if phase == "choosing" else WAITING
        t = round(t + rng.expovariate(20.0), 6)
        control = rng.choice(controls)
        game.press(t, player, control)
        lines.append(json.dumps({"t": t, "player": player, "press": control}))
    return lines


def digest(lines: list[str]) -> str:
    events, game = run(parse_script(lines))
    return hashlib.sha256("".join(line + "\n" for line in output_lines(events, game)).encode()).hexdigest()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_classic_output_is_byte_identical(name: str) -> None:
    if name.endswith(".jsonl"):
        lines = (SCENARIOS / name).read_text().splitlines()
    else:
        _, seed, limit = name.split("-")
        lines = classic_mash_script(int(seed), int(limit))
    assert digest(lines) == GOLDEN[name], f"{name}: classic output changed"


def test_the_corpus_has_whole_games_and_every_scenario() -> None:
    assert {name for name in GOLDEN if name.endswith(".jsonl")} <= {p.name for p in SCENARIOS.glob("*.jsonl")}
    assert sum(1 for name in GOLDEN if name.endswith("-100000")) >= 8
