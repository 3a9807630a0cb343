"""The visible view: what a player at the table sees, and nothing hidden."""

from collections import Counter
from typing import Any

import pytest
from positions import game_at, position

from appliance.bots import opponent
from appliance.bots import view as view_module
from appliance.bots.simulate import play_game
from appliance.bots.view import EMPTY, FACE_DOWN, OWN_FIELDS, View, face_up, is_card, seen_after, visible_view
from appliance.rules import Game, game_from_state, new_game


def table() -> tuple[list[str], list[str]]:
    p1 = ["5H", "2C 9D", "3S 4S |", "", "6D 7D 8D 9H"]
    p2 = ["KH", "QC", "JD", "2H 3H |", "TS"]
    return p1, p2


def test_each_player_sees_their_own_piles_and_the_others() -> None:
    p1, p2 = table()
    game = game_at(p1, p2, spit=("8C", "AD"), p1_spit="4C 4H", rest="p2_spit")
    game.players[0].selected = 2
    mine = visible_view(game, 1)
    assert mine.player == 1 and mine.phase == "playing" and mine.round == 1
    assert mine.mine == ("5H", "9D", FACE_DOWN, EMPTY, "9H")
    assert mine.my_sizes == (1, 2, 2, 0, 4)
    assert face_up(mine) == [("5H",), ("9D",), (), (), ("9H",)]
    assert mine.others == (2,)
    assert mine.theirs == (("KH", "QC", "JD", FACE_DOWN, "TS"),)
    assert mine.their_sizes == ((1, 1, 1, 2, 1),)
    assert mine.spit == ("8C", "AD")
    assert mine.spit_sizes == (len(game.spit_piles[0]), 1)
    assert mine.my_spit_cards == 2
    assert mine.their_spit_cards == (len(game.players[1].spit_cards),) == (52 - 9 - 6 - 2 - 2,)
    assert mine.held == (2,) and mine.lone_pile == -1 and mine.chooser == 0 and not mine.hidden
    theirs = visible_view(game, 2)
    assert theirs.mine == mine.theirs[0] and theirs.theirs == (mine.mine,)
    assert theirs.spit == mine.spit  # spit piles are indexed the same for both; the table maps sides
    assert theirs.held == ()


def test_hidden_cards_do_not_show() -> None:
    p1, p2 = table()
    a = game_at(p1, p2, spit=("8C", "AD"), p1_spit="4C 4H KD", rest="p2_spit")
    # The same table with different face-down cards and the spit cards in another order.
    p1b = ["5H", "2D 9D", "3C 4C |", "", "6S 7S 8S 9H"]
    b = game_at(p1b, p2, spit=("8C", "AD"), p1_spit="KD 4H 4D", rest="p2_spit")
    assert visible_view(a, 1) == visible_view(b, 1)
    assert visible_view(a, 2) == visible_view(b, 2)


def hidden_last(p1: list[str], p2: list[str], **kw: Any) -> Game:
    """A position of a game with hidden last cards (V9), player 2's picked up."""
    state = position(p1, p2, **kw)
    state["options"] = {"hidden_last": True}
    state["players"][1]["hidden"] = True
    return game_from_state(state)


def test_cards_picked_up_show_face_down_to_the_others_but_not_to_their_owner() -> None:
    p1 = ["5H", "2C 9D", "KS", "KD", "9H"]
    a = hidden_last(p1, ["7H", "", "QC", "JD", ""], spit=("8C", "AD"), rest="p1_spit")
    b = hidden_last(p1, ["4S", "", "2D", "6D", ""], spit=("8C", "AD"), rest="p1_spit")
    seen = visible_view(a, 1)
    assert seen.theirs == ((FACE_DOWN, EMPTY, FACE_DOWN, FACE_DOWN, EMPTY),)
    assert seen.their_sizes == ((1, 0, 1, 1, 0),)  # where they lie, and how many, is still seen
    assert visible_view(a, 1) == visible_view(b, 1)  # which cards they are is not
    own = visible_view(a, 2)
    assert own.hidden and own.mine == ("7H", EMPTY, "QC", "JD", EMPTY)  # played from memory


def test_a_change_anyone_could_see_changes_the_view() -> None:
    p1, p2 = table()
    game = game_at(p1, p2, spit=("8C", "AD"), p1_spit="4C 4H", rest="p2_spit")
    before = visible_view(game, 2)
    game.press(0.5, 1, "pile3")  # player 1 turns a card: player 2 sees it
    assert visible_view(game, 2) != before
    assert visible_view(game, 2).theirs[0][2] == "4S"
    mine, theirs = visible_view(game, 1), visible_view(game, 2)
    game.press(0.6, 1, "pile3")  # player 1 picks it up: player 2 sees no change, player 1 does
    assert visible_view(game, 2) == theirs and visible_view(game, 1) != mine


def test_two_decks_show_cards_without_their_deck() -> None:
    game, _ = new_game("two-decks", seed=4)
    view = visible_view(game, 1)
    assert all(len(card) == 2 for card in view.mine) and len(view.mine) == 6
    assert view.mine == tuple(pile.cards[-1][:2] for pile in game.players[0].stock)


def test_stacked_face_up_cards_are_seen_by_their_owner() -> None:
    state = position(["7S", "7H", "KH", "KS", "2C 9D"], ["QH", "QS", "QD", "3S", "JC"], spit=("5C", "JD"))
    state["options"] = {"same_rank_stacking": True}
    game = game_from_state(state)
    game.press(0.2, 1, "pile1")
    game.press(0.4, 1, "pile2")  # 7S stacked onto 7H
    view = visible_view(game, 1)
    assert view.mine[:2] == (EMPTY, "7S") and view.my_stacked == ((2, ("7H", "7S")),)
    assert face_up(view)[:2] == [(), ("7H", "7S")]


def test_the_bots_own_fields_are_the_ones_that_decide_what_it_may_do() -> None:
    assert View._fields[OWN_FIELDS] == (
        "phase", "round", "mine", "my_sizes", "my_stacked", "spit", "spit_sizes", "my_spit_cards",
        "their_spit_cards", "called", "they_called", "lone_pile", "chooser", "hidden", "out", "to_take",
        "table_slaps", "table_chooser", "carried")


def test_cards_and_codes() -> None:
    assert is_card("5H") and not is_card(FACE_DOWN) and not is_card(EMPTY)


def test_whether_a_table_slap_would_be_right_is_in_sight() -> None:
    p1, p2 = ["5H", "KH", "8S", "7S", "9D"], ["2H", "2S", "3H", "3S", "KC"]
    right = game_at(p1, p2, spit=("3C", "4D"), variant="mod-spit")
    assert visible_view(right, 1).slap_right and visible_view(right, 2).slap_right
    assert not visible_view(game_at(p1, p2, spit=("AC", "KD"), variant="mod-spit"), 1).slap_right
    assert not visible_view(game_at(p1, p2, spit=("3C", "4D")), 1).slap_right  # no table slap in classic


def test_a_view_without_the_others_stock_piles() -> None:
    p1, p2 = table()
    game = game_at(p1, p2, spit=("8C", "AD"), p1_spit="4C 4H", rest="p2_spit")
    full, short = visible_view(game, 1), visible_view(game, 1, others_stock=False)
    assert short.theirs == () and short.their_sizes == () and full.theirs != ()
    assert short._replace(theirs=full.theirs, their_sizes=full.their_sizes) == full
    game.press(0.5, 2, "pile5")  # player 2 picks up a card: player 1 sees nothing change either way
    game.press(0.6, 2, "pile5")
    assert visible_view(game, 1, others_stock=False) == short
    game.press(0.7, 2, "pile4")  # player 2 turns a card: only a view with their piles shows it
    assert visible_view(game, 1, others_stock=False) == short and visible_view(game, 1) != full


def test_a_view_brought_up_to_date_knows_where_its_fields_are() -> None:
    fields = View._fields
    assert fields[view_module._MINE:view_module._MINE + 3] == ("mine", "my_sizes", "my_stacked")
    assert fields[view_module._SPIT:view_module._SPIT + 2] == ("spit", "spit_sizes")
    assert fields[view_module._HELD] == "held" and fields[view_module._SLAP_RIGHT] == "slap_right"
    assert fields[view_module._THEIRS:view_module._THEIRS + 2] == ("theirs", "their_sizes")


@pytest.mark.parametrize(("variant", "options", "specs"), [
    ("classic", None, ("5", "1")),
    ("two-decks", None, ("4", "5")),
    ("eleven-middle", None, ("5", "3")),
    ("mod-spit", None, ("5", "2")),
    ("refill", None, ("1", "5")),
    ("classic", {"seats": 4}, ("5", "1", "first", "3")),
    ("classic", {"same_rank_stacking": True, "two_hands": True, "hidden_last": True}, ("5", "2")),
    ("four-piles", {"alternate_colours": True, "seats": 3}, ("4", "5", "1")),
])
def test_a_view_brought_up_to_date_after_a_press_is_the_view_looked_at_afresh(
        monkeypatch: pytest.MonkeyPatch, variant: str, options: dict[str, Any] | None,
        specs: tuple[str, ...]) -> None:
    """The simulator tells the bots what a press changed (`seen_after`): whatever it brings up to
    date, the view is the one `visible_view` builds looking at everything."""
    brought: Counter[tuple[bool, bool, bool]] = Counter()

    def checked(view: View, game: Game, presser: int, piles: tuple[int, ...], spit: bool) -> View:
        seen = seen_after(view, game, presser, piles, spit)
        assert seen == visible_view(game, view.player, others_stock=bool(view.their_sizes))
        brought[presser == view.player, bool(piles), spit] += 1
        return seen

    monkeypatch.setattr(opponent, "seen_after", checked)
    for seed in range(3):
        play_game(specs, seed, variant=variant, options=options)
    assert brought[True, False, False] and brought[True, True, True] and brought[False, True, True], brought
