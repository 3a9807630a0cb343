"""The virtual cabinet's books step, the parts that run without QEMU: which coins a power cut must
find in the store, and what makes the books wrong (lab/cabinet/books.py)."""

from __future__ import annotations

from lab.cabinet.books import COIN_LINE, COINS, SETTLE_S, Books, coin_ends, coins_due, exact, late


def test_only_coins_that_ended_their_pulse_in_time_are_due() -> None:
    assert coins_due(0.5) == 0  # cut before any coin could have been written
    assert coins_due(SETTLE_S + 0.06) == 1  # the first pulse ends at 60 ms
    assert coins_due(SETTLE_S + 0.059) == 0
    assert coins_due(SETTLE_S + 0.361) == 2  # one every 300 ms
    assert coins_due(1000.0) == COINS


def test_exact_books_say_nothing() -> None:
    before = {"credits": 3, "credited": 5, "spent": 2, "coins": 5}
    after = {"credits": 8, "credited": 10, "spent": 2, "coins": 10}
    assert exact(before, after, sent=5, due=5) == []  # every coin sent, each once


def test_credits_that_disagree_with_coins_and_games_are_wrong() -> None:
    before = {"credits": 0, "credited": 0, "spent": 0, "coins": 0}
    after = {"credits": 6, "credited": 6, "spent": 1, "coins": 6}  # a game's spend written, its credit not taken
    assert exact(before, after, sent=25, due=6) == ["credits 6 but coins gave 6 and games took 1"]


def test_a_coin_counted_twice_and_a_coin_lost_are_each_said() -> None:
    before = {"credits": 0, "credited": 0, "spent": 0, "coins": 0}
    twice = {"credits": 26, "credited": 26, "spent": 0, "coins": 26}
    assert exact(before, twice, sent=25, due=25) == ["26 coins in the store of 25 sent: counted twice"]
    lost = {"credits": 3, "credited": 3, "spent": 0, "coins": 3}
    assert exact(before, lost, sent=25, due=4) == [
        f"3 coins in the store, 4 had ended {SETTLE_S} s before the cut: lost"
    ]


def test_with_presses_between_the_coins_each_coin_ends_where_its_pulse_does() -> None:
    steps = Books.steps(3, [[4, 60, 0], [17, 60, 0]])  # a coin, a press, a coin, a press, a coin, a press
    assert [line for line, _, _ in steps] == [COIN_LINE, 4, COIN_LINE, 17, COIN_LINE, 4]
    assert coin_ends(steps) == [0.06, 0.36, 0.66]  # still one every 300 ms
    assert coins_due(SETTLE_S + 0.37, steps) == 2


def test_with_the_store_read_before_the_cut_only_a_committed_coin_missing_after_is_lost() -> None:
    before = {"credits": 0, "credited": 0, "spent": 0, "coins": 0}
    committed = {"credits": 3, "credited": 3, "spent": 0, "coins": 3}
    after = {"credits": 3, "credited": 3, "spent": 0, "coins": 3}
    assert exact(before, after, sent=25, due=5, committed=committed) == []  # 2 late, none lost
    assert late(before, after, due=5) == 2
    fewer = {"credits": 2, "credited": 2, "spent": 0, "coins": 2}
    assert exact(before, fewer, sent=25, due=1, committed=committed) == [
        "2 coins in the store, 3 were committed before the cut: lost"
    ]
    assert late(before, fewer, due=1) == 0
