from appliance.inputs.press import Press
from appliance.inputs.source import ControlStatus, SourceStatus
from appliance.inputs.switch_test import main, render

S = 1_000_000_000


def test_render_shows_every_control_its_flags_and_the_latest_edges():
    statuses = [
        SourceStatus(
            "gpio",
            "up",
            [
                ControlStatus(1, "left", "BCM13", down=True, presses=3, bounces=9, last_edge_ns=9 * S),
                ControlStatus(2, "spit", "BCM20", stuck=True, down=True, presses=1, last_edge_ns=1 * S),
            ],
        ),
        SourceStatus("serial:/dev/pad", "lost: no heartbeat", [], {"clock offset": "+1.000 ms", "garbage": "0"}),
    ]
    lines = render(statuses, [Press(1, "left", True, 9 * S, "gpio")], 10 * S, "default.toml", 4_000_000)
    text = "\n".join(lines)
    assert "re-order window 4.0 ms" in lines[0]
    assert "P1  left     BCM13          DOWN   presses 3     bounces 9     last edge   1.00 s ago" in text
    assert "P2  spit     BCM20          STUCK" in text
    assert "serial:/dev/pad   link: lost: no heartbeat" in text
    assert "clock offset +1.000 ms" in text and "garbage" not in text  # zero counters are left out
    assert "(no controls seen yet)" in text
    assert lines[-1].endswith("P1  left     pressed   gpio")


def test_once_prints_a_snapshot(tmp_path, capsys):
    script = tmp_path / "s.jsonl"
    script.write_text('{"t": 0.0, "player": 2, "press": "right"}\n')
    config = tmp_path / "inputs.toml"
    config.write_text(f'sources = ["mock"]\n[mock]\nscript = "{script}"\n')
    assert main(["--config", str(config), "--once", "--settle", "0"]) == 0
    out = capsys.readouterr().out
    # the script's source is "up" while it has edges left and "finished" once its press and release
    # are played: which one the snapshot catches depends on how soon it is taken (a loaded machine)
    assert ("mock   link: up" in out or "mock   link: finished" in out) and "P2  right    script" in out
    assert "link: lost" not in out and "(no controls seen yet)" not in out


def test_legend_and_bad_config(tmp_path, capsys):
    assert main(["--legend"]) == 0
    assert capsys.readouterr().out.startswith("Player 1  piles Q W E R T G")
    bad = tmp_path / "bad.toml"
    bad.write_text("sources = 3\n")
    assert main(["--config", str(bad)]) == 2
    assert "sources: must be" in capsys.readouterr().err


def _no_pins_here(monkeypatch, then=None):
    """gpiozero as on a desktop: each pin factory it tries falls back, then none is left (or `then`)."""
    import warnings

    from gpiozero import Device
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    def default_pin_factory():
        for name in ("lgpio", "rpigpio", "pigpio", "native"):
            warnings.warn(PinFactoryFallback(f"Falling back from {name}: not here"), stacklevel=2)
            if then is not None:
                return then()
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(default_pin_factory))


def test_on_a_desktop_no_gpio_is_said_once_plainly_without_gpiozeros_warnings(monkeypatch, capsys):
    import warnings

    _no_pins_here(monkeypatch)
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        assert main(["--once", "--settle", "0"]) == 1
    assert [str(w.message) for w in shown] == []
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "spit-arcade inputs: no GPIO pins on this machine (not a Raspberry Pi?); on a desktop try "
        "GPIOZERO_PIN_FACTORY=mock spit-arcade inputs, or --sources keyboard,serial"
    ]


def test_a_pi_that_falls_back_to_another_pin_factory_still_says_so(monkeypatch):
    import pytest
    from gpiozero.exc import PinFactoryFallback
    from gpiozero.pins.mock import MockFactory

    from appliance.inputs.gpio import GpioSource, PinControl

    _no_pins_here(monkeypatch, then=MockFactory)
    source = GpioSource([PinControl(17, 1, "left")])
    with pytest.warns(PinFactoryFallback, match="Falling back from lgpio"):
        source.start(sink=None)  # type: ignore[arg-type]
    source.stop()
