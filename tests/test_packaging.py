"""What goes onto a cabinet: the wheel systemd/install.sh builds (by systemd/build-wheel.sh, as here)
holds the game and nothing of the lab, and on its own its `spit-arcade --help` offers only what it can
run; the lock files pin every package, with hashes, the same version wherever two of them name it."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"
LAB_COMMANDS = ("bench", "pad-emulator", "cabinet-test")
GAME_COMMANDS = ("play", "script", "replay", "variants", "inputs", "simulate", "check-config", "audits", "settings",
                 "uplink", "link-relay", "venue")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    # install.sh's own step, with this venv's python (it has the setuptools requirements/build.txt pins)
    out = subprocess.run([str(ROOT / "systemd" / "build-wheel.sh"), str(dist), sys.executable], capture_output=True,
                         text=True, timeout=300, check=True)  # fmt: skip
    return Path(out.stdout.strip())


@pytest.fixture(scope="module")
def names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def shipped(names: list[str]) -> set[str]:
    return {name for name in names if ".dist-info/" not in name}


def test_the_wheel_holds_no_module_of_the_lab(names: list[str]) -> None:
    assert sorted({name.partition("/")[0] for name in shipped(names)}) == ["appliance"]
    lab = sorted(name for name in names if name.startswith("lab/") or "pad_emulator" in name or "random_play" in name)
    assert lab == []


def test_the_wheel_holds_every_file_of_the_game(names: list[str]) -> None:
    tree = {path.relative_to(ROOT).as_posix() for path in (ROOT / "appliance").rglob("*")
            if path.is_file() and "__pycache__" not in path.parts}  # fmt: skip
    assert len(tree) > 100  # the walk can fail
    assert sorted(tree - shipped(names)) == []
    assert sorted(shipped(names) - tree) == []
    for module in ("cli.py", "rules/engine.py", "display/app.py", "bots/simulate.py", "variant_args.py",
                   "inputs/default.toml"):  # fmt: skip
        assert f"appliance/{module}" in names, module


def test_the_wheels_command_is_the_games(wheel: Path, names: list[str]) -> None:
    entry_points = next(name for name in names if name.endswith(".dist-info/entry_points.txt"))
    with zipfile.ZipFile(wheel) as archive:
        assert "spit-arcade = appliance.cli:main" in archive.read(entry_points).decode()


def run_alone(wheel: Path, tmp_path: Path, *args: str, also: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`spit-arcade ARGS` from the wheel alone, as on a cabinet: its files unpacked, no site-packages
    (no clone's path file, so no lab), run from an empty folder. Commands that need only the standard
    library run; the others are for the venv install.sh makes. `also`: one more folder on the path."""
    unpacked = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(unpacked)
    code = (f"import sys; sys.path[:0] = {[str(unpacked), *([str(also)] if also else [])]!r}; "
            "from appliance.cli import main; sys.exit(main(sys.argv[1:]))")
    return subprocess.run([sys.executable, "-I", "-S", "-c", code, *args], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)  # fmt: skip


def listed(usage: str) -> list[str]:
    return re.findall(r"^  (\S+)\s", usage, re.M)


def test_on_a_cabinet_help_lists_only_the_games_commands(wheel: Path, tmp_path: Path) -> None:
    result = run_alone(wheel, tmp_path, "--help")
    assert result.returncode == 0, result.stderr
    assert listed(result.stdout) == list(GAME_COMMANDS)
    assert "lab" not in result.stdout


def test_on_a_cabinet_a_lab_command_says_where_it_runs(wheel: Path, tmp_path: Path) -> None:
    result = run_alone(wheel, tmp_path, "cabinet-test")
    assert result.returncode == 2
    assert "unknown command 'cabinet-test'; this install holds the game alone" in result.stderr
    assert "./spit COMMAND" in result.stderr
    assert run_alone(wheel, tmp_path, "variants").returncode == 0  # the game's own commands run


def test_someone_elses_lab_package_on_the_path_is_not_the_labs(wheel: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    (other / "lab").mkdir(parents=True)
    (other / "lab" / "__init__.py").write_text("raise SystemExit('imported')\n")
    result = run_alone(wheel, tmp_path, "--help", also=other)
    assert result.returncode == 0, result.stderr
    assert listed(result.stdout) == list(GAME_COMMANDS)


def test_in_a_clone_help_lists_the_labs_commands_too(capsys: pytest.CaptureFixture[str]) -> None:
    from appliance.cli import main

    assert main(["--help"]) == 0
    assert listed(capsys.readouterr().out) == [*GAME_COMMANDS, *LAB_COMMANDS]


def pins(path: Path) -> dict[str, str]:
    """NAME -> VERSION of a lock file, each checked to carry its hashes."""
    found: dict[str, str] = {}
    for block in re.split(r"\n(?=\S)", path.read_text(encoding="utf-8")):
        if block.startswith("#"):
            continue
        head = re.match(r"([A-Za-z0-9._-]+)==(\S+) \\", block)
        assert head, f"{path.name}: not pinned with hashes: {block.splitlines()[0]!r}"
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", block), f"{path.name}: {head.group(1)} has no hash"
        found[head.group(1).lower()] = head.group(2)
    return found


def normal(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].lower().replace("_", "-").replace(".", "-")


def test_the_lock_files_pin_every_package_with_hashes_and_agree() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    cabinet, dev, build = (pins(LOCKS / name) for name in ("cabinet.txt", "dev.txt", "build.txt"))
    runtime = [*project["dependencies"], *project["optional-dependencies"]["cabinet"]]
    cabinet_names = {name.replace(".", "-") for name in cabinet}
    assert sorted(normal(r) for r in runtime if normal(r) not in cabinet_names) == []
    dev_names = {name.replace(".", "-") for name in dev}
    tools = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    assert sorted(normal(r) for r in tools if normal(r) not in dev_names) == []
    assert "gpiozero" in cabinet and "colorzero" in cabinet  # a dependency's dependency, pinned too
    both = {name: (cabinet[name], other[name]) for other in (dev, build) for name in cabinet.keys() & other.keys()}
    assert {name: pair for name, pair in both.items() if pair[0] != pair[1]} == {}
    assert "setuptools" in build


def test_the_readers_of_the_lock_use_it_with_hashes() -> None:
    spit = (ROOT / "spit").read_text(encoding="utf-8")
    assert '--require-hashes -r "$here/requirements/dev.txt"' in spit
    assert 'for lock in "$here"/requirements/*.txt; do [ "$lock" -nt "$stamp" ] && return 0; done' in spit
    install = (ROOT / "systemd" / "install.sh").read_text(encoding="utf-8")
    assert '--require-hashes -r "$here/requirements/cabinet.txt"' in install
    assert re.search(r'--no-deps "\$wheel"$', install, re.M)
    assert '--require-hashes -r "$here/requirements/build.txt"' in (ROOT / "systemd" / "build-wheel.sh").read_text()
