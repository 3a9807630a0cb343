"""The package's layers, read from the source (every module's ast, imports inside functions too):
nothing outside appliance/display/ imports the screen but the command line that starts it; the
shared services (appliance/shared/) import nothing above them; the settings, the configuration
checks, the inputs and the files they write are on no import cycle, nor is any other module; the
tests' harness is not in the product, nor is the lab (lab/), which the game never imports."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "appliance"

# The command line that starts the screen: `play` and `replay --show` (cli.py). (The lab's `bench
# render` and the virtual cabinet's screen check start it too; they are not in the package.)
STARTS_THE_SCREEN = {"appliance.cli"}
# What the shared services may import besides the standard library and themselves.
BELOW_SHARED = {"appliance.rules"}
# pygame: key names, checked lazily (bindings.known_key); tomlkit: config.toml changed in place (config_file.py)
THIRD_PARTY_FOR_SHARED = {"pygame", "tomlkit"}


TARGET = re.compile(r"(appliance|lab)(\.\w+)+:\w+")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> set[str]:
    """Every module `name` imports, anywhere in it (resolved: relative imports made absolute, a
    `from package import module` counted as the module), and every module named in a string
    constant as importlib's target ("appliance.display.app:main", as in cli.py's table)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:  # `from . import protocol`: the module, not its package's __init__
                module = f"{target}.{alias.name}"
                found.add(module if module in MODULES else target)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and TARGET.fullmatch(node.value):
            found.add(node.value.partition(":")[0])
    return found


def inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_walk_finds_the_screen_where_it_is_imported() -> None:
    # the reading can fail: cli.py names the screen's modules in strings and imports them by name
    assert "appliance.display.app" in imports("appliance.cli")
    assert "appliance.display.replay_show" in imports("appliance.cli")
    assert "appliance.shared.files" in imports("appliance.credits")
    assert "appliance.shared.checks" in imports("appliance.shared.settings")  # a relative import, resolved


@pytest.mark.parametrize("name", [n for n in MODULES if not inside(n, "appliance.display")])
def test_nothing_outside_the_display_imports_it(name: str) -> None:
    if name in STARTS_THE_SCREEN:
        return
    screen = sorted(target for target in imports(name) if inside(target, "appliance.display"))
    assert screen == [], f"{name} imports the screen: {screen}"


@pytest.mark.parametrize("name", list(MODULES))
def test_the_game_never_imports_the_lab(name: str) -> None:
    # the cabinet's wheel has no lab: cli.py alone looks the lab's command table up, by name, where
    # it is found beside the package (tests/test_packaging.py runs the wheel without it)
    lab = sorted(target for target in imports(name) if inside(target, "lab"))
    assert lab == [], f"{name} imports the lab: {lab}"


@pytest.mark.parametrize("name", [n for n in MODULES if inside(n, "appliance.shared")])
def test_the_shared_services_import_nothing_above_them(name: str) -> None:
    above = []
    for target in imports(name):
        top = target.partition(".")[0]
        if inside(target, "appliance.shared") or any(inside(target, below) for below in BELOW_SHARED):
            continue
        if top == "appliance" or (top not in sys.stdlib_module_names and top not in THIRD_PARTY_FOR_SHARED):
            above.append(target)
    assert above == [], f"{name} imports {sorted(above)}"


def import_graph() -> dict[str, set[str]]:
    return {name: {t for t in imports(name) if t in MODULES and t != name} for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The cycles of a graph of imports (strongly connected components of two or more modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for name in graph:
        if name not in index:
            visit(name)
    return found


def test_settings_checks_inputs_and_their_files_are_on_no_import_cycle() -> None:
    kept_apart = ("appliance.shared", "appliance.check_config", "appliance.inputs", "appliance.credits",
                  "appliance.audits", "appliance.high_scores", "appliance.journal", "appliance.scripting",
                  "appliance.cli")  # fmt: skip
    on_cycles = sorted(n for c in cycles(import_graph()) for n in c if any(inside(n, k) for k in kept_apart))
    assert on_cycles == []


def test_no_module_of_the_package_is_on_an_import_cycle() -> None:
    # anywhere in appliance/, imports inside functions and for type checking counted: a module that
    # needs a piece of one it is needed by takes it from a small module of their own (display/seats.py
    # for layout.py and round_table.py, bots/levels.py for bots/ and bots/demo.py)
    assert sorted(sorted(c) for c in cycles(import_graph())) == []


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": set()}
    assert sorted(map(sorted, cycles(graph))) == [["a", "b", "c"], ["d", "e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_screen_harness_for_tests_is_beside_the_tests() -> None:
    assert not (PACKAGE / "display" / "headless.py").exists()
    assert (ROOT / "tests" / "headless.py").exists()
    users = [name for name in MODULES if any(t.endswith("headless") for t in imports(name))]
    assert users == []


def test_one_rewriter_of_the_settings_file() -> None:
    # the atomic writer is used by the state files and, for config.toml, by config_file.py alone
    writers = sorted(name for name in MODULES if "appliance.shared.files" in imports(name))
    assert writers == ["appliance.credits", "appliance.high_scores",
                       "appliance.shared.config_file"]  # fmt: skip
    # config_file.py reads the file for the settings and changes it for the operator layer (the menus'
    # adjustments, kept in the books too), the settings command and the image's boot-time link setup (a
    # spit-link.toml's [link], kept in the books as the command's are); the screen never writes it
    settings_writers = sorted(name for name in MODULES if "appliance.shared.config_file" in imports(name))
    assert settings_writers == ["appliance.linked.setup", "appliance.operator.office", "appliance.settings_cli",
                                "appliance.shared.settings"]


def scene_modules() -> set[str]:
    """The modules of the registered scenes (scenes/base.py's SCENES, read from its source: "title":
    "title:TitleScene"); the other modules under scenes/ are pieces they share (initials.py, ending.py)."""
    source = (PACKAGE / "display" / "scenes" / "base.py").read_text(encoding="utf-8")
    registry = source[source.index("SCENES: dict") :]
    registry = registry[: registry.index("}")]
    return {f"appliance.display.scenes.{m}" for m in re.findall(r'": "(\w+):\w+"', registry)}


# A scene that is another scene with more to it: the guided first game is the play scene with a guide.
SCENE_ON_SCENE = {("appliance.display.scenes.learn", "appliance.display.scenes.play")}


def test_no_module_imports_a_scene_but_to_be_one_more_of_it() -> None:
    # a scene is made by its name (`make("title", ctx)`); a piece two scenes share lives in a module
    # of its own (initials.py: the sprints' table; base.py: the start's notices), not in either scene
    scenes = scene_modules()
    assert {"appliance.display.scenes.title", "appliance.display.scenes.running_scores"} <= scenes
    assert "appliance.display.scenes.initials" not in scenes
    found = {(name, target) for name in MODULES for target in imports(name) & scenes if target != name}
    assert found == SCENE_ON_SCENE
