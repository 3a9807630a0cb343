"""The attract mode's two computer players."""

from appliance.bots import demo_bots
from appliance.bots.demo import DEMO_PAIRINGS
from appliance.bots.simulate import play_game


def test_a_demo_seats_two_strong_players_and_varies_with_the_seed() -> None:
    pairings = set()
    for seed in range(40):
        one, two = demo_bots(seed)
        assert (one.player, two.player) == (1, 2)
        assert (one.spec, two.spec) in DEMO_PAIRINGS
        assert demo_bots(seed)[0].spec == one.spec  # the same seed, the same demo
        pairings.add((one.spec, two.spec))
    assert len(pairings) > 2


def test_a_demo_game_ends() -> None:
    one, two = demo_bots(8)
    result = play_game((one.spec, two.spec), 8, bots=(one, two))
    assert result.winner in (1, 2) and not result.stuck
