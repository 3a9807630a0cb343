"""`spit-arcade variants`: the presets and house rules the cabinet plays, one line each.

    spit-arcade variants            # a table to read
    spit-arcade variants --sources  # each house rule with the rule of the sources it comes from (V4, S5)
    spit-arcade variants --json     # {"presets": {NAME: {options}}, "options": {NAME: {...}}}

A preset's object is the full set of options it plays by (what a setup line's `options` may change);
an option's object says its values, its default, the rule it sets, and the game types it applies to.
"""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

from .rules import OPTIONS, PRESETS, Options, read_options


def catalogue() -> dict[str, Any]:
    defaults = Options()
    presets = {name: read_options(name).to_json(preset.game) for name, preset in PRESETS.items()}
    options = {}
    for name, spec in OPTIONS.items():
        default = getattr(defaults, name)
        options[name] = {
            "values": spec.values,
            "default": list(default) if isinstance(default, tuple) else default,
            "explain": spec.explain,
            "rule": spec.rule,
            "games": sorted(spec.games),
        }
    return {"presets": presets, "options": options}


# a rule's code in the sources (seeds/README.md): rule 2, V1-V3, S5, TD1
SOURCE_CODE = re.compile(r",? *\b(?:rule \d+|(?:TD|V|S)\d+(?:-(?:TD|V|S)?\d+)?)\b")


def without_codes(text: str) -> str:
    """`text` without the sources' codes, for a reader who has not read the sources."""
    return SOURCE_CODE.sub("", text).replace("()", "").replace(" )", ")").replace("( ", "(").strip()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="spit-arcade variants", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--sources", action="store_true",
                        help="name the rule of the sources each house rule comes from (V4, S5: seeds/README.md)")
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(catalogue()))
        return 0
    width = max(len(name) for name in [*PRESETS, *OPTIONS]) + 2
    print("Presets (a setup's \"variant\"):")
    for name, preset in PRESETS.items():
        print(f"  {name:<{width}}{preset.explain}")
    print("\nHouse rules (a setup's \"options\", on top of the preset):")
    for name, spec in OPTIONS.items():
        games = "" if spec.games == frozenset({"spit"}) else f" [{', '.join(sorted(spec.games))}]"
        if args.sources:
            print(f"  {name:<{width}}{spec.explain} ({spec.rule}; {spec.values}){games}")
        else:
            print(f"  {name:<{width}}{without_codes(spec.explain)} ({spec.values}){games}")
    return 0
