"""A Python client generated from the served OpenAPI schema runs a whole event.

``openapi-python-client`` (the version pyproject pins) generates a client from
``/api/schema/``, as an integrator would: it must print nothing but its "Generating" line
(no warning) and write a module for every operation (none skipped). The test then
imports that client and runs an event with it alone, in-process through httpx's WSGI
transport (no server): create and publish, eight players register, check-in, three Swiss
rounds paired, started, reported and confirmed by the players, and closed, finish,
export, and import of the export, whose standings must equal the event's. Every answer
is read through the generated models, so an answer that stops matching its schema, or an
operation the schema describes wrongly, fails here. It uses the database: both passes
run it.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from accounts.tokens import issue_token
from arbiter.wsgi import application
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

CONFIG = Path(__file__).parent / "fixtures" / "openapi-python-client.yaml"
PACKAGE = "arbiter_api_client"
NAMES = ["Ada", "Bram", "Cleo", "Dev", "Esme", "Finn", "Gus", "Hana"]
SWISS_ROUNDS = 3


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """The WSGI transport calls the app directly, whose request signals would close the
    database connection (and with it the test's transaction); Django's test client
    disconnects them the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def generate(schema: dict, where: Path) -> str:
    """Run the generator on ``schema`` into ``where/PACKAGE``; what it printed."""
    source = where / "schema.json"
    source.write_text(json.dumps(schema), encoding="utf-8")
    command = [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(source)]
    command += ["--output-path", str(where / PACKAGE), "--meta", "none", "--config", str(CONFIG)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=where)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    return output


def noise(output: str) -> list[str]:
    """Every line the generator printed beyond "Generating <path>": its warnings."""
    return [line for line in output.splitlines() if line.strip() and "Generating " not in line]


def operation_ids(schema: dict) -> set[str]:
    return {
        operation["operationId"]
        for path in schema["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict) and "operationId" in operation
    }


def generated_operations(package: Path) -> dict[str, str]:
    """Operation module -> its tag's package, as the generator wrote them."""
    return {
        module.stem: module.parent.name
        for module in (package / "api").glob("*/*.py")
        if module.stem != "__init__"
    }


@contextmanager
def imported(where: Path) -> Iterator[ModuleType]:
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


class Api:
    """The generated client's operations, found by operationId or by method and path."""

    def __init__(self, package: ModuleType, schema: dict, tags: dict[str, str]):
        self.package = package
        self.schema = schema
        self.tags = tags

    def operation(self, operation_id: str) -> ModuleType:
        return importlib.import_module(f"{PACKAGE}.api.{self.tags[operation_id]}.{operation_id}")

    def operation_at(self, method: str, path: str) -> ModuleType | None:
        found = self.schema["paths"].get(path, {}).get(method)
        return None if found is None else self.operation(found["operationId"])

    def client_for(self, user) -> Any:
        return self.package.AuthenticatedClient(
            base_url="http://testserver",
            token=issue_token(user).key,
            prefix="Token",
            httpx_args={"transport": httpx.WSGITransport(app=application)},
        )


def call(operation: ModuleType, status: int, **arguments: Any) -> Any:
    """The operation's parsed answer, which must have ``status``."""
    response = operation.sync_detailed(**arguments)
    name = operation.__name__.rsplit(".", 1)[-1]
    assert response.status_code == status, (name, response.status_code, response.content[:2000])
    assert response.parsed is not None, (name, "no model for the answer")
    return response.parsed


def parameter_type(operation: ModuleType, name: str) -> Any:
    """The generated type of one of the operation's required arguments (an enum)."""
    return typing.get_type_hints(operation.sync_detailed)[name]


def body(operation: ModuleType, values: dict) -> Any:
    """The operation's body model (``Model``, or ``Model | Unset`` when the body is
    optional), made from plain values."""
    hint = typing.get_type_hints(operation.sync_detailed)["body"]
    candidates = typing.get_args(hint) or (hint,)
    [model] = [t for t in candidates if hasattr(t, "from_dict")]
    return model.from_dict(values)


def create_and_publish(api: Api, staff: Any) -> int:
    """The event, open for registration, by its organiser's token."""
    create = api.operation_at("post", "/api/v1/events/")
    assert create is not None, "the schema has no operation creating an event"
    fields = {"name": "Generated Client Open", "game": "iacta", "swiss_rounds": SWISS_ROUNDS}
    fields["decklist_policy"] = "none"  # no decklists here: pairing round 1 need not ask
    created = call(create, 201, client=staff, body=body(create, fields))
    assert created.status == "draft"
    update = api.operation_at("patch", "/api/v1/events/{event_id}/")
    published = call(
        update,
        200,
        event_id=created.id,
        client=staff,
        body=body(update, {"status": "registration"}),
    )
    assert published.status == "registration"
    return created.id


def finish(api: Api, staff: Any, event_id: int) -> None:
    operation = api.operation_at("post", "/api/v1/events/{event_id}/finish/")
    assert operation is not None, "the schema has no operation finishing an event"
    call(operation, 200, event_id=event_id, client=staff)


def play_round(api: Api, staff: Any, players: dict[int, Any], event_id: int, number: int) -> None:
    """Pair, start, every table reported by its first player and confirmed by the
    second, close: each answer read as its model."""
    pair = api.operation("rounds_pair_next")
    paired = call(pair, 201, event_id=event_id, client=staff, body=body(pair, {}))
    assert (paired.number, paired.status) == (number, "paired")
    act = api.operation("round_action")
    round_action = parameter_type(act, "action")
    where = {"event_id": event_id, "number": number, "client": staff}
    started = call(act, 200, action=round_action("start"), **where)
    assert started.status == "running"
    match_action = api.operation("match_action")
    action = parameter_type(match_action, "action")
    tables = [match for match in started.matches if not match.bye]
    assert len(tables) == len(players) // 2
    for match in tables:
        first, second = (player.registration for player in match.players)
        reported = call(
            match_action,
            200,
            match_id=match.id,
            action=action("report"),
            client=players[first],
            body=body(match_action, {"score": "2-0"}),
        )
        assert reported.status == "reported"
        confirmed = call(
            match_action, 200, match_id=match.id, action=action("confirm"), client=players[second]
        )
        assert confirmed.status == "confirmed"
        assert [report.kind for report in confirmed.reports] == ["report", "confirm"]
    closed = call(act, 200, action=round_action("close"), **where)
    assert closed.status == "closed"


def standings(api: Api, staff: Any, event_id: int) -> list[tuple]:
    rows = call(api.operation("standings"), 200, event_id=event_id, client=staff)
    return [(row.rank, row.name, row.match_points, row.record) for row in rows]


def run_event(api: Api) -> None:
    organiser = make_user("olive", first_name="Olive")
    staff = api.client_for(organiser)
    event_id = create_and_publish(api, staff)

    players: dict[int, Any] = {}
    for name in NAMES:
        player = api.client_for(make_user(name.lower(), first_name=name))
        entry = call(api.operation("registration_create"), 201, event_id=event_id, client=player)
        assert entry.status == "registered"
        players[entry.registration] = player
    listed = call(api.operation("players_list"), 200, event_id=event_id, client=staff)
    assert sorted(p.registration for p in listed) == sorted(players)
    check_in = api.operation("players_action")
    arrived = body(check_in, {"action": "check_in", "registrations": sorted(players)})
    counted = call(check_in, 200, event_id=event_id, client=staff, body=arrived)
    assert counted.checked_in == len(NAMES)

    for number in range(1, SWISS_ROUNDS + 1):
        play_round(api, staff, players, event_id, number)
    finish(api, staff, event_id)
    event = call(api.operation("event_detail"), 200, event_id=event_id, client=staff)
    assert event.status == "finished"
    table = standings(api, staff, event_id)
    assert sorted(row[1] for row in table) == sorted(NAMES)
    assert table[0][3].startswith("3-0")  # every table had a winner: one player won all three

    exported = call(api.operation("event_export"), 200, event=event_id, client=staff)
    assert len(exported.players) == len(NAMES)
    assert [r.number for r in exported.rounds] == list(range(1, SWISS_ROUNDS + 1))
    assert all(match.games for r in exported.rounds for match in r.matches if not match.bye)
    imported_event = call(api.operation("event_import"), 201, body=exported, client=staff)
    assert imported_event.status == "draft"  # an ordinary account's import
    assert standings(api, staff, imported_event.id) == table


def served_schema() -> dict:
    """GET /api/schema/ as the client will be called: through the WSGI transport (Django's
    test client would connect the request signals that close the test's connection)."""
    transport = httpx.WSGITransport(app=application)
    with httpx.Client(transport=transport, base_url="http://testserver") as http:
        answer = http.get("/api/schema/", params={"format": "json"})
    assert answer.status_code == 200, answer.text[:500]
    return answer.json()


def test_a_generated_client_runs_a_whole_event(tmp_path):
    schema = served_schema()
    output = generate(schema, tmp_path)
    assert not noise(output), output
    tags = generated_operations(tmp_path / PACKAGE)
    skipped = operation_ids(schema) - set(tags)
    assert not skipped, f"operations the generator left out: {sorted(skipped)}\n{output}"
    with imported(tmp_path) as package:
        run_event(Api(package, schema, tags))
