from __future__ import annotations

import copy
from typing import Any

import pytest
from positions import position

from appliance.rules import SetupError, game_from_state


def good() -> dict[str, Any]:
    return position(["5H", "", "", "", ""], ["9C", "", "", "", "8S |"], spit=("4C", "JD"), p1_spit="2S",
                    p2_spit="3S")


def test_a_good_position_loads_and_writes_back_the_same() -> None:
    state = good()
    out = game_from_state(state).state()
    for key in ("variant", "phase", "round", "winner", "spit_piles"):
        assert out[key] == state[key]
    assert [p["stock"] for p in out["players"]] == [p["stock"] for p in state["players"]]


@pytest.mark.parametrize(("change", "words"), [
    (lambda s: s["players"][0]["stock"][0]["cards"].append("5H"), "duplicate 5H"),
    (lambda s: s["spit_piles"][0].remove("KS"), "missing KS"),
    (lambda s: s["spit_piles"][0].append("ZZ"), "'ZZ' is not a card"),
    (lambda s: s.update(phase="dancing"), "phase must be one of"),
    (lambda s: s.update(winner=1), "winner must be set exactly when"),
    (lambda s: s["players"][0]["stock"].pop(), "list of 5 stock piles"),
    (lambda s: s["players"].pop(), "list of 2 players"),
    (lambda s: s["players"][0]["stock"][0].update(up=3), "up must be a whole number from 0 to 1"),
    (lambda s: s["players"][0].update(selected=2), "pile 2, which has no face-up top card"),
    (lambda s: s["players"][0].update(selected=9), "selected must be a whole number"),
    (lambda s: s.update(spit_piles=[s["spit_piles"][0]]), "list of 2 piles"),
    (lambda s: s.update(phase="stalemate"), "player 1 can still move"),
    (lambda s: s.update(phase="choosing") or s["players"][0].update(selected=1), "nothing can be selected"),
    (lambda s: s["players"][0].update(called=True), "only a player holding spit cards calls"),
    (lambda s: s.update(variant="speed"), "unknown variant"),
], ids=["dup", "missing", "not-card", "phase", "winner", "piles", "players", "up", "selected-empty",
        "selected-range", "spit-piles", "false-stalemate", "select-choosing", "called-playing", "variant"])
def test_a_bad_position_is_refused_with_a_reason(change: Any, words: str) -> None:
    state = copy.deepcopy(good())
    change(state)
    with pytest.raises(SetupError, match=words):
        game_from_state(state)


def test_a_position_where_a_player_has_no_stock_is_refused_while_playing() -> None:
    state = position(["", "", "", "", ""], ["9C", "", "", "", "8S |"], spit=("4C", "JD"), p1_spit="2S")
    with pytest.raises(SetupError, match="no stock cards"):
        game_from_state(state)
