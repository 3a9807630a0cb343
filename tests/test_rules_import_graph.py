"""appliance/rules/ has no import cycle (counting imports made only for type checking): the rules are
typed against the `Engine` protocol (engine.py), never against `Game`, and the engine imports them."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "appliance" / "rules"


def imports() -> dict[str, set[str]]:
    """Each module of the package -> the modules of the package it imports (`from .x import ...`)."""
    modules = {path.stem for path in RULES.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in RULES.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        graph[path.stem] = found & modules
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (as a path), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module):], module]
        if module in done:
            return None
        path.append(module)
        for other in sorted(graph[module]):
            found = visit(other)
            if found:
                return found
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module)
        if found:
            return found
    return None


def test_the_rules_package_has_no_import_cycle() -> None:
    assert cycle(imports()) is None


def test_the_cycle_finder_can_fail() -> None:
    assert cycle({"game": {"ruleset"}, "ruleset": {"choosing"}, "choosing": {"game"}}) == [
        "choosing", "game", "ruleset", "choosing"]
    assert cycle({"a": {"b"}, "b": set()}) is None
