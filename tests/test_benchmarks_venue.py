"""`bench venue`, small: real uplinks against a real Mosquitto through a broker restart and (as root,
with iproute2) a link cut, and nothing lost or twice after the observer's dedup."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from venue_broker import MOSQUITTO, need

from lab.benchmarks.venue import main, namespaces_possible


def test_a_few_cabinets_through_a_restart_and_a_cut_lose_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    need(MOSQUITTO, "mosquitto")
    status = main(["--cabinets", "4", "--workers", "2", "--restarts", "1", "--cuts", "1", "--cut-s", "4",
                   "--keepalive", "2", "--period", "0.5", "--json"])
    out = [line for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    figures = json.loads(out[-1])
    assert (figures["lost"], figures["duplicated"], figures["out_of_order"]) == (0, 0, 0), figures
    assert status == 0
    assert figures["cabinets"] == 5 and figures["messages"] > 5 * 10  # four, and the one alone; 0.5 s apart
    assert figures["broker_restarts"] == 1
    assert figures["board_deliveries"] > 0 and figures["board_p99_s"] is not None
    cuts_possible = namespaces_possible() == ""
    assert figures["link_cuts"] == (1 if cuts_possible else 0)
    if cuts_possible:  # the namespaces it made are gone
        assert not [n for n in os.popen("ip netns list").read().split() if n.startswith(f"spv-b-{os.getpid()}")]
    else:
        assert figures["link_cuts_why_not"]
    assert shutil.which("mosquitto") or MOSQUITTO
