"""`spit-arcade settings list|get|set`: an operator without a screen changes one value, the rest of
the file kept; a wrong key or value gets check-config's own words and changes nothing."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from appliance import cli, settings_cli
from appliance.shared.files import write_atomically

MINE = '# my cabinet\n"volume" = 0.3 # loud\nfree_play = false\n\n[keys]\nz = "1 pile1"\n'


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(["settings", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(MINE)
    return path


def test_set_changes_the_value_and_keeps_the_rest(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["set", "--config", str(config), "volume", "0.5"], capsys)
    assert (status, err) == (0, "")
    assert out == f"{config}: volume = 0.5 (was 0.3); a game running takes it at its next start\n"
    assert config.read_text() == MINE.replace("0.3", "0.5")
    # the options before the action too; words are a string, a TOML value its type
    assert run(["--config", str(config), "set", "layout", "tabletop"], capsys)[0] == 0
    assert run(["set", "--config", str(config), "credits_per_game", "3"], capsys)[0] == 0
    assert run(["set", "--config", str(config), "house_rules.stock_piles", "[1, 2, 3, 4]"], capsys)[0] == 0
    assert run(["set", "--config", str(config), "house_rules.table_slap", "off"], capsys)[0] == 0
    assert tomllib.loads(config.read_text()) == {
        "volume": 0.5, "free_play": False, "keys": {"z": "1 pile1"}, "layout": "tabletop", "credits_per_game": 3,
        "house_rules": {"stock_piles": [1, 2, 3, 4], "table_slap": "off"},
    }  # fmt: skip
    status, out, _ = run(["set", "--config", str(config), "layout", "tabletop"], capsys)
    assert (status, out) == (0, f'{config}: layout is "tabletop" already\n')


def test_get_and_list_say_what_is_in_effect(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["get", "--config", str(config), "volume"], capsys) == (0, "0.3\n", "")
    assert run(["get", "--config", str(config), "layout"], capsys) == (0, "desktop\n", "")
    assert run(["get", "--config", str(config), "keys"], capsys) == (0, 'keys.z = "1 pile1"\n', "")
    status, _, err = run(["get", "--config", str(config), "house_rules.refill"], capsys)
    assert (status, err) == (1, "house_rules.refill is not set (the game's own)\n")
    status, out, err = run(["list", "--config", str(config)], capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert "volume = 0.3" in lines and "free_play = false" in lines and 'keys.z = "1 pile1"' in lines
    assert 'layout = "desktop"  # default' in lines and "credits_per_game = 1  # default" in lines
    assert len(lines) == len(settings_cli.SETTINGS) - 3 + 1  # the settings less the three tables, and keys.z
    # a wrong value in the file: the default, marked so, and the problem said
    config.write_text('volume = "loud"\n')
    status, out, err = run(["list", "--config", str(config)], capsys)
    assert "volume = 0.6  # default" in out.splitlines()
    assert err == f"{config}: volume: must be a number from 0 to 1, not 'loud'; using 0.6\n"


@pytest.mark.parametrize(
    "key, value, file_text",
    [
        ("volum", "0.5", "volum = 0.5"),  # an unknown key
        ("volume", "loud", 'volume = "loud"'),  # a wrong type
        ("volume", "2", "volume = 2"),  # out of range
        ("credits_per_game", "10", "credits_per_game = 10"),
        ("computer_level", "7", "computer_level = 7"),
        ("layout", "sideways", 'layout = "sideways"'),
        ("house_rules.choose", "shap", '[house_rules]\nchoose = "shap"'),
        ("house_rules.bogus", "1", "[house_rules]\nbogus = 1"),
        ("keys.retrun", '"0 start"', '[keys]\nretrun = "0 start"'),
        ("link.listen", "70000", "[link]\nlisten = 70000"),  # the linked game's (docs/linked.md)
        ("link.join", "nowhere", '[link]\njoin = "nowhere"'),
        ("link.seats", "[1]", "[link]\nseats = [1]"),  # seats, and neither listen nor join
        ("link.lisen", "50070", "[link]\nlisen = 50070"),
    ],
)
def test_a_wrong_key_or_value_gets_check_configs_words(
    config: Path, capsys: pytest.CaptureFixture[str], key: str, value: str, file_text: str
) -> None:
    status, out, err = run(["set", "--config", str(config), key, value], capsys)
    assert (status, out) == (2, "") and config.read_text() == MINE
    said = err.splitlines()
    checked = config.parent / "checked.toml"
    checked.write_text(file_text + "\n")
    assert cli.main(["check-config", "--config", str(checked)]) == 2
    check_out = capsys.readouterr().out
    [line] = [line for line in check_out.splitlines() if line.startswith(str(checked))]
    words = line.removeprefix(f"{checked}: ")
    assert said == [f"{config}: " + words.rpartition("; ")[0] + "; not changed"]


def test_a_setting_the_file_holds_as_a_table_is_named_not_clobbered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("volume.x = 1\nfree_play = false\n")
    status, out, err = run(["set", "--config", str(config), "volume", "0.5"], capsys)
    assert (status, out) == (2, "")
    assert err == f"{config}: volume is a table in the file, not a number; not changed (fix it by hand)\n"
    assert config.read_text() == "volume.x = 1\nfree_play = false\n"


def test_the_key_map_and_parts_of_a_setting_are_not_set_here(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["set", "--config", str(config), "keys.q", '"1 pile2"'], capsys)
    assert (status, err) == (2, f"{config}: keys.q: the key map is changed in the [keys] table by hand; not changed\n")
    status, _, err = run(["set", "--config", str(config), "house_rules", "{refill = true}"], capsys)
    assert (status, err) == (2, f"{config}: house_rules: set one house rule at a time: house_rules.NAME VALUE; "
                                "not changed\n")
    status, _, err = run(["set", "--config", str(config), "volume.x", "1"], capsys)
    assert (status, err) == (2, f"{config}: volume.x: no setting has parts; not changed\n")
    assert config.read_text() == MINE


def test_a_damaged_file_is_kept_aside_and_its_last_good_copy_written_back(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from appliance.shared.settings import load_settings

    load_settings(config, keep_good_copy=True)  # what play does at its start
    config.write_text(MINE[:20])
    assert run(["get", "--config", str(config), "free_play"], capsys)[1] == "false\n"  # from the copy
    status, out, _ = run(["set", "--config", str(config), "volume", "0.4"], capsys)
    assert status == 0 and f"the damaged file is kept as {config}.damaged" in out
    assert config.read_text() == MINE.replace("0.3", "0.4")
    assert Path(f"{config}.damaged").read_text() == MINE[:20]


def test_cabinet_names_the_service_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cabinet = tmp_path / "state" / "config.toml"
    monkeypatch.setattr(settings_cli, "CABINET_CONFIG", cabinet)
    assert run(["set", "--cabinet", "free_play", "false"], capsys)[0] == 0
    assert tomllib.loads(cabinet.read_text()) == {"free_play": False}
    with pytest.raises(SystemExit) as usage:  # two files named
        run(["--cabinet", "list", "--config", str(cabinet)], capsys)
    assert usage.value.code == 2


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_root_keeps_the_games_files_the_games(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("volume = 0.3\n")
    os.chown(path, 4242, 4243)
    write_atomically(path, "volume = 0.4\n")
    assert (path.stat().st_uid, path.stat().st_gid) == (4242, 4243)
    os.chown(tmp_path, 4244, 4245)
    write_atomically(tmp_path / "new.toml", "")  # a new file: the directory's owner
    assert (tmp_path / "new.toml").stat().st_uid == 4244


def test_a_change_from_the_command_line_is_recorded_in_the_books_under_a_boot_of_its_own(
        config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from appliance.operator import books
    from appliance.operator.office import Office
    from appliance.operator.store import Store

    game = Office.open(config)  # the game running, boot 1, while the operator sets a value
    game.coin("gpio")
    assert run(["--config", str(config), "set", "volume", "0.4"], capsys)[0] == 0
    assert run(["--config", str(config), "set", "volume", "0.4"], capsys)[0] == 0  # no change: nothing recorded
    assert game.adjust({"free_play": True}) is None  # the service menu, in the same boot
    assert game.drain(10) and game.held == 0
    game.close()
    store = Store.open(config.parent / "store.sqlite")
    found = books.report(store)["adjustments"]
    assert [(a["key"], a["old"], a["new"]) for a in found] == [("volume", 0.3, 0.4), ("free_play", False, True)]
    # Boot 2 left free: a game whose start could not be written (the card full) would hold it in memory.
    assert store.rows("SELECT boot, version FROM boots ORDER BY boot") == [(1, ""), (3, "settings set")]
    assert store.rows("SELECT boot, seq FROM adjustments ORDER BY id") == [(3, 1), (1, 2)]
    store.close()
    assert Office.open(config).boot == 4  # the next start after both


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_root_setting_a_value_leaves_the_books_the_games(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.chown(config.parent, 4244, 4245)
    assert run(["--config", str(config), "set", "volume", "0.4"], capsys)[0] == 0
    assert {p.name: p.stat().st_uid for p in config.parent.glob("store.sqlite*")} == {"store.sqlite": 4244}


def test_the_link_is_set_one_key_at_a_time_and_listen_and_join_replace_each_other(
        config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def link() -> object:
        return tomllib.loads(config.read_text()).get("link")

    status, out, err = run(["set", "--config", str(config), "link.listen", "50070"], capsys)
    assert (status, err) == (0, "") and link() == {"listen": 50070}
    assert out == f"{config}: link.listen = 50070 (not in the file); a game running takes it at its next start\n"
    assert run(["set", "--config", str(config), "link.seats", "[2]"], capsys)[0] == 0
    assert run(["set", "--config", str(config), "link.join", "venue:table-2"], capsys)[0] == 0
    assert link() == {"seats": [2], "join": "venue:table-2"}  # joining is instead of listening
    assert run(["get", "--config", str(config), "link"], capsys) == (
        0, 'link.join = "venue:table-2"\nlink.seats = [2]\n', "")
    status, out, _ = run(["list", "--config", str(config)], capsys)
    assert 'link.join = "venue:table-2"' in out.splitlines()
    status, _, err = run(["set", "--config", str(config), "link.seats", "[1, 1]"], capsys)
    assert (status, err) == (2, f"{config}: link.seats: must be a list of seats from 1 to 4, e.g. [1], not [1, 1]; "
                                "not changed\n")
    status, _, err = run(["set", "--config", str(config), "link", "on"], capsys)
    assert status == 2 and "link.listen, link.join, link.seats" in err
    assert run(["set", "--config", str(config), "link", "off"], capsys)[0] == 0
    assert link() is None and config.read_text().startswith(MINE)
    status, _, err = run(["get", "--config", str(config), "link.join"], capsys)
    assert (status, err) == (1, "link.join is not set (no linked game)\n")


def test_the_link_word_is_set_checked_and_never_shown_nor_recorded(config: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """`[link] word` (docs/linked.md): both cabinets the same, like a Wi-Fi passphrase. Set by the
    command (or spit-link.toml); `get`, `list`, `set` and the audits say only that one is set."""
    from appliance.operator import books
    from appliance.operator.office import Office
    from appliance.operator.store import Store

    assert run(["set", "--config", str(config), "link.listen", "50070"], capsys)[0] == 0
    status, out, err = run(["set", "--config", str(config), "link.word", "Ahorn am Tresen 7"], capsys)
    assert (status, err) == (0, "") and "Ahorn" not in out and 'link.word = "(set)"' in out
    assert tomllib.loads(config.read_text())["link"] == {"listen": 50070, "word": "Ahorn am Tresen 7"}
    assert run(["get", "--config", str(config), "link.word"], capsys) == (0, "(set)\n", "")
    assert "Ahorn" not in run(["list", "--config", str(config)], capsys)[1]
    status, out, err = run(["set", "--config", str(config), "link.word", "short"], capsys)
    assert status == 2 and "must be 8 to 128 printable characters (this one has 5)" in err and "short" not in err
    game = Office.open(config)  # the service menu turning the link off takes the word out: recorded as set, no more
    assert game.adjust({}, tables={"link": {}}) is None
    assert game.drain(10)
    game.close()
    store = Store.open(config.parent / "store.sqlite")
    found = [(a["key"], a["old"], a["new"]) for a in books.report(store)["adjustments"]]
    store.close()
    assert ("link.word", None, "(set)") in found and ("link.word", "(set)", None) in found
    assert not any("Ahorn" in str(row) for row in found)
