"""The store across versions: a newer version's store (made here by applying an extra migration, as
the newer version would) opened by this version after a rollback. Coins still counted, none twice,
the newer file never changed; settings and journals of a newer version read as far as they can be."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.operator import store as store_module
from appliance.operator.office import Office
from appliance.operator.store import FILE, MIGRATIONS, SCHEMA_VERSION, Migration, Stamp, Store

NEWER = SCHEMA_VERSION + 1
ADDITIVE = Migration(additive=True, sql="""
    ALTER TABLE coins ADD COLUMN value_cents INTEGER NOT NULL DEFAULT 100;
    CREATE TABLE tokens (id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, seq INTEGER NOT NULL, UNIQUE (boot, seq))
""")
# Not additive: the games table rebuilt with a column the older version's inserts do not name.
REBUILT = Migration(additive=False, sql="""
    CREATE TABLE games_v2 (id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, seq INTEGER NOT NULL,
                           mono_ns INTEGER NOT NULL, wall REAL NOT NULL, variant TEXT NOT NULL,
                           seats INTEGER NOT NULL, length_s REAL NOT NULL, winner INTEGER,
                           abandoned INTEGER NOT NULL, margins TEXT NOT NULL, sprints TEXT NOT NULL,
                           controls TEXT NOT NULL, seed INTEGER, table_name TEXT NOT NULL, UNIQUE (boot, seq));
    INSERT INTO games_v2 SELECT *, 'bar' FROM games;
    DROP TABLE games;
    ALTER TABLE games_v2 RENAME TO games
""")
# Not additive, and a table more: the games rebuilt as above, and tokens, which the older version does not know.
REBUILT_AND_TOKENS = Migration(additive=False, sql=REBUILT.sql + """;
    CREATE TABLE tokens (id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, seq INTEGER NOT NULL, value INTEGER NOT NULL,
                         UNIQUE (boot, seq))
""")
# Not additive, and breaking the rule for such migrations: coins renamed out of this version's sight.
LAWLESS = Migration(additive=False, sql="ALTER TABLE coins RENAME TO coin_rows")


def stamp(seq: int, boot: int) -> Stamp:
    return Stamp(boot, seq, seq * 1000, 1_764_000_000.0 + seq)


@pytest.fixture
def newer(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """`as_newer(migration)`: a context in which this code is the newer version (one migration more)."""
    def as_newer(migration: Migration) -> pytest.MonkeyPatch:
        patch = pytest.MonkeyPatch()
        patch.setattr(store_module, "MIGRATIONS", (*MIGRATIONS, migration))
        patch.setattr(store_module, "SCHEMA_VERSION", NEWER)
        return patch

    yield as_newer


def older_books_then_newer(path: Path, newer: object, migration: Migration) -> None:
    """Books written by this version (boot 1: 3 coins, a game paid), then updated to the newer one
    (boot 2: 4 coins, a payment), as the cabinet would have them before the rollback."""
    store = Store.open(path)
    store.new_boot()
    for seq in (1, 2, 3):
        store.add_coin(stamp(seq, 1), "gpio", True)
    store.spend(stamp(4, 1), 1, "game")
    store.close()
    patch = newer(migration)  # type: ignore[operator]
    try:
        updated = Store.open(path)
        assert updated.problems == [] and updated.rows("PRAGMA user_version") == [(NEWER,)]
        updated.new_boot()
        for seq in (1, 2, 3, 4):
            updated.add_coin(stamp(seq, 2), "gpio", True)
        updated.spend(stamp(5, 2), 2, "game")
        assert updated.credits()[0] == 4
        updated.close()
    finally:
        patch.undo()


def test_this_version_writes_its_own_schema_and_who_may_write_it(tmp_path: Path) -> None:
    store = Store.open(tmp_path / FILE)
    assert store.get_meta("writable_from") == "1" and not list(tmp_path.glob("*.before-v*"))


def test_after_an_additive_migration_the_older_version_writes_the_newer_store_in_place(tmp_path: Path,
                                                                                       newer: object) -> None:
    path = tmp_path / FILE
    older_books_then_newer(path, newer, ADDITIVE)
    assert not list(tmp_path.glob("*.before-v*"))  # additive: no copy needed
    office = Office.open(tmp_path / "config.toml")  # the rollback: this version again
    assert office.notices == [] and not office.store.read_only and office.credits == 4
    office.coin("gpio")
    assert office.drain(10) and office.held == 0
    office.close()
    again = Store.open(path)
    assert again.rows("PRAGMA user_version") == [(NEWER,)]  # still the newer schema, for the newer version
    assert again.count("coins") == 8 and again.credits()[0] == 5
    assert again.rows("SELECT value_cents FROM coins WHERE boot = 3") == [(100,)]  # the new column's default
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(f"{FILE}.")] == []  # no copy, nothing aside


def test_a_migration_that_is_not_additive_raises_the_bar_and_keeps_a_copy_before_it(tmp_path: Path,
                                                                                    newer: object) -> None:
    path = tmp_path / FILE
    older_books_then_newer(path, newer, REBUILT)
    copy = tmp_path / f"{FILE}.before-v{NEWER}"
    kept = sqlite3.connect(copy)
    assert kept.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert kept.execute("SELECT COUNT(*) FROM coins").fetchone()[0] == 3  # as it was before the update
    kept.close()
    newer_store = sqlite3.connect(path)
    assert newer_store.execute("SELECT value FROM meta WHERE key = 'writable_from'").fetchone() == (str(NEWER),)
    newer_store.close()


@pytest.mark.parametrize("copy_kept", [True, False], ids=["copy-kept", "slot-marked-good-copy-gone"])
def test_after_a_rollback_past_a_migration_that_is_not_additive_every_coin_is_still_counted(
        tmp_path: Path, newer: object, copy_kept: bool) -> None:
    path = tmp_path / FILE
    older_books_then_newer(path, newer, REBUILT)
    if not copy_kept:
        (tmp_path / f"{FILE}.before-v{NEWER}").unlink()
    newer_bytes = path.read_bytes()
    office = Office.open(tmp_path / "config.toml")  # the older slot, booted after the rollback
    assert not office.store.read_only
    assert office.credits == 4  # 3 - 1 + 4 - 2, as the newer version left them
    said = " ".join(office.notices)
    assert f"kept as {FILE}.newer-v{NEWER}" in said and ("4 coins" if copy_kept else "7 coins") in said
    assert (f"{FILE}.before-v{NEWER}" in said) == copy_kept
    assert office.boot == 3  # after the newer version's boot 2: no stamp used twice
    office.coin("gpio")
    assert office.drain(10) and office.held == 0
    office.close()
    aside = tmp_path / f"{FILE}.newer-v{NEWER}"
    assert aside.read_bytes() == newer_bytes  # set aside, never changed
    again = Store.open(path)
    assert again.problems == [] and again.rows("PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert again.count("coins") == 8 and again.count("spends") == 2 and again.credits()[0] == 5
    assert sorted(again.rows("SELECT boot, seq FROM coins")) == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3),
                                                                 (2, 4), (3, 1)]
    again.close()


def test_a_power_cut_between_the_renamings_of_a_rollback_is_finished_at_the_next_start(tmp_path: Path,
                                                                                       newer: object) -> None:
    path = tmp_path / FILE
    older_books_then_newer(path, newer, REBUILT)
    built = tmp_path / f"{FILE}.rolled-back"
    store_module._build_for_this_version(path, built)
    path.replace(tmp_path / f"{FILE}.newer-v{NEWER}")  # the newer set aside, and then the power went
    store = Store.open(path)
    assert store.count("coins") == 7 and store.credits()[0] == 4 and not built.exists()


def test_the_newer_version_run_again_after_a_rollback_merges_back_what_the_older_could_not_keep(
        tmp_path: Path, newer: object) -> None:
    """Updated, rolled back, updated again: the tokens and the games' new column the newer version had
    written before the rollback are back (from its store set aside), nothing counted twice, and the
    older version's books since are kept; merged again after a power cut, it comes to the same."""
    path = tmp_path / FILE
    older_books_then_newer(path, newer, REBUILT_AND_TOKENS)
    written = sqlite3.connect(path)  # what only the newer version knows, written at its boot 2
    written.execute("INSERT INTO tokens (boot, seq, value) VALUES (2, 10, 5), (2, 11, 7)")
    written.execute("INSERT INTO games (boot, seq, mono_ns, wall, variant, seats, length_s, winner, abandoned, margins,"
                    " sprints, controls, seed, table_name) VALUES (2, 12, 0, 0, 'spit', 2, 60, 1, 0, '[]', '[]', '[]',"
                    " 7, 'corner')")  # fmt: skip
    written.commit()
    written.close()
    older = Store.open(path)  # the rollback: this version builds its own store, the newer one set aside
    assert older.rows("SELECT name FROM sqlite_master WHERE name = 'tokens'") == [] and older.count("games") == 1
    older.add_coin(stamp(1, older.new_boot()), "gpio", True)
    older.close()
    patch = newer(REBUILT_AND_TOKENS)  # type: ignore[operator]
    try:
        again = Store.open(path)  # the update installed once more
        assert again.problems == []
        assert again.merged == {f"{FILE}.newer-v{NEWER}": {
            "adjustments": 0, "audit_resets": 0, "coins": 0, "games": 1, "high_scores": 0, "rollbacks": 0,
            "spends": 0, "tokens": 2, "updates": 0}}  # fmt: skip
        assert again.rows("SELECT boot, seq, value FROM tokens ORDER BY seq") == [(2, 10, 5), (2, 11, 7)]
        assert again.rows("SELECT table_name FROM games WHERE boot = 2 AND seq = 12") == [("corner",)]
        assert again.count("coins") == 8 and again.count("spends") == 2 and again.credits()[0] == 5
        again.close()
        assert not (tmp_path / f"{FILE}.newer-v{NEWER}").exists()
        merged = tmp_path / f"{FILE}.newer-v{NEWER}.merged"
        (tmp_path / f"{FILE}.newer-v{NEWER}").write_bytes(merged.read_bytes())  # as if the power went before the rename
        once_more = Store.open(path)
        assert once_more.problems == [] and set(once_more.merged[f"{FILE}.newer-v{NEWER}"].values()) == {0}
        assert once_more.rows("SELECT COUNT(*) FROM tokens") == [(2,)] and once_more.count("games") == 1
        assert once_more.rows("SELECT table_name FROM games WHERE seq = 12") == [("corner",)]
        assert once_more.count("coins") == 8 and once_more.credits()[0] == 5
        once_more.close()
    finally:
        patch.undo()


def test_a_newer_store_whose_coins_this_version_cannot_read_is_read_and_coins_held_said(tmp_path: Path,
                                                                                       newer: object) -> None:
    path = tmp_path / FILE
    Store.open(path).close()
    patch = newer(LAWLESS)  # type: ignore[operator]
    try:
        Store.open(path).close()
    finally:
        patch.undo()
    before = path.read_bytes()
    office = Office.open(tmp_path / "config.toml")
    assert office.store.read_only
    assert any("coins cannot be read by this version" in n and "held in memory" in n for n in office.notices)
    assert office.coin("gpio") and office.credits == 1  # the player still gets the credit
    assert office.drain(10) and office.held >= 1 and office.failure is not None
    office.close()
    assert path.read_bytes() == before and not (tmp_path / f"{FILE}.rolled-back").exists()


def test_a_newer_store_that_does_not_say_who_may_write_it_is_not_written_in_place(tmp_path: Path) -> None:
    path = tmp_path / FILE
    store = Store.open(path)
    store.add_coin(stamp(1, 1), "gpio", True)
    store.connection.execute("DELETE FROM meta WHERE key = 'writable_from'")
    store.connection.execute(f"PRAGMA user_version = {NEWER}")
    store.close()
    before = path.read_bytes()
    again = Store.open(path)
    assert again.count("coins") == 1 and again.credits()[0] == 1 and not again.read_only
    assert (tmp_path / f"{FILE}.newer-v{NEWER}").read_bytes() == before


def test_settings_written_by_a_newer_version_keep_every_other_setting_and_their_bytes(tmp_path: Path) -> None:
    from appliance.shared.settings import load_settings

    config = tmp_path / "config.toml"
    text = "free_play = false\ncredits_per_game = 2\nnewer_setting = 7  # a key this version does not know\n"
    config.write_text(text)
    found = load_settings(config)
    assert (found.free_play, found.credits_per_game) == (False, 2)  # a paid cabinet stays paid
    assert [str(w) for w in found.warnings] == [
        f"{config}: newer_setting: unknown setting (known: layout, volume, assist, four_colour, journal_dir, "
        "idle_timeout_s, kiosk, keys, game, house_rules, language, computer_level, attract, free_play, "
        "credits_per_game, credits_kept_off_h, limit_rounds, limit_minutes, link); ignored"]
    office = Office.open(config)
    assert office.adjust({"credits_per_game": 3}) is None
    office.close()
    assert config.read_text() == text.replace("credits_per_game = 2", "credits_per_game = 3")
