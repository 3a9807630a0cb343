"""Running Spit's screens: split times from the events, the runner board, the late-pad note, the
figures at the end, the initials and the high-score table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
from headless import Harness
from positions import game_at

from appliance import high_scores
from appliance.display.compositor import Canvas
from appliance.display.running_view import (
    RUNNER_SIZE,
    LatePadNote,
    RunningBoard,
    obstacles_of,
    overlays_for,
    runner_box,
    runner_boxes,
    split_words,
)
from appliance.display.scenes.base import make
from appliance.display.scenes.running_over import qualifiers, runner_line
from appliance.match import Match
from appliance.operator.store import Score, Store, store_path
from appliance.running_stats import SprintClock, runner_figures, sprints

SECOND = 1_000_000_000
MS = 1_000_000
RUNNING = {"carry": True, "runners": [1, 2]}


def running_match(start_ns: int = 0, runners: list[int] | None = None) -> Match:
    """Running Spit: each team's 8 fits the 9 on spit pile 1; team 2 has two runners."""
    game = game_at(["2C 8H", "3C", "4C", "5C", "6C"], ["2D 8C", "3D", "4D", "5D", "6D"], spit=("KS", "9S"),
                   variant="running", options={**RUNNING, "runners": runners or [1, 2]})
    return Match(0, start_ns, game=game)


def race(match: Match, start_ns: int = 0) -> None:
    """Both pick up their 8; team 2's runner slaps 2.7 s after the pick-up, team 1's 50 ms later."""
    match.press(start_ns, 1, "pile1")
    match.press(start_ns + SECOND // 2, 2, "pile1")
    match.press(start_ns + 3200 * MS, 2, "left")
    match.press(start_ns + 3250 * MS, 1, "right")


def test_a_sprint_is_pick_up_to_that_card_landing_and_races_go_to_the_runner_who_landed_first() -> None:
    match = running_match()
    race(match)
    assert [(s.seat, s.runner, s.card, s.ms) for s in sprints(match.events, [1, 2])] == [(2, 0, "8C", 2700.0)]
    figures = runner_figures(match.events, [1, 2])
    assert set(figures) == {(1, 0), (2, 0), (2, 1)}
    winner = figures[(2, 0)]
    assert (winner.fastest_ms, winner.average_ms, winner.races_won, winner.margins_ms) == (2700.0, 2700.0, 1, [50.0])
    assert figures[(1, 0)].sprints == [] and figures[(2, 1)].sprints == []
    clock = SprintClock([1, 2])
    clock.feed(match.events)
    assert clock.next_runner == {1: 0, 2: 1}  # team 2's next runner is B, as the core says
    assert match.spit.player(2).runner == 1
    assert 1 in clock.running  # team 1's runner still carries the 8H


def test_a_card_put_back_is_no_sprint_and_runners_take_turns() -> None:
    match = running_match(runners=[1, 2])
    match.press(0, 2, "pile1")
    match.press(SECOND, 2, "pile1")  # the card under the carried one is turned
    match.press(2 * SECOND, 2, "pile1")  # and the carried one put back
    match.press(2500 * MS, 2, "pile1")
    match.press(3500 * MS, 2, "left")  # 1 s from the second pick-up
    assert [e.kind for e in match.events][:5] == ["select", "flip", "deselect", "select", "play"]
    assert [(s.runner, s.ms) for s in sprints(match.events, [1, 2])] == [(0, 1000.0)]
    clock = SprintClock([1, 2])
    clock.feed(match.events)
    assert clock.next_runner[2] == 1


def test_split_words() -> None:
    assert split_words(4213.0) == "4.21\u00a0s" and split_words(62_440.0) == "1:02.4"
    assert split_words(-5) == "0.00\u00a0s"


def drawn(canvas: Canvas, place: str) -> list[Any]:
    return [t for t in canvas.texts if t.place == place]


def test_the_board_names_the_next_runner_in_letters_readable_from_the_pads() -> None:
    h = Harness((1920, 1080), "tabletop")
    match = running_match(h.now_ns)
    view = h.ctx.view(game=match.spit)
    board = RunningBoard(match, view.layout)
    canvas = Canvas(pygame.Surface((1920, 1080)))
    board.draw(canvas, h.now_ns)
    texts = drawn(canvas, "running")
    assert {(t.seat, " ".join(t.words)) for t in texts} == {(1, "NEXT RUNNER A"), (2, "NEXT RUNNER A")}
    for text in texts:
        letter_px = text.scale * RUNNER_SIZE * view.layout.text_h
        assert letter_px >= 150  # ~4 cm on a 24-inch 1080p table: read from 3 m and more
        assert text.angle == view.layout.seat(text.seat).angle  # turned to face its team
        assert text.box.contains(text.rect)
        assert text.rect.collidelist(obstacles_of(view.layout)) == -1  # never over a card or another text
    race(match, h.now_ns)
    canvas = Canvas(pygame.Surface((1920, 1080)))
    board.draw(canvas, h.now_ns + 4 * SECOND)
    words = {t.seat: t.words for t in drawn(canvas, "running")}
    assert " ".join(words[2]) == "NEXT RUNNER B 2.70\u00a0s"  # team 2's next runner, and the split A just ran
    assert " ".join(words[1]) == "RUNNING NOW A 4.00\u00a0s"  # team 1's still running, counting


def test_every_teams_board_is_the_same_size_in_every_layout_and_read_from_the_pads() -> None:
    for layout_name in ("tabletop", "desktop"):
        for size in ((1280, 720), (1280, 800), (1920, 1080)):
            h = Harness(size, layout_name)
            match = running_match(h.now_ns)
            view = h.ctx.view(game=match.spit)
            board = RunningBoard(match, view.layout)
            canvas = Canvas(pygame.Surface(size))
            board.draw(canvas, h.now_ns)
            texts = drawn(canvas, "running")
            letters = {t.seat: round(t.scale * RUNNER_SIZE * view.layout.text_h) for t in texts}
            assert sorted(letters) == [1, 2] and letters[1] == letters[2], (layout_name, size, letters)
            # the runner's letter some 14% of the screen's height, at every size (1280x800: 112 px, 3 cm
            # on a 15-inch screen; 76x70 px boards had 40 px): a table laid out with the board's room
            assert letters[1] >= 0.13 * size[1], (layout_name, size, letters)
            for text in texts:
                assert board.boxes[text.seat].contains(text.rect)
                assert text.rect.collidelist(obstacles_of(view.layout)) == -1


def test_the_board_is_beside_every_seats_stock_in_every_layout() -> None:
    for layout_name in ("tabletop", "desktop"):
        h = Harness((960, 540), layout_name)
        for seats in (2, 3, 4):
            from appliance.rules import new_game

            game, _ = new_game("running", 1, {"seats": seats})
            layout = h.ctx.table_for(game)[0]
            boxes = list(runner_boxes(layout).values())
            assert runner_box(layout, 1) == boxes[0]
            for box in boxes:
                assert box.width > 0 and box.height > 0
                assert pygame.Rect((0, 0), layout.size).contains(box)
                assert box.collidelist(obstacles_of(layout)) == -1
                assert box.collidelist([b for b in boxes if b is not box]) == -1


def test_a_late_pad_slides_the_card_back_and_says_so() -> None:
    h = Harness((960, 540), "tabletop")
    match = running_match(h.now_ns)
    view = h.ctx.view(game=match.spit)
    overlays = overlays_for(match, view)
    assert [type(o).__name__ for o in overlays] == ["LatePadNote", "RunningBoard"]
    note = overlays[0]
    assert isinstance(note, LatePadNote)
    match.press(h.now_ns, 1, "pile1")
    match.press(h.now_ns, 2, "pile1")
    match.press(h.now_ns + 3002 * MS, 1, "right")  # shown played...
    assert note.captions(h.now_ns + 3003 * MS) == []
    match.press(h.now_ns + 3001 * MS, 2, "left")  # ...but team 2's pad slapped a ms before: 30 ms late
    now = h.now_ns + 3031 * MS
    captions = note.captions(now)
    assert [line.words for c in captions for line in c.lines] == ["LATE PAD: put right"]
    assert [(s.card, s.end) for s in note.slides] == [("8H", view.layout.seat(1).stock[0].topleft)]
    canvas = Canvas(pygame.Surface((960, 540)))
    note.draw(canvas, now)
    assert len(canvas.items) == 1 and note.busy(now)
    canvas = Canvas(pygame.Surface((960, 540)))
    note.draw(canvas, now + 3 * SECOND)
    assert canvas.items == [] and note.captions(now + 3 * SECOND) == [] and not note.busy(now + 3 * SECOND)
    assert note.corrections == 1
    board = overlays[1]
    assert isinstance(board, RunningBoard)
    board.take()
    assert [(s.seat, s.ms) for s in board.clock.done] == [(2, 3001.0)]  # counted again after the correction


def test_a_classic_game_gets_only_the_late_pad_note() -> None:
    h = Harness((480, 270))
    match = Match(3, h.now_ns)
    assert [type(o).__name__ for o in overlays_for(match, h.ctx.view(game=match.spit))] == ["LatePadNote"]


def finished_running_game(h: Harness) -> Match:
    """Team 2 (two runners) plays out its last card: game over, with one sprint of 2.7 s."""
    match = Match(0, h.now_ns, game=last_card())
    match.press(h.now_ns + SECOND // 2, 2, "pile1")
    match.press(h.now_ns + 3200 * MS, 2, "left")
    assert match.finished and match.spit.winner == 2
    return match


def last_card() -> Any:
    """Team 2's last card, the 8C, fits the 9S on the one spit pile left: playing it wins the game."""
    return game_at(["8H", "3C", "4C", "5C", "6C"], ["8C", "", "", "", ""], spit=("", "9S"), rest="spit1",
                   variant="running", options=RUNNING)


def kept_scores(h: Harness) -> list[Score]:
    """The sprint table as the store on the card holds it (once the writer wrote what it was handed)."""
    assert h.ctx.office is not None and h.ctx.office.drain(10) and h.ctx.config_path is not None
    store = Store.open(store_path(h.ctx.config_path))
    try:
        return store.high_scores("sprint")
    finally:
        store.close()


def test_the_figures_at_the_end_then_initials_then_the_table(tmp_path: Path) -> None:
    h = Harness((960, 540), "tabletop")
    h.ctx.config_path = tmp_path / "config.toml"
    match = finished_running_game(h)
    view = h.ctx.view(game=match.spit)
    h.runner.apply_scene(make("running_over", h.ctx, match, view))
    h.frame()
    scene: Any = h.scene
    assert type(scene).__name__ == "RunningOverScene"
    shown = [line.words for c in scene.captions() if c.seat == 2 for line in c.lines]
    assert shown == ["Team 2", "A: 1 sprints, fastest 2.70\u00a0s, average 2.70\u00a0s", "B: no sprint"]
    h.advance(2.0)
    h.press(1, "spit")
    h.frame()
    scene = h.scene
    assert type(scene).__name__ == "RunningInitialsScene"
    assert scene.current == (2, 0, 2700.0)
    h.press(1, "right")  # not the runner's team: nothing
    for control in ("right", "right", "spit", "spit", "left", "left", "spit"):  # C, A, Z (A, space, Z)
        h.press(2, control)
    h.frame()
    assert type(h.scene).__name__ == "RunningScoresScene"
    assert [(e.initials, e.ms, e.team, e.runner) for e in kept_scores(h)] == [("CAZ", 2700.0, 2, 0)]
    words = [line.words for c in h.scene.captions() for line in c.lines]
    assert words[0] == "RUNNING SPIT — FASTEST SPRINTS" and words[1].startswith(" 1. CAZ  2.70\u00a0s")
    h.advance(0.6)
    h.press(0, "start")
    h.frame()
    assert type(h.scene).__name__ == "TitleScene"


def test_without_a_table_to_keep_or_a_sprint_fast_enough_the_end_goes_back_to_the_title(tmp_path: Path) -> None:
    h = Harness((480, 270))
    match = finished_running_game(h)
    h.runner.apply_scene(make("running_over", h.ctx, match, h.ctx.view(game=match.spit)))
    h.advance(31)
    assert type(h.scene).__name__ == "TitleScene"
    full = high_scores.HighScores([high_scores.Entry("FST", 100.0 + n) for n in range(high_scores.SIZE)])
    figures = runner_figures(match.events, [1, 2])
    assert qualifiers(figures, full) == []
    assert qualifiers(figures, high_scores.HighScores()) == [(2, 0, 2700.0)]
    assert qualifiers(figures, high_scores.HighScores(), frozenset({2})) == []  # the computer is not entered
    assert runner_line(figures[(1, 0)]) == "A: no sprint"


def test_the_table_in_attract_mode_and_a_runner_who_enters_nothing(tmp_path: Path) -> None:
    h = Harness((480, 270))
    h.ctx.config_path = tmp_path / "config.toml"
    h.runner.apply_scene(make("running_scores", h.ctx))
    h.frame()
    assert [line.words for c in h.scene.captions() for line in c.lines][1] == "no sprints yet: be the first"
    h.runner.apply_scene(make("running_initials", h.ctx, [(1, 1, 3000.0)], h.ctx.view()))
    h.advance(31)  # nobody enters anything: entered as shown, "AAA"
    assert [(e.initials, e.runner) for e in kept_scores(h)] == [("AAA", 1)]
    h.advance(13)
    assert type(h.scene).__name__ == "TitleScene"


def test_the_play_scene_hook_as_the_report_gives_it(tmp_path: Path) -> None:
    """The lines the play scene takes (see the report): overlays drawn and captioned, and the hand-over
    to "running_over" at a Running game's end."""
    from appliance.display.scenes.base import Replace, Transition
    from appliance.display.scenes.play import PlayScene

    class HookedPlay(PlayScene):
        def __init__(self, ctx: Any, match: Match) -> None:
            super().__init__(ctx, match)
            self.overlays = overlays_for(match, self.view)

        def _next(self) -> Transition | None:
            if self.match.spit.phase == "over" and self.match.spit.rules.moves.carry:
                return Replace(make("running_over", self.ctx, self.match, self.view))
            return super()._next()

        def captions(self) -> list[Any]:
            return super().captions() + [c for o in self.overlays for c in o.captions(self.now_ns)]

        def draw(self, canvas: Canvas) -> None:
            super().draw(canvas)
            for overlay in self.overlays:
                overlay.draw(canvas, self.now_ns)

    h = Harness((960, 540), "tabletop")
    match = Match(0, h.now_ns, game=last_card())
    h.runner.apply_scene(HookedPlay(h.ctx, match))
    h.frame()
    assert {" ".join(t.words) for t in h.canvas().texts if t.place == "running"} == {"NEXT RUNNER A"}
    h.press(2, "pile1")
    h.advance(1.0)
    assert any(" ".join(t.words).startswith("RUNNING NOW A") for t in h.canvas().texts
               if t.place == "running" and t.seat == 2)
    h.press(2, "left")
    h.frame()
    assert type(h.scene).__name__ == "RunningOverScene"


def test_a_game_that_ends_is_counted_once_with_its_winner_sprints_and_controls(tmp_path: Path) -> None:
    from appliance.operator.office import Office

    office = Office.open(tmp_path / "config.toml")
    ends: list[bool] = []
    match = Match(0, 0, game=last_card())
    match.ended = lambda m, abandoned: (ends.append(abandoned), office.game_over(m, abandoned))
    match.press(SECOND // 2, 2, "pile1")
    match.press(3200 * MS, 2, "left")
    match.abandon()  # (the scene leaving a game over changes nothing: it was counted as it ended)
    assert ends == [False] and office.drain(10)
    rows = office.store.rows("SELECT variant, seats, winner, abandoned, sprints, controls FROM games")
    assert rows == [("running", 2, 2, 0, "[2700.0]", '["2 left", "2 pile1"]')]
    office.close()


BOARD_EXPLAINED = {
    "en": "NEXT RUNNER: the team's runner who carries the next card to a pad",
    "de": "ALS NÄCHSTES LÄUFT: wer im Team die nächste Karte zur Matte trägt",
    "eo": "SEKVA KURANTO: kiu el la teamo portas la sekvan karton al kuseneto",
}


def test_the_board_explains_itself_to_each_team_in_its_info_place() -> None:
    from headless import everybody_calls_spit, to_ready

    from appliance.display.i18n import LANGUAGES, set_language

    for layout in ("desktop", "tabletop"):
        h = Harness((1280, 720), layout)
        h.settings.game = "running"
        to_ready(h)
        everybody_calls_spit(h)
        try:
            for language in LANGUAGES:
                set_language(language)
                texts = h.canvas().texts
                boards = {t.seat: t.words for t in texts if t.place == "running"}
                assert sorted(boards) == [1, 2] and all(words[-1] == "A" for words in boards.values())
                info = {t.seat: " ".join(t.words) for t in texts if t.place == "info"}
                assert sorted(info) == ([None] if layout == "desktop" else [1, 2]), info
                for words in info.values():
                    assert BOARD_EXPLAINED[language] in words, (layout, language, words)
        finally:
            set_language("en")


def test_under_the_venues_board_the_cabinet_shows_its_best_five_and_a_new_place_below_them() -> None:
    from appliance.display.scenes.running_scores import table_lines

    table = high_scores.HighScores([high_scores.Entry(f"P{n:02d}", 10_000 + n) for n in range(1, 11)])
    shown = [line.words.split(".")[0].strip() for line in table_lines(table, lit=(8,), places=5)]
    assert shown == ["1", "2", "3", "4", "5", "8"]
    assert len(table_lines(table)) == 10  # a lone cabinet: all ten
