"""'Spit card, please' (V13), our reading: the short player's reflex duel."""

from __future__ import annotations

from positions import kinds, position, presses

from appliance.rules import Game, game_from_state

OPTIONS = {"spit_card_please": True}


def duel() -> Game:
    """Player 1 plays out with one spit pile left; the new layout leaves player 1 short (7 cards)."""
    state = position(["5H", "", "", "", ""], ["9C", "QD", "", "", ""], spit=("", "4C"), p1_spit="2S 3S 4S 5S 6S 7S",
                     p2_spit="", rest="spit1", lone_pile=1, options=OPTIONS)
    game = game_from_state(state)
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "right"))
    assert kinds(events)[-2:] == ["deal", "spit_card_asked"]
    assert events[-1] == {"t": 1.1, "event": "spit_card_asked", "player": 1, "giver": 2}
    assert game.players[0].spit_cards == [] and game.please is not None
    return game


def test_the_short_player_who_slaps_the_turned_card_in_time_wins() -> None:
    game = duel()
    events = presses(game, (3.0, 2, "spit"), (3.35, 1, "slap"))
    assert kinds(events)[:2] == ["spit_card_turned", "spit_card_won"]
    assert events[1] == {"t": 3.35, "event": "spit_card_won", "player": 1, "by_ms": 350.0}
    assert game.phase == "over" and game.winner == 1


def test_too_slow_the_short_player_takes_the_other_players_spit_cards() -> None:
    game = duel()
    lender_had = len(game.players[1].spit_cards)
    events = presses(game, (3.0, 2, "spit"), (3.8, 1, "slap"))
    assert kinds(events) == ["spit_card_turned", "spit_card_lost", "reject"]  # the window closed at 3.6
    lost = events[1]
    assert lost["early"] is False
    assert lost["cards"] == lender_had - 1 == len(game.players[0].spit_cards)
    assert len(game.players[1].spit_cards) == 1  # the spit card goes back to the player who turned it
    assert game.phase == "ready" and game.please is None


def test_a_slap_before_the_card_is_turned_is_a_false_start() -> None:
    game = duel()
    events = presses(game, (2.0, 1, "slap"))
    assert events[-1]["event"] == "spit_card_lost" and events[-1]["early"] is True
    assert game.players[1].spit_cards and game.players[0].spit_cards


def test_the_card_is_turned_for_a_player_who_waits_too_long_and_the_window_closes_with_time() -> None:
    game = duel()
    turned = [e.to_json() for e in game.advance(11.2)]  # 10 s after the deal
    assert [e["event"] for e in turned] == ["spit_card_turned"] and turned[0]["t"] == 11.2
    lost = [e.to_json() for e in game.advance(12.0)]
    assert [e["event"] for e in lost] == ["spit_card_lost"]
