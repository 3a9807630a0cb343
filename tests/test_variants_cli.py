from __future__ import annotations

import json

import pytest

from appliance.cli import main
from appliance.rules import OPTIONS, PRESETS


def test_variants_json_lists_every_preset_with_its_options_and_every_option(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"presets", "options"}
    assert list(out["presets"]) == list(PRESETS) and list(out["options"]) == list(OPTIONS)
    assert out["presets"]["four-piles"]["stock_piles"] == [1, 2, 3, 4]
    assert out["presets"]["two-decks"]["decks"] == 2 and out["presets"]["reverse"]["goal"] == "all"
    assert out["presets"]["refill"]["refill"] is True
    assert out["options"]["choose"]["default"] == "slap" and out["options"]["stock_piles"]["default"] == [1, 2, 3, 4, 5]
    assert all(option["explain"] for option in out["options"].values())


def test_variants_says_one_line_for_each(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    text = capsys.readouterr().out
    presets, _, options = text.partition("House rules")
    for names, section in ((PRESETS, presets), (OPTIONS, options)):
        lines = section.splitlines()
        for name in names:
            assert sum(1 for line in lines if line.split()[:1] == [name]) == 1, name
