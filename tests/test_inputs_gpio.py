import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory
from gpiozero.pins.pi import PiPin

from appliance.inputs.debounce import Timing
from appliance.inputs.gpio import EdgeClock, GpioSource, PinControl
from appliance.inputs.merge import Merger

MS = 1_000_000
T0 = 1_000 * 1_000_000_000  # an edge time, in monotonic ns (the fake clocks below agree)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    try:
        yield factory
    finally:
        factory.close()


def fixed_clock() -> EdgeClock:
    return EdgeClock(monotonic_ns=lambda: T0, realtime_ns=lambda: 1_700_000_000 * 1_000_000_000)


def kernel_edge(source: GpioSource, player: int, control: str, t_ns: int, pressed: bool) -> None:
    """An edge as lgpio delivers it: the kernel's stamp (seconds), the new level (low = pressed)."""
    pin = source.button(player, control).pin
    level = not pressed
    pin._state = level
    PiPin._call_when_changed(pin, t_ns / 1e9, level)


def started(factory: MockFactory, controls: list[PinControl]) -> tuple[GpioSource, Merger]:
    source = GpioSource(controls, pin_factory=factory, edge_clock=fixed_clock())
    merger = Merger([source])
    merger.start()
    return source, merger


def test_the_press_carries_the_edge_time_not_the_poll_time(factory):
    source, merger = started(factory, [PinControl(17, 1, "left")])
    try:
        kernel_edge(source, 1, "left", T0 - 3 * MS, True)
        assert merger.pending() == 0  # the callback only queued it
        (press,) = merger.ready(T0 + 500 * MS)
        assert (press.player, press.control, press.pressed, press.source) == (1, "left", True, "gpio")
        assert press.t_ns == T0 - 3 * MS
    finally:
        merger.stop()


def test_a_bounce_burst_gives_exactly_one_press(factory):
    source, merger = started(factory, [PinControl(17, 1, "left", Timing(lockout_ns=10 * MS))])
    try:
        for n in range(9):  # 9 edges in 4 ms, ending pressed
            kernel_edge(source, 1, "left", T0 + n * MS // 2, n % 2 == 0)
        out = merger.ready(T0 + 100 * MS)
        assert [(p.pressed, p.t_ns) for p in out] == [(True, T0)]
        status = source.status(T0).controls[0]
        assert (status.down, status.presses, status.bounces) == (True, 1, 8)
    finally:
        merger.stop()


def test_the_mock_pin_driven_directly_works_end_to_end(factory):
    source = GpioSource([PinControl(22, 2, "spit")], pin_factory=factory)
    merger = Merger([source])
    merger.start()
    try:
        pin = source.button(2, "spit").pin
        pin.drive_low()
        pin.drive_high()
        pin.drive_low()
        out = merger.ready()
        assert [(p.player, p.control, p.pressed) for p in out] == [(2, "spit", True)]
    finally:
        merger.stop()


def test_a_stuck_control_is_flagged_and_ignored_and_the_game_goes_on(factory):
    controls = [PinControl(17, 1, "left", Timing(stuck_ns=5_000 * MS)), PinControl(27, 2, "right")]
    source, merger = started(factory, controls)
    try:
        kernel_edge(source, 1, "left", T0, True)
        assert len(merger.ready(T0 + 10 * MS)) == 1
        merger.ready(T0 + 5_001 * MS)
        assert [c.stuck for c in source.status(T0).controls] == [True, False]
        kernel_edge(source, 2, "right", T0 + 5_100 * MS, True)  # the other player plays on
        assert [p.player for p in merger.ready(T0 + 5_200 * MS)] == [2]
        kernel_edge(source, 1, "left", T0 + 6_000 * MS, False)  # released: back in service
        kernel_edge(source, 1, "left", T0 + 7_000 * MS, True)
        assert [(p.player, p.pressed) for p in merger.ready(T0 + 7_100 * MS)] == [(1, True)]
    finally:
        merger.stop()


def test_mashing_does_not_starve_the_other_player(factory):
    controls = [PinControl(17, 1, "pile1", Timing(lockout_ns=1 * MS)), PinControl(27, 2, "pile1")]
    source, merger = started(factory, controls)
    try:
        t = T0
        for n in range(400):  # player 1 hammers at 500 edges a second
            kernel_edge(source, 1, "pile1", t, n % 2 == 0)
            if n == 200:
                kernel_edge(source, 2, "pile1", t + MS // 2, True)
            t += 2 * MS
        out = [p for p in merger.ready(t + 100 * MS) if p.pressed]
        assert len(out) == 201
        p2 = next(p for p in out if p.player == 2)
        assert p2.t_ns == T0 + 400 * MS + MS // 2
        assert [p.t_ns for p in out] == sorted(p.t_ns for p in out)
    finally:
        merger.stop()


def test_edge_clock_maps_realtime_ticks_onto_the_monotonic_clock():
    clock = EdgeClock(monotonic_ns=lambda: 5_000 * MS, realtime_ns=lambda: 1_700_000_000_000 * MS)
    assert clock.to_monotonic_ns(4.990) == 4_990 * MS  # monotonic ticks pass through
    # realtime ticks are shifted (a float of epoch seconds resolves ~0.2 us)
    assert abs(clock.to_monotonic_ns(1_700_000_000.0 - 0.25) - 4_750 * MS) < 1_000
    assert clock.to_monotonic_ns(12.0e6) == 5_000 * MS  # neither: "now", counted
    assert clock.unplaced == 1


def test_wiring_mistakes_are_refused(factory):
    with pytest.raises(ValueError, match="share a GPIO pin"):
        GpioSource([PinControl(17, 1, "left"), PinControl(17, 1, "right")], pin_factory=factory)
    with pytest.raises(ValueError, match="two GPIO pins"):
        GpioSource([PinControl(17, 1, "left"), PinControl(18, 1, "left")], pin_factory=factory)


def test_stop_releases_the_pins(factory):
    source, merger = started(factory, [PinControl(17, 1, "left")])
    merger.stop()
    assert source.status(T0).link == "stopped"
    _again, merger = started(factory, [PinControl(17, 2, "right")])  # the pin is free again
    merger.stop()


# ---------------------------------------------------------------- the coin input


def coin_source(factory: MockFactory) -> tuple[GpioSource, Merger]:
    """The default configuration's coin input (BCM 11, its 50 ms lockout), on mock pins."""
    from appliance.inputs.config import load_config

    (coin,) = [c for c in load_config().gpio if c.control == "coin"]
    assert (coin.pin, coin.player, coin.timing.lockout_ns) == (11, 0, 50 * MS)
    return started(factory, [coin])


def coin_presses(merger: Merger, now_ns: int) -> list[tuple[bool, int]]:
    return [(p.pressed, p.t_ns) for p in merger.ready(now_ns) if p.control == "coin"]


def test_a_coin_pulse_that_chatters_is_one_coin(factory):
    source, merger = coin_source(factory)
    try:
        for n in range(7):  # a mechanical coin switch: 7 edges in 3 ms closing, settling closed
            kernel_edge(source, 0, "coin", T0 + n * MS // 2, n % 2 == 0)
        for n in range(5):  # and 5 opening 60 ms later, settling open
            kernel_edge(source, 0, "coin", T0 + 60 * MS + n * MS // 2, n % 2 == 1)
        assert coin_presses(merger, T0 + 100 * MS) == [(True, T0)]  # open, not for long enough yet
        assert coin_presses(merger, T0 + 300 * MS) == [(False, T0 + 62 * MS)]  # settled open at 62 ms
        status = source.status(T0).controls[0]
        assert (status.presses, status.wiring) == (1, "BCM11")
    finally:
        merger.stop()


def test_a_short_acceptor_pulse_is_one_coin_and_the_next_coin_another(factory):
    source, merger = coin_source(factory)
    try:
        for start in (T0, T0 + 250 * MS):  # an electronic acceptor's "fast" 20 ms pulses, two coins
            kernel_edge(source, 0, "coin", start, True)
            kernel_edge(source, 0, "coin", start + 20 * MS, False)  # within the lockout: seen after it
        out = coin_presses(merger, T0 + 600 * MS)
        assert [pressed for pressed, _ in out] == [True, False, True, False]
        assert [t for _, t in out] == [T0, T0 + 20 * MS, T0 + 250 * MS, T0 + 270 * MS]
    finally:
        merger.stop()


def test_a_held_or_stuck_coin_switch_is_one_coin_however_it_chatters(factory):
    source, merger = coin_source(factory)
    try:
        kernel_edge(source, 0, "coin", T0, True)
        assert coin_presses(merger, T0 + 10 * MS) == [(True, T0)]
        merger.ready(T0 + 5_001 * MS)  # held past stuck_s: flagged, and ignored until released
        assert source.status(T0).controls[0].stuck
        t = T0 + 5_100 * MS
        for n in range(40):  # a coin jammed on the lever, rattling: open for 5 ms every 100 ms
            kernel_edge(source, 0, "coin", t + n * 100 * MS, False)
            kernel_edge(source, 0, "coin", t + n * 100 * MS + 5 * MS, True)
            merger.ready(t + n * 100 * MS + 50 * MS)
        assert coin_presses(merger, t + 5_000 * MS) == []
        assert source.status(T0).controls[0].stuck
        kernel_edge(source, 0, "coin", t + 9_000 * MS, False)  # cleared: the next coin counts again
        kernel_edge(source, 0, "coin", t + 9_500 * MS, True)
        assert coin_presses(merger, t + 9_600 * MS) == [(True, t + 9_500 * MS)]
        assert not source.status(T0).controls[0].stuck
    finally:
        merger.stop()


def test_a_coin_switch_held_down_that_blips_open_is_one_coin_before_it_is_stuck_too(factory):
    source, merger = coin_source(factory)
    try:
        kernel_edge(source, 0, "coin", T0, True)
        out = []
        for n in range(1, 20):  # held for 2 s, opening for 3 ms every 100 ms (never stuck_s)
            kernel_edge(source, 0, "coin", T0 + n * 100 * MS, False)
            kernel_edge(source, 0, "coin", T0 + n * 100 * MS + 3 * MS, True)
            out += coin_presses(merger, T0 + n * 100 * MS + 60 * MS)
        kernel_edge(source, 0, "coin", T0 + 2_000 * MS, False)
        out += coin_presses(merger, T0 + 2_100 * MS)
        assert out == [(True, T0), (False, T0 + 2_000 * MS)]
        status = source.status(T0).controls[0]
        assert (status.presses, status.bounces, status.stuck) == (1, 38, False)
    finally:
        merger.stop()


def test_the_coin_pin_driven_directly_gives_one_coin_per_pulse(factory):
    from appliance.inputs.config import load_config

    (coin,) = [c for c in load_config().gpio if c.control == "coin"]
    source = GpioSource([coin], pin_factory=factory)  # the mock pins' own clock: time.monotonic
    merger = Merger([source])
    merger.start()
    try:
        pin = factory.pin(11)
        before = time.monotonic_ns()
        pin.drive_low()  # a coin: the acceptor pulls the line low
        pin.drive_high()
        pin.drive_low()  # bounce, within the lockout
        pin.drive_high()
        out = merger.ready(before)  # polled at once: the press; the release waits to settle
        assert [(p.player, p.control, p.pressed) for p in out] == [(0, "coin", True)]
        out = merger.ready(before + 10_000 * MS)
        assert [(p.player, p.control, p.pressed) for p in out] == [(0, "coin", False)]
        assert source.status(before).controls[0].presses == 1
    finally:
        merger.stop()
