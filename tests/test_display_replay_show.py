from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest
from headless import Harness

from appliance.display.replay_show import ReplayScene, keys_words, main
from appliance.scripting import parse_script, run

ROOT = Path(__file__).resolve().parent.parent
PRESSES = [(0.5, 1, "spit"), (0.75, 2, "spit"), (1.5, 1, "pile1"), (2.0, 2, "pile3")]


def journal_lines(final_state: dict[str, object] | None = None) -> list[str]:
    lines = [json.dumps({"setup": {"variant": "classic", "seed": 7}})]
    lines += [json.dumps({"t": t, "player": p, "press": c}) for t, p, c in PRESSES]
    if final_state is not None:
        lines.append(json.dumps({"state": final_state}))
    return lines


def test_presses_are_shown_when_their_time_comes() -> None:
    script = parse_script(journal_lines())
    h = Harness((480, 270), scene=lambda ctx: ReplayScene(ctx, script, speed=1.0, hold_s=None))
    scene = h.scene
    assert isinstance(scene, ReplayScene)
    h.advance(0.6)
    assert scene.game.player(1).called and not scene.game.player(2).called
    h.advance(1.0)
    assert scene.game.phase == "playing" and scene.game.player(1).selected == 1
    h.advance(0.6)
    assert scene.ended_ns is not None and scene.matches() is None


def test_the_end_says_whether_the_replay_matches_the_journal() -> None:
    script = parse_script(journal_lines())
    h = Harness((480, 270), scene=lambda ctx: ReplayScene(ctx, script, speed=4.0, hold_s=0.5))
    h.advance(0.6)
    scene = h.scene
    assert isinstance(scene, ReplayScene)
    final = scene.game.state()
    good = parse_script(journal_lines(final))
    h2 = Harness((480, 270), scene=lambda ctx: ReplayScene(ctx, good, speed=4.0, hold_s=0.5))
    h2.advance(1.5)
    assert h2.runner.status == 0
    final["round"] = 9
    bad = parse_script(journal_lines(final))
    h3 = Harness((480, 270), scene=lambda ctx: ReplayScene(ctx, bad, speed=4.0, hold_s=0.5))
    h3.advance(1.5)
    assert h3.runner.status == 1


def test_the_result_stays_until_escape_which_says_whether_it_matched() -> None:
    from appliance.display.scenes.base import BACK, MenuKey

    script = parse_script(journal_lines())
    h = Harness((480, 270), scene=lambda ctx: ReplayScene(ctx, script, speed=4.0))  # the command's default
    h.advance(0.6)
    final = h.scene.game.state()  # type: ignore[attr-defined]
    for state, status in ((final, 0), ({**final, "round": 9}, 1)):
        scripted = parse_script(journal_lines(state))
        h = Harness((480, 270), scene=lambda ctx, s=scripted: ReplayScene(ctx, s, speed=4.0))
        h.advance(60.0)  # a minute after the end: still on the result
        scene = h.scene
        assert isinstance(scene, ReplayScene) and scene.ended_ns is not None and h.runner.status is None
        assert "End of the replay" in [line.words for c in scene.captions() for line in c.lines]
        h.runner.send(MenuKey(0, BACK, True, h.now_ns))
        h.frame()
        assert h.runner.status == status


def test_command_line(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(journal_lines()) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_CONFIG_HOME=str(tmp_path))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "appliance.cli",
            "replay",
            str(path),
            "--show",
            "--speed",
            "20",
            "--hold",
            "0",
            "--size",
            "320x240",
        ],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[-1] == f"spit-arcade replay: {path}: no closing state line (the game was " \
        "not finished, or was cut off): played to its last press, nothing to check it against"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"setup": {"seed": 1}}\n{"t": 1, "player": 3, "press": "spit"}\n')
    assert main([str(bad)]) == 2
    assert main([str(tmp_path / "missing.jsonl")]) == 2


def arrow(h: Harness, control: str) -> None:
    from appliance.display.scenes.base import MenuKey

    h.runner.send(MenuKey(0, control, True, h.now_ns))


def test_what_time_decides_shows_when_it_was_decided_not_at_the_next_press() -> None:
    lines = (ROOT / "seeds" / "scenarios" / "mod-spit-ace-and-king-is-a-wrong-slap.jsonl").read_text().splitlines()
    script = parse_script(lines)  # a wrong table slap at 1.0 s, judged when its window closed: the time line at 2.0 s
    h = Harness((640, 360), scene=lambda ctx: ReplayScene(ctx, script, speed=1.0, hold_s=None))
    scene = h.scene
    assert isinstance(scene, ReplayScene)
    h.advance(1.9)
    assert [e.kind for e in scene.events] == ["table_slap"] and scene.view.verdict is None
    h.advance(0.2)
    assert "table_slap_judged" in [e.kind for e in scene.events] and "unknown_press" not in str(scene.events)
    assert scene.view.verdict is not None and scene.view.verdict.lines()[0] == "Wrong slap!"
    _, game = run(script)
    assert scene.game.state() == game.state()


def test_the_arrow_keys_seek_and_change_the_speed_and_say_so_on_screen() -> None:
    script = parse_script(journal_lines())
    h = Harness((640, 360), scene=lambda ctx: ReplayScene(ctx, script, speed=1.0, hold_s=None))
    scene = h.scene
    assert isinstance(scene, ReplayScene)
    assert [line.words for c in scene.captions() if c.place == "info" for line in c.lines] == keys_words()
    assert keys_words()[0] == "Left/Right: -10 s/+10 s"
    arrow(h, "right")  # 10 s on: the whole journal (2 s) played at once
    assert scene.position == 2.0 and scene.game.player(2).selected == 3 and scene.game.phase == "playing"
    h.frame()
    assert scene.ended_ns is not None
    arrow(h, "left")  # back to the start: played again from the deal
    assert scene.position == 0.0 and scene.ended_ns is None and not scene.game.player(1).called
    h.advance(0.6)
    assert scene.game.player(1).called and not scene.game.player(2).called  # and on at its speed
    arrow(h, "up")
    arrow(h, "up")
    assert scene.speed == 4.0
    h.advance(0.25)  # 1 s of the game in a quarter of a second
    assert scene.game.player(1).selected == 1 and scene.position == pytest.approx(1.6, abs=0.02)
    for _ in range(12):
        arrow(h, "down")
    assert scene.speed == 0.125
    for _ in range(12):
        arrow(h, "up")
    assert scene.speed == 64.0
    seen, speed, position = len(scene.events), scene.speed, scene.position
    h.press(1, "spit")  # the players' keys do nothing in a replay
    h.press(1, "left")
    assert (len(scene.events), scene.speed, scene.position) == (seen, speed, position)


def test_a_replay_names_the_seats_the_computer_played(tmp_path: Path) -> None:
    from appliance.bots.simulate import play_game

    result = play_game(["5", "1"], 3, journal_dir=tmp_path)
    (path,) = tmp_path.glob("*.jsonl")
    script = parse_script(path.read_text().splitlines())  # its setup: "bots": {"1": "5", "2": "1"}
    h = Harness((640, 360), scene=lambda ctx: ReplayScene(ctx, script, speed=1.0, hold_s=None))
    scene = h.scene
    assert isinstance(scene, ReplayScene) and scene.view.computer == frozenset({1, 2})
    arrow(h, "right")
    while scene.ended_ns is None:
        arrow(h, "right")
        h.frame()
    assert result.winner is not None and "Computer won" in [line.words for c in scene.captions() for line in c.lines]
    assert scene.matches() is True  # seeking played every line as the journal has it


@pytest.mark.parametrize(("scenario", "lines"), [
    ("ghost-card-the-other-hand-first",
     ["Player 2 takes the ghost card!", "200 ms after player 1 played out", "Player 1 was 10 ms late"]),
    ("spit-card-please-slapped-in-time",
     ["Player 1 slapped the spit card in 350 ms!", "Player 1 wins the game!", "Player 2 was 150 ms late"]),
])
def test_a_replay_shows_the_verdict_of_a_race_for_a_card_as_the_rule_says_it(scenario: str, lines: list[str]) -> None:
    """The ghost card's and the lent card's verdicts are the rules' (as data): a replay, which plays the
    game again with no scene of the play screen's, shows them as the play screen does, slower slap and all."""
    script = parse_script((ROOT / "seeds" / "scenarios" / f"{scenario}.jsonl").read_text().splitlines())
    h = Harness((640, 360), scene=lambda ctx: ReplayScene(ctx, script, speed=1.0, hold_s=None))
    scene = h.scene
    assert isinstance(scene, ReplayScene)
    h.advance(1.7)
    assert scene.view.verdict is not None and scene.view.verdict.lines() == lines


@pytest.mark.parametrize("layout", ["desktop", "tabletop"])
@pytest.mark.parametrize("seats", [3, 4])
def test_a_replay_of_three_or_four_seats_draws_their_table(seats: int, layout: str) -> None:
    from lab.random_play import random_game

    options = {"seats": seats}
    lines = [json.dumps({"setup": {"variant": "classic", "seed": 4, "options": options}})]
    lines += [json.dumps({"t": t, "player": p, "press": c}) for (t, p, c), _ in random_game(4, 120, "classic", options)]
    script = parse_script(lines)
    h = Harness((1280, 720), layout, scene=lambda ctx: ReplayScene(ctx, script, speed=1.0, hold_s=None))
    scene = h.scene
    assert isinstance(scene, ReplayScene)
    arrow(h, "right")  # 10 s into the game: the spit cards turned, cards played
    h.frame()
    game, lay = scene.game, scene.view.layout
    assert game.phase != "ready" and sorted(lay.seats) == list(range(1, seats + 1))
    assert len(lay.seat(1).stock) == len(game.player(1).stock)  # one stock pile fewer a seat more
    drawn = [card.rect for card in h.canvas().cards]

    def card_on(rect: pygame.Rect) -> bool:  # a card drawn there (a pile's cards peek out a little)
        return any(rect.clip(card).width * rect.clip(card).height > rect.width * rect.height // 2 for card in drawn)

    for player in range(1, seats + 1):  # every seat's piles where that seat's table has them
        seat, stock = lay.seat(player), game.player(player).stock
        assert all(card_on(rect) for rect, pile in zip(seat.stock, stock, strict=True) if pile.cards), player
        assert card_on(seat.spit_cards) == bool(game.player(player).spit_cards), player
    spit_piles = [pile for pile in game.spit_piles if pile]
    assert len(game.spit_piles) == seats and spit_piles
    words = [word for text in h.canvas().texts for word in text.words]
    assert all(f"Player {p}" in " ".join(words) for p in range(3, seats + 1)), words  # their names by them
