from __future__ import annotations

from appliance.display.stats import figures
from appliance.rules.events import from_json


def test_figures_from_events() -> None:
    events = [
        {"t": 0.0, "event": "deal", "round": 1, "players": []},
        {"t": 1.0, "event": "reveal", "player": 1, "card": "5S", "spit_pile": 0},
        {"t": 1.0, "event": "reveal", "player": 2, "card": "9H", "spit_pile": 1},
        {"t": 1.4, "event": "play", "player": 2, "pile": 1, "card": "TS", "spit_pile": 1, "onto": "9H"},
        {
            "t": 1.45,
            "event": "reject",
            "player": 1,
            "press": "right",
            "reason": "too_late",
            "card": "8C",
            "spit_pile": 1,
            "winner": 2,
            "by_ms": 50.0,
        },
        {"t": 2.0, "event": "play", "player": 1, "pile": 2, "card": "4D", "spit_pile": 0, "onto": "5S"},
        {"t": 2.25, "event": "play", "player": 1, "pile": 3, "card": "3D", "spit_pile": 0, "onto": "4D"},
        {"t": 3.0, "event": "reject", "player": 1, "press": "left", "reason": "not_adjacent"},
        {"t": 4.0, "event": "round_over", "round": 1, "reason": "stock_out", "player": 1},
        {"t": 4.5, "event": "slap", "player": 2, "spit_pile": 0, "size": 3},
    ]
    f = figures([from_json(e) for e in events])
    assert f[1].cards_played == 2 and f[2].cards_played == 1
    assert f[2].fastest_reaction_ms == 400.0
    assert f[1].fastest_reaction_ms == 250.0  # 2.25 after its own 2.0 play changed the pile
    assert f[2].races_won == 1 and f[1].races_lost == 1 and f[2].closest_race_ms == 50.0
    assert f[1].rejects == 2 and f[1].rounds_won == 1 and f[2].slaps == 1


def test_no_events_no_figures() -> None:
    f = figures([])
    assert f[1].cards_played == 0 and f[1].fastest_reaction_ms is None
