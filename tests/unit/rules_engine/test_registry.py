"""The engine's machinery: registry, validation errors with fields, purity."""

import ast
import pathlib

import pytest

import rules_engine
from rules_engine import PayloadError, UnknownGame, UnknownQuestion, adjudicate
from rules_engine.registry import question

ENGINE = pathlib.Path(rules_engine.__file__).parent
FRAMEWORKS = {"django", "rest_framework", "celery"}


def test_rules_engine_never_imports_django():
    """design.md: the engine is pure so tools and benchmarks can use it alone."""
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path}: {n}" for n in names if n.split(".")[0] in FRAMEWORKS]
    assert offenders == []


def test_unknown_game_and_question_raise_lookup_errors():
    with pytest.raises(UnknownGame):
        adjudicate("chess", "anything", {})
    with pytest.raises(UnknownQuestion):
        adjudicate("iacta", "no-such-question", {})


@pytest.fixture
def echo_question():
    """A throwaway question, removed again so the real catalogue stays clean."""
    from rules_engine.registry import _REGISTRY

    question(
        "iacta",
        "_test-echo",
        title="test only",
        summary="registered by the registry test",
        schema={
            "type": "object",
            "required": ["dice", "mode"],
            "properties": {
                "dice": {"type": "array", "items": {"type": "integer", "minimum": 1}},
                "mode": {"enum": ["a", "b"]},
            },
        },
        example={"dice": [1], "mode": "a"},
    )(lambda payload: {"ok": True})
    yield
    _REGISTRY["iacta"].pop("_test-echo")


def test_payload_error_lists_every_problem_with_its_field(echo_question):
    with pytest.raises(PayloadError) as caught:
        adjudicate("iacta", "_test-echo", {"dice": [1, 0, "x"]})
    fields = {e["field"] for e in caught.value.errors}
    assert fields == {"dice[1]", "dice[2]", "mode"}


def test_valid_payload_reaches_the_answer(echo_question):
    assert adjudicate("iacta", "_test-echo", {"dice": [2], "mode": "b"}) == {"ok": True}
