"""The phases, controls and reject reasons are enumerations whose JSON is the text the format pins."""

from __future__ import annotations

import json
import re
from pathlib import Path

from appliance.rules import CONTROLS, PHASES, PILE_CONTROLS, REJECT_REASONS, Control, Phase, Reason, new_game
from appliance.rules.events import Reject

DOC = Path(__file__).resolve().parent.parent / "docs" / "script-format.md"


def test_the_enumerations_are_the_texts_the_format_pins() -> None:
    assert [str(p) for p in PHASES] == ["ready", "playing", "stalemate", "choosing", "over"]
    assert [str(c) for c in CONTROLS] == [
        "pile1", "pile2", "pile3", "pile4", "pile5", "pile6", "left", "right", "spit", "far_left", "far_right", "slap"]
    assert CONTROLS[:6] == PILE_CONTROLS
    for member in (*Phase, *Control, *Reason):
        assert json.dumps(member) == json.dumps(member.value)
        assert json.dumps({member: [member]}) == json.dumps({member.value: [member.value]})
        assert type(member)(member.value) is member


def test_every_reason_is_in_the_format_document_and_has_words() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("| reason | when |"):text.index("In the code the reasons")]
    first_column = "".join(re.findall(r"^\| ([^|]*) \|", table, re.M))
    documented = set(re.findall(r"`([a-z_]+)`", first_column)) | {"not_stuck"}  # Speed's own, in its section
    assert documented == {str(r) for r in Reason}
    assert "`not_stuck`" in text
    assert set(REJECT_REASONS) == set(Reason)


def test_a_reject_writes_its_reason_as_plain_text() -> None:
    game, _ = new_game("classic", 1)
    events = game.press(0.1, 1, "left")
    assert isinstance(events[0], Reject) and type(events[0].reason) is Reason
    line = json.dumps(events[0].to_json())
    assert '"reason": "' in line and "Reason." not in line
    assert game.phase is Phase.READY


def test_every_event_about_a_seat_is_read_as_one_by_the_screen() -> None:
    """The screen's `seat_of` matches events by type: every event type with a `player` is among them."""
    import dataclasses

    from appliance.display.events import SEAT_EVENTS, seat_of
    from appliance.rules.events import EVENT_KINDS, Deal

    with_a_player = {cls for cls in EVENT_KINDS.values() if "player" in {f.name for f in dataclasses.fields(cls)}}
    assert with_a_player == set(SEAT_EVENTS)
    game, events = new_game("classic", 1)
    assert isinstance(events[0], Deal) and seat_of(events[0]) is None
    assert seat_of(game.press(0.1, 2, "spit")[0]) == 2
    assert seat_of(Reject(0.2, "nobody", "spit", Reason.UNKNOWN_PRESS)) is None
