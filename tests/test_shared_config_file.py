"""The settings file's one rewriter: what it sets reads back as set, everything else is kept line for
line, and a file it cannot write is a reason returned, never a crash."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.shared.checks import Checker
from appliance.shared.config_file import remember_game, toml_value, with_values, write_settings
from appliance.shared.settings import check_settings

MINE = '# my cabinet\nlayout = "tabletop"  # turned\nvolume = 0.3\n\n[keys]\nz = "1 pile1"\n'


def test_a_setting_is_replaced_where_it_is_and_a_new_one_added_after_the_others() -> None:
    text = with_values(MINE, {"volume": 0.8, "language": "de"})
    assert text.splitlines() == [
        "# my cabinet", 'layout = "tabletop"  # turned', "volume = 0.8", 'language = "de"', "",
        "[keys]", 'z = "1 pile1"',
    ]


def test_the_house_rules_table_is_replaced_and_goes_last() -> None:
    text = with_values(MINE + "[house_rules]\nrefill = true\n", {"game": "mod-spit"}, {"table_slap": None})
    assert text.endswith('[keys]\nz = "1 pile1"\n\n[house_rules]\ntable_slap = "off"\n')
    assert tomllib.loads(text)["game"] == "mod-spit"
    # no house rules: no table; house rules not given (None): the table is left as it is
    assert "[house_rules]" not in with_values(MINE + "[house_rules]\nrefill = true\n", {"game": "classic"}, {})
    kept = MINE + "[house_rules]\nrefill = true\n"
    assert with_values(kept, {"volume": 0.3}) == kept


def test_an_empty_file_gets_just_what_is_set() -> None:
    assert with_values("", {"game": "speed"}, {"decks": 2}) == 'game = "speed"\n\n[house_rules]\ndecks = 2\n'


def test_values_in_toml() -> None:
    assert [toml_value(v) for v in (True, 3, 0.25, "a\"b", None, [1, 2], ("x",))] == [
        "true", "3", "0.25", '"a\\"b"', '"off"', "[1, 2]", '["x"]'
    ]  # fmt: skip


def test_a_file_that_cannot_be_written_says_why(tmp_path: Path) -> None:
    assert write_settings(tmp_path, {"volume": 0.5}) is not None  # a directory
    assert remember_game(tmp_path, "classic", {}) is not None
    path = tmp_path / "config.toml"
    assert remember_game(path, "four-piles", {"choose": "shapp"}) is None
    assert tomllib.loads(path.read_text()) == {"game": "four-piles", "house_rules": {"choose": "shapp"}}


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


@settings(max_examples=60, deadline=None)
@given(first=adjustments, then=adjustments, rules=st.one_of(st.none(), house_rules))
def test_what_is_written_reads_back_and_the_rest_is_kept(
    first: dict[str, Any], then: dict[str, Any], rules: dict[str, Any] | None
) -> None:
    text = with_values(with_values(MINE, first), then, rules)
    check = Checker("config.toml")
    read = check_settings(tomllib.loads(text), check)
    assert check.problems == []
    for name, value in {**first, **then}.items():
        assert getattr(read, name) == value
    assert (read.layout, read.keys) == ("tabletop", {"z": "1 pile1"})
    assert text.startswith("# my cabinet\n")
    if rules is not None:
        assert read.house_rules == rules
