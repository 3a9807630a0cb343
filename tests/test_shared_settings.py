"""Settings: a mistake in config.toml is named (file and key) and left at its default, never fatal;
`[keys]` changes the default key map instead of replacing it."""

from __future__ import annotations

from pathlib import Path

import pytest

from appliance.display.keys import amend_keymap, default_keymap, for_desktop
from appliance.journal import journal_dir
from appliance.shared.settings import Settings, default_config_path, load_settings


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_missing_default_file_means_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert default_config_path() == tmp_path / "spit-arcade" / "config.toml"
    settings = load_settings()
    assert settings == Settings() and settings.warnings == []


def test_a_config_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'layout = "tabletop"\nvolume = 0.25\nassist = true\nfour_colour = true\n'
        'journal_dir = "/srv/journals"\nidle_timeout_s = 30\n[keys]\nz = "1 pile1"\n',
    )
    s = load_settings(path)
    assert (s.layout, s.volume, s.assist, s.four_colour, s.idle_timeout_s) == ("tabletop", 0.25, True, True, 30.0)
    assert s.keys == {"z": "1 pile1"} and s.warnings == []
    assert journal_dir(s.journal_dir) == Path("/srv/journals")


@pytest.mark.parametrize(
    "text, key, words",
    [
        ('layout = "sideways"', "layout", "one of desktop, tabletop"),
        ("volume = 3", "volume", "from 0 to 1"),
        ("volume = nan", "volume", "not nan"),
        ("volume = true", "volume", "a number"),
        ('assist = "yes"', "assist", "true or false"),
        ("idle_timeout_s = -1", "idle_timeout_s", "seconds"),
        ("idle_timeout_s = inf", "idle_timeout_s", "not inf"),
        ("idle_timeout_s = 1e308", "idle_timeout_s", "seconds"),
        ("colour = 1", "colour", "unknown setting"),
        ("volum = 0.5", "volum", "did you mean 'volume'"),
        ('journal_dir = "a\\u0000b"', "journal_dir", "a string"),
        ("keys = 3", "keys", "must be a table"),
        ('[keys]\nretrun = "0 start"', "keys.retrun", "unknown key name"),
        ('[keys]\nz = "pile1"', "keys.z", "player control"),
        ('[keys]\nz = "1 fly"', "keys.z", "unknown control"),
        ('[keys]\nz = "5 spit"', "keys.z", "player must be"),
        ('[keys]\nz = "1 start"', "keys.z", "unknown control"),
        ("[keys]\nz = 1", "keys.z", "player control"),
        ('[keys]\nz = "1 spit"\nx = "1 spit"', "keys.x", "given to key 'z' already"),
        ('[keys]\nZ = "1 spit"\nz = "1 left"', "keys.z", "given twice"),
    ],
)
def test_each_mistake_is_named_with_its_file_and_key_and_left_at_its_default(
    tmp_path: Path, text: str, key: str, words: str
) -> None:
    path = write(tmp_path, text + "\n")
    settings = load_settings(path)
    (problem,) = settings.warnings
    assert (problem.file, problem.key) == (str(path), key)
    assert words in problem.message and str(problem).startswith(f"{path}: {key}: ")
    assert settings == Settings(keys=settings.keys)  # every setting at its default
    assert settings.keys in ({}, {"z": "1 spit"})


def test_one_mistake_leaves_the_other_settings_as_written(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, 'volume = "loud"\nlayout = "tabletop"\nassist = true\n'))
    assert (settings.volume, settings.layout, settings.assist) == (0.6, "tabletop", True)
    assert [p.key for p in settings.warnings] == ["volume"]


@pytest.mark.parametrize(
    "content, words",
    [
        (b"layout = ", "not valid TOML"),
        (b"\xff\xfe\x00junk", "cannot read"),
    ],
)
def test_a_file_that_is_not_toml_gives_the_built_in_settings(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(content)
    settings = load_settings(path)
    assert settings == Settings()
    (problem,) = settings.warnings
    assert problem.file == str(path) and problem.key == "" and words in problem.message


def test_an_explicit_missing_file_is_named_not_fatal(tmp_path: Path) -> None:
    settings = load_settings(tmp_path / "nope.toml")
    assert settings == Settings() and "no such config file" in str(settings.warnings[0])


def test_keys_amend_the_default_map(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, '[keys]\nz = "1 pile1"\nq = "2 spit"\nf2 = ""\n'))
    assert settings.warnings == []
    keymap = amend_keymap(default_keymap(), settings.keys)
    assert keymap["z"] == (1, "pile1")  # pile1 moved from q to z ...
    assert keymap["q"] == (2, "spit") and "k" not in keymap  # ... q took player 2's spit from k
    assert "f2" not in keymap  # unbound
    assert keymap["return"] == (0, "start") and keymap["a"] == (1, "left")  # the rest as they were
    assert len(set(keymap.values())) == len(keymap)


def test_desktop_keys_are_swapped_before_the_config_amends_them() -> None:
    keymap = amend_keymap(for_desktop(default_keymap()), {"m": "2 left"})
    assert keymap["m"] == (2, "left") and (2, "right") in keymap.values()
    assert list(keymap.values()).count((2, "left")) == 1


def test_no_config_can_leave_the_cabinet_without_a_start_key(tmp_path: Path) -> None:
    for text in ('[keys]\nreturn = ""\n', '[keys]\nreturn = "1 spit"\n'):
        settings = load_settings(write(tmp_path, text))
        assert [p.key for p in settings.warnings] == ["keys.return"]
        assert amend_keymap(default_keymap(), settings.keys)["return"] == (0, "start")
    moved = load_settings(write(tmp_path, '[keys]\nreturn = ""\nspace = "0 start"\n'))
    assert moved.warnings == [] and amend_keymap(default_keymap(), moved.keys)["space"] == (0, "start")


@pytest.mark.parametrize(("text", "level"), [("computer_level = 3", "3"), ('computer_level = "5"', "5"),
                                             ("computer_level = 1", "1")])  # fmt: skip
def test_the_computer_level_is_a_number_or_its_string(tmp_path: Path, text: str, level: str) -> None:
    settings = load_settings(write(tmp_path, text))
    assert (settings.computer_level, settings.warnings) == (level, [])


@pytest.mark.parametrize("value", ["0", "6", "true", "3.0", '"three"', "[3]"])
def test_a_wrong_computer_level_is_named_and_left_at_3(tmp_path: Path, value: str) -> None:
    settings = load_settings(write(tmp_path, f"computer_level = {value}"))
    assert settings.computer_level == "3"
    assert [(p.key, p.message.split(",")[0]) for p in settings.warnings] == [
        ("computer_level", "must be a level from 1 to 5")
    ]


@pytest.mark.parametrize(("text", "link"), [
    ("", {}),
    ("[link]\nlisten = 50070\n", {"listen": 50070}),
    ('[link]\njoin = "10.0.0.12:50070"\nseats = [2]\n', {"join": "10.0.0.12:50070", "seats": [2]}),
    ('[link]\njoin = "venue:table-2"\n', {"join": "venue:table-2"}),
])
def test_a_link_table_says_how_this_cabinet_links(tmp_path: Path, text: str, link: dict) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    settings = load_settings(path)
    assert settings.link == link and settings.warnings == []


@pytest.mark.parametrize(("text", "key", "link"), [
    ("[link]\nlisten = 0\n", "link.listen", {}),
    ('[link]\njoin = "nowhere"\n', "link.join", {}),
    ('[link]\nlisten = 50070\njoin = "venue"\n', "link", {}),
    ("[link]\nseats = [1]\n", "link", {}),
    ('[link]\nlisten = 50070\nseats = [1, 1]\n', "link.seats", {"listen": 50070}),
    ('[link]\nlisten = 50070\nport = 3\n', "link.port", {"listen": 50070}),
    ('link = 3\n', "link", {}),
])
def test_a_wrong_link_is_named_and_no_link_is_made_of_it(tmp_path: Path, text: str, key: str, link: dict) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    settings = load_settings(path)
    assert settings.link == link
    assert [p.key for p in settings.warnings] == [key]
