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


def test_variants_names_the_sources_codes_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    import re

    codes = re.compile(r"\b(?:TD|V|S)\d+\b|\brule \d+\b")
    assert main(["variants"]) == 0
    plain = capsys.readouterr().out
    assert codes.findall(plain) == [] and "()" not in plain
    assert "decks               how many decks are shuffled together (two: cards carry their deck) (1 or 2)\n" in plain
    assert main(["variants", "--sources"]) == 0
    sourced = capsys.readouterr().out
    assert "(two: cards carry their deck, TD1) (V4; 1 or 2)" in sourced
    assert {"V4", "S5", "TD1"} <= set(codes.findall(sourced))
