import textwrap

import pytest
from gpiozero.pins.mock import MockFactory

from appliance.inputs.config import (
    ConfigError,
    build_merger,
    build_sources,
    default_config_text,
    load_config,
    parse_config,
    read_config,
)
from appliance.inputs.debounce import Timing
from appliance.inputs.gpio import GpioSource
from appliance.inputs.keyboard import KeyboardSource
from appliance.inputs.script_source import ScriptSource
from appliance.inputs.serial_link import SerialSource


def test_the_default_wires_a_whole_cabinet():
    config = load_config()
    assert config.sources == ["gpio", "touch"]  # (a tap on the screen: the screen's own source)
    assert len(config.gpio) == 21
    pins = {(c.player, c.control): c for c in config.gpio}
    assert pins[(1, "pile1")].pin == 4 and pins[(0, "start")].pin == 10
    assert pins[(1, "left")].timing.lockout_ns == 30_000_000  # a slap pad
    assert pins[(2, "spit")].timing.lockout_ns == 10_000_000  # a microswitch
    assert pins[(0, "coin")].pin == 11 and pins[(0, "coin")].timing.lockout_ns == 50_000_000  # a coin mech
    assert all(c.timing.stuck_ns == 5_000_000_000 for c in config.gpio)
    assert config.max_window_ns == 5_000_000
    assert not {2, 3, 14, 15} & {c.pin for c in config.gpio}  # I2C and the UART stay free
    assert "sources" in default_config_text()
    assert config.problems == []


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
    ("text", "key", "message"),
    [
        ('sources = ["usb"]', "sources[0]", "unknown source"),
        ('sources = "gpio"', "sources", "must be a list"),
        ('sourcez = ["gpio"]', "sourcez", "did you mean 'sources'"),
        ("[gpio.player1]\nleft = 40", "gpio.player1.left", "BCM number"),
        ("[gpio.player1]\nleft = 4\nright = 4", "gpio.player1.right", "used twice"),
        ("[gpio.player1]\nstart = 4", "gpio.player1.start", "unknown control"),
        ("[gpio.cabinet]\nleft = 4", "gpio.cabinet.left", "unknown control"),
        ("[gpio.player1]\nleft = { pin = 13, lockout_ms = nan }", "gpio.player1.left.lockout_ms", "not nan"),
        ("[gpio.player1]\nleft = { pin = 13, stuck_s = inf }", "gpio.player1.left.stuck_s", "not inf"),
        ("[gpio.player1]\nleft = { pin = 13, lockot_ms = 5 }", "gpio.player1.left.lockot_ms", "mean 'lockout_ms'"),
        ('[gpio]\npull_up = "no"', "gpio.pull_up", "true or false"),
        ("[gpio]\nlatency_ms = 1e400", "gpio.latency_ms", "not inf"),
        ("[debounce]\nbuton_ms = 5", "debounce.buton_ms", "did you mean 'button_ms'"),
        ("[debounce]\nbutton_ms = -1", "debounce.button_ms", "from 0 to 500"),
        ("[debounce]\nstuck_s = 99999999999999999999999", "debounce.stuck_s", "from 0.5 to 3600"),
        ('[debounce]\npads = ["elbow"]', "debounce.pads", "must list game controls"),
        ('[keyboard.keys]\nq = "one pile1"', "keyboard.keys.q", "player control"),
        ('[keyboard.keys]\nq = "1 pile1"\nw = "1 pile1"', "keyboard.keys.w", "both map"),
        ('[keyboard.keys]\nretrun = "0 start"', "keyboard.keys.retrun", "unknown key name"),
        ('[[serial]]\nport = "/x"\nplayer = 5', "serial[0].player", "must be 1 to 4"),
        ("[[serial]]\nplayer = 1", "serial[0].port", "needs port"),
        ('[[serial]]\nport = "/x"\nplayer = 1\nbaudrate = 1.5', "serial[0].baudrate", "whole number"),
        ('serial = "ttyACM0"', "serial", "array of tables"),
        ("[merge]\nmax_window_ms = 9", "merge.max_window_ms", "from 0 to 5"),
        ("merge = 1", "merge", "must be a table"),
        ("[mock]\nscript = 3", "mock.script", "a string"),
        ("[debounce]\ncoin_ms = 0", "debounce.coin_ms", "from 5 to 500"),  # every bounce a coin: never
        ("[gpio.cabinet]\ncoin = { pin = 11, lockout_ms = 1 }", "gpio.cabinet.coin.lockout_ms", "from 5 to 500"),
        ("[gpio.player1]\ncoin = 11", "gpio.player1.coin", "unknown control"),
        ("[gpio.cabinet]\ncion = 11", "gpio.cabinet.cion", "did you mean 'coin'"),
        ("[gpio]\nchip = -1", "gpio.chip", "a chip's number"),
        ("[gpio]\nchip = true", "gpio.chip", "a chip's number"),
        ("[gpio]\nchip = [0]", "gpio.chip", "a chip's number"),
        ('[keyboard.keys]\nf3 = "1 coin"', "keyboard.keys.f3", "unknown control"),
        ('[keyboard.keys]\nf3 = "0 coins"', "keyboard.keys.f3", "player 0 has start, service, coin"),
    ],
)
def test_mistakes_are_named_with_file_and_key(text, key, message):
    config = read_config(text, "inputs.toml")
    assert [(p.file, p.key) for p in config.problems] == [("inputs.toml", key)]
    assert message in config.problems[0].message
    with pytest.raises(ConfigError, match=message):
        parse_config(text, "inputs.toml")


def test_a_mistake_leaves_the_rest_as_written_and_the_key_at_its_default():
    config = read_config(
        textwrap.dedent("""
        sources = ["gpio", "serail"]
        [debounce]
        button_ms = "fast"
        pad_ms = 40
        [gpio]
        pull_up = "no"
        [gpio.player1]
        pile1 = 4
        pile2 = 99
        left = { pin = 13, lockout_ms = nan }
        [[serial]]
        port = "/dev/ttyACM0"
        player = 1
        latency_ms = -3
        [[serial]]
        port = 7
        player = 2
    """),
        "inputs.toml",
    )
    assert config.sources == ["gpio"]
    assert config.gpio_pull_up is True
    wired = {c.control: c for c in config.gpio}
    assert set(wired) == {"pile1", "left"}  # pile2's pin is wrong: not wired
    assert wired["pile1"].timing.lockout_ns == 10_000_000  # button_ms at its default
    assert wired["left"].timing.lockout_ns == 40_000_000  # lockout_ms at the pads' (pad_ms = 40)
    (pad,) = config.serial
    assert pad.port == "/dev/ttyACM0" and pad.latency_ns == 4_000_000
    assert [p.key for p in config.problems] == [
        "sources[1]",
        "debounce.button_ms",
        "gpio.pull_up",
        "gpio.player1.pile2",
        "gpio.player1.left.lockout_ms",
        "serial[0].latency_ms",
        "serial[1].port",
    ]
    assert "did you mean 'serial'" in config.problems[0].message


def test_a_file_that_cannot_be_read_gives_the_packaged_default(tmp_path):
    path = tmp_path / "inputs.toml"
    path.write_bytes(b"\x00\xff binary junk")
    config = load_config(path, strict=False)
    assert len(config.gpio) == 21 and config.problems[0].file == str(path)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(path)
    path.write_text("sources = [")
    config = load_config(path, strict=False)
    assert len(config.gpio) == 21 and "not valid TOML" in str(config.problems[0])
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)
    missing = load_config(tmp_path / "missing.toml", strict=False)
    assert len(missing.gpio) == 21 and "cannot read" in str(missing.problems[0])


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


def test_touch_is_a_source_by_name_that_the_screen_makes(tmp_path):
    """"touch" is named (and so left out) as any source; build_sources leaves it to the screen, which
    alone knows what lies under a tap (display/runner.py)."""
    on = read_config('sources = ["gpio", "touch"]\n[gpio.player1]\nleft = 13\n')
    assert on.sources == ["gpio", "touch"] and on.problems == []
    assert [type(s) for s in build_sources(on, pin_factory=MockFactory())] == [GpioSource]
    off = read_config('sources = ["gpio"]\n')
    assert "touch" not in off.sources
    typo = read_config('sources = ["gpio", "tuoch"]\n')
    assert typo.sources == ["gpio"] and "did you mean 'touch'?" in str(typo.problems[0])
    assert load_config(sources=["touch"]).sources == ["touch"]


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


def test_the_coin_input_is_debounced_as_a_coin_on_gpio_and_on_a_pad():
    config = parse_config(
        textwrap.dedent("""
        sources = ["gpio", "serial"]
        [debounce]
        coin_ms = 80
        stuck_s = 2
        [gpio.cabinet]
        coin = 11
        start = { pin = 10, lockout_ms = 20 }
        [[serial]]
        port = "/tmp/p"
        player = 1
    """)
    )
    pins = {c.control: c for c in config.gpio}
    assert pins["coin"].timing == Timing(80_000_000, 2_000_000_000, settle_release=True)
    assert pins["start"].timing == Timing(20_000_000, 2_000_000_000)  # a button's release is at once
    (pad,) = config.serial
    assert pad.coin_timing == pins["coin"].timing and not pad.timing.settle_release
    (source,) = [s for s in build_sources(config) if isinstance(s, SerialSource)]
    assert source._owner("coin") == 0  # a coin on a station is the cabinet's, whichever player it has
    keymap = parse_config('[keyboard.keys]\nf5 = "0 coin"\nreturn = "0 start"').keymap
    assert keymap == {"f5": (0, "coin"), "return": (0, "start")}


def test_a_gpio_chip_named_by_number_or_label_and_gpiozero_left_to_choose_on_a_pi():
    assert read_config("").gpio_chip == ""  # a Pi: gpiozero finds its own chip and board
    assert read_config("[gpio]\nchip = 4").gpio_chip == "4"
    assert read_config('[gpio]\nchip = "spit-cabinet"').gpio_chip == "spit-cabinet"


def test_a_named_chip_is_opened_with_the_chip_factory(monkeypatch):
    """`[gpio] chip` builds the GPIO source on gpiozero's lgpio factory for that chip (the virtual
    cabinet's gpio-sim, an x86 mini PC); a factory handed in (the tests' mock) wins."""
    from appliance.inputs import config as config_module

    made = []
    monkeypatch.setattr(config_module, "chip_factory", lambda chip: made.append(chip) or "factory:" + chip)
    (source,) = build_sources(read_config('sources = ["gpio"]\n[gpio]\nchip = "spit-cabinet"'))
    assert made == ["spit-cabinet"] and source._pin_factory == "factory:spit-cabinet"
    mock = MockFactory()
    (source,) = build_sources(read_config('sources = ["gpio"]\n[gpio]\nchip = 0'), pin_factory=mock)
    assert made == ["spit-cabinet"] and source._pin_factory is mock
