"""`spit-arcade bench first-game`: presses and seconds from the title to the first card played, with
and without the guided first game (issue 25), by a scripted newcomer on the real scenes.

The screen runs headless (SDL's dummy driver) on a virtual clock at 60 frames a second; the
newcomer presses each key `--pace` seconds after the screen can take it (reading a line and finding
the key: 1.5 s unless told; `--pace 0` leaves only the screen's own waits). What they press:

- without the guide, two people who know the game: START on the title, SPIT in the players' menu
  (two players), the countdown, both SPIT! together, then player 1 picks up a card that fits and
  plays it (the move the rules offer, `legal_actions`; player 2's if player 1 has none; in Speed,
  where neither holds one, player 1 first draws into an empty slot, as the rules offer);
- with the guide: player 1's first pile key on the title, then each press the guide asks for (the
  partner's SPIT! comes by itself), up to the first card played.

`--game speed`: the same for Speed (the title offers the guided game of the game chosen).

Counted: the people's presses, and the seconds from the title's first frame to the `play` event.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from lab.benchmarks.figures import print_figures

FRAME_NS = 16_666_667
SIZE = (1280, 720)


class Newcomer:
    """The screen, a clock, and presses made at a pace, counted."""

    def __init__(self, pace_s: float, game: str = "classic") -> None:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        from appliance.display.keys import default_keymap, for_desktop
        from appliance.display.runner import Runner
        from appliance.display.scenes.base import Context, make
        from appliance.display.sound import Sound
        from appliance.shared.settings import Settings

        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode(SIZE)
        self.now_ns = 1_000_000_000
        self.start_ns = self.now_ns
        settings = Settings(layout="desktop", game=game)
        ctx = Context(settings, SIZE, for_desktop(default_keymap()), Sound.silence(), None, lambda: self.now_ns,
                      seed_source=lambda: 7)
        self.runner = Runner(ctx, make("title", ctx), screen, present=lambda rects: None)
        self.runner.frame([], self.now_ns)
        self.pace_ns = int(pace_s * 1e9)
        self.presses = 0

    @property
    def scene(self) -> Any:
        return self.runner.scene

    def frame(self) -> None:
        self.now_ns += FRAME_NS
        self.runner.frame([], self.now_ns)

    def wait_for(self, ready: Callable[[], bool], limit_s: float = 30.0) -> None:
        until = self.now_ns + int(limit_s * 1e9)
        while not ready():
            if self.now_ns > until:
                raise RuntimeError(f"the screen never got there (on {type(self.scene).__name__})")
            self.frame()

    def press(self, *presses: tuple[int, str]) -> None:
        """People press at the same moment, `pace` after the screen could take it."""
        from appliance.display.keys import Press

        end = self.now_ns + self.pace_ns
        while self.now_ns + FRAME_NS <= end:
            self.frame()
        self.now_ns = max(self.now_ns, end)
        for player, control in presses:
            self.runner.send(Press(player, control, True, self.now_ns, "bench"))
            self.runner.send(Press(player, control, False, self.now_ns, "bench"))
            self.presses += 1
        self.frame()

    def played(self) -> bool:
        match = getattr(self.scene, "match", None)
        return match is not None and any(e.to_json()["event"] == "play" for e in match.events)

    def seconds(self) -> float:
        return (self.now_ns - self.start_ns) / 1e9


GAMES = {"spit": "classic", "speed": "speed"}  # --game: the settings' game the title starts


def without_guide(pace_s: float, game_name: str = "spit") -> tuple[int, float]:
    person = Newcomer(pace_s, GAMES[game_name])
    person.press((0, "start"))
    person.wait_for(lambda: type(person.scene).__name__ == "ChooseScene")
    person.press((1, "spit"))
    person.wait_for(lambda: type(person.scene).__name__ == "PlayScene" and person.scene.match.game.phase == "ready")
    person.press((1, "spit"), (2, "spit"))
    person.wait_for(lambda: person.scene.match.game.phase == "playing")
    play_a_card(person)
    person.wait_for(person.played, 1.0)
    return person.presses, person.seconds()


def play_a_card(person: Newcomer) -> None:
    """Player 1 plays a card that fits (player 2, if only they hold one); with none, player 1 draws
    into an empty slot (Speed) and looks again."""
    game = person.scene.match.game
    for _ in range(8):
        for player in (1, 2):
            plays = [a for a in game.legal_actions(player) if a.kind == "play"]
            if plays:
                for control in game.presses_for(player, plays[0]):
                    person.press((player, control))
                return
        draws = [a for a in game.legal_actions(1) if a.kind == "draw"]
        if not draws:
            break
        person.press((1, game.presses_for(1, draws[0])[0]))
    raise RuntimeError("nobody holds a card that fits, and there is nothing to draw")


def with_guide(pace_s: float, game_name: str = "spit") -> tuple[int, float]:
    person = Newcomer(pace_s, GAMES[game_name])
    person.press((1, "pile1"))
    for _ in range(20):
        if person.played():
            break
        guide = person.scene.guide

        def ready(guide: Any = guide) -> bool:
            return not guide.waiting(person.scene.match.game)

        person.wait_for(ready)
        person.press((1, guide.ask(person.scene.match.game).control))
    person.wait_for(person.played, 1.0)
    return person.presses, person.seconds()


def measure(pace_s: float, game_name: str = "spit") -> dict[str, Any]:
    presses, seconds = without_guide(pace_s, game_name)
    guided_presses, guided_seconds = with_guide(pace_s, game_name)
    return {
        "game": game_name,
        "pace_s": pace_s,
        "without_guide_presses": presses,
        "without_guide_s": round(seconds, 2),
        "with_guide_presses": guided_presses,
        "with_guide_s": round(guided_seconds, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade bench first-game", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pace", type=float, default=1.5, help="seconds a newcomer takes for each press (1.5)")
    parser.add_argument("--game", choices=sorted(GAMES), default="spit",
                        help="the game the newcomer plays first: classic Spit or Speed (spit)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    print_figures(measure(args.pace, args.game), args.json)
    return 0
