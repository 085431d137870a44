"""What a ruling is about, read from the rules engine's own payload and answer (pure).

A precedent is found again by the cards it names and the rules it cites, so both are
taken from the ruling as stored, not typed again by the judge: card names are wherever
the adjudication contract puts them (``{"name": ...}`` entries, the keys of a ``cards``
table, ``card`` fields, lists under ``cards``), rule numbers are the answer's
``citations``. Players' names are replaced before a ruling leaves its event.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

CARD_LIST_KEYS = {"cards", "main", "sideboard", "hand", "board", "gems"}


def cards_named(payload: Any) -> list[str]:
    """Every card name in a payload, once each, in the order met."""
    found: list[str] = []

    def add(value: Any) -> None:
        if isinstance(value, str) and value.strip() and value not in found:
            found.append(value.strip())

    def walk(value: Any, key: str | None) -> None:
        if isinstance(value, dict):
            if key in CARD_LIST_KEYS and all(isinstance(v, dict) for v in value.values()):
                for name in value:  # a card table: {"Card A": {...}}
                    add(name)
            card_context = key in CARD_LIST_KEYS
            for inner_key, inner in value.items():
                if inner_key == "card" or (inner_key == "name" and card_context):
                    add(inner)
                walk(inner, inner_key)
        elif isinstance(value, list):
            for item in value:
                if key in CARD_LIST_KEYS and isinstance(item, str):
                    add(item)
                walk(item, key)

    walk(payload, None)
    return found


def rules_cited(answer: Any) -> list[str]:
    """The rule numbers or section names the engine's answer rests on."""
    citations = answer.get("citations", []) if isinstance(answer, dict) else []
    out: list[str] = []
    for citation in citations if isinstance(citations, list) else []:
        if isinstance(citation, str) and citation.strip() and citation not in out:
            out.append(citation.strip())
    return out


class Anonymiser:
    """Replaces each player's name by "Player A", "Player B"... in the order they are met,
    the same letter for the same player throughout one ruling."""

    def __init__(self, names: Iterable[str]) -> None:
        unique = sorted({n.strip() for n in names if n and len(n.strip()) >= 2}, key=len)
        self.pattern = (
            re.compile(
                r"(?<!\w)(" + "|".join(re.escape(n) for n in reversed(unique)) + r")(?!\w)",
                re.IGNORECASE,
            )
            if unique
            else None
        )
        self.letters: dict[str, str] = {}

    def text(self, value: str) -> str:
        if self.pattern is None or not value:
            return value
        return self.pattern.sub(self._letter, value)

    def value(self, value: Any) -> Any:
        """A JSON value with names replaced in every string (keys included)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            return {self.text(k): self.value(v) for k, v in value.items()}
        return value

    def _letter(self, match: re.Match) -> str:
        key = match.group(0).casefold()
        if key not in self.letters:
            self.letters[key] = _letter_name(len(self.letters))
        return self.letters[key]


def _letter_name(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"Player {letters}"
