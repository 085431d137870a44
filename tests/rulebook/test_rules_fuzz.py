"""Fuzzing every rules endpoint: random and malformed JSON never gives a 500.

Two generators: whole random JSON documents, and each question's own example
with one part replaced by random JSON (which gets past the outer checks and
reaches the rules code, where crashes hide).
"""

import json

import pytest
from django.test import RequestFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook.api import rule_on
from rules_engine import GAMES, questions

QUESTIONS = [q for game in GAMES for q in questions(game)]

# deck-legality without "cards" reads the card database.
pytestmark = pytest.mark.django_db

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.sampled_from([0, 1, 6, 7, 99, 100, -1, 2**63])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["4+", "-2", "ODD", "EVN", "X", "QH", "10C", "red", "A", "", "slow_play"])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6)
    ),
    max_leaves=25,
)


def paths(value, prefix=()):
    """Every location inside a JSON value, for replacing one part of it."""
    yield prefix
    if isinstance(value, dict):
        for key, sub in value.items():
            yield from paths(sub, (*prefix, key))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            yield from paths(sub, (*prefix, index))


def replaced(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    copy = list(value)
    copy[head] = replaced(value[head], rest, new)
    return copy


REQUESTS = RequestFactory()


def assert_no_crash(game, slug, payload):
    raw = json.dumps(payload).encode()
    request = REQUESTS.post("/", raw, content_type="application/json")
    status, body = rule_on(request, game, slug)
    assert_a_ruling_or_a_reason(status, body)


def assert_a_ruling_or_a_reason(status, body):
    """A 200 is a ruling with its explanation; a 400 says what is wrong, and where."""
    assert status in (200, 400), (status, body)
    if status == 200:
        assert body["explanation"] and isinstance(body["citations"], list), body
    else:
        assert body["errors"], body
        assert all(e["message"] and "field" in e for e in body["errors"]), body


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: f"{q.game}/{q.slug}")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_examples_never_crash(question, data):
    example = question.example
    path = data.draw(st.sampled_from(list(paths(example))))
    new = data.draw(json_values)
    assert_no_crash(question.game, question.slug, replaced(example, path, new))


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: f"{q.game}/{q.slug}")
@settings(max_examples=30, deadline=None)
@given(payload=json_values)
def test_random_documents_never_crash(question, payload):
    assert_no_crash(question.game, question.slug, payload)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    question=st.sampled_from(QUESTIONS),
    raw=st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode()),
)
def test_http_endpoints_answer_random_bodies_with_200_or_400(client, question, raw):
    response = client.post(
        f"/api/v1/rules/{question.game}/{question.slug}/", raw, content_type="application/json"
    )
    assert_a_ruling_or_a_reason(response.status_code, response.json())
