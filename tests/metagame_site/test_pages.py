"""The metagame pages: what each reader sees, the pictures beside their tables, and the
organiser's archetypes page."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from metagame_site import services
from tests.conftest import database_rows
from tests.metagame_site.events import hand_event
from tournaments.models import Event, EventLog, Registration

pytestmark = pytest.mark.django_db

A, B, C = "EMB/MTH", "IRN/SLT", "TID/MTH"


def page(client, event, **query):
    return client.get(reverse("metagame:event", args=[event.pk]), query)


def data_values(html: str, element_id: str, column: str | None = None) -> list[str]:
    """The data-value attributes inside the element with ``element_id`` (a chart, or a
    table's ``column``)."""
    start = html.index(f'id="{element_id}"')
    end = html.index("</table>", start) if column else html.index("</svg>", start)
    where = f'data-col="{column}" ' if column else ""
    return re.findall(where + r'data-value="([^"]*)"', html[start:end])


def test_published_the_page_shows_the_pictures_and_their_numbers(client, organiser):
    event, _ = hand_event(organiser, decklists_public="all")
    html = page(client, event).content.decode()
    assert 'class="chart"' in html and 'id="share"' in html and 'id="matrix"' in html
    shares_in_picture = data_values(html, "share")
    shares_in_table = data_values(html, "shares-table", "share")
    assert shares_in_picture == shares_in_table == ["0.2500"] * 4
    assert "EMB splashing MTH" in html
    assert "small-sample" in html  # every rate here rests on fewer than ten matches
    # The heat map's cells carry the rates of the matchup table beside it.
    in_picture = {v for v in data_values(html, "matrix") if v}
    in_table = set(data_values(html, "matrix-table", "matchup-rate"))
    assert in_picture == in_table == {"1.0000", "0.0000", "0.5000"}


def test_before_publication_the_public_sees_no_archetype(client, organiser, player):
    event, _ = hand_event(organiser)
    for who in (None, player):
        client.logout()
        if who:
            client.force_login(who)
        html = page(client, event).content.decode()
        assert 'id="metagame-private"' in html
        assert "EMB" not in html and "<svg" not in html
    client.force_login(organiser)
    html = page(client, event).content.decode()
    assert 'id="metagame-staff-only"' in html and "EMB splashing MTH" in html


def test_shares_only_after_the_event_when_the_organiser_allows(client, organiser):
    event, _ = hand_event(organiser)
    services.set_sharing(event, organiser, allowed=True)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    html = page(client, event).content.decode()
    assert 'id="metagame-shares-only"' in html and 'id="share"' in html
    assert 'id="matrix"' not in html and "results-table" not in html


def test_a_phase_page_and_a_bad_phase(client, organiser):
    event, _ = hand_event(organiser, decklists_public="all")
    html = page(client, event, phase="top_cut").content.decode()
    assert 'aria-current="page">Top cut<' in html
    bad = page(client, event, phase="day9")
    assert bad.status_code == 400 and "day9" in bad.content.decode()


def test_the_organiser_names_merges_and_moves_from_the_archetypes_page(client, organiser):
    event, entries = hand_event(organiser, decklists_public="all")
    client.force_login(organiser)
    url = reverse("metagame:archetypes", args=[event.pk])
    assert client.get(url).status_code == 200
    client.post(url, {"action": "name", "key": A, "name": "Ember Control"})
    client.post(url, {"action": "merge", "key": C, "into": B})
    client.post(url, {"action": "move", "registration": entries["d1"].pk, "archetype": A})
    data = services.report(services.Asked(event))
    rows = {row["key"]: row for row in data["rows"]}
    assert rows[A]["name"] == "Ember Control" and rows[A]["players"] == 3
    assert rows[B]["players"] == 4
    assert EventLog.objects.filter(event=event, action="metagame").count() == 3
    html = page(client, event).content.decode()
    assert "Ember Control" in html


def test_a_refused_change_says_why_and_writes_nothing(client, organiser):
    event, _ = hand_event(organiser, decklists_public="all")
    client.force_login(organiser)
    url = reverse("metagame:archetypes", args=[event.pk])
    before = database_rows()
    response = client.post(url, {"action": "merge", "key": A, "into": A}, follow=True)
    assert "merge the other way round" in response.content.decode()
    response = client.post(url, {"action": "name", "key": A, "name": "x" * 61}, follow=True)
    assert "at most 60 characters" in response.content.decode()
    assert database_rows() == before


def test_only_organisers_open_the_archetypes_page(client, organiser, judge, player):
    event, _ = hand_event(organiser, decklists_public="all")
    url = reverse("metagame:archetypes", args=[event.pk])
    client.force_login(player)
    assert client.get(url).status_code == 403
    assert client.post(url, {"action": "sharing", "allowed": "on"}).status_code == 403
    assert not services.settings_of(event).shares_after_event


def test_a_series_counts_its_finished_events_with_published_lists(client, organiser):
    from series.services import create_series

    published, _ = hand_event(organiser, decklists_public="all")
    private, _ = hand_event(organiser, prefix="x")
    Event.objects.filter(pk__in=[published.pk, private.pk]).update(status=Event.Status.FINISHED)
    series = create_series(
        organiser,
        [Event.objects.get(pk=published.pk), Event.objects.get(pk=private.pk)],
        name="League",
        method="placings",
        placing_points="1: 3",
        participation=0,
    )
    html = client.get(reverse("metagame:series", args=[series.pk])).content.decode()
    assert 'id="metagame-left-out"' in html
    data = services.series_report(series)
    assert data["players"] == Registration.objects.filter(event=published).count()
    assert [e["id"] for e in data["events"]] == [published.pk]
    api = client.get(reverse("metagame:api_series", args=[series.pk])).json()
    assert api["rows"] == json.loads(json.dumps(data["rows"])) and api["series"]["name"] == "League"
    csv_text = client.get(reverse("metagame:series_csv", args=[series.pk])).content.decode()
    assert "EMB/MTH" in csv_text and csv_text.lstrip("\ufeff").startswith("section,")


def test_other_and_the_computed_names_read_in_the_readers_language(client, organiser):
    event, _ = hand_event(organiser, decklists_public="all")
    url = reverse("metagame:event", args=[event.pk])
    html = client.get(url, headers={"accept-language": "ja"}).content.decode()
    assert '<th scope="row">その他</th>' in html
    assert "EMB splashing MTH" not in html
    english = client.get(url, headers={"accept-language": "en"}).content.decode()
    assert '<th scope="row">Other</th>' in english and "EMB splashing MTH" in english
