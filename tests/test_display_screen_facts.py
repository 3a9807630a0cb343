"""No text over text, as a property: every scene, on both layouts, at a table of two, three and four,
in every language, at the cabinet's and the desktop's screen sizes, with whatever notices can be up
at once, is read as data (screen_facts.problems: the frame's texts, cards and covers as the scenes
drew them) and must have nothing wrong: every text fits its box and the screen, and no two texts, or
a text and a card, overlap.

The whole matrix runs (no sampling): each scene is driven once per layout, size and table, and then
read in each language with each stack of notices over it, which costs a frame's drawing each.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from headless import (
    KEY_SCENES,
    Harness,
    everybody_calls_spit,
    headless_display,
    to_play,
    to_ready,
    to_seats,
)
from screen_facts import problems

from appliance.display.captions import Caption, Drawn, Line, draw_captions
from appliance.display.coins import office
from appliance.display.compositor import Canvas
from appliance.display.i18n import LANGUAGES, set_language
from appliance.display.layout import table_layout
from appliance.display.scenes.base import LEFT_OUT, SETTINGS, WAITING, Notice, Push, make
from appliance.operator.updates import Installing, Looked, Updates
from appliance.shared.settings import Settings

LAYOUTS = ("desktop", "tabletop")
SIZES = ((1280, 720), (1280, 800), (1920, 1080))
SEATS = (2, 3, 4)
# one of each kind, so the panel has its every heading and footer line
NOTICES = [Notice("the settings file has a mistake: volume must be from 0.0 to 1.0, not 7 (0.6 used)", SETTINGS),
           Notice("the gpio inputs cannot start (FileNotFoundError: /dev/gpiochip0); left out", LEFT_OUT),
           Notice("no slap pad at /dev/ttyUSB0 yet; it joins when it is plugged in", WAITING)]  # fmt: skip


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    set_language("en")


def _family(game: str, rules: dict[str, Any] | None = None) -> Callable[[Harness], None]:
    def set_up(h: Harness) -> None:
        h.settings.game = game
        h.settings.house_rules = {**h.settings.house_rules, **(rules or {})}

    return set_up


def to_speed_rejects(h: Harness) -> None:
    """Speed in play, both players told why their press did nothing."""
    _family("speed")(h)
    to_ready(h)
    h.press(1, "spit")
    h.press(2, "spit")
    h.frame()
    h.press(1, "left")
    h.press(2, "left")
    h.frame()


def to_seat_rejects(h: Harness) -> None:
    """Every seat of a table of two, three or four told why its press did nothing (a card that fits
    no spit pile: "J♦ needs 10 or Q: no spit pile takes K♦"), each in its own place."""
    seats = h.settings.house_rules.get("seats", 2)
    if seats > 2:
        to_seats(h, seats)
    else:
        to_play(h)
    for player in range(1, seats + 1):
        for pile, side in (("pile1", "far_left"), ("pile2", "right")):
            h.press(player, pile)
            h.press(player, side if seats > 2 or side == "right" else "left")
    h.advance(0.35)  # the cards played have landed, the rejected ones stopped shaking; the words stay
    scene: Any = h.scene
    assert len(scene.view.messages) >= seats - 1  # (a seat whose card happened to fit has none)


def to_piles(piles: int) -> Callable[[Harness], None]:
    """A game dealt with `piles` stock piles a seat (the menu's presets where they deal it: Threes,
    Two decks; else, as a journal's or a script's rules may ask, two decks and piles of 1 to `piles`),
    in play; at a table of three or four its last seat
    the computer's, the seats at the sides laying theirs in two rows where one would not fit
    (round_table.side_rows)."""

    def go(h: Harness) -> None:
        from appliance.display.rules_words import choice_of
        from appliance.match import Match, make_bot

        seats = h.settings.house_rules.get("seats", 2)
        variant: str = {5: "threes", 6: "two-decks"}[piles]
        options: dict[str, Any] = {"seats": seats}
        if choice_of(variant, options).seats != seats:  # (no preset deals it at this table: a journal's rules)
            variant, options = "classic", {"seats": seats, "decks": 2, "stock_piles": list(range(1, piles + 1))}
        bots = {seats: make_bot("2", seats, 7)} if seats > 2 else {}
        match = Match(7, h.now_ns, None, bots, variant=variant, options=options)
        h.runner.apply_scene(make("play", h.ctx, match))
        h.frame()
        everybody_calls_spit(h, seats, 0.3)
        assert len(match.game.players[0].stock) == piles

    return go


def to_running(h: Harness) -> None:
    _family("running")(h)
    to_play(h)
    h.advance(0.3)


def idle(drive: Callable[[Harness], None]) -> Callable[[Harness], None]:
    """The scene `drive` reaches, then nobody touching it until the idle countdown shows (5 s left)."""

    def go(h: Harness) -> None:
        drive(h)
        h.now_ns += int((h.settings.idle_timeout_s - 5) * 1e9)
        h.frame()

    return go


def to_resume_ask(h: Harness) -> None:
    """A desktop started on a game left unfinished: asked whether to play it on (every seat a person)."""
    seats = h.settings.house_rules.get("seats", 2)
    if seats > 2:
        to_seats(h, seats)
    else:
        to_play(h)
    h.runner.apply(Push(make("resume_ask", h.ctx, h.scene.match, "20261124-081530-seed123456.jsonl")))  # type: ignore[attr-defined]
    h.frame()


def to_running_next(h: Harness) -> None:
    """Running Spit in play, nobody running yet: each team's board says who runs next, and what that means."""
    _family("running")(h)
    to_ready(h)
    everybody_calls_spit(h)


def to_service(page_rows: tuple[int, ...]) -> Callable[[Harness], None]:
    """The service menu over the title, opened at the pages reached by choosing `page_rows`."""

    def go(h: Harness) -> None:
        h.runner.service_menu = True
        h.press(0, "service")
        for row in page_rows:
            for _ in range(row):
                h.press(1, "right")
            h.press(0, "start")
        h.frame()

    return go


class ShownUpdates(Updates):
    """The updater's answers as they would come, held: two bundles (what changes, the signer), a
    refused one, and a fallback since the last update; an install that ended well."""

    def look(self) -> None:
        signer = "Spit Arcade DEVELOPMENT signer - not for the field"
        self.looked = Looked(True, True, "0.1.0", (
            {"name": "spit-arcade-0.2.0-amd64.raucb", "version": "0.2.0", "signer": signer, "needs_confirm": False,
             "description": "Spit Arcade 0.2.0 for amd64\nFaster deal\nRunning Spit: sprint times kept"},
            {"name": "spit-arcade-0.0.9-amd64.raucb", "version": "0.0.9", "signer": signer, "needs_confirm": True},
            {"name": "spit-arcade-0.3.0-arm64.raucb", "version": "0.3.0",
             "refused": "made for another machine (spit-arcade-arm64); this cabinet is spit-arcade-amd64"},
        ))  # fmt: skip
        self.fallback = {"from": "0.2.0", "to": "0.1.0", "why": (
            "0.2.0 did not come up (tried on 1 boot): its game did not show the title within 300 s of power-on, "
            "or failed 3 starts; the cabinet went back to 0.1.0 by itself"), "tries": 3, "bound_s": 300, "starts": 3}

    def check_status(self) -> None:
        pass

    def install(self, name: str, confirm_downgrade: bool = False) -> None:
        self.installing = Installing(name, "0.2.0", "0.1.0", 100, "Installing done.", True, True)


def to_update(h: Harness) -> None:
    """The service menu's Update page: the bundles on the stick, the one under the cursor's changes
    and signer, and a fallback since the last update."""
    h.ctx.updates = ShownUpdates(office(h.ctx))
    to_service((4,))(h)


def to_installed(h: Harness) -> None:
    """An update installed: the progress bar full, what the restart will do."""
    to_update(h)
    h.press(0, "start")
    h.press(0, "start")
    h.frame()


def to_language_saved(h: Harness, tmp: Path | None = None) -> None:
    """The service menu's Adjustments, the language stepped on once: "saved"."""
    to_service((2,))(h)
    for _ in range(6):
        h.press(1, "right")
    h.press(0, "start")
    h.frame()


def to_scores_with_venue(h: Harness) -> None:
    """Running Spit's full table of ten, and the venue's board under it, sprints and reactions
    (appliance/venue/board.py)."""
    from appliance import high_scores
    from appliance.venue.board import Place, Reaction

    scene: Any = make("running_scores", h.ctx)
    scene.table = high_scores.HighScores([high_scores.Entry("WWW", 10_000.0 + n, 1 + n % 2) for n in range(10)])
    scene.venue = [Place("MMM", 59_999.9 - n, f"the-long-table-{n}") for n in range(5)]
    scene.reactions = [Reaction("MMM", 59_999.9 - n, f"the-long-table-{n}") for n in range(3)]
    h.runner.apply_scene(scene)


def to_replay(h: Harness) -> None:
    from appliance.display.replay_show import ReplayScene
    from appliance.scripting import parse_script

    presses = [(0.5, 1, "spit"), (0.6, 2, "spit"), (1.5, 1, "pile1"), (1.6, 2, "pile1"), (9.0, 1, "pile2")]
    lines = [json.dumps({"setup": {"variant": "classic", "seed": 7}})]
    lines += [json.dumps({"t": t, "player": p, "press": c}) for t, p, c in presses]
    name = "20261124-081530-seed123456.jsonl"  # a journal's name, as journal.py makes them
    h.runner.apply_scene(ReplayScene(h.ctx, parse_script(lines), speed=1.0, hold_s=None, name=name))
    h.advance(1.8)


def _learn_step(h: Harness) -> None:
    """The guided first game's learner makes the press asked for (the partner's call waited for)."""
    scene: Any = h.scene
    while scene.guide.waiting(scene.match.game):
        h.advance(0.1)
    h.press(scene.learner, scene.guide.ask(scene.match.game).control)
    h.frame()


def to_learn(game: str, learner: int, steps: int, wrong: str) -> Callable[[Harness], None]:
    """The guided first game (one press from the title, at seat `learner`), `steps` presses done and
    then a `wrong` one: the step asked, the praise for the last one and why the wrong press was held
    back, all up at once."""

    def go(h: Harness) -> None:
        h.settings.game = game
        h.press(learner, "pile1")
        h.frame()
        for _ in range(steps):
            _learn_step(h)
        h.advance(1.0)  # (the partner has called)
        h.press(learner, wrong)
        h.frame()
        scene: Any = h.scene
        assert scene.wrong is not None and scene.praise is not None and not scene.guide.done

    return go


def to_game_over_by_length(h: Harness) -> None:
    """Game over by the operator's game length (ours): why it ended, and each seat's cards left."""
    from test_display_game_length import over_by_length

    over_by_length(h)


def to_learned(h: Harness) -> None:
    """The end of the guided first game of Spit."""
    h.press(1, "pile1")
    h.frame()
    while type(h.scene).__name__ == "LearnScene":
        if h.scene.guide.done:  # type: ignore[attr-defined]
            h.advance(0.5)
        else:
            _learn_step(h)


# scene name -> (how to get there, does a table of three or four change it)
SCENES: dict[str, tuple[Callable[[Harness], None], bool]] = {
    name: (drive, name in ("title", "choose", "game_menu", "countdown", "ready", "play", "settings", "pause"))
    for name, (_, drive) in KEY_SCENES.items()
    if name not in ("three_seats", "four_seats")  # the table of three and four: `play` at 3 and 4 seats
}
SCENES.update(
    {
        "speed": (to_speed_rejects, False),
        "seat_rejects": (to_seat_rejects, True),
        "running": (to_running, False),
        "five_piles": (to_piles(5), True),  # house rules' deals at every table size: the cards still big enough
        "six_piles": (to_piles(6), True),
        "running_next": (to_running_next, False),
        "resume_ask": (to_resume_ask, True),
        "idle_countdown": (idle(to_play), True),
        "speed_idle_countdown": (idle(to_speed_rejects), False),
        "service_main": (to_service(()), False),
        "service_adjustments": (to_service((2,)), False),
        "service_language_saved": (to_language_saved, False),
        "service_audits": (to_service((1,)), False),
        "service_diagnostics": (to_service((0,)), False),
        "service_switch_test": (to_service((0, 0)), False),
        "service_notices": (to_service((0, 3)), False),
        "service_update": (to_update, False),
        "service_update_installed": (to_installed, False),
        "replay": (to_replay, False),
        "scores_with_venue": (to_scores_with_venue, False),
        "learn_spit": (to_learn("classic", 1, 1, "pile3"), False),
        "learn_spit_seat2_slap": (to_learn("classic", 2, 14, "left"), False),
        "learn_speed": (to_learn("speed", 1, 1, "right"), False),
        "learn_speed_seat2_play": (to_learn("speed", 2, 3, "right"), False),
        "learned": (to_learned, False),
        "game_over_by_length": (to_game_over_by_length, False),
        "title_running": (_family("running"), False),  # the title explains the game chosen: the longest lines
        "title_speed": (_family("speed"), False),
    }
)
# what can be up over a scene at once: nothing; the start's notices; the notices with the service
# menu opened over them; and, on the title, a game that costs credits with none in the box
OVERLAYS = ("none", "notices", "notices+service", "no_credits")


def drive(name: str, layout: str, size: tuple[int, int], seats: int, free_play: bool = True) -> Harness:
    """A fresh screen driven to the scene, at a table of `seats`."""
    h = Harness(size, settings=Settings(layout=layout, free_play=free_play))
    if seats > 2:
        h.settings.house_rules = {"seats": seats}
    how, _ = SCENES[name]
    if name == "play" and seats > 2:
        to_seats(h, seats, {seats: "2"})  # the last seat the computer's
    else:
        how(h)
    h.frame()
    return h


def overlaid(name: str, layout: str, size: tuple[int, int], seats: int) -> Iterator[tuple[str, Harness]]:
    """The scene with each stack of notices that can be up over it, one after another."""
    h = drive(name, layout, size, seats)
    yield "none", h
    if name not in ("title", "play", "speed"):
        return
    h.runner.apply(Push(make("notices", h.ctx, NOTICES)))
    h.frame()
    yield "notices", h
    h.runner.service_menu = True
    h.press(0, "service")
    h.frame()
    yield "notices+service", h
    if name == "title":
        yield "no_credits", drive(name, layout, size, seats, free_play=False)


def cases() -> Iterator[tuple[str, str, tuple[int, int], int]]:
    for name, (_, by_seats) in SCENES.items():
        for layout in LAYOUTS:
            for size in SIZES:
                for seats in SEATS if by_seats else (2,):
                    yield name, layout, size, seats


CASES = list(cases())


@pytest.mark.parametrize(
    ("name", "layout", "size", "seats"), CASES, ids=[f"{n}-{lay}-{s[0]}x{s[1]}-{k}" for n, lay, s, k in CASES]
)
def test_no_text_covers_another_or_a_card(name: str, layout: str, size: tuple[int, int], seats: int) -> None:
    for overlay, h in overlaid(name, layout, size, seats):
        for language in LANGUAGES:
            set_language(language)
            found = problems(h.canvas())
            assert found == [], (overlay, language, found)
            if name == "play" and overlay == "none":
                assert keys_as_at_fewer_seats(h, layout) == [], language
        set_language("en")


def keys_as_at_fewer_seats(h: Harness, layout: str) -> list[str]:
    """Each person's legend, as drawn, names the keys it names at the smallest table the seat sits
    at (players 1 and 2: two; 3: three): the same keys at every table size (player 2's left pile is
    J at two seats and at three), only the far piles added. What differs, in words."""
    from appliance.display.keys import table_keymap
    from appliance.display.legend import seat_legend

    view: Any = h.scene.view  # type: ignore[attr-defined]
    lay = view.layout
    wrong = []
    for player, seat in lay.seats.items():
        if player in view.computer:
            continue
        first = max(2, player)
        fewer = seat_legend(table_keymap(h.ctx.keymap, layout, first), player, layout, len(seat.stock), first)
        drawn = [" ".join(d.words) for d in h.canvas().texts if d.place == "legend" and d.seat == player]
        if len(drawn) != 1 or not drawn[0].startswith(" ".join(fewer)):
            wrong.append(f"player {player}: {drawn} where {len(lay.seats)} sit, {fewer} at {first}")
    return wrong


def test_the_matrix_covers_every_scene_layout_table_language_and_size() -> None:
    assert len(LANGUAGES) == 3 and {"en", "de", "eo"} == set(LANGUAGES)
    assert {(n, k) for n, _, _, k in CASES} >= {("title", 4), ("play", 3), ("play", 4), ("choose", 3)}
    assert len(CASES) == sum(len(LAYOUTS) * len(SIZES) * (3 if by else 1) for _, by in SCENES.values())


# ------------------------------------------------------------------ the check itself can fail


def _canvas(size: tuple[int, int] = (1280, 720)) -> tuple[Canvas, Any]:
    headless_display(size)
    return Canvas(pygame.Surface(size)), table_layout(size, "tabletop")


def test_a_notice_over_the_title_without_its_backdrop_is_found() -> None:
    canvas, lay = _canvas()
    title = Caption("panel", None, (Line("SPIT ARCADE", 0.42), Line("how to play, at length", 0.13)), 200, 0)
    notice = Caption("panel", None, (Line("The cabinet started with problems", 0.18),), 220, 0)
    draw_captions(canvas, lay, [title])
    draw_captions(canvas, lay, [notice])
    assert any("overlaps" in p for p in problems(canvas))
    hidden, _ = _canvas()
    draw_captions(hidden, lay, [title])
    draw_captions(hidden, lay, [Caption("panel", None, notice.lines, 220)])  # the panel's own backdrop
    assert problems(hidden) == []


def test_a_veil_lets_the_text_under_it_show_through() -> None:
    canvas, lay = _canvas()
    draw_captions(canvas, lay, [Caption("panel", 1, (Line("under", 0.3),), 200, 0)])
    draw_captions(canvas, lay, [Caption("panel", 1, (Line("over it", 0.3),), 200, 190)])
    assert any("overlaps" in p for p in problems(canvas))


def test_a_text_cut_at_its_box_and_one_over_a_card_are_found() -> None:
    canvas, lay = _canvas()
    words = "Vorratsstapelkartenaustauschbedingungen" * 8  # one word: it cannot be broken
    draw_captions(canvas, lay, [Caption("reject", 1, (Line(words, 0.2),))])
    assert any("does not fit" in p for p in problems(canvas))
    carded, _ = _canvas()
    box = lay.seat(1).places["reject"]
    carded.card(pygame.Surface((lay.card_w, lay.card_h)), (box.centerx - lay.card_w // 2, box.y))
    draw_captions(carded, lay, [Caption("reject", 1, (Line("too late", 0.12),))])
    assert any("overlaps a card" in p for p in problems(carded))


def test_a_line_broken_inside_brackets_is_found() -> None:
    canvas, _ = _canvas()
    lines = ("one higher or lower (A is next", "to 2 and K).")
    canvas.text(Drawn("panel", 1, lines, pygame.Rect(10, 400, 200, 40), pygame.Rect(0, 360, 1280, 360), 0, 1.0, 20))
    assert problems(canvas) == ["panel/1 'one higher or lower (A is next | to 2 and K).' is broken inside brackets"]


def test_a_text_or_a_card_under_the_least_size_is_found() -> None:
    """Every text at least fonts.smallest_text (14 px at 1280 wide, 20 at 1920), every card at least
    seats.smallest_card long (91 px, 137 px): a smaller one is named."""
    from appliance.display.fonts import smallest_text
    from appliance.display.seats import smallest_card

    assert (smallest_text((1280, 720)), smallest_text((1280, 800)), smallest_text((1920, 1080))) == (14, 14, 20)
    assert (smallest_card((1280, 800)), smallest_card((1920, 1080))) == ((63, 91), (95, 137))
    canvas, _ = _canvas()
    box = pygame.Rect(40, 400, 400, 100)
    canvas.text(Drawn("reject", 1, ("too small",), pygame.Rect(40, 400, 60, 12), box, 0, 0.7, 13))
    canvas.card(pygame.Surface((63, 90)), (600, 100))
    found = problems(canvas)
    assert found == ["reject/1 'too small' is drawn at 13 px, under the 14 px every text is held to",
                     "a card (600, 100, 63, 90) is 90 px long, under the 91 px"]  # fmt: skip
    fine, _ = _canvas()
    fine.text(Drawn("reject", 1, ("big enough",), pygame.Rect(40, 400, 80, 17), box, 0, 1.0, 14))
    fine.card(pygame.Surface((91, 64)), (600, 100))  # a card turned to a side seat
    assert problems(fine) == []
