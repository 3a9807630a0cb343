from __future__ import annotations

from pathlib import Path

import pytest

from appliance.display.settings import Settings, SettingsError, default_config_path, journal_dir, load_settings


def test_missing_default_file_means_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert default_config_path() == tmp_path / "spit-arcade" / "config.toml"
    assert load_settings() == Settings()


def test_a_config_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        'layout = "tabletop"\nvolume = 0.25\nassist = true\nfour_colour = true\n'
        'journal_dir = "/srv/journals"\nidle_timeout_s = 30\n[keys]\nz = "1 pile1"\n'
    )
    s = load_settings(path)
    assert (s.layout, s.volume, s.assist, s.four_colour, s.idle_timeout_s) == ("tabletop", 0.25, True, True, 30.0)
    assert s.keys == {"z": "1 pile1"}
    assert journal_dir(s) == Path("/srv/journals")


@pytest.mark.parametrize(
    "text, words",
    [
        ('layout = "sideways"', "layout"),
        ("volume = 3", "volume"),
        ('assist = "yes"', "assist"),
        ("idle_timeout_s = -1", "idle_timeout_s"),
        ("colour = 1", "unknown setting"),
        ("layout = ", "not valid TOML"),
    ],
)
def test_bad_values_are_named(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text + "\n")
    with pytest.raises(SettingsError, match=words):
        load_settings(path)


def test_an_explicit_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="no such config file"):
        load_settings(tmp_path / "nope.toml")
