import os
import time

from gpiozero.pins.mock import MockFactory

from appliance.inputs.gpio import GpioSource, PinControl
from appliance.inputs.merge import Merger
from appliance.inputs.press import Press
from appliance.inputs.script_source import MockSource
from lab.benchmarks.inputs import (
    Consumer,
    RecordingMerger,
    bench_corrupt,
    bench_loss,
    kernel_edge,
    pct,
    raise_priority,
    summary,
)


def test_percentiles_and_summary():
    values = [float(n) for n in range(1, 101)]
    assert pct(values, 0.5) == 51.0 and pct(values, 0.99) == 100.0
    assert summary([3.0, 1.0, 2.0]) == {"p50": 2.0, "p99": 3.0, "max": 3.0}


def test_the_consumer_applies_presses_to_the_rules_core_in_edge_order():
    source = MockSource()
    with Consumer(Merger([source]), work_ns=100_000) as consumer:
        now = consumer.start_ns
        source.inject(2, "pile1", True, now + 2_000)
        source.inject(1, "pile1", True, now + 1_000)
        source.inject(1, "pile1", False, now + 3_000)  # releases are not applied
        got = consumer.take(2)
    assert [press.player for press, _ in got] == [1, 2]
    assert all(applied >= press.t_ns for press, applied in got)
    assert consumer.game.now > 0


def test_kernel_edge_delivers_the_given_stamp():
    factory = MockFactory()
    try:
        source = GpioSource([PinControl(5, 1, "spit")], pin_factory=factory)
        merger = Merger([source])
        merger.start()
        edge_ns = time.monotonic_ns() - 5_000_000
        kernel_edge(source.button(1, "spit").pin, edge_ns / 1e9, False)
        (press,) = merger.ready()
        merger.stop()
        assert abs(press.t_ns - edge_ns) < 1_000 and press.pressed
    finally:
        factory.close()


def test_raise_priority_reports_the_level_it_got():
    before = os.getpriority(os.PRIO_PROCESS, 0)
    assert raise_priority(before) == before


def test_the_corrupt_bench_matches_every_edge_it_sent(tmp_path):
    # a small run of the real thing: an emulator process spoiling 5% of frames each way
    result = bench_corrupt(edges=90, rate=0.05, work_ns=100_000, seed=3, link=str(tmp_path / "pad"))
    assert result["trials"] == 90 and result["applied"] == 45  # every other edge is a press
    assert (result["lost"], result["duplicated"], result["out_of_order"]) == (0, 0, 0)
    assert result["missing"] == 0 and result["stale"] == 0


def test_the_recording_merger_keeps_arrival_order():
    merger = RecordingMerger([])
    first = Press(1, "left", True, 20, "pad")
    second = Press(1, "left", False, 10, "pad")
    merger.put(first)
    merger.put(second)
    assert merger.arrived == [first, second]
    assert merger.ready(10**12) == [second, first]  # the merger itself still orders by edge time


def test_the_loss_bench_reports_both_kinds_of_loss(tmp_path):
    result = bench_loss(trials=1, link=str(tmp_path / "pad"))
    assert result["degraded_first"] is True  # garbage degrades the link before it is lost
    assert result["silence_ms"] > 0 and result["garbage_ms"] > 0


def test_the_race_position_is_decided_by_edge_order_through_the_match_whatever_the_delivery():
    from appliance.match import Match
    from lab.benchmarks.inputs import race_game, winner_of

    for first, delayed in ((1, False), (2, False), (1, True), (2, True)):
        t0 = 10_000_000_000
        match = Match(0, t0 - 1_000_000_000, game=race_game())
        slaps = [(t0, first), (t0 + 1_000_000, 3 - first)]
        if delayed:
            slaps.reverse()  # the earlier slap reaches the game last (a slow pad link)
        for t_ns, player in slaps:
            match.press(t_ns, player, "left" if player == 1 else "right", "bench")
        assert winner_of(match) == first
        assert match.rollbacks == (1 if delayed else 0)
        assert [e.kind for e in match.events][-2:] == ["play", "reject"]


def test_a_slow_link_delivers_later_and_in_the_order_it_was_given():
    import threading

    from lab.benchmarks.inputs import SlowLink

    class Sink:
        def __init__(self) -> None:
            self.got: list[object] = []
            self.done = threading.Event()

        def put(self, press: Press) -> None:
            self.got.append(press)

        def advance(self, source: str, t_ns: int) -> None:
            self.got.append(t_ns)
            self.done.set()

    class Inner:
        name = "serial:x"
        latency_ns = 4_000_000

        def start(self, sink: object) -> None: ...
        def stop(self) -> None: ...
        def poll(self, now_ns: int) -> None: ...
        def status(self, now_ns: int) -> None: ...

    delays = iter([0.02, 0.0, 0.0])
    link = SlowLink(Inner(), lambda: next(delays))  # type: ignore[arg-type]
    sink = Sink()
    link.start(sink)
    first, second = Press(2, "left", True, 1, "serial:x"), Press(2, "left", False, 2, "serial:x")
    sent_ns = time.monotonic_ns()
    link.put(first)
    link.put(second)  # no delay of its own, but a link keeps its order
    link.advance("serial:x", 3)
    assert sink.done.wait(5.0)
    assert time.monotonic_ns() - sent_ns >= 20_000_000
    assert sink.got == [first, second, 3]
    link.stop()


def test_the_rollback_bench_puts_every_late_pad_press_in_its_place():
    from lab.benchmarks.inputs import bench_rollback

    result = bench_rollback(games=1, pad_delay_ms=50.0, seed=3)
    assert result["games"] == 1 and result["presses"] > 50 and result["late_presses"] == 0
    assert result["rollbacks_per_1000_presses"] > 0 and result["depth_max"] >= 1
    assert bench_rollback(games=1, pad_delay_ms=0.0, seed=3)["rollbacks_per_1000_presses"] == 0
