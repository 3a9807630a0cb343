"""'Spit card, please' (V13), as the seed says: the short player borrows a spit card and, once they
play out, must slap it in time to win; failing that they take the whole spit pile."""

from __future__ import annotations

from typing import Any

from positions import kinds, lent_of, position, press, presses

from appliance.rules import Game, deck, game_from_state

OPTIONS = {"spit_card_please": True}


def lent(since: float | None = None, phase: str = "playing") -> Game:
    """Player 1 is short (one stock card, no spit cards) and holds player 2's KD; one spit pile, 4C on top."""
    state = position(["5H", "", "", "", ""], ["9C", "QD", "", "", ""], spit=("", "4C"), p2_spit="JS QS",
                     rest="spit1", lone_pile=1, options=OPTIONS, phase=phase,
                     please={"player": 1, "giver": 2, "card": "KD", "since": since})
    state["spit_piles"][1].remove("KD")
    return game_from_state(state)


def played_out() -> Game:
    game = lent()
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "right"))
    assert kinds(events)[-1] == "round_over" and game.phase == "choosing"
    assert lent_of(game) == (1, 2, "KD", 1.1) and game.deadline() == 3.1
    return game


def test_a_layout_that_leaves_a_player_short_lends_them_a_spit_card_and_nothing_else_happens() -> None:
    """000: "bitten sie oder nehmen eine Spieß-Karte … vom anderen Spieler"."""
    state = position(["5H", "", "", "", ""], ["9C", "QD", "", "", ""], spit=("", "4C"), p1_spit="2S 3S 4S 5S 6S 7S",
                     p2_spit="", rest="spit1", lone_pile=1, options=OPTIONS)
    game = game_from_state(state)
    events = presses(game, (1.0, 1, "pile1"), (1.1, 1, "right"))
    assert kinds(events)[-2:] == ["deal", "spit_card_lent"]
    assert events[-1] == {"t": 1.1, "event": "spit_card_lent", "player": 1, "giver": 2}
    assert game.phase == "ready" and game.winner is None and game.players[0].spit_cards == []
    assert lent_of(game) is not None and lent_of(game)[:2] == (1, 2) and lent_of(game)[3] is None
    assert game.deadline() is None  # no window: play goes on as in rules 9-10
    assert sorted(game.all_cards()) == sorted(deck())
    assert game.state()["please"] == {"player": 1, "giver": 2, "card": lent_of(game)[2], "since": None}


def test_a_slap_before_playing_out_counts_for_nothing() -> None:
    game = lent()
    assert [e["reason"] for e in press(game, 0.5, 1, "slap")] == ["wrong_phase"]
    assert [e["reason"] for e in press(game, 0.6, 2, "slap")] == ["wrong_phase"]
    assert lent_of(game) == (1, 2, "KD", None) and game.phase == "playing"


def test_the_short_player_who_plays_out_and_slaps_the_card_in_time_wins_holding_nothing() -> None:
    """000: "Sie müssen dann die Spieß-Karte zuschlagen, um [zu gewinnen]"."""
    game = played_out()
    assert game.legal_actions(1) == game.legal_actions(2) != []
    events = press(game, 1.45, 1, "slap")
    assert events[0] == {"t": 1.45, "event": "spit_card_won", "player": 1, "by_ms": 350.0}
    assert kinds(events)[-1] == "game_over" and game.winner == 1
    assert game.players[0].all_cards() == [] and "KD" in game.players[1].all_cards()
    assert sorted(game.all_cards()) == sorted(deck())


def test_the_lender_slapping_first_hands_the_short_player_the_whole_spit_pile() -> None:
    """000: "Wenn der gewinnende Spieler scheitert, die Spieß-Karte rechtzeitig zuzuschlagen, dann
    bekommen sie den ganzen Spieß-Stapel, und der andere Spieler bekommt die Spieß-Karte"."""
    game = played_out()
    pile = len(game.spit_piles[1])
    events = press(game, 1.3, 2, "slap")
    assert events[0] == {"t": 1.3, "event": "spit_card_lost", "player": 1, "giver": 2, "cards": pile,
                         "slapper": 2, "by_ms": 200.0}
    assert "deal" in kinds(events) and game.phase == "ready" and game.winner is None
    assert len(game.players[0].all_cards()) == pile - 1
    # Player 2 is left with five cards: short in their turn, they borrow one of player 1's.
    assert kinds(events)[-1] == "spit_card_lent" and lent_of(game) is not None and lent_of(game)[:2] == (2, 1)
    assert "KD" in game.players[1].all_cards() and sorted(game.all_cards()) == sorted(deck())
    assert [e["reason"] for e in press(game, 1.4, 1, "slap")] == ["wrong_phase"]  # too late: it is gone


def test_nobody_slapping_in_time_is_a_loss_for_the_short_player_decided_by_time_alone() -> None:
    game = played_out()
    assert game.advance(3.1) == []  # the window is still open at its last instant
    pile = len(game.spit_piles[1])
    events = [e.to_json() for e in game.advance(3.2)]
    assert events[0] == {"t": 3.2, "event": "spit_card_lost", "player": 1, "giver": 2, "cards": pile}
    assert game.phase == "ready" and "KD" in game.players[1].all_cards()


def test_while_the_card_is_slapped_for_nothing_else_is_pressed() -> None:
    game = played_out()
    for player, control in ((1, "left"), (2, "spit"), (2, "pile1")):
        assert [e["reason"] for e in press(game, 1.2, player, control)] == ["card_first"]
    assert lent_of(game) is not None and lent_of(game)[3] == 1.1


def test_when_the_lender_plays_out_first_the_short_player_picks_up_and_keeps_the_card() -> None:
    state = position(["5H", "KH", "", "", ""], ["JS", "", "", "", ""], spit=("", "TC"), p2_spit="",
                     rest="spit1", lone_pile=1, options=OPTIONS,
                     please={"player": 1, "giver": 2, "card": "KD", "since": None})
    state["spit_piles"][1].remove("KD")
    game = game_from_state(state)
    events = presses(game, (1.0, 2, "pile1"), (1.1, 2, "left"))  # player 2's left is spit pile 1
    assert [e["player"] for e in events if e["event"] == "take"] == [1]
    assert kinds(events)[-1] == "game_over" and game.winner == 2  # the lender, holding none, wins (rule 10)
    assert game.players[1].all_cards() == [] and "KD" in game.players[0].all_cards()
    assert sorted(game.all_cards()) == sorted(deck())


def test_a_lent_card_round_trips_through_the_state_object() -> None:
    game = played_out()
    state: dict[str, Any] = game.state()
    assert state["please"] == {"player": 1, "giver": 2, "card": "KD", "since": 1.1}
    again = game_from_state(state)
    assert again.state() == state and again.deadline() == game.deadline()


def test_the_card_goes_back_to_whichever_seat_lent_it() -> None:
    """Seats the other way round: player 2 is short and holds player 1's card; they win, player 1 has it."""
    state = position(["9C", "QD", "", "", ""], ["5H", "", "", "", ""], spit=("4C", ""), p1_spit="JS QS",
                     rest="spit0", lone_pile=0, options=OPTIONS,
                     please={"player": 2, "giver": 1, "card": "KD", "since": None})
    state["spit_piles"][0].remove("KD")
    game = game_from_state(state)
    presses(game, (1.0, 2, "pile1"), (1.1, 2, "right"), (1.3, 2, "slap"))  # player 2's right is spit pile 0
    assert game.winner == 2 and game.players[1].all_cards() == [] and "KD" in game.players[0].all_cards()


def test_each_verdict_is_said_as_data_who_slapped_by_how_much_and_the_cards_taken() -> None:
    """The rule says its verdict (the screen has the words): won in time, the lender first, or nobody
    within the window; and who may still slap late."""
    from appliance.rules.house_rule import Verdict

    won, first, slow = played_out(), played_out(), played_out()
    pile = len(first.spit_piles[1])
    verdicts = [won.verdict(press_events(won, 1.45, 1)), first.verdict(press_events(first, 1.3, 2)),
                slow.verdict(slow.advance(3.2)[0])]
    assert verdicts == [Verdict("lent_won", 1, ms=350.0, late=(2,), good=True),
                        Verdict("lent_slapped_first", 1, 2, 200.0, pile, late=(1,)),
                        Verdict("lent_too_slow", 1, ms=2000.0, cards=pile)]


def press_events(game: Game, t: float, player: int) -> Any:
    return game.press(t, player, "slap")[0]
