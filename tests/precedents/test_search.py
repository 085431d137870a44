"""Finding precedents (issue 35): by a misspelt card name, by a rule number, by question and
by free text, with the same answers on SQLite's FTS5 (pass 1) and PostgreSQL's text search
(the services pass); and who may see which precedent."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from precedents import search, services
from precedents.models import Precedent
from tests.conftest import make_user
from tournaments.models import Event, EventRole

pytestmark = pytest.mark.django_db


def found(user, **params) -> list[int]:
    query = search.read_query({k: v for k, v in params.items()})
    return [p.pk for p in search.find(query, user).precedents]


def test_a_misspelt_card_a_rule_number_and_free_text_find_the_same_precedent(kept, judge):
    tithe = kept["tithe"].pk
    assert found(judge, card="Embr Tith") == [tithe]
    assert found(judge, card="ember tithe") == [tithe]
    assert set(found(judge, rule="202.1")) == {tithe, kept["warden"].pk}
    assert found(judge, q="counterfeit fifth") == [tithe]
    assert found(judge, q="counterf") == [tithe]  # a word's beginning is enough
    assert found(judge, card="Embr Tith", rule="202.1", q="fifth copy") == [tithe]


def test_rule_sections_questions_and_games_narrow_the_search(kept, judge):
    assert set(found(judge, rule="202")) == {kept["tithe"].pk, kept["warden"].pk}
    assert found(judge, rule="Quick-start: Playing Cards") == [kept["cost"].pk]
    assert found(judge, question="pay-cost") == [kept["cost"].pk]
    assert found(judge, game="superjack", card="Ember Tithe") == []
    assert found(judge, q="nothing like this") == []


def test_newest_first_or_those_that_stood_first(kept, judge):
    Precedent.objects.filter(pk=kept["warden"].pk).update(ruled_on="2030-01-01")
    newest = found(judge, card="Glass Warden")
    assert newest == [kept["warden"].pk, kept["tithe"].pk]
    upheld = found(judge, card="Glass Warden", order="upheld")
    assert upheld == [kept["tithe"].pk, kept["warden"].pk]  # the warden ruling was overturned


def test_who_sees_which_precedent(kept, judge, organiser):
    everyone = AnonymousUser()
    player = make_user("pia")
    assert found(everyone, card="Ember Tithe") == [kept["tithe"].pk]  # public
    assert found(everyone, card="Glass Warden") == [kept["tithe"].pk]  # the other is judges'
    assert found(player, card="Glass Warden") == [kept["tithe"].pk]
    other_judge = make_user("otto")
    elsewhere = Event.objects.create(name="Elsewhere Open", game="iacta")
    EventRole.objects.create(event=elsewhere, user=other_judge, role=EventRole.Role.JUDGE)
    assert len(found(other_judge, card="Glass Warden")) == 2
    Event.objects.filter(pk=kept["event"].pk).update(status=Event.Status.DRAFT)
    assert found(other_judge, card="Glass Warden") == []  # a draft event's rulings stay in it
    assert found(everyone, card="Ember Tithe") == []
    assert len(found(judge, card="Glass Warden")) == 2  # its own judges still see them


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"game": "chess"}, "game"),
        ({"order": "oldest"}, "order"),
        ({"q": "x" * 201}, "q"),
        ({"card": ",".join(f"c{i}" for i in range(7))}, "card"),
    ],
)
def test_a_query_it_cannot_use_is_refused_naming_the_parameter(params, field):
    with pytest.raises(services.ServiceError) as refused:
        search.read_query(params)
    assert refused.value.errors[0]["field"] == field


def test_deleting_a_precedent_takes_it_out_of_the_text_index(kept, judge):
    kept["tithe"].delete()
    assert found(judge, q="counterfeit") == []


def test_a_term_most_precedents_carry_is_searched_the_other_way_with_the_same_answer(
    kept, judge, monkeypatch
):
    rare = (found(judge, rule="202.1"), found(judge, card="Embr Tith", rule="202"))
    monkeypatch.setattr(search, "COMMON_TERM", 1)  # every term now counts as common
    assert (found(judge, rule="202.1"), found(judge, card="Embr Tith", rule="202")) == rare
    assert set(rare[0]) == {kept["tithe"].pk, kept["warden"].pk}
