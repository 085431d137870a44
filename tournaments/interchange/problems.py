"""What is wrong with a file, where, in words a person fixing it by hand can act on.

Schema errors and the importer's own rules both end up here as *findings*: a location
(the keys and list indices from the document's root) and a message. They are listed in
the order they appear in the file, so a long report reads top to bottom.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MAX_REPORTED_PROBLEMS = 500

Where = tuple[str | int, ...]
Finding = tuple[Where, str]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, and where: ``path`` is e.g. ``rounds[0].matches[3]``."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class InterchangeError(Exception):
    """Every problem found in a file, so that it can be fixed in one pass."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def path_text(where: Where, indices: bool = True) -> str:
    """``("rounds", 0, "matches")`` as ``rounds[0].matches`` (``rounds[].matches`` without
    indices, the shape the messages for one place in every round are keyed by)."""
    text = ""
    for step in where:
        if isinstance(step, int):
            text += f"[{step}]" if indices else "[]"
        else:
            text += f".{step}" if text else step
    return text


def show(value: Any) -> str:
    """A value as it looks in the file, cut short if long (lists and objects are named)."""
    if isinstance(value, list | dict):
        return describe(value)
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "…"


def describe(value: Any) -> str:
    """What kind of value this is, for "must be X, not <this>"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {show(value)}"
    if isinstance(value, str):
        return f"the text {show(value)}"
    if isinstance(value, list):
        return "a list"
    return "an object"


def raise_if_any(document: Any, findings: list[Finding]) -> None:
    """InterchangeError with every finding in file order (the first few hundred: a broken
    huge file stays readable), or nothing when there are none."""
    if not findings:
        return
    unique = sorted(set(findings), key=lambda found: (_position(document, found[0]), found[1]))
    problems = [Problem(path_text(where), message) for where, message in unique]
    if len(problems) > MAX_REPORTED_PROBLEMS:
        more = len(problems) - MAX_REPORTED_PROBLEMS
        problems = [*problems[:MAX_REPORTED_PROBLEMS], Problem("", f"… and {more} more problems")]
    raise InterchangeError(problems)


def _position(document: Any, where: Where) -> tuple[tuple[int, str], ...]:
    """Where ``where`` is in the file: keys in the order the file has them (a missing key
    after the present ones, by name), list items by index."""
    node = document
    position = []
    for step in where:
        if isinstance(node, dict):
            keys = list(node)
            position.append((keys.index(step) if step in node else len(keys), str(step)))
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            position.append((step, ""))
            node = node[step]
        else:
            position.append((step if isinstance(step, int) else 0, str(step)))
            node = None
    return tuple(position)
