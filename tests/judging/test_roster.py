"""The judge roster (issue 33): roles, teams and zones; who changes them; the judge's own
view of the console; the end-of-round and deck-check teams' views; and where a judge
call or a dispute goes first, and when it reaches everyone."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from judging import calls, roster, routing
from judging.models import DeckCheckPick, JudgeAlert, JudgeAssignment
from live import notify
from tests.conftest import make_user
from tournaments.models import EventLog, EventRole
from tournaments.record.match_games import Score
from tournaments.results import services as results
from web.errors import ServiceError

pytestmark = pytest.mark.django_db(transaction=True)


class Sent:
    def __init__(self) -> None:
        self.messages: list[tuple[str, dict]] = []

    async def group_send(self, group: str, message: dict) -> None:
        self.messages.append((group, message["notice"]))

    def calls_to(self, event_id: int, user) -> list[dict]:
        group = notify.judge_group(event_id, user.pk)
        return [n for g, n in self.messages if g == group and n["type"] == "judge_call"]


@pytest.fixture
def sent(monkeypatch) -> Sent:
    recorder = Sent()
    monkeypatch.setattr(notify, "get_channel_layer", lambda: recorder)
    return recorder


@pytest.fixture
def timers(monkeypatch, settings) -> list[tuple[int, float]]:
    """The escalation timers asked for (eager tasks, in either pass), not started: a test
    escalates by hand."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    asked: list[tuple[int, float]] = []
    monkeypatch.setattr(routing, "start_timer", lambda pk, seconds: asked.append((pk, seconds)))
    return asked


def _judge(event, name: str):
    user = make_user(name)
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.JUDGE)
    return user


@pytest.fixture
def hall(make_world, settings):
    """16 players (tables 1-8), round 1 started; zone A = tables 1-4 (amy), zone B =
    tables 5-8 (bea); hana the head judge; jude a judge with no place on the roster."""
    settings.JUDGE_CALL_ESCALATE_SECONDS = 60
    world = make_world(16, started=True)
    event, olive = world.event, world.organiser
    amy, bea, hana = (_judge(event, n) for n in ("amy", "bea", "hana"))
    a = roster.save_zone(event, olive, name="A", first_table=1, last_table=4)
    b = roster.save_zone(event, olive, name="B", first_table="5", last_table="8")
    roster.assign(event, olive, username="amy", role="floor", zone_id=a.pk)
    roster.assign(event, olive, username="bea", role="floor", team="end_of_round", zone_id=b.pk)
    roster.assign(event, olive, username="hana", role="head")
    return {"world": world, "event": event, "olive": olive, "amy": amy, "bea": bea,
            "hana": hana, "a": a, "b": b}  # fmt: skip


# --- services -----------------------------------------------------------------------------


def test_zones_may_not_overlap_and_tables_start_at_one(hall):
    event, olive = hall["event"], hall["olive"]
    with pytest.raises(ServiceError) as overlap:
        roster.save_zone(event, olive, name="C", first_table=8, last_table=12)
    assert overlap.value.field == "first_table" and "zone B" in str(overlap.value)
    with pytest.raises(ServiceError) as zero:
        roster.save_zone(event, olive, name="C", first_table=0, last_table=3)
    assert zero.value.field == "first_table"
    with pytest.raises(ServiceError) as backwards:
        roster.save_zone(event, olive, name="C", first_table=12, last_table=9)
    assert backwards.value.field == "last_table"
    with pytest.raises(ServiceError) as twice:
        roster.save_zone(event, olive, name="A", first_table=20, last_table=30)
    assert twice.value.field == "name"
    # A zone may be moved onto its own tables (it does not overlap itself).
    moved = roster.save_zone(
        event, olive, name="A", first_table=1, last_table=3, zone_id=hall["a"].pk
    )
    assert (moved.first_table, moved.last_table) == (1, 3)
    assert event.judge_zones.count() == 2


def test_only_the_events_judges_and_organisers_go_on_the_roster(hall):
    event, olive = hall["event"], hall["olive"]
    make_user("stranger")
    with pytest.raises(ServiceError) as refused:
        roster.assign(event, olive, username="stranger", role="floor")
    assert refused.value.field == "username"
    with pytest.raises(ServiceError) as role:
        roster.assign(event, olive, username="amy", role="boss")
    assert role.value.field == "role"
    assert not event.judge_roster.filter(user__username="stranger").exists()


def test_each_roster_change_is_logged(hall):
    actions = list(EventLog.objects.filter(event=hall["event"]).values_list("action", flat=True))
    assert actions.count("judge_zone") == 2 and actions.count("judge_roster") == 3
    place = hall["event"].judge_roster.get(user=hall["amy"])
    roster.unassign(hall["event"], hall["olive"], assignment_id=place.pk)
    logged = EventLog.objects.filter(event=hall["event"]).first()
    assert (logged.action, logged.data) == ("judge_roster_removed", {"user": "amy"})


def test_the_roster_change_is_announced_to_staff(hall, sent):
    roster.save_zone(hall["event"], hall["olive"], name="C", first_table=9, last_table=12)
    staff = notify.staff_group(hall["event"].pk)
    assert [(g, n["type"]) for g, n in sent.messages] == [(staff, "roster")]


# --- routing ------------------------------------------------------------------------------


def test_a_call_in_zone_b_reaches_zone_bs_judge_first_and_everyone_after_the_delay(
    hall, sent, timers
):
    event, amy, bea, hana = hall["event"], hall["amy"], hall["bea"], hall["hana"]
    call = calls.open_call(event, hall["olive"], question="Can I respond?", table=6)
    alert = JudgeAlert.objects.get(call=call)
    assert sent.calls_to(event.pk, bea)[0] | {"at": None} == {
        "type": "judge_call", "event": event.pk, "at": None, "kind": "call", "round": 1,
        "table": 6, "zone": "B", "stage": "zone", "alert": alert.pk,
    }  # fmt: skip
    assert sent.calls_to(event.pk, amy) == [] and sent.calls_to(event.pk, hana) == []
    assert timers == [(alert.pk, 60)]
    # Too early: nothing more. Then the minute passes: everyone hears it, once.
    assert routing.escalate(alert.pk, alert.due_at - datetime.timedelta(seconds=30)) is False
    assert sent.calls_to(event.pk, amy) == []
    assert routing.escalate(alert.pk, alert.due_at) is True
    assert routing.escalate(alert.pk, alert.due_at) is False
    assert routing.escalate_due(alert.due_at + datetime.timedelta(seconds=5)) == 0
    for judge in (amy, hana, bea):
        assert [n["stage"] for n in sent.calls_to(event.pk, judge)][-1] == "everyone"
    assert len(sent.calls_to(event.pk, amy)) == 1
    escalated = EventLog.objects.filter(event=event, action="judge_alert_escalated").get()
    assert escalated.data["to"] == sorted(u.pk for u in (amy, bea, hana, hall["world"].judge))


def test_an_answered_call_is_not_escalated(hall, sent, timers):
    event = hall["event"]
    call = calls.open_call(event, hall["olive"], question="Is this legal?", table=2)
    calls.resolve_call(call, hall["amy"], resolution="Yes.", minutes=1)
    alert = JudgeAlert.objects.get(call=call)
    assert routing.escalate(alert.pk, alert.due_at) is False
    assert sent.calls_to(event.pk, hall["bea"]) == []


def test_the_setting_sets_the_delay(hall, settings, timers):
    settings.JUDGE_CALL_ESCALATE_SECONDS = 3
    call = calls.open_call(hall["event"], hall["olive"], question="Q", table=1)
    alert = JudgeAlert.objects.get(call=call)
    assert (alert.due_at - alert.raised_at).total_seconds() == 3 and timers[-1][1] == 3


def test_a_call_outside_every_zone_or_in_a_zone_without_judges_goes_to_everyone_at_once(
    hall, sent, timers
):
    event, olive = hall["event"], hall["olive"]
    roster.save_zone(event, olive, name="C", first_table=20, last_table=30)
    calls.open_call(event, olive, question="Outside", table=12)
    calls.open_call(event, olive, question="Empty zone", table=21)
    for judge in (hall["amy"], hall["bea"], hall["hana"]):
        assert [n["stage"] for n in sent.calls_to(event.pk, judge)] == ["everyone", "everyone"]
    assert timers == [] and not JudgeAlert.objects.filter(due_at__isnull=False).exists()


def test_a_dispute_goes_to_its_zones_judges_first(hall, sent, timers):
    event = hall["event"]
    match = hall["world"].table(2)
    a, b = match.player_a, match.player_b
    results.report_result(match, a, Score.parse("2-1"), a.user)
    results.dispute_result(match, b, b.user, "it was 1-2")
    alert = JudgeAlert.objects.get(match=match, kind="dispute")
    assert [n["kind"] for n in sent.calls_to(event.pk, hall["amy"])] == ["dispute"]
    assert sent.calls_to(event.pk, hall["bea"]) == []
    results.enter_result(match, Score.parse("1-2"), hall["amy"], "settled")
    assert routing.escalate(alert.pk, alert.due_at) is False  # settled: nobody else needs it


def test_an_event_without_zones_routes_nothing(make_world, sent, timers):
    world = make_world(4, started=True)
    sent.messages.clear()
    calls.open_call(world.event, world.organiser, question="Q", table=1)
    assert not JudgeAlert.objects.exists() and timers == []
    assert [n["type"] for _, n in sent.messages] == ["queue"]


def test_a_judge_socket_joins_its_own_group(hall):
    from live.audience import groups_for

    assert notify.judge_group(hall["event"].pk, hall["bea"].pk) in groups_for(
        hall["bea"], hall["event"].pk
    )


# --- the judge's own view -----------------------------------------------------------------


def test_the_console_shows_a_floor_judge_their_zone_and_the_head_judge_everything(
    hall, client, timers
):
    event, olive = hall["event"], hall["olive"]
    calls.open_call(event, olive, question="In zone A please", table=2)
    calls.open_call(event, olive, question="In zone B please", table=6)
    url = reverse("judging:console", args=[event.pk])
    client.force_login(hall["bea"])
    page = client.get(url).content.decode()
    assert "In zone B please" in page and "In zone A please" not in page
    assert "Show all" in page
    assert "In zone A please" in client.get(url + "?all=1").content.decode()
    client.force_login(hall["hana"])
    page = client.get(url).content.decode()
    assert "In zone A please" in page and "In zone B please" in page


def test_a_call_escalated_shows_in_every_zone(hall, client, timers):
    event = hall["event"]
    call = calls.open_call(event, hall["olive"], question="Waiting in zone A", table=3)
    client.force_login(hall["bea"])
    url = reverse("judging:console_queue", args=[event.pk])
    assert "Waiting in zone A" not in client.get(url).content.decode()
    routing.escalate(call.alerts.get().pk, timezone.now() + datetime.timedelta(minutes=2))
    assert "Waiting in zone A" in client.get(url).content.decode()


def test_only_organisers_and_the_head_judge_change_the_roster(hall, client):
    event = hall["event"]
    url = reverse("judging:roster", args=[event.pk])
    zone = {"action": "zone", "name": "C", "first_table": "9", "last_table": "12"}
    client.force_login(hall["bea"])
    assert client.get(url).status_code == 200
    assert client.post(url, zone).status_code == 403
    client.force_login(hall["hana"])
    assert client.post(url, zone).status_code == 302
    bad = {**zone, "name": "D", "first_table": "10"}
    answer = client.post(url, bad)
    assert answer.status_code == 400 and "overlap zone C" in answer.content.decode()
    client.force_login(hall["world"].users[0])
    assert client.get(url).status_code == 403
    assert set(event.judge_zones.values_list("name", flat=True)) == {"A", "B", "C"}


def test_the_end_of_round_team_sees_outstanding_tables_by_zone(hall, client):
    world = hall["world"]
    for number in (1, 5, 6):
        results.enter_result(world.table(number), Score.parse("2-0"), hall["olive"], "done")
    groups = roster.outstanding_by_zone(hall["event"])
    assert [(g.zone.name, [m.table for m in g.matches]) for g in groups] == [
        ("A", [2, 3, 4]),
        ("B", [7, 8]),
    ]
    client.force_login(hall["bea"])
    page = client.get(reverse("judging:end_of_round", args=[hall["event"].pk])).content.decode()
    assert "Zone B" in page and "Outstanding tables" in page


def test_the_deck_check_team_sees_the_same_random_tables_drawn_once_and_logged(hall, client):
    event = hall["event"]
    first = roster.pick_deck_checks(event, hall["olive"], count=3)
    again = roster.pick_deck_checks(event, hall["hana"], count=5)
    assert again.pk == first.pk and len(first.tables) == 3
    assert set(first.tables) <= set(range(1, 9))
    log = EventLog.objects.get(event=event, action="deck_check_pick")
    assert log.data == {"tables": first.tables, "seed": first.seed}
    with pytest.raises(ServiceError) as bad:
        DeckCheckPick.objects.all().delete()
        roster.pick_deck_checks(event, hall["olive"], count=0)
    assert bad.value.field == "count"
    client.force_login(hall["amy"])
    url = reverse("judging:deck_check_tables", args=[event.pk])
    assert client.post(url, {"count": "2"}).status_code == 302
    pick = DeckCheckPick.objects.get()
    page = client.get(url).content.decode()
    assert all(f"Table {t}" in page for t in pick.tables)


def test_head_judge_role_is_a_roster_place(hall):
    place = hall["event"].judge_roster.get(user=hall["hana"])
    assert place.role == JudgeAssignment.Role.HEAD
    assert roster.scope_for(hall["hana"], hall["event"]).everything
    assert not roster.scope_for(hall["bea"], hall["event"]).everything


def test_with_a_worker_the_escalation_is_a_countdown_task(hall, settings, monkeypatch):
    from judging import tasks

    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr(
        tasks.escalate_alert,
        "apply_async",
        lambda args, countdown: queued.append((args, countdown)),
    )
    call = calls.open_call(hall["event"], hall["olive"], question="Q", table=6)
    alert = JudgeAlert.objects.get(call=call)
    assert queued == [((alert.pk,), 60)]
