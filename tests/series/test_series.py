"""Series: events grouped into a season, their placings added up per player account."""

import csv
import io

import pytest

from arbiter import worlds
from pairing.series import table_text
from series import services
from series.models import Series, SeriesLog
from series.standings import player_key, series_table
from tests.conftest import database_rows, finished_event, make_user
from tournaments.event import entry_offers
from tournaments.event import services as event_services
from tournaments.models import Event, EventLog, Registration
from tournaments.rounds import services as rounds
from web.errors import ServiceError

pytestmark = pytest.mark.django_db

TABLE = "1: 10, 2: 8, 3-4: 6, 5-8: 4"


@pytest.fixture
def season(organiser):
    """Two finished events: ada, bo, cy and di play both; ed and fy only the first."""
    people = [make_user(n) for n in ("ada", "bo", "cy", "di", "ed", "fy")]
    first = finished_event(organiser, people, "Week 1", rounds_played=2, seed=11)
    second = finished_event(organiser, people[:4], "Week 2", rounds_played=2, seed=12)
    return first, second, people


def make_series(organiser, events, **fields) -> Series:
    settings = {
        "name": "Winter League",
        "method": "placings",
        "placing_points": TABLE,
        "participation": 1,
        **fields,
    }
    return services.create_series(organiser, list(events), **settings)


def test_the_standings_add_up_each_players_points_across_the_events(organiser, season):
    first, second, people = season
    series = make_series(organiser, [first, second])
    table = series_table(series)

    assert [e.name for e in table.counted] == ["Week 1", "Week 2"]
    ada = table.row_of(player_key(people[0].pk, 0))
    assert ada is not None and ada.events_played == 2
    for row in table.rows:
        assert row.total == sum(s.points for s in row.scores)  # every event counts
        for score in row.scores:
            expected = (10, 8, 6, 6, 4, 4, 4, 4)[score.place - 1] + 1
            assert score.points == expected
    ed = table.row_of(player_key(people[4].pk, 0))
    assert ed.events_played == 1
    totals = [row.total for row in table.rows]
    assert totals == sorted(totals, reverse=True)


def test_best_n_counts_only_each_players_best_events(organiser, season):
    first, second, _people = season
    series = make_series(organiser, [first, second], best_of=1)
    for row in series_table(series).rows:
        counted = [s for s in row.scores if s.counted]
        assert len(counted) == 1
        assert row.total == max(s.points for s in row.scores)


def test_an_event_can_leave_and_join_and_the_standings_follow(organiser, season):
    first, second, _people = season
    series = make_series(organiser, [first, second])
    services.remove_event(series, second, organiser)
    assert [e.name for e in series_table(series).counted] == ["Week 1"]
    assert all(row.events_played == 1 for row in series_table(series).rows)
    services.add_event(series, second, organiser)
    assert len(series_table(series).counted) == 2
    actions = list(SeriesLog.objects.filter(series=series).values_list("action", flat=True))
    assert actions == ["add_event", "remove_event", "create"]


def test_a_running_event_is_listed_but_adds_nothing_until_it_is_finished(organiser, season):
    first, _second, people = season
    running = worlds.build_event(
        people[:2], organiser=organiser, judge=None, name="Week 3", paired=True
    ).event
    series = make_series(organiser, [first, running])
    table = series_table(series)
    assert [e.name for e in table.in_progress] == ["Week 3"]
    assert all(running.pk not in {s.event for s in row.scores} for row in table.rows)


# --- bad input: a clear message, nothing half-changed ---------------------------------------


def test_a_series_with_no_events_is_refused(organiser):
    before = database_rows(), Series.objects.count()
    with pytest.raises(ServiceError) as refused:
        make_series(organiser, [])
    assert refused.value.errors[0] == {
        "field": "events",
        "message": "A series needs at least one event.",
    }
    assert (database_rows(), Series.objects.count()) == before


def test_best_n_larger_than_the_events_is_refused(organiser, season):
    first, second, _ = season
    with pytest.raises(ServiceError) as refused:
        make_series(organiser, [first, second], best_of=3)
    assert refused.value.errors[0]["field"] == "best_of"
    assert "Best 3 cannot be counted: the series has 2 events." in str(refused.value)
    assert not Series.objects.exists()


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ("1: 10, 3: 6", "Place 2 has no points"),
        ("1: 10, 2: -2", "points cannot be negative"),
    ],
)
def test_a_points_table_with_gaps_or_negative_values_is_refused(organiser, season, table, said):
    first, _, _ = season
    series = make_series(organiser, [first])
    with pytest.raises(ServiceError) as refused:
        services.update_series(series, organiser, placing_points=table)
    assert refused.value.errors[0]["field"] == "placing_points"
    assert said in refused.value.errors[0]["message"]
    series.refresh_from_db()
    assert table_text(series.placing_points) == TABLE


def test_removing_the_last_event_or_one_best_n_needs_is_refused(organiser, season):
    first, second, _ = season
    lonely = make_series(organiser, [first], name="Solo")
    with pytest.raises(ServiceError, match="a series needs at least one event"):
        services.remove_event(lonely, first, organiser)
    both = make_series(organiser, [first, second], best_of=2, name="Both")
    with pytest.raises(ServiceError, match="Lower best N first"):
        services.remove_event(both, second, organiser)
    assert both.entries.count() == 2 and lonely.entries.count() == 1


def test_only_an_events_organiser_can_put_it_in_a_series(organiser, season):
    first, _, people = season
    with pytest.raises(ServiceError, match="You do not organise Week 1"):
        services.create_series(people[0], [first], name="Mine", placing_points=TABLE)
    assert not Series.objects.exists()


# --- identity across events -------------------------------------------------------------------


def test_a_walk_in_merged_into_an_account_adds_up_with_it_and_is_logged(organiser):
    ada = make_user("ada")
    others = [make_user(n) for n in ("bo", "cy", "di")]
    first = finished_event(organiser, [ada, *others], "Week 1", rounds_played=2, seed=3)
    walk_in_world = worlds.build_event(
        ["Ada L.", "Walk Two", "Walk Three", "Walk Four"],
        organiser=organiser,
        judge=None,
        name="Week 2",
        swiss_rounds=2,
        rounds_played=2,
        paired=False,
        accounts=False,
    )
    second = rounds.finish_event(walk_in_world.event, organiser)
    series = make_series(organiser, [first, second])
    assert len(series_table(series).rows) == 8

    entry = Registration.objects.get(event=second, name="Ada L.")
    offer = entry_offers.offer_entry(entry, "ada", organiser)
    assert len(series_table(series).rows) == 8  # an offer changes nothing until accepted
    entry_offers.accept_offer(offer, ada)
    table = series_table(series)
    merged = table.row_of(player_key(ada.pk, 0))
    assert merged.events_played == 2 and len(table.rows) == 7
    log = EventLog.objects.get(event=second, action="merge_walk_in")
    assert log.data["account"] == "ada" and log.actor == ada
    assert log.data["consent"] == "accepted"
    offered = EventLog.objects.get(event=second, action="entry_offered")
    assert offered.actor == organiser and offered.data["username"] == "ada"


def test_merging_into_an_account_that_played_the_same_event_is_refused(organiser, season):
    first, _, people = season
    entry = Registration.objects.create(event=first, name="Ada Again")
    offer = entry_offers.offer_entry(entry, "ada", organiser)  # the organiser is told nothing
    before = database_rows()
    with pytest.raises(ServiceError) as refused:
        entry_offers.accept_offer(offer, people[0])  # ada is told, at acceptance
    assert refused.value.errors[0]["field"] == "username"
    assert "ada also played in Week 1" in str(refused.value)
    assert database_rows() == before


def test_merging_two_accounts_that_both_played_one_event_is_refused(organiser, season):
    _first, second, people = season
    before = database_rows()
    with pytest.raises(ServiceError) as refused:
        event_services.merge_accounts(people[1], people[0], organiser)
    assert "bo and ada both played in Week 1, Week 2" in str(refused.value)
    assert database_rows() == before
    only_first = people[4]  # ed played Week 1 only; a second account with Week 2 only
    spare = make_user("ed2")
    Registration.objects.filter(event=second, user=people[3]).update(user=spare)
    moved = event_services.merge_accounts(spare, only_first, organiser)
    assert moved == 1
    assert Registration.objects.filter(user=only_first).count() == 2


# --- pages, CSV, print, API ----------------------------------------------------------------


def test_the_public_page_csv_pdf_and_api_show_the_same_standings(
    client, organiser, season, eager_tasks, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    first, second, _people = season
    series = make_series(organiser, [first, second])
    table = series_table(series)
    leader = table.rows[0]

    page = client.get(f"/series/{series.pk}/").content.decode()
    assert leader.name in page and "Week 1" in page and "Week 2" in page

    rows = list(
        csv.reader(
            io.StringIO(
                client.get(f"/series/{series.pk}/standings.csv").content.decode("utf-8-sig")
            )
        )
    )
    assert rows[0][:4] == ["rank", "player", "name", "total"] and rows[0][-2:] == [
        "Week 1",
        "Week 2",
    ]
    assert rows[1][:4] == [str(leader.rank), leader.player, leader.name, str(leader.total)]

    pdf = client.get(f"/series/{series.pk}/standings.pdf")
    assert pdf.status_code == 200 and b"".join(pdf.streaming_content).startswith(b"%PDF")

    api = client.get(f"/api/v1/series/{series.pk}/").json()
    assert api["standings"][0]["total"] == leader.total
    assert [e["name"] for e in api["events"]] == ["Week 1", "Week 2"]
    assert api["placing_points"] == [10, 8, 6, 6, 4, 4, 4, 4]

    history = client.get(f"/series/{series.pk}/players/{leader.player}/").content.decode()
    assert "Week 1" in history
    assert client.get(f"/series/{series.pk}/players/u999999/").status_code == 404


def test_a_draft_event_counts_for_nobody_and_is_not_shown(client, organiser, season):
    first, second, _ = season
    series = make_series(organiser, [first, second])
    Event.objects.filter(pk=second.pk).update(status=Event.Status.DRAFT)
    assert [e.name for e in series_table(series).counted] == ["Week 1"]
    assert "Week 2" not in client.get(f"/series/{series.pk}/").content.decode()


def test_the_organiser_form_creates_and_refuses_with_field_messages(client, organiser, season):
    first, second, _ = season
    client.force_login(organiser)
    form = {
        "name": "Spring Circuit",
        "method": "placings",
        "placing_points": "1: 10, 3: 5",
        "participation": "1",
        "best_of": "",
        "tiebreaker_1": "best_finish",
        "events": [first.pk, second.pk],
    }
    refused = client.post("/series/new/", form)
    assert refused.status_code == 200
    assert "Place 2 has no points" in refused.content.decode()
    assert not Series.objects.exists()
    made = client.post("/series/new/", {**form, "placing_points": TABLE})
    series = Series.objects.get(name="Spring Circuit")
    assert made["Location"] == f"/series/{series.pk}/"
    assert series.entries.count() == 2 and series.tiebreakers == ["best_finish"]


def test_only_the_series_organiser_may_manage_it(client, organiser, season):
    first, _, people = season
    series = make_series(organiser, [first])
    client.force_login(people[0])
    assert client.get(f"/series/{series.pk}/manage/").status_code == 403
    assert (
        client.post(f"/series/{series.pk}/events/remove/", {"event": first.pk}).status_code == 403
    )
    assert series.entries.count() == 1


def test_the_merge_command_refuses_two_accounts_of_one_event_and_moves_nothing(season):
    from django.core.management import CommandError, call_command

    before = database_rows()
    with pytest.raises(CommandError, match="bo and ada both played in Week 1"):
        call_command("merge_accounts", "bo", "ada")
    with pytest.raises(CommandError, match="No account is called 'nobody'"):
        call_command("merge_accounts", "nobody", "ada")
    assert database_rows() == before
