"""Three and four seats (V17), from explicit positions and seeded deals."""

from __future__ import annotations

from typing import Any

import pytest
from positions import kinds, pile

from appliance.rules import Game, OptionError, deck, game_from_state, new_game, read_options


def table(stocks: list[list[str]], spit: list[str], spit_cards: list[str], phase: str = "playing",
          out: dict[int, int] | None = None, **extra: Any) -> Game:
    """A position at a table of len(stocks) seats; every card not placed goes under spit pile 0."""
    seats = len(stocks)
    piles = [[pile(text) for text in stock] for stock in stocks]
    spit_piles = [text.split() for text in spit]
    cards = [text.split() for text in spit_cards]
    used = {c for s in piles for p in s for c in p["cards"]} | {c for p in spit_piles for c in p} | {
        c for s in cards for c in s}
    spit_piles[0] = [c for c in deck() if c not in used] + spit_piles[0]
    state: dict[str, Any] = {
        "variant": "classic", "options": {"seats": seats, "stock_piles": [1] * len(stocks[0])}, "phase": phase,
        "round": 1, "winner": None,
        "spit_piles": spit_piles,
        "players": [{"stock": piles[i], "spit_cards": cards[i], "selected": None} for i in range(seats)],
    }
    for player, place in (out or {}).items():
        state["players"][player - 1]["out"] = place
    state.update(extra)
    return game_from_state(state)


def run(game: Game, *steps: tuple[float, int, str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for t, player, control in steps:
        out += [e.to_json() for e in game.press(t, player, control)]
    return out


def rejects(events: list[dict[str, Any]]) -> list[str]:
    return [e["reason"] for e in events if e["event"] == "reject"]


def test_one_deck_round_the_table_one_stock_pile_fewer_per_extra_player() -> None:
    """000: "jeder Spieler mit einem weniger Handstapel anfängt. Das arbeitet mit einem Deck, bis 4
    Spieler spielen und jeder Spieler 3 Handstapel hat": three seats 1-2-3-4, four seats 1-2-3."""
    game, events = new_game("classic", 4, {"seats": 3})
    assert events[0].to_json()["players"] == [{"stock": 10, "spit_cards": 8}] + [{"stock": 10, "spit_cards": 7}] * 2
    assert [[len(s.cards) for s in p.stock] for p in game.players] == [[1, 2, 3, 4]] * 3
    # 52 cards one at a time round three seats: 18, 17, 17.
    assert [p.stock_count() + len(p.spit_cards) for p in game.players] == [18, 17, 17]
    assert len(game.spit_piles) == 3 and sorted(game.all_cards()) == sorted(deck())
    four, _ = new_game("classic", 4, {"seats": 4})
    assert [[len(s.cards) for s in p.stock] for p in four.players] == [[1, 2, 3]] * 4
    assert [len(p.spit_cards) for p in four.players] == [7, 7, 7, 7]
    assert read_options("classic", {"seats": 4, "decks": 2}).cards_each == 26
    assert read_options("four-piles", {"seats": 3}).stock_piles == (1, 2, 3, 4)  # a given layout stays


def test_each_player_starts_the_pile_on_their_left_and_reaches_the_far_ones() -> None:
    game, _ = new_game("classic", 4, {"seats": 4})
    run(game, *[(0.1 * n, n, "spit") for n in (1, 2, 3, 4)])
    assert all(len(p) == 1 for p in game.spit_piles)
    game = table([["4H", "", ""], ["9C", "KS", ""], ["2S", "JD", ""], ["8C", "QD", ""]],
                 ["4D", "TC", "3C", "7S"], ["2D", "3D", "4C", "5C"])
    # Player 1's far_right is pile 2; player 2's far_right is pile 3 and far_left pile (2+4-2) mod 4 = 0.
    events = run(game, (1.0, 2, "pile1"), (1.1, 2, "far_right"), (1.2, 1, "pile1"), (1.3, 1, "far_right"))
    assert [(e["player"], e["card"], e["spit_pile"]) for e in events if e["event"] == "play"] == [(1, "4H", 2)]
    assert [(e["reason"], e["spit_pile"]) for e in events if e["event"] == "reject"] == [("not_adjacent", 3)]
    events = run(game, (1.4, 2, "far_left"))
    assert [(e["reason"], e["onto"]) for e in events if e["event"] == "reject"] == [("not_adjacent", "4D")]


def three_seats() -> Game:
    # Player 1 is down to the 5H, which fits the 4D on pile 0. Everybody holds spit cards.
    return table([["5H", "", ""], ["9C", "KS", ""], ["2S", "JD", "6S"]], ["4D", "TC JH", "3C 8H 7H"],
                 ["2D", "3D", "4C"])


def test_the_first_out_takes_a_pile_and_sits_out_while_the_others_play_on() -> None:
    game = three_seats()
    events = run(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert kinds(events) == ["select", "play", "out"] and events[-1] == {"t": 1.1, "event": "out", "player": 1,
                                                                           "place": 1}
    assert game.phase == "playing" and game.state()["choosers_out"] == [1] and game.round_end.may_choose_now(game, 1)
    assert rejects(run(game, (1.2, 1, "pile1"), (1.3, 1, "spit"))) == ["sitting_out", "sitting_out"]
    events = run(game, (1.4, 1, "right"))  # player 1's right: pile 1, two cards
    assert events == [{"t": 1.4, "event": "take", "player": 1, "spit_pile": 1, "cards": 2}]
    assert game.players[0].taken == ["TC", "JH"] and game.spit_piles[1] == []
    assert rejects(run(game, (1.5, 1, "left"))) == ["sitting_out"]  # one pile only
    assert kinds(run(game, (1.6, 3, "pile3"), (1.7, 3, "right")))[:2] == ["select", "play"]  # the 6S on the 5H
    assert game.state()["players"][0]["out"] == 1 and game.state()["choosers_out"] == []


def test_when_all_but_one_are_out_the_last_takes_the_piles_left_and_a_new_round_is_dealt() -> None:
    game = table([["5H", "", ""], ["7C", "", ""], ["2S", "JD", "QC"]], ["4D", "8D JH", "3C 7H 8H"],
                 ["2D", "3D", "4C"])
    run(game, (1.0, 1, "pile1"), (1.1, 1, "left"), (1.2, 1, "right"))  # 1 out, takes pile 1
    events = run(game, (1.3, 2, "pile1"), (1.4, 2, "right"))  # player 2 plays the 7C on the 8H (pile 2)
    assert kinds(events)[:4] == ["select", "play", "out", "round_over"]
    # Player 2 never chose: the smallest pile left goes to them, the rest to player 3.
    takes = [(e["player"], e["spit_pile"]) for e in events if e["event"] == "take"]
    assert takes == [(2, 2), (3, 0)] and kinds(events)[-1] == "deal"  # pile 0 holds the rest of the deck
    assert game.round == 2 and game.phase == "ready" and all(p.playing for p in game.players)
    assert sorted(game.all_cards()) == sorted(deck())


def test_a_player_too_short_for_a_spit_pile_who_goes_out_first_wins_the_game() -> None:
    game = table([["5H", "", ""], ["9C", "KS", ""], ["2S", "JD", "6S"]], ["4D", "TC JH", "3C 8H 7H"],
                 ["", "3D", "4C"])
    events = run(game, (1.0, 1, "pile1"), (1.1, 1, "left"))
    assert kinds(events)[-1] == "game_over" and events[-1]["winner"] == 1
    assert game.players[0].all_cards() == [] and sorted(game.all_cards()) == sorted(deck())


def test_a_stalemate_is_among_the_players_still_in() -> None:
    # Player 1 is out (has chosen); players 2 and 3 can't move: they call and turn their spit cards.
    game = table([["", "", ""], ["9C", "KS", ""], ["2S", "JD", ""]], ["4D", "", "6C"], ["2D 5D", "3D", "4C"],
                 out={1: 1})
    assert kinds(game.settle(0.0)) == ["stalemate"] and game.spitters() == [2, 3]
    events = run(game, (1.0, 2, "spit"), (1.1, 3, "spit"))
    assert [(e["player"], e["spit_pile"]) for e in events if e["event"] == "reveal"] == [(2, 1), (3, 2)]


@pytest.mark.parametrize(("options", "words"), [
    ({"seats": 5}, "option 'seats' must be 2, 3 or 4"),
    ({"seats": 3, "choose": "shapp"}, "option 'choose' is for two seats"),
    ({"seats": 4, "goal": "all"}, "option 'goal' is for two seats"),
    ({"seats": 3, "stock_piles": [5, 5, 5, 5]}, "needs 20 cards, but each player is dealt 17"),
])
def test_bad_seat_options_are_named(options: dict[str, Any], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        read_options("classic", options)
    with pytest.raises(OptionError, match="is for two seats"):
        read_options("mod-spit", {"seats": 3})
