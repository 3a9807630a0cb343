import itertools

from hypothesis import given
from hypothesis import strategies as st

from appliance.inputs.debounce import Debouncer, Timing

MS = 1_000_000
KEY = (1, "left")


def make(lockout_ms: float = 10, stuck_s: float = 5) -> Debouncer:
    return Debouncer({KEY: Timing(int(lockout_ms * MS), int(stuck_s * 1e9))})


def test_a_bounce_burst_is_one_press_at_the_first_edge():
    d = make()
    out = []
    for n, t in enumerate([100, 100.3, 100.9, 101.2, 102.0, 103.1, 104.5]):
        out += d.edge(KEY, n % 2 == 0, int(t * MS))
    out += d.tick(200 * MS)
    assert out == [(KEY, True, 100 * MS)]
    assert d.counts(KEY) == (1, 6)


def test_a_release_that_bounced_is_reported_when_the_lockout_ends():
    d = make()
    assert d.edge(KEY, True, 0) == [(KEY, True, 0)]
    assert d.edge(KEY, False, 3 * MS) == []  # a quick tap: release inside the lockout
    assert d.tick(9 * MS) == []
    assert d.tick(10 * MS) == [(KEY, False, 3 * MS)]
    assert not d.is_down(KEY)


def test_the_next_edge_also_catches_up():
    d = make()
    d.edge(KEY, True, 0)
    d.edge(KEY, False, 2 * MS)
    assert d.edge(KEY, True, 30 * MS) == [(KEY, False, 2 * MS), (KEY, True, 30 * MS)]


def test_a_stuck_control_is_flagged_and_ignored_until_released():
    d = make(stuck_s=5)
    d.edge(KEY, True, 0)
    assert not d.tick(4_999 * MS) and not d.is_stuck(KEY)
    d.tick(5_000 * MS)
    assert d.is_stuck(KEY)
    assert d.edge(KEY, False, 6_000 * MS) == []  # the release just clears it
    assert not d.is_stuck(KEY)
    assert d.edge(KEY, True, 7_000 * MS) == [(KEY, True, 7_000 * MS)]


def test_a_release_still_on_its_way_is_no_stuck_switch():
    # A link's edges come late (a corrupted frame asked for again, a cable out and back): held too
    # long is judged up to the time every edge is known, not the host's clock.
    d = make(stuck_s=5)
    d.edge(KEY, True, 0)
    assert not d.tick(9_000 * MS, known_ns=300 * MS) and not d.is_stuck(KEY)
    assert d.edge(KEY, False, 400 * MS) == [(KEY, False, 400 * MS)]  # the release, reported
    d.edge(KEY, True, 1_000 * MS)
    d.tick(9_000 * MS, known_ns=6_000 * MS)  # the pad's word: still held at 6 s
    assert d.is_stuck(KEY)


@given(st.lists(st.tuples(st.integers(0, 30 * MS), st.booleans()), max_size=60))
def test_reported_edges_alternate_and_respect_the_lockout(steps):
    d = make()
    t, out = 0, []
    for gap, down in steps:
        t += gap
        out += d.edge(KEY, down, t)
        out += d.tick(t)
    out += d.tick(t + 100 * MS)
    levels = [down for _, down, _ in out]
    assert all(a != b for a, b in itertools.pairwise(levels))
    if levels:
        assert levels[0] is True
    presses = [at for _, down, at in out if down]
    assert all(b - a >= 10 * MS for a, b in itertools.pairwise(presses))


COIN_KEY = (0, "coin")


def coin(lockout_ms: float = 50, stuck_s: float = 5) -> Debouncer:
    from appliance.inputs.debounce import COIN

    assert COIN.settle_release and COIN.lockout_ns == 50 * MS
    return Debouncer({COIN_KEY: Timing(int(lockout_ms * MS), int(stuck_s * 1e9), settle_release=True)})


def test_a_coin_switch_is_released_only_once_it_has_stayed_open():
    d = coin()
    assert d.edge(COIN_KEY, True, 0) == [(COIN_KEY, True, 0)]  # the coin: at once, at its edge
    assert d.edge(COIN_KEY, False, 100 * MS) == []  # open: not yet a release
    assert d.edge(COIN_KEY, True, 102 * MS) == []  # closed again 2 ms later: it never was one
    assert d.edge(COIN_KEY, False, 300 * MS) == []
    assert d.tick(349 * MS) == []
    assert d.tick(350 * MS) == [(COIN_KEY, False, 300 * MS)]  # open for the lockout: released, at its edge
    assert d.edge(COIN_KEY, True, 400 * MS) == [(COIN_KEY, True, 400 * MS)]  # the next coin
    assert d.counts(COIN_KEY) == (2, 2)


def test_a_stuck_coin_switch_is_cleared_only_by_a_release_that_stays_open():
    d = coin(stuck_s=1)
    d.edge(COIN_KEY, True, 0)
    d.tick(1_000 * MS)
    assert d.is_stuck(COIN_KEY)
    for n in range(10):  # blips open: still stuck, no coins
        t = 1_100 * MS + n * 100 * MS
        assert d.edge(COIN_KEY, False, t) == [] and d.edge(COIN_KEY, True, t + 5 * MS) == []
        assert d.tick(t + 60 * MS) == [] and d.is_stuck(COIN_KEY)
    d.edge(COIN_KEY, False, 3_000 * MS)
    assert d.tick(3_050 * MS) == [] and not d.is_stuck(COIN_KEY)  # cleared (quietly, as any stuck control)
    assert d.edge(COIN_KEY, True, 3_200 * MS) == [(COIN_KEY, True, 3_200 * MS)]


@given(st.lists(st.tuples(st.integers(0, 120 * MS), st.booleans()), max_size=60))
def test_a_coin_is_counted_only_after_the_switch_stayed_open_for_the_lockout(steps):
    d = coin()
    t, out, raw = 0, [], []
    for gap, down in steps:
        t += gap
        raw.append((t, down))
        out += d.edge(COIN_KEY, down, t)
        out += d.tick(t)
    out += d.tick(t + 100 * MS)
    levels = [down for _, down, _ in out]
    assert all(a != b for a, b in itertools.pairwise(levels))
    assert not levels or levels[0] is True
    for _, down, at in out:
        if not down:  # every release reported stayed open for 50 ms: no raw close within it
            assert not [e for e, level in raw if level and at < e < at + 50 * MS]
    presses = [at for _, down, at in out if down]
    assert all(b - a >= 50 * MS for a, b in itertools.pairwise(presses))
