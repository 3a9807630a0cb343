"""The ghost card (V14) and "Spit card, please" (V13) on screen, as data per seat.

Games start from the seed scenarios' positions (seeds/scenarios/) or explicit ones (tests/positions.py)
and are played through the screen's harness. What each seat is told is read from `scene.captions()`
(owner seat, place, words, size), where and which way up it was drawn from `Canvas.texts`, and the
cards drawn from the canvas's display list: never pixels. Words in German and Esperanto are checked
against the catalogues themselves.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest
from headless import Harness, to_ready
from positions import lent_of, position, race_of
from screen_facts import hidden, problems

from appliance.display.captions import Caption, shown_to
from appliance.display.duel_view import URGENT_SIZE, GhostAndDuel, lent_words
from appliance.display.game_length import LIMITS
from appliance.display.i18n import LANGUAGES, LOCALE_DIR, read_po, set_language
from appliance.display.rules_words import (
    MENU_VALUES,
    choice_of,
    in_force,
    menu_options,
    menu_value,
    rules_help,
)
from appliance.display.scenes.base import MenuKey, make
from appliance.display.scenes.game_menu import GameMenuScene
from appliance.display.scenes.play import PlayScene
from appliance.display.table_view import verdict_lines
from appliance.match import Match
from appliance.rules import OPTIONS, PRESETS, Game, OptionError, Options, game_from_state, read_options
from appliance.rules.ghost_card import GhostCard
from appliance.rules.house_rule import Verdict
from appliance.rules.ruleset import compose
from appliance.rules.spit_card_please import SpitCardPlease

SIZE = (1280, 720)
SCENARIOS = Path(__file__).parent.parent / "seeds" / "scenarios"
LAYOUTS = ("tabletop", "desktop")
MS = 1_000_000


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    set_language("en")


def said(language: str, message: str, **fields: Any) -> str:
    """`message` as the catalogue of `language` says it (English: as written), filled in."""
    if language != "en":
        message = read_po(LOCALE_DIR / language / "LC_MESSAGES" / "spit_arcade.po")[message]
    return message.format(**fields)


def only(captions: list[Caption], place: str) -> list[Caption]:
    return [c for c in captions if c.place == place]


def prompts(scene: PlayScene) -> dict[int, list[tuple[str, float]]]:
    """Each seat's prompt: (words, size), from the captions the seat owns in its prompt place."""
    out: dict[int, list[tuple[str, float]]] = {}
    for c in only(scene.captions(), "prompt"):
        assert c.seat is not None  # a prompt is always one seat's own
        out.setdefault(c.seat, []).extend((line.words, line.size) for line in c.lines)
    return out


def play_scene(h: Harness, game: Game) -> PlayScene:
    match = Match(7, h.now_ns, None, {}, game=game)
    h.runner.apply_scene(make("play", h.ctx, match))
    h.frame()
    scene = h.scene
    assert isinstance(scene, PlayScene)
    return scene


def scenario(h: Harness, name: str) -> PlayScene:
    """The play scene at the start of a seed scenario (its setup line's position)."""
    setup = json.loads((SCENARIOS / f"{name}.jsonl").read_text().splitlines()[0])["setup"]
    return play_scene(h, game_from_state(setup["state"], seed=setup["seed"], options=setup.get("options")))


def press(h: Harness, player: int, control: str, after_ms: float = 0) -> None:
    h.now_ns += int(after_ms * MS)
    h.press(player, control)
    h.frame()


def lent(h: Harness) -> PlayScene:
    """'Spit card, please': player 1, short, holds player 2's lent KD, one stock card from playing out."""
    scene = scenario(h, "spit-card-please-slapped-in-time")
    assert lent_of(scene.match.spit) == (1, 2, "KD", None)
    return scene


def played_out(h: Harness) -> PlayScene:
    """Player 1 plays out: the lent card is slapped for."""
    scene = lent(h)
    press(h, 1, "pile1")
    press(h, 1, "right")
    please = lent_of(scene.match.spit)
    assert please is not None and please[3] is not None and h.scene is scene
    return scene


def ghost_by_player_1(h: Harness, p1_spit: str = "") -> PlayScene:
    """A ghost card (laid by player 2) beside player 1, who is one card from playing out."""
    state = position(["5H", "", "", "", ""], ["9C", "QD", "KD", "", ""], spit=("4C", "JD TC"), p1_spit=p1_spit,
                     p2_spit="6D 7D", options={"ghost_card": True})
    state["ghost"] = {"card": "3C", "beside": 1, "giver": 2, "race": None}
    state["spit_piles"][0].remove("3C")
    return play_scene(h, game_from_state(state))


def race(h: Harness) -> PlayScene:
    scene = ghost_by_player_1(h)
    press(h, 1, "pile1")
    press(h, 1, "left")
    assert race_of(scene.match.spit) is not None
    return scene


def happened(scene: PlayScene, what: str) -> list[dict[str, Any]]:
    """The match's events of one kind, as the script format writes them."""
    return [e.to_json() for e in scene.match.events if e.kind == what]


def verdict(scene: PlayScene) -> list[Caption]:
    return only(scene.captions(), "centre")


# ------------------------------------------------------------------ Spit card, please (V13)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_lent_card_lies_face_down_by_its_borrower_and_each_seat_is_told_what_it_is_for(
    layout: str, language: str
) -> None:
    set_language(language)
    h = Harness(SIZE, layout)
    scene = lent(h)
    assert prompts(scene) == {
        1: [(said(language, "play out, then SLAP the lent spit card first to win"), 0.13)],
        2: [(said(language, "when player {n} plays out, SLAP the lent card first", n=1), 0.13)],
    }
    canvas = h.canvas()
    (label,) = [d for d in canvas.texts if d.place == "ghost"]
    seat = scene.view.layout.seat(1)
    assert (label.seat, label.words, label.angle) == (1, (said(language, "LENT"),), seat.angle)
    assert seat.spit_cards.contains(label.rect)
    back = scene.view.card_image("back", seat)
    assert any(image is back and (x, y) == seat.spit_cards.topleft for image, x, y in canvas.items)
    assert not any(image is scene.view.art.face("KD") for image, _, _ in canvas.items)  # never shown
    assert verdict(scene) == []


def test_a_card_lent_at_a_new_layout_is_told_to_everybody_and_the_summary_follows() -> None:
    h = Harness(SIZE, "tabletop")
    scene = scenario(h, "spit-card-please-the-short-player-borrows-one")
    press(h, 1, "pile1")
    press(h, 1, "right")
    assert happened(scene, "spit_card_lent") == [{"t": pytest.approx(0.0, abs=1), "event": "spit_card_lent",
                                                  "player": 1, "giver": 2}]
    race_place = only(scene.captions(), "race")
    assert shown_to(race_place, 1) == shown_to(race_place, 2) == ["Player 1 borrows a spit card from player 2"]
    h.advance(0.5)
    assert type(h.scene).__name__ == "RoundSummaryScene"  # nothing is decided at the deal


@pytest.mark.parametrize("layout", LAYOUTS)
def test_once_the_borrower_plays_out_the_card_is_lit_and_both_are_told_to_slap_now(layout: str) -> None:
    h = Harness(SIZE, layout)
    scene = played_out(h)
    assert prompts(scene) == {1: [("SLAP IT NOW!", URGENT_SIZE)], 2: [("SLAP it before player 1!", URGENT_SIZE)]}
    seat = scene.view.layout.seat(1)
    glow = scene.view.card_image("select", seat)
    assert any(image is glow for image, _, _ in h.canvas().items)
    (now,) = [d for d in h.canvas().texts if d.place == "prompt" and d.seat == 1]
    assert now.words == ("SLAP IT NOW!",) and now.scale == 1.0 and now.px >= 0.2 * scene.view.layout.text_h - 1
    press(h, 2, "left")
    said = shown_to(only(scene.captions(), "reject"), 2)
    assert said[-1] == "the lent spit card first: SLAP it" and said[:-1] in ([], ["Player 2"])  # desktop: its owner
    h.advance(1.0)
    assert h.scene is scene  # the scene waits while the card is slapped for


@pytest.mark.parametrize("language", LANGUAGES)
def test_slapped_in_time_the_verdict_is_big_for_everybody_then_the_game_is_over(language: str) -> None:
    set_language(language)
    h = Harness(SIZE, "tabletop")
    scene = played_out(h)
    press(h, 1, "slap", after_ms=300)
    (won,) = happened(scene, "spit_card_won")
    (shown,) = verdict(scene)
    who = said(language, "Player {n}", n=1)
    head = [said(language, "{who} slapped the spit card in {ms} ms!", who=who, ms=f"{won['by_ms']:.0f}"),
            said(language, "{who} wins the game!", who=who)]
    assert shown.seat is None and shown.lines[0].size > 0.2 and shown_to([shown], 2) == head
    assert prompts(scene) == {}
    h.advance(2.0)
    assert h.scene is scene  # the verdict is shown out before the game over
    h.advance(1.0)
    assert type(h.scene).__name__ == "GameOverScene"


def test_the_lender_first_the_borrower_takes_the_whole_spit_pile_and_the_summary_follows() -> None:
    h = Harness(SIZE, "desktop")
    scene = played_out(h)
    press(h, 2, "slap", after_ms=150)
    (lost,) = happened(scene, "spit_card_lost")
    assert lost["slapper"] == 2 and lost["cards"] == 47
    assert shown_to(verdict(scene), 1) == [
        f"Player 2 slapped it first: {lost['by_ms']:.0f} ms", "Player 1 takes the spit pile: 47 cards"]
    assert verdict(scene)[0].lines[0].colour == (255, 90, 90)
    press(h, 1, "slap", after_ms=40)  # the borrower, late: told by how much, never "not now"
    late = (scene.match.events[-1].t - lost["t"]) * 1000
    assert late > 0 and shown_to(verdict(scene), 2)[-1] == f"Player 1 was {late:.0f} ms late"
    assert only(scene.captions(), "reject") == []
    h.advance(3.5)
    assert type(h.scene).__name__ == "RoundSummaryScene"


def test_nobody_in_time_is_too_slow() -> None:
    h = Harness(SIZE, "tabletop")
    scene = played_out(h)
    h.advance(2.1)
    (lost,) = happened(scene, "spit_card_lost")
    assert "slapper" not in lost
    assert shown_to(verdict(scene), 2) == ["Too slow!", "no slap within 2000 ms",
                                           "Player 1 takes the spit pile: 47 cards"]


# ------------------------------------------------------------------ the ghost card (V14)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_ghost_card_lies_by_its_player_face_down_labelled_facing_them(layout: str) -> None:
    h = Harness(SIZE, layout)
    scene = ghost_by_player_1(h)
    words = "a ghost card is out: play out, then SLAP it first to win"
    assert prompts(scene) == {1: [(words, 0.13)], 2: [(words, 0.13)]}
    canvas = h.canvas()
    (label,) = [d for d in canvas.texts if d.place == "ghost"]
    seat = scene.view.layout.seat(1)
    assert (label.seat, label.words, label.angle) == (1, ("GHOST",), seat.angle)
    assert seat.spit_cards.contains(label.rect)
    assert any((x, y) == seat.spit_cards.topleft and image.get_alpha() == 150 for image, x, y in canvas.items)
    assert not any(image is scene.view.art.face("3C") for image, _, _ in canvas.items)  # never shown


def test_a_ghost_card_laid_is_told_to_everybody() -> None:
    h = Harness(SIZE, "tabletop")
    state = position(["9C", "QD", "KD", "", ""], ["JS", "2D", "", "", ""], spit=("4C", "6D"), p1_spit="7H",
                     p2_spit="8S 3C", phase="stalemate", options={"ghost_card": True})
    scene = play_scene(h, game_from_state(state))
    press(h, 1, "spit")
    press(h, 2, "spit")
    race_place = only(scene.captions(), "race")
    assert [c.seat for c in race_place] == [None]
    assert shown_to(race_place, 1) == shown_to(race_place, 2) == ["Player 2 lays a ghost card by player 1"]
    assert [d.seat for d in h.canvas().texts if d.place == "ghost"] == [1]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_in_the_race_each_seat_is_told_what_its_slap_does(layout: str, language: str) -> None:
    set_language(language)
    h = Harness(SIZE, layout)
    scene = race(h)
    assert prompts(scene) == {
        1: [(said(language, "SLAP the GHOST first to win!"), URGENT_SIZE)],  # played out: a win
        2: [(said(language, "SLAP it before player {n}!", n=1), URGENT_SIZE)],
    }
    seat = scene.view.layout.seat(1)
    glow = scene.view.card_image("select", seat)
    assert any(image is glow for image, _, _ in h.canvas().items)  # the ghost card is lit while raced for
    press(h, 2, "left")
    owner = [said(language, "Player {n}", n=2)] if layout == "desktop" else []  # nothing turned: whose it is
    first = said(language, "the ghost card first: SLAP to take it")
    assert shown_to(only(scene.captions(), "reject"), 2) == [*owner, first]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_other_hand_first_keeps_the_ghost_card_and_the_late_one_is_told_by_how_much(language: str) -> None:
    set_language(language)
    h = Harness(SIZE, "tabletop")
    scene = race(h)
    press(h, 2, "slap", after_ms=200)
    (taken,) = happened(scene, "ghost_taken")
    (shown,) = verdict(scene)
    head = [said(language, "{who} takes the ghost card!", who=said(language, "Player {n}", n=2)),
            said(language, "{ms} ms after player {out} played out", ms=f"{taken['by_ms']:.0f}", out=1)]
    assert shown_to([shown], 1) == head
    press(h, 1, "slap", after_ms=10)
    late = (scene.match.events[-1].t - taken["t"]) * 1000
    late_words = said(language, "{who} was {ms} ms late", who=said(language, "Player {n}", n=1), ms=f"{late:.0f}")
    assert shown_to(verdict(scene), 2) == [*head, late_words]
    assert only(scene.captions(), "reject") == []  # the late slap is told as late, not "not now"
    assert scene.match.spit.phase == "choosing" and h.scene is scene


def test_the_player_who_played_out_takes_it_and_wins_after_the_verdict() -> None:
    h = Harness(SIZE, "desktop")
    scene = race(h)
    press(h, 1, "slap", after_ms=120)
    (taken,) = happened(scene, "ghost_taken")
    assert shown_to(verdict(scene), 1) == ["Player 1 wins with the ghost card!",
                                           f"took it {taken['by_ms']:.0f} ms after playing out"]
    h.advance(2.0)
    assert h.scene is scene
    h.advance(1.0)
    assert type(h.scene).__name__ == "GameOverScene"


def test_nobody_in_time_the_ghost_card_goes_back() -> None:
    h = Harness(SIZE, "tabletop")
    scene = race(h)
    h.advance(1.2)
    assert shown_to(verdict(scene), 2) == ["Nobody took the ghost card", "it goes back to player 2"]


def test_the_slap_key_is_in_the_legend_of_a_game_slapped_in() -> None:
    h = Harness(SIZE, "tabletop")
    scene = ghost_by_player_1(h)
    h.runner.apply_scene(make("countdown", h.ctx, scene.match))
    h.frame()
    legends = {d.seat: d.words for d in h.scene.view.legend_texts}  # type: ignore[attr-defined]
    assert "slap the ghost X" in legends[1] and "slap the ghost ,\u00a0(comma)" in " ".join(legends[2])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("house_rules", "slaps"), [
    ({"ghost_card": True}, "slap the ghost {key}"),
    ({"spit_card_please": True}, "slap the card {key}"),
])
def test_the_legends_name_what_the_slap_key_slaps_not_the_table(
    house_rules: dict[str, Any], slaps: str, language: str
) -> None:
    """On the title (the chosen game's keys) and at the table: the slap key is named for the card it
    slaps, never "slap the table" (Mod Spit's), in each seat's language."""
    set_language(language)
    h = Harness(SIZE, "tabletop")
    h.settings.house_rules = dict(house_rules)
    keys = {1: "X", 2: ","}
    for player, key in keys.items():
        title = " ".join(shown_to(h.scene.captions(), player))
        assert said(language, slaps, key=key) in title, (player, title)
        assert said(language, "slap the table {key}", key=key) not in title
    to_ready(h)
    scene = h.scene
    assert isinstance(scene, PlayScene) and scene.match.spit.rules.options.ghost_card == ("ghost_card" in house_rules)
    for d in scene.view.legend_texts:
        assert d.seat is not None
        legend = " ".join(d.words)
        assert said(language, slaps, key=keys[d.seat]) in legend, (d.seat, legend)
        assert said(language, "slap the table {key}", key=keys[d.seat]) not in legend
    assert {d.seat for d in scene.view.legend_texts} == {1, 2}


# ------------------------------------------------------------------ every text fits, in every language


def _moments(h: Harness) -> Iterator[str]:
    """Drive a harness through every moment of both rules, yielding each one's name."""
    lent(h)
    yield "lent"
    played_out(h)
    yield "turned"
    h.advance(2.1)
    yield "too slow"
    played_out(h)
    press(h, 2, "slap", after_ms=200)
    press(h, 1, "slap", after_ms=10)
    yield "lender first"
    played_out(h)
    press(h, 1, "slap", after_ms=200)
    yield "caught"
    ghost_by_player_1(h)
    yield "ghost on the table"
    race(h)
    yield "race"
    press(h, 2, "slap", after_ms=200)
    press(h, 1, "slap", after_ms=10)
    yield "ghost taken"
    race(h)
    press(h, 1, "slap", after_ms=200)
    yield "ghost won"
    race(h)
    h.advance(1.2)
    yield "nobody"


def card_areas(scene: PlayScene) -> list[pygame.Rect]:
    lay = scene.view.layout
    rects = [pygame.Rect(r).inflate(8, 8) for r in lay.spit_piles]
    for seat in lay.seats.values():
        for rect in (*seat.stock, seat.spit_cards):
            rects.append(rect.union(rect.move(seat.stack_dx * 4, seat.stack_step * 4)))
    return rects


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_text_fits_its_box_faces_its_seat_and_covers_no_other(layout: str, language: str) -> None:
    set_language(language)
    h = Harness(SIZE, layout)
    seen = []
    for moment in _moments(h):
        scene = h.scene
        assert isinstance(scene, PlayScene), moment
        seen.append(moment)
        lay = scene.view.layout
        canvas = h.canvas()
        assert problems(canvas) == [], moment
        texts = [d for d in canvas.texts if not hidden(canvas, d.rect, d.layer) and d.place != "count"]
        assert any(d.place in ("centre", "prompt", "ghost") for d in texts), moment
        for d in texts:
            assert d.box.contains(d.rect), (moment, d.words, d.rect, d.box)
            assert d.scale >= 0.5, (moment, d.words, d.scale)
            assert d.px >= (17 if d.place in ("prompt", "reject", "race") else 14), (moment, d.words, d.px)
            if layout == "tabletop":
                assert d.seat in lay.seats and d.angle == lay.seat(d.seat).angle, (moment, d.words)
            else:
                assert d.angle == 0
        for i, d in enumerate(texts):
            for other in texts[i + 1:]:
                if d.place != "ghost" and other.place != "ghost":  # the ghost's word is on its card
                    assert not d.rect.colliderect(other.rect), (moment, d.words, other.words)
        for d in texts:
            if d.place in ("prompt", "reject", "race"):
                assert d.rect.collidelist(card_areas(scene)) == -1, (moment, d.words)
        if moment in ("turned", "race"):  # what must be read in a blink is never shrunk or broken
            urgent = [d for d in texts if d.place == "prompt" and d.px >= URGENT_SIZE * lay.text_h - 1]
            assert urgent and all(d.scale == 1.0 and len(d.words) == 1 for d in urgent), moment
    assert len(seen) == 10


# ------------------------------------------------------------------ three and four seats


def round_table(h: Harness, seats: int) -> PlayScene:
    """A table of `seats` with both rules in force. The core plays them at two seats only, so the
    rules are composed here by hand: what is checked is that the screen needs nothing of two seats."""
    options = replace(Options(), seats=seats, stock_piles=(1, 2, 3), runners=(1,) * seats, ghost_card=True,
                      spit_card_please=True)
    game, events = Game.new(seed=3, rules=compose("classic", options))
    match = Match(7, h.now_ns, None, {}, game=game, events=events)
    h.runner.apply_scene(make("play", h.ctx, match))
    h.frame()
    scene = h.scene
    assert isinstance(scene, PlayScene) and len(scene.view.layout.seats) == seats
    return scene


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("seats", [3, 4])
def test_at_a_round_table_each_text_is_its_seats_and_the_card_clear_of_the_piles(
    seats: int, layout: str, language: str
) -> None:
    set_language(language)
    h = Harness(SIZE, layout)
    scene = round_table(h, seats)
    game = scene.match.spit
    lender, short = 3, 2
    card = game.player(lender).spit_cards.pop(0)
    please, ghost_rule = game.house_rule(SpitCardPlease), game.house_rule(GhostCard)
    assert please is not None and ghost_rule is not None
    please.player, please.giver, please.card = short, lender, card  # (the rules' own state, set by hand)
    game.phase = "playing"
    assert prompts(scene)[lender] == [(said(language, "when player {n} plays out, SLAP the lent card first",
                                            n=short), 0.13)]
    assert prompts(scene)[short] == [(said(language, "play out, then SLAP the lent spit card first to win"), 0.13)]
    please.since = 0.2
    assert prompts(scene)[short] == [(said(language, "SLAP IT NOW!"), 0.13)]  # the side strips are narrow
    ghost_rule.card, ghost_rule.beside, ghost_rule.giver = game.player(1).spit_cards.pop(0), seats, 1  # at the side
    assert isinstance(scene.duel, GhostAndDuel)
    spot = scene.duel.lent_rect(short)
    assert spot.collidelist([pygame.Rect(r) for r in scene.view.layout.spit_piles]) == -1
    texts = h.canvas().texts
    labels = {d.seat: d for d in texts if d.place == "ghost"}
    side = scene.view.layout.seat(seats)
    assert set(labels) == {short, seats}
    label = labels[seats]
    assert label.angle == side.angle and side.spit_cards.contains(label.rect)
    for d in texts:
        assert d.box.contains(d.rect) and d.scale >= 0.5, (d.words, d.scale)
        if layout == "tabletop":
            assert d.angle == scene.view.layout.seat(d.seat).angle
    # a verdict for everybody: through the table's own verdict, a copy facing each seat
    # (the rule decides it and says its verdict: the screen says it in words)
    won = game.press(0.5, short, "slap")
    assert won[0].kind == "spit_card_won"
    scene.match.events.extend(won)
    scene._take_events()
    (shown,) = verdict(scene)
    assert shown.seat is None
    who = said(language, "Player {n}", n=short)
    assert shown_to([shown], 1) == [said(language, "{who} slapped the spit card in {ms} ms!", who=who, ms="300"),
                                    said(language, "{who} wins the game!", who=who)]
    drawn = [d for d in h.canvas().texts if d.place == "centre"]
    assert len(drawn) == (seats if layout == "tabletop" else 1)
    for d in drawn:
        assert d.box.contains(d.rect) and d.scale >= 0.5


# ------------------------------------------------------------------ the game menu


def test_the_menu_offers_both_rules_at_two_seats_and_never_beside_a_table_slap() -> None:
    for name in ("ghost_card", "spit_card_please"):
        assert name in menu_options("classic", 2)
        assert name not in menu_options("classic", 3) and name not in menu_options("classic", 4)
        assert name not in menu_options("mod-spit", 2, choice_of("mod-spit", {}).options)
        assert name not in menu_options("classic", 2, choice_of("classic", {"table_slap": "mod7"}).options)
        assert "table_slap" not in menu_options("classic", 2, choice_of("classic", {name: True}).options)
        assert name not in menu_options("speed")
    assert "runners" not in menu_options("classic", 2, choice_of("classic", {}).options)
    assert {"carry", "runners"} <= set(menu_options("running", 2, choice_of("running", {}).options))
    # every option of `spit-arcade variants` that a game of each preset can change is offered, bar the layout
    for preset, spec in PRESETS.items():
        offered = set(menu_options(preset, 2))
        wanted = {name for name, option in OPTIONS.items() if spec.game in option.games} - {"stock_piles"}
        wanted -= set(LIMITS)  # (a game's length is the operator's: the service menu's, display/game_length.py)
        assert offered == wanted, preset
    # a remembered combination the core refuses is never played
    assert choice_of("classic", {"table_slap": "mod7", "ghost_card": True}).given == {"table_slap": "mod7"}
    assert choice_of("mod-spit", {"spit_card_please": True}).given == {}


def key(h: Harness, control: str) -> None:
    h.runner.send(MenuKey(0, control, True, h.now_ns))


def menu(h: Harness) -> GameMenuScene:
    h.runner.apply_scene(make("game_menu", h.ctx))
    scene = h.scene
    assert isinstance(scene, GameMenuScene)
    return scene


def test_turning_the_rules_on_in_the_menu_and_what_it_says_of_them() -> None:
    h = Harness(SIZE, "tabletop")
    scene = menu(h)
    scene.row = scene.rows().index("spit_card_please")
    key(h, "right")
    chosen = scene.choice
    assert chosen.options.spit_card_please
    words = shown_to(scene.captions(), 1)
    assert "▶  Spit card, please: on  ◀" in words
    assert in_force(chosen) == "Classic Spit · spit card, please"
    # each is a card the player who plays out slaps to win: one at a time, and never with a table slap
    assert "table_slap" not in scene.rows() and "ghost_card" not in scene.rows()
    assert rules_help(chosen) == [
        PRESETS["classic"].explain, OPTIONS["spit_card_please"].explain,
        "Spit card, please: play out, then SLAP the lent card within 2 s, before the lender does",
    ]
    set_language("de")
    assert in_force(chosen) == "Klassisches Spit · " + said("de", "spit card, please")
    set_language("eo")
    assert rules_help(chosen)[2] == said("eo", "Spit card, please: play out, then SLAP the lent card within {s} s, "
                                               "before the lender does", s=2)
    set_language("en")
    ghost = choice_of("classic", {"ghost_card": True})
    assert rules_help(ghost)[-1] == "Ghost card: when a player plays out, both SLAP; 1 s to take it"
    assert choice_of("classic", {"ghost_card": True, "spit_card_please": True}).given == {"ghost_card": True}


def test_runners_are_offered_as_a_number_a_team_and_follow_the_seats() -> None:
    h = Harness(SIZE, "tabletop")
    scene = menu(h)
    while scene.preset != "running":
        scene.row = 0
        key(h, "right")
    scene.row = scene.rows().index("runners")
    key(h, "right")
    assert scene.choice.options.runners == (2, 2) and scene.row_words("runners") == "Runners per team: 2"
    assert in_force(scene.choice) == "Running Spit · 2 runners a team"
    scene.row = scene.rows().index("seats")
    key(h, "right")
    assert scene.choice.options.seats == 3 and scene.choice.options.runners == (2, 2, 2)
    scene.row = scene.rows().index("carry")
    key(h, "right")  # no cards carried: no runners, and no runners row
    assert not scene.choice.options.carry and "runners" not in scene.rows()
    assert scene.choice.options.runners == (1, 1, 1)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_menu_never_makes_a_game_the_core_refuses(preset: str) -> None:
    """A seeded random walk through the menu's rows and values, from each preset: every choice it
    shows is played as shown and the core accepts it; no row offers a rule beside one it excludes."""
    h = Harness(SIZE, "desktop")
    scene = menu(h)
    while scene.preset != preset:
        scene.row = 0
        key(h, "right")
    rng = random.Random(preset)
    for _ in range(250):
        rows = scene.rows()
        scene.row = rng.randrange(1, len(rows)) if len(rows) > 1 else 0
        key(h, rng.choice(("left", "right")))
        chosen = scene.choice
        try:
            options = read_options(preset, chosen.given)
        except OptionError as error:  # pragma: no cover - the assertion says what
            pytest.fail(f"{preset} {chosen.given}: {error}")
        assert options == chosen.options
        rows = scene.rows()
        for name in rows[1:]:
            assert menu_value(options, name) in MENU_VALUES[name] or name == "runners", (name, chosen.given)
        shown = {"table_slap"} & set(rows), {"ghost_card", "spit_card_please"} & set(rows)
        assert not (shown[0] and shown[1] and options.table_slap is not None), rows
        if options.table_slap is not None:
            assert not (options.ghost_card or options.spit_card_please)
            assert not shown[1]
        if options.ghost_card or options.spit_card_please:
            assert not shown[0] and options.seats == 2
        assert ("runners" in rows) == (options.carry and PRESETS[preset].game == "spit")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lent_card_names_the_computer_where_it_plays_a_seat(language: str) -> None:
    """The lent card's words say "Computer" for a seat the computer plays, as every race does."""
    set_language(language)
    computer, player_1 = said(language, "Computer"), said(language, "Player {n}", n=1)
    assert lent_words(2, 1, {2}) == said(language, "{who} borrows a spit card from player {giver}",
                                         who=computer, giver=1)
    lost = verdict_lines(Verdict("lent_slapped_first", 2, 1, 120.0, 9), computer={2})
    assert lost == [said(language, "{who} slapped it first: {ms} ms", who=player_1, ms="120"),
                    said(language, "{who} takes the spit pile: {cards} cards", who=computer, cards=9)]
    won = verdict_lines(Verdict("lent_won", 1, ms=300.0, good=True), late=(2, 40.0), computer={2})
    assert won == [said(language, "{who} slapped the spit card in {ms} ms!", who=player_1, ms="300"),
                   said(language, "{who} wins the game!", who=player_1),
                   said(language, "{who} was {ms} ms late", who=computer, ms="40")]
