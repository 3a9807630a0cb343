"""Invariants under random press streams from random positions (hypothesis, stateful).

After every press: no exception, every card of the deck in exactly one place, the selection and
the phase consistent with the position, event times never going backwards. At the end: the same
setup and presses give byte-identical output, and the replay of the game's journal ends in the
state the live game had.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from appliance.journal import Journal
from appliance.rules import CLASSIC, CONTROLS, PHASES, Event, Game, StockPile, can_progress, deck, game_from_state
from appliance.scripting import Script, ScriptPress, output_lines, parse_script, run
from lab.random_play import mash

FULL_DECK = Counter(deck())


@st.composite
def random_positions(draw: st.DrawFn) -> dict[str, Any]:
    """Any position the state loader accepts: the deck dealt at random into every place."""
    cards = draw(st.permutations(deck()))
    phase = draw(st.sampled_from(["ready", "playing", "stalemate", "choosing"]))
    position = 0

    def take(n: int) -> list[str]:
        nonlocal position
        out = list(cards[position:min(position + n, len(cards) - 2)])  # two left for the spit piles
        position += len(out)
        return out

    players = []
    for _ in range(2):
        sizes = draw(st.lists(st.integers(0, 6), min_size=5, max_size=5).filter(lambda s: sum(s) > 0))
        stock = []
        for size in sizes:
            pile_cards = take(size)
            up = draw(st.integers(0, len(pile_cards))) if pile_cards else 0
            stock.append({"cards": pile_cards, "up": up})
        spit_cards = take(draw(st.integers(0, 8)))
        face_up = [n for n, pile in enumerate(stock, start=1) if pile["up"] > 0 and pile["cards"]]
        selected = draw(st.sampled_from([None, *face_up])) if phase != "choosing" else None
        players.append({"stock": stock, "spit_cards": spit_cards, "selected": selected})
    rest = list(cards[position:])
    split = draw(st.integers(1, max(1, len(rest) - 1)))
    spit_piles = [rest[:split], rest[split:]]
    if phase == "ready" and draw(st.booleans()):
        players[0]["spit_cards"] += spit_piles[0] + spit_piles[1]
        spit_piles = [[], []]
    if not all(spit_piles) and phase == "choosing":
        phase = "playing"
    if phase == "stalemate":
        tops = [pile[-1] for pile in spit_piles if pile]
        stuck = not any(can_progress([StockPile(p["cards"], p["up"]) for p in player["stock"]], tops,
                                            CLASSIC.fits.fitting, CLASSIC.moves)
                        for player in players)
        if not (stuck and any(player["spit_cards"] for player in players)):
            phase = "playing"
    return {"variant": "classic", "phase": phase, "round": 1, "winner": None, "spit_piles": spit_piles,
            "players": players}


def check_position(game: Game) -> None:
    assert Counter(game.all_cards()) == FULL_DECK, "every card in exactly one place"
    assert game.phase in PHASES
    assert (game.phase == "over") == (game.winner is not None)
    for p in game.players:
        for pile in p.stock:
            assert 0 <= pile.up <= len(pile.cards)
        if p.selected is not None:
            assert game.phase in ("ready", "playing", "stalemate")
            assert p.stock[p.selected - 1].face_up_top is not None, "a selected pile shows a card"
        if p.called:
            assert game.phase in ("ready", "stalemate")
            assert p.spit_cards, "only a player holding spit cards calls"
    if game.phase == "playing":
        assert any(game.spit_piles)
    if game.phase == "choosing":
        assert all(game.spit_piles)
    if game.phase == "stalemate":
        assert game.spitters(), "a stalemate is only called while somebody holds spit cards"
        assert not any(game.can_progress(n) for n in (1, 2)), "nobody can move in a stalemate"
    if game.phase == "over" and game.winner is not None:
        assert game.players[game.winner - 1].all_cards() == [], "the winner has no cards left"


class SpitMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.setup: dict[str, Any] = {}
        self.game: Game
        self.events: list[Event] = []
        self.presses: list[tuple[float, int, str]] = []
        self.t = 0.0

    @initialize(seed=st.integers(0, 2**16), prefix=st.integers(0, 3000))
    def from_a_seeded_deal(self, seed: int, prefix: int) -> None:
        # A seeded deal advanced by `prefix` mashed presses: a position from any round.
        self.setup = {"variant": "classic", "seed": seed}
        self.game, self.events = Game.new(seed)
        rng = random.Random(seed)
        for _ in range(prefix):
            if self.game.phase == "over":
                break
            dt, player, control = mash(self.game, rng)
            self.apply(round(self.t + dt, 6), player, control)

    @rule(dt=st.floats(0, 0.5, allow_nan=False), player=st.integers(1, 2), control=st.sampled_from(CONTROLS))
    def press(self, dt: float, player: int, control: str) -> None:
        self.apply(round(self.t + dt, 6), player, control)

    @rule(player=st.integers(1, 2), control=st.sampled_from(CONTROLS))
    def press_at_the_same_moment(self, player: int, control: str) -> None:
        self.apply(self.t, player, control)

    def apply(self, t: float, player: int, control: str) -> None:
        self.t = t
        events = self.game.press(t, player, control)
        assert events, "every press has an outcome"
        assert all(e.t == t for e in events)
        self.events += events
        self.presses.append((t, player, control))
        check_position(self.game)

    @invariant()
    def position_is_consistent(self) -> None:
        if self.setup:
            check_position(self.game)

    def teardown(self) -> None:
        if not self.setup:
            return
        script = Script(self.setup, [ScriptPress(t, p, c, n) for n, (t, p, c) in enumerate(self.presses, 2)])
        events, game = run(script)
        assert list(output_lines(events, game)) == list(output_lines(self.events, self.game)), \
            "same setup and presses, byte-identical output"


SpitMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=60, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
TestSpitMachine = SpitMachine.TestCase


@settings(max_examples=150, deadline=None)
@given(state=random_positions(),
       steps=st.lists(st.tuples(st.floats(0, 0.3, allow_nan=False), st.integers(1, 2),
                                st.sampled_from(CONTROLS)), max_size=80))
def test_random_presses_from_random_positions_keep_every_invariant(
        state: dict[str, Any], steps: list[tuple[float, int, str]]) -> None:
    game = game_from_state(state)
    events = game.settle(0.0)
    check_position(game)
    t = 0.0
    for dt, player, control in steps:
        t = round(t + dt, 6)
        events += game.press(t, player, control)
        check_position(game)
    # The same again gives the same events and state.
    again = game_from_state(state)
    again_events = again.settle(0.0)
    t = 0.0
    for dt, player, control in steps:
        t = round(t + dt, 6)
        again_events += again.press(t, player, control)
    assert again_events == events and again.state() == game.state()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.lists(
    st.tuples(st.floats(-0.05, 0.3, allow_nan=False), st.integers(1, 2), st.sampled_from(CONTROLS)),
    max_size=300))
def test_the_replay_of_a_journal_ends_in_the_live_state(seed: int, steps: list[tuple[float, int, str]],
                                                        tmp_path_factory: Any) -> None:
    # Live: presses arrive with edge times that may go backwards a little (a slower link); the
    # journal records what the game applied. Replay: parse the journal file, play it, compare.
    path = Path(tmp_path_factory.mktemp("journal")) / "game.jsonl"
    game, _ = Game.new(seed)
    rng = random.Random(seed)
    t = 0.0
    with Journal(path, {"variant": "classic", "seed": seed}) as journal:
        for dt, player, control in steps:
            t = max(0.0, round(t + dt, 6))
            applied = journal.record(t, player, control, source="test")
            game.press(applied, player, control)
        for _ in range(2000):  # and some mashing, to reach later rounds
            if game.phase == "over":
                break
            dt, player, control = mash(game, rng)
            t = round(t + dt, 6)
            game.press(journal.record(t, player, control), player, control)
        journal.finish(game.state())
    script = parse_script(path.read_text().splitlines())
    _, replayed = run(script)
    assert replayed.state() == game.state() == script.final_state
    assert json.loads(path.read_text().splitlines()[-1]) == {"state": game.state()}
