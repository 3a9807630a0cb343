import os
import time

from gpiozero.pins.mock import MockFactory

from appliance.benchmarks.inputs import (
    Consumer,
    RecordingMerger,
    bench_corrupt,
    bench_loss,
    kernel_edge,
    pct,
    raise_priority,
    summary,
)
from appliance.inputs.gpio import GpioSource, PinControl
from appliance.inputs.merge import Merger
from appliance.inputs.press import Press
from appliance.inputs.script_source import MockSource


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
