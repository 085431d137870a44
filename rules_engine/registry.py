"""The registry of games and questions, payload validation and ``adjudicate``.

Schemas are checked twice over on purpose: a compiled ``fastjsonschema``
validator answers the common (valid) case in microseconds, and only a payload
that fails it is walked by ``jsonschema`` to list every problem with its field.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator

from rules_engine.errors import PayloadError, UnknownGame, UnknownQuestion

GAMES: tuple[str, ...] = ("iacta", "superjack", "dataclysm")

Answer = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Question:
    """One answerable question: its contract slug, payload schema and answer function."""

    game: str
    slug: str
    title: str
    summary: str
    schema: dict[str, Any]
    answer: Answer
    example: dict[str, Any]
    _fast: Callable[[Any], Any] = field(repr=False, compare=False, default=None)
    _full: Draft202012Validator = field(repr=False, compare=False, default=None)

    def validate(self, payload: Any) -> None:
        """Raise PayloadError listing every schema problem of ``payload``."""
        try:
            self._fast(payload)
        except fastjsonschema.JsonSchemaException:
            errors = sorted(self._full.iter_errors(payload), key=lambda e: list(e.absolute_path))
            described = [item for e in errors for item in _describe(e)]
            # jsonschema repeats a "required" error once per missing key: keep each once.
            unique = {(d["field"], d["message"]): d for d in described}
            raise PayloadError(list(unique.values())) from None

    def describe(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "question": self.slug,
            "title": self.title,
            "summary": self.summary,
            "schema": self.schema,
            "example": self.example,
        }


_REGISTRY: dict[str, dict[str, Question]] = {game: {} for game in GAMES}
_LOADED: set[str] = set()


def question(
    game: str, slug: str, *, title: str, summary: str, schema: dict[str, Any], example: dict
) -> Callable[[Answer], Answer]:
    """Register the decorated pure function as the answer to ``game``/``slug``."""
    if game not in _REGISTRY:
        raise ValueError(f"unknown game {game!r}")
    full_schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
    Draft202012Validator.check_schema(full_schema)

    def register(answer: Answer) -> Answer:
        _REGISTRY[game][slug] = Question(
            game=game,
            slug=slug,
            title=title,
            summary=summary,
            schema=full_schema,
            answer=answer,
            example=example,
            _fast=fastjsonschema.compile(full_schema),
            _full=Draft202012Validator(full_schema),
        )
        return answer

    return register


def _load(game: str) -> dict[str, Question]:
    if game not in _REGISTRY:
        raise UnknownGame(game)
    if game not in _LOADED:
        importlib.import_module(f"rules_engine.{game}")
        _LOADED.add(game)
    return _REGISTRY[game]


def get_question(game: str, slug: str) -> Question:
    """The registered question, or UnknownGame / UnknownQuestion."""
    found = _load(game).get(slug)
    if found is None:
        raise UnknownQuestion(f"{game}/{slug}")
    return found


def questions(game: str) -> list[Question]:
    return list(_load(game).values())


def catalogue() -> dict[str, Any]:
    """Every game with its questions and schemas, as ``GET /api/v1/rules/`` serves it."""
    return {
        "games": [
            {"game": game, "questions": [q.describe() for q in questions(game)]} for game in GAMES
        ]
    }


def check_payload(game: str, question: str, payload: Any) -> None:
    """Refuse a payload that does not fit the question, before a caller enriches it.

    The web layer adds the card database to a payload; checking first means a bad
    payload never reaches the database. Raises as :func:`adjudicate` does.
    """
    get_question(game, question).validate(payload)


def adjudicate(game: str, question: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Answer ``question`` of ``game`` for ``payload``; every ruling goes through here.

    Raises UnknownGame/UnknownQuestion for a bad address and PayloadError for a
    payload that does not fit, with every problem listed.
    """
    asked = get_question(game, question)
    asked.validate(payload)
    return asked.answer(payload)


def _describe(error: Any) -> list[dict[str, str]]:
    path = list(error.absolute_path)
    if error.validator == "required":
        # jsonschema reports missing keys at their parent; name each key itself.
        missing = [key for key in error.validator_value if key not in error.instance]
        return [
            {"field": _field_path([*path, key]), "message": "This field is required."}
            for key in missing
        ]
    return [{"field": _field_path(path), "message": error.message}]


def _field_path(path: Any) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(payload)"
