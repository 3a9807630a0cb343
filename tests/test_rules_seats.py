from __future__ import annotations

from appliance.rules import side_for, spit_pile_for, starting_pile


def test_players_face_each_other() -> None:
    assert (spit_pile_for(1, "left"), spit_pile_for(1, "right")) == (0, 1)
    assert (spit_pile_for(2, "left"), spit_pile_for(2, "right")) == (1, 0)
    assert side_for(1, 0) == "left" and side_for(2, 0) == "right"


def test_each_player_starts_the_pile_on_their_own_left() -> None:
    assert starting_pile(1) == 0 and starting_pile(2) == 1
