"""The rules the pages and the API used to hold themselves, now each in one service.

Each behaviour is checked through both doors (page and API) where there are two, and
every refusal checks that nothing changed.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from accounts import services as accounts
from arbiter.worlds import demo_decklist
from decks import services as decks
from decks.cardpool import load_demo_pools
from tests.conftest import make_user
from tournaments.event import entry_offers, services
from tournaments.models import Event, Match
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds
from web.errors import ServiceError

pytestmark = pytest.mark.django_db


def seated_event(organiser, players: int, prefix: str = "p", **fields) -> Event:
    """An event with ``players`` registered and checked in (p01, p02, …)."""
    defaults = {"name": "Service Open", "status": Event.Status.REGISTRATION, "swiss_rounds": 3}
    event = services.create_event(organiser, **{**defaults, **fields})
    for i in range(1, players + 1):
        services.register_player(event, make_user(f"{prefix}{i:02d}"))
    services.check_in(event, list(event.registrations.values_list("pk", flat=True)), organiser)
    return event


def state(event: Event) -> dict:
    """What a refused change must leave as it was."""
    event.refresh_from_db()
    return {
        "event": {f: getattr(event, f) for f in services.EDITABLE_EVENT_FIELDS},
        "pins": dict(event.registrations.values_list("pk", "table_pin")),
        "log": list(event.log.values_list("pk", flat=True)),
    }


def api_pin(client, event: Event, body: dict):
    return client.post(
        f"/api/v1/events/{event.pk}/players/", {"action": "pin", **body}, "application/json"
    )


# --- the table pin ----------------------------------------------------------------------


def test_the_api_pin_is_logged_like_the_page_pin(client, organiser):
    event = seated_event(organiser, 2)
    first, second = event.registrations.order_by("pk")
    client.force_login(organiser)

    response = api_pin(client, event, {"registration": first.pk, "table": 4})
    client.post(f"/events/{event.pk}/players/{second.pk}/pin/", {"table": "5"})

    assert response.status_code == 200
    assert response.json() == {"registration": first.pk, "table_pin": 4}
    pins = event.log.filter(action="pin").order_by("pk")
    assert [(e.actor, e.data) for e in pins] == [
        (organiser, {"player": first.display_name, "table": 4}),
        (organiser, {"player": second.display_name, "table": 5}),
    ]
    assert dict(event.registrations.values_list("pk", "table_pin")) == {
        first.pk: 4,
        second.pk: 5,
    }


@pytest.mark.parametrize("table", [0, -3, services.MAX_TABLE + 1, "4a", True])
def test_the_api_refuses_a_bad_table_and_changes_nothing(client, organiser, table):
    event = seated_event(organiser, 2)
    registration = event.registrations.first()
    services.pin_table(event, registration, 2, organiser)
    before = state(event)
    client.force_login(organiser)

    response = api_pin(client, event, {"registration": registration.pk, "table": table})

    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["table"]
    assert state(event) == before


@pytest.mark.parametrize("table", ["0", "-3", "four", str(services.MAX_TABLE + 1), "1" * 40])
def test_the_page_refuses_a_bad_table_and_changes_nothing(client, organiser, table):
    event = seated_event(organiser, 2)
    registration = event.registrations.first()
    services.pin_table(event, registration, 2, organiser)
    before = state(event)
    client.force_login(organiser)

    response = client.post(
        f"/events/{event.pk}/players/{registration.pk}/pin/", {"table": table}, follow=True
    )

    assert services.TABLE_PIN_RULE in response.content.decode().replace("&#x27;", "'")
    assert state(event) == before


def test_an_empty_pin_clears_the_pin_and_is_logged(client, organiser):
    event = seated_event(organiser, 2)
    registration = event.registrations.first()
    services.pin_table(event, registration, 3, organiser)
    client.force_login(organiser)

    client.post(f"/events/{event.pk}/players/{registration.pk}/pin/", {"table": ""})
    response = api_pin(client, event, {"registration": registration.pk, "table": None})

    assert response.json() == {"registration": registration.pk, "table_pin": None}
    registration.refresh_from_db()
    assert registration.table_pin is None
    tables = list(event.log.filter(action="pin").order_by("pk").values_list("data", flat=True))
    assert [d["table"] for d in tables] == [3, None, None]


def test_the_service_refuses_another_events_player_naming_the_field(organiser):
    event = seated_event(organiser, 2)
    other = seated_event(organiser, 2, prefix="q", name="Other Open")
    stranger = other.registrations.first()
    before, before_other = state(event), state(other)

    with pytest.raises(ServiceError) as refused:
        services.pin_table(event, stranger, 1, organiser)

    assert refused.value.fields == ["registration"]
    assert (state(event), state(other)) == (before, before_other)


# --- the event edit -----------------------------------------------------------------------


def edit_form(event: Event, **changes) -> dict:
    """The edit page's fields as the form posts them, with ``changes``."""
    fields = {
        "name": event.name,
        "game": event.game,
        "date": event.date.isoformat(),
        "venue": event.venue,
        "status": event.status,
        "match_format": event.match_format,
        "swiss_rounds": event.swiss_rounds or "",
        "top_cut": event.top_cut,
        "round_minutes": event.round_minutes,
        "registration_cap": event.registration_cap or "",
        "registration_deadline": "",
        "decklist_deadline": "",
        "decklists_public": event.decklists_public,
        "print_paper": event.print_paper,
    }
    return {**fields, **changes}


def test_the_edit_page_saves_through_the_service_and_logs_the_fields(client, organiser):
    event = seated_event(organiser, 2)
    client.force_login(organiser)

    response = client.post(
        f"/events/{event.pk}/edit/", edit_form(event, name="Renamed Open", venue="Hall B")
    )

    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.venue) == ("Renamed Open", "Hall B")
    entry = event.log.get(action="edit")
    assert (entry.actor, entry.data) == (organiser, {"fields": ["name", "venue"]})


def test_saving_the_edit_page_unchanged_writes_no_log_entry(client, organiser):
    event = seated_event(organiser, 2)
    before = state(event)
    client.force_login(organiser)

    response = client.post(f"/events/{event.pk}/edit/", edit_form(event))

    assert response.status_code == 302
    assert state(event) == before


def test_the_edit_page_refuses_an_odd_top_cut_and_changes_nothing(client, organiser):
    event = seated_event(organiser, 2)
    before = state(event)
    client.force_login(organiser)

    response = client.post(f"/events/{event.pk}/edit/", edit_form(event, top_cut=6, name="X"))

    assert response.status_code == 200
    assert response.context["form"].errors["top_cut"] == [services.TOP_CUT_RULE]
    assert state(event) == before


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"top_cut": 6}, ["top_cut"]),
        ({"name": "x" * 201}, ["name"]),
        ({"match_format": "bo7", "print_paper": "A3"}, ["match_format", "print_paper"]),
        ({"points_win": 5}, ["points_win"]),
        ({"seed": 1, "tiebreakers": []}, ["seed", "tiebreakers"]),
    ],
)
def test_the_event_service_refuses_what_the_model_or_the_rules_refuse(organiser, fields, named):
    event = seated_event(organiser, 2)
    before = state(event)

    with pytest.raises(ServiceError) as refused:
        services.update_event(event, organiser, **fields)

    assert sorted(refused.value.fields) == named
    assert state(event) == before


# --- can we pair? the service says, through both doors ---------------------------------------


def refusals_of_pairing(client, event: Event, organiser) -> tuple[str, str, str]:
    """What the service, the dashboard's next step and the API say when round 1 cannot
    be paired; nothing paired by any of them."""
    with pytest.raises(ServiceError) as refused:
        rounds.pair_next_round(event, organiser)
    client.force_login(organiser)
    page = client.post(f"/events/{event.pk}/next/", {"action": "pair"}, follow=True)
    api = client.post(f"/api/v1/events/{event.pk}/rounds/", {}, "application/json")
    assert api.status_code == 400 and not event.rounds.exists()
    said = [str(m) for m in page.context["messages"]]
    assert len(said) == 1
    return refused.value.message, said[0], api.json()["errors"][0]["message"]


def test_too_few_players_are_refused_in_the_services_words_by_page_and_api(client, organiser):
    event = seated_event(organiser, 1)
    service, page, api = refusals_of_pairing(client, event, organiser)
    assert service == "Round 1 needs at least two active players. Check players in first."
    assert page == api == service


def test_a_draft_is_refused_in_the_services_words_by_page_and_api(client, organiser):
    event = seated_event(organiser, 2)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.DRAFT)
    service, page, api = refusals_of_pairing(client, event, organiser)
    assert service.startswith("This event is a draft: only its organisers see it.")
    assert page == api == service


# --- players type their own wins first ------------------------------------------------------


@pytest.fixture
def paired(organiser):
    event = seated_event(organiser, 2)
    round_ = rounds.pair_next_round(event, organiser)
    return event, round_.matches.get()


def test_a_players_score_is_read_from_their_side(organiser):
    """The same "2-1" typed by either player is that player's two wins."""
    for seat in ("player_a", "player_b"):
        event = seated_event(organiser, 2, prefix=seat)
        match = rounds.pair_next_round(event, organiser).matches.get()
        reporter = getattr(match, seat)
        reported = results.report_result(match, reporter, Score(2, 1), reporter.user)
        table_order = Score(2, 1) if seat == "player_a" else Score(1, 2)
        assert results.games_of(reported).score == table_order


def test_the_second_player_reporting_2_1_to_the_service_is_the_winner(paired):
    """The service takes the player's own score (their wins first) and turns it itself:
    the second player's "2-1", handed over as typed, is their win, the table's 1-2."""
    _, match = paired
    b = match.player_b
    reported = results.report_result(match, b, Score(2, 1), b.user)
    assert reported.status == Match.Status.REPORTED
    assert results.games_of(reported).winner == b.pk
    assert results.games_of(reported).score == Score(1, 2)
    assert [(c.player_id, c.score) for c in reported.claims.all()] == [(b.pk, "2-1")]


def test_the_opponent_reporting_their_own_side_of_the_same_result_confirms_it(paired):
    _, match = paired
    a, b = match.player_a, match.player_b
    results.report_result(match, b, Score(2, 1), b.user)
    confirmed = results.report_result(match, a, Score(1, 2), a.user)  # a's own: 1 win, 2 losses
    assert confirmed.status == Match.Status.CONFIRMED
    assert results.games_of(confirmed).winner == b.pk
    claims = [(c.player_id, c.kind, c.score) for c in confirmed.claims.all()]
    assert claims == [(b.pk, "report", "2-1"), (a.pk, "confirm", "1-2")]


def test_a_dispute_from_the_second_player_is_checked_from_their_side(paired, organiser):
    """The disputing player's own "2-0" is their win, the table's 0-2, and the claim keeps
    it as they typed it."""
    _, match = paired
    a, b = match.player_a, match.player_b
    results.report_result(match, a, Score(2, 1), a.user)
    disputed = results.dispute_result(match, b, b.user, "I won both", Score(2, 0))
    assert disputed.status == Match.Status.DISPUTED
    assert [c.score for c in disputed.claims.all()] == ["2-1", "2-0"]


def test_staff_enter_scores_in_table_order_whoever_they_favour(paired, organiser):
    """The staff's service takes the first player's wins first, not one player's side."""
    _, match = paired
    entered = results.enter_result(match, Score(1, 2), organiser)
    assert results.games_of(entered).winner == match.player_b_id
    assert results.games_of(entered).score == Score(1, 2)


def test_the_second_player_reports_their_own_wins_first_over_the_api(client, paired):
    _, match = paired
    client.force_login(match.player_b.user)

    response = client.post(f"/api/v1/matches/{match.pk}/report/", {"score": "2-1"})

    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    assert results.games_of(match).score == Score(1, 2)


# --- the sideboard check -------------------------------------------------------------------


@pytest.fixture
def registered_list(organiser):
    load_demo_pools()
    event = seated_event(organiser, 2)
    registration = event.registrations.order_by("pk").first()
    decklist, _ = decks.save_decklist(registration, demo_decklist(0), submit=True, actor=None)
    return decklist


def test_the_registered_list_is_a_legal_configuration(registered_list):
    ruling = decks.check_sideboard_swap(registered_list, demo_decklist(0), new_match=True)
    assert ruling["legal"] is True


def test_a_card_from_outside_the_registration_is_a_902_violation(registered_list):
    registered = {e["name"] for e in [*registered_list.main, *registered_list.sideboard]}
    other = demo_decklist(1)
    foreign = [line for line in other.splitlines() if line.partition(" ")[2] not in registered]
    assert foreign, "the second demo list shares every card with the first"
    proposed = demo_decklist(0) + "\n" + foreign[0]

    ruling = decks.check_sideboard_swap(registered_list, proposed, new_match=False)

    assert ruling["legal"] is False
    assert "902.4" in {v["rule"] for v in ruling["violations"]}


def test_an_unknown_card_is_refused_naming_the_proposed_list(registered_list):
    with pytest.raises(ServiceError) as refused:
        decks.check_sideboard_swap(registered_list, "4 No Such Card", new_match=False)
    assert refused.value.fields == ["proposed"]
    assert "No Such Card" in refused.value.message


def test_the_sideboard_page_shows_the_services_refusal(client, registered_list, organiser):
    event = registered_list.registration.event
    client.force_login(organiser)

    response = client.post(
        f"/events/{event.pk}/decklists/{registered_list.registration_id}/sideboard/",
        {"proposed": "4 No Such Card"},
        follow=True,
    )

    assert "Not in the card pool: No Such Card" in response.content.decode()
    assert "swap_result" not in client.session


# --- signing up ---------------------------------------------------------------------------------


def test_signing_up_creates_the_account_through_the_service(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "new@example.org",
            "password1": "a-long-enough-passphrase",
            "password2": "a-long-enough-passphrase",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="newcomer")
    assert user.check_password("a-long-enough-passphrase")
    assert user.email == ""  # until its owner confirms it from the message sent there


@pytest.mark.parametrize(
    ("username", "email", "field"),
    [("someone", "PAT@example.org", "email"), ("PAT", "other@example.org", "username")],
)
def test_the_account_service_refuses_a_taken_name_or_address(db, username, email, field):
    make_user("pat")
    before = list(User.objects.values_list("pk", "username", "email"))

    with pytest.raises(ServiceError) as refused:
        accounts.create_account(username=username, password="a-long-passphrase", email=email)

    assert refused.value.fields == [field]
    assert list(User.objects.values_list("pk", "username", "email")) == before


# --- a late entry by account name ---------------------------------------------------------------


def test_a_late_entry_reads_the_same_for_an_unknown_account_by_both_doors(client, organiser):
    """Issue 28: the organiser learns nothing of accounts. Either name seats a walk-in and
    offers it; neither door says whether an account has that name."""
    event = seated_event(organiser, 2)
    make_user("known")
    client.force_login(organiser)

    answers = {}
    for username in ("nobody", "known"):
        api = client.post(
            f"/api/v1/events/{event.pk}/players/",
            {"action": "late_entry", "username": username},
            "application/json",
        )
        page = client.post(
            f"/events/{event.pk}/late-entry/", {"username": f"{username}2"}, follow=True
        )
        body = api.json()
        answers[username] = (
            api.status_code,
            sorted(body),
            body["offered_to"].replace(username, "NAME"),
            [str(m).replace(f"{username}2", "NAME") for m in page.context["messages"]],
        )

    assert answers["nobody"] == answers["known"]
    assert answers["known"][:3] == (201, ["joined_round", "offered_to", "registration"], "NAME")
    assert event.registrations.filter(user__isnull=True).count() == 4
    assert event.registrations.count() == 6


def test_a_late_entry_by_account_name_finds_the_account_in_any_case(organiser):
    event = seated_event(organiser, 2)
    rounds.pair_next_round(event, organiser)
    late = make_user("Latecomer")

    registration = services.add_late_entry(event, organiser, username=" latecomer ")
    assert registration.user is None  # the account's holder has not accepted yet
    offer = registration.entry_offers.get()
    assert (offer.username, offer.account) == ("latecomer", late)
    entry_offers.accept_offer(offer, late)

    registration.refresh_from_db()
    assert (registration.user, registration.joined_round) == (late, 2)
