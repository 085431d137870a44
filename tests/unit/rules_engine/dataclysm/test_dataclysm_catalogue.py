"""Dataclysm's questions as a whole: the contract's slugs, renderable schemas, examples,
and citations that each stand for sentences of the rules text."""

import copy
import pathlib
import re

import pytest

from rules_engine import adjudicate, questions
from rules_engine.dataclysm import refs

RULES = pathlib.Path(__file__).resolve().parents[4] / "rules_engine/texts/dataclysm-rules.txt"
CONTRACT = {"deck-legality", "attack-step", "curse", "play-limit", "game-result", "selection-order"}


def test_every_contract_question_is_registered():
    assert {q.slug for q in questions("dataclysm")} == CONTRACT


def schema_problems(node, where="(payload)"):
    problems = []
    if "default" in node:
        problems.append(f"{where}: has a default")
    if node.get("additionalProperties") is False:
        problems.append(f"{where}: forbids extra keys")
    types = node.get("type", [])
    types = [types] if isinstance(types, str) else types
    if "array" in types and "maxItems" not in node:
        problems.append(f"{where}: unbounded array")
    if "integer" in types and not {"minimum", "maximum"} <= node.keys():
        problems.append(f"{where}: unbounded number")
    if "string" in types and "maxLength" not in node:
        problems.append(f"{where}: unbounded string")
    children = [(f"{where}.{k}", v) for k, v in node.get("properties", {}).items()]
    if isinstance(node.get("items"), dict):
        children.append((f"{where}[]", node["items"]))
    for path, child in children:
        if not {"title", "description"} <= child.keys():
            problems.append(f"{path}: needs title and description")
        problems += schema_problems(child, path)
    return problems


@pytest.mark.parametrize("q", questions("dataclysm"), ids=lambda q: q.slug)
def test_schema_is_renderable_and_bounded(q):
    assert schema_problems(q.schema) == []


@pytest.mark.parametrize("q", questions("dataclysm"), ids=lambda q: q.slug)
def test_example_validates_answers_and_is_not_mutated(q):
    payload = copy.deepcopy(q.example)
    result = adjudicate("dataclysm", q.slug, payload)
    assert payload == q.example
    assert result["explanation"] and result["citations"]
    assert set(result["citations"]) <= set(refs.SENTENCES)
    for v in result.get("violations", []):
        assert set(v) == {"rule", "message"} and v["rule"] in refs.SENTENCES


def test_every_citation_is_dataclysm_topic_with_sentences():
    constants = {v for k, v in vars(refs).items() if k.isupper() and isinstance(v, str)}
    assert constants == set(refs.SENTENCES)
    assert all(c.startswith("Dataclysm: ") and refs.SENTENCES[c] for c in constants)


def test_every_cited_sentence_is_in_the_rules_text():
    text = re.sub(r"\s+", " ", RULES.read_text())
    missing = [s for group in refs.SENTENCES.values() for s in group if s not in text]
    assert missing == []
