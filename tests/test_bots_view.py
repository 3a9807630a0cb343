"""The visible view: what a player at the table sees, and nothing hidden."""

from positions import game_at

from appliance.bots.view import EMPTY, FACE_DOWN, can_play, fits, playable_count, visible_view


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
    assert mine.mine == (5, 9, FACE_DOWN, EMPTY, 9)
    assert mine.my_sizes == (1, 2, 2, 0, 4)
    assert mine.theirs == (13, 12, 11, FACE_DOWN, 10)
    assert mine.spit == (8, 1)
    assert mine.spit_sizes == (1, 1)
    assert mine.my_spit_cards == 2
    assert mine.their_spit_cards == len(game.players[1].spit_cards) == 52 - 9 - 6 - 2 - 2
    assert mine.selected == 2 and mine.lone_pile == -1
    theirs = visible_view(game, 2)
    assert theirs.mine == mine.theirs and theirs.theirs == mine.mine
    assert theirs.spit == mine.spit  # spit piles are indexed the same for both; seats map sides
    assert theirs.selected == 0


def test_hidden_cards_do_not_show() -> None:
    p1, p2 = table()
    a = game_at(p1, p2, spit=("8C", "AD"), p1_spit="4C 4H KD", rest="p2_spit")
    # The same table with different face-down cards and the spit cards in another order.
    p1b = ["5H", "2D 9D", "3C 4C |", "", "6S 7S 8S 9H"]
    b = game_at(p1b, p2, spit=("8C", "AD"), p1_spit="KD 4H 4D", rest="p2_spit")
    assert visible_view(a, 1) == visible_view(b, 1)
    assert visible_view(a, 2) == visible_view(b, 2)


def test_a_change_anyone_could_see_changes_the_view() -> None:
    p1, p2 = table()
    game = game_at(p1, p2, spit=("8C", "AD"), p1_spit="4C 4H", rest="p2_spit")
    before = visible_view(game, 2)
    game.press(0.5, 1, "pile3")  # player 1 turns a card: player 2 sees it
    assert visible_view(game, 2) != before
    assert visible_view(game, 2).theirs[2] == 4


def test_ranks_fit_one_up_or_down_wrapping() -> None:
    assert fits(1, 13) and fits(13, 1) and fits(1, 2) and fits(7, 8) and fits(8, 7)
    assert not fits(7, 7) and not fits(7, 9)
    assert not fits(5, 0) and not fits(0, 5) and not fits(EMPTY, 5)  # no pile, face down, empty


def test_counting_plays() -> None:
    assert can_play((5, FACE_DOWN, EMPTY), (6, 1))
    assert not can_play((9, FACE_DOWN), (6, 1))
    assert playable_count((5, 7, 2), (6, 1)) == 3  # 5 and 7 on the 6, 2 on the ace
