"""The one store: a real SQLite file in tmp_path; a coin is one transaction, kept once; damaged
and newer files are kept, never overwritten; the release before's files are moved in once."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.operator import books
from appliance.operator.office import Office, record_adjustments
from appliance.operator.store import FILE, SCHEMA_VERSION, GameRow, Score, Stamp, Store, store_path

FIXTURES = Path(__file__).parent / "fixtures" / "release_files"


def stamp(seq: int, boot: int = 1, wall: float = 1_764_000_000.0) -> Stamp:
    return Stamp(boot, seq, seq * 1000, wall)


def test_a_coin_and_a_payment_are_kept_once_and_read_back_after_a_restart(tmp_path: Path) -> None:
    store = Store.open(tmp_path / FILE)
    assert store.problems == [] and not store.read_only
    assert store.add_coin(stamp(1), "gpio", True) and store.add_coin(stamp(2), "gpio", True)
    assert not store.add_coin(stamp(2), "gpio", True)  # the same coin written again: counted once
    assert store.spend(stamp(3), 2, "game")
    store.close()
    again = Store.open(tmp_path / FILE)
    assert again.credits()[0] == 0 and again.count("coins") == 2 and again.count("spends") == 1
    assert again.rows("PRAGMA journal_mode") == [("wal",)] and again.rows("PRAGMA synchronous") == [(2,)]  # FULL
    assert again.rows("PRAGMA user_version") == [(SCHEMA_VERSION,)]


def test_boots_count_up_whatever_the_wall_clock_says(tmp_path: Path) -> None:
    store = Store.open(tmp_path / FILE)
    assert [store.new_boot(), store.new_boot(), store.new_boot()] == [1, 2, 3]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["coin", "pay1", "pay2", "again"]), max_size=60))
def test_credits_are_coins_credited_less_credits_spent(tmp_path_factory: pytest.TempPathFactory,
                                                       ops: list[str]) -> None:
    store = Store.open(tmp_path_factory.mktemp("s") / FILE)
    credits = last_coin = 0
    for seq, op in enumerate(ops, start=1):
        if op == "coin":
            store.add_coin(stamp(seq), "gpio", credits < 99)
            credits, last_coin = min(99, credits + 1), seq
        elif op == "again" and last_coin:
            store.add_coin(stamp(last_coin), "gpio", True)  # the last coin written again: changes nothing
        elif op.startswith("pay") and credits >= int(op[-1]):
            store.spend(stamp(seq), int(op[-1]), "game")
            credits -= int(op[-1])
    assert store.credits()[0] == credits


def test_a_garbage_file_is_kept_aside_and_a_new_store_made(tmp_path: Path) -> None:
    path = tmp_path / FILE
    path.write_bytes(b"this is not a database at all" * 100)
    store = Store.open(path)
    assert (tmp_path / f"{FILE}.damaged-1").read_bytes().startswith(b"this is not")
    assert any("damaged" in p and f"{FILE}.damaged-1" in p for p in store.problems)
    assert store.add_coin(stamp(1), "gpio", True) and store.credits()[0] == 1
    store.close()
    path.write_bytes(b"junk again")
    Store.open(path)
    assert (tmp_path / f"{FILE}.damaged-2").read_bytes() == b"junk again"  # the first one is never overwritten
    assert (tmp_path / f"{FILE}.damaged-1").read_bytes().startswith(b"this is not")


def test_a_truncated_store_is_kept_aside_and_what_can_be_read_recovered(tmp_path: Path) -> None:
    path = tmp_path / FILE
    store = Store.open(path)
    for n in range(1, 200):
        store.add_coin(stamp(n), "gpio", n < 50)
    store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])  # a torn copy
    again = Store.open(path)
    assert any("damaged" in p for p in again.problems)
    assert (tmp_path / f"{FILE}.damaged-1").exists()
    assert again.count("coins") >= 0  # whatever was readable came in; the store works
    assert again.add_coin(stamp(1, boot=9), "gpio", True)


def test_an_older_schema_is_migrated_up(tmp_path: Path) -> None:
    path = tmp_path / FILE
    sqlite3.connect(path).close()  # an empty database: schema 0
    store = Store.open(path)
    assert store.rows("PRAGMA user_version") == [(SCHEMA_VERSION,)] and store.credits() == (0, 0.0)


def test_the_release_files_are_moved_in_once_nothing_lost_nothing_counted_twice(tmp_path: Path) -> None:
    for item in FIXTURES.iterdir():
        if item.is_dir():
            shutil.copytree(item, tmp_path / item.name)
        elif item.suffix == ".json":
            shutil.copy(item, tmp_path / item.name)
    config = tmp_path / "config.toml"
    office = Office.open(config)
    store = office.store
    assert office.credits == 17 and office.notices == []
    life, since = books.totals(store), books.totals(store, since_reset=True)
    # The audits had counted 20 of the box's 23 coins before the reset and 21 after: all 23 are counted now.
    assert (life.coins, since.coins) == (23, 3)
    assert (life.games, life.finished, life.abandoned, life.races, life.sprints) == (9, 8, 1, 16, 3)
    assert life.variants == {"classic": 5, "running": 1, "speed": 3} and since.variants == {"classic": 1}
    assert books.cleared(store) == "2026-11-01"
    assert [(s.initials, s.ms, s.team) for s in store.high_scores("sprint")] == [
        ("ANN", 3980.5, 1), ("BOB", 4210.0, 2), ("AT ", 5120.0, 1)]
    assert sorted(p.name for p in tmp_path.glob("*.moved-to-store")) == ["credits.json.moved-to-store",
                                                                          "high_scores.json.moved-to-store"]
    assert (tmp_path / "audits" / "audits.json.moved-to-store").exists()
    office.close()
    again = Office.open(config)  # the next start: nothing moved in again
    assert again.credits == 17 and books.totals(again.store).coins == 23 and books.totals(again.store).games == 9
    again.close()


def test_a_power_cut_between_the_move_and_the_renaming_counts_nothing_twice(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "credits.json", tmp_path / "credits.json")
    office = Office.open(tmp_path / "config.toml")
    office.close()
    shutil.copy(FIXTURES / "credits.json", tmp_path / "credits.json")  # as if the rename never happened
    again = Office.open(tmp_path / "config.toml")
    assert again.credits == 17 and books.totals(again.store).coins == 23
    again.close()


def test_a_damaged_release_file_is_kept_aside_and_said(tmp_path: Path) -> None:
    (tmp_path / "credits.json").write_text('{"credits": 7, "coi')
    shutil.copy(FIXTURES / "high_scores.json", tmp_path / "high_scores.json")
    office = Office.open(tmp_path / "config.toml")
    assert office.credits == 0 and any("credits.json.damaged-1" in n for n in office.notices)
    assert (tmp_path / "credits.json.damaged-1").read_text() == '{"credits": 7, "coi'
    assert len(office.store.high_scores("sprint")) == 3  # the readable one came in
    office.close()


def test_games_scores_and_adjustments_make_the_audits(tmp_path: Path) -> None:
    store = Store.open(tmp_path / FILE)
    store.add_game(stamp(1), GameRow("classic", 2, 61.0, 1, False, (12.0, 300.0), (), ((1, "spit"), (2, "left"))))
    store.add_game(stamp(2), GameRow("speed", 2, 30.0, None, True))
    store.add_coin(stamp(3), "gpio", True)
    store.reset_audits(stamp(4))
    store.add_game(stamp(5), GameRow("classic", 2, 10.0, 2, False, (5.0,)))
    store.add_score(stamp(6), Score("sprint", "ZED", 4000.0, 1))
    store.add_adjustment(stamp(7), "volume", 0.3, 0.5)
    life, since = books.totals(store), books.totals(store, since_reset=True)
    assert (life.games, life.abandoned, life.races, life.coins, life.play_s) == (3, 1, 3, 1, 101.0)
    assert (since.games, since.races, since.coins) == (1, 1, 0)
    found = books.report(store)
    assert found["adjustments"] == [{"key": "volume", "old": 0.3, "new": 0.5, "when": "2025-11-24"}]
    assert found["earnings_by_day"] == [{"day": "2025-11-24", "coins": 1, "credits_given": 1, "credits_spent": 0,
                                         "games": 3, "play_s": 101.0}]
    assert json.loads(json.dumps(found)) == found  # JSON as it is


def test_a_control_never_pressed_in_30_games_is_flagged(tmp_path: Path) -> None:
    store = Store.open(tmp_path / FILE)
    everything = tuple((p, c) for p in (1, 2) for c in ("left", "right", "spit"))
    store.add_game(stamp(1), GameRow("classic", 2, 60.0, 1, False, controls=everything))
    without = tuple(pc for pc in everything if pc != (2, "spit"))
    for n in range(2, 31):
        store.add_game(stamp(n), GameRow("classic", 2, 60.0, 1, False, controls=without))
    assert books.switch_health(store) == []  # 29 games: not yet
    store.add_game(stamp(31), GameRow("classic", 2, 60.0, 1, False, controls=without))
    assert [h["words"] for h in books.switch_health(store)] == [
        "player 2's SPIT button: not pressed in the last 30 games"]


def test_a_write_the_card_refuses_is_held_said_and_written_later_in_order(tmp_path: Path) -> None:
    office = Office.open(tmp_path / "config.toml")
    office.store.read_only = True  # as a full or read-only partition refuses every write
    assert office.coin("gpio") and office.coin("gpio") and office.pay(1)
    assert office.drain(10)
    assert office.credits == 1 and office.held == 3 and office.store.count("coins") == 0
    assert office.failure is not None and "held in memory" in office.notices[-1]
    office.store.read_only = False
    office.coin("gpio")  # the next write tries the held ones first, in order
    assert office.drain(10)
    assert office.held == 0 and office.failure is None and "written again" in office.notices[-1]
    assert office.store.credits()[0] == office.credits == 2 and office.store.count("coins") == 3
    office.close()


def test_a_coin_in_service_mode_is_no_credit_and_no_money(tmp_path: Path) -> None:
    office = Office.open(tmp_path / "config.toml")
    assert not office.coin("gpio", service=True)
    assert office.drain(10) and office.credits == 0 and office.store.count("coins") == 0
    office.close()


def test_credits_kept_while_off_expire_after_the_set_time_and_never_by_default(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    first = Office.open(config, wall=lambda: 1_764_000_000.0)
    first.coin("gpio")
    first.coin("gpio")
    first.close()
    kept = Office.open(config, wall=lambda: 1_764_000_000.0 + 30 * 86400)  # a month off, no limit set
    assert kept.credits == 2
    kept.close()
    short = Office.open(config, keep_credits_s=3600, wall=lambda: 1_764_000_000.0 + 7200)
    assert short.credits == 0 and any("expired" in n for n in short.notices)
    short.close()
    assert Office.open(config).credits == 0  # the expiry is written


def test_how_long_credits_survive_a_power_off_is_a_setting_checked_as_the_others(tmp_path: Path) -> None:
    from appliance.shared.settings import load_settings

    config = tmp_path / "config.toml"
    config.write_text("credits_kept_off_h = 12\n")
    assert load_settings(config).credits_kept_off_h == 12.0 and load_settings(config).warnings == []
    config.write_text("credits_kept_off_h = -1\n")
    found = load_settings(config)
    assert found.credits_kept_off_h == 0.0 and [str(w) for w in found.warnings] == [
        f"{config}: credits_kept_off_h: must be a number from 0 to 8760 hours, not -1; using 0"]


def test_a_start_on_a_full_card_writes_its_boot_before_its_coins_so_no_later_start_reuses_it(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    Office.open(config).close()  # boot 1
    real = Store.new_boot

    def full(self: Store, version: str = "") -> int:
        raise OSError("database or disk is full")

    Store.new_boot = full  # type: ignore[method-assign]
    try:
        office = Office.open(config)
    finally:
        Store.new_boot = real  # type: ignore[method-assign]
    assert office.boot == 2 and any("start could not be written" in n for n in office.notices)
    office.coin("gpio")
    assert office.drain(10) and office.held == 0
    office.close()
    later = Office.open(config)
    assert later.boot == 3  # never 2 again: its coin (boot 2, seq 1) would be taken for one already kept
    later.coin("gpio")
    assert later.drain(10) and later.store.count("coins") == 2 and later.credits == 2
    later.close()


def test_settings_set_while_a_game_holds_an_unwritten_start_never_takes_its_boot(tmp_path: Path) -> None:
    """The card full at the game's start: it holds boot 2 in memory. `spit-arcade settings set` (another
    process) writes meanwhile: it must not take boot 2, or the game's start and its adjustments at
    (2, seq) would be ignored as rows already kept once the card takes them."""
    config = tmp_path / "config.toml"
    Office.open(config).close()  # boot 1
    new_boot, add_boot = Store.new_boot, Store.add_boot
    full = {"start": True, "card": True}

    def first_full(self: Store, version: str = "", leave: int = 0) -> int:
        if full.pop("start", False):
            raise OSError("database or disk is full")
        return new_boot(self, version, leave)

    def while_full(self: Store, boot: int, version: str = "") -> bool:
        if full["card"]:
            raise OSError("database or disk is full")
        return add_boot(self, boot, version)

    Store.new_boot, Store.add_boot = first_full, while_full  # type: ignore[method-assign]
    try:
        game = Office.open(config, version="9.9")
        assert game.boot == 2 and game.drain(10) and game.held == 1  # its start held in memory
        assert record_adjustments(config, [("volume", 0.3, 0.5)], "settings set") is None
        full["card"] = False  # the card takes writes again: the game's start, then its adjustment
        game.record_adjustment("layout", "desktop", "tabletop")
        assert game.drain(10) and game.held == 0
    finally:
        Store.new_boot, Store.add_boot = new_boot, add_boot  # type: ignore[method-assign]
    game.close()
    store = Store.open(store_path(config))
    try:
        boots = store.rows("SELECT boot, version FROM boots ORDER BY boot")
        adjustments = store.rows("SELECT boot, seq, key FROM adjustments ORDER BY boot, seq")
    finally:
        store.close()
    assert [tuple(b) for b in boots] == [(1, ""), (2, "9.9"), (3, "settings set")]
    assert [tuple(a) for a in adjustments] == [(2, 1, "layout"), (3, 1, "volume")]
