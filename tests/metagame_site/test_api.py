"""An event's metagame over the API and as CSV: who reads how much (the decklists'
publication, the organiser's shares after the event), the phase asked for, a flight
answering its main event's, and a file a spreadsheet reads without running anything."""

from __future__ import annotations

import csv
import io
import json

import pytest

from arbiter import worlds
from metagame_site import services
from metagame_site.export import report_csv
from tests.conftest import PASSWORD, make_user
from tournaments.event import phases
from tournaments.event import services as events
from tournaments.models import Event
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

NOT_PUBLISHED = "The metagame appears when the organiser publishes the decklists."
SHARE_KEYS = {"key", "name", "players", "share"}


@pytest.fixture
def played(organiser) -> worlds.World:
    """Twelve players with demo lists, three Swiss rounds played: still running."""
    return worlds.build_event(
        12,
        organiser=organiser,
        decklists=True,
        rounds_played=3,
        swiss_rounds=3,
        paired=False,
        judge=None,
        password=PASSWORD,
        name="Meta Open",
    )


def api(event: Event) -> str:
    return f"/api/v1/events/{event.pk}/metagame/"


def csv_url(event: Event) -> str:
    return f"/events/{event.pk}/metagame.csv"


def publish_lists(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(decklists_public="all")
    event.refresh_from_db()


def as_json(data: dict) -> dict:
    return json.loads(json.dumps(data))


def sections(text: str) -> dict[str, list[dict[str, str]]]:
    """The CSV's tables by section, each line read under its own table's header."""
    found: dict[str, list[dict[str, str]]] = {}
    header: list[str] = []
    for line in csv.reader(io.StringIO(text.removeprefix("\ufeff"))):
        if line[0] == "section":
            header = line
            continue
        found.setdefault(line[0], []).append(dict(zip(header, line, strict=True)))
    return found


# --- who reads how much ------------------------------------------------------------------


def test_private_decklists_show_nothing_to_anonymous_or_a_player(client, played):
    for who in (None, played.users[0]):
        if who is not None:
            client.force_login(who)
        response = client.get(api(played.event))
        assert response.status_code == 403
        assert response.json() == {"errors": [{"field": None, "message": NOT_PUBLISHED}]}
        page = client.get(csv_url(played.event))
        assert page.status_code == 403
        assert NOT_PUBLISHED in page.content.decode()


def test_the_organiser_reads_everything_while_the_lists_are_private(client, played):
    client.force_login(played.organiser)
    data = client.get(api(played.event)).json()
    assert data["access"] == "full"
    assert data["rows"] and data["matrix"]
    assert {"matches", "games", "stages", "mirrors"} <= set(data["rows"][0])


def test_published_lists_give_anyone_the_report_the_service_builds(client, played):
    publish_lists(played.event)
    response = client.get(api(played.event))
    assert response.status_code == 200
    data = response.json()
    assert data["access"] == "full" and data["phase"] == "all"
    assert data["rows"] and data["matrix"]
    expected = services.report(services.Asked(played.event, "all", services.FULL))
    assert data == as_json(expected)
    swiss = client.get(api(played.event), {"phase": "swiss"}).json()
    assert swiss == as_json(services.report(services.Asked(played.event, "swiss")))


def test_shares_after_the_event_show_the_shares_alone(client, played):
    event = rounds.finish_event(played.event, played.organiser)
    assert client.get(api(event)).status_code == 403  # not allowed yet
    services.set_sharing(event, played.organiser, allowed=True)
    data = client.get(api(event)).json()
    assert data["access"] == "shares"
    assert data["rows"] and all(set(row) == SHARE_KEYS for row in data["rows"])
    assert data["matrix"] == [] and "excluded" not in data
    assert sum(row["share"]["k"] for row in data["rows"]) == data["with_archetype"]
    table = sections(client.get(csv_url(event)).content.decode())
    assert set(table) == {"archetype"}
    assert set(table["archetype"][0]) == {
        "section",
        "key",
        "name",
        "players",
        "share",
        "share_low",
        "share_high",
    }


def test_shares_are_not_shown_before_the_event_ends(client, played):
    services.set_sharing(played.event, played.organiser, allowed=True)
    assert client.get(api(played.event)).status_code == 403


# --- what is asked -----------------------------------------------------------------------


@pytest.mark.parametrize("phase", ["nonsense", "day2", "top_cut"])
def test_a_phase_unknown_or_not_played_is_refused_naming_phase(client, played, phase):
    publish_lists(played.event)
    response = client.get(api(played.event), {"phase": phase})
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["phase"]
    assert client.get(csv_url(played.event), {"phase": phase}).status_code == 400


def test_a_draft_is_not_there_for_anyone_but_its_organiser(client, played):
    publish_lists(played.event)
    Event.objects.filter(pk=played.event.pk).update(status=Event.Status.DRAFT)
    assert client.get(csv_url(played.event)).status_code == 404
    assert client.get(api(played.event)).status_code == 403  # event_for: "Log in first."
    client.force_login(played.users[0])
    assert client.get(csv_url(played.event)).status_code == 404
    assert client.get(api(played.event)).status_code == 403
    client.force_login(played.organiser)
    assert client.get(api(played.event)).status_code == 200
    assert client.get(csv_url(played.event)).status_code == 200


def test_no_such_event_is_a_404(client):
    assert client.get("/api/v1/events/999999/metagame/").status_code == 404
    assert client.get("/events/999999/metagame.csv").status_code == 404


def test_a_flight_answers_its_main_events_metagame(client, organiser):
    main = events.create_event(
        organiser, name="Regional", game="iacta", status=Event.Status.REGISTRATION
    )
    flight = phases.add_flight(main, organiser, name="A", rounds=3)
    for i in range(4):
        events.register_player(flight, make_user(f"fp{i}"))
    client.force_login(organiser)
    data = client.get(api(flight)).json()
    assert data["event"]["id"] == main.pk and data["players"] == 4
    assert data == client.get(api(main)).json()
    assert client.get(csv_url(flight)).content == client.get(csv_url(main)).content


# --- the CSV ------------------------------------------------------------------------------


def test_the_csv_matrix_is_antisymmetric_and_the_shares_sum_to_one(client, played):
    publish_lists(played.event)
    response = client.get(csv_url(played.event))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "meta-open-metagame.csv" in response["Content-Disposition"]
    table = sections(response.content.decode())
    rows, matrix = table["archetype"], table["matchup"]
    assert sum(float(row["share"]) for row in rows) == pytest.approx(1, abs=1e-3)
    assert all(len(row["share"].split(".")[1]) == 4 for row in rows)
    cells = {(c["key"], c["opponent"]): c for c in matrix}
    assert len(cells) == len(rows) * (len(rows) - 1)
    for (key, opponent), cell in cells.items():
        other = cells[(opponent, key)]
        assert (cell["wins"], cell["losses"], cell["draws"]) == (
            other["losses"],
            other["wins"],
            other["draws"],
        )
    data = services.report(services.Asked(played.event))
    assert [row["matches"] for row in rows] == [str(r["matches"]["n"]) for r in data["rows"]]


def test_a_formula_looking_name_is_written_as_text(client, played):
    publish_lists(played.event)
    key = services.report(services.Asked(played.event))["rows"][0]["key"]
    services.name_archetype(played.event, played.organiser, key=key, name="=cmd")
    text = client.get(csv_url(played.event)).content.decode()
    named = [row for row in sections(text)["archetype"] if row["key"] == key]
    assert named[0]["name"] == "'=cmd"
    assert ",=cmd" not in text


def test_an_empty_rate_is_an_empty_cell():
    data = {
        "access": "full",
        "stages": ["top_cut"],
        "rows": [_row("A", 2, reached=0, matches=0)],
        "matrix": [],
    }
    table = sections(report_csv(data))
    row = table["archetype"][0]
    assert row["match_win_rate"] == "" and row["matches_small"] == "true"
    assert row["top_cut_conversion"] == "0.0000" and row["top_cut_reached"] == "0"


def _proportion(k: int, n: int) -> dict:
    return {"k": k, "n": n, "value": k / n if n else None, "low": 0.0, "high": 1.0}


def _record(n: int) -> dict:
    return {"wins": n, "losses": 0, "draws": 0, "n": n, "rate": _proportion(n, n), "small": n < 10}


def _row(key: str, players: int, *, reached: int, matches: int) -> dict:
    return {
        "key": key,
        "name": key,
        "players": players,
        "share": _proportion(players, players),
        "stages": {
            "top_cut": {
                "reached": reached,
                "share": _proportion(reached, 0),
                "conversion": _proportion(reached, players),
            }
        },
        "matches": _record(matches),
        "games": _record(matches),
        "mirrors": 0,
    }
