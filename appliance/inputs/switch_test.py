"""`spit-arcade inputs`: the switch test, for whoever wires a cabinet.

Starts every configured source and shows, live, every control of every source: down or up, stuck,
debounced presses and swallowed bounces, when its last edge was; for serial pads the link state, clock
offset and error bound, and the garbage counters; and a list of the latest debounced edges in the order
the game would get them. Plain text redrawn in place (ANSI home + clear), so it works over SSH on the
cabinet. Keyboard sources need a window: one is opened when "keyboard" is among the sources.

    spit-arcade inputs                              # the configured sources
    GPIOZERO_PIN_FACTORY=mock spit-arcade inputs    # on a desktop
    spit-arcade inputs --sources serial --config my-inputs.toml
    spit-arcade inputs --once                       # one snapshot, then exit
    spit-arcade inputs --legend                     # print the keyboard map
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from .config import ConfigError, build_merger, load_config
from .gpio import NoGpio
from .keyboard import KeyboardSource, legend
from .merge import Merger
from .press import Press
from .source import SourceStatus

CLEAR = "\x1b[H\x1b[2J"
SEAT = {0: "cab", 1: "P1", 2: "P2"}


def _ago(now_ns: int, t_ns: int | None) -> str:
    if t_ns is None:
        return "never"
    seconds = (now_ns - t_ns) / 1e9
    return f"{seconds:6.2f} s ago"


def render(
    statuses: Iterable[SourceStatus], recent: Iterable[Press], now_ns: int, origin: str, window_ns: int
) -> list[str]:
    """The switch test's screen, as lines."""
    lines = [
        f"Spit Arcade switch test  --  config {origin}  --  re-order window {window_ns / 1e6:.1f} ms"
        "  --  Ctrl-C to leave",
        "",
    ]
    for status in statuses:
        lines.append(f"{status.name}   link: {status.link}")
        shown = {k: v for k, v in status.details.items() if v not in ("0", "-", "")}
        if shown:
            lines.append("  " + "   ".join(f"{k} {v}" for k, v in shown.items()))
        for c in status.controls:
            state = "STUCK" if c.stuck else ("DOWN " if c.down else "up   ")
            lines.append(
                f"  {SEAT.get(c.player, str(c.player)):<3} {c.control:<8} {c.wiring:<14} {state}"
                f"  presses {c.presses:<5} bounces {c.bounces:<5} last edge {_ago(now_ns, c.last_edge_ns)}"
            )
        if not status.controls:
            lines.append("  (no controls seen yet)")
        lines.append("")
    lines.append("Latest edges, in the order the game gets them:")
    for press in recent:
        what = "pressed " if press.pressed else "released"
        lines.append(
            f"  {_ago(now_ns, press.t_ns)}  {SEAT.get(press.player, '?'):<3} {press.control:<8} {what}  {press.source}"
        )
    return lines


class _Window:
    """A small pygame window so keyboard sources get key events."""

    def __init__(self, keyboards: list[KeyboardSource]) -> None:
        import pygame

        pygame.init()
        self.pygame = pygame
        self.surface = pygame.display.set_mode((480, 120))
        pygame.display.set_caption("Spit Arcade switch test: keyboard")
        self.keyboards = keyboards
        font = pygame.font.Font(None, 22)
        self.surface.fill((20, 60, 30))
        for row, line in enumerate(legend(keyboards[0].keymap)):
            self.surface.blit(font.render(line, True, (240, 240, 220)), (10, 10 + 24 * row))
        pygame.display.flip()

    def pump(self) -> bool:
        for event in self.pygame.event.get():
            if event.type == self.pygame.QUIT:
                return False
            for keyboard in self.keyboards:
                keyboard.feed(event)
        return True


def run(
    merger: Merger,
    origin: str,
    out: TextIO,
    interval_s: float,
    frames: int | None,
    clock: Callable[[], int] = time.monotonic_ns,
) -> None:
    keyboards = [s for s in merger.sources if isinstance(s, KeyboardSource)]
    window: Any = None
    if keyboards:
        try:
            window = _Window(keyboards)
        except Exception as error:  # no display: the other sources still show
            print(f"keyboard: no window ({error})", file=sys.stderr)
    recent: deque[Press] = deque(maxlen=12)
    drawn = 0
    while frames is None or drawn < frames:
        if window is not None and not window.pump():
            return
        now = clock()
        recent.extend(merger.ready(now))
        lines = render(merger.status(now), reversed(recent), now, origin, merger.window_ns)
        out.write((CLEAR if frames is None else "") + "\n".join(lines) + "\n")
        out.flush()
        drawn += 1
        if frames is None or drawn < frames:
            time.sleep(interval_s)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade inputs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", help="inputs configuration (TOML); default $SPIT_INPUTS or the built-in")
    parser.add_argument("--sources", help="comma-separated sources to test instead of the configured ones")
    parser.add_argument("--once", action="store_true", help="print one snapshot (after --settle) and exit")
    parser.add_argument("--settle", type=float, default=0.5, help="seconds to let links come up for --once")
    parser.add_argument("--interval", type=float, default=0.1, help="seconds between redraws")
    parser.add_argument("--legend", action="store_true", help="print the keyboard legend and exit")
    args = parser.parse_args(argv)
    if not 0 <= args.settle <= 60:
        parser.error("--settle must be from 0 to 60 seconds")
    if not 0.01 <= args.interval <= 60:
        parser.error("--interval must be from 0.01 to 60 seconds")
    try:
        config = load_config(args.config, args.sources.split(",") if args.sources else None)
    except ConfigError as error:
        print(f"spit-arcade inputs: {error}", file=sys.stderr)
        return 2
    if args.legend:
        print("\n".join(legend(config.keymap)))
        return 0
    try:
        merger = build_merger(config)
        merger.start()
    except NoGpio as error:  # a desktop: said once, plainly, with what to do instead
        print(f"spit-arcade inputs: {error}; on a desktop try GPIOZERO_PIN_FACTORY=mock spit-arcade inputs, "
              "or --sources keyboard,serial", file=sys.stderr)
        return 1
    except Exception as error:  # a pin in use, no permission on /dev/gpiochip*, ...
        print(f"spit-arcade inputs: cannot start the inputs: {error}", file=sys.stderr)
        print("  (on a desktop: GPIOZERO_PIN_FACTORY=mock, or --sources keyboard,serial)", file=sys.stderr)
        return 1
    try:
        if args.once:
            time.sleep(args.settle)
            run(merger, config.origin, sys.stdout, args.interval, frames=1)
        else:
            run(merger, config.origin, sys.stdout, args.interval, frames=None)
    except KeyboardInterrupt:
        pass
    finally:
        merger.stop()
    return 0
