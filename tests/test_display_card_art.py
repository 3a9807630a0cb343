from __future__ import annotations

import pygame
import pytest
from headless import headless_display

from appliance.display.card_art import ALL_CARDS, CardArt, suit_polygons


@pytest.fixture(scope="module", autouse=True)
def display() -> None:
    headless_display((320, 240))


def test_suits_differ_by_shape_not_only_colour() -> None:
    art = CardArt(140, 200)
    masks = {suit: pygame.mask.from_surface(_suit_only(art, suit)) for suit in "SHDC"}
    for a in "SHDC":
        for b in "SHDC":
            if a < b:
                overlap = masks[a].overlap_area(masks[b], (0, 0))
                union = masks[a].count() + masks[b].count() - overlap
                assert overlap / union < 0.85, (a, b)


def _suit_only(art: CardArt, suit: str) -> pygame.Surface:
    surface = pygame.Surface((100, 100), pygame.SRCALPHA)
    polygons, circles = suit_polygons(suit, 50, 50, 80)
    for polygon in polygons:
        pygame.draw.polygon(surface, (0, 0, 0), polygon)
    for x, y, r in circles:
        pygame.draw.circle(surface, (0, 0, 0), (x, y), r)
    return surface


def test_every_card_is_drawn_and_distinct() -> None:
    art = CardArt(70, 100)
    images = {pygame.image.tobytes(art.face(card), "RGBA") for card in ALL_CARDS}
    assert len(images) == 52
    assert art.face("TD") is art.face("TD")  # drawn once, kept


def test_a_turned_card_is_the_card_rotated() -> None:
    art = CardArt(70, 100)
    turned = pygame.transform.rotate(art.face("7C"), 180)
    assert pygame.image.tobytes(art.face("7C", turned=True), "RGBA") == pygame.image.tobytes(turned, "RGBA")


def test_four_colour_deck_colours_diamonds_and_clubs() -> None:
    two, four = CardArt(70, 100), CardArt(70, 100, four_colour=True)
    assert pygame.image.tobytes(two.face("KD"), "RGBA") != pygame.image.tobytes(four.face("KD"), "RGBA")
    assert pygame.image.tobytes(two.face("KH"), "RGBA") == pygame.image.tobytes(four.face("KH"), "RGBA")


def test_warm_draws_all_cards_ahead_of_need() -> None:
    art = CardArt(35, 50)
    while not art.warm(0.5):
        pass
    assert art.warm(0.0)


def test_a_smaller_tables_art_is_drawn_ahead_with_the_screens(monkeypatch: pytest.MonkeyPatch) -> None:
    art = CardArt(35, 50)
    small = art.sized(28, 40)
    assert art.sized(28, 40) is small and art.sized(35, 50) is art and small.size == (28, 40)
    while not art.warm(0.5):
        pass
    assert small.warm(0.0)
    art.sized(21, 30)  # a table made after warming: there is more to draw again
    assert not art.warm(0.0)
    while not art.warm(0.5):
        pass

    def drawn_in_play(*args: object) -> pygame.Surface:
        raise AssertionError("a card image drawn in play")

    for name in ("_draw_face", "_draw_back", "_draw_slot", "_draw_glow"):
        monkeypatch.setattr(CardArt, name, drawn_in_play)
    for each in (art, small, art.sized(21, 30)):
        for card in ALL_CARDS:
            each.face(card), each.face(card, turned=True)
        each.back(), each.back(True), each.slot()
        for glow in ("select", "second", "assist", "reject"):
            each.glow(glow)


def test_the_countdown_leaves_a_four_seat_table_with_every_card_drawn() -> None:
    from headless import Harness, to_four_seats

    h = Harness((1280, 720), "tabletop")
    to_four_seats(h)
    layout, art = h.ctx.table_for(h.scene.match.spit)  # type: ignore[attr-defined]
    assert art is not h.ctx.art and art.size == (layout.card_w, layout.card_h)
    assert art.warm(0.0) and h.ctx.art.warm(0.0)


def test_the_sides_cards_turned_a_quarter_are_drawn_ahead_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of three or four turns its side seats' cards a quarter: those images are drawn with
    the rest ahead of play (warm), once a deck, and a frame of play turns none."""
    from headless import Harness, to_four_seats

    h = Harness((1280, 720), "tabletop")
    to_four_seats(h)
    _layout, art = h.ctx.table_for(h.scene.match.spit)  # type: ignore[attr-defined]
    assert art.quarters == (90, 270) and art.warm(0.0)
    upright = art.face("QH")
    turned = art.quarter("face", "QH", 90)
    assert turned.get_size() == (upright.get_height(), upright.get_width())
    assert pygame.image.tobytes(turned, "RGBA") == pygame.image.tobytes(pygame.transform.rotate(upright, 90), "RGBA")

    rotate = pygame.transform.rotate

    def turned_in_play(image: pygame.Surface, angle: float) -> pygame.Surface:
        assert image.get_size() != art.size, "a card image turned in play"
        return rotate(image, angle)  # (a text turned to its seat: the font's cache)

    monkeypatch.setattr(pygame.transform, "rotate", turned_in_play)
    h.advance(3.0)  # the four seats play: the side seats' cards drawn turned
    assert h.scene.match.spit.phase == "playing"  # type: ignore[attr-defined]
