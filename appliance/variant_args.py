"""A command's `--variant NAME --options JSON`, read and checked as a setup line is: for `simulate`
and the benchmarks alike."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .rules import OptionError, read_options


def variant_options(parser: argparse.ArgumentParser, variant: str, text: str | None) -> dict[str, Any]:
    """A command's `--variant NAME --options JSON`, checked as a setup line is: the options given
    (a dict, {} for none); anything the core would refuse is a usage error naming it (exit 2)."""
    options: Any = {}
    if text is not None:
        try:
            options = json.loads(text)
        except json.JSONDecodeError as error:
            parser.error(f"--options is not JSON: {error}")
        except RecursionError:
            parser.error("--options is nested too deeply to read (house rules are one level: {\"decks\": 2})")
        except ValueError as error:  # an integer of more digits than Python converts
            parser.error(f"--options is not JSON this program reads: {error}")
        if not isinstance(options, dict):
            parser.error("--options must be a JSON object of option names and values, e.g. '{\"decks\": 2}'")
    try:
        read_options(variant, options)
    except OptionError as error:
        parser.error(str(error))
    return dict(options)
