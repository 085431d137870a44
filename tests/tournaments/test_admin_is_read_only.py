"""The admin shows results and their history but cannot change them: a result changes only
through tournaments' result services, each change logged (a change in the admin left no
ResultChange and the standings' cache did not know of it)."""

import pytest
from django.urls import reverse

from tests.conftest import make_user, play_out
from tournaments.models import EventLog, Match, Registration, ResultChange, Round

pytestmark = pytest.mark.django_db

READ_ONLY = [Match, Registration, Round, ResultChange, EventLog]


@pytest.fixture
def root(db):
    return make_user("root", is_superuser=True, is_staff=True)


@pytest.mark.parametrize("model", READ_ONLY, ids=lambda m: m.__name__)
def test_a_superuser_may_look_but_not_change_add_or_delete(client, root, make_world, model):
    world = make_world(players=4)
    play_out(world.event.rounds.get(number=1), world.organiser)
    row = model.objects.filter(**_of(model, world.event)).first()
    assert row is not None
    client.force_login(root)
    meta = model._meta
    change_url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[row.pk])
    page = client.get(change_url)
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    add_url = reverse(f"admin:{meta.app_label}_{meta.model_name}_add")
    assert client.get(add_url).status_code == 403
    delete_url = reverse(f"admin:{meta.app_label}_{meta.model_name}_delete", args=[row.pk])
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=row.pk).exists()


def test_posting_a_result_to_the_admin_changes_nothing(client, root, make_world):
    world = make_world(players=4)
    match = Match.objects.filter(round__event=world.event, is_bye=False).first()
    before = (match.games, match.status)
    client.force_login(root)
    url = reverse("admin:tournaments_match_change", args=[match.pk])
    response = client.post(
        url,
        {
            "round": match.round_id,
            "player_a": match.player_a_id,
            "player_b": match.player_b_id,
            "games": '["a", "a"]',
            "status": "confirmed",
            "reported_games": "[]",
            "forced_games": "[]",
            "extension_minutes": 0,
        },
    )
    assert response.status_code == 403
    match.refresh_from_db()
    assert (match.games, match.status) == before
    assert not ResultChange.objects.filter(match=match).exists()


def _of(model, event):
    if model in (Registration, Round, EventLog):
        return {"event": event}
    if model is Match:
        return {"round__event": event}
    return {"match__round__event": event}
