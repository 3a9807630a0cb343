"""The image's venue settings (appliance/venue/setup.py): taken at boot from the operator's folder on
the boot partition or a stick, checked, copied to the state partition; the Wi-Fi's configuration made
from wifi.conf; a bad folder leaves the cabinet as it was. The linked game's too (appliance/linked/setup.py): a
spit-link.toml sets [link], once, refused in check-config's words where it is wrong; the link's
network flag follows the settings. And the image's units: the network only when the venue or a
linked game is on (the booted check is the virtual cabinet's "venue" step)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_systemd_service import one, parse

from appliance.linked import setup as link_setup
from appliance.shared.settings import load_settings as load_settings_file
from appliance.venue import init as venue_init
from appliance.venue import setup
from appliance.venue.uplink import SETTINGS, load_settings

IMAGE = Path(__file__).resolve().parents[1] / "systemd" / "image"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """What the operator copies onto the boot partition: cabinets/table-1/ as spit-venue/."""
    venue_init.init(tmp_path / "venue", ["table-1"], ["10.0.0.5"])
    return tmp_path / "venue" / "cabinets" / "table-1"


def run(source: Path, target: Path, run: Path, link: Path | None = None) -> int:
    """The unit's run, every path the test's: the venue's folder, and for the link `link` (a folder
    with the boot partition's spit-link.toml, the settings, what was taken, the flag)."""
    link = link or run / "link"
    return setup.main(["--source", str(source), "--target", str(target), "--run", str(run),
                       "--config", str(link / "config.toml"), "--link-source", str(link / "boot" / link_setup.FILE),
                       "--link-taken", str(link / "taken"), "--link-flag", str(link / "run" / "on")])


def test_the_operators_folder_is_taken_and_the_uplink_reads_it(tmp_path, folder, capsys):
    assert run(folder, tmp_path / "t", tmp_path / "run") == 0
    settings = load_settings(tmp_path / "t" / "venue.toml")
    assert settings is not None and (settings.cabinet, settings.broker) == ("table-1", "10.0.0.5")
    assert settings.key.read_bytes() == (folder / "cabinet.key").read_bytes()
    assert {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "t").iterdir()} == {
        "venue.toml": 0o640, "ca.crt": 0o640, "cabinet.crt": 0o640, "cabinet.key": 0o640}
    assert not (tmp_path / "run" / "wpa_supplicant.conf").exists()  # Ethernet: no Wi-Fi asked for
    assert "cabinet 'table-1' (broker 10.0.0.5:8883): took" in capsys.readouterr().out


def test_wifi_conf_becomes_wpa_supplicants_with_the_key_derived_and_nothing_to_quote(tmp_path, folder):
    (folder / "wifi.conf").write_text('ssid = "IEEE"\npsk = "password"\ncountry = "de"\n')
    assert run(folder, tmp_path / "t", tmp_path / "run") == 0
    wpa = (tmp_path / "run" / "wpa_supplicant.conf").read_text()
    # IEEE 802.11i's test vector (H.4.1): "password" on the SSID "IEEE".
    assert "\tpsk=f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e\n" in wpa
    assert "country=DE\n" in wpa and "\tssid=49454545\n" in wpa and "password" not in wpa
    assert (tmp_path / "run" / "wpa_supplicant.conf").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "t" / "wifi.conf").stat().st_mode & 0o777 == 0o600  # the uplink cannot read it
    (folder / "wifi.conf").write_text('ssid = "Open \\"Bar\\" = }"\n')  # an open network, an odd name
    assert run(folder, tmp_path / "t", tmp_path / "run") == 0
    wpa = (tmp_path / "run" / "wpa_supplicant.conf").read_text()
    odd = b'Open "Bar" = }'.hex()
    assert f"\tssid={odd}\n" in wpa and "\tkey_mgmt=NONE\n" in wpa
    (folder / "wifi.conf").unlink()  # back to Ethernet: the Wi-Fi goes
    assert run(folder, tmp_path / "t", tmp_path / "run") == 0
    assert not (tmp_path / "run" / "wpa_supplicant.conf").exists() and not (tmp_path / "t" / "wifi.conf").exists()


@pytest.mark.parametrize(("name", "text", "said"), [
    ("venue.toml", "[venue]\nbroker = 5\n", "[venue] needs"),
    ("venue.toml", "not toml at all [", "venue.toml"),
    ("wifi.conf", 'ssid = "bar"\npsk = "short"\n', "psk must be 8 to 63"),
    ("wifi.conf", 'ssid = "bar"\npassword = "long enough"\n', "unknown key(s): password"),
    ("cabinet.key", "x" * 70000, "not a cabinet.key"),
])
def test_a_bad_folder_is_refused_and_the_cabinet_keeps_what_it_had(tmp_path, folder, capsys, name, text, said):
    assert run(folder, tmp_path / "t", tmp_path / "run") == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "t").iterdir()}
    (folder / name).write_text(text)
    assert run(folder, tmp_path / "t", tmp_path / "run") == 1
    assert {p.name: p.read_bytes() for p in (tmp_path / "t").iterdir()} == before
    out = capsys.readouterr().out
    assert "not taken, the cabinet keeps what it had" in out and said in out


def test_a_venue_toml_without_venue_turns_it_off_and_no_folder_changes_nothing(tmp_path, folder, capsys):
    assert run(folder, tmp_path / "t", tmp_path / "run") == 0
    assert run(tmp_path / "no-such-folder", tmp_path / "t", tmp_path / "run") == 0  # the stick pulled: kept
    assert (tmp_path / "t" / "venue.toml").exists()
    (folder / "venue.toml").write_text("# the venue off\n")
    assert run(folder, tmp_path / "t", tmp_path / "run") == 0
    assert not (tmp_path / "t").exists()
    assert "the venue is off and no linked game: no network" in capsys.readouterr().out


# --- the linked game's [link], given once on the boot partition, and the network it needs

def test_a_spit_link_toml_sets_the_link_once_keeping_the_rest_and_brings_the_network(tmp_path, capsys):
    link = tmp_path / "link"
    (link / "boot").mkdir(parents=True)
    config = link / "config.toml"
    config.write_text("# the bar's cabinet\nfree_play = false\n")
    given = link / "boot" / link_setup.FILE
    given.write_text('[link]\njoin = "192.168.1.20:50070"\nseats = [2]\n')
    assert run(tmp_path / "no-venue", tmp_path / "t", tmp_path / "run", link) == 0
    out = capsys.readouterr().out
    assert config.read_text().startswith("# the bar's cabinet\nfree_play = false\n")
    assert load_settings_file(config).link == {"join": "192.168.1.20:50070", "seats": [2]}
    assert (link / "run" / "on").read_text() == "join 192.168.1.20:50070\n"
    assert "link.join = '192.168.1.20:50070' (was None)" in out
    assert "a linked game (join 192.168.1.20:50070): the network comes up for it" in out
    assert "the venue is off: the network comes up for the linked game only" in out
    from appliance.operator.store import Store, store_path

    store = Store.open(store_path(config))  # in the audits' adjustments, as `settings set` records its own
    assert store.rows("SELECT key, new FROM adjustments ORDER BY seq") == [
        ("link.join", '"192.168.1.20:50070"'), ("link.seats", "[2]")]
    assert store.rows("SELECT version FROM boots") == [(link_setup.FILE,)]
    store.close()
    # The service menu turns it off since; the same file still on the boot partition does not undo it.
    from appliance.shared.config_file import adjust

    adjust(config, {}, tables={"link": {}})
    assert run(tmp_path / "no-venue", tmp_path / "t", tmp_path / "run", link) == 0
    assert load_settings_file(config).link == {} and not (link / "run" / "on").exists()
    assert "was taken before (the service menu's changes since hold)" in capsys.readouterr().out
    given.write_text('[link]\nlisten = 50070\n')  # a new file: taken
    assert run(tmp_path / "no-venue", tmp_path / "t", tmp_path / "run", link) == 0
    assert load_settings_file(config).link == {"listen": 50070} and (link / "run" / "on").exists()
    given.write_text("[link]\n")  # an empty [link]: the link off
    assert run(tmp_path / "no-venue", tmp_path / "t", tmp_path / "run", link) == 0
    assert load_settings_file(config).link == {} and not (link / "run" / "on").exists()


@pytest.mark.parametrize(("text", "said"), [
    ('[link]\nlisten = 70000\n', "link.listen: must be a whole number from 1 to 65535"),
    ('[link]\njoin = "nowhere"\n', 'link.join: must be "HOST:PORT", "venue" or "venue:CABINET"'),
    ('[link]\nlisten = 50070\njoin = "venue"\n', "link: has both listen and join"),
    ('[link]\nlisten = 50070\nword = "kurz"\n', "link.word: must be 8 to 128 printable characters"),
    ('volume = 1\n[link]\nlisten = 50070\n', "only [link] is taken from it, not volume"),
    ("[link\n", "not TOML"),
])
def test_a_wrong_spit_link_toml_is_refused_in_check_configs_words_and_nothing_changes(tmp_path, capsys, text, said):
    link = tmp_path / "link"
    (link / "boot").mkdir(parents=True)
    (link / "config.toml").write_text('[link]\njoin = "venue"\n')
    (link / "boot" / link_setup.FILE).write_text(text)
    assert run(tmp_path / "no-venue", tmp_path / "t", tmp_path / "run", link) == 1
    out = capsys.readouterr().out
    assert "not taken, the cabinet keeps its [link]" in out and said in out, out
    assert (link / "config.toml").read_text() == '[link]\njoin = "venue"\n'
    assert (link / "run" / "on").exists()  # the link it had still has its network
    if "must be" in said or "has both" in said:  # the words check-config says of the same in a settings file
        from appliance.shared.settings import load_settings

        checked = tmp_path / "checked.toml"
        checked.write_text(text)
        assert any(said in problem.message or said in f"{problem.key}: {problem.message}"
                   for problem in load_settings(checked).warnings)


def test_no_link_and_no_venue_no_network(tmp_path, capsys):
    link = tmp_path / "link"
    link.mkdir()
    (link / "config.toml").write_text("volume = 0.5\n")
    (link / "run").mkdir()
    (link / "run" / "on").write_text("left from before\n")
    assert run(tmp_path / "no-venue", tmp_path / "t", tmp_path / "run", link) == 0
    assert not (link / "run" / "on").exists()
    assert "no linked game: no network, nothing listens, nothing is sent" in capsys.readouterr().out


# --- the image's units: what the booted virtual cabinet checks ("venue" step), as files

def test_the_network_units_start_only_when_the_venue_config_or_the_links_flag_is_there() -> None:
    on = parse(IMAGE / "venue" / "venue-on.conf")["Unit"]
    assert sorted(on["ConditionPathExists"]) == sorted([f"|{SETTINGS}", f"|{link_setup.FLAG}"])  # either
    assert one(on, "After") == "spit-arcade-venue-setup.service"
    inside = (IMAGE / "inside.sh").read_text()
    for unit in ("systemd-networkd.service", "systemd-networkd.socket", "systemd-networkd-wait-online.service",
                 "systemd-resolved.service"):
        assert unit in re.search(r"for unit in ([^;]+); do\n.*venue-on.conf", inside).group(1)  # type: ignore[union-attr]
    assert "ln -s /var/lib/spit-arcade/venue-setup /etc/spit-arcade/venue" in inside
    assert str(setup.TARGET) == "/var/lib/spit-arcade/venue-setup" and SETTINGS.parent == Path("/etc/spit-arcade/venue")
    wifi = parse(IMAGE / "venue" / "spit-arcade-wifi.service")
    assert f"ConditionPathExists={setup.RUN / setup.WPA}" in (IMAGE / "venue" / "spit-arcade-wifi.service").read_text()
    assert str(setup.RUN / setup.WPA) in one(wifi["Service"], "ExecStart")


def test_the_setup_unit_runs_early_and_only_when_there_is_something_to_take() -> None:
    text = (IMAGE / "venue" / "spit-arcade-venue-setup.service").read_text()
    unit = parse(IMAGE / "venue" / "spit-arcade-venue-setup.service")
    assert one(unit["Service"], "ExecStart") == "/opt/spit-arcade/venv/bin/python -m appliance.venue.setup"
    triggers = re.findall(r"^ConditionPathExists=\|(.+)$", text, re.M)
    assert sorted(triggers) == sorted([str(s) for s in (*setup.SOURCES, *link_setup.SOURCES)]
                                      + [str(setup.TARGET), str(link_setup.CABINET_CONFIG)])
    assert f"--config {link_setup.CABINET_CONFIG} " in (IMAGE.parent / "spit-arcade.service").read_text()
    for needed in ("systemd-networkd.service", "systemd-resolved.service", "spit-arcade-uplink.service"):
        assert needed in text.split("Before=", 1)[1].split("\n", 1)[0]


def test_a_link_word_from_spit_link_toml_is_taken_and_said_nowhere(tmp_path, capsys):
    link = tmp_path / "link"
    (link / "boot").mkdir(parents=True)
    (link / "boot" / link_setup.FILE).write_text('[link]\nlisten = 50070\nword = "Ahorn am Tresen 7"\n')
    assert run(tmp_path / "no-venue", tmp_path / "t", tmp_path / "run", link) == 0
    out = capsys.readouterr().out
    assert load_settings_file(link / "config.toml").link == {"listen": 50070, "word": "Ahorn am Tresen 7"}
    assert "link.word = '(set)' (was None)" in out and "Ahorn" not in out
    from appliance.operator.store import Store, store_path

    store = Store.open(store_path(link / "config.toml"))
    assert ("link.word", '"(set)"') in store.rows("SELECT key, new FROM adjustments")
    store.close()
