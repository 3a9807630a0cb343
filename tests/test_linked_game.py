"""One game across two cabinets over loopback UDP, through a relay that loses, duplicates and
reorders: presses from both tables racing, every pair in edge order on both, both journals
replaying to byte-identical final states; a pulled cable pausing both and resuming, nothing lost;
forged, future, past and stale presses refused. The game clock is real time; the test waits on the
peers' conditions, bounded, between frames, and never sleeps."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from appliance.linked import wire
from appliance.linked.game import LinkedTable
from appliance.linked.peer import Peer, offer
from lab.linked_driver import ScriptedSeat, closing_state, replayed_state
from lab.linked_relay import Impairment, Relay

MS = 1_000_000


class Pair:
    def __init__(self, tmp: Path, impairment: Impairment, variant: str = "classic") -> None:
        self.leader_peer = Peer.listen(0, offer(variant, {}, [1], 2, "a"), host="127.0.0.1")
        self.relay = Relay(("127.0.0.1", 0), ("127.0.0.1", self.leader_peer.port), impairment, seed=5).start()
        self.joiner_peer = Peer.connect("127.0.0.1", self.relay.port, offer(variant, {}, [2], 2, "b"))
        (tmp / "a").mkdir()
        (tmp / "b").mkdir()
        self.leader = LinkedTable(self.leader_peer, [1], variant, journal_dir=tmp / "a", start_delay_ns=200 * MS,
                                  seed=lambda g: 40 + g)
        self.joiner = LinkedTable(self.joiner_peer, [2], variant, journal_dir=tmp / "b")
        self.tables = (self.leader, self.joiner)

    def frame(self, now_ns: int | None = None) -> None:
        for table in self.tables:
            table.tick(table.peer.clock() if now_ns is None else now_ns)

    def until(self, done: Callable[[], bool], timeout: float = 20.0,
              each: Callable[[int], None] | None = None) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if each is None:
                self.frame()
            else:  # the frame's presses first, then the frame at the time they were taken (as the screen does)
                now = time.monotonic_ns()
                each(now)
                self.frame(now)
            if done():
                return True
            self.leader_peer.wait_for(lambda _: False, 0.002)  # a frame's wait: on the link, bounded
        return done()

    def close(self) -> None:
        self.joiner.close()
        self.leader.close()
        self.relay.stop()


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[Pair]:
    pair = Pair(tmp_path, Impairment(delay_ms=2, jitter_ms=2, loss=0.05, duplicate=0.05))
    yield pair
    pair.close()


def _playing(pair: Pair) -> bool:
    return all(t.state == "playing" for t in pair.tables)


def test_races_from_both_tables_end_in_edge_order_and_both_journals_replay_alike(pair: Pair) -> None:
    assert pair.until(lambda: _playing(pair)), [t.state for t in pair.tables]
    rng = random.Random(9)
    now = time.monotonic_ns()
    one, two = [], []
    for n in range(60):  # a race every 25 ms: the two touches a few ms apart, either first
        at = now + 50 * MS + n * 25 * MS
        gap = rng.randint(2, 6) * MS  # more than the clock sync's error here (the bench measures it)
        (one if n % 2 else two).append(at)
        (two if n % 2 else one).append(at + gap)
    seats = (ScriptedSeat(pair.leader, 1, one, 1), ScriptedSeat(pair.joiner, 2, two, 2))

    def press(now: int) -> None:
        for seat in seats:
            seat.due(now)

    total = len(one) + len(two)
    done = lambda: (not any(s.touches for s in seats)  # noqa: E731
                    and all(t.match is not None and t.match.presses == total - sum(s.refused for s in seats)
                            for t in pair.tables))
    assert pair.until(done, each=press), [(t.state, t.match and t.match.presses, t.refusals) for t in pair.tables]
    leader, joiner = (t.match for t in pair.tables)
    assert leader is not None and joiner is not None
    assert json.dumps(leader.game.state(), sort_keys=True) == json.dumps(joiner.game.state(), sort_keys=True)
    assert leader.late_presses == joiner.late_presses == 0  # every press in its place: none applied late
    # Each table's watermark comes from its frame's time, after the frame's presses: a loop that
    # stalls (a busy machine) promises nothing past a press not yet given, so none is moved up.
    assert pair.leader.late_local == pair.joiner.late_local == 0
    paths = [t.match.journal.path for t in pair.tables]  # type: ignore[union-attr]
    pair.close()
    states = [replayed_state(p) for p in paths]
    assert states[0] == states[1]
    assert [json.dumps(closing_state(p), sort_keys=True) for p in paths] == states  # the live games too
    # edge order: the touches of both seats, sorted, are the order the journals applied them in
    orders = []
    for path in paths:
        lines = [json.loads(x) for x in path.read_text().splitlines()[1:-1]]
        presses = sorted((line["t"], n, line["player"]) for n, line in enumerate(lines) if "press" in line)
        orders.append([(t, p) for t, _, p in presses])
    assert orders[0] == orders[1]
    touched = sorted([(t, 1) for t, _, _ in seats[0].pressed] + [(t, 2) for t, _, _ in seats[1].pressed])
    assert [p for _, p in orders[0]] == [p for _, p in touched]


def test_a_pulled_cable_pauses_both_tables_and_the_game_resumes_with_nothing_lost(pair: Pair) -> None:
    assert pair.until(lambda: _playing(pair))
    now = time.monotonic_ns()
    pair.leader.press(now, 1, "pile1")
    pair.joiner.press(now + MS, 2, "pile1")
    pair.relay.cut = True
    assert pair.until(lambda: all(t.state == "paused" for t in pair.tables))
    assert all("Paused" in t.notice for t in pair.tables)
    assert pair.leader.press(time.monotonic_ns(), 1, "pile2") == []  # refused while paused
    assert pair.leader.refused_local == 1
    pair.relay.cut = False
    assert pair.until(lambda: _playing(pair))
    assert pair.leader.pauses >= 1 and pair.joiner.pauses >= 1
    assert pair.until(lambda: all(t.match is not None and t.match.presses == 2 for t in pair.tables))
    # and the game goes on from where it stood, not from the time the cable was out
    assert all(t.match is not None and t.match.game.now < 1.5 for t in pair.tables)


@pytest.mark.parametrize("body,kind", [
    ({"t": None, "player": 1, "press": "left"}, "forged"),  # the leader's own seat
    ({"t": None, "player": 3, "press": "left"}, "forged"),
    ({"t": 999.000001, "player": 2, "press": "left"}, "future"),
    ({"t": 0.000001, "player": 2, "press": "left", "past": True}, "past"),
    ({"t": None, "player": 2, "press": "jump"}, "control"),
    ({"t": None, "player": 2, "press": "left", "even": True}, "grid"),
    ({"t": None, "player": 2, "press": "left", "g": -1}, "stale"),
])
def test_bad_presses_from_the_other_cabinet_are_refused_and_said(pair: Pair, body: dict, kind: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert pair.until(lambda: _playing(pair))
    if body.pop("past", False):
        assert pair.until(lambda: pair.leader.remote_w_us > 100_000)
    t_us = pair.joiner.clock_us(time.monotonic_ns())
    t_us += (1 - t_us % 2) if not body.pop("even", False) else t_us % 2
    message = {"g": pair.joiner.game_no, **body}
    if message["t"] is None:
        message["t"] = t_us / 1e6
    pair.joiner_peer.send(wire.PRESS, message)
    assert pair.until(lambda: pair.leader.refusals[kind] == 1)
    assert pair.leader.match is not None and pair.leader.match.presses == 0
    assert "refused" in capsys.readouterr().err


@pytest.mark.parametrize("forged", ["press", "bye"])
def test_a_strangers_press_or_goodbye_from_the_paired_address_is_dropped_and_the_game_goes_on(
        pair: Pair, forged: str) -> None:
    """Without a link word: a stranger who sends from the leader's view of the other cabinet's address
    and port (here the relay's), knowing its session and numbers but not the pairing's secret, forges
    a press that would be good (the other's own seat, on its grid, now) or a goodbye: the datagram's
    tag is not the pairing's, so it is dropped and counted, and the real presses play as before."""
    assert pair.until(lambda: _playing(pair))
    joiner = pair.joiner_peer
    forger = wire.Link(joiner.link.session)  # (the word's key, none here: all a stranger has)
    forger._next_seq = joiner.link.last_sent + 1
    t_us = pair.joiner.clock_us(time.monotonic_ns())
    t_us += 1 - t_us % 2
    if forged == "press":
        data = forger.message(wire.PRESS, {"g": pair.joiner.game_no, "t": t_us / 1e6, "player": 2, "press": "left"}, 0)
    else:
        data = forger.message(wire.BYE, {"why": "left"}, 0)
    pair.relay.up.sendto(data, ("127.0.0.1", pair.leader_peer.port))
    assert pair.until(lambda: pair.leader_peer.status()["forged"] >= 1)
    assert pair.leader.match is not None and pair.leader.match.presses == 0 and not pair.leader.refusals
    assert _playing(pair)
    now = time.monotonic_ns()
    pair.joiner.press(now, 2, "pile1")  # the real cabinet's press, with the number the forger took
    pair.leader.press(now + MS, 1, "pile1")
    assert pair.until(lambda: all(t.match is not None and t.match.presses == 2 for t in pair.tables))
    assert _playing(pair) and pair.leader_peer.status()["forged"] == 1


def test_another_variant_never_starts_a_game(tmp_path: Path) -> None:
    leader = Peer.listen(0, offer("classic", {}, [1], 2), host="127.0.0.1")
    joiner = Peer.connect("127.0.0.1", leader.port, offer("reverse", {}, [2], 2))
    tables = (LinkedTable(leader, [1], "classic"), LinkedTable(joiner, [2], "reverse"))
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(t.state.startswith("refused") for t in tables):
            for table in tables:
                table.tick(table.peer.clock())
            leader.wait_for(lambda _: False, 0.002)
        assert [t.state.split(":")[0] for t in tables] == ["refused", "refused"]
        assert "'reverse'" in tables[0].notice and tables[0].match is None
    finally:
        for table in tables:
            table.close()


class _Clockless:
    """What a LinkedMatch asks of its table, for a match played in virtual time."""

    horizon_us = 750_000

    def clock_us(self, t_ns: int) -> int:
        return t_ns // 1000


def test_a_game_over_stays_open_until_the_other_tables_word_passes_it(tmp_path: Path) -> None:
    from appliance.linked.game import LinkedMatch
    from appliance.match import open_journal
    from appliance.rules import Phase

    match = LinkedMatch(_Clockless(), 3, open_journal(tmp_path, 3), "classic", {})  # type: ignore[arg-type]
    rng = random.Random(3)
    t = 0.0
    for _ in range(20_000):
        t = round(t + 0.05, 6)
        seat = rng.choice((1, 2))
        actions = match.game.legal_actions(seat)
        control = match.game.presses_for(seat, rng.choice(actions))[0] if actions else "spit"
        match.apply(t, seat, str(control), "script")
        if match.game.phase == Phase.OVER:
            break
    assert match.game.phase == Phase.OVER
    assert not match.finished and match.journal is not None  # not final: a press from before may come
    before = match.presses
    match.apply(round(t - 0.01, 6), 2, "spit", "link")  # the other table's, from before the end
    assert match.presses == before + 1 and match.rollbacks >= 1  # put in its place, not refused
    if match.game.phase == Phase.OVER:
        match.confirm_over()
        assert match.finished and match.journal is None
        assert json.loads(tmp_path.joinpath(next(p.name for p in tmp_path.iterdir())).read_text()
                          .splitlines()[-1])["state"]["phase"] == "over"


def test_a_rematch_starts_when_both_tables_want_it(pair: Pair) -> None:
    from appliance.linked.game import REMATCH_WAIT, REMATCH_WANTED

    assert pair.until(lambda: _playing(pair))
    first = [t.match for t in pair.tables]
    for table in pair.tables:  # both games over (as a game's last card leaves them)
        assert table.match is not None
        table.match.abandon()
    assert pair.until(lambda: all(t.state == "over" for t in pair.tables))
    pair.leader.want_rematch(time.monotonic_ns())
    assert pair.leader.notice == REMATCH_WAIT
    assert pair.until(lambda: pair.joiner.notice == REMATCH_WANTED)
    assert pair.leader.game_no == pair.joiner.game_no == 1  # one table alone deals nothing
    pair.joiner.want_rematch(time.monotonic_ns())
    assert pair.until(lambda: _playing(pair) and all(t.game_no == 2 for t in pair.tables))
    leader, joiner = (t.match for t in pair.tables)
    assert leader is not None and joiner is not None and leader not in first and joiner not in first
    assert leader.seed == joiner.seed == 42  # the leader's deal, on both tables


@pytest.mark.parametrize(("variant", "options", "mine", "theirs"), [
    ("speed", {}, [1], [2]),  # Speed's own game type (its hands and side stacks) across the link
    ("classic", {"seats": 3}, [1], [2, 3]),  # a table of three: one cabinet two seats
    ("classic", {"seats": 4}, [1, 2], [3, 4]),  # a table of four, two a cabinet
    ("refill", {"seats": 4}, [1, 3], [2, 4]),  # seats across the table from each other
])
def test_any_preset_at_a_table_of_two_to_four_plays_in_edge_order_across_the_link(
        tmp_path: Path, variant: str, options: dict, mine: list[int], theirs: list[int]) -> None:
    """Issue 27's first point: any preset of the family at a table of two to four, each cabinet its
    own seats, every seat's touches applied in edge order on both tables, both journals alike."""
    table = len(mine) + len(theirs)
    leader_peer = Peer.listen(0, offer(variant, options, mine, table, "a"), host="127.0.0.1")
    relay = Relay(("127.0.0.1", 0), ("127.0.0.1", leader_peer.port), Impairment(delay_ms=2, jitter_ms=2, loss=0.05),
                  seed=7).start()
    joiner_peer = Peer.connect("127.0.0.1", relay.port, offer(variant, options, theirs, table, "b"))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    leader = LinkedTable(leader_peer, mine, variant, options, journal_dir=tmp_path / "a", start_delay_ns=200 * MS,
                         seed=lambda g: 60 + g)
    joiner = LinkedTable(joiner_peer, theirs, variant, options, journal_dir=tmp_path / "b")
    tables = (leader, joiner)

    def until(done: Callable[[], bool], each: Callable[[int], None] | None = None) -> bool:
        deadline = time.monotonic() + 30.0
        while time.monotonic() < deadline:
            now = time.monotonic_ns()
            if each is not None:
                each(now)
            for t in tables:
                t.tick(now)
            if done():
                return True
            leader_peer.wait_for(lambda _: False, 0.002)  # a frame's wait: on the link, bounded
        return done()

    try:
        assert until(lambda: all(t.state == "playing" for t in tables)), [t.state for t in tables]
        now = time.monotonic_ns()
        rng = random.Random(table)
        touches: dict[int, list[int]] = {n: [] for n in range(1, table + 1)}
        for k in range(12 * table):  # a touch every 4 ms, each by a seat drawn at random: more apart
            touches[rng.randint(1, table)].append(now + 50 * MS + k * 4 * MS)  # than the clock sync's error
        seats = [ScriptedSeat(leader if n in mine else joiner, n, touches[n], n) for n in range(1, table + 1)]

        def press(at: int) -> None:  # a cabinet's touches in the order they were made, whichever seat (edge order)
            for moment in sorted(t for seat in seats for t in seat.touches if t <= at):
                for seat in seats:
                    seat.due(moment)

        total = sum(len(s.touches) for s in seats)
        assert until(lambda: not any(s.touches for s in seats) and all(
            t.match is not None and (t.match.presses == total - sum(s.refused for s in seats) or t.match.finished)
            for t in tables), press), [(t.state, t.match and t.match.presses, t.refusals) for t in tables]
        assert until(lambda: leader.match is not None and joiner.match is not None
                     and leader.match.presses == joiner.match.presses)
        assert leader.late_local == joiner.late_local == 0 and sum(leader.refusals.values()) == 0
        paths = [t.match.journal.path for t in tables]  # type: ignore[union-attr]
    finally:
        joiner.close()
        leader.close()
        relay.stop()
    states = [replayed_state(p) for p in paths]
    assert states[0] == states[1]
    assert json.loads(states[0])["variant"] == variant and len(json.loads(states[0])["players"]) == table
    # edge order: every seat's touches, sorted, are the order both journals applied them in
    touched = sorted((t, s.seat) for s in seats for t, _, _ in s.pressed)
    for path in paths:
        lines = [json.loads(x) for x in path.read_text().splitlines()[1:-1]]
        applied = [line["player"] for line in sorted((x for x in lines if "press" in x), key=lambda x: x["t"])]
        assert applied == [seat for _, seat in touched][: len(applied)]


def test_a_clock_that_jumps_mid_game_pauses_its_table_until_the_clocks_are_set_again(tmp_path: Path) -> None:
    """Bad input, "a clock that jumps": the joining cabinet's clock leaps 2 s ahead mid-game (a clock
    set by hand, a suspended machine). Its sync sees three samples in a row outside the bound, starts
    again, and its table pauses with the notice meanwhile ("setting the clocks again"); then both
    play on, a press made after it lands on both tables, and nothing applied is lost."""
    jump = [0]

    def jumpy() -> int:
        return time.monotonic_ns() + jump[0]

    leader_peer = Peer.listen(0, offer("classic", {}, [1], 2, "a"), host="127.0.0.1")
    relay = Relay(("127.0.0.1", 0), ("127.0.0.1", leader_peer.port), Impairment(delay_ms=2, jitter_ms=1),
                  seed=3).start()
    joiner_peer = Peer.connect("127.0.0.1", relay.port, offer("classic", {}, [2], 2, "b"), clock=jumpy)
    leader = LinkedTable(leader_peer, [1], "classic", start_delay_ns=200 * MS, seed=lambda g: 80 + g)
    joiner = LinkedTable(joiner_peer, [2], "classic")
    tables = (leader, joiner)
    notices: set[str] = set()

    def until(done: Callable[[], bool]) -> bool:
        deadline = time.monotonic() + 30.0
        while time.monotonic() < deadline:
            for t in tables:
                t.tick(t.peer.clock())
            notices.add(str(joiner.notice))
            if done():
                return True
            leader_peer.wait_for(lambda _: False, 0.002)  # a frame's wait: on the link, bounded
        return done()

    try:
        assert until(lambda: all(t.state == "playing" for t in tables))
        leader.press(leader_peer.clock(), 1, "pile1")
        joiner.press(jumpy(), 2, "pile1")
        assert until(lambda: all(t.match is not None and t.match.presses == 2 for t in tables))
        jump[0] = 2_000_000_000  # the joiner's clock: 2 s ahead, at once
        assert until(lambda: joiner_peer.sync.jumps >= 1 and joiner.state == "paused")
        assert until(lambda: all(t.state == "playing" for t in tables)), [(t.state, t.notice) for t in tables]
        assert any("clock jumped" in n for n in notices), notices
        joiner.press(jumpy(), 2, "pile2")  # a press after the jump: applied on both tables
        assert until(lambda: all(t.match is not None and t.match.presses == 3 for t in tables))
        assert leader.match is not None and joiner.match is not None
        assert json.dumps(leader.match.game.state(), sort_keys=True) == json.dumps(joiner.match.game.state(),
                                                                                    sort_keys=True)
        assert sum(leader.refusals.values()) == 0 and leader.match.late_presses == joiner.match.late_presses == 0
    finally:
        joiner.close()
        leader.close()
        relay.stop()
