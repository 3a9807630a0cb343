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
