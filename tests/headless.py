"""The front end without a screen: SDL's dummy drivers, a fake clock, presses sent by hand.

The tests' harness (only tests use it):

    h = Harness((960, 540), layout="tabletop")
    h.press(0, "start"); h.advance(0.1)          # the cabinet's START, then 100 ms of frames
    h.scene                                      # the scene now showing
    h.screenshot()                               # what is on screen (a pygame.Surface)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from appliance.display.keys import Press, default_keymap, for_desktop
from appliance.display.runner import Runner
from appliance.display.scenes.base import Context, Scene
from appliance.display.sound import Sound
from appliance.shared.settings import Settings

FRAME_NS = 16_666_667


def headless_display(size: tuple[int, int]) -> pygame.Surface:
    """A display surface on SDL's dummy video driver (no window, no GPU, no desktop needed)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    pygame.display.init()
    pygame.font.init()
    return pygame.display.set_mode(size)


class Harness:
    def __init__(
        self,
        size: tuple[int, int] = (960, 540),
        layout: str = "desktop",
        *,
        settings: Settings | None = None,
        journal_dir: Path | None = None,
        seed: int = 7,
        scene: Any = None,
    ) -> None:
        self.screen = headless_display(size)
        self.now_ns = 1_000_000_000
        self.settings = settings or Settings(layout=layout)
        keymap = default_keymap()
        if self.settings.layout == "desktop":
            keymap = for_desktop(keymap)
        self.ctx = Context(
            self.settings, size, keymap, Sound.silence(), journal_dir, self.clock, seed_source=lambda: seed
        )
        if scene is None:
            from appliance.display.scenes.base import make

            scene = make("title", self.ctx)
        elif callable(scene):
            scene = scene(self.ctx)
        self.presented: list[list[pygame.Rect]] = []
        self.runner = Runner(self.ctx, scene, self.screen, present=self.presented.append)
        self.runner.frame([], self.now_ns)

    def clock(self) -> int:
        return self.now_ns

    @property
    def scene(self) -> Scene:
        return self.runner.scene

    def canvas(self) -> Any:
        """The current frame as data (its images and its texts, `Canvas.texts`)."""
        return self.runner.draw()

    def press(self, player: int, control: str) -> None:
        """A press at the current moment, as the keyboard would deliver it."""
        self.runner.send(Press(player, control, True, self.now_ns, "test"))
        self.runner.send(Press(player, control, False, self.now_ns, "test"))

    def frame(self, events: list[Any] | None = None) -> list[pygame.Rect]:
        self.now_ns += FRAME_NS
        return self.runner.frame(events or [], self.now_ns)

    def advance(self, seconds: float) -> None:
        for _ in range(max(1, round(seconds * 1e9 / FRAME_NS))):
            self.frame()

    def screenshot(self) -> pygame.Surface:
        return self.screen.copy()

    def full_render(self) -> pygame.Surface:
        """The current frame drawn from scratch (to check the incremental screen against)."""
        surface = pygame.Surface(self.screen.get_size())
        self.runner.draw().render(surface)
        return surface


# ---------------------------------------------------------------------- the key scenes, reproducibly
# Each drives a fresh harness (seed 7 unless it sets a position) to one scene, for the render tests
# and the reference images. Positions are set up with the rules core's own state format.


def _choosing_state(seed: int) -> dict[str, Any]:
    """Player 1 has played out their stock; both spit piles hold cards: slap time."""
    from appliance.rules import Game

    game, _ = Game.new(seed=seed)
    state = game.state()
    one, two = state["players"]
    played = [card for pile in one["stock"] for card in pile["cards"]]
    one["stock"] = [{"cards": [], "up": 0} for _ in one["stock"]]
    state["spit_piles"] = [played, two["spit_cards"][:3]]
    two["spit_cards"] = two["spit_cards"][3:]
    state["phase"] = "choosing"
    return state


def _over_state(seed: int) -> dict[str, Any]:
    from appliance.rules import Game

    game, _ = Game.new(seed=seed)
    state = game.state()
    cards = [c for p in state["players"] for pile in p["stock"] for c in pile["cards"]]
    cards += [c for p in state["players"] for c in p["spit_cards"]]
    for number, p in enumerate(state["players"], start=1):
        p["stock"] = [{"cards": [], "up": 0} for _ in p["stock"]]
        p["spit_cards"] = [] if number == 1 else cards
    state.update(phase="over", winner=1)
    return state


def _in_play(h: Harness, game: Any, events: list[Any] | None = None) -> None:
    """`game` (a position set up elsewhere) in the play scene from this moment: a match of it, by
    people only, with the events it has had."""
    from appliance.display.scenes.base import make
    from appliance.match import Match

    h.runner.apply_scene(make("play", h.ctx, Match(7, h.now_ns, None, {}, game=game, events=events)))


def _play_from(h: Harness, state: dict[str, Any], events: list[dict[str, Any]] | None = None) -> None:
    from appliance.rules import game_from_state
    from appliance.rules.events import from_json

    recorded = [from_json(event) for event in events or []]  # written as the script format writes them
    _in_play(h, game_from_state(state, seed=7), recorded)
    h.frame()


def everybody_calls_spit(h: Harness, seats: int = 2, settle_s: float = 0.2) -> None:
    """Every seat presses SPIT! at this moment (the game ready), then `settle_s` of frames: the spit
    cards are turned and the game is in play."""
    for player in range(1, seats + 1):
        h.press(player, "spit")
    h.advance(settle_s)


def to_title(h: Harness) -> None:
    h.advance(0.5)


def to_choose(h: Harness) -> None:
    h.press(0, "start")
    h.frame()


def to_countdown(h: Harness) -> None:
    to_choose(h)
    h.press(1, "spit")
    h.frame()


def to_ready(h: Harness) -> None:
    to_countdown(h)
    h.advance(2.2)


def to_play(h: Harness) -> None:
    to_ready(h)
    everybody_calls_spit(h)
    h.press(1, "pile1")
    h.press(2, "pile2")
    h.press(2, "left")  # player 2 has nothing playable selected, or it isn't adjacent: a reject
    h.frame()


def to_stalemate(h: Harness) -> None:
    from appliance.rules import Game

    game, _ = Game.new(seed=6)  # seed 6: nobody can play after the first reveal
    game.press(0.1, 1, "spit")
    game.press(0.2, 2, "spit")
    assert game.phase == "stalemate"
    _play_from(h, game.state())
    h.press(2, "spit")
    h.advance(0.2)


def to_choosing(h: Harness) -> None:
    _play_from(h, _choosing_state(7))


def to_round_summary(h: Harness) -> None:
    to_choosing(h)
    h.press(2, "right")
    h.frame()


def to_game_over(h: Harness) -> None:
    events = [
        {"t": 1.0, "event": "reveal", "player": 1, "card": "5S", "spit_pile": 0},
        {"t": 1.6, "event": "play", "player": 1, "pile": 1, "card": "4S", "spit_pile": 0, "onto": "5S"},
        {
            "t": 1.62,
            "event": "reject",
            "player": 2,
            "press": "right",
            "reason": "too_late",
            "winner": 1,
            "by_ms": 20.0,
            "spit_pile": 0,
        },
        {"t": 2.0, "event": "play", "player": 2, "pile": 1, "card": "3S", "spit_pile": 0, "onto": "4S"},
    ]
    _play_from(h, _over_state(7), events)


def to_settings(h: Harness) -> None:
    """The settings, pushed over a game."""
    to_play(h)
    h.press(0, "service")
    h.frame()


def to_pause(h: Harness) -> None:
    """A game paused with Escape."""
    from appliance.display.scenes.base import BACK, MenuKey

    to_play(h)
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))
    h.frame()


def to_game_menu(h: Harness) -> None:
    """The game menu, its third row (a house rule and its explanation) chosen."""
    from appliance.display.scenes.base import MenuKey

    to_choose(h)
    h.runner.send(MenuKey(0, "up", True, h.now_ns))
    h.press(1, "spit")
    h.frame()
    h.press(1, "pile2")
    h.press(2, "pile2")
    h.frame()


def _family(h: Harness, game: str, house_rules: dict[str, Any]) -> None:
    h.settings.game = game
    h.settings.house_rules = dict(house_rules)


def to_family_play(h: Harness) -> None:
    """Four piles with alternating colours and Shapp, in play."""
    _family(h, "four-piles", {"alternate_colours": True, "choose": "shapp"})
    to_play(h)


def to_two_decks(h: Harness) -> None:
    """Two decks (six stock piles), two hands: a card in each hand."""
    _family(h, "two-decks", {"two_hands": True})
    to_ready(h)
    everybody_calls_spit(h)
    h.press(1, "pile1")
    h.press(1, "pile2")
    h.frame()


def to_mod_spit(h: Harness) -> None:
    """Mod Spit (a rule drawn at the start), both tops showing: the rule and the two values."""
    _family(h, "mod-spit-advanced", {})
    to_ready(h)
    everybody_calls_spit(h)


def to_table_slap(h: Harness) -> None:
    """Mod Spit: both players slap the table, 40 ms apart; the verdict."""
    to_mod_spit(h)
    h.press(1, "slap")
    h.now_ns += 40_000_000
    h.press(2, "slap")
    h.frame()


SCENARIOS = Path(__file__).resolve().parents[1] / "seeds" / "scenarios"  # the seed scenarios (the repository's)


def _scenario(h: Harness, name: str, presses: int) -> None:
    """A seed scenario (seeds/scenarios/<name>.jsonl) played through the screen: its setup's position
    in the play scene, then the script's first `presses` presses, each at its own moment in the game."""
    import json

    from appliance.rules import game_from_state

    lines = (SCENARIOS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    setup = json.loads(lines[0])["setup"]
    start_ns = h.now_ns
    _in_play(h, game_from_state(setup["state"], seed=setup["seed"], options=setup.get("options")))
    for line in lines[1 : 1 + presses]:
        step = json.loads(line)
        at_ns = start_ns + round(step["t"] * 1e9)
        while h.now_ns + FRAME_NS <= at_ns:
            h.frame()
        h.now_ns = at_ns
        h.press(step["player"], step["press"])
        h.frame()


def to_ghost_race(h: Harness) -> None:
    """The ghost card (V14): player 1 plays their last stock card and both race for the ghost card
    lying by them, lit, each seat told what its slap does (0.2 s into the 1 s race)."""
    _scenario(h, "ghost-card-the-other-hand-first", 2)
    h.advance(0.2)


def to_lent_card_slapped_for(h: Harness) -> None:
    """'Spit card, please' (V13): player 1, short, holds player 2's lent spit card (face down, LENT,
    in their spit-card place) and has just played out their last stock card: the card is lit and
    both are told to slap it (0.1 s into the 2 s window)."""
    _scenario(h, "spit-card-please-slapped-in-time", 2)
    h.advance(0.1)


KEY_SCENES: dict[str, tuple[str, Any]] = {
    # name: (the scene class name it ends on, how to get there)
    "title": ("TitleScene", to_title),
    "choose": ("ChooseScene", to_choose),
    "countdown": ("CountdownScene", to_countdown),
    "ready": ("PlayScene", to_ready),
    "play": ("PlayScene", to_play),
    "stalemate": ("PlayScene", to_stalemate),
    "choosing": ("PlayScene", to_choosing),
    "round_summary": ("RoundSummaryScene", to_round_summary),
    "game_over": ("GameOverScene", to_game_over),
    "settings": ("SettingsScene", to_settings),
    "pause": ("PauseScene", to_pause),
    "game_menu": ("GameMenuScene", to_game_menu),
    "family_play": ("PlayScene", to_family_play),
    "two_decks": ("PlayScene", to_two_decks),
    "mod_spit": ("PlayScene", to_mod_spit),
    "table_slap": ("PlayScene", to_table_slap),
    "ghost_race": ("PlayScene", to_ghost_race),
    "lent_card": ("PlayScene", to_lent_card_slapped_for),
}


def to_seats(
    h: Harness, seats: int, computer: dict[int, str] | None = None, rules: dict[str, Any] | None = None
) -> None:
    """A game of `seats` players (people, or the computer where `computer` says), in play (`rules`:
    house rules besides the seats)."""
    from appliance.display.scenes.base import MenuKey
    from appliance.display.scenes.choose import ChooseScene

    h.settings.house_rules = {"seats": seats, **(rules or {})}
    to_choose(h)
    scene = h.scene
    assert isinstance(scene, ChooseScene)
    for seat, level in (computer or {}).items():
        h.runner.send(MenuKey(0, "down", True, h.now_ns))
        scene.index = seat
        for _ in range(len(scene.levels)):  # round the levels (the operator's first for a seat) to `level`
            if scene.seats[seat - 1] == level:
                break
            h.runner.send(MenuKey(0, "right", True, h.now_ns))
        assert scene.seats[seat - 1] == level, f"level {level!r} is not offered"
    scene.index = 1
    h.press(1, "spit")
    h.frame()
    h.advance(2.2)
    everybody_calls_spit(h, seats, 0.3)


def to_three_seats(h: Harness) -> None:
    to_seats(h, 3)


def to_four_seats(h: Harness) -> None:
    to_seats(h, 4, {4: "2"})


def to_seats_summary(h: Harness) -> None:
    """Four seats: a round summary (player 2 out first, taking a far pile)."""
    from appliance.display.scenes.base import make
    from appliance.rules.events import Out, Take

    to_four_seats(h)
    scene: Any = h.scene
    events = [Out(1.0, 2, 1), Take(1.0, 2, 3, 12), Take(1.0, 1, 0, 9)]
    h.runner.apply_scene(make("round_summary", h.ctx, scene.match, scene.view, events))
    h.frame()


KEY_SCENES["three_seats"] = ("PlayScene", to_three_seats)
KEY_SCENES["seats_summary"] = ("RoundSummaryScene", to_seats_summary)
KEY_SCENES["four_seats"] = ("PlayScene", to_four_seats)
