"""The virtual cabinet's parts that run without QEMU: the title read off a screen dump, the
agent's requests, the report's figures, the skip where QEMU can't be had, and the builder's scripts.
(`spit-arcade cabinet-test` itself boots the image: .ci/run runs it where QEMU can be had.)"""

from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path

import pygame
import pytest
from headless import Harness

from lab.cabinet import main as cabinet_main
from lab.cabinet.checks import Report, percentile
from lab.cabinet.screen import MATCH, compare, title_texts

ROOT = Path(__file__).resolve().parent.parent
IMAGE = ROOT / "systemd" / "image"


def save(surface: pygame.Surface, path: Path) -> Path:
    pygame.image.save(surface, str(path))
    return path


def test_the_title_is_told_from_a_black_screen_and_from_the_next_scene(tmp_path: Path) -> None:
    frame, texts = title_texts((1280, 800), "tabletop")
    assert any("SPIT ARCADE" in text.words for text in texts)
    assert compare(save(frame, tmp_path / "title.png"))["title_on_screen"]
    black = pygame.Surface((1280, 800))
    seen = compare(save(black, tmp_path / "black.png"))
    assert not seen["title_on_screen"] and seen["score"] < 0.2
    harness = Harness((1280, 800), layout="tabletop")
    harness.press(0, "start")
    harness.advance(0.3)
    chosen = pygame.Surface((1280, 800))
    harness.canvas().render(chosen)
    assert type(harness.scene).__name__ == "ChooseScene"
    assert compare(save(chosen, tmp_path / "choose.png"))["score"] < MATCH


def test_the_title_behind_which_the_computer_plays_is_still_the_title(tmp_path: Path) -> None:
    harness = Harness((1280, 800), layout="tabletop")  # attract mode: a demo game behind the title
    harness.advance(6.0)
    shot = pygame.Surface((1280, 800))
    harness.canvas().render(shot)
    assert compare(save(shot, tmp_path / "attract.png"))["title_on_screen"]


def test_the_report_has_every_figure_the_issue_names() -> None:
    figures = json.loads(Report().json())
    for key in (
        "boot_to_title_s", "title_on_screen", "gpio_presses_applied", "gpio_p99_ms", "pad_presses_applied",
        "kill_resume_s", "watchdog_restart_s", "power_cuts_tried", "power_cuts_resumed", "escapes_tried",
        "escapes_held", "exposure", "run_s", "wheel_files", "wheel_lab_modules", "manifest_python_packages",
        "state_partition_mb", "state_grown", "ab_switched", "ab_rolled_back",
    ):  # fmt: skip
        assert key in figures, key


def test_percentiles_of_latencies() -> None:
    assert percentile([], 0.99) is None
    assert percentile([5.0, 1.0, 3.0], 0.5) == 3.0
    assert percentile([float(n) for n in range(1, 101)], 0.99) == 99.0


def test_where_qemu_cannot_be_had_it_says_so_and_ci_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cabinet_main, "missing_tools", lambda: ["qemu-system-x86"])
    monkeypatch.setattr(cabinet_main, "install", lambda packages: "needs qemu-system-x86 (Debian packages) and root")
    assert cabinet_main.main(["--if-available"]) == 0
    assert "skipped: needs qemu-system-x86" in capsys.readouterr().err
    assert cabinet_main.main([]) == 2  # asked for by name, not skipped quietly


def test_the_tree_stamp_changes_with_the_working_tree(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "a.txt").write_text("one\n")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "a.txt"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "one"], check=True)
    first = cabinet_main.tree_stamp(tmp_path)
    assert cabinet_main.tree_stamp(tmp_path) == first
    (tmp_path / "a.txt").write_text("two\n")
    second = cabinet_main.tree_stamp(tmp_path)
    (tmp_path / "b.txt").write_text("new\n")
    assert len({first, second, cabinet_main.tree_stamp(tmp_path)}) == 3


def load_agent() -> object:
    spec = importlib.util.spec_from_file_location("agent", IMAGE / "agent.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_agent_answers_each_request_and_never_dies_of_a_bad_one(tmp_path: Path, monkeypatch) -> None:
    agent = load_agent()
    assert agent.answer({"sh": "echo hello; exit 3"}) == {"rc": 3, "out": "hello\n"}  # type: ignore[attr-defined]
    assert agent.answer({"what": 1})["rc"] == 2  # type: ignore[attr-defined]
    pull = tmp_path / "sim_gpio4" / "pull"
    pull.parent.mkdir()
    pull.write_text("pull-up")
    monkeypatch.setattr(agent, "sim_pull", lambda line: str(pull) if line == 4 else "/nonexistent")
    journals = tmp_path / "journals"
    journals.mkdir()
    (journals / "game.jsonl").write_text('{"setup": {}}\n')
    reply = agent.answer({"press": 4, "hold_ms": 5, "watch": str(journals), "wait_ms": 200})  # type: ignore[attr-defined]
    assert reply["latency_ns"] == -1 and pull.read_text() == "pull-up"  # nothing journalled it: said so, let go


def test_the_builder_scripts_parse() -> None:
    subprocess.run(["bash", "-n", str(IMAGE / "build-image.sh")], check=True)
    subprocess.run(["bash", "-n", str(IMAGE / "make-bundle.sh")], check=True)
    for script in ("inside.sh", "gpio-sim-module.sh", "slot-switch.sh", "boot-ok.sh", "esp-rw.sh"):
        subprocess.run(["sh", "-n", str(IMAGE / script)], check=True)
    inside = (IMAGE / "inside.sh").read_text()
    assert "LABEL=spit-root   /                    ext4   ro" in inside  # the root is read-only, booted
    assert "/var/lib/spit-arcade" in inside and "mkdir -p /var/lib/systemd/linger" in inside
    build = (IMAGE / "build-image.sh").read_text()
    assert "install.sh --no-start" in build and "git clone" in build  # the bar owner's way, no shortcut


def test_the_pixel_check_fails_on_a_wrong_reference_and_on_a_screen_blanked_part_way(tmp_path: Path) -> None:
    """The title check can fail: the same dump compared with another layout's title (a wrong
    reference planted), and the title with its words' boxes painted over, as a blank screen would be."""
    frame, texts = title_texts((1280, 800), "tabletop")
    dump = save(frame, tmp_path / "title.png")
    assert compare(dump, "tabletop")["title_on_screen"]
    assert not compare(dump, "desktop")["title_on_screen"]
    for text in texts:
        frame.fill((0, 0, 0), text.rect)
    assert compare(save(frame, tmp_path / "blanked.png"), "tabletop")["score"] < 0.2


def test_the_stick_is_mounted_by_udev_through_systemd_mount_the_first_file_system_only() -> None:
    subprocess.run(["sh", "-n", str(IMAGE / "stick" / "stick-mount.sh")], check=True)
    rule = (IMAGE / "stick" / "61-spit-arcade-stick.rules").read_text()
    assert 'ENV{ID_BUS}!="usb"' in rule and 'ATTR{partition}!="1"' in rule
    script = (IMAGE / "stick" / "stick-mount.sh").read_text()
    assert "where=/run/spit-arcade/stick" in script and "systemd-mount --no-block" in script
    assert "nosuid,nodev,noexec" in script and "uid=$uid,gid=" in script
    assert "stick/61-spit-arcade-stick.rules" in (IMAGE / "inside.sh").read_text()


def test_the_title_is_compared_in_the_font_the_cabinet_draws_with(tmp_path: Path) -> None:
    """A cabinet without DejaVu draws in pygame's bundled font, at 0.69 of the size asked: another
    layout of the same words. The reference is drawn in the font the cabinet's journal names, and
    this process's own font is back afterwards."""
    from appliance.display import fonts

    own = fonts.font_name()
    if own == "pygame default":
        pytest.skip("no DejaVu Sans Bold here (fonts-dejavu-core): both renders would be pygame's font")
    cabinet, _ = title_texts((1280, 800), "tabletop", "pygame default")
    dump = save(cabinet, tmp_path / "cabinet.png")
    assert fonts.font_name() == own
    assert compare(dump, "tabletop", "pygame default")["title_on_screen"]
    assert not compare(dump, "tabletop")["title_on_screen"]  # drawn here in DejaVu: not that title
    assert compare(save(title_texts((1280, 800), "tabletop")[0], tmp_path / "own.png"), "tabletop", own)["score"] == 1.0
