"""An event runs on its venue's clock: a round that starts before midnight and ends after
it, and one that spans the night the clocks go back, pair, clock and report as the hall's
clock reads; everything is stored in UTC and the API keeps writing UTC instants."""

import csv
import datetime
import io
import json
import re

import pytest
import time_machine
from django.utils import timezone

from decks.services import decklist_locked
from judging.penalties import issue_penalty
from printing.documents import get as document_kind
from tests.conftest import database_rows, make_event, play_out
from tournaments.event import services
from tournaments.interchange.importer import check_document
from tournaments.interchange.problems import InterchangeError
from tournaments.models import Event, Match, Round
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

UTC = datetime.UTC


def at(text: str):
    """A travel target (``2026-12-05 23:40 +09:00``), frozen: the test moves it itself."""
    return time_machine.travel(datetime.datetime.fromisoformat(text), tick=False)


def page_text(response) -> str:
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def started_round(event: Event, organiser) -> Round:
    round_ = rounds.pair_next_round(event, organiser)
    return rounds.start_round(round_, organiser)


def test_a_round_across_midnight_pairs_clocks_and_reports_in_the_venues_time(client, organiser):
    with at("2026-12-05 23:40 +09:00") as clock:
        event = make_event(organiser, 8, time_zone="Asia/Tokyo", date=datetime.date(2026, 12, 5))
        first = started_round(event, organiser)
        assert first.started_at == datetime.datetime(2026, 12, 5, 14, 40, tzinfo=UTC)

        clock.move_to(datetime.datetime.fromisoformat("2026-12-06 00:10 +09:00"))
        client.force_login(organiser)
        manage = page_text(client.get(f"/events/{event.pk}/manage/"))
        # 50 minutes from 23:40 is 00:30 on the next day, and the page says whose clock.
        assert "time is called at 00:30" in manage
        assert "Asia/Tokyo (JST, UTC+09:00)" in manage
        hall = page_text(client.get(f"/events/{event.pk}/hall/?screen=clock"))
        assert "20:00" in hall and "Time is called at 00:30" in hall

        table = first.matches.filter(is_bye=False).order_by("table").first()
        penalty = issue_penalty(table.player_a, "slow_play", organiser, match=table)
        assert penalty.issued_at == datetime.datetime(2026, 12, 5, 15, 10, tzinfo=UTC)

        clock.move_to(datetime.datetime.fromisoformat("2026-12-06 00:35 +09:00"))
        play_out(first, organiser)
        rounds.close_round(first, organiser)
        second = rounds.pair_next_round(event, organiser)

    # Pairing after midnight is pairing as ever: nobody meets an opponent twice.
    met = {frozenset((m.player_a_id, m.player_b_id)) for m in first.matches.filter(is_bye=False)}
    again = {frozenset((m.player_a_id, m.player_b_id)) for m in second.matches.filter(is_bye=False)}
    assert not met & again
    event.refresh_from_db()
    assert event.date == datetime.date(2026, 12, 5)  # the event's day is the day it began

    csv_text = client.get(f"/events/{event.pk}/penalties.csv").content.decode("utf-8-sig")
    row = next(csv.DictReader(io.StringIO(csv_text)))
    assert (row["issued_at"], row["time_zone"]) == ("2026-12-06 00:10:00", "Asia/Tokyo")

    manage = page_text(client.get(f"/events/{event.pk}/manage/"))
    assert re.search(r"23:40 \S+ started round 1", manage) or "23:40" in manage
    assert "00:35" in manage  # the close is logged at the venue's time, not 15:35 UTC

    slips = document_kind("match_slips")
    head, _ = slips.rows(event, 2, None)
    assert head["paired"] == "2026-12-06 00:35 JST" and head["zone"] == "Asia/Tokyo"


def test_a_round_across_the_night_the_clocks_go_back(client, organiser):
    # Europe/Berlin, 25 October 2026: at 03:00 CEST the clocks go back to 02:00 CET.
    with at("2026-10-25 02:30 +02:00") as clock:
        event = make_event(
            organiser, 4, time_zone="Europe/Berlin", date=datetime.date(2026, 10, 24)
        )
        first = started_round(event, organiser)
        client.force_login(organiser)
        before = page_text(client.get(f"/events/{event.pk}/manage/"))
        assert "Europe/Berlin (CEST, UTC+02:00)" in before
        # 50 real minutes: 00:30 UTC to 01:20 UTC, which the hall's clock shows as 02:20 CET.
        assert first.ends_at == datetime.datetime(2026, 10, 25, 1, 20, tzinfo=UTC)
        assert "time is called at 02:20" in before

        clock.move_to(datetime.datetime(2026, 10, 25, 0, 50, tzinfo=UTC))  # 02:50 CEST
        hall = page_text(client.get(f"/events/{event.pk}/hall/?screen=clock"))
        assert "30:00" in hall  # a countdown of real minutes, not of wall-clock ones

        clock.move_to(datetime.datetime(2026, 10, 25, 1, 10, tzinfo=UTC))  # 02:10 CET
        after = page_text(client.get(f"/events/{event.pk}/manage/"))
        assert "Europe/Berlin (CET, UTC+01:00)" in after
        table = first.matches.filter(is_bye=False).order_by("table").first()
        issue_penalty(table.player_a, "slow_play", organiser, match=table)
        play_out(first, organiser)
        rounds.close_round(first, organiser)

        # Read while the session logged in above is still young.
        api = client.get(f"/api/v1/events/{event.pk}/rounds/1/").json()
        # The API's instants stay UTC ISO 8601, whatever the venue (live-updates.md).
        assert api["started_at"] == "2026-10-25T00:30:00+00:00"
        assert api["ends_at"] == "2026-10-25T01:20:00+00:00"
        row = next(
            csv.DictReader(
                io.StringIO(
                    client.get(f"/events/{event.pk}/penalties.csv").content.decode("utf-8-sig")
                )
            )
        )
        assert row["issued_at"] == "2026-10-25 02:10:00"


def test_one_events_zone_does_not_carry_into_the_next_request(client, organiser):
    tokyo = make_event(organiser, 2, name="Tokyo Open", time_zone="Asia/Tokyo")
    client.force_login(organiser)
    assert "Asia/Tokyo" in page_text(client.get(f"/events/{tokyo.pk}/"))
    assert timezone.get_current_timezone_name() == "UTC"  # reset when the request ended
    home = page_text(client.get("/"))
    assert "venue's local time" not in home


def test_deadlines_are_typed_in_the_zone_chosen_on_the_same_form(client, organiser):
    client.force_login(organiser)
    response = client.post(
        "/events/new/",
        {
            "name": "Night Open",
            "game": "iacta",
            "date": "2026-12-05",
            "time_zone": "Asia/Tokyo",
            "status": "registration",
            "match_format": "bo3",
            "top_cut": 0,
            "round_minutes": 50,
            "registration_deadline": "2026-12-05T18:00",
            "decklist_deadline": "2026-12-05T23:30",
            "decklists_public": "none",
            "print_paper": "A4",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(name="Night Open")
    assert event.registration_deadline == datetime.datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
    assert event.decklist_deadline == datetime.datetime(2026, 12, 5, 14, 30, tzinfo=UTC)
    # The edit page shows them back as typed, on the venue's clock.
    edit = client.get(f"/events/{event.pk}/edit/").content.decode()
    assert 'value="2026-12-05T18:00"' in edit or 'value="2026-12-05 18:00:00"' in edit


def edit_fields(event: Event, **changes) -> dict:
    fields = {
        "name": event.name,
        "game": event.game,
        "date": event.date.isoformat(),
        "time_zone": event.time_zone,
        "status": event.status,
        "match_format": event.match_format,
        "top_cut": event.top_cut,
        "round_minutes": event.round_minutes,
        "decklists_public": event.decklists_public,
        "print_paper": event.print_paper,
    }
    return {**fields, **changes}


def test_a_time_the_clocks_skip_is_refused_naming_the_field(client, organiser):
    event = services.create_event(organiser, name="Spring Open", time_zone="Europe/Berlin")
    client.force_login(organiser)
    before = database_rows()
    # 29 March 2026 in Berlin: 02:00 becomes 03:00, so 02:30 is never shown.
    response = client.post(
        f"/events/{event.pk}/edit/", edit_fields(event, decklist_deadline="2026-03-29T02:30")
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "does not exist in Europe/Berlin" in errors["decklist_deadline"][0]
    assert database_rows() == before


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "", "UTC+9"])
def test_an_unknown_time_zone_is_refused_naming_the_field(client, organiser, zone):
    event = services.create_event(organiser, name="Zone Open")
    client.force_login(organiser)
    before = database_rows()
    response = client.post(f"/events/{event.pk}/edit/", edit_fields(event, time_zone=zone))
    if zone == "":  # not sent: the event keeps its zone, and nothing else changed
        assert response.status_code == 302
    else:
        assert response.status_code == 200
        assert "time_zone" in response.context["form"].errors
        assert database_rows() == before


def test_the_service_refuses_an_unknown_zone(organiser):
    event = services.create_event(organiser, name="Zone Open")
    with pytest.raises(services.ServiceError) as refused:
        services.update_event(event, organiser, time_zone="Europe/Atlantis")
    assert refused.value.errors[0]["field"] == "time_zone"
    event.refresh_from_db()
    assert event.time_zone == "UTC"


def test_the_interchange_carries_the_zone_and_refuses_an_unknown_one(organiser):
    from tournaments.interchange.exporter import export_event

    event = make_event(organiser, 4, time_zone="America/New_York")
    document = export_event(event)
    assert document["event"]["time_zone"] == "America/New_York"
    document["event"]["time_zone"] = "Europe/Atlantis"
    with pytest.raises(InterchangeError) as refused:
        check_document(json.loads(json.dumps(document)))
    assert "event.time_zone" in str(refused.value)


def test_the_api_names_the_zone_and_a_late_decklist_reads_the_local_deadline(client, organiser):
    event = services.create_event(
        organiser,
        name="Deadline Open",
        time_zone="Asia/Tokyo",
        status=Event.Status.REGISTRATION,
        decklist_deadline=datetime.datetime(2020, 1, 1, 14, 30, tzinfo=UTC),
    )
    assert client.get(f"/api/v1/events/{event.pk}/").json()["time_zone"] == "Asia/Tokyo"
    # The refusal a player reads names the deadline on the venue's clock, not 14:30 UTC.
    assert decklist_locked(None, event) == (
        "The decklist deadline (2020-01-01 23:30 JST, Asia/Tokyo) has passed."
    )


def test_match_rows_are_untouched_by_the_zone(organiser):
    """Stored moments are UTC whatever the venue: the zone is only how they are shown."""
    with at("2026-12-05 23:40 +09:00"):
        event = make_event(organiser, 4, time_zone="Asia/Tokyo")
        first = started_round(event, organiser)
    stored = Round.objects.filter(pk=first.pk).values_list("started_at", flat=True).get()
    assert stored.utcoffset() == datetime.timedelta(0)
    assert Match.objects.filter(round=first).count() == 2
