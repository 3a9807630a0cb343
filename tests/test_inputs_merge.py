import threading

from appliance.inputs.merge import Merger
from appliance.inputs.press import Press
from appliance.inputs.script_source import MockSource

MS = 1_000_000


def press(player: int, t_ms: float, source: str = "a", control: str = "left") -> Press:
    return Press(player, control, True, int(t_ms * MS), source)


def test_one_source_is_released_at_once_in_edge_order():
    merger = Merger([MockSource("a", latency_ns=1 * MS)])
    merger.put(press(1, 10))
    merger.put(press(2, 9))
    assert [p.player for p in merger.ready(10 * MS)] == [2, 1]


def test_ties_keep_arrival_order():
    merger = Merger()
    merger.register("a", 0)
    first, second = press(2, 5), press(1, 5)
    merger.put(first)
    merger.put(second)
    assert merger.ready(6 * MS) == [first, second]


def test_a_press_waits_for_a_slower_source_up_to_its_latency():
    merger = Merger([MockSource("gpio", latency_ns=1 * MS), MockSource("pad", latency_ns=4 * MS)])
    merger.put(press(1, 100, "gpio"))
    assert merger.ready(101 * MS) == []  # the pad may still deliver an earlier slap
    assert merger.ready(int(103.9 * MS)) == []
    late_pad = press(2, 99.5, "pad")  # it did: 4 ms of link later
    merger.put(late_pad)
    assert [p.player for p in merger.ready(104 * MS)] == [2, 1]
    assert merger.late == 0


def test_a_watermark_from_the_slow_source_releases_early():
    merger = Merger([MockSource("gpio", latency_ns=1 * MS), MockSource("pad", latency_ns=4 * MS)])
    merger.put(press(1, 100, "gpio"))
    merger.advance("pad", 100 * MS)  # a heartbeat: nothing earlier is coming from the pad
    assert [p.player for p in merger.ready(int(100.1 * MS))] == [1]


def test_the_window_is_bounded_and_stragglers_are_counted():
    merger = Merger([MockSource("gpio"), MockSource("pad", latency_ns=50 * MS)])
    assert merger.window_ns == 5 * MS
    merger.put(press(1, 100, "gpio"))
    assert merger.ready(105 * MS) != []
    merger.put(press(2, 90, "pad"))  # 15 ms late: beyond any bound
    assert [p.player for p in merger.ready(105 * MS)] == [2]
    assert merger.late == 1


def test_mashing_does_not_starve_the_other_player():
    merger = Merger([MockSource("p1"), MockSource("p2", latency_ns=2 * MS)])
    for n in range(1000):  # player 1 mashes every 0.1 ms
        merger.put(press(1, n * 0.1, "p1", "pile1"))
    merger.put(press(2, 50.05, "p2"))
    out = merger.ready(200 * MS)
    position = [p.player for p in out].index(2)
    assert position == 501  # exactly between player 1's presses at 50.0 and 50.1 ms
    assert len(out) == 1001


def test_put_is_thread_safe():
    merger = Merger()
    merger.register("t", 0)

    def deliver(player: int) -> None:
        for n in range(500):
            merger.put(press(player, n, "t"))

    threads = [threading.Thread(target=deliver, args=(p,)) for p in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out = merger.ready(10_000 * MS)
    assert len(out) == 1000
    assert [p.t_ns for p in out] == sorted(p.t_ns for p in out)


def test_ready_polls_sources_and_start_stop_reach_them():
    class Polled(MockSource):
        def __init__(self, name: str) -> None:
            super().__init__(name)
            self.polls: list[int] = []

        def poll(self, now_ns: int) -> None:
            self.polls.append(now_ns)
            self.inject(1, "spit", True, now_ns - 1)

    source = Polled("polled")
    merger = Merger([source])
    merger.start()
    out = merger.ready(42)
    merger.stop()
    assert source.polls == [42] and [p.t_ns for p in out] == [41]
    assert merger.status(43)[0].name == "polled"


def test_a_source_added_to_a_running_merger_is_started_and_waited_for():
    merger = Merger([MockSource("gpio", latency_ns=1 * MS)])
    merger.start()
    late = MockSource("keyboard", latency_ns=2 * MS)
    merger.add(late)
    late.inject(1, "spit", True, 10 * MS)  # delivered: add() started it
    merger.sources[0].inject(2, "spit", True, 11 * MS)  # type: ignore[attr-defined]
    assert [p.player for p in merger.ready(11 * MS)] == [1]  # gpio's may wait for keyboard's 2 ms
    assert [p.player for p in merger.ready(13 * MS)] == [2]
    merger.stop()
