"""`make_bot` and the level table the display offers."""

import pytest

from appliance.bots import LEVELS, make_bot, parse_spec
from appliance.bots.strategy import STRATEGIES
from appliance.bots.timing import TIMINGS


def test_five_levels_and_a_baseline() -> None:
    assert list(LEVELS) == ["1", "2", "3", "4", "5"]
    for spec in [*LEVELS, "first"]:
        bot = make_bot(spec, 1, seed=0)
        assert bot.player == 1 and bot.spec == spec
    assert make_bot("5", 2, 0).strategy is STRATEGIES["5"] and make_bot("5", 2, 0).timing is TIMINGS[5]
    assert make_bot("first", 1, 0).timing is TIMINGS[3]


def test_strategy_at_timing() -> None:
    strategy, timing = parse_spec("5@3")
    assert strategy is STRATEGIES["5"] and timing is TIMINGS[3]
    assert parse_spec("first@5") == (STRATEGIES["first"], TIMINGS[5])


@pytest.mark.parametrize("spec", ["6", "0", "expert", "5@", "5@x", "5@9", ""])
def test_unknown_bots(spec: str) -> None:
    with pytest.raises(ValueError):
        make_bot(spec, 1, 0)


def test_seats() -> None:
    assert make_bot("3", 4, 0).player == 4  # a bigger table is the game's to say
    for player in (0, 5, True):
        with pytest.raises(ValueError, match="player"):
            make_bot("3", player, 0)
