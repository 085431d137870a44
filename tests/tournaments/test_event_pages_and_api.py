"""Pages and API of a running event, with every role's permissions."""

import html

import pytest

from tests.conftest import database_rows, make_event, play_out
from tournaments.models import EventLog, Match, ResultChange, Round
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(make_world):
    """An 8-player event with round 1 paired; jude judges it."""
    world = make_world(8)
    return world.event, world.round, world.judge


def first_table(round_) -> Match:
    return round_.matches.order_by("table").first()


def page_text(response) -> str:
    return html.unescape(response.content.decode())


# --- who may do what, through pages ------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("player", 403), ("judge", 403), ("organiser", 200)]
)
def test_dashboard_is_for_organisers(client, running, who, status):
    event, round_, judge = running
    users = {
        "player": first_table(round_).player_a.user,
        "judge": judge,
        "organiser": event.created_by,
    }
    if who in users:
        client.force_login(users[who])
    response = client.get(f"/events/{event.pk}/manage/")
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith("/accounts/login/")
    refused = "Only this event's organisers may open this page."
    assert (refused in page_text(response)) == (status == 403)
    assert ('id="next-step"' in page_text(response)) == (status == 200)


@pytest.mark.parametrize(("who", "allowed"), [("player", False), ("judge", True)])
def test_judges_but_not_players_enter_results(client, running, who, allowed):
    event, round_, judge = running
    match = first_table(round_)
    client.force_login(judge if who == "judge" else match.player_a.user)
    before = database_rows()
    response = client.post(f"/events/{event.pk}/matches/{match.pk}/result/", {"score": "2-0"})
    match.refresh_from_db()
    assert (match.status == Match.Status.FINAL) is allowed
    assert response.status_code == (302 if allowed else 403)
    if not allowed:
        assert "organiser or judges may open this page" in page_text(response)
        assert database_rows() == before


def test_organiser_buttons_are_refused_to_players(client, running):
    event, round_, _ = running
    seated, logged = event.registrations.count(), EventLog.objects.filter(event=event).count()
    client.force_login(first_table(round_).player_a.user)
    for response in (
        client.post(f"/events/{event.pk}/next/", {"action": "start"}),
        client.post(f"/events/{event.pk}/late-entry/", {"name": "X"}),
    ):
        assert response.status_code == 403
        assert "Only this event's organisers may open this page." in page_text(response)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED and round_.started_at is None
    assert event.registrations.count() == seated
    assert EventLog.objects.filter(event=event).count() == logged


def test_stale_next_step_button_is_refused_with_a_message(client, running):
    event, _, _ = running
    client.force_login(event.created_by)
    before = database_rows()
    response = client.post(f"/events/{event.pk}/next/", {"action": "pair"}, follow=True)
    assert "not the next one any more" in response.content.decode()
    assert database_rows() == before  # round 1 is still the only one, still paired


# --- the player's match page -------------------------------------------------------------


def test_player_reports_and_opponent_confirms_on_their_pages(client, running):
    event, round_, _ = running
    match = first_table(round_)
    client.force_login(match.player_a.user)
    page = client.get(f"/events/{event.pk}/my-match/").content.decode()
    assert f"Table {match.table}" in page and match.player_b.display_name in page
    client.post(f"/events/{event.pk}/my-match/", {"action": "report", "score": "2-1"})
    client.force_login(match.player_b.user)
    page = client.get(f"/events/{event.pk}/my-match/").content.decode()
    assert "Is that right?" in page
    client.post(f"/events/{event.pk}/my-match/", {"action": "confirm"})
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert match.games.count(match.player_a_id) == 2


def test_second_player_types_their_own_wins_first(client, running):
    event, round_, _ = running
    match = first_table(round_)
    client.force_login(match.player_b.user)
    client.post(f"/events/{event.pk}/my-match/", {"action": "report", "score": "2-0"})
    match.refresh_from_db()
    assert match.games == [match.player_b_id, match.player_b_id]


def test_my_match_page_is_only_for_players(client, running):
    event, _, judge = running
    client.force_login(judge)
    response = client.get(f"/events/{event.pk}/my-match/")
    assert response.status_code == 403
    assert "You are not a player in this event." in page_text(response)


# --- public pages ------------------------------------------------------------------------


def test_public_pairings_by_name_with_search(client, running):
    event, round_, _ = running
    match = first_table(round_)
    page = client.get(f"/events/{event.pk}/pairings/").content.decode()
    assert match.player_a.display_name in page and match.player_b.display_name in page
    name = match.player_a.display_name
    hits = client.get(f"/events/{event.pk}/pairings/", {"q": name}, HTTP_HX_REQUEST="true")
    text = hits.content.decode()
    assert text.lstrip().startswith('<div id="pairing-rows"') and name in text
    assert match.player_b.display_name not in text.split(name, 1)[0]


def test_standings_bracket_and_projector_pages(client, running, organiser):
    event, round_, _ = running
    play_out(round_, organiser)
    rounds.close_round(round_, organiser)
    standings = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "1-0-0" in standings
    assert client.get(f"/events/{event.pk}/bracket/").status_code == 200
    rounds.start_round(rounds.pair_next_round(event, organiser), organiser)
    assert 'class="clock huge"' in client.get(f"/events/{event.pk}/projector/").content.decode()


def test_pages_of_an_event_without_rounds_show_empty_states(client, organiser):
    event = make_event(organiser, 2)
    assert (
        "No round has been paired yet."
        in client.get(f"/events/{event.pk}/pairings/").content.decode()
    )
    assert "No standings yet." in client.get(f"/events/{event.pk}/standings/").content.decode()


# --- the API -----------------------------------------------------------------------------


def test_api_rounds_and_pairings_are_public(client, running):
    event, _, _ = running
    body = client.get(f"/api/v1/events/{event.pk}/rounds/1/").json()
    assert body["number"] == 1 and len(body["matches"]) == 4


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("judge", 403), ("anon", 403)])
def test_api_round_actions_need_an_organiser(client, running, who, status):
    event, round_, judge = running
    if who != "anon":
        client.force_login(judge if who == "judge" else first_table(round_).player_a.user)
    before = database_rows()
    response = client.post(f"/api/v1/events/{event.pk}/rounds/1/start/")
    assert response.status_code == status
    assert response.json()["errors"][0]["message"]
    if who != "anon":
        assert "Only this event's organisers" in response.json()["errors"][0]["message"]
    assert database_rows() == before


def test_api_organiser_runs_a_round(client, running):
    event, round_, _ = running
    client.force_login(event.created_by)
    assert client.post(f"/api/v1/events/{event.pk}/rounds/1/start/").status_code == 200
    before = database_rows()
    response = client.post(f"/api/v1/events/{event.pk}/rounds/1/close/")
    assert response.status_code == 400
    assert "cannot close" in response.json()["errors"][0]["message"]
    assert database_rows() == before
    for match in round_.matches.filter(is_bye=False):
        reply = client.post(
            f"/api/v1/matches/{match.pk}/result/", {"score": "2-1"}, content_type="application/json"
        )
        assert reply.status_code == 200, reply.json()
    assert client.post(f"/api/v1/events/{event.pk}/rounds/1/close/").status_code == 200
    assert client.post(f"/api/v1/events/{event.pk}/rounds/").status_code == 201


def test_api_report_confirm_by_players(client, running):
    _, round_, _ = running
    match = first_table(round_)
    client.force_login(match.player_a.user)
    url = f"/api/v1/matches/{match.pk}/"
    assert (
        client.post(url + "report/", {"score": "2-0"}, content_type="application/json").json()[
            "status"
        ]
        == "reported"
    )
    before = database_rows()
    refused = client.post(url + "confirm/")  # not the reporter's to confirm
    assert refused.status_code == 400
    assert "opponent must confirm" in refused.json()["errors"][0]["message"]
    assert database_rows() == before
    client.force_login(match.player_b.user)
    assert client.post(url + "confirm/").json()["status"] == "confirmed"


def test_api_refuses_a_bad_score_with_a_message(client, running):
    _, round_, _ = running
    match = first_table(round_)
    client.force_login(match.player_a.user)
    before = database_rows()
    response = client.post(
        f"/api/v1/matches/{match.pk}/report/", {"score": "7-0"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "nobody wins more than 2" in response.json()["errors"][0]["message"]
    assert database_rows() == before


def test_api_other_players_cannot_touch_a_match(client, running):
    _, round_, _ = running
    match = first_table(round_)
    other = round_.matches.order_by("table")[1]
    client.force_login(other.player_a.user)
    response = client.post(
        f"/api/v1/matches/{match.pk}/report/", {"score": "2-0"}, content_type="application/json"
    )
    assert response.status_code == 403
    assert "Only the players of this match" in response.json()["errors"][0]["message"]
    match.refresh_from_db()
    assert (match.status, match.games, match.reported_by_id) == (Match.Status.PENDING, [], None)
    assert not ResultChange.objects.filter(match=match).exists()


def test_api_standings_rows_follow_the_contract(client, running, organiser):
    event, round_, _ = running
    results.enter_result(first_table(round_), Score(2, 0), organiser)
    play_out(round_, organiser)
    rounds.close_round(round_, organiser)
    rows = client.get(f"/api/v1/events/{event.pk}/standings/").json()
    assert len(rows) == 8
    assert set(rows[0]) >= {"rank", "player", "name", "match_points", "record", "omw", "gw", "ogw"}
    assert [row["rank"] for row in rows] == list(range(1, 9))


def test_standings_command_prints_the_contract_rows(running, organiser):
    import json
    from io import StringIO

    from django.core.management import call_command

    event, round_, _ = running
    play_out(round_, organiser)
    rounds.close_round(round_, organiser)
    out = StringIO()
    call_command("standings", event.pk, "--json", stdout=out)
    rows = json.loads(out.getvalue())
    assert [r["rank"] for r in rows] == list(range(1, 9))
    assert {r["record"] for r in rows} == {"1-0-0", "0-1-0"}


def test_api_players_check_in_late_entry_and_pin(client, organiser):
    event = make_event(organiser, 2)
    client.force_login(organiser)
    url = f"/api/v1/events/{event.pk}/players/"
    late = client.post(
        url, {"action": "late_entry", "name": "Lou"}, content_type="application/json"
    )
    assert late.status_code == 201
    registration = late.json()["registration"]
    pinned = client.post(
        url,
        {"action": "pin", "registration": registration, "table": 1},
        content_type="application/json",
    )
    assert pinned.json()["table_pin"] == 1
    before = database_rows()
    bad = client.post(
        url,
        {"action": "pin", "registration": registration, "table": "x"},
        content_type="application/json",
    )
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "table"
    assert database_rows() == before  # still pinned to table 1
    names = [p["name"] for p in client.get(url).json()]
    assert "Lou" in names


def test_api_players_is_refused_to_players(client, running):
    event, round_, _ = running
    client.force_login(first_table(round_).player_a.user)
    response = client.get(f"/api/v1/events/{event.pk}/players/")
    assert response.status_code == 403
    body = response.json()
    assert "organiser or judges" in body["errors"][0]["message"] and "registration" not in body


def test_match_page_from_the_slip_qr_code(client, running):
    event, round_, judge = running
    match = first_table(round_)
    url = f"/events/{event.pk}/matches/{match.pk}/"
    assert client.get(url)["Location"] == f"/accounts/login/?next={url}"  # log in first
    client.force_login(round_.matches.order_by("table")[1].player_a.user)
    refused = client.get(url)  # another table's player
    assert refused.status_code == 403
    assert "Only the players of this match and the event's staff" in page_text(refused)
    client.force_login(match.player_a.user)
    client.post(url, {"action": "report", "score": "2-0"})
    client.force_login(match.player_b.user)
    assert "Is that right?" in client.get(url).content.decode()
    client.force_login(judge)
    entry = {"score": "2-1", "next": url, "version": results.result_version(match)}
    client.post(f"/events/{event.pk}/matches/{match.pk}/result/", entry)  # overrides 2-0
    match.refresh_from_db()
    assert match.status == "reported"  # refused: another result than the report needs a reason
    client.post(f"/events/{event.pk}/matches/{match.pk}/result/", {**entry, "reason": "Misread"})
    match.refresh_from_db()
    assert match.status == "final"


def test_result_entry_never_redirects_off_site(client, running):
    event, round_, judge = running
    match = first_table(round_)
    client.force_login(judge)
    response = client.post(
        f"/events/{event.pk}/matches/{match.pk}/result/",
        {"score": "2-1", "next": "https://evil.example/"},
    )
    assert response["Location"] == f"/events/{event.pk}/manage/"
