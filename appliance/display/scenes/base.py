"""What every scene shares: the services of the app (`Context`), transitions, and banner drawing."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pygame

from .. import fonts
from ..card_art import CardArt
from ..compositor import Canvas
from ..keys import Keymap
from ..layout import TableLayout, table_layout
from ..settings import Settings
from ..sound import Sound
from ..table_view import TableView

BACK = "back"  # the Escape key: leave this screen


@dataclass(frozen=True, slots=True)
class MenuKey:
    """Escape on a keyboard: "go back", a menu key of the desktop that no cabinet panel has, so not an
    inputs Press (whose controls are the panels'). Shaped like one, so scenes read both alike."""

    player: int
    control: str
    pressed: bool
    t_ns: int
    source: str = "keyboard"
NAVIGATION = ("left", "right", "pile1", "pile2", "pile3", "pile4", "pile5", "pile6")


class Scene(Protocol):
    def on_event(self, press: Any) -> Transition | None: ...
    def update(self, now_ns: int) -> Transition | None: ...
    def draw(self, canvas: Canvas) -> None: ...
    def background(self) -> pygame.Surface: ...


@dataclass(frozen=True)
class Replace:
    scene: Scene


@dataclass(frozen=True)
class Quit:
    status: int = 0


Transition = Replace | Quit


def leave_game(ctx: Context, match: Any) -> Replace:
    """Stop a game (Escape, or nobody touching it) and go back to the title; its journal keeps
    what happened."""
    from .title import TitleScene

    match.abandon()
    return Replace(TitleScene(ctx))


@dataclass
class Context:
    """The app's services, handed to every scene."""

    settings: Settings
    size: tuple[int, int]
    keymap: Keymap
    sound: Sound
    journal_dir: Path | None  # None: games are not journalled (tests, attract mode)
    clock: Callable[[], int] = time.monotonic_ns
    seed_source: Callable[[], int] = field(default=lambda: time.time_ns() % 1_000_000)
    layout: TableLayout = field(init=False)
    art: CardArt = field(init=False)

    def __post_init__(self) -> None:
        self.layout = table_layout(self.size, self.settings.layout)
        self.art = CardArt(self.layout.card_w, self.layout.card_h, self.settings.four_colour)

    def view(self, assist: bool | None = None, show_keys: bool = True) -> TableView:
        return TableView(
            self.layout, self.art, self.keymap, self.settings.assist if assist is None else assist, show_keys
        )


def is_press(press: Any, *controls: str) -> bool:
    return bool(press.pressed) and press.control in controls


def banner(
    canvas: Canvas,
    view: TableView,
    lines: list[tuple[str, float, tuple[int, int, int]]],
    centre: tuple[int, int],
    turned: bool = False,
    alpha: int = 190,
) -> None:
    """Lines of text (words, size as a fraction of card height, colour) on a dark panel."""
    images = [fonts.text(words, view.layout.text_size(size), colour, turned) for words, size, colour in lines]
    if turned:
        images = images[::-1]
    width = max(image.get_width() for image in images) + 60
    height = sum(image.get_height() for image in images) + 30
    canvas.blit_centred(view.shade((width, height), alpha), centre)
    y = centre[1] - height // 2 + 15
    for image in images:
        canvas.blit(image, (centre[0] - image.get_width() // 2, y))
        y += image.get_height()
