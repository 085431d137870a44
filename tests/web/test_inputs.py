"""The request-input reader and the one ServiceError: pure, no database."""

import pytest

from web.errors import ServiceError
from web.inputs import MAX_ID, Reader, whole_number


def refused(read) -> list[dict]:
    """The field errors the reader raises once ``read`` has read its fields."""
    with pytest.raises(ServiceError) as caught:
        read()
    return caught.value.errors


# --- ServiceError ---------------------------------------------------------------------


def test_a_refusal_without_fields_is_one_error_for_the_whole_request():
    error = ServiceError("Registration is closed.")
    assert error.errors == [{"field": None, "message": "Registration is closed."}]
    assert str(error) == "Registration is closed." and error.field is None


def test_a_refusal_naming_its_field_lists_it():
    error = ServiceError("Write the question.", "question")
    assert error.errors == [{"field": "question", "message": "Write the question."}]
    assert error.fields == ["question"]


def test_a_refusal_with_several_problems_keeps_them_all_and_its_message():
    problems = [{"field": "text", "message": "Line 2: no card"}, {"field": "text", "message": "x"}]
    error = ServiceError("Not legal yet.", "text", errors=problems)
    assert error.errors == problems and str(error) == "Not legal yet."


def test_of_joins_the_messages_and_names_a_single_field():
    several = ServiceError.of([{"field": "a", "message": "A."}, {"field": "b", "message": "B."}])
    assert str(several) == "A. B." and several.field is None and several.fields == ["a", "b"]
    assert ServiceError.of([{"field": "a", "message": "A."}]).field == "a"
    with pytest.raises(ValueError):
        ServiceError.of([])


# --- several wrong fields: several errors, each naming its field ------------------------


def test_every_wrong_field_is_reported_at_once():
    fields = Reader(
        {
            "player": "²",
            "table": 0,
            "notes": 5,
            "question": "x" * 11,
            "urgent": "maybe",
            "action": "dance",
        }
    )
    fields.id("player")
    fields.integer("table", minimum=1, maximum=99)
    fields.text("notes")
    fields.text("question", max_length=10)
    fields.boolean("urgent")
    fields.choice("action", ("check_in", "pin"))
    fields.integer("game")
    errors = refused(fields.check)
    assert [e["field"] for e in errors] == [
        "player",
        "table",
        "notes",
        "question",
        "urgent",
        "action",
        "game",
    ]
    messages = {e["field"]: e["message"] for e in errors}
    assert messages == {
        "player": "player must be an id (a whole number from 1).",
        "table": "table must be from 1 to 99.",
        "notes": "notes must be text.",
        "question": "question is 11 characters long; keep it to 10.",
        "urgent": "urgent must be true or false.",
        "action": "action must be check_in or pin.",
        "game": "game is required.",
    }


def test_check_passes_when_nothing_is_wrong():
    fields = Reader({"player": "12", "table": 3, "notes": "ok", "urgent": "on"})
    values = (
        fields.id("player"),
        fields.integer("table", minimum=1),
        fields.text("notes"),
        fields.boolean("urgent"),
    )
    fields.check()
    assert values == (12, 3, "ok", True)


def test_a_body_that_is_not_an_object_is_refused_whole():
    assert refused(lambda: Reader(["player", 1])) == [
        {"field": None, "message": "Send the fields as a JSON object."}
    ]


# --- ids --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value", ["²", "\u0661", "\uff11", "1.5", 1.5, "0", 0, -3, "-3", True, [1], {"id": 1}, "1e3"]
)
def test_an_id_is_ascii_digits_naming_a_positive_number(value):
    fields = Reader({"registration": value})
    assert fields.id("registration") is None
    assert [e["field"] for e in refused(fields.check)] == ["registration"]


@pytest.mark.parametrize(("value", "expected"), [(7, 7), ("7", 7), (" 42 ", 42), (MAX_ID, MAX_ID)])
def test_ids_that_are_read(value, expected):
    fields = Reader({"registration": value})
    assert fields.id("registration") == expected
    fields.check()


def test_an_id_past_the_column_ceiling_or_with_too_many_digits_is_refused():
    for value in (MAX_ID + 1, "9" * 30, "9" * 5000):
        fields = Reader({"match": value})
        assert fields.id("match") is None
        assert refused(fields.check)[0]["field"] == "match"


def test_a_missing_optional_id_is_none_and_no_error():
    fields = Reader({"match": None, "table": ""})
    assert fields.id("match", required=False) is None
    assert fields.integer("table", required=False) is None
    fields.check()


def test_a_worded_message_replaces_the_readers_for_missing_and_wrong_values():
    fields = Reader({"second": "x"})
    fields.id("first", message="Give two ids.")
    fields.id("second", message="Give two ids.")
    assert refused(fields.check) == [
        {"field": "first", "message": "Give two ids."},
        {"field": "second", "message": "Give two ids."},
    ]


def test_a_list_of_ids():
    assert Reader({"registrations": [1, "2"]}).ids("registrations") == [1, 2]
    for bad in ([1, "²"], [True], "1,2", None, [0]):
        fields = Reader({"registrations": bad})
        assert fields.ids("registrations") is None
        assert refused(fields.check)[0]["field"] == "registrations"


class Rows:
    """Enough of a queryset for ``Reader.row``: ``filter(pk=...).first()``."""

    def __init__(self, *pks: int):
        self.pks, self.asked = set(pks), []

    def filter(self, pk: int):
        self.asked.append(pk)
        return self

    def first(self):
        return self.asked[-1] if self.asked[-1] in self.pks else None


def test_a_row_is_found_among_the_rows_given_only():
    rows = Rows(5)
    fields = Reader({"player": "5", "match": 6, "judge": MAX_ID + 1})
    assert fields.row("player", rows) == 5
    assert fields.row("match", rows, missing="This event has no {field} {id}.") is None
    assert fields.row("judge", rows) is None
    assert rows.asked == [5, 6]  # a number past any id is not looked up
    assert refused(fields.check) == [
        {"field": "match", "message": "This event has no match 6."},
        {"field": "judge", "message": f"There is no judge {MAX_ID + 1}."},
    ]


# --- integers, text, booleans, choices ----------------------------------------------------


@pytest.mark.parametrize(
    ("bounds", "value", "message"),
    [
        ({"minimum": 0}, -1, "minutes must be at least 0."),
        ({"maximum": 180}, 181, "minutes must be at most 180."),
        ({"minimum": 0, "maximum": 1000}, 1001, "minutes must be from 0 to 1,000."),
        ({}, "ten", "minutes must be a whole number."),
        ({}, 2.5, "minutes must be a whole number."),
    ],
)
def test_integers_with_bounds(bounds, value, message):
    fields = Reader({"minutes": value})
    assert fields.integer("minutes", **bounds) is None
    assert refused(fields.check) == [{"field": "minutes", "message": message}]


def test_negative_integers_are_read_when_allowed():
    fields = Reader({"offset": "-4"})
    assert fields.integer("offset") == -4
    fields.check()


def test_text_refuses_nul_and_blank_when_required():
    fields = Reader({"reason": "a\x00b", "resolution": "   ", "notes": None})
    assert fields.text("reason") == ""
    fields.text("resolution", required=True)
    assert fields.text("notes") == ""
    assert refused(fields.check) == [
        {"field": "reason", "message": "reason may not contain NUL characters (\\u0000)."},
        {"field": "resolution", "message": "resolution is required."},
    ]


def test_text_is_stripped_when_asked():
    assert Reader({"username": "  olive "}).text("username", strip=True) == "olive"


@pytest.mark.parametrize(
    ("value", "expected"),
    [(True, True), (False, False), ("on", True), ("no", False), ("", False), (None, False)],
)
def test_booleans(value, expected):
    fields = Reader({"submit": value})
    assert fields.boolean("submit") is expected
    fields.check()


def test_a_choice_must_be_one_of_them_and_text():
    for value in (None, "", ["pin"], "PIN"):
        fields = Reader({"action": value})
        assert fields.choice("action", ("check_in", "late_entry", "pin")) is None
        assert refused(fields.check) == [
            {"field": "action", "message": "action must be check_in, late_entry or pin."}
        ]
    assert Reader({"action": "pin"}).choice("action", ("check_in", "pin")) == "pin"


def test_an_object_field():
    fields = Reader({"ruling": {"game": "iacta"}, "other": [1]})
    assert fields.mapping("ruling") == {"game": "iacta"}
    assert fields.mapping("other") is None and fields.mapping("absent") is None
    assert refused(fields.check) == [{"field": "other", "message": "other must be an object."}]


def test_a_services_check_of_a_field_becomes_that_fields_error():
    def no_game_nine():
        raise ServiceError("Game 9 is not a game of a best-of-three match.")

    fields = Reader({})
    assert fields.checked("game", no_game_nine) is None
    assert fields.checked("player", lambda: "fine") == "fine"
    assert refused(fields.check) == [
        {"field": "game", "message": "Game 9 is not a game of a best-of-three match."}
    ]


# --- pages: whole_number ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"), [("3", 3), (" 12 ", 12), ("²", None), ("-1", None), (None, None)]
)
def test_whole_number_reads_ascii_digits_only(raw, expected):
    assert whole_number(raw) == expected


def test_the_reader_and_the_error_use_nothing_of_django():
    import subprocess
    import sys
    from pathlib import Path

    check = (
        "import sys, web.errors, web.inputs; "
        "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')]"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", check], cwd=root, check=True)
