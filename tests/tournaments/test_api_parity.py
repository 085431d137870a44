"""Every organiser form of the pages has an API operation (docs/api.md, "Page and API"),
under the same rules; and a plain account runs a whole event over the API alone.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import resolve
from rest_framework.test import APIClient

from accounts.tokens import issue_token
from arbiter import worlds
from tests.conftest import PASSWORD, make_user, play_out
from tournaments.event import services
from tournaments.models import EntryOffer, Event, EventRole, Round
from tournaments.pages.organiser_rounds import STEP_ACTIONS
from tournaments.record.rounds import latest_round
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

API_DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def token_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(user).key}")
    return client


def fields_of(response) -> list[str | None]:
    return [e["field"] for e in response.json()["errors"]]


# --- the parity table --------------------------------------------------------------------


class _PostForms(HTMLParser):
    """Each ``<form method="post">``: its action, and the hidden ``action`` it sends."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attrs = dict(attrs)
        if tag == "form" and (attrs.get("method") or "").lower() == "post":
            self._open = {"action": attrs.get("action") or "", "step": None}
            self.forms.append(self._open)
        elif tag == "input" and self._open is not None and attrs.get("name") == "action":
            self._open["step"] = attrs.get("value")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None


def post_forms(client, path: str) -> set[str]:
    """The writing forms of the page at ``path``, by URL name (``?action=`` for a step)."""
    response = client.get(path)
    assert response.status_code == 200, path
    parser = _PostForms()
    parser.feed(response.content.decode())
    found = set()
    for form in parser.forms:
        name = resolve(urlparse(form["action"] or path).path).view_name
        found.add(f"{name}?action={form['step']}" if form["step"] else name)
    return found


def documented_rows() -> list[tuple[str, str]]:
    """(page form, operation id) of each row of the parity table."""
    section = API_DOCS.read_text(encoding="utf-8").split("## Page and API", 1)[1]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1].startswith("`"):
            rows.append((cells[1].strip("`"), cells[3].strip("`")))
    return rows


def dashboard_forms_in_every_state(client, organiser: User) -> set[str]:
    """Walk an event through every state its dashboard has, collecting the forms shown."""
    found: set[str] = set()
    draft = services.create_event(organiser, name="Draft Open")
    found |= post_forms(client, f"/events/{draft.pk}/manage/")
    world = worlds.build_event(
        6,
        organiser=organiser,
        judge="jude",
        paired=False,
        checked_in=False,
        password=PASSWORD,
        name="Parity Open",
        swiss_rounds=1,
        top_cut=4,
        decklist_policy="warn",
    )
    event = world.event
    manage = f"/events/{event.pk}/manage/"
    services.add_late_entry(event, organiser, username="somebody")  # an open offer
    arriving = list(event.registrations.filter(checked_in=False).order_by("pk")[:4])
    services.check_in(event, [r.pk for r in arriving], organiser)  # two are not
    found |= post_forms(client, manage)  # before round 1: check-in, decklists, offers
    rounds.pair_next_round(
        event, organiser, confirm_missing_decklists=True, confirm_not_checked_in=True
    )
    found |= post_forms(client, manage + "?swap=1")
    for _step in range(12):  # start, close, cut, advance, finish: at most a dozen steps
        step = rounds.next_step(event)
        if step is None:
            break
        current = latest_round(event)
        if step[0] == "close":
            play_out(current, organiser)
            match = current.matches.filter(is_bye=False).first()
            found |= post_forms(client, f"/events/{event.pk}/matches/{match.pk}/")
        STEP_ACTIONS[step[0]](event, organiser)  # as the next-step button does
        found |= post_forms(client, manage)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    found |= post_forms(client, "/events/new/")
    found |= post_forms(client, f"/events/{event.pk}/edit/")
    return found


def test_every_organiser_form_has_a_row_and_every_row_an_operation(client, organiser):
    client.force_login(organiser)
    site_wide = post_forms(client, "/events/")  # the layout's own (log out, language)
    forms = dashboard_forms_in_every_state(client, organiser) - site_wide
    # The walk saw the forms it should: the whole next-step cycle and the staff's.
    assert {
        "tournaments:next_step?action=pair",
        "tournaments:next_step?action=advance",
        "tournaments:next_step?action=finish",
        "tournaments:withdraw_offer",
        "tournaments:remind_decklists",
        "tournaments:swap",
    } <= forms
    rows = documented_rows()
    documented = {form for form, _ in rows}
    assert sorted(forms - documented) == [], "organiser forms with no API operation"
    assert sorted(documented - forms) == [], "rows for forms the pages no longer have"
    schema = client.get("/api/schema/", {"format": "json"}).json()
    operations = {
        operation["operationId"]
        for path in schema["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    assert sorted({op for _, op in rows} - operations) == [], "rows naming no operation"


def test_the_state_names_say_the_live_words_in_the_schema(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]
    assert "`started`" in schema["Round"]["properties"]["status"]["description"]
    assert "`top_cut`" in schema["Event"]["properties"]["status"]["description"]
    mapping = API_DOCS.read_text(encoding="utf-8").split("## State names", 1)[1]
    assert re.search(r"\| `running` \| `round` `status` \*\*`started`\*\*", mapping)


# --- a whole event by token ----------------------------------------------------------------


def test_a_plain_account_runs_a_whole_event_over_the_api_alone():
    organiser = make_user("plainorg")
    assert not organiser.is_staff and not organiser.is_superuser
    assert organiser.get_all_permissions() == set()
    api = token_client(organiser)

    created = api.post(
        "/api/v1/events/",
        {"name": "Token Open", "game": "iacta", "swiss_rounds": 3, "decklist_policy": "none"},
        format="json",
    )
    assert created.status_code == 201, created.content
    event = created.json()
    assert event["status"] == "draft"
    assert EventRole.objects.filter(
        event_id=event["id"], user=organiser, role=EventRole.Role.ORGANISER
    ).exists()
    base = f"/api/v1/events/{event['id']}"

    published = api.patch(f"{base}/", {"status": "registration"}, format="json")
    assert published.status_code == 200, published.content
    assert published.json()["status"] == "registration"

    players: dict[int, APIClient] = {}
    for i in range(8):
        player = token_client(make_user(f"tok{i}"))
        entered = player.post(f"{base}/registrations/", format="json")
        assert entered.status_code == 201, entered.content
        players[entered.json()["registration"]] = player
    checked = api.post(f"{base}/players/", {"action": "check_in", "all": True}, format="json")
    assert checked.json() == {"checked_in": 8}

    for number in (1, 2, 3):
        paired = api.post(f"{base}/rounds/", {}, format="json")
        assert paired.status_code == 201, paired.content
        assert paired.json()["number"] == number
        started = api.post(f"{base}/rounds/{number}/start/", format="json")
        assert started.json()["status"] == "running"
        for match in started.json()["matches"]:
            first, second = (p["registration"] for p in match["players"])
            said = players[first].post(
                f"/api/v1/matches/{match['id']}/report/", {"score": "2-1"}, format="json"
            )
            assert said.status_code == 200, said.content
            agreed = players[second].post(f"/api/v1/matches/{match['id']}/confirm/", format="json")
            assert agreed.json()["status"] == "confirmed"
        closed = api.post(f"{base}/rounds/{number}/close/", format="json")
        assert closed.json()["status"] == "closed", closed.content

    finished = api.post(f"{base}/finish/", format="json")
    assert finished.status_code == 200, finished.content
    assert api.get(f"{base}/").json()["status"] == "finished"
    assert len(api.get(f"{base}/standings/").json()) == 8


# --- create and edit: the page's rules, refusals naming the field --------------------------


def test_create_refuses_what_the_page_refuses_naming_each_field():
    api = token_client(make_user("maker"))
    refused = api.post(
        "/api/v1/events/",
        {"game": "chess", "top_cut": 3, "time_zone": "Mars/Olympus", "seed": 4},
        format="json",
    )
    assert refused.status_code == 400
    assert set(fields_of(refused)) == {"name", "game", "top_cut", "time_zone", "seed"}
    seeded = api.post("/api/v1/events/", {"name": "Seeded", "seed": 4}, format="json")
    assert seeded.status_code == 400 and fields_of(seeded) == ["seed"]
    assert not Event.objects.exists()


def test_create_is_a_draft_warning_about_decklists_unless_told_and_once_per_key():
    api = token_client(make_user("maker"))
    body = {"name": "Keyed Open"}
    first = api.post("/api/v1/events/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = api.post("/api/v1/events/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert Event.objects.count() == 1
    event = Event.objects.get()
    assert (event.status, event.decklist_policy) == ("draft", "warn")
    assert first.json()["decklist_policy"] == "warn"


def test_anonymous_creates_nothing(client):
    refused = client.post("/api/v1/events/", {"name": "Nobody's"}, "application/json")
    assert refused.status_code == 403
    assert not Event.objects.exists()


def test_only_organisers_edit_and_deadlines_are_venue_time(event, judge, player):
    reader = token_client(player)
    for who in (token_client(judge), reader):
        refused = who.patch(f"/api/v1/events/{event.pk}/", {"name": "Mine"}, format="json")
        assert refused.status_code == 403
    api = token_client(event.created_by)
    assert api.patch("/api/v1/events/999999/", {}, format="json").status_code == 404
    changed = api.patch(
        f"/api/v1/events/{event.pk}/",
        {
            "time_zone": "Asia/Tokyo",
            "self_check_in_opens": "2026-12-06T09:00:00",
            "decklist_deadline": "2026-12-06T09:30:00+00:00",
            "decklist_policy": "require",
            "top_cut": 8,
        },
        format="json",
    )
    assert changed.status_code == 200, changed.content
    body = changed.json()
    assert body["self_check_in_opens"] == "2026-12-06T00:00:00+00:00"  # 9:00 in Tokyo
    assert body["decklist_deadline"] == "2026-12-06T09:30:00+00:00"
    assert reader.get(f"/api/v1/events/{event.pk}/").json() == body  # as saved
    assert (body["decklist_policy"], body["top_cut"]) == ("require", 8)
    event.refresh_from_db()
    assert event.log.filter(action="edit").exists()
    bad = api.patch(
        f"/api/v1/events/{event.pk}/",
        {"top_cut": 6, "status": "over", "points": {"win": 9}, "name": "x" * 201},
        format="json",
    )
    assert bad.status_code == 400
    assert set(fields_of(bad)) == {"top_cut", "status", "name", "points"}
    event.refresh_from_db()
    assert event.top_cut == 8


def test_a_skipped_wall_time_is_refused_naming_the_field(event):
    api = token_client(event.created_by)
    refused = api.patch(
        f"/api/v1/events/{event.pk}/",
        {"time_zone": "Europe/Berlin", "registration_deadline": "2026-03-29T02:30:00"},
        format="json",
    )
    assert refused.status_code == 400
    assert fields_of(refused) == ["registration_deadline"]


# --- finish ------------------------------------------------------------------------------


def test_finish_only_when_it_is_the_next_step(organiser):
    world = worlds.build_event(
        4, organiser=organiser, judge=None, password=PASSWORD, swiss_rounds=2, rounds_played=1
    )
    api = token_client(organiser)
    base = f"/api/v1/events/{world.event.pk}"
    early = api.post(f"{base}/finish/", format="json")
    assert early.status_code == 400
    assert "Start round 2" in early.json()["errors"][0]["message"]
    world.event.refresh_from_db()
    assert world.event.status == Event.Status.RUNNING
    current = latest_round(world.event)
    rounds.start_round(current, organiser)
    play_out(current, organiser)
    rounds.close_round(current, organiser)
    assert api.post(f"{base}/finish/", format="json").json()["status"] == "finished"
    again = api.post(f"{base}/finish/", format="json")
    assert again.status_code == 400
    assert token_client(make_user("nobody")).post(f"{base}/finish/").status_code == 403


# --- staff, offers, reminders, check-in -----------------------------------------------------


def test_staff_are_granted_listed_and_removed_as_on_the_page(event, organiser, player):
    api = token_client(organiser)
    base = f"/api/v1/events/{event.pk}/staff"
    unknown = api.post(f"{base}/", {"username": "ghost", "role": "judge"}, format="json")
    assert unknown.status_code == 400 and fields_of(unknown) == ["username"]
    bad_role = api.post(f"{base}/", {"username": "pat", "role": "king"}, format="json")
    assert fields_of(bad_role) == ["role"]
    granted = api.post(f"{base}/", {"username": "pat", "role": "judge"}, format="json")
    assert granted.status_code == 201
    assert granted.json()["username"] == "pat"
    listed = api.get(f"{base}/").json()
    assert {(g["username"], g["role"]) for g in listed} >= {
        ("olive", "organiser"),
        ("pat", "judge"),
    }
    assert token_client(player).get(f"{base}/").status_code == 403  # judges do not
    mine = next(g for g in listed if g["username"] == "olive")
    last = api.delete(f"{base}/{mine['grant']}/")
    assert last.status_code == 400  # an event needs an organiser
    assert api.delete(f"{base}/{granted.json()['grant']}/").status_code == 200
    assert api.delete(f"{base}/{granted.json()['grant']}/").status_code == 404
    assert not EventRole.objects.filter(event=event, user=player).exists()


def test_offers_are_listed_and_withdrawn(event, organiser):
    api = token_client(organiser)
    base = f"/api/v1/events/{event.pk}"
    api.post(f"{base}/players/", {"action": "late_entry", "username": "walker"}, format="json")
    offers = api.get(f"{base}/offers/").json()
    assert [o["username"] for o in offers] == ["walker"]
    withdrawn = api.post(f"{base}/offers/{offers[0]['offer']}/withdraw/")
    assert withdrawn.status_code == 200
    assert EntryOffer.objects.get().state == EntryOffer.State.WITHDRAWN
    assert api.get(f"{base}/offers/").json() == []
    assert api.post(f"{base}/offers/{offers[0]['offer']}/withdraw/").status_code == 400


def test_decklist_reminders_reach_the_players_without_a_list(event, organiser):
    services.update_event(event, organiser, decklist_policy="warn")
    api = token_client(organiser)
    bad = api.post(
        f"/api/v1/events/{event.pk}/decklist-reminders/", {"players": "all"}, format="json"
    )
    assert bad.status_code == 400 and fields_of(bad) == ["players"]
    sent = api.post(f"/api/v1/events/{event.pk}/decklist-reminders/", {}, format="json")
    assert sent.status_code == 200, sent.content
    assert (len(sent.json()["sent"]), sent.json()["unreachable"]) == (1, [])
    assert mail.outbox[0].to == ["pat@example.org"]


def test_a_player_checks_in_while_self_check_in_is_open(event, organiser, player):
    api = token_client(player)
    closed = api.post(f"/api/v1/events/{event.pk}/check-in/")
    assert closed.status_code == 400
    token_client(organiser).patch(
        f"/api/v1/events/{event.pk}/",
        {"self_check_in_opens": "2020-01-01T00:00:00+00:00"},
        format="json",
    )
    opened = api.post(f"/api/v1/events/{event.pk}/check-in/")
    assert opened.status_code == 200, opened.content
    assert opened.json()["checked_in"] is True
    assert event.registrations.get(user=player).checked_in
    assert Round.objects.count() == 0
