"""The Iacta catalogue: every contract question, form-ready schemas, valid citations."""

import pathlib
import re

import pytest

import rules_engine.iacta as iacta_package
from rules_engine import adjudicate, questions
from rules_engine.iacta import data as game_data
from rules_engine.iacta.common import QUICKSTART_HEADINGS
from rules_engine.iacta.scoring import flush_score

CONTRACT_SLUGS = {
    "flush-score",
    "pay-cost",
    "iacta-check",
    "turn-action",
    "maintenance",
    "modified-value",
    "era-order",
    "cash-out",
    "deck-legality",
    "sideboard-swap",
    "search-time",
    "penalties",
}
ROOT = pathlib.Path(__file__).resolve().parents[4]
RULES = ROOT / "rules_engine" / "texts"  # the copies that ship with the site
PACKAGE = pathlib.Path(iacta_package.__file__).parent


def iacta_questions():
    return [q for q in questions("iacta") if not q.slug.startswith("_")]


def test_every_contract_question_is_registered():
    """Contract: the twelve Iacta question slugs, no more, no fewer."""
    assert {q.slug for q in iacta_questions()} == CONTRACT_SLUGS


def walk(schema, path="(payload)"):
    """Yield (path, subschema) for every schema node."""
    yield path, schema
    for name, sub in schema.get("properties", {}).items():
        yield from walk(sub, f"{path}.{name}")
    if isinstance(schema.get("items"), dict):
        yield from walk(schema["items"], f"{path}[]")
    if isinstance(schema.get("additionalProperties"), dict):
        yield from walk(schema["additionalProperties"], f"{path}.*")


@pytest.mark.parametrize("slug", sorted(CONTRACT_SLUGS))
def test_schema_is_form_ready_and_bounded(slug):
    """Titles and descriptions everywhere, no defaults, every list and number bounded."""
    (asked,) = [q for q in iacta_questions() if q.slug == slug]
    problems = []
    for path, node in walk(asked.schema):
        if "default" in node:
            problems.append(f"{path}: default")
        if not node.get("title") or not node.get("description"):
            problems.append(f"{path}: title/description")
        kinds = node.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "array" in kinds and "maxItems" not in node:
            problems.append(f"{path}: maxItems")
        if ("integer" in kinds or "number" in kinds) and not {"minimum", "maximum"} <= set(node):
            problems.append(f"{path}: minimum/maximum")
        if "string" in kinds and "enum" not in node and "maxLength" not in node:
            problems.append(f"{path}: maxLength")
        if "object" in kinds and "additionalProperties" in node:
            if node["additionalProperties"] is False:
                problems.append(f"{path}: additionalProperties false")
            elif "maxProperties" not in node:
                problems.append(f"{path}: maxProperties")
    assert problems == []


@pytest.mark.parametrize("slug", sorted(CONTRACT_SLUGS))
def test_example_answers_with_citations_and_explanation(slug):
    """Contract: every ruling has citations and an explanation; violations are {rule, message}."""
    (asked,) = [q for q in iacta_questions() if q.slug == slug]
    first = adjudicate("iacta", slug, asked.example)
    assert first == adjudicate("iacta", slug, asked.example)  # deterministic
    assert isinstance(first["explanation"], str) and first["explanation"]
    assert first["citations"] and all(isinstance(c, str) for c in first["citations"])
    for item in first.get("violations", []):
        assert set(item) == {"rule", "message"}


def test_extra_keys_are_allowed():
    """Contract: extra payload keys are fine (no additionalProperties: false)."""
    assert adjudicate("iacta", "flush-score", {"dice": [1], "note": "table 4"})["score"] == 1


# --- citations exist in the rules texts -------------------------------------------------


def rule_numbers():
    text = (RULES / "iacta-comprehensive-rules.txt").read_text(encoding="utf-8")
    return set(re.findall(r"^(\d{3}(?:\.\d+[a-z]?)?)\.? ", text, flags=re.MULTILINE))


def quickstart_lines():
    text = (RULES / "iacta-quickstart.txt").read_text(encoding="utf-8")
    return {line.strip() for line in text.splitlines()}


def valid_citation(citation, numbers, headings):
    if citation.startswith("Quick-start: "):
        return citation.removeprefix("Quick-start: ") in headings
    return citation in numbers


def test_every_quickstart_heading_is_a_line_of_the_quickstart():
    """Quick-start citations name headings exactly as iacta-quickstart.txt prints them."""
    assert set(QUICKSTART_HEADINGS) <= quickstart_lines()


def test_every_rule_number_in_the_source_exists():
    """Every "NNN.N" string in the Iacta engine names a rule of the comprehensive rules."""
    numbers = rule_numbers()
    cited = set()
    for path in PACKAGE.glob("*.py"):
        cited |= set(re.findall(r"[\"'(](\d{3}\.\d+[a-z]?)[\"')]", path.read_text()))
    assert cited, "expected rule numbers in the source"
    assert cited - numbers == set()


@pytest.mark.parametrize("slug", sorted(CONTRACT_SLUGS))
def test_example_citations_exist(slug):
    """Every citation of every example is a real rule number or quick-start heading."""
    numbers, headings = rule_numbers(), quickstart_lines()
    (asked,) = [q for q in iacta_questions() if q.slug == slug]
    answer = adjudicate("iacta", slug, asked.example)
    cited = answer["citations"] + [v["rule"] for v in answer.get("violations", [])]
    assert [c for c in cited if not valid_citation(c, numbers, headings)] == []


# --- game data ---------------------------------------------------------------------------


def test_game_data_matches_the_rules_texts():
    """data.toml: Scoring Combinations bonuses, 201.1/202.3/902.1 deck numbers, Phase 1 numbers."""
    d = game_data.DATA
    assert {c.slug: c.bonus for c in d.combos} == {
        "minor_run": 5,
        "major_run": 10,
        "deep_run": 18,
        "sigil": 40,
        "trio": 5,
        "quad": 12,
        "quint": 22,
        "hexa": 40,
        "full_house": 15,
        "dual_trio": 25,
        "three_pair": 20,
    }
    assert (d.deck_min, d.deck_max, d.max_copies, d.cards_per_splash, d.sideboard_max) == (
        40,
        60,
        4,
        5,
        10,
    )
    assert (d.draw, d.hand_limit, d.reserve_limit) == (2, 5, 3)


def test_an_organiser_copy_of_the_game_data_is_used(tmp_path):
    """design.md: game data is a file an organiser can revise."""
    text = game_data.DEFAULT_PATH.read_text().replace("bonus = 15", "bonus = 16")
    copy = tmp_path / "iacta.toml"
    copy.write_text(text)
    revised = game_data.load(copy)
    assert flush_score([4, 4, 4, 2, 2], data=revised)["bonus"] == 16
    assert flush_score([4, 4, 4, 2, 2])["bonus"] == 15


def test_pure_functions_are_usable_directly():
    """design.md: plain data in and out, without adjudicate or Django."""
    from rules_engine.iacta.costs import find_assignment
    from rules_engine.iacta.deck import deck_legality
    from rules_engine.iacta.era import era_order
    from rules_engine.iacta.scoring import cash_out, iacta_check
    from rules_engine.iacta.tournament import escalate, max_search_warnings
    from rules_engine.iacta.turn import maintenance, turn_action
    from rules_engine.iacta.values import modified_value

    assert find_assignment(["ODD", "5"], [5, 3]) == [
        {"cost": "ODD", "die": 3},
        {"cost": "5", "die": 5},
    ]
    assert max_search_warnings(121, judged=True) == 2
    consequences, tallies = escalate([{"player": "A", "infraction": "assault", "game": 1}])
    assert consequences[0]["result"] == "disqualification" and tallies["A"]["disqualified"]
    assert maintenance(4, 1, 5, False)["return_to_supply"] == 2
    assert turn_action(["roll"], "roll", False)["legal"] is False
    assert modified_value("die", 3, [{"op": "add", "value": -9, "order": 1}])["value"] == 1
    assert era_order(["A"], "A", [{"id": "x", "player": "A"}], [])["occurs"] == ["x"]
    assert iacta_check([[], [], []])["iacta"] is False
    assert cash_out([{"id": "A", "banked": 3, "registers": [[], [], []]}])["winner"] == "A"
    assert deck_legality([{"name": "X", "count": 40}], [])["legal"] is False
