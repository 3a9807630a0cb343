"""The settings file: an adjustment changes the value set and keeps every other byte the operator
wrote (keys, comments, quotes, tables); a key it cannot change safely is named, never clobbered; a
damaged file is never overwritten, and its last good copy keeps a paid cabinet paid."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.shared.checks import Checker
from appliance.shared.config_file import (
    Change,
    adjust,
    good_copy_path,
    remember_game,
    with_values,
    write_settings,
)
from appliance.shared.settings import check_settings, load_settings

PAID = 'free_play = false\ncredits_per_game = 2\nlayout = "tabletop"\n'
MINE = '# my cabinet\nlayout = "tabletop"  # turned\nvolume = 0.3\n\n[keys]\nz = "1 pile1"\n'


def config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def assert_paid(path: Path, **more: Any) -> None:
    """The settings read back: still a paid cabinet on the tabletop layout (and `more`)."""
    s = load_settings(path)
    assert (s.free_play, s.credits_per_game, s.layout) == (False, 2, "tabletop"), s.warnings
    for name, value in more.items():
        assert getattr(s, name) == value, name


# ---------------------------------------------------------------- the four cases of issue 24


def test_a_quoted_key_is_that_key_set_where_it_is(tmp_path: Path) -> None:
    path = config(tmp_path, '# mine\n"volume" = 0.3\n' + PAID)
    assert write_settings(path, {"volume": 0.5}) is None
    assert path.read_text() == '# mine\n"volume" = 0.5\n' + PAID  # not a second `volume = 0.5`
    assert_paid(path, volume=0.5)
    assert load_settings(path).warnings == []


def test_a_dotted_key_is_not_overwritten_and_is_named_as_no_number(tmp_path: Path) -> None:
    text = "volume.x = 1\n" + PAID
    path = config(tmp_path, text)
    why = write_settings(path, {"volume": 0.5})
    assert why == "volume is a table in the file, not a number"
    assert path.read_text() == text  # nothing else to change: the file is left alone
    assert_paid(path, volume=0.6)
    assert [(p.key, p.message) for p in load_settings(path).warnings] == [
        ("volume", "must be a number from 0 to 1, not {'x': 1}; using 0.6")]  # check-config's words
    # with another value: that one is written, the table kept
    assert write_settings(path, {"volume": 0.5, "language": "de"}) == why
    assert path.read_text() == text + 'language = "de"\n'
    assert_paid(path, language="de")
    # a table written as one ([volume]) likewise, and an array of tables
    for table in ("[volume]\nx = 1\n", "[[volume]]\nx = 1\n"):
        path.write_text(PAID + table)
        assert write_settings(path, {"volume": 0.5, "attract": False}) == why
        written = path.read_text()
        assert written.startswith(PAID + "attract = false\n") and written.endswith(table)
        assert tomllib.loads(written)["volume"] == tomllib.loads(table)["volume"]


def test_a_multi_line_string_holding_a_setting_is_a_string(tmp_path: Path) -> None:
    text = 'motd = """\nvolume = 1\n"""\nvolume = 0.3\n' + PAID
    path = config(tmp_path, text)
    assert write_settings(path, {"volume": 0.8}) is None
    assert path.read_text() == text.replace("volume = 0.3", "volume = 0.8")
    assert tomllib.loads(path.read_text())["motd"] == "volume = 1\n"
    assert_paid(path, volume=0.8)


def test_a_comment_after_a_value_is_kept(tmp_path: Path) -> None:
    path = config(tmp_path, "volume=0.3 # loud\n" + PAID)
    assert write_settings(path, {"volume": 0.8}) is None
    assert path.read_text() == "volume=0.8 # loud\n" + PAID


# ---------------------------------------------------------------- more of what an operator writes


def test_a_new_setting_goes_after_the_others_before_the_tables(tmp_path: Path) -> None:
    path = config(tmp_path, MINE)
    assert write_settings(path, {"volume": 0.8, "language": "de"}) is None
    assert path.read_text().splitlines() == [
        "# my cabinet", 'layout = "tabletop"  # turned', "volume = 0.8", 'language = "de"', "",
        "[keys]", 'z = "1 pile1"',
    ]  # fmt: skip


def test_the_house_rules_table_is_changed_in_place_with_its_comments(tmp_path: Path) -> None:
    text = '# mine\ngame = "classic"\n\n[house_rules]  # tonight\nrefill = true  # kind\ndecks = 2\n\n'
    text += '[keys]\nz = "1 pile1"\n'
    path = config(tmp_path, text)
    assert remember_game(path, "mod-spit", {"refill": True, "table_slap": None}) is None
    assert path.read_text() == (
        '# mine\ngame = "mod-spit"\n\n[house_rules]  # tonight\nrefill = true  # kind\ntable_slap = "off"\n\n'
        '[keys]\nz = "1 pile1"\n'
    )
    s = load_settings(path)
    assert (s.game, s.house_rules, s.keys, s.warnings) == ("mod-spit", {"refill": True, "table_slap": None},
                                                          {"z": "1 pile1"}, [])
    # none: the table goes, the rest stays
    assert remember_game(path, "classic", {}) is None
    assert tomllib.loads(path.read_text()) == {"game": "classic", "keys": {"z": "1 pile1"}}
    assert path.read_text().startswith("# mine\n")
    # none before: a table is added last
    assert remember_game(path, "speed", {"decks": 2}) is None
    assert path.read_text().endswith('[keys]\nz = "1 pile1"\n\n[house_rules]\ndecks = 2\n')


@pytest.mark.parametrize(
    "text",
    [
        "house_rules = {refill = true, decks = 2}\nvolume = 0.1\n",  # an inline table
        "house_rules.refill = true\nhouse_rules.decks = 2\nvolume = 0.1\n",  # dotted keys
        "house_rules.refill = true\nvolume = 0.1\nhouse_rules.decks = 2\n[keys]\nz = \"1 pile1\"\n",  # out of order
    ],
)
def test_house_rules_written_any_way_toml_allows_are_changed(tmp_path: Path, text: str) -> None:
    path = config(tmp_path, text)
    before = tomllib.loads(text)
    assert remember_game(path, "four-piles", {"decks": 1, "choose": "shapp"}) is None
    after = tomllib.loads(path.read_text())
    assert after.pop("house_rules") == {"decks": 1, "choose": "shapp"}
    assert after.pop("game") == "four-piles"
    before.pop("house_rules")
    assert after == before  # every other key as it was


def test_house_rules_that_are_no_table_are_named_not_clobbered(tmp_path: Path) -> None:
    path = config(tmp_path, "house_rules = 3\n" + PAID)
    assert remember_game(path, "speed", {"decks": 2}) == "house_rules is 3 in the file, not a table"
    assert tomllib.loads(path.read_text())["house_rules"] == 3
    assert load_settings(path).game == "speed"  # what could be written was


def test_the_changes_say_what_the_file_had_and_what_it_has(tmp_path: Path) -> None:
    """What the operator's record of adjustments is made from (old: None where the file had none)."""
    path = config(tmp_path, 'volume = 0.3\ngame = "classic"\n[house_rules]\nrefill = true\n')
    done = adjust(path, {"volume": 0.5, "language": "eo", "game": "classic"}, {"decks": 2})
    assert done.error == "" and done.refused == []
    assert done.changes == [
        Change("volume", 0.3, 0.5), Change("language", None, "eo"),
        Change("house_rules.refill", True, None), Change("house_rules.decks", None, 2),
    ]  # fmt: skip
    assert adjust(path, {"volume": 0.5}).changes == []  # the same value again: nothing changed


def test_a_value_of_another_type_is_a_change(tmp_path: Path) -> None:
    path = config(tmp_path, 'volume = 1\nattract = 1\nlanguage = "de"\n')
    assert adjust(path, {"volume": 1.0, "attract": True}).changes == [Change("volume", 1, 1.0),
                                                                       Change("attract", 1, True)]
    assert tomllib.loads(path.read_text()) == {"volume": 1.0, "attract": True, "language": "de"}


def test_a_file_that_cannot_be_written_says_why(tmp_path: Path) -> None:
    assert write_settings(tmp_path, {"volume": 0.5}) is not None  # a directory
    assert remember_game(tmp_path, "classic", {}) is not None
    path = tmp_path / "config.toml"
    assert remember_game(path, "four-piles", {"choose": "shapp"}) is None
    assert tomllib.loads(path.read_text()) == {"game": "four-piles", "house_rules": {"choose": "shapp"}}


# ---------------------------------------------------------------- damaged files


def start(path: Path) -> None:
    """What `play` does at its start: read the settings, keeping the last good copy."""
    assert load_settings(path, keep_good_copy=True).warnings == []


@pytest.mark.parametrize("cut", [0, 10, 20, 31, -1])
def test_a_truncated_file_keeps_a_paid_cabinet_paid(tmp_path: Path, cut: int) -> None:
    text = 'volume = 0.3\nlanguage = "de"\n' + PAID
    path = config(tmp_path, text)
    start(path)
    assert good_copy_path(path).read_text() == text
    path.write_bytes(text.encode()[:cut])  # a power cut in the middle of an editor's save
    s = load_settings(path, keep_good_copy=True)
    assert (s.free_play, s.credits_per_game, s.layout, s.volume, s.language) == (False, 2, "tabletop", 0.3, "de")
    [notice] = s.warnings
    assert notice.key == "" and f"using its last good copy, {good_copy_path(path)}" in notice.message
    assert path.read_bytes() == text.encode()[:cut]  # read, never "repaired" behind the operator's back
    assert good_copy_path(path).read_text() == text  # and the copy is not replaced by the damaged file
    # the next adjustment keeps the damaged file aside and writes the copy back with the change
    done = adjust(path, {"volume": 0.9})
    assert done.aside == tmp_path / "config.toml.damaged" and done.aside.read_bytes() == text.encode()[:cut]
    assert path.read_text() == text.replace("0.3", "0.9") == good_copy_path(path).read_text()
    assert_paid(path, volume=0.9, language="de")
    assert load_settings(path).warnings == []


def test_a_file_that_ends_cleanly_is_the_operators_edit(tmp_path: Path) -> None:
    path = config(tmp_path, PAID + "volume = 0.3\n")
    start(path)
    path.write_text(PAID)  # a line deleted by hand, the file ending at the end of a line
    s = load_settings(path, keep_good_copy=True)
    assert (s.volume, s.warnings) == (0.6, [])
    assert good_copy_path(path).read_text() == PAID


@pytest.mark.parametrize("junk", [b"\x00\xff\xfe garbage", b"volume = [1, \n", b'"volume" = 0.3\nvolume = 0.5\n',
                                  b"<html>not toml</html>\n"])
def test_a_file_that_is_not_toml_is_never_overwritten(tmp_path: Path, junk: bytes) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(junk)
    s = load_settings(path)  # no last good copy: the built-in settings, and why
    assert s.free_play and [p.key for p in s.warnings] == [""]
    assert "using the built-in settings" in s.warnings[0].message
    done = adjust(path, {"free_play": False})
    assert done.error == "" and done.aside is not None and done.aside.read_bytes() == junk
    assert path.read_text() == "free_play = false\n"
    # a second damaged file goes beside the first, never over it
    path.write_bytes(junk + b"again")
    assert adjust(path, {"free_play": False}).aside == tmp_path / "config.toml.damaged-2"
    assert (tmp_path / "config.toml.damaged").read_bytes() == junk
    assert not load_settings(path).free_play


def test_an_unreadable_file_is_read_from_its_copy(tmp_path: Path) -> None:
    path = config(tmp_path, PAID)
    start(path)
    path.unlink()
    path.mkdir()  # anything open() cannot read as the file
    assert_paid(path)
    assert write_settings(path, {"volume": 0.5}) is not None  # a directory cannot be replaced: says why


def test_no_copy_is_kept_unless_play_asks(tmp_path: Path) -> None:
    path = config(tmp_path, PAID)
    load_settings(path)  # check-config, the settings command: read only
    assert not good_copy_path(path).exists()


# ---------------------------------------------------------------- what is written reads back


adjustments = st.fixed_dictionaries(
    {},
    optional={
        "volume": st.sampled_from([0.0, 0.4, 1.0]),
        "language": st.sampled_from(["en", "de", "eo"]),
        "computer_level": st.sampled_from(["1", "3", "5"]),
        "attract": st.booleans(),
        "free_play": st.booleans(),
        "credits_per_game": st.integers(min_value=1, max_value=9),
        "idle_timeout_s": st.sampled_from([30.0, 90.0, 600.0]),
        "game": st.sampled_from(["classic", "speed", "mod-spit", "running"]),
    },
)
house_rules = st.fixed_dictionaries(
    {},
    optional={
        "table_slap": st.sampled_from([None, "mod7", "rule_deck"]),
        "choose": st.sampled_from(["slap", "shapp", "first_call"]),
        "refill": st.booleans(),
        "stock_piles": st.sampled_from([[1, 2, 3, 4], [1, 2, 3, 4, 5]]),
    },
)
files = st.sampled_from([
    MINE,
    '"volume" = 0.3 # quoted\nlayout = "tabletop"\n[keys]\nz = "1 pile1"\n',
    'layout = "tabletop"\n[keys]\nz = "1 pile1"\n[house_rules] # kept\nrefill = true\n',
    'layout = "tabletop"\nhouse_rules = {decks = 2}\nkeys = {z = "1 pile1"}\n',
])  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(mine=files, first=adjustments, then=adjustments, rules=st.one_of(st.none(), house_rules))
def test_what_is_written_reads_back_and_the_rest_is_kept(
    mine: str, first: dict[str, Any], then: dict[str, Any], rules: dict[str, Any] | None
) -> None:
    text = with_values(with_values(mine, first).text, then, rules).text
    check = Checker("config.toml")
    read = check_settings(tomllib.loads(text), check)
    assert check.problems == []
    for name, value in {**first, **then}.items():
        assert getattr(read, name) == value
    assert (read.layout, read.keys) == ("tabletop", {"z": "1 pile1"})
    assert text.startswith(mine.split("\n")[0].replace("0.3", str(then.get("volume", first.get("volume", 0.3)))))
    if rules is not None:
        assert read.house_rules == rules
