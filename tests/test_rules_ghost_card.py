"""The ghost card (V14), from explicit positions."""

from __future__ import annotations

from typing import Any

from positions import ghost_of, kinds, position, presses, race_of

from appliance.rules import Game, game_from_state

OPTIONS = {"ghost_card": True}


def game(**kwargs: Any) -> Game:
    return game_from_state(position(options=OPTIONS, **kwargs))


def test_when_spit_cards_run_out_the_opponent_lays_a_ghost_card_never_turned() -> None:
    g = game(p1=["9C", "QD", "KD", "", ""], p2=["JS", "2D", "", "", ""], spit=("4C", "6D"), p1_spit="7H",
             p2_spit="8S 3C", phase="stalemate")
    events = presses(g, (1.0, 1, "spit"), (1.1, 2, "spit"))
    assert kinds(events) == ["call", "call", "reveal", "reveal", "ghost_laid"]
    laid = next(e for e in events if e["event"] == "ghost_laid")
    assert laid == {"t": 1.1, "event": "ghost_laid", "player": 1, "giver": 2}
    assert "card" not in laid  # never turned: the screen does not show it
    assert g.state()["ghost"]["card"] == "3C" and g.players[1].spit_cards == []


def ghost_race(p1_spit: str = "") -> Game:
    # Player 1 is about to play out; a ghost card (the 3C, laid by player 2) lies beside them.
    state = position(["5H", "", "", "", ""], ["9C", "QD", "KD", "", ""], spit=("4C", "JD TC"), p1_spit=p1_spit,
                     p2_spit="6D 7D", options=OPTIONS)
    state["ghost"] = {"card": "3C", "beside": 1, "giver": 2, "race": None}
    state["spit_piles"][0].remove("3C")
    return game_from_state(state)


def test_the_player_who_plays_out_and_takes_the_ghost_card_first_wins() -> None:
    g = ghost_race()
    events = presses(g, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert kinds(events)[-1] == "round_over" and g.phase == "choosing" and race_of(g) == (1.1, 1)
    assert [e["reason"] for e in presses(g, (1.2, 2, "left")) if e["event"] == "reject"] == ["ghost_first"]
    events = presses(g, (1.25, 1, "slap"), (1.26, 2, "slap"))
    assert events[0] == {"t": 1.25, "event": "ghost_taken", "player": 1, "by_ms": 150.0, "wins": True}
    assert kinds(events)[-2] == "game_over" and g.winner == 1
    assert [e["reason"] for e in events if e["event"] == "reject"] == ["game_over"]
    assert g.players[0].all_cards() == [] and "3C" in g.players[1].all_cards()  # they win holding nothing


def test_a_player_who_plays_out_holding_spit_cards_has_cards_to_play_and_no_race_begins() -> None:
    """000: "sobald ein Spieler an Karte knapp wird, um zu spielen": only one out of cards races."""
    g = ghost_race(p1_spit="8H")
    events = presses(g, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert race_of(g) is None and g.phase == "choosing" and "round_over" in kinds(events)


def test_the_other_player_taking_it_first_keeps_it_and_the_round_ends_as_usual() -> None:
    g = ghost_race()
    events = presses(g, (1.0, 1, "pile1"), (1.1, 1, "left"), (1.2, 2, "slap"), (1.21, 1, "slap"))
    taken = [e for e in events if e["event"] == "ghost_taken"]
    assert taken == [{"t": 1.2, "event": "ghost_taken", "player": 2, "by_ms": 100.0, "wins": False}]
    assert g.phase == "choosing" and ghost_of(g) is None and g.players[1].spit_cards[-1] == "3C"
    assert [e["reason"] for e in events if e["event"] == "reject"] == ["wrong_phase"]  # the race is over
    assert kinds(presses(g, (1.5, 1, "left")))[0] == "slap"


def test_nobody_in_time_the_ghost_card_goes_home_when_the_window_closes() -> None:
    g = ghost_race()
    presses(g, (1.0, 1, "pile1"), (1.1, 1, "left"))
    events = g.advance(2.2)
    assert [e.to_json() for e in events] == [{"t": 2.2, "event": "ghost_taken", "player": None, "by_ms": None,
                                              "wins": False}]
    assert g.players[1].spit_cards[-1] == "3C" and g.phase == "choosing"


def test_each_end_of_the_race_is_said_as_data_who_took_it_and_by_how_much() -> None:
    """The rule says its verdict (the screen has the words): the winner, the other player who took it
    (naming who played out), or nobody (naming whom it goes back to); and who may still be late."""
    from appliance.rules.house_rule import Verdict

    cases = [((1.25, 1, "slap"),), ((1.2, 2, "slap"),), ()]
    said = []
    for slaps in cases:
        g = ghost_race()
        presses(g, (1.0, 1, "pile1"), (1.1, 1, "left"))
        events = [e for t, player, control in slaps for e in g.press(t, player, control)] + g.advance(2.2)
        taken = [e for e in events if e.kind == "ghost_taken"]
        assert len(taken) == 1 and all(g.verdict(e) is None for e in events if e.kind != "ghost_taken")
        said.append(g.verdict(taken[0]))
    assert said == [Verdict("ghost_won", 1, ms=150.0, late=(2,), good=True),
                    Verdict("ghost_taken", 2, 1, 100.0, late=(1,)),
                    Verdict("ghost_home", other=2)]
