"""What fits on a spit pile: the policies' `fits`, and the `fitting` sets the engine looks cards up in."""

from __future__ import annotations

import pytest

from appliance.rules import deck, ruleset
from appliance.rules.fits import AlternateColours, OneRankApart


@pytest.mark.parametrize("policy", [OneRankApart(), AlternateColours()], ids=["one-rank-apart", "alternate-colours"])
def test_fitting_is_every_card_that_fits_on_the_top(policy: OneRankApart) -> None:
    cards = deck(1) + deck(2)
    for top in cards:
        assert policy.fitting[top] == {card for card in cards if policy.fits(card, top)}, top


def test_each_policy_has_its_own_fitting_sets() -> None:
    plain, alternating = ruleset("classic").fits, ruleset("classic", {"alternate_colours": True}).fits
    assert "6S" in plain.fitting["5C"] and "6S" not in alternating.fitting["5C"]
    assert "6H" in alternating.fitting["5C"] and "6H2" in alternating.fitting["5C1"]
    assert plain == OneRankApart() and alternating == AlternateColours()  # the sets are not part of the rules
    assert hash(plain) == hash(OneRankApart())
