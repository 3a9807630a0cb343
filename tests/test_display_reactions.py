"""The game records its fastest reactions: at game over, a player whose fastest reaction makes the
cabinet's table enters three initials (reaction_initials.py), the entry goes into the operator's
store, and the venue uplink reads it from there to publish on the venue's board."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from headless import Harness, to_game_over

from appliance.display.coins import office
from appliance.display.scenes.base import make
from appliance.display.scenes.initials import MIN_MS, reaction_qualifiers
from appliance.operator.store import Score, Store, store_path
from appliance.venue import source


def kept(h: Harness) -> list[tuple[str, float, int]]:
    """The reactions as the store on the card holds them (once the writer wrote them)."""
    assert h.ctx.office is not None and h.ctx.office.drain(10) and h.ctx.config_path is not None
    store = Store.open(store_path(h.ctx.config_path))
    try:
        return [(s.initials, s.ms, s.team) for s in store.high_scores("reaction")]
    finally:
        store.close()


def words(h: Harness) -> list[str]:
    return [line.words for c in h.scene.captions() for line in c.lines]


def test_the_fastest_reactions_take_initials_then_the_game_over_screen(tmp_path: Path) -> None:
    h = Harness((960, 540), "tabletop")
    h.ctx.config_path = tmp_path / "config.toml"
    to_game_over(h)  # player 1: 600 ms (a reveal to their card), player 2: 400 ms (player 1's card to theirs)
    h.frame()
    scene = h.scene
    assert type(scene).__name__ == "ReactionInitialsScene"
    assert scene.current == (2, 0, 400.0)  # type: ignore[attr-defined]  # the fastest first
    assert "Player 2: a reaction of 400 ms!" in words(h) and "a new high score" in words(h)
    h.press(1, "right")  # not their side: nothing
    for control in ("left", "left", "spit", "spit", "right", "spit"):  # (a space, then) Z; A; B
        h.press(2, control)
    h.frame()
    assert h.scene.current == (1, 0, 600.0)  # type: ignore[attr-defined]
    h.advance(31)  # player 1 enters nothing: entered as shown
    assert type(h.scene).__name__ == "GameOverScene"
    assert kept(h) == [("ZAB", 400.0, 2), ("AAA", 600.0, 1)]
    h.advance(20)  # the figures are shown afresh (not cut short by the time the initials took)
    assert type(h.scene).__name__ == "GameOverScene"
    assert any("fastest reaction 400 ms" in line for line in words(h))
    h.press(0, "start")
    h.frame()
    assert type(h.scene).__name__ == "TitleScene"
    # What the uplink publishes for the venue's board: read from the store, with the initials.
    published = source.read(tmp_path).reactions_json()
    assert [(r["initials"], r["reaction_ms"]) for r in published] == [("ZAB", 400.0), ("AAA", 600.0)]


def test_without_a_table_kept_or_a_reaction_fast_enough_there_are_no_initials(tmp_path: Path) -> None:
    bare = Harness((480, 270))  # no settings file: a bare desktop keeps no tables
    to_game_over(bare)
    bare.frame()
    assert type(bare.scene).__name__ == "GameOverScene"
    h = Harness((480, 270))
    h.ctx.config_path = tmp_path / "config.toml"
    for n in range(10):  # a full table, every time faster than this game's
        office(h.ctx).add_score(Score("reaction", "FST", 200.0 + n, 1, 0, "2026-11-26"))
    to_game_over(h)
    h.frame()
    assert type(h.scene).__name__ == "GameOverScene"


def test_who_makes_the_table() -> None:
    assert reaction_qualifiers({1: 600.0, 2: 400.0}, []) == [(2, 0, 400.0), (1, 0, 600.0)]
    assert reaction_qualifiers({1: 600.0, 2: 400.0}, [], computer={2}) == [(1, 0, 600.0)]  # people only
    assert reaction_qualifiers({1: MIN_MS - 1, 2: None}, []) == []  # anticipation, and no card played
    nine = [200.0 + n for n in range(9)]
    assert reaction_qualifiers({1: 300.0, 2: 250.0}, nine) == [(2, 0, 250.0)]  # one place left, the faster
    assert reaction_qualifiers({1: 150.0, 2: 190.0}, nine) == [(1, 0, 150.0), (2, 0, 190.0)]  # both beat the last
    assert reaction_qualifiers({1: 300.0}, [*nine, 209.0]) == []


def test_a_linked_game_takes_initials_only_from_the_players_at_this_cabinet(tmp_path: Path) -> None:
    h = Harness((480, 270))
    to_game_over(h)  # (no settings file yet: no initials)
    match = h.scene.match  # type: ignore[attr-defined]
    match.table = SimpleNamespace(remote_seats=frozenset({2}), notice="")  # player 2 sits at the other cabinet
    h.ctx.config_path = tmp_path / "config.toml"
    h.runner.apply_scene(make("game_over", h.ctx, match, h.ctx.view()))
    h.frame()
    assert type(h.scene).__name__ == "ReactionInitialsScene"
    assert h.scene.waiting == [(1, 0, 600.0)]  # type: ignore[attr-defined]
