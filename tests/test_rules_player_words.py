"""The core's words for a player (rules/player_words.py): every reject `script --words` writes says
why and what to do, in context, never a bare "not now"; the reason codes and the plain output as they were."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from positions import position

from appliance.cli import main
from appliance.rules import PRESETS, REJECT_REASONS
from appliance.rules.player_words import reason_words, reject_words
from appliance.scripting import output_lines, parse_script, run
from lab.random_play import random_game

# Player 1's only move is the QD into the space (pile 5); player 2 can play the 4S on the 5H.
STUCK = position(["9C", "KH", "KS", "2D QD", ""], ["4S", "JH", "JS", "JD", "3C"], spit=("5H", "7D"),
                 p1_spit="AC", p2_spit="AD")
FALLBACK = reject_words("wrong_phase")  # said only where neither the press nor the phase is known
# Words that are already what to do (or all there is to say)
ONE_PART = {reject_words(reason) for reason in ("slap_smaller", "game_over", "wrong_pile", "call_first",
                                                "cannot_pick_up")} | {reject_words("nothing_selected", speed=True)}
GAMES = [(variant, {}) for variant in sorted(PRESETS)] + [("classic", {"seats": 3}), ("classic", {"seats": 4})]


def mashed_script(variant: str, options: dict[str, object], seed: int, presses: int = 600) -> list[str]:
    lines = [json.dumps({"setup": {"variant": variant, "seed": seed, "options": options}})]
    for (t, player, control), _ in random_game(seed, presses, variant, options):
        lines.append(json.dumps({"t": t, "player": player, "press": control}))
    return lines


def test_every_reason_has_words_that_are_not_its_code_nor_not_now() -> None:
    for reason, words in REJECT_REASONS.items():
        assert reason_words(reason) == words and words != reason and not words.startswith("not now"), reason
    assert reason_words("no_such_reason") is None


@pytest.mark.parametrize(("variant", "options"), GAMES, ids=[f"{v}-{o}" for v, o in GAMES])
def test_every_reject_in_script_words_says_why_and_what_to_do(variant: str, options: dict[str, object]) -> None:
    said: dict[int, str] = {}
    events, _ = run(parse_script(mashed_script(variant, options, seed=3)), said)
    rejects = [e for e in events if e.kind == "reject"]
    assert len(rejects) > 20 and set(said) == {id(e) for e in rejects}
    for event in rejects:
        words = said[id(event)]
        assert words != FALLBACK and "not now" not in words, (event, words)
        assert re.search(r"[:.] \w", words) or words in ONE_PART, words  # why, then what to do
    assert any(e.reason == "wrong_phase" for e in rejects)


def test_the_words_come_beside_the_codes_and_change_nothing_else() -> None:
    script = parse_script(mashed_script("classic", {}, seed=5))
    plain = list(output_lines(*run(script)))
    said: dict[int, str] = {}
    events, game = run(script, said)
    worded = [json.loads(line) for line in output_lines(events, game, said)]
    assert len(worded) == len(plain) and any("words" in line for line in worded)
    for line, before in zip(worded, plain, strict=True):
        assert ("words" in line) == (line.get("event") == "reject")
        line.pop("words", None)
        assert json.dumps(line, ensure_ascii=False) == before


def test_spit_while_a_move_is_there_names_the_move_by_its_controls(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "stuck.jsonl"
    path.write_text("\n".join([json.dumps({"setup": {"variant": "classic", "seed": 0, "state": STUCK}}),
                               json.dumps({"t": 0.5, "player": 1, "press": "spit"})]) + "\n")
    assert main(["script", str(path), "--words"]) == 0
    (reject,) = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"reject"' in line]
    assert reject["reason"] == "wrong_phase"
    assert reject["words"] == "SPIT! only if nobody can play. Move a card into the space: press pile4, then pile5"
    assert main(["script", str(path)]) == 0
    assert "words" not in capsys.readouterr().out  # without --words: the output the format pins


def test_speed_says_a_hand_where_spit_says_stock_piles() -> None:
    assert reject_words("nothing_selected", speed=True) == "pick a card from your hand first"
    assert reject_words("nothing_selected") == "pick a card first: a stock pile, then a spit pile"
    assert reject_words("not_adjacent", speed=True) == reject_words("not_adjacent")


def misfits(game: object, *steps: tuple[float, int, str]) -> list[str]:
    """The words of each `not_adjacent` reject the presses bring, as `script --words` says them."""
    from appliance.rules.player_words import game_reject_words

    said = []
    for t, player, control in steps:
        for event in game.press(t, player, control):  # type: ignore[attr-defined]
            if event.kind == "reject":
                assert event.reason == "not_adjacent", event
                said.append(game_reject_words(game, event, getattr(game, "variant", "") == "speed"))
    return said


def test_a_card_that_fits_neither_spit_pile_says_what_would_fit_and_that_none_takes_it() -> None:
    from test_rules_speed import speed_game

    from appliance.rules import game_from_state

    # issue 25's Speed: 4♠ onto 6♦ with 9♥ beside it
    speed = speed_game("4S 2C - - -", "8C - - - -", spit=("6D", "9H"))
    assert misfits(speed, (1.0, 1, "pile1"), (1.1, 1, "left"), (1.2, 1, "right")) == [
        "6♦ needs 5 or 7: no spit pile takes 4♠", "9♥ needs 8 or 10: no spit pile takes 4♠"]
    speed = speed_game("4S 2C - - -", "8C - - - -", spit=("6D", "5H"))
    assert misfits(speed, (1.0, 1, "pile1"), (1.1, 1, "left")) == ["6♦ needs 5 or 7: try the other spit pile"]
    # issue 25's classic: 6♠ onto A♦ with K♣ (the ace between the king and the two)
    classic = position(["6S", "KH", "KS", "2D QD", ""], ["4S", "JH", "JS", "JD", "3C"], spit=("AD", "KC"),
                       p1_spit="AC", p2_spit="8D")
    assert misfits(game_from_state(classic), (1.0, 1, "pile1"), (1.1, 1, "left")) == [
        "A♦ needs K or 2: no spit pile takes 6♠"]
    classic = position(["6S", "KH", "KS", "2D QD", ""], ["4S", "JH", "JS", "JD", "3C"], spit=("AD", "5C"),
                       p1_spit="AC", p2_spit="8D")
    assert misfits(game_from_state(classic), (1.0, 1, "pile1"), (1.1, 1, "left")) == [
        "A♦ needs K or 2: try the other spit pile"]


@pytest.mark.parametrize(("spit", "said"), [
    (["4D", "TC JH", "3C 8H 9H"], "4♦ needs 3 or 5: no spit pile takes 6♠"),
    (["4D", "TC JH", "3C 8H 7H"], "4♦ needs 3 or 5: 6♠ fits on 7♥"),
    (["4D", "TC 7H", "3C 8H 7C"], "4♦ needs 3 or 5: 6♠ fits on 7♥ or 7♣"),
])  # fmt: skip
def test_at_three_seats_the_piles_that_would_take_the_card_are_named_by_their_tops(spit: list[str], said: str) -> None:
    from test_rules_seats import table

    game = table([["5H", "", ""], ["9C", "KS", ""], ["6S", "JD", "2S"]], spit, ["2D", "3D", "4C"])
    assert misfits(game, (1.0, 3, "pile1"), (1.1, 3, "right")) == [said]  # player 3's right: pile 0, the 4♦


def test_at_four_seats_too_and_a_two_deck_card_is_named_without_its_deck() -> None:
    from test_rules_seats import table

    from appliance.rules.player_words import card_words, misfit_words

    game = table([["4H", "", ""], ["9C", "KS", ""], ["2S", "JD", ""], ["8C", "QD", ""]],
                 ["8D", "TC", "3C", "7S"], ["2D", "3D", "4C", "5C"])
    assert misfits(game, (1.0, 2, "pile1"), (1.1, 2, "far_right")) == ["7♠ needs 6 or 8: 9♣ fits on 8♦ or 10♣"]
    assert [card_words(c) for c in ("TD2", "QS1", "AH")] == ["10♦", "Q♠", "A♥"]
    assert misfit_words("9C", "KS", ["8D", "TC", "TH"], 4) == "K♠ needs Q or A: 9♣ fits on 8♦, 10♣ or 10♥"
