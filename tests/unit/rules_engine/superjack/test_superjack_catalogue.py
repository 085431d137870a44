"""Superjack's questions as a whole: the contract's slugs, schemas the judge console can
render, examples that validate, and citations that name real headings of the rules text."""

import copy
import pathlib
import re

import pytest

from rules_engine import adjudicate, questions
from rules_engine.superjack import refs

RULES = pathlib.Path(__file__).resolve().parents[4] / "rules_engine/texts/superjack-rules.txt"
CONTRACT = {
    "deck-legality",
    "summon",
    "straights",
    "combat",
    "stack-jacks",
    "royal-sacrifice",
    "first-player",
}
CITATIONS = {v for k, v in vars(refs).items() if k.isupper() and isinstance(v, str)}


def test_every_contract_question_is_registered():
    assert {q.slug for q in questions("superjack")} == CONTRACT


def schema_problems(node, where="(payload)"):
    """What the judge console and fastjsonschema need: titles, bounds, no defaults."""
    problems = []
    if not isinstance(node, dict):
        return problems
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
    if isinstance(node.get("additionalProperties"), dict):
        children.append((f"{where}.*", node["additionalProperties"]))
    for path, child in children:
        if not {"title", "description"} <= child.keys():
            problems.append(f"{path}: needs title and description")
        problems += schema_problems(child, path)
    return problems


@pytest.mark.parametrize("q", questions("superjack"), ids=lambda q: q.slug)
def test_schema_is_renderable_and_bounded(q):
    assert q.schema["$schema"].endswith("2020-12/schema")
    assert schema_problems(q.schema) == []


@pytest.mark.parametrize("q", questions("superjack"), ids=lambda q: q.slug)
def test_example_validates_answers_and_is_not_mutated(q):
    payload = copy.deepcopy(q.example)
    result = adjudicate("superjack", q.slug, payload)
    assert payload == q.example
    assert result["explanation"] and result["citations"]
    assert set(result["citations"]) <= CITATIONS
    for v in result.get("violations", []):
        assert set(v) == {"rule", "message"} and v["rule"] in CITATIONS


def heading_citations(text):
    """Every citation the refs scheme allows, built from the headings ("...#") of the text."""
    valid, section = set(), None
    for line in text.splitlines():
        if not line.endswith("#"):
            continue
        heading = re.sub(r"\s*\([^)]*\)$", "", line[:-1].strip())
        if m := re.match(r"(\d+)\. ([A-Z][A-Z &]+)$", heading):
            section = f"§{m[1]}"
        elif m := re.match(r"APPENDIX ([A-Z]):", heading):
            section = f"Appendix {m[1]}:"
        elif m := re.match(r"(\d+\.\d+) (.+)$", heading):
            section = f"§{m[1]}"
            valid.add(f"{section} {m[2]}")
        else:
            step = re.sub(r"^\d+\. ", "", heading)
            valid.add(f"{section} {step}")
    return valid


def test_every_citation_is_a_heading_of_the_rules_text():
    """refs docstring: § number + heading, or Appendix letter + heading."""
    valid = heading_citations(RULES.read_text())
    assert "§6.4 Royal Charge" in valid and "§4.2 Damage Resolution" in valid
    assert sorted(CITATIONS - valid) == []
