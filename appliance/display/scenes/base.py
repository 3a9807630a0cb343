"""What every scene shares: the services of the app (`Context`), inputs, transitions, the registry.

Scenes never import each other: they name the scene to go to (`make("title", ctx)`), and the
registry (`SCENES`) imports its module when it is first made; a piece two scenes share lives in a
module that is not a scene (initials.py, ending.py, this one). The one exception is a scene that is
another with more to it: the guided first game (learn.py) is the play scene with a guide
(tests/test_imports.py holds it). Transitions are returned values,
applied in one place (`runner.Runner`): `Replace` the top scene, `Push` one over it (the settings
or the pause over a game, which goes on where it was when it is popped), `Pop` back, `Reset` to one
scene (leaving a game), `Quit`.
"""

from __future__ import annotations

import gc
import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pygame

from appliance.operator.office import Office
from appliance.rules import Game
from appliance.shared.settings import Settings

from .. import fonts
from ..captions import Caption, Drawn, draw_captions
from ..card_art import CardArt
from ..compositor import Canvas
from ..keys import Keymap, Press, table_keymap
from ..layout import TableLayout, board_room, table_layout
from ..sound import Sound
from ..table_view import TableView, play_text_sizes

BACK = "back"  # the Escape key: leave this screen
MENU_CONTROLS = ("up", "down", "left", "right")  # the arrow keys, in menus


@dataclass(frozen=True, slots=True)
class MenuKey:
    """A desktop key that no cabinet panel has (Escape: "back"; the arrow keys in menus), so not an
    inputs Press (whose controls are the panels'). Shaped like one, so scenes read both alike."""

    player: int
    control: str
    pressed: bool
    t_ns: int
    source: str = "keyboard"


Input = Press | MenuKey  # what a scene's on_event receives


class Scene(Protocol):
    def on_event(self, press: Input) -> Transition | None: ...
    def update(self, now_ns: int) -> Transition | None: ...
    def draw(self, canvas: Canvas) -> None: ...
    def background(self) -> pygame.Surface: ...
    def captions(self) -> list[Caption]: ...


@dataclass(frozen=True)
class Replace:
    scene: Scene


@dataclass(frozen=True)
class Push:
    scene: Scene


@dataclass(frozen=True)
class Pop:
    pass


@dataclass(frozen=True)
class Reset:
    """Everything off the stack, `scene` alone on it (leaving a game from its pause)."""

    scene: Scene


@dataclass(frozen=True)
class Quit:
    status: int = 0


Transition = Replace | Push | Pop | Reset | Quit

# name -> "module:Class" under appliance.display.scenes (and replay_show); imported when first made
SCENES: dict[str, str] = {
    "title": "title:TitleScene",
    "choose": "choose:ChooseScene",
    "countdown": "countdown:CountdownScene",
    "play": "play:PlayScene",
    "round_summary": "round_summary:RoundSummaryScene",
    "game_over": "game_over:GameOverScene",
    "settings": "settings_menu:SettingsScene",
    "pause": "pause:PauseScene",
    "game_menu": "game_menu:GameMenuScene",
    "running_over": "running_over:RunningOverScene",
    "running_initials": "running_initials:RunningInitialsScene",
    "reaction_initials": "reaction_initials:ReactionInitialsScene",
    "running_scores": "running_scores:RunningScoresScene",
    "service": "service_menu:ServiceMenuScene",
    "resumed": "resumed:ResumedScene",
    "resume_ask": "resume_ask:ResumeAskScene",
    "notices": "service_notices:NoticesScene",
    "learn": "learn:learn_scene",
    "learned": "learn:LearnedScene",
    "linked_wait": "linked_wait:LinkedWaitScene",
}


def scene_class(name: str) -> Callable[..., Scene]:
    module, _, cls = SCENES[name].partition(":")
    found: Callable[..., Scene] = getattr(importlib.import_module(f"{__package__}.{module}"), cls)
    return found


def make(name: str, ctx: Context, *args: Any) -> Scene:
    """A new scene by its registered name."""
    return scene_class(name)(ctx, *args)


def leave_game(ctx: Context, match: Any) -> Reset:
    """Stop a game (Escape, or nobody touching it) and go back to the title; its journal keeps
    what happened."""
    match.abandon()
    return Reset(make("title", ctx))


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
    tidy_memory: bool = False  # collect and freeze the heap before play (the app and the bench; not tests)
    config_path: Path | None = None  # the settings file the game menu writes its choice to (None: not kept)
    inputs: Any = None  # the running input sources (the service menu's switch test reads them)
    office: Office | None = None  # the operator layer: credits, games, audits (coins.office opens one if None)
    updates: Any = None  # the operator layer's Updates (the updater asked off the frame loop; made when first asked)
    computer_seats: dict[int, str] | None = field(init=False, default=None)  # the seats the computer played
    # last (seat -> level), as the players chose them: the players' menu offers them again
    layout: TableLayout = field(init=False)
    art: CardArt = field(init=False)
    backgrounds: dict[tuple[object, ...], tuple[pygame.Surface, list[Drawn]]] = field(init=False, default_factory=dict)
    tables: dict[tuple[int, int, int], tuple[TableLayout, CardArt]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.layout = table_layout(self.size, self.settings.layout)
        self.art = CardArt(self.layout.card_w, self.layout.card_h, self.settings.four_colour)
        fonts.want(play_text_sizes(self.layout))  # made ready in spare time, finished before play

    def table_for(self, game: Any = None) -> tuple[TableLayout, CardArt]:
        """The layout and card art for a game's table: its seats and stock piles, and the room for a
        runner board where its cards are carried (Running Spit); None: classic."""
        if game is None:
            return self.layout, self.art
        piles, seats = len(game.players[0].stock), game.table.seats
        room = board_room(self.size) if isinstance(game, Game) and game.rules.moves.carry else 0
        if (piles, seats, room) == (len(self.layout.seat(1).stock), 2, 0):
            return self.layout, self.art
        found = self.tables.get((piles, seats, room))
        if found is None:
            layout = table_layout(self.size, self.settings.layout, piles, seats, room)
            quarters = tuple(sorted({s.cards_angle for s in layout.seats.values()} - {0, 180}))  # the sides'
            art = self.art.sized(layout.card_w, layout.card_h, quarters)  # drawn ahead with the screen's (warm)
            fonts.want(play_text_sizes(layout))
            found = self.tables[(piles, seats, room)] = (layout, art)
        return found

    def view(
        self,
        assist: bool | None = None,
        show_keys: bool = True,
        computer: frozenset[int] = frozenset(),
        game: Any = None,
        names: bool = True,
    ) -> TableView:
        """The table (of `game`, default the classic one); `computer`: the seats the computer plays
        (no keys, no prompts); `names`: the seats' names written by them."""
        layout, art = self.table_for(game)
        view = TableView(
            layout,
            art,
            table_keymap(self.keymap, layout.mode, len(layout.seats)),  # J is player 2's left pile at any size
            self.settings.assist if assist is None else assist,
            show_keys,
            computer,
            self.backgrounds,
            names,
        )
        view.slap = game.rules.slaps if isinstance(game, Game) else ""  # the rules say what the slap slaps
        return view


class Notice(str):
    """A start-up notice (its words) with its kind, which says what is true of it: SETTINGS, a problem
    in the settings (the built-in default is used); LEFT_OUT, an input source that cannot start (the
    cabinet plays without it); WAITING, a device not plugged in yet (it joins when it is, and is no
    problem); "" for the rest, whose words say what happens (a plain str is one of those)."""

    kind: str = ""

    def __new__(cls, words: str, kind: str = "") -> Notice:
        made = super().__new__(cls, words)
        made.kind = kind
        return made


SETTINGS, LEFT_OUT, WAITING = "settings", "left_out", "waiting"


def notice_kind(notice: str) -> str:
    return getattr(notice, "kind", "")


def worth_a_panel(notices: list[str]) -> bool:
    """Whether the start's notices put up their panel (service_notices.py): when anything but things
    waiting to be plugged in is among them."""
    return any(notice_kind(n) != WAITING for n in notices)


def startup_notices(ctx: Context) -> list[str]:
    """The notices of this start, kept on the context for the service menu's diagnostics."""
    found: list[str] | None = getattr(ctx, "_startup_notices", None)
    if found is None:
        found = []
        ctx._startup_notices = found  # type: ignore[attr-defined]
    return found


def ready_for_play(ctx: Context) -> None:
    """Before a game's first press can come: every card image drawn, every text size of the tables
    ready (fonts.want), and (in the app) the heap
    collected once and frozen, so neither a first drawing nor a full collection through everything
    made so far lands on a press."""
    ctx.art.warm(None)
    fonts.warm(None)  # every text size the tables made so far will use (Context.table_for)
    if ctx.tidy_memory:
        gc.collect()
        gc.freeze()


def is_press(press: Input, *controls: str) -> bool:
    return bool(press.pressed) and press.control in controls


def draw_overlay(canvas: Canvas, ctx: Context, captions: list[Caption]) -> None:
    """A scene pushed over whatever shows (the settings, the pause, the start's notices, the service
    menu): the whole screen covered first, so nothing under it shows through or is cut by its panels
    (a table of three or four has its texts where the screen's two halves meet)."""
    canvas.cover(pygame.Rect((0, 0), canvas.size))
    draw_captions(canvas, ctx.layout, captions)


def draw_scene(canvas: Canvas, ctx: Context, captions: list[Caption], layout: TableLayout | None = None) -> None:
    """The captions in their places: on `layout` (a game's table), or the screen's classic one."""
    draw_captions(canvas, layout or ctx.layout, captions)
