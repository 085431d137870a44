"""The pages that follow the event (live.js): their regions, and the fragments those
regions fetch, with the page's own permissions."""

import re

import pytest

from tournaments.clock import extensions as clock
from tournaments.models import Event
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _regions(html: str) -> dict[str, str]:
    """data-live-url -> data-live-refresh of every live region on the page."""
    found = re.findall(r'data-live-refresh="([^"]+)" data-live-url="([^"]+)"', html)
    return {url.replace("&amp;", "&"): kinds for kinds, url in found}


def _follows(html: str, event_id: int) -> None:
    assert f'data-live-event="{event_id}"' in html
    assert "js/live.js" in html and "data-live-updated" in html


def test_the_pairings_page_refetches_the_latest_rounds_pairings(client, make_world):
    world = make_world(4, rounds_played=1, paired=False)
    page = client.get(f"/events/{world.event.pk}/pairings/").content.decode()
    _follows(page, world.event.pk)
    regions = _regions(page)
    base = f"/events/{world.event.pk}/pairings/"
    assert regions == {f"{base}?part=head": "pairings", f"{base}?part=rows": "pairings"}
    rounds.pair_next_round(world.event, world.organiser)
    rows = client.get(f"{base}?part=rows", **HTMX).content.decode()
    head = client.get(f"{base}?part=head", **HTMX).content.decode()
    assert "<html" not in rows and "<html" not in head
    table_two = world.event.rounds.get(number=2).matches.get(table=1)
    assert table_two.player_a.display_name in rows
    assert "Round 2" in head and "?round=1" in head


def test_a_chosen_rounds_pairings_page_keeps_its_round(client, make_world):
    world = make_world(4, rounds_played=1)
    page = client.get(f"/events/{world.event.pk}/pairings/?round=1").content.decode()
    assert f"/events/{world.event.pk}/pairings/?part=rows&round=1" in _regions(page)


def test_the_standings_region_refetches_the_table_alone(client, make_world):
    world = make_world(4, rounds_played=1, paired=False)
    page = client.get(f"/events/{world.event.pk}/standings/").content.decode()
    _follows(page, world.event.pk)
    assert _regions(page) == {f"/events/{world.event.pk}/standings/": "standings"}
    fragment = client.get(f"/events/{world.event.pk}/standings/", **HTMX).content.decode()
    assert "<html" not in fragment and 'class="striped standings"' in fragment


def test_the_dashboard_refetches_the_next_step_and_the_tables_as_results_come_in(login, make_world):
    world = make_world(4, started=True)
    client = login(world.organiser)
    url = f"/events/{world.event.pk}/manage/"
    page = client.get(url).content.decode()
    _follows(page, world.event.pk)
    assert _regions(page) == {
        f"{url}?part=status": "result round pairings",
        f"{url}?part=tables": "result extension pairings",
    }
    for match in world.round.matches.filter(is_bye=False):
        results.enter_result(match, Score.parse("2-0"), world.organiser)
    clock.grant_extension(world.table(1), 3, "deck check", world.judge)
    status = client.get(f"{url}?part=status", **HTMX).content.decode()
    tables = client.get(f"{url}?part=tables", **HTMX).content.decode()
    assert "<html" not in status and "Close round 1" in status and "still without" not in status
    assert tables.count("<tr ") == 2 and "+3 min" in tables and "Entered by staff" in tables


def test_the_judge_consoles_queue_follows_queue_notices_and_still_polls(login, make_world):
    world = make_world(4, started=True)
    page = login(world.judge).get(f"/events/{world.event.pk}/judge/").content.decode()
    _follows(page, world.event.pk)
    queue = f"/events/{world.event.pk}/judge/queue/"
    assert set(_regions(page)[queue].split()) >= {"queue", "result", "extension", "judge_call"}
    assert 'hx-trigger="every 20s"' in page


def test_the_judge_consoles_round_and_tables_follow_the_round(login, make_world):
    world = make_world(4, paired=False)
    client = login(world.judge)
    url = f"/events/{world.event.pk}/judge/"
    page = client.get(url).content.decode()
    assert "No round is paired." in page
    regions = _regions(page)
    assert set(regions[f"{url}?part=round"].split()) >= {"pairings", "round"}
    assert set(regions[f"{url}?part=tables"].split()) >= {"pairings", "round", "extension"}

    first = rounds.pair_next_round(world.event, world.organiser)
    head = client.get(f"{url}?part=round", **HTMX).content.decode()
    tables = client.get(f"{url}?part=tables", **HTMX).content.decode()
    assert "<html" not in head and "<html" not in tables
    assert "Round 1 (paired)" in head
    assert "No round is paired." not in tables
    rounds.start_round(first, world.organiser)
    assert "Round 1 (running)" in client.get(f"{url}?part=round", **HTMX).content.decode()

    for match in first.matches.filter(is_bye=False):
        results.enter_result(match, Score.parse("2-0"), world.organiser)
    clock.grant_extension(first.matches.get(table=1), 3, "deck check", world.judge)
    rounds.close_round(first, world.organiser)
    assert "Round 1 (closed)" in client.get(f"{url}?part=round", **HTMX).content.decode()

    second = rounds.pair_next_round(world.event, world.organiser)
    head = client.get(f"{url}?part=round", **HTMX).content.decode()
    tables = client.get(f"{url}?part=tables", **HTMX).content.decode()
    assert "Round 2 (paired)" in head
    for match in second.matches.filter(is_bye=False):
        assert f"/judge/tables/{match.pk}/" in tables
    for match in first.matches.all():
        assert f"/judge/tables/{match.pk}/" not in tables
    assert "+3 min" not in tables  # round 1's extension stays with round 1


@pytest.mark.parametrize("part", ["?part=status", "?part=tables"])
def test_the_dashboards_fragments_are_the_organisers_only(client, login, make_world, part):
    world = make_world(4)
    url = f"/events/{world.event.pk}/manage/{part}"
    assert client.get(url, **HTMX).status_code in (302, 403)
    assert login(world.judge).get(url, **HTMX).status_code == 403


def test_a_drafts_fragments_are_out_of_sight(client, make_world):
    world = make_world(4)
    Event.objects.filter(pk=world.event.pk).update(status=Event.Status.DRAFT)
    for url in ("pairings/?part=rows", "pairings/?part=head", "standings/"):
        assert client.get(f"/events/{world.event.pk}/{url}", **HTMX).status_code == 404


@pytest.mark.parametrize("part", ["?part=round", "?part=tables"])
def test_the_judge_consoles_parts_are_the_staffs_only(client, login, make_world, part):
    world = make_world(4)
    url = f"/events/{world.event.pk}/judge/{part}"
    assert client.get(url, **HTMX).status_code in (302, 403)
    player = world.registrations[0].user
    assert login(player).get(url, **HTMX).status_code == 403
    assert login(world.organiser).get(url, **HTMX).status_code == 200
