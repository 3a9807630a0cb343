"""What the operator's view keeps of each cabinet, fed messages directly (no broker): the cabinet's
order (boot, seq), never its wall clock; duplicates dropped; strangers counted."""

from __future__ import annotations

import datetime as dt

from appliance.venue.messages import Message
from appliance.venue.view import Venue

NOW = dt.datetime(2026, 11, 25, 12, 0, tzinfo=dt.UTC).timestamp()  # that day in every time zone but +12..14


def audits(seq: int, sent: str, coins: int, day: str = "2026-11-25") -> Message:
    return Message("table-2", 3, seq, "audits", sent, {"day": day, "today": {"coins": coins, "games": 1},
                                                      "lifetime": {"coins": 100 + coins}})


def test_a_cabinet_whose_clock_is_hours_off_keeps_its_order_and_is_shown_off():
    venue = Venue(clock=lambda: NOW)
    venue.receive("spit/venue/table-2/audits", audits(1, "2026-11-25T07:00:00Z", 4).encode())  # 5 h behind
    venue.receive("spit/venue/table-2/audits", audits(2, "2026-11-25T06:00:00Z", 6).encode())  # clock set back
    venue.receive("spit/venue/table-2/audits", audits(1, "2026-11-25T23:00:00Z", 4).encode())  # sent again
    (seen,) = venue.state()["cabinets"]
    assert seen["coins_lifetime"] == 106 and seen["clock_off_s"] == -6 * 3600
    assert venue.duplicates == 1


def test_this_week_adds_the_cabinets_last_seven_days():
    venue = Venue(clock=lambda: NOW)
    for seq, (day, coins) in enumerate((("2026-11-17", 50), ("2026-11-19", 7), ("2026-11-24", 5),
                                        ("2026-11-25", 2)), start=1):
        venue.receive("spit/venue/table-2/audits", audits(seq, "2026-11-25T21:00:00Z", coins, day).encode())
    state = venue.state()
    (seen,) = state["cabinets"]
    assert state["today"] == "2026-11-25"
    assert (seen["coins_today"], seen["coins_week"]) == (2, 14)  # not the 50 of eight days before


def test_strangers_are_counted_not_shown(capsys):
    venue = Venue(clock=lambda: NOW)
    assert venue.receive("spit/venue/table-2/audits", b"{junk") is None
    assert venue.receive("spit/venue/table-2/audits", b" " * 70000) is None
    assert venue.receive("spit/venue/table-9/audits", audits(1, "x", 1).encode()) is None
    assert venue.state()["cabinets"] == [] and venue.refused == {"foreign": 1, "malformed": 1, "oversized": 1}
    assert "spit-arcade venue: refused a message (malformed" in capsys.readouterr().out  # said once a minute


def test_two_cabinets_sending_under_one_name_are_shown_as_a_fault():
    venue = Venue(clock=lambda: NOW)
    for boot, seq in ((3, 1), (4, 1), (3, 2), (4, 2)):
        message = Message("table-2", boot, seq, "health", "2026-11-25T21:00:00Z", {"version": "0.1.0"})
        venue.receive(message.topic, message.encode())
    (seen,) = venue.state()["cabinets"]
    assert seen["faults"] == ["two cabinets send as table-2"]


def test_the_last_update_or_rollback_comes_with_the_heartbeat_and_the_best_reaction_with_the_board():
    venue = Venue(clock=lambda: NOW)
    beats = [{"version": "0.1.0"},
             {"version": "0.2.0", "last_update": {"kind": "update", "from": "0.1.0", "to": "0.2.0",
                                                  "outcome": "installed", "detail": "", "wall": NOW - 60}},
             {"version": "0.1.0", "last_update": {"kind": "rollback", "from": "0.2.0", "to": "0.1.0",
                                                  "reason": "x" * 500, "wall": "not a time"}},
             {"version": "0.1.0", "last_update": {"kind": "format the disk", "from": "0.1.0"}}]
    seen = []
    for seq, body in enumerate(beats, start=1):
        venue.receive("spit/venue/table-2/health", Message("table-2", 1, seq, "health", "2026-11-25T12:00:00Z",
                                                           body).encode())
        seen.append(venue.state()["cabinets"][0]["last_update"])
    assert seen[0] is None and seen[1]["to"] == "0.2.0" and seen[1]["wall"] == NOW - 60
    assert (seen[2]["kind"], len(seen[2]["reason"]), seen[2]["wall"]) == ("rollback", 200, 0.0)
    assert seen[3] is None  # not an update nor a rollback: not shown
    board = Message("table-2", 1, 9, "board", "2026-11-25T12:00:00Z", {
        "fastest_sprints": [], "fastest_reactions": [{"initials": "QIK", "reaction_ms": 190.0, "date": ""}]})
    venue.receive(board.topic, board.encode())
    assert venue.state()["cabinets"][0]["best_reaction"]["reaction_ms"] == 190.0
