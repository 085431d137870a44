"""The precedent pages (issue 35): the judges' search, the public list per game, the earlier
rulings beside a judge call and the form that keeps a call's ruling."""

from __future__ import annotations

import pytest
from django.urls import reverse

from judging.calls import open_call, resolve_call
from precedents.models import Precedent
from tests.conftest import make_user
from tournaments.models import Event, EventRole

pytestmark = pytest.mark.django_db


def test_a_judge_searches_by_a_misspelt_card_and_reads_the_rules_cited(client, kept, judge):
    client.force_login(judge)
    page = client.get(reverse("precedents:search"), {"card": "Glas Wardn"})
    html = page.content.decode()
    assert page.status_code == 200
    assert html.count('class="precedent"') == 2
    assert 'href="/rules/iacta/#202.1"' in html  # every rule links into the rulebook
    assert "ruled by jude" in html


def test_the_search_answers_htmx_with_its_results_alone(client, kept, judge):
    client.force_login(judge)
    page = client.get(reverse("precedents:search"), {"q": "counterfeit"}, HTTP_HX_REQUEST="true")
    html = page.content.decode()
    assert html.startswith('<div id="precedent-results"') and "<html" not in html
    assert html.count('class="precedent"') == 1


def test_a_bad_search_says_what_is_wrong(client, kept, judge):
    client.force_login(judge)
    page = client.get(reverse("precedents:search"), {"order": "oldest"})
    assert page.status_code == 400 and "Order by newest or upheld" in page.content.decode()


def test_a_player_may_not_search_the_judges_precedents(client, kept):
    client.force_login(make_user("pia"))
    assert client.get(reverse("precedents:search")).status_code == 403


def test_the_public_page_lists_public_precedents_without_names(client, kept):
    page = client.get(reverse("precedents:public", args=["iacta"]))
    html = page.content.decode()
    assert html.count('class="precedent"') == 1  # the judges-only ones are not there
    assert "Five Ember Tithe" in html
    assert "ruled by" not in html and "jude" not in html
    assert client.get(reverse("precedents:public", args=["chess"])).status_code == 404


def test_the_call_page_shows_earlier_rulings_on_the_cards_it_names(client, make_world, kept):
    """A call in another event names Ember Tithe in its words: the earlier ruling shows."""
    world = make_world(4, name="Second Open", judge=None)
    judge_b = make_user("jon")
    EventRole.objects.create(event=world.event, user=judge_b, role=EventRole.Role.JUDGE)
    call = open_call(world.event, judge_b, question="Does ember tithe count twice?", table=1)
    client.force_login(judge_b)
    page = client.get(
        reverse("precedents:for_call", args=[world.event.pk, call.pk]), HTTP_HX_REQUEST="true"
    )
    html = page.content.decode()
    assert "1 earlier ruling on Ember Tithe with 201.1, 202.1" in html
    assert "upheld 1 time" in html
    assert "Keep as a precedent" not in html  # a floor judge, and the call is open


def test_the_organiser_keeps_a_ruling_through_the_call_page(client, make_world, organiser, judge):
    world = make_world(4)
    call = open_call(world.event, judge, question="Deck count?", table=1)
    call = resolve_call(
        call,
        judge,
        resolution="Legal.",
        minutes=1,
        ruling={
            "game": "iacta",
            "question": "pay-cost",
            "payload": {"cost": ["4+"], "reserve": [5]},
        },
    )
    client.force_login(organiser)
    panel = client.get(reverse("precedents:for_call", args=[world.event.pk, call.pk]))
    assert "Keep as a precedent" in panel.content.decode()
    url = reverse("precedents:mark", args=[world.event.pk, call.pk])
    refused = client.post(url, {"decision": "perhaps"}, follow=True)
    assert "upheld or overturned" in refused.content.decode()
    assert not Precedent.objects.exists()
    kept = client.post(url, {"decision": "upheld", "visibility": "public", "note": "Fine."})
    assert kept.status_code == 302
    precedent = Precedent.objects.get()
    assert (precedent.visibility, precedent.note) == ("public", "Fine.")
    client.force_login(judge)
    assert client.post(url, {"decision": "overturned"}).status_code == 403
    assert Precedent.objects.get().decision == "upheld"


def test_a_draft_events_rulings_stay_off_the_public_page(client, kept):
    Event.objects.filter(pk=kept["event"].pk).update(status=Event.Status.DRAFT)
    html = client.get(reverse("precedents:public", args=["iacta"])).content.decode()
    assert 'class="precedent"' not in html and "No public precedent matches" in html


def test_the_head_judge_keeps_an_appeals_outcome_from_the_call_page(
    client, make_world, organiser, judge
):
    world = make_world(4)
    name = world.table(1).player_a.display_name
    call = open_call(world.event, judge, question="Deck count?", table=1)
    ruling = {"game": "iacta", "question": "pay-cost", "payload": {"cost": ["4+"], "reserve": [5]}}
    call = resolve_call(call, judge, resolution="Legal.", minutes=1, ruling=ruling)
    url = reverse("precedents:appeal", args=[world.event.pk, call.pk])
    client.force_login(organiser)
    assert client.post(url, {"outcome": "upheld", "appeal": "x"}).status_code == 404  # no precedent
    client.post(reverse("precedents:mark", args=[world.event.pk, call.pk]), {"decision": "upheld"})
    refused = client.post(url, {"outcome": "maybe", "appeal": "x"}, follow=True)
    assert "Say whether the appeal upheld the ruling." in refused.content.decode()
    assert Precedent.objects.get().appeal_upheld is None
    client.post(url, {"outcome": "overturned", "appeal": f"{name} appealed; the ruling fell."})
    precedent = Precedent.objects.get()
    assert precedent.appeal_upheld is False and not precedent.stood
    assert precedent.appeal == "Player A appealed; the ruling fell."
    client.force_login(judge)
    assert client.post(url, {"outcome": "upheld", "appeal": "No."}).status_code == 403
