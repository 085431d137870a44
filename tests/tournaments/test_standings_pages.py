"""The standings page as people read it: percentages as 44.44% with the 33% floor
explained, the standings after any past round, and a search by name."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from tests.conftest import play_out
from tournaments.event import services
from tournaments.models import Event
from tournaments.record import history
from tournaments.record.history import EventHistory
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_rounds(make_world, organiser):
    """Eight players, rounds 1 and 2 closed with a 2-1 at every table; P08 dropped after
    round 2."""
    world = make_world(8, rounds_played=1, paired=False)
    round2 = rounds.pair_next_round(world.event, organiser)
    play_out(round2, organiser, "2-1")
    rounds.close_round(round2, organiser)
    services.drop_player(world.event, world.registrations[7], organiser, "went home")
    return world


def page(event: Event, query: str = "", **headers) -> str:
    response = Client().get(f"/events/{event.pk}/standings/{query}", **headers)
    assert response.status_code == 200, response.content.decode()[:500]
    return response.content.decode()


def cells(body: str) -> list[list[str]]:
    """The table's rows as the text of their cells."""
    rows = re.findall(r"<tr>(.*?)</tr>", body, flags=re.S)
    return [
        [
            html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", r, flags=re.S)
        ]
        for r in rows
        if "<td" in r
    ]


def fresh(event: Event, after: int | None = None) -> list[dict]:
    return EventHistory.read(Event.objects.get(pk=event.pk)).standings_rows(after)


def test_percentages_read_as_people_read_them(two_rounds):
    event = two_rounds.event
    body = page(event)
    shown = cells(body)
    rows = fresh(event)
    assert len(shown) == len(rows)
    for row, line in zip(rows, shown, strict=True):
        assert line[4:7] == [f"{100 * row[k]:.2f}%" for k in ("omw", "gw", "ogw")]
        assert f"{row['omw']:.4f}" not in line  # no 0.4444
    # The API keeps the contract's numbers.
    api = Client().get(f"/api/v1/events/{event.pk}/standings/").json()
    assert api[0]["omw"] == rows[0]["omw"] and 0 <= api[0]["omw"] <= 1


def test_the_33_percent_floor_is_explained_in_the_header_and_under_the_table(two_rounds):
    body = page(two_rounds.event)
    abbr = re.search(r'<abbr title="([^"]*)">OMW%</abbr>', body)
    assert abbr and "at least 33.33% (the 33% floor)" in html.unescape(abbr.group(1))
    # For screen readers and touch screens, which do not show a title: the key, linked.
    assert 'aria-describedby="standings-key"' in body
    key = re.search(r'<dl class="standings-key[^"]*" id="standings-key">(.*?)</dl>', body, re.S)
    text = html.unescape(key.group(1))
    assert "OMW%" in text and "GW%" in text and "OGW%" in text and "the 33% floor" in text


def test_the_standings_after_a_past_round_count_only_its_results(two_rounds):
    event = two_rounds.event
    body = page(event, "?after=1")
    assert "Standings after round 1" in body
    shown = cells(body)
    after_one = fresh(event, 1)
    assert [line[1] for line in shown] == [row["name"] for row in after_one]
    assert all(line[3] in ("1-0-0", "0-1-0") for line in shown)  # one match each
    assert [line[4] for line in shown] == [f"{100 * row['omw']:.2f}%" for row in after_one]
    # P08 left after round 2: not marked dropped after round 1, marked now.
    p08 = next(line for line in shown if line[1].startswith("P08"))
    assert "dropped" not in p08[1]
    latest = next(line for line in cells(page(event)) if line[1].startswith("P08"))
    assert "dropped" in latest[1]


def test_the_round_selector_lists_the_played_rounds_and_works_without_js(two_rounds):
    body = page(two_rounds.event, "?after=2")
    select = re.search(r'<select id="standings-after" name="after">(.*?)</select>', body, re.S)
    options = re.findall(r'<option value="(\d*)"( selected)?>', select.group(1))
    assert options == [("", ""), ("1", ""), ("2", " selected")]
    assert re.search(r'<form method="get" action="/events/\d+/standings/"', body)


@pytest.mark.parametrize(
    ("after", "message"),
    [
        ("9", "after: round 9 has not been played; choose a round from 1 to 2."),
        ("two", "after: give a round number, such as after=2."),
    ],
)
def test_a_round_not_played_is_refused_with_a_message(two_rounds, after, message):
    response = Client().get(f"/events/{two_rounds.event.pk}/standings/?after={after}")
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())


def test_the_standings_after_a_round_are_computed_once_per_results_state(two_rounds, monkeypatch):
    calls = []
    real = history.compute_standings
    monkeypatch.setattr(
        history, "compute_standings", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    event = two_rounds.event
    page(event, "?after=1")
    computed = len(calls)  # round 1's standings, and the latest (the page checks the cut)
    page(event, "?after=1")
    page(event)
    assert len(calls) == computed
    page(event, "?after=2")
    assert len(calls) == computed + 1  # another round is another computation, then cached
    page(event, "?after=2")
    assert len(calls) == computed + 1


def test_search_by_name_without_js_and_with_htmx(two_rounds):
    event = two_rounds.event
    body = page(event, "?q=p03")
    shown = cells(body)
    assert [line[1] for line in shown] == ["P03"]
    assert "1 of 8 players match." in body
    rank = next(row["rank"] for row in fresh(event) if row["name"] == "P03")
    assert shown[0][0] == str(rank)  # the real rank, not the row's position
    nobody = page(event, "?q=zebra")
    assert "No player matches that name." in nobody
    # The search box asks with htmx: the table alone comes back.
    fragment = page(event, "?q=p03", HTTP_HX_REQUEST="true")
    assert "<html" not in fragment and [line[1] for line in cells(fragment)] == ["P03"]
    # Search and a past round together.
    assert [line[1] for line in cells(page(event, "?after=1&q=P0"))] == [
        row["name"] for row in fresh(event, 1)
    ]


def test_the_live_refresh_keeps_what_the_page_shows(two_rounds):
    body = page(two_rounds.event, "?after=1&q=P0")
    url = re.search(
        r'id="standings-live" data-live-refresh="standings" data-live-url="([^"]+)"', body
    )
    assert html.unescape(url.group(1)).endswith("?view=swiss&after=1&q=P0")


@pytest.fixture
def three_a_page(monkeypatch):
    """Pages of three rows, so eight players fill three pages (a real page holds 100)."""
    from tournaments.pages import standings as standings_views
    from tournaments.pages import standings_table

    monkeypatch.setattr(standings_table, "PAGE_ROWS", 3)
    monkeypatch.setattr(standings_views, "PAGE_ROWS", 3)


def ranks(body: str) -> list[str]:
    return [line[0] for line in cells(body)]


def test_a_large_field_shows_its_standings_a_page_at_a_time(two_rounds, three_a_page):
    event = two_rounds.event
    everyone = [str(row["rank"]) for row in fresh(event)]
    first = page(event)
    assert ranks(first) == everyone[:3]
    assert "Page 1 of 3" in first and f'href="/events/{event.pk}/standings/?page=2"' in first
    last = page(event, "?page=3")
    assert ranks(last) == everyone[6:] and "Page 3 of 3" in last and 'rel="next"' not in last
    # The round asked for stays in the links, and a live refresh keeps the page shown.
    past = page(event, "?after=1&page=2")
    assert ranks(past) == [str(row["rank"]) for row in fresh(event, 1)][3:6]
    assert "?view=swiss&amp;after=1&amp;page=3" in past
    assert f'href="/events/{event.pk}/standings/?view=swiss&amp;after=1"' in past
    assert "after=1&amp;page=2" in re.search(r'data-live-url="([^"]*)"', past).group(1)


def test_a_search_is_paged_too_and_counts_every_match(two_rounds, three_a_page):
    event = two_rounds.event
    body = page(event, "?q=P0&page=2")
    assert "8 of 8 players match" in body and len(cells(body)) == 3
    assert "?q=P0&amp;page=3" in body


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?page=4", "page: the standings fill 3 pages; choose 1 to 3."),
        ("?q=P08&page=2", "page: this search fills 1 page; choose 1 to 1."),
        ("?page=two", "A page number is a whole number from 1 up."),
        ("?page=0", "A page number is a whole number from 1 up."),
    ],
)
def test_a_page_that_is_not_there_is_refused_by_name(two_rounds, three_a_page, query, message):
    response = Client().get(f"/events/{two_rounds.event.pk}/standings/{query}")
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
