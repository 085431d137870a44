"""Disputes keep both sides: every claim a player makes is kept as they made it, and a
disputed match is the judges' alone until one of them settles it."""

import html
import re
from contextlib import contextmanager

import pytest

from tests.conftest import database_rows, refused
from tournaments.models import Match, MatchClaim
from tournaments.record.match_games import Score
from tournaments.results import services as results
from web.errors import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_world):
    return make_world(8)


@pytest.fixture
def table(world) -> Match:
    return world.round.matches.filter(is_bye=False).order_by("table").first()


@contextmanager
def refused_with_claims(match: str):
    """``refused``, and no claim written either."""
    claims = list(MatchClaim.objects.order_by("pk").values_list())
    with refused(match) as caught:
        yield caught
    assert list(MatchClaim.objects.order_by("pk").values_list()) == claims


def report(table: Match, player, typed: str) -> Match:
    """``player`` reports ``typed``, their own wins first, as the pages and the API do."""
    return results.report_result(table, player, results.parse_score(typed), player.user)


def disputed(table: Match) -> Match:
    """Ada (first player) reports 2-1; Bea disputes it."""
    a, b = table.player_a, table.player_b
    report(table, a, "2-1")
    return results.dispute_result(table, b, b.user, "I won game 3")


def test_the_reporter_cannot_take_a_disputed_match_back_by_reporting_again(table):
    a = table.player_a
    disputed(table)
    with refused_with_claims(f"A judge has been called to table {table.table}"):
        report(table, a, "2-0")
    table.refresh_from_db()
    assert table.status == Match.Status.DISPUTED


def claims_of(table: Match) -> list[tuple]:
    return [(c.player_id, c.kind, c.score, c.reason) for c in table.claims.all()]


# --- claims: both sides, as each player typed them ---------------------------------------


def test_a_dispute_keeps_the_disputing_players_own_score_and_reason(table):
    a, b = table.player_a, table.player_b
    report(table, a, "2-1")
    results.dispute_result(table, b, b.user, "I won game 3", results.parse_score("2-1"))
    assert claims_of(table) == [
        (a.pk, "report", "2-1", ""),
        (b.pk, "dispute", "2-1", "I won game 3"),
    ]
    table.refresh_from_db()
    assert table.status == Match.Status.DISPUTED
    assert table.games == [a.pk, a.pk, b.pk]  # the report stands until a judge settles it


def test_a_dispute_may_give_no_score(table):
    a, b = table.player_a, table.player_b
    disputed(table)
    assert claims_of(table) == [(a.pk, "report", "2-1", ""), (b.pk, "dispute", "", "I won game 3")]


def test_a_second_report_that_differs_is_kept_as_a_claim_too(table):
    a, b = table.player_a, table.player_b
    report(table, a, "2-1")
    report(table, b, "2\u20130")  # an en dash, as phones type it
    table.refresh_from_db()
    assert table.status == Match.Status.DISPUTED
    assert claims_of(table) == [(a.pk, "report", "2-1", ""), (b.pk, "dispute", "2-0", "")]


def test_a_confirmation_is_kept_from_the_confirming_players_side(table):
    a, b = table.player_a, table.player_b
    report(table, a, "2-1-0")
    results.confirm_result(table, b, b.user)
    assert claims_of(table) == [(a.pk, "report", "2-1", ""), (b.pk, "confirm", "1-2", "")]


def test_the_same_report_from_the_opponent_confirms_and_is_kept(table):
    a, b = table.player_a, table.player_b
    report(table, a, "2-1")
    report(table, b, "1-2")
    table.refresh_from_db()
    assert table.status == Match.Status.CONFIRMED
    assert claims_of(table) == [(a.pk, "report", "2-1", ""), (b.pk, "confirm", "1-2", "")]


@pytest.mark.parametrize(("typed", "words"), [("3-0", "nobody wins more than 2"), ("2-2", "Both")])
def test_a_disputing_score_is_checked_against_the_format(table, typed, words):
    a, b = table.player_a, table.player_b
    report(table, a, "2-1")
    with refused_with_claims(words) as caught:
        results.dispute_result(table, b, b.user, "no", results.parse_score(typed))
    assert caught.value.field == "score"


# --- while disputed, only staff change the match -----------------------------------------


@pytest.mark.parametrize("who", ["reporter", "opponent"])
def test_no_player_changes_a_disputed_match(table, who):
    a, b = table.player_a, table.player_b
    disputed(table)
    player = a if who == "reporter" else b
    expected = f"A judge has been called to table {table.table}: only a judge can change"
    with refused_with_claims(expected):
        report(table, player, "2-1")
    with refused_with_claims(expected):
        results.confirm_result(table, player, player.user)
    with refused_with_claims(expected):
        results.dispute_result(table, player, player.user, "again")


# --- staff entries: a reason where they override the players -----------------------------


def test_settling_a_dispute_needs_a_reason_and_is_logged_as_a_settlement(world, table):
    disputed(table)
    with refused_with_claims("Settling a dispute overrides a player's report") as caught:
        results.enter_result(table, Score(1, 2), world.judge)
    assert caught.value.field == "reason"
    with refused_with_claims("give a reason"):
        results.enter_result(table, Score(1, 2), world.judge, "   ")
    results.enter_result(table, Score(1, 2), world.judge, "Both agreed game 3 went to Bea")
    table.refresh_from_db()
    assert table.status == Match.Status.FINAL and str(results.games_of(table).score) == "1-2"
    change = table.changes.last()
    assert (change.action, change.changed_by, change.reason) == (
        "settle",
        world.judge,
        "Both agreed game 3 went to Bea",
    )
    assert (change.before["score"], change.after["score"]) == ("2-1", "1-2")


@pytest.mark.parametrize("confirmed", [False, True])
def test_overriding_what_the_players_said_needs_a_reason(world, table, confirmed):
    a, b = table.player_a, table.player_b
    report(table, a, "2-1")
    if confirmed:
        results.confirm_result(table, b, b.user)
    said = "The players confirmed" if confirmed else f"{a.display_name} reported"
    with refused_with_claims(f"{said} 2-1: give a reason") as caught:
        results.enter_result(table, Score(2, 0), world.judge)
    assert caught.value.field == "reason"
    # The players' own result needs none: the judge only makes it final.
    assert results.enter_result(table, Score(2, 1), world.judge).status == Match.Status.FINAL


def test_a_first_entry_and_a_correction_of_staff_need_no_reason(world, table):
    results.enter_result(table, Score(2, 0), world.judge)
    assert results.enter_result(table, Score(2, 1), world.judge).status == Match.Status.FINAL
    assert [c.action for c in table.changes.all()] == ["enter", "correct"]


def test_a_closed_round_needs_a_reason_naming_the_field(world, table):
    from tests.conftest import play_out
    from tournaments.rounds import services as rounds

    play_out(world.round, world.organiser)
    rounds.close_round(world.round, world.organiser)
    with refused_with_claims("Round 1 is closed: give a reason") as caught:
        results.enter_result(table, Score(0, 2), world.judge)
    assert caught.value.field == "reason"


@pytest.mark.parametrize(
    ("score", "words"), [(Score(3, 0), "nobody wins more than 2"), (Score(2, 2), "Both")]
)
def test_a_staff_score_the_format_does_not_allow_names_the_score(world, table, score, words):
    disputed(table)
    with refused_with_claims(words) as caught:
        results.enter_result(table, score, world.judge, "a reason")
    assert caught.value.field == "score"


def test_a_score_that_is_no_score_names_the_field():
    with pytest.raises(ServiceError, match="'abc' is not a score") as caught:
        results.parse_score("abc")
    assert caught.value.field == "score"


# --- the API: the claims in the match's JSON; the dispute's body -------------------------


def api(client, table: Match, action: str, body: dict | None = None):
    return client.post(
        f"/api/v1/matches/{table.pk}/{action}/", body or {}, content_type="application/json"
    )


def api_match(client, world, table: Match) -> dict:
    matches = client.get(f"/api/v1/events/{world.event.pk}/rounds/1/").json()["matches"]
    return next(m for m in matches if m["id"] == table.pk)


def test_the_matchs_json_carries_both_sides_reports(client, world, table):
    a, b = table.player_a, table.player_b
    client.force_login(a.user)
    assert api(client, table, "report", {"score": "2-1"}).status_code == 200
    client.force_login(b.user)
    reply = api(client, table, "dispute", {"score": "2-1", "reason": "I won game 3"})
    assert reply.status_code == 200, reply.json()
    claims = list(table.claims.all())
    expected = [
        {"player": a.public_id, "kind": "report", "score": "2-1", "at": claims[0].at.isoformat()},
        {"player": b.public_id, "kind": "dispute", "score": "2-1", "at": claims[1].at.isoformat()},
    ]
    assert reply.json()["reports"] == expected
    assert api_match(client, world, table)["reports"] == expected


def test_a_dispute_without_a_score_reports_none(client, world, table):
    a, b = table.player_a, table.player_b
    client.force_login(a.user)
    api(client, table, "report", {"score": "2-0"})
    client.force_login(b.user)
    assert api(client, table, "dispute").status_code == 200
    reports = api_match(client, world, table)["reports"]
    assert [(r["player"], r["kind"], r["score"]) for r in reports] == [
        (a.public_id, "report", "2-0"),
        (b.public_id, "dispute", None),
    ]


@pytest.mark.parametrize(("typed", "words"), [("abc", "is not a score"), ("3-0", "more than 2")])
def test_the_api_refuses_a_disputing_score_the_format_does_not_allow(client, table, typed, words):
    a, b = table.player_a, table.player_b
    client.force_login(a.user)
    api(client, table, "report", {"score": "2-1"})
    client.force_login(b.user)
    claims = MatchClaim.objects.count()
    before = database_rows()
    reply = api(client, table, "dispute", {"score": typed, "reason": "no"})
    assert reply.status_code == 400
    [error] = reply.json()["errors"]
    assert error["field"] == "score" and words in error["message"]
    assert database_rows() == before and MatchClaim.objects.count() == claims


def test_the_api_refuses_a_players_report_while_disputed(client, table):
    disputed(table)
    client.force_login(table.player_a.user)
    before, claims = database_rows(), MatchClaim.objects.count()
    reply = api(client, table, "report", {"score": "2-0"})
    assert reply.status_code == 400
    assert "A judge has been called to table" in reply.json()["errors"][0]["message"]
    assert database_rows() == before and MatchClaim.objects.count() == claims


def test_the_api_result_follows_the_reason_rule(client, world, table):
    disputed(table)
    client.force_login(world.judge)
    before = database_rows()
    version = results.result_version(table)
    reply = api(client, table, "result", {"score": "1-2", "version": version})
    assert reply.status_code == 400
    assert reply.json()["errors"][0]["field"] == "reason"
    assert database_rows() == before
    settle = {"score": "1-2", "reason": "Game 3 was Bea's", "version": version}
    reply = api(client, table, "result", settle)
    assert reply.status_code == 200 and reply.json()["status"] == "final"
    assert table.changes.last().action == "settle"


def test_round_queries_do_not_grow_with_the_claims(client, world):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = f"/api/v1/events/{world.event.pk}/rounds/1/"

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    without_claims = queries()
    for table in world.round.matches.filter(is_bye=False):
        disputed(table)
    assert queries() == without_claims
    assert all(len(m["reports"]) == 2 for m in client.get(url).json()["matches"])


# --- the players' pages --------------------------------------------------------------------


def my_match(client, world, player) -> str:
    client.force_login(player.user)
    return html.unescape(client.get(f"/events/{world.event.pk}/my-match/").content.decode())


def words(page: str) -> str:
    """The page's text as a reader sees it: no tags, single spaces."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).split()).replace(" .", ".")


def test_no_call_a_judge_asks_for_the_players_own_result_and_a_reason(client, world, table):
    a, b = table.player_a, table.player_b
    report(table, a, "2-1")
    page = my_match(client, world, b)
    assert "No, call a judge" in page
    form = page[page.index('class="dispute-form"') :]
    form = form[: form.index("</form>")]
    assert 'name="score"' in form and 'name="reason"' in form
    client.post(
        f"/events/{world.event.pk}/my-match/",
        {"action": "dispute", "score": "2-1", "reason": "I won game 3"},
    )
    assert claims_of(table)[-1] == (b.pk, "dispute", "2-1", "I won game 3")


def test_both_players_read_that_a_judge_was_called_then_the_settled_result(client, world, table):
    a, b = table.player_a, table.player_b
    disputed(table)
    called = f"A judge has been called to table {table.table}: only a judge can change"
    for player in (a, b):
        page = my_match(client, world, player)
        assert called in page and "Report result" not in page and "Yes, confirm" not in page
    results.enter_result(table, Score(1, 2), world.judge, "Game 3 was Bea's")
    settled = "A judge settled the result: {} with your wins first"
    assert settled.format("1-2") + " (Game 3 was Bea's)." in words(my_match(client, world, a))
    assert settled.format("2-1") in words(my_match(client, world, b))


@pytest.mark.parametrize("where", ["my-match", "match"])
def test_a_report_posted_while_disputed_is_refused_on_the_page(client, world, table, where):
    disputed(table)
    client.force_login(table.player_a.user)
    url = (
        f"/events/{world.event.pk}/my-match/"
        if where == "my-match"
        else f"/events/{world.event.pk}/matches/{table.pk}/"
    )
    before, claims = database_rows(), MatchClaim.objects.count()
    response = client.post(url, {"action": "report", "score": "2-0"}, follow=True)
    assert "A judge has been called to table" in html.unescape(response.content.decode())
    assert database_rows() == before and MatchClaim.objects.count() == claims


def test_the_match_pages_staff_form_asks_for_a_reason(client, world, table):
    disputed(table)
    client.force_login(world.judge)
    page = client.get(f"/events/{world.event.pk}/matches/{table.pk}/").content.decode()
    form = page[page.index("Enter result as staff") - 1500 : page.index("Enter result as staff")]
    assert 'name="reason"' in form
    response = client.post(
        f"/events/{world.event.pk}/matches/{table.pk}/result/",
        {
            "score": "1-2",
            "next": f"/events/{world.event.pk}/matches/{table.pk}/",
            "version": results.result_version(table),
        },
        follow=True,
    )
    assert "Settling a dispute overrides a player's report" in html.unescape(
        response.content.decode()
    )
    table.refresh_from_db()
    assert table.status == Match.Status.DISPUTED
