"""The coin box: a coin is a credit (up to 99), a game takes its credits once, and the credits are
kept through restarts and power cuts; a file that is not ours reads as 0 credits, said, never raised."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from appliance.credits import MAX_CREDITS, CreditBank, credits_path


def bank_at(tmp_path: Path) -> CreditBank:
    return CreditBank.load(credits_path(tmp_path / "config.toml"))


def test_the_credits_are_kept_beside_the_settings_file() -> None:
    assert credits_path(Path("/var/lib/spit-arcade/config.toml")) == Path("/var/lib/spit-arcade/credits.json")


def test_a_coin_is_a_credit_kept_at_once_and_read_back_after_a_restart(tmp_path: Path) -> None:
    bank = bank_at(tmp_path)
    assert (bank.credits, bank.coins, bank.problem) == (0, 0, None)  # no file yet: nothing wrong
    assert bank.coin() and bank.coin() and bank.coin()
    again = bank_at(tmp_path)  # the cabinet restarted (or lost its power) after the third coin
    assert (again.credits, again.coins, again.box) == (3, 3, bank.box) and again.problem is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["credits.json"]  # no temporary file left


def test_a_game_takes_its_credits_once_and_none_when_there_are_too_few(tmp_path: Path) -> None:
    bank = bank_at(tmp_path)
    bank.coin()
    assert not bank.pay(2) and bank.credits == 1  # too few: nothing taken
    bank.coin()
    assert bank.pay(2) and bank.credits == 0
    assert not bank.pay(2) and bank.credits == 0
    assert bank_at(tmp_path).credits == 0 and bank_at(tmp_path).coins == 2  # the payment is kept too
    assert bank.pay(0)  # free play costs nothing


def test_credits_stop_at_99_but_every_coin_is_counted(tmp_path: Path) -> None:
    bank = bank_at(tmp_path)
    for _ in range(MAX_CREDITS):
        assert bank.coin()
    assert bank.full and not bank.coin()  # the money is in the box: counted, but no 100th credit
    assert (bank.credits, bank.coins) == (99, 100)
    path = credits_path(tmp_path / "config.toml")
    path.write_text(json.dumps({"credits": 500, "coins": 500, "box": "ab12"}))  # edited by hand
    assert bank_at(tmp_path).credits == 99


@pytest.mark.parametrize(
    "content",
    [
        b'{"credits": 7, "coins": 9, "bo',  # torn by a power cut (our writes can't be; a card can)
        b"\x00\xff\xfe binary junk",
        b"",
        b"[1, 2, 3]",
        b'{"credits": -3, "coins": 1, "box": "ab12"}',
        b'{"credits": true, "coins": 1, "box": "ab12"}',
        b'{"credits": 2.5, "coins": 1, "box": "ab12"}',
        b'{"credits": 2, "coins": "many", "box": "ab12"}',
        b'{"credits": 2, "coins": 3, "box": "../../etc"}',
        b'{"credits": 2, "coins": 3}',
        b"1e999999",
    ],
)
def test_a_file_that_is_not_ours_is_0_credits_and_says_so_never_raises(tmp_path: Path, content: bytes) -> None:
    path = credits_path(tmp_path / "config.toml")
    path.write_bytes(content)
    bank = CreditBank.load(path)
    assert (bank.credits, bank.coins) == (0, 0)
    assert bank.problem is not None and str(path) in bank.problem and "0 credits" in bank.problem
    assert bank.coin() and CreditBank.load(path).credits == 1  # and the next coin writes a good file


def test_a_directory_in_its_place_is_said_and_the_coins_count_for_this_run(tmp_path: Path) -> None:
    path = credits_path(tmp_path / "config.toml")
    path.mkdir()
    bank = CreditBank.load(path)
    assert bank.credits == 0 and bank.problem is not None and "cannot read" in bank.problem
    assert bank.coin() and bank.credits == 1  # a card that can't be written: the coin still counts
    assert bank.unsaved is not None


def test_a_write_cut_short_leaves_the_credits_before_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bank = bank_at(tmp_path)
    bank.coin()
    bank.coin()

    def power_cut(src: str, dst: str) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", power_cut)
    bank.coin()
    assert bank.unsaved == "[Errno 5] Input/output error" and bank.credits == 3  # held for this run
    monkeypatch.undo()
    assert bank_at(tmp_path).credits == 2  # the file before the cut, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["credits.json"]


def test_no_file_keeps_the_credits_for_this_run_only() -> None:
    bank = CreditBank.load(None)
    assert bank.coin() and bank.pay(1) and bank.credits == 0 and bank.unsaved is None


def test_each_new_box_has_a_name_of_its_own(tmp_path: Path) -> None:
    first, second = CreditBank.load(None), CreditBank.load(None)
    assert first.box != second.box and first.box.isalnum()
