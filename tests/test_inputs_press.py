import dataclasses

import pytest

from appliance.inputs.press import ALL_CONTROLS, GAME_CONTROLS, Press
from appliance.rules import CONTROLS


def test_game_controls_are_the_rules_cores():
    assert set(GAME_CONTROLS) == set(CONTROLS)
    assert set(ALL_CONTROLS) == set(CONTROLS) | {"start", "service", "coin"}


def test_press_is_frozen_and_checked():
    press = Press(1, "pile3", True, 123, "gpio")
    with pytest.raises(dataclasses.FrozenInstanceError):
        press.t_ns = 5  # type: ignore[misc]
    with pytest.raises(ValueError, match="unknown control"):
        Press(1, "pile7", True, 0, "gpio")
    with pytest.raises(ValueError, match="unknown player"):
        Press(5, "left", True, 0, "gpio")
    assert Press(4, "far_left", True, 0, "serial").is_game_press  # seats 3 and 4 at a table of four


def test_game_press_is_a_pressed_edge_of_a_players_game_control():
    assert Press(2, "spit", True, 0, "k").is_game_press
    assert not Press(2, "spit", False, 0, "k").is_game_press
    assert not Press(0, "start", True, 0, "k").is_game_press
