"""Reading a JSON file a management command was given (``-``: standard input), with a
CommandError that says what is wrong with it: the event importer and the precedent
importer read their files the same way."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import CommandError


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON: numbers must be finite")


def read_json_file(path: str, what: str) -> Any:
    """The parsed file, or CommandError saying why not; ``what`` names what it should be
    ("an event file", "a precedent set")."""
    try:
        if path == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                raw = handle.read()
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc.strerror or exc}") from None
    try:
        return json.loads(raw, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    except RecursionError:
        raise CommandError(f"{path} is nested too deeply to be {what}.") from None
    except ValueError as exc:  # not UTF-8, NaN, an integer too long to parse
        raise CommandError(f"{path} is not a usable JSON file: {exc}") from None
