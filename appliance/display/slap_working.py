"""How a table slap's verdict was worked out, in the players' words: the rule gives the steps as data
(rules' house_rule.Step: "times" 6 13 = 78, "mod" 78 7 = 1, "prime" 1: no), the screen says them
("6 × 13 = 78, 78 mod 7 = 1: not a prime")."""

from __future__ import annotations

from appliance.rules.house_rule import Step

from .i18n import _


def step_words(step: Step) -> str:
    """One step of a verdict's working (rules' `Step`) in the players' language: sums and products
    as numbers ("6 × 13 = 78", "78 mod 7 = 1"), tests in words ("not a prime")."""
    x = step.args
    sums = {"plus": "{0} + {1} = {r}", "times": "{0} × {1} = {r}", "minus": "{0} − {1} = {r}",
            "mod": "{0} mod {1} = {r}"}
    if step.op in sums:  # (a minus sign, not a hyphen: 6 − 13 = −7)
        return sums[step.op].format(*(f"{n}".replace("-", "−") for n in x), r=f"{step.result}".replace("-", "−"))
    met = bool(step.result)
    words: dict[str, tuple[str, str]] = {
        "prime": (_("a prime"), _("not a prime")),
        "equals": (_("that is {n}"), _("not {n}")),
        "odd": (_("{x} is odd"), _("{x} is not odd")),
        "even": (_("{x} is even"), _("{x} is not even")),
        "one_or": (_("1 or {n}"), _("neither 1 nor {n}")),
        "same": (_("the same"), _("not the same")),
        "divides": (_("{a} divides {b}"), _("{a} does not divide {b}")),
        "more_than": (_("more than {n}"), _("not more than {n}")),
    }
    said = words.get(step.op)
    if said is None:
        return step.op
    return said[0 if met else 1].format(x=x[0], n=x[-1], a=x[0], b=x[-1])


TESTS_OF_THE_LAST = ("prime", "equals", "one_or", "same", "more_than")  # a test of the number just worked out


def working_words(steps: tuple[Step, ...]) -> str:
    """A verdict's working in one line: "6 × 13 = 78, 78 mod 7 = 1: not a prime"."""
    out = ""
    for step in steps:
        words = step_words(step)
        if not out:
            out = words
        elif step.op in TESTS_OF_THE_LAST:
            out += f": {words}"
        else:
            out += f", {words}"
    return out
