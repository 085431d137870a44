"""No input is a 500, and no refusal changes anything: every field of every form and API
body, as every role, with generated strings (issue 14).

The endpoints and their fields come from the code (``fuzz_endpoints``: the URL resolver,
the OpenAPI schema, the views' own reads and Form classes) and from the forms of the
rendered pages, so a new endpoint is fuzzed without anyone listing it. Each example sends
one request whose fields hold either a value a real user could send (from the page's own
form, the schema's enums, the world's ids) or something hostile: lone surrogates, NUL,
10,000 characters, RTL marks, emoji, HTML, blank text, huge and negative numbers as
strings, digits that are not ASCII ("²"); in JSON bodies also wrong types and nesting.

It fails on any 5xx, and on a refused request (4xx) after which the database differs
(``fingerprint``: every table's row count and highest id, and a hash of the key tables'
contents). Each example runs in a savepoint rolled back afterwards, so every one starts
from the same world. Hypothesis is derandomised: every run sends the same requests.

``ARBITER_FUZZ_EXAMPLES`` sets the examples per (endpoint, role) (default 3); the counts
(requests, endpoints, fields, roles, 5xx) are printed at the end of the module and written
to ``var/fuzz-summary.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
import traceback
import uuid
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote_from_bytes

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.shortcuts import resolve_url
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import database_rows, make_user
from tests.security.fuzz_endpoints import (
    NOT_FIELDS,
    Endpoint,
    endpoints,
    forms_in_page,
    schema_operations,
)
from tests.security.test_access_table import default_params, fill, site_urls
from tests.tournaments.test_interchange import small_document

ROLES = ("anonymous", "stranger", "player", "judge", "organiser", "superuser")
EXAMPLES = int(os.environ.get("ARBITER_FUZZ_EXAMPLES", "3"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
# Endpoints that read no field at all have nothing to fuzz.
ENDPOINTS = {k: e for k, e in endpoints().items() if e.fields or e.files}
SUMMARY = Path(__file__).resolve().parents[2] / "var" / "fuzz-summary.json"

# --- what to send ------------------------------------------------------------------------

HOSTILE = [
    "\ud800",  # half of a UTF-16 pair, alone
    "a\udfffb",
    "\x00",
    "a\x00b",
    "x" * 10_000,
    "é" * 10_000,
    "a" * 151,
    "a" * 201,
    "a" * 2_001,
    "\u202egnp.exe\u202c",  # right-to-left override
    "\u200f\u05e9\u05dc\u05d5\u05dd",  # RLM + Hebrew
    "مرحبا بالعالم",
    "🎲",
    "👩\u200d👩\u200d👧\u200d👦" * 30,
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "{{ 7|add:7 }}{% now 'Y' %}",
    "",
    " ",
    " \t\r\n ",
    "\u3000\u00a0\u2028",
    "99999999999999999999999999999999999999",
    "9" * 400,
    "9223372036854775808",
    "2147483648",
    "-1",
    "0",
    "-99999999999999999999",
    "1e999",
    "NaN",
    "-Infinity",
    "1.5",
    "0x10",
    "²",
    "١٢",
    "\U0001d7d9\U0001d7da",  # mathematical double-struck 1 and 2
    "½",
    "Ⅻ",
    "%00",
    "../../../etc/passwd",
    "'; DROP TABLE tournaments_event; --",
    "null",
    "true",
    "\r\nSet-Cookie: x=1",
    "2026-02-30",
    "0001-01-01T00:00",
    "9999-12-31T23:59:59",
]
# JSON bodies can also carry what a form cannot: other types, nesting, keys.
JSON_HOSTILE = [
    None,
    True,
    False,
    0,
    -1,
    2**63,
    -(2**63) - 1,
    10**40,
    1.5,
    1e308,
    float("inf"),
    [],
    {},
    ["\ud800"],
    {"\ud800": 1},
    {"a": {"b": "\x00"}},
    [[[[[[]]]]]],
    [1, "2", None],
]
# The hostile values that found (or would find) 500s: each example picks one of these or
# another hostile value as its theme and puts it into many fields at once.
CORE = [
    "\ud800",
    "a\x00b",
    "x" * 10_000,
    "\u202egnp.exe\u202c",
    "👩\u200d👩\u200d👧\u200d👦" * 30,
    "<script>alert(1)</script>",
    " \t\r\n ",
    "99999999999999999999999999999999999999",
    "-99999999999999999999",
    "²",
    "١٢",
]
OMIT = object()  # the field is not sent
TEXT = st.text(st.characters(exclude_categories=()) | st.characters(categories=["Cs"]), max_size=30)
HOSTILE_TEXT = st.sampled_from(HOSTILE) | TEXT
HOSTILE_JSON = (
    HOSTILE_TEXT
    | st.sampled_from(JSON_HOSTILE)
    | st.recursive(
        HOSTILE_TEXT | st.integers() | st.none(),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(HOSTILE_TEXT, inner, max_size=3)
        ),
        max_leaves=5,
    )
)
FILES = [
    b"",
    b"\xff\xfe\xed\xa0\x80 not utf-8",
    b"name,tier\n\x00,\xed\xa0\x80\n",
    b"name,tier,text\n" + b"x" * 10_000 + b",neutral,\n",
    b'[{"name": "\\ud800"}]',
    b"{",
]


def leaves(value: Any, path: tuple = ()) -> list[tuple]:
    """The paths of the scalars inside a JSON value (for mutating a plausible document)."""
    if isinstance(value, dict):
        return [p for key, child in value.items() for p in leaves(child, (*path, key))]
    if isinstance(value, list):
        return [p for index, child in enumerate(value) for p in leaves(child, (*path, index))]
    return [path]


def replaced(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    holder = copy
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = new
    return copy


@st.composite
def mutated(draw, value: Any, hostile: st.SearchStrategy) -> Any:
    """A plausible structured value with one scalar inside it made hostile."""
    return replaced(value, draw(st.sampled_from(leaves(value))), draw(hostile))


def field_values(plausible: list[Any], api: bool, theme: Any) -> st.SearchStrategy:
    """A field's value: the example's hostile theme, a plausible value (or one with the
    theme inside it), another hostile value, or nothing."""
    hostile = HOSTILE_JSON if api else HOSTILE_TEXT
    options = [st.just(theme), hostile, st.just(OMIT)]
    if plausible:
        options.insert(1, st.sampled_from(plausible))
        nested = [v for v in plausible if isinstance(v, dict | list) and leaves(v)]
        options += [mutated(v, st.just(theme)) for v in nested]
    return st.one_of(options)


# --- how to send it ----------------------------------------------------------------------


def _form_text(value: Any) -> list[str]:
    if isinstance(value, list):
        return [t for item in value for t in _form_text(item)]
    if isinstance(value, bool):
        return ["true" if value else "false"]
    if isinstance(value, dict):
        return [json.dumps(value)]
    return [] if value is None else [str(value)]


def _quote(text: str) -> str:
    """Percent-encoded UTF-8; a lone surrogate travels as its (invalid) three bytes."""
    return quote_from_bytes(text.encode("utf-8", "surrogatepass"), safe="")


def urlencoded(fields: dict[str, Any]) -> str:
    pairs = [(name, text) for name, value in fields.items() for text in _form_text(value)]
    return "&".join(f"{_quote(name)}={_quote(text)}" for name, text in pairs)


def multipart(fields: dict[str, Any], files: dict[str, bytes]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in fields.items():
        for text in _form_text(value):
            head = f'Content-Disposition: form-data; name="{name}"'
            parts.append(
                f"--{boundary}\r\n{head}\r\n\r\n".encode("utf-8", "surrogatepass")
                + text.encode("utf-8", "surrogatepass")
                + b"\r\n"
            )
    for name, content in files.items():
        head = f'Content-Disposition: form-data; name="{name}"; filename="cards.csv"'
        parts.append(
            f"--{boundary}\r\n{head}\r\nContent-Type: text/csv\r\n\r\n".encode() + content + b"\r\n"
        )
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


# --- the database, cheaply ---------------------------------------------------------------

# Rows a refusal may legitimately write: the session (a message for the next page), and
# django-axes' record of a failed log-in, which exists to be written on refusal.
UNCOUNTED = ("django_session", "axes_")


def fingerprint() -> tuple:
    """Every table's row count and highest id, and a hash of the key tables' contents."""
    tables = [
        model._meta.db_table
        for model in apps.get_models()
        if not model._meta.db_table.startswith(UNCOUNTED) and model._meta.pk.column
    ]
    pk = {m._meta.db_table: m._meta.pk.column for m in apps.get_models()}
    quote = connection.ops.quote_name
    sql = " UNION ALL ".join(
        f"SELECT '{table}', COUNT(*), CAST(MAX({quote(pk[table])}) AS TEXT) FROM {quote(table)}"
        for table in sorted(tables)
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        counts = tuple(tuple(str(v) for v in row) for row in cursor.fetchall())
    contents = hashlib.sha256(repr(database_rows()).encode("utf-8", "surrogatepass")).hexdigest()
    return counts, contents


# --- the world and its people ------------------------------------------------------------

TALLY: Counter = Counter()
REACHED: dict[str, set] = {"endpoints": set(), "fields": set(), "roles": set()}
CRASHES: set[tuple[str, str, str, str]] = set()  # (URL name, method, path, role)


@pytest.fixture(scope="module")
def people(shared_world, django_db_blocker) -> dict[str, User | None]:
    """The six roles: the security world's four, an account with no part in any event,
    and a superuser."""
    with django_db_blocker.unblock():
        stranger = make_user("stranger")
        root = User.objects.create_superuser("root", "root@example.org", "x")
    w = shared_world
    return {
        "anonymous": None,
        "stranger": stranger,
        "player": w.player,
        "judge": w.judge,
        "organiser": w.organiser,
        "superuser": root,
    }


def plausible_values(w) -> dict[str, list[Any]]:
    """Values a real user sends, by field name (the world's ids, valid choices)."""
    mine, other = w.my_match, w.other_match
    regs = [w.registration.pk, w.rival_registration.pk, w.third_registration.pk]
    document = small_document()
    return {
        "registration": regs,
        "registrations": [regs, [regs[0]]],
        "players": regs,
        "player": [mine.player_a_id, mine.player_b_id],
        "first": regs,
        "second": regs[::-1],
        "match": [mine.pk, other.pk],
        "table": [mine.table, other.table],
        "event": [w.event.pk],
        "round": [w.round.number],
        "number": [w.round.number],
        "score": ["2-0", "2-1", "1-1-1"],
        "game": ["iacta", "1", 1],
        "infraction": ["slow_play"],
        "kind": ["pairings", "standings"],
        "username": ["stranger", "ravi", "pat"],
        "name": ["Late Comer"],
        "reason": ["Late arrival"],
        "notes": ["Slow."],
        "question": ["Who rolls first?"],
        "resolution": ["Player A rolls."],
        "text": ["4 Ember Tithe\n"],
        "decklist": ["4 Ember Tithe\n"],
        "presented": ["4 Ember Tithe\n"],
        "proposed": ["4 Ember Tithe\n"],
        "minutes": ["3", 3],
        "email": ["pat@example.org"],
        "password": ["correct-horse-battery"],
        "old_password": ["correct-horse-battery"],
        "format": [document["format"]],
        "event_document": [document["event"]],
        "date": ["2026-12-24"],
        "q": ["qu", "Pat"],
    }


def _get_routes() -> list[str]:
    return [
        key
        for key, route in site_urls().items()
        if not route.startswith("api/") and key not in ("logout", "healthz")
    ]


@pytest.fixture(scope="module")
def pages(shared_world, people, django_db_blocker) -> dict[tuple[str, str], list]:
    """Every page as every role, its forms read: (URL name, method) -> [(field, value)].

    The values a page offers (hidden inputs, options, buttons) are what its users send.
    """
    w = shared_world
    found: dict[tuple[str, str], list] = {}
    params = default_params(w)
    with django_db_blocker.unblock():
        for role, user in people.items():
            client = Client()
            if user is not None:
                client.force_login(user)
            for key in _get_routes():
                url = fill(site_urls()[key], params)
                response = client.get(url)
                TALLY["requests"] += 1
                TALLY["pages"] += 1
                assert response.status_code < 500, f"GET {url} as {role}: {response.status_code}"
                if "html" not in response.get("Content-Type", ""):
                    continue
                for target, method, fields in forms_in_page(url, response.content.decode()):
                    found.setdefault((target, method), []).extend(fields)
    return found


def endpoint_values(target: Endpoint, pages: dict, world) -> dict[str, list[Any]]:
    """Each field's plausible values: the page's own, the schema's enums, the world's."""
    from_pages = pages.get((target.key, target.method), [])
    names = (set(target.fields) | {name for name, _, _ in from_pages}) - NOT_FIELDS
    general = plausible_values(world)
    values: dict[str, list[Any]] = {}
    for name in sorted(names):
        listed = [v for n, v, _ in from_pages if n == name and v is not None]
        listed += [v for v in target.seen.get(name, []) if v not in listed]
        key = "event_document" if target.key.endswith("import") and name == "event" else name
        listed += [v for v in general.get(key, []) if v not in listed]
        if target.key.endswith("import") and name in ("players", "rounds"):
            listed = [small_document()[name]]
        values[name] = listed
    if target.key.endswith("import"):
        values.setdefault("event", [small_document()["event"]])
        values.setdefault("players", [small_document()["players"]])
        values.setdefault("rounds", [small_document()["rounds"]])
    return values


def concrete_path(target: Endpoint, world, choose) -> str:
    """The endpoint's path with real ids; ``choose`` picks among the values of enumerated
    parts (a round's or a match's action) and whose decklist."""
    params = {k: str(v) for k, v in default_params(world).items()}
    params["who"] = choose(["mine", str(world.rival_registration.pk)])
    for name, choices in target.path_values.items():
        params[name] = choose(choices)
    if target.api:
        path = target.route
        for name, value in params.items():
            path = path.replace("{" + name + "}", value)
        return path
    return fill(target.route.lstrip("/"), params)


def send(client: Client, target: Endpoint, path: str, fields: dict, files: dict, as_json: bool):
    if target.method == "get":
        return client.generic("GET", path, QUERY_STRING=urlencoded(fields))
    if target.api and as_json:
        body = json.dumps(fields).encode()
        return client.generic(target.method.upper(), path, body, "application/json")
    if files:
        body, content_type = multipart(fields, files)
        return client.generic(target.method.upper(), path, body, content_type)
    body = urlencoded(fields).encode("ascii")
    return client.generic(target.method.upper(), path, body, "application/x-www-form-urlencoded")


# --- the test ----------------------------------------------------------------------------

CASES = [
    pytest.param(target, role, id=f"{target.method}-{target.route}-{target.key}-{role}")
    for target in ENDPOINTS.values()
    for role in ROLES
]


@pytest.fixture(scope="module", autouse=True)
def summary(request):
    """The counts, printed when the module ends and written to var/fuzz-summary.json."""
    yield
    if not TALLY["requests"]:
        return
    counts = {
        "requests": TALLY["requests"],
        "pages_read_for_forms": TALLY["pages"],
        "fuzzed_requests": TALLY["fuzzed"],
        "endpoints": len(REACHED["endpoints"]),
        "fields": len(REACHED["fields"]),
        "roles": len(REACHED["roles"]),
        "5xx": TALLY["5xx"],  # responses, Hypothesis' replays of a failure included
        "cases_with_a_5xx": len(CRASHES),
        "refused_with_a_change": TALLY["changed"],
        "status_codes": {k[7:]: v for k, v in sorted(TALLY.items()) if k.startswith("status:")},
    }
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    path = SUMMARY.with_name(f"fuzz-summary-{worker}.json") if worker else SUMMARY
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(counts, indent=1) + "\n")
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line(f"\ninput fuzz: {json.dumps(counts)}")


def sign_in(client: Client, user: User | None) -> tuple:
    """Sign the client in once per test, outside any example's savepoint; the database's
    fingerprint then, which every rolled-back example starts from."""
    if not hasattr(client, "fuzz_start"):
        if user is not None:
            client.force_login(user)
        client.fuzz_start = fingerprint()
    client.raise_request_exception = True
    return client.fuzz_start


def attempt(client, target: Endpoint, path: str, role: str, fields: dict, **how) -> tuple:
    """Send one request in a savepoint rolled back after it; fail on a 5xx, or on a refusal
    (4xx) that changed the database. The status code and the redirect's target."""
    before = client.fuzz_start
    with transaction.atomic():
        crash, location = None, ""
        try:
            response = send(client, target, path, fields, how.get("files", {}), how["as_json"])
            status, location = response.status_code, response.get("Location", "")
        except Exception:  # the test client re-raises a view's exception: that is the 500
            status, crash = 500, traceback.format_exc()
        changed = 400 <= status < 500 and fingerprint() != before
        transaction.set_rollback(True)
    TALLY["requests"] += 1
    TALLY["fuzzed"] += 1
    TALLY[f"status:{status}"] += 1
    REACHED["endpoints"].add((target.key, target.method, target.route))
    REACHED["fields"].update((target.key, target.method, target.route, f) for f in fields)
    REACHED["roles"].add(role)
    shown = f"{target.method.upper()} {path} as {role} with {fields!r:.600}"
    if status >= 500:
        TALLY["5xx"] += 1
        CRASHES.add((target.key, target.method, target.route, role))
    assert status < 500, f"{shown}: {status}\n{crash or ''}"
    if changed:
        TALLY["changed"] += 1
    assert not changed, f"{shown}: refused ({status}) yet the database changed"
    return status, location


REFUSED = (401, 403, 405)


@pytest.mark.parametrize(("target", "role"), CASES)
def test_each_field_alone_with_a_hostile_value(w, people, pages, client, target, role):
    """Deterministic sweep: one field at a time is 10,000 characters, then another hostile
    value (a different one per role), every other field plausible, so the hostile value
    gets past the other fields' checks and reaches the code that uses it. A role the
    endpoint refuses outright gets one request with every field hostile instead."""
    sign_in(client, people[role])
    values = endpoint_values(target, pages, w)
    base = {name: listed[0] for name, listed in values.items() if listed}
    files = {name: FILES[0] for name in target.files}
    as_json = target.api
    turn = ROLES.index(role)
    path = concrete_path(target, w, lambda options: options[turn % len(options)])
    status, location = attempt(client, target, path, role, base, files=files, as_json=as_json)
    if status in REFUSED or (status == 302 and location.startswith(resolve_url("login"))):
        hostile = dict.fromkeys(values, CORE[turn % len(CORE)])
        attempt(client, target, path, role, hostile, files=files, as_json=as_json)
        return
    for index, name in enumerate(sorted(values)):
        rotating = CORE[(index + turn) % len(CORE)]
        for value in dict.fromkeys(["x" * 10_000, rotating]):
            fields = {**base, name: value}
            attempt(client, target, path, role, fields, files=files, as_json=as_json)


@pytest.mark.parametrize(("target", "role"), CASES)
@FUZZ
@given(data=st.data())
def test_no_input_is_a_server_error_or_a_half_refusal(w, people, pages, client, target, role, data):
    """Hypothesis: each example a theme among the hostile values, put into any of the
    fields, with plausible values, nested documents with the theme inside, other hostile
    values and missing fields around it; JSON or form-encoded for the API."""
    sign_in(client, people[role])
    values = endpoint_values(target, pages, w)
    theme = data.draw(st.sampled_from(CORE) | (HOSTILE_JSON if target.api else HOSTILE_TEXT))
    fields: dict[str, Any] = {}
    for name, plausible in values.items():
        value = data.draw(field_values(plausible, target.api, theme), label=name)
        if value is not OMIT:
            fields[name] = value
    files = {name: data.draw(st.sampled_from(FILES), label=name) for name in target.files}
    as_json = data.draw(st.booleans(), label="json") if target.api else False
    path = concrete_path(target, w, lambda options: data.draw(st.sampled_from(options)))
    attempt(
        client, target, path, role, fields, files=files, as_json=as_json or target.method == "put"
    )


def test_every_form_on_a_page_is_fuzzed(pages):
    """A form the code reading found nothing for would go unfuzzed: fail instead."""
    fuzzed = {(t.key, t.method) for t in ENDPOINTS.values()}
    missed = sorted(
        (key, method)
        for (key, method), fields in pages.items()
        if (key, method) not in fuzzed and {name for name, _, _ in fields} - {"csrfmiddlewaretoken"}
    )
    assert not missed, f"forms with fields that no fuzz case sends to: {missed}"


def test_every_api_operation_with_fields_is_fuzzed():
    """Each operation whose schema states a body or query parameters has a fuzz case."""
    fuzzed = {(t.method, t.route) for t in ENDPOINTS.values() if t.api}
    listed = {
        (method, path)
        for operations in schema_operations().values()
        for path, method, operation in operations
        if operation.get("requestBody")
        or any(p.get("in") == "query" for p in operation.get("parameters", []))
    }
    assert listed, "the schema lists no operation with fields"
    assert listed <= fuzzed, sorted(listed - fuzzed)
