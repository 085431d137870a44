"""Issue 28, first row: an entry reaches an account only with its holder's consent, and
an organiser's or judge's role in one event never shows a player's records from others.

The attack as it was reported: sign up, create a draft event, add a walk-in, put the
event in a series, type the victim's username on the series' merge form, then read
/players/<victim>/penalties/. Before the fix the last step answered 200 and listed the
penalties the victim received at events the attacker has nothing to do with.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User

from judging.models import HistoryLook
from judging.penalties import issue_penalty
from series.models import Series
from tests.conftest import database_rows, make_user
from tournaments.event import entry_offers, services
from tournaments.models import EntryOffer, Event, EventLog, EventRole, Registration
from web.errors import ServiceError

pytestmark = pytest.mark.django_db

NEW_EVENT = {
    "game": "iacta",
    "date": "2026-12-01",
    "match_format": "bo3",
    "top_cut": 0,
    "round_minutes": 50,
    "decklists_public": "none",
    "print_paper": "A4",
}
APP_FOLDERS = ("accounts", "arbiter", "decks", "judging", "live", "printing", "push", "series")
APP_FOLDERS += ("rulebook", "tournaments", "web")
SERIES = {
    "name": "Mallory League",
    "method": "placings",
    "placing_points": "1: 10, 2: 8, 3-4: 6, 5-8: 4",
    "participation": "1",
    "best_of": "",
    "tiebreaker_1": "best_finish",
}


@pytest.fixture
def victim(db):
    """vic plays Elsewhere Open (someone else's published event) and was penalised there."""
    host = make_user("host")
    vic = make_user("vic")
    elsewhere = services.create_event(host, name="Elsewhere Open", status="registration")
    registration = services.register_player(elsewhere, vic)
    issue_penalty(registration, "rule_violation", host, notes="a secret of Elsewhere Open")
    return vic


def history(client, who):
    return client.get(f"/players/{who.pk}/penalties/")


def accounts_entries(user) -> list[tuple[int, str]]:
    return sorted(Registration.objects.filter(user=user).values_list("event_id", "status"))


def test_the_reported_attack_over_http_ends_in_403_and_binds_nothing(client, victim):
    """Every step exactly as reported; the history must stay closed (it answered 200)."""
    before = accounts_entries(victim)
    mallory = make_user("mallory")
    client.force_login(mallory)
    assert history(client, victim).status_code == 403

    created = client.post("/events/new/", {**NEW_EVENT, "name": "Trap Cup", "status": "draft"})
    assert created.status_code == 302
    trap = Event.objects.get(name="Trap Cup")
    assert trap.status == Event.Status.DRAFT
    late = client.post(f"/events/{trap.pk}/late-entry/", {"name": "Decoy"}, follow=True)
    made = client.post("/series/new/", {**SERIES, "events": [trap.pk]})
    assert made.status_code == 302
    series = trap.series_entries.get().series
    # A walk-in left from before (the event was published, then moved back to draft).
    walk_in = trap.registrations.filter(name="Decoy").first() or Registration.objects.create(
        event=trap, name="Decoy"
    )
    merged = client.post(
        f"/series/{series.pk}/merge/",
        {"registration": walk_in.pk, "username": victim.username},
        follow=True,
    )

    response = history(client, victim)
    assert response.status_code == 403  # the old code: 200, listing Elsewhere Open
    assert "Elsewhere Open" not in response.content.decode()
    assert accounts_entries(victim) == before
    assert "Trap Cup is a draft" in said(late)[-1]  # the old code seated the walk-in
    assert "Trap Cup is a draft" in said(merged)[-1]  # and merged it into vic's account


# --- an offer, not a merge ----------------------------------------------------------------


def trap_with_walk_in(client, organiser, status: str = "registration"):
    """``organiser``'s own published event with a walk-in "Decoy", in a series of theirs."""
    client.force_login(organiser)  # each step followed, so its message is read there
    client.post("/events/new/", {**NEW_EVENT, "name": "Trap Cup", "status": status}, follow=True)
    trap = Event.objects.get(name="Trap Cup")
    client.post(f"/events/{trap.pk}/late-entry/", {"name": "Decoy"}, follow=True)
    client.post("/series/new/", {**SERIES, "events": [trap.pk]}, follow=True)
    series = Series.objects.get(name=SERIES["name"])
    return trap, series, trap.registrations.get(name="Decoy")


def said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def offer_over_http(client, series, walk_in, username: str) -> list[str]:
    response = client.post(
        f"/series/{series.pk}/merge/",
        {"registration": walk_in.pk, "username": username},
        follow=True,
    )
    assert response.status_code == 200
    return said(response)


def test_a_walk_in_merge_attempt_leaves_the_account_untouched_until_the_player_accepts(
    client, victim
):
    """And an organiser of an unrelated event reads nothing of the player's other
    events, before or after (issue 28, "Done when")."""
    before = accounts_entries(victim)
    mallory = make_user("mallory")
    _trap, series, walk_in = trap_with_walk_in(client, mallory)
    assert history(client, victim).status_code == 403

    offer_over_http(client, series, walk_in, victim.username)

    walk_in.refresh_from_db()
    assert walk_in.user is None and accounts_entries(victim) == before
    assert history(client, victim).status_code == 403
    offer = EntryOffer.objects.get(registration=walk_in)
    assert (offer.state, offer.account) == (EntryOffer.State.PENDING, victim)

    client.force_login(victim)
    assert client.post(f"/me/offers/{offer.pk}/accept/").status_code == 302
    walk_in.refresh_from_db()
    assert walk_in.user == victim

    client.force_login(mallory)  # organiser of the event vic now plays: still no judge
    response = history(client, victim)
    assert response.status_code == 403
    assert "Elsewhere Open" not in response.content.decode()
    assert not HistoryLook.objects.exists()


def test_the_organisers_answer_reads_the_same_whatever_the_username_names(client, victim):
    """An account, no account, an account that also plays in this event: one answer,
    one kind of log line, one line on the series page. The conflict waits for acceptance."""
    mallory = make_user("mallory")
    trap, series, _decoy = trap_with_walk_in(client, mallory)
    services.register_player(trap, make_user("sam"))  # sam already plays Trap Cup
    answers = {}
    for username in ("vic", "nobody-at-all", "sam"):
        entry = services.add_late_entry(trap, mallory, name=f"Walk {username}")
        words = offer_over_http(client, series, entry, username)
        answers[username] = [w.replace(username, "NAME") for w in words]
    assert answers["vic"] == answers["nobody-at-all"] == answers["sam"]
    assert answers["vic"] == [
        "Walk NAME's entry is offered to the account NAME: its results count for that "
        "account only if they accept it."
    ]
    page = client.get(f"/series/{series.pk}/manage/").content.decode()
    for username in ("vic", "nobody-at-all", "sam"):
        assert f"Offered to {username} on" in page
    logged = EventLog.objects.filter(event=trap, action="entry_offered")
    assert sorted(set(entry.data) for entry in logged)[0] == {
        "player",
        "registration",
        "offer",
        "username",
    }
    assert all(set(entry.data) == set(logged[0].data) for entry in logged)


def test_a_late_entry_by_username_is_an_offer_and_reads_the_same_for_any_name(client, victim):
    organiser = make_user("olga")
    event = services.create_event(organiser, name="Late Cup", status="registration")
    client.force_login(organiser)
    answers = {}
    for username in ("vic", "ghost"):
        response = client.post(
            f"/events/{event.pk}/late-entry/", {"username": username}, follow=True
        )
        answers[username] = [w.replace(username, "NAME") for w in said(response)]
    assert (
        answers["vic"]
        == answers["ghost"]
        == [
            "NAME is entered and checked in for round 1. The entry is offered to the account "
            "NAME: it becomes theirs only if they accept it."
        ]
    )
    assert not event.registrations.filter(user__isnull=False).exists()
    api = client.post(
        f"/api/v1/events/{event.pk}/players/",
        {"action": "late_entry", "username": "someone-else"},
        "application/json",
    )
    assert api.status_code == 201 and api.json()["offered_to"] == "someone-else"
    assert accounts_entries(victim) == [(victim.registrations.get().event_id, "registered")]


def test_an_account_on_the_waiting_list_is_seated_by_a_late_entry(organiser):
    """Its holder asked to play here: no offer is needed, and none is made."""
    event = services.create_event(
        organiser, name="Full Cup", status="registration", registration_cap=1
    )
    services.register_player(event, make_user("first"))
    waiting = services.register_player(event, make_user("second"))
    assert waiting.status == Registration.Status.WAITLISTED
    seated = services.add_late_entry(event, organiser, username="Second")
    assert (seated.pk, seated.status) == (waiting.pk, Registration.Status.REGISTERED)
    assert not EntryOffer.objects.exists()


# --- the player's answer ------------------------------------------------------------------


@pytest.fixture
def offered(victim):
    """Mallory's published Trap Cup, its walk-in Decoy offered to vic."""
    mallory = make_user("mallory")
    trap = services.create_event(mallory, name="Trap Cup", status="registration")
    decoy = services.add_late_entry(trap, mallory, name="Decoy")
    offer = entry_offers.offer_entry(decoy, "VIC", mallory)
    return offer, mallory


def test_the_player_sees_the_offer_on_my_events_and_accepts_it(client, victim, offered):
    offer, _mallory = offered
    client.force_login(victim)
    page = client.get("/me/events/").content.decode()
    assert "Entries offered to you" in page and "Decoy at Trap Cup" in page
    assert f'action="/me/offers/{offer.pk}/accept/"' in page

    response = client.post(f"/me/offers/{offer.pk}/accept/", follow=True)

    assert said(response) == ["Trap Cup: the entry is now yours, with its results."]
    offer.refresh_from_db()
    assert (offer.state, offer.decided_by) == (EntryOffer.State.ACCEPTED, victim)
    assert offer.registration.user == victim
    merged = EventLog.objects.get(action="merge_walk_in")
    assert merged.actor == victim and merged.data["consent"] == "accepted"
    assert merged.data["account"] == "vic"
    assert EventLog.objects.filter(action="entry_offer_accepted", actor=victim).exists()
    assert "Entries offered to you" not in client.get("/me/events/").content.decode()


def test_the_player_declines_and_the_entry_stays_a_walk_in(client, victim, offered):
    offer, _ = offered
    client.force_login(victim)
    response = client.post(f"/me/offers/{offer.pk}/decline/", follow=True)
    assert said(response) == ["Trap Cup: you declined the entry; it stays a walk-in."]
    offer.refresh_from_db()
    assert offer.state == EntryOffer.State.DECLINED and offer.registration.user is None
    assert EventLog.objects.filter(action="entry_offer_declined", actor=victim).exists()
    assert client.post(f"/me/offers/{offer.pk}/accept/").status_code == 302
    offer.registration.refresh_from_db()
    assert offer.registration.user is None  # a declined offer cannot be accepted later


def test_nobody_else_can_answer_an_offer(client, victim, offered):
    offer, mallory = offered
    bystander = make_user("bystander")
    before = database_rows()
    for who in (mallory, bystander):
        client.force_login(who)
        for answer in ("accept", "decline"):
            assert client.post(f"/me/offers/{offer.pk}/{answer}/").status_code == 404
    assert database_rows() == before


def test_a_conflict_is_told_to_the_player_at_acceptance(client, victim, offered):
    offer, _mallory = offered
    services.register_player(offer.registration.event, victim)
    client.force_login(victim)
    before = database_rows()
    response = client.post(f"/me/offers/{offer.pk}/accept/", follow=True)
    assert said(response) == [
        "vic also played in Trap Cup: one person cannot hold both entries, so nothing was merged."
    ]
    assert database_rows() == before


def test_the_organiser_withdraws_an_open_offer(client, victim, offered):
    offer, mallory = offered
    series = Series.objects.create(name="S", organiser=mallory)
    series.entries.create(event=offer.registration.event)
    client.force_login(mallory)
    response = client.post(f"/series/{series.pk}/offers/{offer.pk}/withdraw/", follow=True)
    assert said(response) == ["The offer of Decoy's entry is withdrawn."]
    offer.refresh_from_db()
    assert (offer.state, offer.decided_by) == (EntryOffer.State.WITHDRAWN, mallory)
    assert EventLog.objects.filter(action="entry_offer_withdrawn", actor=mallory).exists()
    client.force_login(victim)
    assert "Decoy" not in client.get("/me/events/").content.decode()
    with pytest.raises(ServiceError):
        entry_offers.accept_offer(offer, victim)


def test_the_organiser_sees_and_withdraws_a_late_entrys_offer_on_the_dashboard(client, victim):
    organiser = make_user("olga")
    event = services.create_event(organiser, name="Late Cup", status="registration")
    entry = services.add_late_entry(event, organiser, username="vic")
    offer = entry.entry_offers.get()
    client.force_login(organiser)
    page = client.get(f"/events/{event.pk}/manage/").content.decode()
    assert "vic, offered to vic" in page
    response = client.post(f"/events/{event.pk}/offers/{offer.pk}/withdraw/", follow=True)
    assert said(response) == ["The offer of vic's entry is withdrawn."]
    offer.refresh_from_db()
    assert offer.state == EntryOffer.State.WITHDRAWN and entry.user is None
    assert "offered to vic" not in client.get(f"/events/{event.pk}/manage/").content.decode()


def test_site_staff_link_a_walk_in_at_once_and_it_is_logged(client, victim, offered):
    offer, _mallory = offered
    staff = make_user("stella", is_staff=True)
    event = offer.registration.event
    series = Series.objects.create(name="S", organiser=staff)
    series.entries.create(event=event)
    EventRole.objects.create(event=event, user=staff, role=EventRole.Role.ORGANISER)
    client.force_login(staff)
    response = client.post(
        f"/series/{series.pk}/merge/",
        {"registration": offer.registration_id, "username": "vic"},
        follow=True,
    )
    assert said(response) == ["Decoy's results now count for vic (linked by site staff)."]
    offer.registration.refresh_from_db()
    assert offer.registration.user == victim
    assert EntryOffer.objects.get(pk=offer.pk).state == EntryOffer.State.WITHDRAWN
    linked = EntryOffer.objects.get(state=EntryOffer.State.LINKED)
    assert (linked.account, linked.decided_by) == (victim, staff)
    log = EventLog.objects.get(action="merge_walk_in")
    assert (log.actor, log.data["consent"]) == (staff, "staff")
    assert log.words == "linked a walk-in entry to an account (site staff)"
    assert series.log.filter(action="merge", actor=staff).exists()


def test_an_organiser_cannot_link_without_consent(victim, offered):
    offer, mallory = offered
    entry_offers.withdraw_offer(offer, mallory)
    before = database_rows()
    with pytest.raises(ServiceError) as refused:
        entry_offers.link_walk_in(offer.registration, "vic", mallory)
    assert "Only site staff" in str(refused.value)
    assert database_rows() == before


def test_only_the_offer_services_merge_a_walk_in():
    """merge_walk_in binds an account; only acceptance and a staff link may call it."""
    root = Path(__file__).resolve().parents[2]
    callers = [
        path.relative_to(root).as_posix()
        for folder in APP_FOLDERS
        for path in (root / folder).rglob("*.py")
        if "merge_walk_in(" in path.read_text(encoding="utf-8")
    ]
    assert callers == ["tournaments/event/entry_offers.py"]


# --- drafts -------------------------------------------------------------------------------


def test_a_draft_takes_no_late_entry_and_says_why(client, organiser):
    draft = services.create_event(organiser, name="Draft Cup", status="draft")
    before = database_rows()
    with pytest.raises(ServiceError) as refused:
        services.add_late_entry(draft, organiser, name="Ada")
    assert str(refused.value) == (
        "Draft Cup is a draft: a late entry waits until the event is published (open "
        "for registration), because nothing done in a draft may reach anyone else's account."
    )
    client.force_login(organiser)
    response = client.post(f"/events/{draft.pk}/late-entry/", {"username": "x"}, follow=True)
    assert "Draft Cup is a draft" in said(response)[0]
    api = client.post(
        f"/api/v1/events/{draft.pk}/players/",
        {"action": "late_entry", "name": "Ada"},
        "application/json",
    )
    assert api.status_code == 400 and api.json()["errors"][0]["field"] == "event"
    assert database_rows() == before


def test_a_draft_takes_no_offer_and_no_staff_link(victim, organiser):
    draft = services.create_event(organiser, name="Draft Cup", status="draft")
    walk_in = Registration.objects.create(event=draft, name="Old Walk-in")  # from before
    staff = make_user("stella", is_superuser=True)
    before = database_rows()
    for attempt in (
        lambda: entry_offers.offer_entry(walk_in, "vic", organiser),
        lambda: entry_offers.link_walk_in(walk_in, "vic", staff),
    ):
        with pytest.raises(ServiceError) as refused:
            attempt()
        assert "Draft Cup is a draft: linking an entry to an account waits" in str(refused.value)
    assert database_rows() == before


def test_an_offer_accepted_after_its_event_went_back_to_draft_is_refused(victim, offered):
    offer, _ = offered
    Event.objects.filter(pk=offer.registration.event_id).update(status=Event.Status.DRAFT)
    with pytest.raises(ServiceError) as refused:
        entry_offers.accept_offer(offer, victim)
    assert "is a draft" in str(refused.value)
    offer.registration.refresh_from_db()
    assert offer.registration.user is None


# --- who reads a player's history across events -------------------------------------------


@pytest.fixture
def places(victim):
    """vic (with a penalty at Elsewhere Open) and the events around them, each with a judge:
    one running, one open for registration, one finished, one draft, one they dropped
    from, one they never played; plus an organiser (not judge) of the running one."""
    host = User.objects.get(username="host")
    judges = {}
    for label, status in [
        ("running", "running"),
        ("open", "registration"),
        ("finished", "finished"),
        ("draft", "registration"),
        ("dropped", "registration"),
        ("unrelated", "registration"),
    ]:
        event = services.create_event(host, name=f"{label} event", status=status)
        judge = make_user(f"judge_{label}")
        EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
        judges[label] = (judge, event)
        if label != "unrelated":
            Registration.objects.create(
                event=event,
                user=victim,
                status="dropped" if label == "dropped" else "registered",
            )
        if label == "draft":
            Event.objects.filter(pk=event.pk).update(status=Event.Status.DRAFT)
    organiser = make_user("org_running")
    EventRole.objects.create(
        event=judges["running"][1], user=organiser, role=EventRole.Role.ORGANISER
    )
    return judges, organiser


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("self", 200),
        ("staff", 200),
        ("superuser", 200),
        ("judge_running", 200),
        ("judge_open", 200),
        ("judge_finished", 403),
        ("judge_draft", 403),
        ("judge_dropped", 403),
        ("judge_unrelated", 403),
        ("organiser_of_running", 403),
        ("organiser_unrelated", 403),
    ],
)
def test_the_history_is_for_the_player_staff_and_judges_of_a_current_published_event(
    client, victim, places, who, status
):
    judges, organiser = places
    people = {
        "self": victim,
        "staff": make_user("stella", is_staff=True),
        "superuser": make_user("root", is_superuser=True),
        "organiser_of_running": organiser,
        "organiser_unrelated": User.objects.get(username="host"),
        **{f"judge_{label}": judge for label, (judge, _event) in judges.items()},
    }
    if who == "organiser_unrelated":  # host organises Elsewhere Open too: a fresh one
        people[who] = make_user("stranger")
        services.create_event(people[who], name="Stranger Cup", status="running")
    client.force_login(people[who])
    response = history(client, victim)
    assert response.status_code == status
    assert ("Elsewhere Open" in response.content.decode()) == (status == 200)


def test_each_look_by_someone_else_is_logged_and_staff_read_the_log(client, victim, places):
    judges, _ = places
    judge, running = judges["running"]
    staff = make_user("root", is_superuser=True, is_staff=True)
    for who in (victim, judge, staff, judges["finished"][0]):
        client.force_login(who)
        history(client, victim)
    looks = list(HistoryLook.objects.order_by("pk").values_list("viewer", "player", "event"))
    assert looks == [(judge.pk, victim.pk, running.pk), (staff.pk, victim.pk, None)]
    assert HistoryLook.objects.get(viewer=staff).as_site_staff
    assert all(look.at is not None for look in HistoryLook.objects.all())
    client.force_login(staff)
    admin = client.get("/admin/judging/historylook/")
    assert admin.status_code == 200 and "judge_running" in admin.content.decode()
    client.force_login(judge)
    assert client.get("/admin/judging/historylook/").status_code == 302
