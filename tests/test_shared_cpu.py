"""Whether this machine's processor can run the game's libraries: read from /proc/cpuinfo texts
(QEMU's qemu64, which lgpio's wheel dies on; an x86-64-v2 one; a Pi's), the game's start that
says so and stops with the exit the unit does not restart, and the fallback screen's words."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from appliance.display import app
from appliance.shared.cpu import TOO_OLD, TOO_OLD_EXIT, cpu_flags, missing_flags, processor_too_old

SYSTEMD = Path(__file__).resolve().parent.parent / "systemd"

# The first processor's lines as Linux lists them (bookworm's 6.1 kernel under QEMU 7.2).
QEMU64 = """processor\t: 0
vendor_id\t: AuthenticAMD
model name\t: QEMU Virtual CPU version 2.5+
flags\t\t: fpu de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 \
syscall nx lm rep_good nopl cpuid extd_apicid tsc_known_freq pni cx16 x2apic hypervisor lahf_lm cmp_legacy \
svm 3dnowprefetch vmmcall

processor\t: 1
flags\t\t: fpu sse sse2 pni cx16 lahf_lm
"""
NEHALEM = """processor\t: 0
model name\t: Intel Core i7 9xx (Nehalem Class Core i7)
flags\t\t: fpu de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 \
syscall nx lm constant_tsc rep_good nopl xtopology cpuid tsc_known_freq pni ssse3 cx16 sse4_1 sse4_2 x2apic \
popcnt hypervisor lahf_lm
"""
PI4 = """processor\t: 0
BogoMIPS\t: 108.00
Features\t: fp asimd evtstrm crc32 cpuid
CPU implementer\t: 0x41
"""


def test_the_flags_are_the_first_processors() -> None:
    assert {"sse2", "pni", "cx16"} <= cpu_flags(QEMU64) and "popcnt" not in cpu_flags(QEMU64)
    assert cpu_flags(PI4) == set() and cpu_flags("") == set()


@pytest.mark.parametrize(
    ("cpuinfo", "machine", "missing"),
    [
        (QEMU64, "x86_64", ["popcnt", "sse4_1", "sse4_2", "ssse3"]),
        (NEHALEM, "x86_64", []),
        (PI4, "aarch64", []),  # a Pi is not asked about x86's levels
        (QEMU64, "aarch64", []),
        ("processor\t: 0\n", "x86_64", []),  # a kernel that lists no flags is not taken for an old processor
    ],
)
def test_what_x86_64_v2_needs_that_the_processor_lacks(cpuinfo: str, machine: str, missing: list[str]) -> None:
    assert missing_flags(cpuinfo, machine) == missing


def test_the_sentence_names_the_level_and_what_is_missing() -> None:
    said = processor_too_old(QEMU64, "x86_64")
    assert said.startswith(TOO_OLD) and "x86-64-v2" in said and "sse4_2" in said
    assert processor_too_old(NEHALEM, "x86_64") == "" and processor_too_old(PI4, "aarch64") == ""


def test_the_game_stops_before_any_library_loads_with_the_exit_the_unit_keeps(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(app, "processor_too_old", lambda: processor_too_old(QEMU64, "x86_64"))
    monkeypatch.setattr(app, "open_inputs", lambda *a: pytest.fail("the inputs (lgpio) were started"))
    assert app.main(["--config", str(tmp_path / "config.toml"), "--no-journal"]) == TOO_OLD_EXIT
    assert f"spit-arcade play: {TOO_OLD} (x86-64-v2; it lacks popcnt" in capsys.readouterr().err
    unit = (SYSTEMD / "spit-arcade.service").read_text()
    assert f"RestartPreventExitStatus={TOO_OLD_EXIT} SIGILL" in unit


def fallback(tmp_path: Path, show: str, log: str) -> tuple[str, str]:
    """The fallback script run with the game unit's state and last words given: (its screen, its output)."""
    screen, words = tmp_path / "tty1", tmp_path / "journal"
    words.write_text(log)
    env = {
        "PATH": "/usr/bin:/bin",
        "SPIT_FALLBACK_TTY": str(screen),
        "SPIT_FALLBACK_SHOW": show,
        "SPIT_FALLBACK_LOG": str(words),
        "SPIT_FALLBACK_SLEEP": "true",
        "SPIT_FALLBACK_SYSTEMCTL": "echo systemctl",
    }
    done = subprocess.run(["sh", str(SYSTEMD / "fallback.sh")], env=env, capture_output=True, text=True, check=True)
    return screen.read_text(), done.stdout


def test_the_fallback_screen_says_the_processor_is_too_old_and_starts_nothing(tmp_path: Path) -> None:
    said = processor_too_old(QEMU64, "x86_64")
    screen, out = fallback(tmp_path, "ExecMainCode=1\nExecMainStatus=79", f"spit-arcade play: {said}\n")
    assert f"cannot run on this machine: {said}." in screen and "systemctl" not in out
    screen, out = fallback(tmp_path, "ExecMainCode=3\nExecMainStatus=4", "Illegal instruction\n")  # SIGILL, dumped
    assert "SIGILL" in screen and "older than the game's libraries need (x86-64-v2)" in screen
    assert "systemctl" not in out


def test_any_other_failure_shows_the_last_words_and_tries_again(tmp_path: Path) -> None:
    screen, out = fallback(tmp_path, "ExecMainCode=1\nExecMainStatus=1", "spit-arcade play: no display to draw on\n")
    assert "could not start (10 tries in 10 minutes)" in screen and "no display to draw on" in screen
    assert "systemctl start --no-block spit-arcade.service" in out
