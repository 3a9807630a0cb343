import textwrap

import pytest
from gpiozero.pins.mock import MockFactory

from appliance.inputs.config import ConfigError, build_merger, default_config_text, load_config, parse_config
from appliance.inputs.gpio import GpioSource
from appliance.inputs.keyboard import KeyboardSource
from appliance.inputs.script_source import ScriptSource
from appliance.inputs.serial_link import SerialSource


def test_the_default_wires_a_whole_cabinet():
    config = load_config()
    assert config.sources == ["gpio"]
    assert len(config.gpio) == 20
    pins = {(c.player, c.control): c for c in config.gpio}
    assert pins[(1, "pile1")].pin == 4 and pins[(0, "start")].pin == 10
    assert pins[(1, "left")].timing.lockout_ns == 30_000_000  # a slap pad
    assert pins[(2, "spit")].timing.lockout_ns == 10_000_000  # a microswitch
    assert all(c.timing.stuck_ns == 5_000_000_000 for c in config.gpio)
    assert config.max_window_ns == 5_000_000
    assert not {2, 3, 14, 15} & {c.pin for c in config.gpio}  # I2C and the UART stay free
    assert "sources" in default_config_text()


def test_per_control_settings_keys_and_pads():
    config = parse_config(
        textwrap.dedent("""
        sources = ["gpio", "keyboard", "serial"]
        [debounce]
        button_ms = 5
        [gpio.player1]
        spit = { pin = 19, lockout_ms = 12.5, stuck_s = 8 }
        [keyboard.keys]
        z = "1 spit"
        m = "2 spit"
        [[serial]]
        port = "/tmp/p"
        player = 2
        lockout_ms = 40
    """)
    )
    (spit,) = config.gpio
    assert (spit.pin, spit.timing.lockout_ns, spit.timing.stuck_ns) == (19, 12_500_000, 8_000_000_000)
    assert config.keymap == {"z": (1, "spit"), "m": (2, "spit")}
    (pad,) = config.serial
    assert (pad.port, pad.player, pad.timing.lockout_ns, pad.latency_ns) == ("/tmp/p", 2, 40_000_000, 4_000_000)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('sources = ["usb"]', "sources must be"),
        ("[gpio.player1]\nleft = 40", "BCM number"),
        ("[gpio.player1]\nleft = 4\nright = 4", "used twice"),
        ("[gpio.player1]\nstart = 4", "unknown control"),
        ("[gpio.cabinet]\nleft = 4", "unknown control"),
        ('[keyboard.keys]\nq = "one pile1"', "PLAYER CONTROL"),
        ('[keyboard.keys]\nq = "1 pile1"\nw = "1 pile1"', "both map"),
        ('[[serial]]\nport = "/x"\nplayer = 3', "player must be"),
        ("[merge]\nmax_window_ms = 9", "at most 5"),
        ("[debounce]\nbutton_ms = -1", ">= 0"),
        ("sources = [", "default"),
    ],
)
def test_mistakes_are_named(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(text, "default")


def test_sources_are_built_by_name(tmp_path):
    script = tmp_path / "s.jsonl"
    script.write_text('{"setup": {"seed": 1}}\n{"t": 0.5, "player": 1, "press": "spit"}\n')
    path = tmp_path / "inputs.toml"
    path.write_text(
        'sources = ["gpio", "keyboard", "serial", "mock"]\n'
        f'[[serial]]\nport = "{tmp_path / "nopad"}"\nplayer = 1\n'
        f'[mock]\nscript = "{script}"\n[gpio.player1]\nleft = 13\n'
    )
    merger = build_merger(load_config(path), pin_factory=MockFactory())
    kinds = [type(s) for s in merger.sources]
    assert kinds == [GpioSource, KeyboardSource, SerialSource, ScriptSource]
    assert merger.window_ns == 4_000_000


def test_the_source_list_can_be_overridden_and_the_env_names_the_file(tmp_path, monkeypatch):
    path = tmp_path / "inputs.toml"
    path.write_text('sources = ["keyboard"]\n')
    monkeypatch.setenv("SPIT_INPUTS", str(path))
    assert load_config().sources == ["keyboard"]
    assert load_config(sources=["mock", "gpio"]).sources == ["mock", "gpio"]
    with pytest.raises(ConfigError, match="unknown source"):
        load_config(sources=["joystick"])
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_gpio_runs_on_the_mock_pin_factory_from_the_environment(monkeypatch):
    from gpiozero import Device

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    saved = Device.pin_factory
    Device.pin_factory = None
    try:
        merger = build_merger(load_config())
        merger.start()
        try:
            assert merger.status()[0].link == "up"
        finally:
            merger.stop()
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = saved
