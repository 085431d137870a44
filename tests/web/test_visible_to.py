"""``Event.objects.visible_to``: the one rule for drafts, and every place that uses it.

A draft is its organisers' (and superusers') only: its judge and its registered player
do not see it, whether in a list, on its pages or through the API.
"""

import json

import pytest
from django.contrib.auth.models import AnonymousUser

from tests.conftest import make_user
from tournaments.event import services
from tournaments.models import Event, EventRole

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "player", "judge", "other organiser", "organiser", "superuser"]
SEES_THE_DRAFT = {"organiser", "superuser"}


@pytest.fixture
def world(organiser, judge, player):
    """A published event and a draft, each with olive organising, jude judging, pat
    playing; otto organises only an event of his own."""
    published = services.create_event(
        organiser, name="Open Night", game="iacta", status=Event.Status.REGISTRATION
    )
    draft = services.create_event(
        organiser, name="Secret Draft Cup", game="iacta", status=Event.Status.REGISTRATION
    )
    for event in (published, draft):
        EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
        services.register_player(event, player)
    Event.objects.filter(pk=published.pk).update(decklists_public="all")
    Event.objects.filter(pk=draft.pk).update(status=Event.Status.DRAFT, decklists_public="all")
    other = make_user("otto")
    services.create_event(other, name="Otto's Own", status=Event.Status.DRAFT)
    people = {
        "anonymous": None,
        "player": player,
        "judge": judge,
        "other organiser": other,
        "organiser": organiser,
        "superuser": make_user("root", is_superuser=True, is_staff=True),
    }
    return Event.objects.get(pk=published.pk), Event.objects.get(pk=draft.pk), people


def test_the_queryset_rule(world):
    people = world[2]

    def names(user) -> set[str]:
        return set(Event.objects.visible_to(user).values_list("name", flat=True))

    assert names(AnonymousUser()) == names(None) == {"Open Night"}
    for role in ("player", "judge"):
        assert names(people[role]) == {"Open Night"}, role
    assert names(people["other organiser"]) == {"Open Night", "Otto's Own"}
    assert names(people["organiser"]) == {"Open Night", "Secret Draft Cup"}
    assert names(people["superuser"]) == {"Open Night", "Secret Draft Cup", "Otto's Own"}


def test_an_organiser_with_two_roles_sees_each_event_once(world):
    published, draft, people = world
    EventRole.objects.create(event=draft, user=people["organiser"], role=EventRole.Role.JUDGE)
    visible = list(Event.objects.visible_to(people["organiser"]).values_list("pk", flat=True))
    assert sorted(visible) == sorted([published.pk, draft.pk])


def as_role(client, world, role):
    user = world[2][role]
    if user is not None:
        client.force_login(user)
    return client


# The lists: the home page and the event list (tournaments.pages.public_events), the API's list.
LISTS = ["/", "/events/", "/api/v1/events/"]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("url", LISTS)
def test_lists_show_a_draft_to_its_organisers_only(client, world, role, url):
    published, draft, _ = world
    body = as_role(client, world, role).get(url).content.decode()
    assert published.name in body
    assert (draft.name in body) is (role in SEES_THE_DRAFT), f"{url} as {role}"


# One event's pages and API: tournaments.pages (the event page, pairings, standings),
# decks.views (the decklists), tournaments.api.events (detail, rounds, standings).
DETAILS = [
    "/events/{id}/",
    "/events/{id}/pairings/",
    "/events/{id}/standings/",
    "/events/{id}/decklists/",
    "/api/v1/events/{id}/",
    "/api/v1/events/{id}/rounds/",
    "/api/v1/events/{id}/standings/",
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("url", DETAILS)
def test_a_drafts_pages_are_its_organisers_only(client, world, role, url):
    published, draft, _ = world
    client = as_role(client, world, role)
    assert client.get(url.format(id=published.pk)).status_code == 200
    response = client.get(url.format(id=draft.pk))
    if role in SEES_THE_DRAFT:
        assert response.status_code == 200, f"{url} as {role}"
    else:
        refused = (401, 403) if url.startswith("/api/") else (404,)
        assert response.status_code in refused, f"{url} as {role}: {response.status_code}"
        assert draft.name not in response.content.decode()


@pytest.mark.parametrize("role", ROLES)
def test_a_legality_check_against_a_draft_is_its_organisers_only(client, world, role):
    """decks.api: the event in the body must be one the caller may see."""
    published, draft, _ = world
    client = as_role(client, world, role)

    def check(event):
        body = json.dumps({"event": event.pk, "text": "4 Ember Tithe"})
        return client.post("/api/v1/decklists/legality/", body, "application/json")

    assert check(published).status_code == 200
    response = check(draft)
    if role in SEES_THE_DRAFT:
        assert response.status_code == 200
    else:
        assert response.status_code == 400
        assert response.json()["errors"] == [
            {"field": "event", "message": "event must be the id of a published event."}
        ]


def test_an_unknown_event_is_a_404_for_everyone(client, world):
    _, _, people = world
    client.force_login(people["organiser"])
    api = client.get("/api/v1/events/999999/")
    assert api.status_code == 404 and api.json()["errors"][0]["message"]
    page = client.get("/events/999999/")
    assert page.status_code == 404
    assert "404.html" in [template.name for template in page.templates]


def test_an_anonymous_api_client_is_told_to_log_in_for_a_draft(client, world):
    _, draft, _ = world
    response = client.get(f"/api/v1/events/{draft.pk}/")
    assert response.json()["errors"] == [{"field": None, "message": "Log in first."}]


def test_staff_endpoints_of_a_draft_still_answer_its_judge(client, world):
    """Roles named by an endpoint decide it; draft visibility is for readers."""
    _, draft, people = world
    client.force_login(people["judge"])
    listed = client.get(f"/api/v1/events/{draft.pk}/players/").json()
    assert [row["name"] for row in listed] == [people["player"].username]  # its player
    assert client.get(f"/api/v1/events/{draft.pk}/players/").status_code == 200


PLAYER_PAGES = ["/events/{id}/my-match/", "/events/{id}/deck/"]


@pytest.mark.parametrize("url", PLAYER_PAGES)
def test_a_drafts_player_pages_are_closed_to_its_player(client, world, url):
    """A player registered before the event went back to draft sees nothing of it."""
    published, draft, people = world
    client.force_login(people["player"])
    assert client.get(url.format(id=published.pk)).status_code == 200
    response = client.get(url.format(id=draft.pk))
    assert response.status_code == 404
    assert draft.name not in response.content.decode()
    client.force_login(people["organiser"])
    assert client.get(url.format(id=draft.pk)).status_code != 404
