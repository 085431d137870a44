"""Settling where the judge stands: the table page shows both sides of a dispute and
settles it, or enters or corrects a result, through tournaments' result services."""

import html
import re

import pytest

from tests.conftest import database_rows
from tournaments.models import Match, MatchClaim, ResultChange
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_world):
    return make_world(4)


@pytest.fixture
def table(world) -> Match:
    return world.table(1)


def words(response) -> str:
    """The page's text as a reader sees it: no tags, single spaces."""
    text = html.unescape(response.content.decode())
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())


def dispute(table: Match) -> None:
    """The first player reports 2-1; the second disputes, saying 2-1 for themselves."""
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score(2, 1), a.user)
    results.dispute_result(table, b, b.user, "I won game 3", Score(2, 1))


def page_url(world, table) -> str:
    return f"/events/{world.event.pk}/judge/tables/{table.pk}/"


def settle(client, world, table, **form):
    """Post the settle form as the page draws it: with the result's current version."""
    form.setdefault("version", results.result_version(Match.objects.get(pk=table.pk)))
    return client.post(page_url(world, table) + "result/", form)


def unchanged():
    """Every row a refusal must leave alone, the claims with them."""
    return database_rows(), list(MatchClaim.objects.values_list())


def test_the_table_page_shows_both_claims_and_a_settle_form_named_for_the_players(
    client, world, table
):
    dispute(table)
    client.force_login(world.judge)
    page = client.get(page_url(world, table))
    text = words(page)
    a, b = table.player_a.display_name, table.player_b.display_name
    assert f"{a} reported 2-1 ({a}'s wins first)" in text
    assert f"{b} disputed 2-1 ({b}'s wins first: 1-2 with {a} first) I won game 3" in text
    assert "Settle the dispute" in text
    assert f"Result: {a} 's wins first, then {b} 's" in text
    assert "(required to settle a dispute)" in text
    assert f'action="{page_url(world, table)}result/"' in page.content.decode()


def test_settling_without_a_reason_is_refused_next_to_the_field_with_the_score_kept(
    client, world, table
):
    dispute(table)
    client.force_login(world.judge)
    before = unchanged()
    response = settle(client, world, table, score="1-2", reason=" ")
    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r'id="settle-reason-error"[^>]*>Settling a dispute overrides', page)
    assert 'name="score" value="1-2"' in page
    assert unchanged() == before


@pytest.mark.parametrize(
    ("score", "message"),
    [
        ("3-0", "nobody wins more than 2 games"),
        ("abc", "'abc' is not a score"),
        ("", "not a score"),
    ],
)
def test_a_score_the_format_does_not_allow_is_refused_by_the_score(
    client, world, table, score, message
):
    dispute(table)
    client.force_login(world.judge)
    before = unchanged()
    response = settle(client, world, table, score=score, reason="Judge call")
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert re.search(r'id="settle-score-error"[^>]*>[^<]*' + re.escape(message), page)
    assert "Judge call</textarea>" in page  # the reason typed is kept
    assert unchanged() == before


def test_settling_with_a_reason_writes_the_settlement_and_the_history_reads_it(
    client, world, table
):
    dispute(table)
    client.force_login(world.judge)
    response = settle(client, world, table, score="1-2", reason="Game 3 was theirs")
    assert response.status_code == 302 and response["Location"] == page_url(world, table)
    table.refresh_from_db()
    assert table.status == Match.Status.FINAL and table.games.count(table.player_b_id) == 2
    change = ResultChange.objects.filter(match=table).last()
    assert (change.action, change.changed_by, change.reason) == (
        "settle",
        world.judge,
        "Game 3 was theirs",
    )
    page = client.get(page_url(world, table))
    at = change.changed_at.strftime("%H:%M")
    assert f"{at} · settled by jude: 2-1 → 1-2 — Game 3 was theirs" in words(page)
    assert "Dispute settled" in words(page)


def test_the_history_names_a_penaltys_source_and_rule(client, world, table):
    results.enter_result(table, Score(2, 1), world.judge)
    ResultChange.objects.filter(match=table).update(source="penalty:7", rule="905.1")
    client.force_login(world.judge)
    assert "entered by jude: — → 2-1 (source penalty:7, rule 905.1)" in words(
        client.get(page_url(world, table))
    )


def test_an_entry_over_a_report_needs_a_reason_only_when_it_differs(client, world, table):
    a = table.player_a
    results.report_result(table, a, Score(2, 1), a.user)
    client.force_login(world.organiser)
    before = unchanged()
    response = settle(client, world, table, score="2-0")
    assert response.status_code == 400
    assert f"{a.display_name} reported 2-1: give a reason" in words(response)
    assert unchanged() == before
    assert settle(client, world, table, score="2-1").status_code == 302
    table.refresh_from_db()
    assert table.status == Match.Status.FINAL


def test_a_closed_round_is_corrected_only_with_a_reason(client, world, table):
    from tests.conftest import play_out

    play_out(world.round, world.organiser)
    rounds.close_round(world.round, world.organiser)
    client.force_login(world.judge)
    before = unchanged()
    response = settle(client, world, table, score="0-2")
    assert response.status_code == 400
    assert "Round 1 is closed: give a reason for the correction." in words(response)
    assert unchanged() == before
    assert settle(client, world, table, score="0-2", reason="Slip misread").status_code == 302
    assert ResultChange.objects.filter(match=table).last().action == "correct"


def test_a_player_cannot_settle(client, world, table):
    dispute(table)
    client.force_login(table.player_a.user)
    before = unchanged()
    assert settle(client, world, table, score="2-0", reason="mine").status_code == 403
    assert unchanged() == before


def test_the_table_page_reads_out_the_ruling_given_at_a_call(client, world, table, judge):
    from judging import calls

    call = calls.open_call(world.event, judge, question="How many cards do I keep?", match=table)
    payload = {"hand": 9, "deck": 1, "reserve": 5, "is_first_turn": True}
    call = calls.attach_ruling(call, judge, game="iacta", question="maintenance", payload=payload)
    client.force_login(judge)
    page = words(client.get(page_url(world, table)))
    explanation = " ".join(call.ruling_answer["explanation"].split())
    assert "How many cards do I keep? open" in page
    assert f"Ruling (iacta, maintenance): {explanation}" in page


def drawn_form(client, world, table) -> dict:
    """The settle form's hidden fields as the table page drew them."""
    body = client.get(page_url(world, table)).content.decode()
    form = body[body.index('class="settle-form"') :]
    return {
        "once": re.search(r'name="once" value="([^"]+)"', form)[1],
        "version": re.search(r'name="version" value="(\d+)"', form)[1],
    }


def test_a_second_judge_settling_the_same_dispute_sees_the_first_decision(client, world, table):
    dispute(table)
    client.force_login(world.judge)
    judge_form = drawn_form(client, world, table)
    client.force_login(world.organiser)
    organiser_form = drawn_form(client, world, table)
    client.force_login(world.judge)
    first = client.post(
        page_url(world, table) + "result/", {**judge_form, "score": "2-1", "reason": "A won"}
    )
    assert first.status_code == 302
    before = unchanged()
    client.force_login(world.organiser)
    late = client.post(
        page_url(world, table) + "result/", {**organiser_form, "score": "1-2", "reason": "B won"}
    )
    assert late.status_code == 409
    said = words(late)
    a, b = table.player_a.display_name, table.player_b.display_name
    assert "The result changed since you saw it: settled by jude at" in said
    assert f"(A won). It is now {a} 2-1 {b} (Entered by staff)" in said
    assert unchanged() == before
    current = results.result_version(Match.objects.get(pk=table.pk))
    assert f'name="version" value="{current}"' in late.content.decode()
    assert 'value="1-2"' in late.content.decode()  # what they typed, kept


def test_a_settle_form_sent_twice_settles_once(client, world, table):
    dispute(table)
    client.force_login(world.judge)
    form = {**drawn_form(client, world, table), "score": "2-1", "reason": "A won"}
    first = client.post(page_url(world, table) + "result/", form)
    again = client.post(page_url(world, table) + "result/", form)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert ResultChange.objects.filter(match=table, action="settle").count() == 1
    assert ResultChange.objects.filter(match=table).count() == 3  # report, dispute, settle
    assert words(client.get(first["Location"])).count("Dispute settled:") == 2


def test_a_penalty_form_sent_twice_logs_one_penalty(client, world, table):
    from judging.models import Penalty

    client.force_login(world.judge)
    url = f"/events/{world.event.pk}/penalties/new/"
    page = client.get(url + f"?match={table.pk}").content.decode()
    token = re.search(r'name="once" value="([^"]+)"', page)[1]
    form = {
        "once": token,
        "match": table.pk,
        "player": table.player_a.pk,
        "infraction": "slow_play",
        "game": "1",
    }
    first = client.post(url, form)
    again = client.post(url, form)
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"]
    assert Penalty.objects.count() == 1
