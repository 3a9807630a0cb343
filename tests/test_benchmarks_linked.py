"""`bench linked`, small: two cabinets in network namespaces of their own, a relay between them
adding delay, jitter and loss, a few races from both sides, every one in edge order and both
journals alike. As root with iproute2 (CI runs so); elsewhere it skips, saying why."""

from __future__ import annotations

import json
import os

import pytest

from lab.benchmarks.linked import main, namespaces_possible


def test_a_few_races_between_two_namespaced_cabinets(capsys: pytest.CaptureFixture[str]) -> None:
    why = namespaces_possible()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"bench linked needs network namespaces in CI: {why}")
        pytest.skip(why)
    status = main(["--races", "12", "--delays", "20", "--flood-s", "1", "--screen-s", "1.5", "--json"])
    out = [line for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert status == 0
    figures = json.loads(out[-1])
    (run,) = figures["runs"]
    for key in ("delay_ms", "jitter_ms", "loss", "races", "races_in_edge_order", "clock_error_p99_ms",
                "corrections_per_min", "rollback_depth_p99", "journals_identical"):
        assert key in run
    assert (run["delay_ms"], run["jitter_ms"], run["loss"]) == (20.0, 10.0, 0.02)
    assert run["races"] >= 10  # a game could end between the two touches of a race or two
    assert run["journals_identical"] is True
    assert run["late_presses"] == 0 and run["refusals"] == {}
    assert run["flood"]["datagrams_per_s"] > 0 and figures["flood_from_the_peer"]["refused_datagrams"] > 0
    # forged datagrams of the link's, tagged without the pairing's secret: each dropped, the link still up
    assert figures["flood_from_the_peer"]["forged_datagrams"] > 0 and figures["flood_from_the_peer"]["still_up"]
    screen = figures["press_to_own_screen"]  # measured, not judged here
    assert screen["linked"]["presses"] > 0 and screen["unlinked"]["presses"] > 0
    assert {"p50_ms", "p99_ms"} <= set(screen["linked"]) & set(screen["unlinked"])
    assert not [n for n in os.popen("ip netns list").read().split() if n.endswith(f"-{os.getpid()}")]


def test_chrony_beside_the_link_sync_adds_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """`--chrony`: a chronyd server and client (-x, the shared clock never steered) on the same network,
    through the same kind of relay; its keys in each run. Measured, not judged (a bench figure)."""
    from lab.benchmarks.linked_chrony import chrony_missing

    why = namespaces_possible() or chrony_missing()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"bench linked --chrony needs network namespaces and chrony in CI: {why}")
        pytest.skip(why)
    status = main(["--races", "30", "--delays", "2", "--flood-s", "0", "--screen-s", "0", "--chrony", "--json"])
    out = [line for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert status == 0
    (run,) = json.loads(out[-1])["runs"]
    for key in ("clock_error_p99_ms", "chrony_offset_p99_ms", "chrony_bound_ms", "chrony_within_bound",
                "chrony_samples"):
        assert key in run
    assert run["chrony_samples"] > 0, run.get("chrony_log")
    assert not [n for n in os.popen("ip netns list").read().split() if n.endswith(f"-{os.getpid()}")]
