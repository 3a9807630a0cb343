"""The inputs configuration (TOML): which sources run and how each control is wired.

    config = load_config()                 # the packaged default.toml, or a path, or $SPIT_INPUTS
    merger = build_merger(config)          # every configured source behind one Merger
    merger.start(); ...; merger.ready(now_ns); ...; merger.stop()

Backends by name: "gpio", "keyboard", "serial", "mock" (alias "scripted"). The file format is
documented in the default file itself (appliance/inputs/default.toml).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .debounce import PAD, Timing
from .gpio import GpioSource, PinControl
from .keyboard import KeyboardSource, Keymap, check_keymap, default_keymap
from .merge import Merger
from .press import ALL_CONTROLS, CABINET_CONTROLS, CABINET_PLAYER, GAME_CONTROLS
from .script_source import ScriptSource, read_script
from .serial_link import SerialSource
from .source import Source

BACKENDS = ("gpio", "keyboard", "serial", "mock", "scripted")
_SEATS = {"player1": 1, "player2": 2, "cabinet": CABINET_PLAYER}


class ConfigError(ValueError):
    """The inputs configuration is wrong; the message says where."""


@dataclass(frozen=True)
class SerialPad:
    port: str
    player: int
    baudrate: int = 115200
    latency_ns: int = 4_000_000
    silence_ns: int = 500_000_000
    timing: Timing = PAD


@dataclass
class InputsConfig:
    sources: list[str]
    max_window_ns: int = 5_000_000
    gpio: list[PinControl] = field(default_factory=list)
    gpio_pull_up: bool = True
    gpio_latency_ns: int = 2_000_000
    keymap: Keymap = field(default_factory=default_keymap)
    serial: list[SerialPad] = field(default_factory=list)
    mock_script: str = ""
    origin: str = "default"


def default_config_text() -> str:
    return resources.files("appliance.inputs").joinpath("default.toml").read_text(encoding="utf-8")


def _ms(value: Any, where: str) -> int:
    if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
        raise ConfigError(f"{where}: expected a number of milliseconds >= 0, not {value!r}")
    return round(value * 1_000_000)


def _seconds(value: Any, where: str) -> int:
    return _ms(value, where) * 1000


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"[{key}] must be a table")
    return value


def parse_config(text: str, origin: str = "<text>") -> InputsConfig:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{origin}: {error}") from error
    sources = data.get("sources", ["gpio"])
    if not isinstance(sources, list) or not all(s in BACKENDS for s in sources):
        raise ConfigError(f"{origin}: sources must be a list drawn from {', '.join(BACKENDS)}")
    config = InputsConfig(sources=list(dict.fromkeys(sources)), origin=origin)
    config.max_window_ns = _ms(_table(data, "merge").get("max_window_ms", 5.0), "merge.max_window_ms")
    if config.max_window_ns > 5_000_000:
        raise ConfigError(f"{origin}: merge.max_window_ms is at most 5")

    debounce = _table(data, "debounce")
    button_ns = _ms(debounce.get("button_ms", 10), "debounce.button_ms")
    pad_ns = _ms(debounce.get("pad_ms", 30), "debounce.pad_ms")
    stuck_ns = _seconds(debounce.get("stuck_s", 5), "debounce.stuck_s")
    pads = debounce.get("pads", ["left", "right"])
    if not isinstance(pads, list) or not all(p in ALL_CONTROLS for p in pads):
        raise ConfigError(f"{origin}: debounce.pads must list controls")

    gpio = _table(data, "gpio")
    config.gpio_pull_up = bool(gpio.get("pull_up", True))
    config.gpio_latency_ns = _ms(gpio.get("latency_ms", 2.0), "gpio.latency_ms")
    for seat, player in _SEATS.items():
        allowed = CABINET_CONTROLS if player == CABINET_PLAYER else GAME_CONTROLS
        for control, value in _table(gpio, seat).items():
            where = f"gpio.{seat}.{control}"
            if control not in allowed:
                raise ConfigError(f"{origin}: {where}: unknown control (one of {', '.join(allowed)})")
            spec = value if isinstance(value, dict) else {"pin": value}
            pin = spec.get("pin")
            if not isinstance(pin, int) or isinstance(pin, bool) or not 0 <= pin <= 27:
                raise ConfigError(f"{origin}: {where}: pin must be a BCM number 0-27, not {pin!r}")
            lockout = pad_ns if control in pads else button_ns
            if "lockout_ms" in spec:
                lockout = _ms(spec["lockout_ms"], where + ".lockout_ms")
            stuck = _seconds(spec["stuck_s"], where + ".stuck_s") if "stuck_s" in spec else stuck_ns
            config.gpio.append(PinControl(pin, player, control, Timing(lockout, stuck)))
    pins = [c.pin for c in config.gpio]
    doubled = sorted({pin for pin in pins if pins.count(pin) > 1})
    if doubled:
        raise ConfigError(f"{origin}: BCM pin(s) {doubled} used twice")

    keys = _table(_table(data, "keyboard"), "keys")
    if keys:
        keymap: dict[str, tuple[int, str]] = {}
        for key, value in keys.items():
            words = str(value).split()
            if len(words) != 2 or not words[0].isdigit():
                raise ConfigError(f'{origin}: keyboard.keys.{key}: expected "PLAYER CONTROL", not {value!r}')
            keymap[key] = (int(words[0]), words[1])
        try:
            config.keymap = check_keymap(keymap)
        except ValueError as error:
            raise ConfigError(f"{origin}: keyboard.keys: {error}") from error

    serial = data.get("serial", [])
    if not isinstance(serial, list):
        raise ConfigError(f"{origin}: serial must be an array of tables ([[serial]])")
    for index, pad in enumerate(serial):
        where = f"serial[{index}]"
        if not isinstance(pad, dict) or not isinstance(pad.get("port"), str):
            raise ConfigError(f'{origin}: {where}: needs port = "..."')
        if pad.get("player") not in (1, 2):
            raise ConfigError(f"{origin}: {where}: player must be 1 or 2")
        config.serial.append(
            SerialPad(
                port=pad["port"],
                player=pad["player"],
                baudrate=int(pad.get("baudrate", 115200)),
                latency_ns=_ms(pad.get("latency_ms", 4.0), where + ".latency_ms"),
                silence_ns=_ms(pad.get("silence_ms", 500), where + ".silence_ms"),
                timing=Timing(_ms(pad.get("lockout_ms", pad_ns / 1e6), where + ".lockout_ms"), stuck_ns),
            )
        )
    config.mock_script = str(_table(data, "mock").get("script", ""))
    return config


def load_config(path: str | Path | None = None, sources: list[str] | None = None) -> InputsConfig:
    """Read a configuration file (default: $SPIT_INPUTS, else the packaged default.toml).

    `sources`, if given, replaces the file's list of sources to start.
    """
    chosen = path if path is not None else os.environ.get("SPIT_INPUTS") or None
    if chosen is None:
        config = parse_config(default_config_text(), "default.toml")
    else:
        try:
            text = Path(chosen).read_text(encoding="utf-8")
        except OSError as error:
            raise ConfigError(f"cannot read inputs configuration {chosen}: {error}") from error
        config = parse_config(text, str(chosen))
    if sources is not None:
        unknown = [s for s in sources if s not in BACKENDS]
        if unknown:
            raise ConfigError(f"unknown source(s) {unknown}; choose from {', '.join(BACKENDS)}")
        config.sources = list(dict.fromkeys(sources))
    return config


def build_sources(config: InputsConfig, pin_factory: Any = None) -> list[Source]:
    """One Source per configured backend (one per pad for serial), not yet started."""
    out: list[Source] = []
    for backend in config.sources:
        if backend == "gpio":
            out.append(
                GpioSource(
                    config.gpio, latency_ns=config.gpio_latency_ns, pull_up=config.gpio_pull_up, pin_factory=pin_factory
                )
            )
        elif backend == "keyboard":
            out.append(KeyboardSource(config.keymap))
        elif backend == "serial":
            for pad in config.serial:
                out.append(
                    SerialSource(
                        pad.port,
                        pad.player,
                        baudrate=pad.baudrate,
                        timing=pad.timing,
                        latency_ns=pad.latency_ns,
                        silence_ns=pad.silence_ns,
                    )
                )
        elif backend in ("mock", "scripted"):
            presses = read_script(config.mock_script) if config.mock_script else []
            out.append(ScriptSource(presses, name="mock"))
    return out


def build_merger(config: InputsConfig, pin_factory: Any = None) -> Merger:
    return Merger(build_sources(config, pin_factory), max_window_ns=config.max_window_ns)
