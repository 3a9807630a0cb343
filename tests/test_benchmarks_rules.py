from __future__ import annotations

import json

import pytest

from appliance.cli import main


def test_bench_rules_prints_the_figures_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "rules", "--presses", "3000", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {"presses_per_s", "p50_us", "p99_us"} <= result.keys()
    assert result["presses"] == 3000 and result["presses_per_s"] > 0
    assert 0 < result["p50_us"] <= result["p99_us"] <= result["max_us"]


def test_bench_rules_prints_words_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "rules", "--presses", "500"]) == 0
    assert "presses/s" in capsys.readouterr().out


def test_bench_rules_reports_random_game_lengths(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "rules", "--presses", "100", "--games", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["random_games"] == 2
    assert 0 < result["random_presses_min"] <= result["random_presses_median"] <= result["random_presses_max"]
    assert result["random_rounds_max"] >= 1


@pytest.mark.parametrize("variant", ["classic", "two-decks", "reverse"])
def test_bench_rules_measures_a_variant_with_house_rules(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "rules", "--presses", "2000", "--games", "1", "--variant", variant,
                 "--options", '{"alternate_colours": true, "choose": "first_call"}', "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["variant"] == variant and result["options"] == {"alternate_colours": True, "choose": "first_call"}
    assert result["presses"] == 2000 and result["presses_per_s"] > 0 and result["random_games"] == 1


def test_bench_rules_refuses_a_bad_variant(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "rules", "--variant", "nope", "--presses", "10"])
    assert exit_info.value.code == 2
    assert "unknown variant" in capsys.readouterr().err
