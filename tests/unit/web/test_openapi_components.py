"""The OpenAPI components made from JSON Schemas say what those schemas say.

``ArbiterEvent`` and its parts are the committed arbiter-event/1 file turned into
components (``web.openapi.json_schema_components``): checked with the components, a
document is valid exactly when the file says it is. The reshaping for code generators
(an object or null as ``anyOf``; an object written twice as one component) changes no
verdict either.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from web.openapi import json_schema_components, name_repeated_objects, split_type_lists

ROOT = Path(__file__).resolve().parents[3]
FILE = json.loads((ROOT / "docs/schemas/arbiter-event-1.schema.json").read_text("utf-8"))
SAMPLE = json.loads((ROOT / "docs/samples/arbiter-event-sample.json").read_text("utf-8"))
COMPONENTS = json_schema_components(FILE, "ArbiterEvent")


def checked_with(components: dict[str, Any], name: str) -> Draft202012Validator:
    """A validator of the component ``name``, its ``$ref``s resolved among ``components``."""
    root = {"$ref": f"#/components/schemas/{name}", "components": {"schemas": components}}
    return Draft202012Validator(root, format_checker=Draft202012Validator.FORMAT_CHECKER)


def changed(**edits: Any) -> dict:
    """The sample with ``edits`` applied: ``path=value``, the path's steps split by ``__``."""
    document = copy.deepcopy(SAMPLE)
    for path, value in edits.items():
        *steps, last = [int(s) if s.isdigit() else s for s in path.split("__")]
        target = document
        for step in steps:
            target = target[step]
        target[last] = value
    return document


DOCUMENTS = {
    "the sample": (SAMPLE, True),
    "drops null": (changed(drops=None), True),
    "drops listed": (changed(drops=[{"player": "p8", "after_round": 2}]), True),
    "drops an object": (changed(drops={"player": "p8"}), False),
    "a drop without its round": (changed(drops=[{"player": "p8"}]), False),
    "decklists null": (changed(decklists=None), True),
    "decklists a text": (changed(decklists="none"), False),
    "a whole-number player id": (changed(players__0__id=17), True),
    "a blank player id": (changed(players__0__id=" "), False),
    "a list as player id": (changed(players__0__id=["p1"]), False),
    "a drawn game": (changed(rounds__0__matches__0__games=[None, "p1", "p2"]), True),
    "a bye of two players": (changed(rounds__0__matches__0__bye=True), False),
    "a match without games": (
        changed(rounds__0__matches__0={"table": 1, "players": ["p1", "p2"]}),
        False,
    ),
    "a table of null": (changed(rounds__0__matches__0__table=None), True),
    "a top cut of six": (changed(event__top_cut=6), False),
    "another format": (changed(format="arbiter-event/2"), False),
    "a date in another order": (changed(event__date="21/11/2026"), False),
    "no players": ({k: v for k, v in SAMPLE.items() if k != "players"}, False),
}


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_the_components_judge_a_document_as_the_committed_file_does(name):
    document, valid = DOCUMENTS[name]
    file_says = Draft202012Validator(FILE, format_checker=Draft202012Validator.FORMAT_CHECKER)
    assert file_says.is_valid(document) is valid
    assert checked_with(COMPONENTS, "ArbiterEvent").is_valid(document) is valid


def test_every_definition_is_a_component_titled_with_its_name():
    assert set(COMPONENTS) == {"ArbiterEvent"} | {
        "ArbiterEvent" + "".join(p.capitalize() for p in key.split("_")) for key in FILE["$defs"]
    }
    assert all(schema["title"] == name for name, schema in COMPONENTS.items())
    assert "#/$defs/" not in json.dumps(COMPONENTS)
    assert not any("$schema" in schema or "$defs" in schema for schema in COMPONENTS.values())


SLOT = {
    "type": ["object", "null"],
    "description": "A card, or null for an empty slot.",
    "required": ["id"],
    "properties": {"id": {"type": "string", "minLength": 1}},
}


@pytest.mark.parametrize(
    ("value", "valid"),
    [(None, True), ({"id": "t1"}, True), ({}, False), ({"id": ""}, False), ("t1", False)],
)
def test_an_object_or_null_becomes_any_of_with_the_same_verdicts(value, valid):
    split = split_type_lists(SLOT)
    assert split["anyOf"][1] == {"type": "null"}
    assert split["anyOf"][0]["type"] == "object"
    assert Draft202012Validator(SLOT).is_valid(value) is valid
    assert Draft202012Validator(split).is_valid(value) is valid


def test_an_array_or_null_without_items_says_items_of_anything():
    split = split_type_lists({"type": ["array", "null"]})
    assert split == {"anyOf": [{"items": {}, "type": "array"}, {"type": "null"}]}


def test_an_object_written_twice_becomes_one_component_used_twice():
    entry = {
        "type": "object",
        "title": "Card entry",
        "required": ["name", "count"],
        "properties": {"name": {"type": "string"}, "count": {"type": "integer"}},
    }
    deck = {
        "type": "object",
        "properties": {
            "main": {"type": "array", "items": entry},
            "sideboard": {"type": "array", "items": entry},
            "alone": {"type": "object", "properties": {"x": {"type": "integer"}}},
        },
    }
    components: dict[str, Any] = {"IactaCardEntry": {"type": "string"}}  # a name taken
    [payload] = name_repeated_objects([deck], components, prefix="Iacta")
    assert set(components) == {"IactaCardEntry", "IactaCardEntry2"}
    assert components["IactaCardEntry2"] == {**entry, "title": "IactaCardEntry2"}
    reference = {"$ref": "#/components/schemas/IactaCardEntry2"}
    assert payload["properties"]["main"]["items"] == reference
    assert payload["properties"]["sideboard"]["items"] == reference
    assert payload["properties"]["alone"] == deck["properties"]["alone"]  # once: stays inline
    good = {"main": [{"name": "A", "count": 2}], "sideboard": []}
    bad = {"main": [{"name": "A"}]}
    validator = checked_with({**components, "Deck": payload}, "Deck")
    assert validator.is_valid(good) and not validator.is_valid(bad)
