"""How a benchmark prints its figures: one JSON object (`--json`), or a line a figure, the names
aligned (what a person reads)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def print_figures(result: Mapping[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(result))
        return
    width = max((len(key) for key in result), default=0)
    for key, value in result.items():
        print(f"{key:<{width}}  {value}")
