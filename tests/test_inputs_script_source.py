import pytest

from appliance.inputs.merge import Merger
from appliance.inputs.script_source import MockSource, ScriptLineError, ScriptSource, read_script

S = 1_000_000_000


class Clock:
    def __init__(self) -> None:
        self.now = 1_000 * S

    def __call__(self) -> int:
        return self.now


def test_a_script_plays_at_its_times_on_the_consumers_poll():
    clock = Clock()
    source = ScriptSource([(0.5, 1, "spit"), (0.25, 2, "pile3")], clock=clock)
    merger = Merger([source], clock=clock)
    merger.start()
    assert merger.ready() == []
    clock.now += S // 4
    (press,) = merger.ready()
    assert (press.player, press.control, press.pressed, press.t_ns) == (2, "pile3", True, 1_000 * S + S // 4)
    clock.now += S
    out = merger.ready()
    assert [(p.player, p.control, p.pressed) for p in out] == [
        (2, "pile3", False),
        (1, "spit", True),
        (1, "spit", False),
    ]
    assert source.finished and source.status(clock.now).link == "finished"


def test_read_script_takes_press_lines_and_ignores_the_rest(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text('{"setup": {"seed": 3}}\n\n{"t": 1.5, "player": 2, "press": "left", "source": "gpio"}\n')
    assert read_script(path) == [(1.5, 2, "left")]
    path.write_text('{"t": "soon", "player": 2, "press": "left"}\n')
    with pytest.raises(ScriptLineError, match="line 1: t must be a number of seconds"):
        read_script(path)


def test_mock_source_delivers_what_it_is_given():
    source = MockSource()
    merger = Merger([source])
    merger.start()
    source.inject(1, "left", True, 5)
    assert [p.t_ns for p in merger.ready(10)] == [5]
    assert source.status(0).controls[0].presses == 1
