"""The table: a play changes the spit pile's pixels, player 2's side is really turned, feedback shows."""

from __future__ import annotations

import math
from typing import Any

import pygame
import pytest
from headless import Harness, headless_display, to_seats
from slides import band, heights_until_landed

from appliance.display.card_art import CardArt
from appliance.display.compositor import Canvas
from appliance.display.events import side_for
from appliance.display.keys import default_keymap
from appliance.display.layout import table_layout
from appliance.display.table_view import SLIDE_S, TableView
from appliance.rules import Game
from appliance.rules.events import Flip, Play, from_json

SIZE = (960, 540)
MS = 1_000_000


@pytest.fixture(scope="module", autouse=True)
def display() -> None:
    headless_display(SIZE)


def view_for(mode: str, assist: bool = False, computer: frozenset[int] = frozenset()) -> TableView:
    lay = table_layout(SIZE, mode)
    keymap = default_keymap() if computer else {}
    return TableView(lay, CardArt(lay.card_w, lay.card_h), keymap, assist, computer=computer)


def render(view: TableView, game: Game, now_ns: int) -> pygame.Surface:
    canvas = Canvas(view.background())
    view.draw(canvas, game, now_ns)
    surface = pygame.Surface(SIZE)
    canvas.render(surface)
    return surface


def region(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(rect), "RGB")


def playing_game() -> tuple[Game, int, int, int]:
    """A game in play with a card player 1 can play: (game, pile number, spit pile)."""
    for seed in range(50):
        game, _ = Game.new(seed=seed)
        game.press(0.1, 1, "spit")
        game.press(0.2, 2, "spit")
        if game.phase != "playing":
            continue
        moves = [action for action in game.legal_actions(1) if action.kind == "play"]
        if moves:
            return game, seed, moves[0].pile, moves[0].target
    raise AssertionError("no seed gives a playable card")


def test_a_play_changes_the_pixels_where_the_spit_pile_is_drawn() -> None:
    game, _, pile, spit_pile = playing_game()
    view = view_for("tabletop")
    rect = view.layout.spit_piles[spit_pile]
    before = render(view, game, 0)
    game.press(1.0, 1, f"pile{pile}")
    events = game.press(1.01, 1, side_for(1, spit_pile))
    assert isinstance(events[0], Play)
    view.notice(events, 10 * MS, game)
    assert view.busy(20 * MS)
    sliding = render(view, game, 10 * MS)
    landed = render(view, game, 10 * MS + int(SLIDE_S * 1e9) + MS)
    assert region(landed, rect) != region(before, rect)
    assert region(landed, rect) == region(render_card(view, events[0].card), pygame.Rect(0, 0, *rect.size))
    # it slides for no more than 120 ms
    assert not view.busy(130 * MS)
    assert region(sliding, rect) != region(landed, rect)


def render_card(view: TableView, card: str) -> pygame.Surface:
    surface = pygame.Surface(view.art.size)
    surface.blit(view.background(), (0, 0), view.layout.spit_piles[0])
    surface.blit(view.art.face(card), (0, 0))
    return surface


@pytest.mark.parametrize("mode", ["tabletop", "desktop"])
def test_player_2s_cards_are_turned_only_in_the_tabletop_layout(mode: str) -> None:
    game, _ = Game.new(seed=3)
    view = view_for(mode)
    shot = render(view, game, 0)
    seat = view.layout.seat(2)
    card = game.player(2).stock[0].top
    assert card is not None
    upright = view.art.face(card)
    turned = pygame.transform.rotate(upright, 180)
    expected = turned if mode == "tabletop" else upright
    drawn = pygame.Surface(view.art.size)
    drawn.blit(shot, (0, 0), seat.stock[0])
    clean = pygame.Surface(view.art.size)
    clean.blit(view.background(), (0, 0), seat.stock[0])
    clean.blit(expected, (0, 0))
    assert pygame.image.tobytes(drawn, "RGB") == pygame.image.tobytes(clean, "RGB")
    # player 1's card is upright in both layouts
    p1 = pygame.Surface(view.art.size)
    p1.blit(shot, (0, 0), view.layout.seat(1).stock[0])
    clean1 = pygame.Surface(view.art.size)
    clean1.blit(view.background(), (0, 0), view.layout.seat(1).stock[0])
    clean1.blit(view.art.face(game.player(1).stock[0].top or ""), (0, 0))
    assert pygame.image.tobytes(p1, "RGB") == pygame.image.tobytes(clean1, "RGB")


def test_the_selected_pile_is_lit_and_assist_lights_playable_cards() -> None:
    game, _, pile, _ = playing_game()
    plain = view_for("desktop")
    rect = plain.layout.seat(1).stock[pile - 1].inflate(20, 20)
    before = render(plain, game, 0)
    assisted = render(view_for("desktop", assist=True), game, 0)
    assert region(assisted, rect) != region(before, rect)
    game.press(1.0, 1, f"pile{pile}")
    selected = render(plain, game, 0)
    assert region(selected, rect) != region(before, rect)
    yellow = sum(
        1
        for x in range(rect.left, rect.right, 2)
        for y in range(rect.top, rect.bottom, 2)
        if _yellowish(selected.get_at((x, y)))
    )
    assert yellow > 10


def test_a_reject_shakes_and_says_why_and_a_lost_race_says_by_how_much() -> None:
    game, _ = Game.new(seed=3)
    view = view_for("desktop")
    events = [
        {"t": 1.0, "event": "reject", "player": 1, "press": "left", "reason": "nothing_selected"},
        {
            "t": 1.0,
            "event": "reject",
            "player": 2,
            "press": "left",
            "reason": "too_late",
            "card": "8C",
            "spit_pile": 1,
            "winner": 1,
            "by_ms": 23.4,
        },
    ]
    view.notice([from_json(e) for e in events], 0, game)
    assert view.messages[1].text == "pick a card first: a stock pile, then a spit pile"
    assert view.race is not None and view.race.text == "Player 1 first by 23 ms"
    said = view.feedback(MS)
    assert [(c.place, c.seat, [line.words for line in c.lines]) for c in said] == [
        ("reject", 1, ["Player 1", "pick a card first: a stock pile, then a spit pile"]),  # the desktop: whose it is
        ("reject", 2, ["Player 2", "too late: someone was faster. Find another card"]),
        ("race", None, ["Player 1 first by 23 ms"]),
    ]
    assert view.feedback(5_000 * MS) == []
    assert view.busy(MS) and not view.busy(5_000 * MS)


@pytest.mark.parametrize(("language", "words"), [
    ("en", "Computer first by 7 ms"), ("de", "Computer um 7 ms schneller"), ("eo", "Komputilo unua je 7 ms")])
def test_a_race_the_computer_won_and_its_table_slap_name_the_computer(language: str, words: str) -> None:
    from appliance.display.i18n import set_language

    game, _ = Game.new(seed=3)
    view = view_for("desktop", computer=frozenset({2}))
    lost = {"t": 1.0, "event": "reject", "player": 1, "press": "left", "reason": "too_late", "card": "8C",
            "spit_pile": 1, "winner": 2, "by_ms": 7.2}
    set_language(language)
    try:
        view.notice([from_json(lost)], 0, game)
        assert view.race is not None and view.race.text == words
        slap = {"t": 2.0, "event": "table_slap", "player": 2, "right": True, "values": [3, 4], "rule": "sum"}
        view.notice([from_json(slap)], 0, game)
        assert view.race is not None and "2" not in view.race.text and view.race.text.startswith(words.split()[0])
    finally:
        set_language("en")


def test_the_computers_seat_shows_no_keys_and_no_rejects() -> None:
    game, _ = Game.new(seed=3)
    view = view_for("tabletop", computer=frozenset({2}))
    view.background()
    assert {drawn.seat for drawn in view.legend_texts} == {1}
    view.notice([from_json({"t": 1.0, "event": "reject", "player": 2, "press": "left", "reason": "nothing_selected"})],
                0, game)
    assert view.feedback(MS) == []


def _yellowish(colour: pygame.Color) -> bool:
    return colour.r > 150 and colour.g > 130 and colour.b < 110 and colour.r - colour.b > 100


def test_a_turned_up_card_flips_and_a_new_layout_is_dealt() -> None:
    game, _ = Game.new(seed=3)
    view = view_for("desktop")
    stock = view.layout.seat(1).stock
    down = next(n for n, p in enumerate(game.player(1).stock, start=1) if p.cards)
    view.notice([Flip(1.0, 1, down, game.players[0].stock[down - 1].cards[-1])], 0, game)
    canvas = Canvas(view.background())
    view.draw(canvas, game, 60 * MS)  # half way through the turn: a narrow card
    widths = [image.get_width() for image, x, y in canvas.items if stock[down - 1].collidepoint(x, y + 1)]
    assert any(0 < w < view.art.width for w in widths)
    assert view.busy(60 * MS) and not view.busy(1_000 * MS)
    view.deal(0)
    early = Canvas(view.background())
    view.draw(early, game, 1 * MS)  # nothing is down yet: every stock pile is still on its way
    assert not any(stock[-1].collidepoint(x, y) for _, x, y in early.items)
    late = Canvas(view.background())
    view.draw(late, game, 2_000 * MS)
    assert any(stock[-1].topleft == (x, y) for _, x, y in late.items)


# ------------------------------------------------------------------ a played card's frames (the band KMSDRM uploads)


@pytest.mark.parametrize(
    ("layout", "player", "assist"),
    [("tabletop", 1, True), ("tabletop", 2, True), ("desktop", 1, True), ("tabletop", 1, False)],
)
def test_a_played_card_changes_only_the_hands_rows_in_the_press_frame_and_the_middle_when_it_lands(
    layout: str, player: int, assist: bool
) -> None:
    """Classic play: until the card lands its spit pile shows the card it covers and the count without
    it, and (assist on) the other seat's lit cards are those that fit what the pile shows."""
    from headless import Harness
    from positions import position

    from appliance.display.scenes.base import make
    from appliance.match import Match
    from appliance.rules import game_from_state
    from appliance.shared.settings import Settings

    mine, theirs = ["5H", "9C", "2S", "", ""], ["6D", "3S", "8C", "", ""]  # 6D fits 5H, 3S fits 4C
    stocks = (mine, theirs) if player == 1 else (theirs, mine)
    state = position(*stocks, spit=("4C", "JD"), p1_spit="7H 8H", p2_spit="7S 8S")
    h = Harness(SIZE, settings=Settings(layout=layout, assist=assist))
    h.runner.apply_scene(make("play", h.ctx, Match(7, h.now_ns, None, {}, game=game_from_state(state))))
    h.frame()
    scene: Any = h.scene
    view, game = scene.view, scene.match.spit
    lay = view.layout
    other = lay.seat(3 - player)
    h.press(player, "pile1")
    h.frame()

    def at(rect: pygame.Rect) -> list[pygame.Surface]:
        return [image for image, x, y in h.canvas().items if (x, y) == rect.topleft]

    def lit_other() -> bool:
        off = view.art.glow_offset()
        glow = view.card_image("assist", other)
        return any(image is glow and (x + off, y + off) == other.stock[0].topleft for image, x, y in h.canvas().items)

    assert not lit_other()  # 6D does not fit 4C or JD
    h.press(player, side_for(player, 0))  # 5H onto 4C
    assert game.spit_piles[0][-2:] == ["4C", "5H"]  # the core: at once
    first = h.frame()
    seat = lay.seat(player)
    glow = view.art.glow_offset()
    hand_rows = seat.stock[0].union(seat.stock[0].move(seat.stack_dx * 3, seat.stack_step * 3)).inflate(0, 2 * glow)
    top, bottom = band(first)
    assert hand_rows.top <= top and bottom <= hand_rows.bottom, "the press's frame changes the hand's rows only"
    pile = lay.spit_piles[0]
    assert view.art.face("4C") in at(pile) and not lit_other()  # the pile as it was, at every seat
    heights = heights_until_landed(h, lambda: view.art.face("5H") in at(pile), 12)
    assert 4 <= len(heights) <= 7  # about 100 ms at 60 frames a second
    assert max(heights) < lay.card_h + abs(pile.y - seat.stock[0].y) // 3, heights  # even steps, none big
    assert lit_other() == assist  # landed: 6D fits it, and the other seat sees it lit


def test_the_assist_asks_the_game_what_fits_only_when_the_game_or_a_card_on_its_way_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Frames over an unchanged game ask `legal_actions` nothing (it was every seat, every frame); a
    press asks again once, and so does the played card landing, and the lit cards follow."""
    from headless import Harness
    from positions import position

    from appliance.display.scenes.base import make
    from appliance.match import Match
    from appliance.rules import game_from_state
    from appliance.shared.settings import Settings

    state = position(["5H", "9C", "2S", "", ""], ["6D", "3S", "8C", "", ""], spit=("4C", "JD"),
                     p1_spit="7H 8H", p2_spit="7S 8S")  # fmt: skip
    h = Harness(SIZE, settings=Settings(layout="tabletop", assist=True))
    h.runner.apply_scene(make("play", h.ctx, Match(7, h.now_ns, None, {}, game=game_from_state(state))))
    h.frame()
    view: Any = h.scene.view  # type: ignore[attr-defined]
    asked = count_legal_actions(monkeypatch)

    def lit_other() -> bool:
        off, other = view.art.glow_offset(), view.layout.seat(2)
        glow = view.card_image("assist", other)
        return any(image is glow and (x + off, y + off) == other.stock[0].topleft for image, x, y in h.canvas().items)

    h.advance(1.0)  # sixty frames, nobody presses
    assert asked == []
    h.press(1, "pile1")
    h.frame()
    assert asked == [1, 2]  # the game changed (5H picked up): every seat once
    h.press(1, side_for(1, 0))  # 5H onto 4C: asked in the press's frame, and again when it lands
    h.advance(0.5)
    assert asked == [1, 2] * 3
    assert lit_other()  # 6D fits the 5H landed: player 2 sees it lit
    h.advance(1.0)
    assert asked == [1, 2] * 3


def test_the_pick_up_prompt_asks_the_game_only_when_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """V9: the prompt to pick up your last cards is drawn every frame for every seat, but
    `legal_actions` is asked only when the game changed (`Match.version`), and the prompt follows it:
    offered with three cards left, all face up; gone once one of them is played."""
    from headless import Harness
    from positions import position

    from appliance.display.captions import shown_to
    from appliance.display.scenes.base import make
    from appliance.match import Match
    from appliance.rules import game_from_state
    from appliance.shared.settings import Settings

    state = position(["5H", "9C", "2S", "", ""], ["6D", "3S 8C |", "KC", "QC", ""], spit=("4C", "JD"),
                     p1_spit="7H 8H", p2_spit="7S 8S", options={"hidden_last": True})  # fmt: skip
    h = Harness(SIZE, settings=Settings(layout="tabletop", assist=False))
    match = Match(7, h.now_ns, None, {}, game=game_from_state(state))
    h.runner.apply_scene(make("play", h.ctx, match))
    asked = count_legal_actions(monkeypatch)
    offer = "press SPIT! to pick up your last cards"

    def offered(player: int) -> bool:
        return offer in shown_to(h.scene.captions(), player)  # type: ignore[attr-defined]

    h.frame()
    assert offered(1) and not offered(2)  # 5H 9C 2S, all face up: player 1 may; player 2 has a card face down
    first = len(asked)
    assert first <= 2  # once a seat
    h.advance(1.0)  # sixty frames, nobody presses
    assert len(asked) == first
    h.press(1, "pile1")
    h.press(1, side_for(1, 0))  # 5H onto 4C: two cards left, too few to pick up
    h.frame()
    assert len(asked) <= 2 * first and not offered(1)
    h.advance(1.0)
    assert len(asked) <= 2 * first


@pytest.mark.parametrize("mode", ["desktop", "tabletop"])
@pytest.mark.parametrize("seats", [3, 4])
def test_at_a_round_table_every_pile_says_whose_keys_play_it(mode: str, seats: int) -> None:
    """Four players at one keyboard: every person's stock pile has its key over it, every spit pile
    has beside it the key each person plays onto it with (in their colour), and each corner's key
    guide is in the colour of whose it is (a line naming them took the room the least text size
    needs); the computer's seat (the last) has none."""
    from appliance.display.legend import pile_keys, seat_key_label, seat_legend
    from appliance.display.table_view import PLAYER_COLOURS

    h = Harness((1280, 720), mode)
    to_seats(h, seats, {seats: "2"})
    view: Any = h.scene.view  # type: ignore[attr-defined]
    lay = view.layout
    people = [p for p in lay.seats if p != seats]
    texts = h.canvas().texts
    for player in people:
        piles = len(lay.seat(player).stock)
        stock_keys = [d.words[0] for d in texts if d.place == "key" and d.seat == player]
        assert stock_keys == [seat_key_label(view.keymap, player, f"pile{n}") for n in range(1, piles + 1)]
        assert all(stock_keys), (player, stock_keys)  # players 3 and 4 too: the number row, the keypad
        (legend,) = [d for d in texts if d.place == "legend" and d.seat == player]
        assert legend.words[0] == seat_legend(view.keymap, player, mode, piles, seats)[0]  # in the seat's colour
    assert not [d for d in texts if d.seat == seats and d.place in ("key", "pile_key", "legend")]
    def nearest(d: Any) -> int:  # the spit pile a label lies nearest (". (full stop)" is long)
        x, y = d.rect.center
        return min(range(len(lay.spit_piles)), key=lambda i: _gap(lay.spit_piles[i], x, y))

    for index, pile in enumerate(lay.spit_piles):
        beside = [d for d in texts if d.place == "pile_key" and nearest(d) == index]
        assert all(_gap(pile, *d.rect.center) < lay.card_w for d in beside)
        assert sorted((d.seat, d.words[0]) for d in beside) == [
            (player, pile_keys(view.keymap, player, index, seats)) for player in people
        ]
    assert set(PLAYER_COLOURS) >= set(people)


def _gap(rect: Any, x: int, y: int) -> float:
    """How far (x, y) lies from `rect` (0 inside it)."""
    return math.hypot(max(rect.left - x, 0, x - rect.right), max(rect.top - y, 0, y - rect.bottom))


def lit_piles(view: TableView, game: Game) -> set[tuple[int, int]]:
    """(seat, stock pile) of every card the assist lights, read from the canvas."""
    canvas = Canvas(view.background())
    view.draw(canvas, game, 0)
    off = view.art.glow_offset()
    found = set()
    for player, seat in view.layout.seats.items():
        glow = view.card_image("assist", seat)
        for number, rect in enumerate(seat.stock, start=1):
            if any(image is glow and (x + off, y + off) == rect.topleft for image, x, y in canvas.items):
                found.add((player, number))
    return found


def test_the_assist_lights_what_the_legal_actions_say_is_a_play_and_nothing_while_a_table_slap_is_judged() -> None:
    """Mod Spit: the 3C and the 6D fit the 4C and the 5S; once a slap waits to be judged nothing is played,
    so the rules offer no play and the assist lights nothing (the card still fits)."""
    from positions import position

    from appliance.rules import game_from_state

    state = position(["3C", "9H", "", "", ""], ["6D", "JS", "", "", ""], spit=("4C", "5S"), p1_spit="7H 8H",
                     p2_spit="7S 8S", options={"table_slap": "mod7"})
    game = game_from_state(state)
    view = view_for("desktop", assist=True)
    plays = {(n, a.pile) for n in (1, 2) for a in game.legal_actions(n) if a.kind == "play"}
    assert lit_piles(view, game) == plays == {(1, 1), (2, 1)}
    game.press(1.0, 1, "slap")  # 4 x 5 = 20, mod 7 = 6: a wrong slap, judged when the window closes
    assert [a.kind for a in game.legal_actions(2)] == ["slap_table"] and lit_piles(view, game) == set()


def count_legal_actions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seats `Game.legal_actions` is asked for from now on, in order (the game still answers)."""
    asked: list[int] = []
    real = Game.legal_actions

    def counting(game: Game, player: int, tops: Any = None) -> Any:
        asked.append(player)
        return real(game, player, tops)

    monkeypatch.setattr(Game, "legal_actions", counting)
    return asked
