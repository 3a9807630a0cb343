"""Inputs: every press stamped at its edge, from any source, handed on in edge-time order.

The shape the rest of the program uses:

    from appliance.inputs import Press, Merger, load_config, build_merger, KeyboardSource

    merger = build_merger(load_config())       # sources chosen by the TOML configuration
    merger.start()
    while running:                             # the pygame main loop, each frame
        for press in merger.ready(time.monotonic_ns()):
            if press.is_game_press:            # a pressed edge of pile1..6/left/right/spit of player 1|2
                game.press((press.t_ns - game_start_ns) / 1e9, press.player, press.control)
    merger.stop()

- `Press(player, control, pressed, t_ns, source)`: frozen. `t_ns` is the EDGE time on the host's
  monotonic clock (the time.monotonic_ns() timebase); `player` 0 for the cabinet's `start`/`service`
  and its `coin` input (one debounced press a coin: debounce.COIN).
- A source (`Source` protocol, source.py): `start(sink)`, `stop()`, `poll(now_ns)`, `status(now_ns)`,
  `name`, `latency_ns`. It delivers into a `PressSink` (`put(press)`, `advance(source, t_ns)`);
  the Merger is that sink. Backends: GpioSource (gpio.py), SerialSource (serial_link.py),
  KeyboardSource (keyboard.py), TouchSource (touch.py), ScriptSource / MockSource (script_source.py).
- `Merger.ready(now_ns) -> list[Press]`: presses no earlier press can still overtake, in edge-time
  order (ties: arrival order). The re-order window is the largest latency bound of the configured
  sources, capped at 5 ms (gpio 2 ms, serial pads 4 ms, keyboard and scripts 0): see merge.py.
- `Merger.add(source)` takes one more source (started at once if the merger is running).
- `favour_input_threads()` (merge.py): call once in the game loop's process; it shortens Python's GIL
  switch interval to 0.5 ms so input threads are not kept waiting by a busy loop (see its docstring).
- Keyboard (desktop): `KeyboardSource(keymap).feed(pygame_event)`, `default_keymap()`, `legend(keymap)`.
- Mouse and touch screen: `TouchSource(hit, size).feed(pygame_event)`; `hit(x, y, last)` is the screen's
  say of what lies at a point (the display's touch_map.py); the display reads both itself.
- Configuration: `load_config(path=None, sources=None)`, `build_sources`, `build_merger` (config.py;
  the default is default.toml in this package). GPIOZERO_PIN_FACTORY=mock runs "gpio" without a Pi.
- Commands: `spit-arcade inputs` (switch_test.py), `spit-arcade pad-emulator` (pad_emulator.py),
  `spit-arcade bench inputs` (appliance/benchmarks/inputs.py).

This package never imports pygame, gpiozero or serial at import time: each backend loads its library
when it is built or started.
"""

from .config import ConfigError, InputsConfig, build_merger, build_sources, load_config
from .keyboard import KeyboardSource, default_keymap, legend
from .merge import Merger, favour_input_threads
from .press import ALL_CONTROLS, CABINET_CONTROLS, GAME_CONTROLS, Press, PressSink
from .source import ControlStatus, Source, SourceStatus

__all__ = [
    "ALL_CONTROLS",
    "CABINET_CONTROLS",
    "GAME_CONTROLS",
    "ConfigError",
    "ControlStatus",
    "InputsConfig",
    "KeyboardSource",
    "Merger",
    "Press",
    "PressSink",
    "Source",
    "SourceStatus",
    "build_merger",
    "build_sources",
    "default_keymap",
    "favour_input_threads",
    "legend",
    "load_config",
]
