"""The configuration files' one reader of a key with a default (`Checker.read`): every getter has its
shape, and the settings and the inputs configuration read no key with a default by themselves."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from appliance.shared.checks import Checker

ROOT = Path(__file__).resolve().parent.parent
READERS = (ROOT / "appliance" / "shared" / "settings.py", ROOT / "appliance" / "inputs" / "config.py")
VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
                   st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
GETTERS: dict[str, Any] = {
    "number": lambda c, d: c.number(d, "k", 0.5, 0.0, 1.0, "t."),
    "integer": lambda c, d: c.integer(d, "k", 3, 1, 9, "t."),
    "boolean": lambda c, d: c.boolean(d, "k", True, "t."),
    "string": lambda c, d: c.string(d, "k", "x", "t."),
    "choice": lambda c, d: c.choice(d, "k", "a", ("a", "b"), "t."),
}
DEFAULTS = {"number": 0.5, "integer": 3, "boolean": True, "string": "x", "choice": "a"}


@given(value=VALUES)
def test_every_getter_gives_the_value_or_the_default_and_one_problem_of_one_shape(value: Any) -> None:
    for name, get in GETTERS.items():
        check = Checker("f.toml")
        assert get(check, {}) == DEFAULTS[name] and check.problems == []  # absent: the default, quietly
        got = get(check, {"k": value})
        if check.problems:
            (problem,) = check.problems
            assert got == DEFAULTS[name] and problem.key == "t.k", (name, value)
            assert problem.message.startswith("must ") and ", not " in problem.message and "; using " in problem.message
        else:
            assert got == value or (name == "number" and got == float(value)), (name, value)


def test_read_takes_what_accept_reads_and_says_what_it_uses_instead() -> None:
    check = Checker("f.toml")
    level = check.read({"lvl": " 3 "}, "lvl", "2", lambda v: v.strip() if isinstance(v, str) else None, "be a level")
    assert level == "3" and check.problems == []
    assert check.read({"lvl": 7}, "lvl", "2", lambda v: None, "be a level", "x.", using="level 2") == "2"
    assert [str(p) for p in check.problems] == ["f.toml: x.lvl: must be a level, not 7; using level 2"]


def test_the_settings_and_the_inputs_read_no_key_with_a_default_by_themselves() -> None:
    for path in READERS:
        own = [node.lineno for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
               and len(node.args) == 2 and isinstance(node.args[0], ast.Constant)
               and not (isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "environ")]
        assert own == [], f"{path.name} reads a key with a default at lines {own}: use Checker.read"
