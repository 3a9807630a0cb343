"""Speed on screen: what each seat is shown (as data), the deal summary and game over, and every
Speed scene's texts fitting their boxes in both layouts and every language."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pygame
import pytest
from headless import Harness
from screen_facts import hidden
from slides import band, heights_until_landed

from appliance.bots import make_bot
from appliance.display.captions import Caption, Drawn, shown_to
from appliance.display.i18n import LANGUAGES, set_language
from appliance.display.scenes import speed_words
from appliance.display.scenes.base import make
from appliance.display.scenes.game_over import GameOverScene
from appliance.display.scenes.play import PlayScene
from appliance.display.scenes.round_summary import RoundSummaryScene
from appliance.display.scenes.speed_words import deal_lines, deals_of
from appliance.display.speed_view import SpeedTable, speed_legend
from appliance.match import Match
from appliance.rules import deck, game_from_setup
from appliance.rules.events import Deal, RoundOver, Score

SIZE = (1280, 720)
IN_PLAY = ("prompt", "reject", "race")
START_NS = 1_000_000_000


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    set_language("en")


def speed_setup(hand1: str, hand2: str, stock1: str = "", stock2: str = "", tops: tuple[str, str] = ("4C", "9D"),
                phase: str = "playing", scores: tuple[int, int] = (0, 0), target: int = 25) -> Any:
    """A Speed game from a position: hands of five slots ("-" empty), stocks top first, the spit piles'
    tops; every other card in the side stacks."""
    hands = [[None if c == "-" else c for c in hand.split()] for hand in (hand1, hand2)]
    stocks = [stock1.split(), stock2.split()]
    used = {c for h in hands for c in h if c} | set(stocks[0] + stocks[1]) | set(tops)
    left = [c for c in deck() if c not in used]
    half = len(left) // 2
    state = {
        "variant": "speed", "phase": phase, "round": 1, "winner": None,
        "spit_piles": [[tops[0]], [tops[1]]], "side_stacks": [left[:half], left[half:]],
        "players": [{"hand": hands[n], "stock": stocks[n], "score": scores[n], "selected": None} for n in range(2)],
    }
    game, events = game_from_setup({"variant": "speed", "seed": 3, "options": {"target": target}, "state": state})
    return game, events


def harness(layout: str, game: Any = None, bots: dict[int, str] | None = None, seed: int = 7) -> Harness:
    def scene(ctx: Any) -> Any:
        computer = {seat: make_bot(spec, seat, seed) for seat, spec in (bots or {}).items()}
        if game is None:
            match = Match(seed, START_NS, variant="speed", bots=computer)
        else:
            match = Match(seed, START_NS, bots=computer, game=game[0], events=game[1])
        match.levels = dict(bots or {})  # (as the players' menu starts a game: a rematch plays them again)
        return make("play", ctx, match)  # (the one play scene: Speed's table and words are its TableGame's)

    return Harness(SIZE, layout, scene=scene)


def play_scene(h: Harness) -> PlayScene:
    scene = h.scene
    assert isinstance(scene, PlayScene)
    return scene


def own(captions: list[Caption], seat: int, place: str) -> list[str]:
    return [line.words for c in captions if c.seat == seat and c.place == place for line in c.lines]


# ------------------------------------------------------------------ what each seat is shown


def test_ready_asks_each_seat_to_call_and_says_who_called() -> None:
    h = harness("tabletop")
    scene = play_scene(h)
    assert own(scene.captions(), 1, "prompt") == ["Ready? press SPIT!"]
    assert own(scene.captions(), 2, "prompt") == ["Ready? press SPIT!"]
    h.press(2, "spit")
    assert own(scene.captions(), 2, "prompt") == ["you called SPIT!"]
    assert own(scene.captions(), 1, "prompt") == ["Ready? press SPIT!"]
    h.press(1, "spit")
    h.frame()
    assert scene.match.game.phase == "playing"
    assert own(scene.captions(), 1, "prompt") == own(scene.captions(), 2, "prompt") == []


def test_a_computer_seat_is_told_nothing_and_its_call_is_said_as_the_computers() -> None:
    h = harness("tabletop", bots={2: "5"})
    scene = play_scene(h)
    assert own(scene.captions(), 2, "prompt") == []
    h.advance(3.0)
    assert own(scene.captions(), 2, "prompt") == ["the computer called SPIT!"]


def check_scores(scene: PlayScene, layout: str) -> list[str]:
    """What is wrong with the score each seat is shown (empty: nothing)."""
    problems = []
    game: Any = scene.match.game
    for seat in (1, 2):
        mine, theirs = game.player(seat).score, game.player(3 - seat).score
        want = f"player {seat}: {mine}" if layout == "desktop" else f"you {mine} · them {theirs}"
        shown = own(scene.captions(), seat, "info")
        if shown[:1] != [want]:
            problems.append(f"seat {seat}: {shown} is not {want!r}")
        if f"deal {game.round} · first to 11" not in shown:
            problems.append(f"seat {seat}: no deal line in {shown}")
    return problems


@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
def test_each_seat_reads_the_running_score_as_its_own(layout: str) -> None:
    h = harness(layout, speed_setup("5H 6H 7H 8H 9H", "KD QS JC TS 2S", scores=(3, 8), target=11))
    assert check_scores(play_scene(h), layout) == []


def test_a_swapped_score_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planted bug: the seats' scores swapped. The check above must see it."""
    h = harness("tabletop", speed_setup("5H 6H 7H 8H 9H", "KD QS JC TS 2S", scores=(3, 8), target=11))
    real = speed_words.score_lines

    def swapped(game: Any, seat: int, desktop: bool = False) -> tuple[str, str]:
        return real(game, 3 - seat, desktop)

    monkeypatch.setattr(speed_words, "score_lines", swapped)
    assert len(check_scores(play_scene(h), "tabletop")) == 2


def test_a_reject_is_told_to_its_seat_in_speeds_words() -> None:
    h = harness("tabletop", speed_setup("5H 6H 7H 8H 9H", "KD QS JC TS 2S"))
    scene = play_scene(h)
    h.press(1, "left")
    assert own(scene.captions(), 1, "reject") == ["pick a card from your hand first"]
    assert own(scene.captions(), 2, "reject") == []
    h.press(1, "pile1")  # 5H onto 4C: fits
    h.press(1, "left")
    game: Any = scene.match.game
    assert game.spit_piles[0][-1] == "5H"
    assert own(scene.captions(), 1, "reject") == []


def test_a_card_that_fits_neither_spit_pile_is_told_what_would_fit() -> None:
    # issue 25: 4♠ onto 6♦ with 9♥ beside it; the 8♣ keeps the game in play
    h = harness("tabletop", speed_setup("4S 2C - - -", "8C - - - -", tops=("6D", "9H")))
    scene = play_scene(h)
    game: Any = scene.match.game
    h.press(1, "pile1")
    h.press(1, "left" if game.table.spit_pile_for(1, "left") == 0 else "right")
    assert own(scene.captions(), 1, "reject") == ["6♦ needs 5 or 7: no spit pile takes 4♠"]


@pytest.mark.parametrize(("layout", "player"), [("tabletop", 1), ("tabletop", 2), ("desktop", 1)])
def test_a_played_card_slides_to_its_pile_never_changing_hand_and_middle_in_one_frame(
    layout: str, player: int
) -> None:
    hands = ("5H 6H 7H 8H 9H", "KD QS JC TS 2S") if player == 1 else ("KD QS JC TS 2S", "5H 6H 7H 8H 9H")
    stocks = ("3S 4S", "") if player == 1 else ("", "3S 4S")
    h = harness(layout, speed_setup(*hands, *stocks))
    scene = play_scene(h)
    table = scene.view
    game: Any = scene.match.game
    pile, hand = table.layout.spit_piles[0], table.layout.seat(player).stock[0]
    h.press(player, "pile1")
    h.frame()
    h.press(player, "left" if game.table.spit_pile_for(player, "left") == 0 else "right")  # 5H onto 4C
    assert game.spit_piles[0] == ["4C", "5H"] and game.player(player).hand[0] == "3S"  # the core: at once
    under = "4C"

    def at(rect: pygame.Rect) -> list[pygame.Surface]:
        return [image for image, x, y in h.canvas().items if (x, y) == rect.topleft]

    first = h.frame()
    top, bottom = band(first)
    hand_rows = hand.union(hand.move(0, table.layout.seat(player).stack_step * 3)).inflate(0, 2 * hand.h // 5)
    assert hand_rows.top <= top and bottom <= hand_rows.bottom, "the press's frame changes the hand's row only"
    assert table.art.face(under) in at(pile)  # the pile still shows what the card will cover
    assert table.art.face("3S", player == 2 and layout == "tabletop") in at(hand)  # the hand refilled at once
    heights = heights_until_landed(h, lambda: table.art.face("5H") in at(pile), 20)
    assert 5 <= len(heights) <= 8  # about 120 ms at 60 frames a second
    assert max(heights) <= table.layout.card_h + abs(pile.y - hand.y) // 6, heights  # even steps, none big
    assert max(heights) < 0.3 * SIZE[1]


def test_a_stuck_seat_is_told_to_wait_and_a_stalemate_to_call() -> None:
    h = harness("tabletop", speed_setup("5H 6H 7H 8H 9H", "KD KS KC QS JS", tops=("4C", "4D")))
    scene = play_scene(h)
    assert own(scene.captions(), 2, "prompt") == ["nothing of yours fits: watch for a card"]
    assert own(scene.captions(), 1, "prompt") == []
    stuck = harness("desktop", speed_setup("5H 6H 7H 8H 9H", "KD KS KC QS JS", tops=("2C", "2D"), phase="stalemate"))
    assert shown_to(play_scene(stuck).captions(), 1)[0] == "Nobody can play: press SPIT!"


def test_a_seat_idle_a_while_with_a_place_to_draw_into_is_shown_the_draw_never_a_play() -> None:
    from appliance.display.hints import HINT_AFTER_S
    from appliance.display.keys import key_label

    # Player 1 has an empty place and a stock to draw from, and a 5H that fits the 4C (never told).
    h = harness("desktop", speed_setup("5H KH - KS QS", "KD QD JC TS 2S", stock1="3H 7S", stock2="8D 8C"))
    scene = play_scene(h)
    h.advance(HINT_AFTER_S - 0.5)
    assert own(scene.captions(), 1, "prompt") == []
    h.advance(0.6)
    key = key_label(h.ctx.keymap, 1, "pile3")
    assert own(scene.captions(), 1, "prompt") == [f"Draw a card: press {key}"]
    assert own(scene.captions(), 2, "prompt") == []  # player 2 can only play: never told
    h.press(1, "pile3")
    h.frame()
    assert own(scene.captions(), 1, "prompt") == []


def test_the_legend_says_what_each_key_does_in_speed() -> None:
    h = harness("tabletop")
    scene = play_scene(h)
    legend = speed_legend(h.ctx.keymap, 1, "tabletop")
    assert legend[0].startswith("hand ") and len(legend[0].split()) == 6
    assert [line.split()[:2] for line in legend[1:3]] == [["play", "left"], ["play", "right"]]
    assert legend[3].startswith("SPIT! ") and legend[3].endswith("when stuck")
    scene.background()
    assert {d.seat for d in scene.view.legend_texts} == {1, 2}


# ------------------------------------------------------------------ between deals and game over


def test_a_deal_played_out_shows_the_points_and_the_scores_then_goes_on() -> None:
    h = harness("tabletop", speed_setup("5H - - - -", "KD QS JC TS 2S", stock2="3S 4S", scores=(10, 4)))
    scene = play_scene(h)
    h.press(1, "pile1")
    h.press(1, "left")
    h.frame()
    summary = h.scene
    assert isinstance(summary, RoundSummaryScene)
    words = shown_to(summary.captions(), 1)
    assert words[0] == "Deal 2"
    assert "Deal 1: Player 1 played out!" in words
    assert "Player 1 scores 7" in words
    assert words[-1] == "Score 17 – 4, first to 25"
    h.press(2, "spit")  # a press for the new deal ends the summary, and counts
    h.frame()
    assert isinstance(h.scene, PlayScene) and h.scene is not scene
    game: Any = h.scene.match.game
    assert game.player(2).called


def test_game_over_shows_every_deal_and_the_scores() -> None:
    h = harness("desktop", speed_setup("5H - - - -", "KD QS JC TS 2S", scores=(9, 4), target=10), bots={2: "3"})
    h.press(1, "pile1")
    h.press(1, "left")
    h.frame()
    over = h.scene
    assert isinstance(over, GameOverScene)
    words = shown_to(over.captions(), 1)
    assert words[0] == "Player 1 wins!"
    assert "score 14" in words and "Deal 1: player 1 +5" in words
    assert shown_to(over.captions(), 2)[:3] == ["Player 1 wins!", "The computer", "score 4"]
    # SPIT! is a rematch: Speed again, to the same target, against the computer at the same level
    assert "SPIT: a rematch, the same game and players" in words and "START: the title" in words
    h.advance(1.6)
    h.press(1, "spit")
    h.frame()
    again = h.scene
    assert isinstance(again, PlayScene) and again.match is not over.match
    assert again.match.variant == "speed" and set(again.match.bots) == {2} and again.match.levels == {2: "3"}
    game: Any = again.match.game
    assert game.options.target == 10 and (game.player(1).score, game.player(2).score) == (0, 0)


def test_deals_and_summary_lines_from_events() -> None:
    events = [RoundOver(1.0, 1, "played_out", 2), Score(1.0, 2, 6, 6), Deal(1.0, 2, []),
              RoundOver(5.0, 2, "blocked", None), Deal(5.0, 3, [])]
    assert deals_of(events) == [(1, 2, 6), (2, None, 0)]
    assert deal_lines(events[:2], frozenset({2})) == [
        ("Deal 1: The computer played out!", 2), ("Player 2 scores 6", 2)]
    assert deal_lines(events[3:4]) == [("Deal 2: nobody can ever play, dealt again", None)]


# ------------------------------------------------------------------ every text fits


def to_ready(h: Harness) -> None:
    h.frame()


def to_playing(h: Harness) -> None:
    h.press(1, "spit")
    h.press(2, "spit")
    h.frame()
    h.press(1, "left")  # a reject: "pick a card from your hand first"
    h.frame()


def to_summary(h: Harness) -> None:
    h.press(1, "pile1")
    h.press(1, "left")
    h.frame()


SCENES: dict[str, tuple[type, Callable[[], Any], Callable[[Harness], None]]] = {
    "ready": (PlayScene, lambda: None, to_ready),
    "playing": (PlayScene, lambda: None, to_playing),
    "stalemate": (PlayScene, lambda: speed_setup("5H 6H 7H 8H 9H", "KD KS KC QS JS", tops=("2C", "2D"),
                                                       phase="stalemate"), to_ready),
    "summary": (RoundSummaryScene, lambda: speed_setup("5H - - - -", "KD QS JC TS 2S", stock2="3S"), to_summary),
    "over": (GameOverScene, lambda: speed_setup("5H - - - -", "KD QS JC TS 2S", scores=(24, 12)), to_summary),
}


def card_areas(table: SpeedTable) -> list[pygame.Rect]:
    lay = table.layout
    rects = [r.inflate(8, 8) for r in (*lay.spit_piles, *table.side_stacks)]
    for seat in lay.seats.values():
        for rect in (*seat.stock, seat.spit_cards):
            rects.append(rect.union(rect.move(0, seat.stack_step * 4)))
    return rects


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
@pytest.mark.parametrize("name", list(SCENES))
def test_every_speed_text_fits_faces_its_seat_and_covers_nothing(name: str, layout: str, language: str) -> None:
    set_language(language)
    cls, setup, go = SCENES[name]
    h = harness(layout, setup())
    go(h)
    scene = h.scene
    assert isinstance(scene, cls)
    assert isinstance(scene, (PlayScene, RoundSummaryScene, GameOverScene))
    table = scene.view
    canvas = h.canvas()
    texts: list[Drawn] = [d for d in canvas.texts if not hidden(canvas, d.rect, d.layer) and d.place != "count"]
    assert texts
    if name == "playing":
        assert any(d.place == "reject" for d in texts)
    for d in texts:
        assert d.box.contains(d.rect), (d.words, d.rect, d.box)
        assert d.scale >= 0.5, (d.words, d.scale)
        assert d.px >= (17 if d.place in (*IN_PLAY, "legend") else 14), (d.words, d.px)
        if layout == "tabletop":
            assert d.angle == (180 if d.seat == 2 else 0), d.words
        else:
            assert d.angle == 0
    for i, d in enumerate(texts):
        for other in texts[i + 1:]:
            assert not d.rect.colliderect(other.rect), (d.words, other.words)
    cards = card_areas(table)
    for d in texts:
        if d.place in (*IN_PLAY, "info", "legend"):
            assert d.rect.collidelist(cards) == -1, (d.words, d.rect)


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_speed_text_is_translated(language: str) -> None:
    import re
    from pathlib import Path

    from appliance.display.i18n import LOCALE_DIR, read_po

    catalogue = read_po(LOCALE_DIR / language / "LC_MESSAGES" / "spit_arcade.po")
    root = Path(__file__).parent.parent / "appliance" / "display"
    found: set[str] = set()
    for path in [root / "speed_view.py", *(root / "scenes").glob("speed_*.py")]:
        found |= set(re.findall(r'_\(\s*"((?:[^"\\]|\\.)*)"\s*\)', path.read_text(encoding="utf-8")))
    assert len(found) > 20
    assert sorted(m for m in found if not catalogue.get(m)) == []


def test_how_to_play_speed_says_the_hands_lie_open() -> None:
    from appliance.display.speed_view import speed_how_to_play

    lines = speed_how_to_play(40)
    assert any("open" in line and "computer" in line for line in lines)
    assert lines[-1].endswith("first to 40 wins.")


def test_a_speed_journal_is_shown_on_speeds_table_to_the_recorded_end(tmp_path: Any) -> None:
    from appliance.bots.simulate import play_game
    from appliance.display.replay_show import ReplayScene
    from appliance.scripting import parse_script

    result = play_game(("5", "3"), 4, journal_dir=tmp_path, variant="speed", options={"target": 5})
    (path,) = tmp_path.iterdir()
    script = parse_script(path.read_text(encoding="utf-8").splitlines())
    h = Harness(SIZE, "tabletop", scene=lambda ctx: ReplayScene(ctx, script, speed=200.0, hold_s=None))
    scene = h.scene
    assert isinstance(scene, ReplayScene) and isinstance(scene.view, SpeedTable)
    for _ in range(2000):
        if scene.ended_ns is not None:
            break
        h.frame()
    assert scene.matches() is True and scene.game.winner == result.winner
    assert "Computer won" in shown_to(scene.captions(), 1)  # the journal says the computer played both seats
