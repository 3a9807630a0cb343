from __future__ import annotations

import pytest

from appliance.rules import Table


def test_two_players_face_each_other() -> None:
    two = Table(2)
    assert (two.spit_pile_for(1, "left"), two.spit_pile_for(1, "right")) == (0, 1)
    assert (two.spit_pile_for(2, "left"), two.spit_pile_for(2, "right")) == (1, 0)
    assert two.side_for(1, 0) == "left" and two.side_for(2, 0) == "right"
    assert two.spit_pile_for(1, "far_left") is None and two.spit_pile_for(2, "far_right") is None
    assert two.sides() == ("left", "right")


def test_each_player_starts_the_pile_on_their_own_left() -> None:
    for seats in (2, 3, 4):
        table = Table(seats)
        assert [table.starting_pile(p) for p in table.players] == list(range(seats))
        assert [table.spit_pile_for(p, "left") for p in table.players] == list(range(seats))


def test_seats_go_round_the_table() -> None:
    # The format: pile p-1 at p's left, pile p mod N at their right, far_left (p+N-2) mod N,
    # far_right (p+1) mod N.
    four = Table(4)
    assert [four.spit_pile_for(p, "right") for p in four.players] == [1, 2, 3, 0]
    assert [four.spit_pile_for(p, "far_left") for p in four.players] == [3, 0, 1, 2]
    assert [four.spit_pile_for(p, "far_right") for p in four.players] == [2, 3, 0, 1]
    three = Table(3)
    # With three seats both far controls name the one pile across.
    assert [three.spit_pile_for(p, "far_left") for p in three.players] == [2, 0, 1]
    assert [three.spit_pile_for(p, "far_right") for p in three.players] == [2, 0, 1]
    assert four.others(2) == [3, 4, 1]
    assert Table(2).others(1) == [2] and Table(2).others(2) == [1]


def test_a_table_seats_two_to_four() -> None:
    for seats in (1, 5):
        with pytest.raises(ValueError, match="seats must be 2 to 4"):
            Table(seats)
