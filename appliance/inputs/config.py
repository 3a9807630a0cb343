"""The inputs configuration (TOML): which sources run and how each control is wired.

    config = load_config()                 # the packaged default.toml, or a path, or $SPIT_INPUTS
    merger = build_merger(config)          # every configured source behind one Merger
    merger.start(); ...; merger.ready(now_ns); ...; merger.stop()

Backends by name: "gpio", "keyboard", "serial", "touch", "mock" (alias "scripted"). The file format
is documented in the default file itself (appliance/inputs/default.toml). "touch" (a mouse or a touch
screen on the game's screen, touch.py) is named here so a cabinet can turn it off like any source,
but the screen makes it (only it knows what lies under a tap): `build_sources` leaves it out.

A mistake in the file need not stop the cabinet: `load_config(strict=False)` (what `play` uses)
keeps the default for each key that is wrong and lists every problem (file and key) in
`InputsConfig.problems`; `parse_config` and `load_config` raise ConfigError naming them all.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from appliance.shared.bindings import key_name_problem, parse_binding
from appliance.shared.checks import Checker, Problem, key_name, shown

from .debounce import COIN, PAD, Timing
from .gpio import GpioSource, PinControl, chip_factory
from .keyboard import KeyboardSource, Keymap, check_keymap, default_keymap
from .merge import Merger
from .press import CABINET_CONTROLS, CABINET_PLAYER, GAME_CONTROLS
from .script_source import ScriptLineError, ScriptSource, read_script
from .serial_link import SerialSource
from .source import Source

BACKENDS = ("gpio", "keyboard", "serial", "touch", "mock", "scripted")
SCREEN_SOURCES = ("touch",)  # made by the screen that reads them (display/runner.py), not by build_sources
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
    coin_timing: Timing = COIN  # a coin input on the pad's station (hardware/wiring.md)


@dataclass
class InputsConfig:
    sources: list[str]
    max_window_ns: int = 5_000_000
    gpio: list[PinControl] = field(default_factory=list)
    gpio_pull_up: bool = True
    gpio_latency_ns: int = 2_000_000
    gpio_chip: str = ""  # "" gpiozero's own choice (a Pi); else a chip's number or label (gpio.chip_factory)
    keymap: Keymap = field(default_factory=default_keymap)
    serial: list[SerialPad] = field(default_factory=list)
    mock_script: str = ""
    mock_presses: list[tuple[float, int, str]] | None = None  # the mock script's presses, read when checked
    origin: str = "default"
    problems: list[Problem] = field(default_factory=list)  # what was wrong (each left at its default)


def default_config_text() -> str:
    return resources.files("appliance.inputs").joinpath("default.toml").read_text(encoding="utf-8")


# What each table may hold; the bounds keep a typo from making a control dead (a lockout of an hour).
_TOP = ("sources", "merge", "debounce", "gpio", "keyboard", "serial", "mock")
_DEBOUNCE = ("button_ms", "pad_ms", "coin_ms", "pads", "stuck_s")
_GPIO = ("pull_up", "latency_ms", "chip", *_SEATS)
_PIN = ("pin", "lockout_ms", "stuck_s")
_SERIAL = ("port", "player", "baudrate", "latency_ms", "silence_ms", "lockout_ms")
LOCKOUT_MS = (0.0, 500.0)
COIN_MS = (5.0, 500.0)  # a coin input with no lockout would count every bounce of its switch as a coin
STUCK_S = (0.5, 3600.0)
LATENCY_MS = (0.0, 100.0)
SILENCE_MS = (50.0, 60_000.0)
BAUDRATE = (300, 4_000_000)


def _ns(ms: float) -> int:
    return round(ms * 1_000_000)


def _sources(data: dict[str, Any], check: Checker) -> list[str]:
    value: list[Any] = check.read(data, "sources", ["gpio"], lambda v: v if isinstance(v, list) else None,
                                  f"be a list drawn from {', '.join(BACKENDS)}", using="gpio")
    chosen = []
    for index, name in enumerate(value):
        if name in BACKENDS:
            chosen.append(name)
        else:
            near = difflib.get_close_matches(str(name), BACKENDS, n=1)
            hint = f"did you mean {near[0]!r}?" if near else f"sources: {', '.join(BACKENDS)}"
            check.problem(f"sources[{index}]", f"unknown source {shown(name)} ({hint}); left out")
    return list(dict.fromkeys(chosen)) if chosen or not value else ["gpio"]


def _gpio(
    gpio: dict[str, Any], pads: list[str], lockouts: tuple[int, int, int], stuck_ns: int, check: Checker
) -> list[PinControl]:
    """The wired controls; `lockouts`: the default lockout of a button, a slap pad and the coin input."""
    button_ns, pad_ns, coin_ns = lockouts
    controls: list[PinControl] = []
    used: dict[int, str] = {}
    for seat, player in _SEATS.items():
        allowed = CABINET_CONTROLS if player == CABINET_PLAYER else GAME_CONTROLS
        table = check.table(gpio, seat, "gpio.")
        check.unknown(table, allowed, f"gpio.{seat}.", what="control")
        for control, value in table.items():
            where = f"gpio.{seat}.{control}"
            if control not in allowed:
                continue
            spec = value if isinstance(value, dict) else {"pin": value}
            check.unknown(spec, _PIN, where + ".")
            pin = spec.get("pin")
            if not isinstance(pin, int) or isinstance(pin, bool) or not 0 <= pin <= 27:
                check.problem(where, f"pin must be a BCM number 0-27, not {shown(pin)}; not wired")
                continue
            if pin in used:
                check.problem(where, f"BCM pin {pin} is used twice (by {used[pin]} too); not wired")
                continue
            used[pin] = where
            lockout_ms = (coin_ns if control == "coin" else pad_ns if control in pads else button_ns) / 1e6
            bounds = COIN_MS if control == "coin" else LOCKOUT_MS
            lockout = _ns(check.number(spec, "lockout_ms", lockout_ms, *bounds, where + "."))
            stuck = _ns(check.number(spec, "stuck_s", stuck_ns / 1e9, *STUCK_S, where + ".") * 1000)
            controls.append(PinControl(pin, player, control, Timing(lockout, stuck, settle_release=control == "coin")))
    return controls


def _keymap(keys: dict[str, Any], check: Checker) -> Keymap:
    keymap: Keymap = {}
    for key, value in keys.items():
        where = f"keyboard.keys.{key_name(key)}"
        wrong = key_name_problem(key)
        if wrong:
            check.problem(where, wrong)
            continue
        if key.lower() in keymap:
            check.problem(where, "this key is given twice; the first is kept")
            continue
        try:
            keymap = check_keymap({**keymap, key.lower(): parse_binding(value)})
        except ValueError as error:
            check.problem(where, f"{error}; ignored")
    return keymap


def _serial(data: dict[str, Any], pad_ns: int, coin_ns: int, stuck_ns: int, check: Checker) -> list[SerialPad]:
    serial: list[Any] = check.read(data, "serial", [], lambda v: v if isinstance(v, list) else None,
                                   "be an array of tables ([[serial]])", using="no serial pads")
    pads = []
    for index, pad in enumerate(serial):
        where = f"serial[{index}]"
        if not isinstance(pad, dict):
            check.problem(where, "must be a table ([[serial]]); left out")
            continue
        check.unknown(pad, _SERIAL, where + ".")
        port, player = pad.get("port"), pad.get("player")
        if not isinstance(port, str) or not port or "\0" in port:
            check.problem(where + ".port", f'needs port = "/dev/...", not {shown(port)}; pad left out')
            continue
        if player not in (1, 2, 3, 4) or isinstance(player, bool):  # 3 and 4: the panels of a 3- or 4-seat game
            check.problem(where + ".player", f"must be 1 to 4, not {shown(player)}; pad left out")
            continue
        pads.append(
            SerialPad(
                port=port,
                player=player,
                baudrate=check.integer(pad, "baudrate", 115200, *BAUDRATE, where + "."),
                latency_ns=_ns(check.number(pad, "latency_ms", 4.0, *LATENCY_MS, where + ".")),
                silence_ns=_ns(check.number(pad, "silence_ms", 500.0, *SILENCE_MS, where + ".")),
                timing=Timing(_ns(check.number(pad, "lockout_ms", pad_ns / 1e6, *LOCKOUT_MS, where + ".")), stuck_ns),
                coin_timing=Timing(coin_ns, stuck_ns, settle_release=True),
            )
        )
    return pads


def check_config(data: dict[str, Any], check: Checker) -> InputsConfig:
    """The configuration in a parsed file: each wrong value reported in `problems` and left at its
    default (a control with a wrong pin, a pad with a wrong port: left out)."""
    check.unknown(data, _TOP)
    config = InputsConfig(sources=_sources(data, check), origin=check.file, problems=check.problems)
    merge = check.table(data, "merge")
    check.unknown(merge, ("max_window_ms",), "merge.")
    config.max_window_ns = _ns(check.number(merge, "max_window_ms", 5.0, 0.0, 5.0, "merge."))

    debounce = check.table(data, "debounce")
    check.unknown(debounce, _DEBOUNCE, "debounce.")
    button_ns = _ns(check.number(debounce, "button_ms", 10.0, *LOCKOUT_MS, "debounce."))
    pad_ns = _ns(check.number(debounce, "pad_ms", 30.0, *LOCKOUT_MS, "debounce."))
    coin_ns = _ns(check.number(debounce, "coin_ms", 50.0, *COIN_MS, "debounce."))
    stuck_ns = _ns(check.number(debounce, "stuck_s", 5.0, *STUCK_S, "debounce.") * 1000)
    pads = check.read(debounce, "pads", ["left", "right"],
                      lambda value: value if isinstance(value, list) and all(p in GAME_CONTROLS for p in value)
                      else None, 'list game controls, e.g. ["left", "right"]', "debounce.")

    gpio = check.table(data, "gpio")
    check.unknown(gpio, _GPIO, "gpio.")
    config.gpio_pull_up = check.boolean(gpio, "pull_up", True, "gpio.")
    config.gpio_latency_ns = _ns(check.number(gpio, "latency_ms", 2.0, *LATENCY_MS, "gpio."))
    def a_chip(value: Any) -> str | None:  # a number or a label ("": gpiozero finds the Pi's)
        if isinstance(value, bool) or not isinstance(value, int | str) or (isinstance(value, int) and value < 0):
            return None
        return str(value)

    config.gpio_chip = check.read(gpio, "chip", "", a_chip, 'be a chip\'s number (0, 4) or label ("pinctrl-rp1")',
                                  "gpio.", "the Pi's own")
    config.gpio = _gpio(gpio, pads, (button_ns, pad_ns, coin_ns), stuck_ns, check)

    keyboard = check.table(data, "keyboard")
    check.unknown(keyboard, ("keys",), "keyboard.")
    keys = check.table(keyboard, "keys", "keyboard.")
    if keys:
        config.keymap = _keymap(keys, check)
    config.serial = _serial(data, pad_ns, coin_ns, stuck_ns, check)
    mock = check.table(data, "mock")
    check.unknown(mock, ("script",), "mock.")
    config.mock_script = check.string(mock, "script", "", "mock.")
    config.mock_presses = _mock_presses(config.mock_script, check)
    return config


def _mock_presses(script: str, check: Checker) -> list[tuple[float, int, str]]:
    """The presses of the mock source's script, read and checked now (a problem, and no presses,
    for a script that cannot be read or names a player or control the cabinet does not have)."""
    if not script:
        return []
    try:
        return read_script(script)
    except ScriptLineError as error:
        check.problem("mock.script", f"{error}; the mock source plays nothing")
    except OSError as error:
        why = error.strerror or error
        check.problem("mock.script", f"cannot read {script!r} ({why}); the mock source plays nothing")
    return []


def read_config(text: str, origin: str = "<text>") -> InputsConfig:
    """The configuration in `text`, never raising: what is wrong is in `problems`, each left at its
    default; text that is not TOML at all gives the packaged default."""
    check = Checker(origin)
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        why = "not TOML this program reads (nested too deeply)" if isinstance(error, RecursionError) else (
            f"not valid TOML ({error})"
        )
        check.problem("", f"{why}; using the packaged default")
        config = check_config(tomllib.loads(default_config_text()), Checker("default.toml"))
        config.origin, config.problems = origin, check.problems
        return config
    return check_config(data, check)


def parse_config(text: str, origin: str = "<text>") -> InputsConfig:
    """The configuration in `text`; ConfigError naming every problem if anything is wrong."""
    config = read_config(text, origin)
    if config.problems:
        raise ConfigError("\n".join(str(p) for p in config.problems))
    return config


def load_config(
    path: str | Path | None = None, sources: list[str] | None = None, *, strict: bool = True
) -> InputsConfig:
    """Read a configuration file (default: $SPIT_INPUTS, else the packaged default.toml).

    `strict` (the switch test, whoever wires a cabinet): ConfigError naming every mistake.
    `strict=False` (the game, which must never stop for a typo): what is wrong is listed in
    `problems` and left at its default (a file that cannot be read gives the packaged default).
    `sources`, if given, replaces the file's list of sources to start (ConfigError if unknown).
    """
    chosen = path if path is not None else os.environ.get("SPIT_INPUTS") or None
    if chosen is None:
        config = read_config(default_config_text(), "default.toml")
    else:
        try:
            text = Path(chosen).read_text(encoding="utf-8")
        except (OSError, ValueError) as error:  # missing, unreadable, a directory, not UTF-8
            if strict:
                raise ConfigError(f"cannot read inputs configuration {chosen}: {error}") from error
            config = read_config(default_config_text(), "default.toml")
            config.origin = str(chosen)
            config.problems = [Problem(str(chosen), "", f"cannot read it ({error}); using the packaged default")]
        else:
            config = read_config(text, str(chosen))
    if strict and config.problems:
        raise ConfigError("\n".join(str(p) for p in config.problems))
    if sources is not None:
        unknown = [s for s in sources if s not in BACKENDS]
        if unknown:
            raise ConfigError(f"unknown source(s) {unknown}; choose from {', '.join(BACKENDS)}")
        config.sources = list(dict.fromkeys(sources))
    return config


def build_sources(config: InputsConfig, pin_factory: Any = None) -> list[Source]:
    """One Source per configured backend (one per pad for serial), not yet started; none for the
    screen's own (`SCREEN_SOURCES`: the touch screen, which the game's screen makes)."""
    out: list[Source] = []
    for backend in config.sources:
        if backend == "gpio":
            factory = pin_factory
            if factory is None and config.gpio_chip:  # a chip named in [gpio]: not gpiozero's own choice
                factory = chip_factory(config.gpio_chip)
            out.append(
                GpioSource(
                    config.gpio,
                    latency_ns=config.gpio_latency_ns,
                    pull_up=config.gpio_pull_up,
                    pin_factory=factory,
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
                        coin_timing=pad.coin_timing,
                        latency_ns=pad.latency_ns,
                        silence_ns=pad.silence_ns,
                    )
                )
        elif backend in ("mock", "scripted"):
            if config.mock_presses is not None:
                presses = config.mock_presses
            else:  # a configuration built in code, never checked
                presses = read_script(config.mock_script) if config.mock_script else []
            out.append(ScriptSource(presses, name="mock"))
    return out


def build_merger(config: InputsConfig, pin_factory: Any = None) -> Merger:
    return Merger(build_sources(config, pin_factory), max_window_ns=config.max_window_ns)
