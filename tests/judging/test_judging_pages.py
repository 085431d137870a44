"""The judge's pages: console, penalty form with its preview, void, calls, search timer."""

import html

import pytest

from judging.models import JudgeCall, Penalty
from tournaments.models import EventRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting(make_world):
    world = make_world(4)
    return world.event, world.table(1)


PAGES = ["judge/", "penalties/", "penalties/new/", "search-timer/"]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("player", 403), ("judge", 200), ("organiser", 200)]
)
def test_judge_pages_are_for_judges_and_organisers(
    client, setting, judge, organiser, page, who, status
):
    event, table = setting
    users = {"player": table.player_a.user, "judge": judge, "organiser": organiser}
    if who in users:
        client.force_login(users[who])
    response = client.get(f"/events/{event.pk}/{page}")
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith("/accounts/login/")
    refused = "Only this event's organiser or judges may open this page."
    assert (refused in html.unescape(response.content.decode())) == (status == 403)


def test_judge_of_another_event_is_refused(client, setting, organiser):
    from tests.conftest import make_user
    from tournaments.event import services

    event, _ = setting
    outsider = make_user("elsewhere")
    other = services.create_event(organiser, name="Other")
    EventRole.objects.create(event=other, user=outsider, role=EventRole.Role.JUDGE)
    client.force_login(outsider)
    response = client.get(f"/events/{event.pk}/judge/")
    assert response.status_code == 403
    assert "organiser or judges may open" in response.content.decode()
    assert "Waiting for a judge" not in response.content.decode()  # the console's own heading


def test_preview_shows_the_game_loss_before_confirming(client, setting, judge):
    event, table = setting
    client.force_login(judge)
    form = {"match": table.pk, "player": table.player_a_id, "infraction": "slow_play", "game": 2}
    for _ in range(2):
        client.post(f"/events/{event.pk}/penalties/new/", form)
    preview = client.post(f"/events/{event.pk}/penalties/preview/", form).content.decode()
    assert "Game Loss in game 2 (905.1)" in preview
    response = client.post(f"/events/{event.pk}/penalties/new/", form, follow=True)
    assert "Game Loss in game 2 (905.1)" in response.content.decode()
    assert Penalty.objects.filter(match=table).count() == 3


def test_penalty_form_errors_name_the_field(client, setting, judge):
    event, table = setting
    client.force_login(judge)
    response = client.post(f"/events/{event.pk}/penalties/new/", {"match": table.pk})
    assert response.status_code == 400
    assert "Choose the player" in response.content.decode()
    assert not Penalty.objects.exists()


def test_void_from_the_list_keeps_both_in_the_record(client, setting, judge):
    event, table = setting
    client.force_login(judge)
    form = {"match": table.pk, "player": table.player_a_id, "infraction": "cheating", "game": 1}
    client.post(f"/events/{event.pk}/penalties/new/", form)
    penalty = Penalty.objects.get()
    page = client.post(
        f"/events/{event.pk}/penalties/{penalty.pk}/void/", {"reason": "wrong table"}, follow=True
    ).content.decode()
    assert "Penalty voided" in page and "void: wrong table" in page
    penalty.refresh_from_db()
    assert penalty.is_void and Penalty.objects.count() == 1


def test_call_logged_resolved_and_minutes_granted_as_extension(client, setting, judge):
    event, table = setting
    client.force_login(judge)
    client.post(f"/events/{event.pk}/calls/new/", {"table": table.table, "question": "Can I?"})
    call = JudgeCall.objects.get()
    assert call.match == table
    client.post(
        f"/events/{event.pk}/calls/{call.pk}/",
        {"resolution": "Yes, 502.1", "minutes": "4", "extension": "on"},
    )
    table.refresh_from_db()
    assert table.extension_minutes == 4
    console = client.get(f"/events/{event.pk}/judge/").content.decode()
    assert "+4 min" in console


def test_a_ruling_is_kept_with_its_judge_call(client, setting, judge):
    import json

    event, table = setting
    client.force_login(judge)
    client.post(f"/events/{event.pk}/calls/new/", {"table": table.table, "question": "Score?"})
    call = JudgeCall.objects.get()
    ruling = {"game": "iacta", "question": "flush-score", "payload": {"dice": [4, 4, 4, 2, 2]}}
    response = client.post(
        f"/events/{event.pk}/calls/{call.pk}/ruling/",
        json.dumps(ruling),
        content_type="application/json",
    )
    assert response.status_code == 200 and "Kept with the" in response.content.decode()
    call.refresh_from_db()
    assert call.ruling_answer["score"] == 31 and call.ruling_payload == ruling["payload"]
    bad = {**ruling, "payload": {"dice": ["x"]}}
    response = client.post(
        f"/events/{event.pk}/calls/{call.pk}/ruling/",
        json.dumps(bad),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert 'class="field-error"' in response.content.decode(), response.content
    assert "dice" in response.content.decode(), response.content
    call.refresh_from_db()  # the kept ruling is still the first one
    assert call.ruling_answer["score"] == 31 and call.ruling_payload == ruling["payload"]
