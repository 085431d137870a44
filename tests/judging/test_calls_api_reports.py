"""Judge calls and time extensions, the judging API with every role, the penalty CSV and
a player's penalty history.

The URLs are routed here at the paths they will have once wired, so the tests hold then.
"""

import csv
import io

import pytest

from arbiter.worlds import build_event
from judging import reports
from judging.calls import attach_ruling, open_call, resolve_call
from judging.models import JudgeCall, Penalty
from judging.penalties import issue_penalty, void_penalty
from tests.conftest import database_rows, make_user, play_out, refused
from tournaments.event import services
from tournaments.models import Event, EventLog, EventRole, Match
from tournaments.rounds import services as rounds
from web.errors import ServiceError

pytestmark = pytest.mark.django_db

SEARCH = {"seconds": 200, "judged": True}  # iacta/search-time: 3 warnings allowed


@pytest.fixture
def hall(make_world):
    """Round 1 of a 4-player best-of-three event, judged by jude; the first table."""
    world = make_world(4)
    return world.event, world.table(1)


@pytest.fixture
def people(hall, organiser, judge):
    """Someone in every role, including a judge of another event and a superuser."""
    _, table = hall
    outsider = make_user("otto")
    other = services.create_event(outsider, name="Elsewhere Cup")
    EventRole.objects.create(event=other, user=make_user("ingrid"), role=EventRole.Role.JUDGE)
    return {
        "anonymous": None,
        "player": table.player_a.user,
        "judge": judge,
        "organiser": organiser,
        "other_judge": EventRole.objects.get(event=other, role="judge").user,
        "superuser": make_user("root", is_superuser=True),
    }


ROLES = ["anonymous", "player", "other_judge", "judge", "organiser", "superuser"]
ALLOWED = {"judge", "organiser", "superuser"}


def as_(client, people, who):
    if people[who] is not None:
        client.force_login(people[who])
    return client


def other_event(organiser, *names: str) -> Event:
    """A second event, its players named apart (the hall's are p01…), checked in."""
    world = build_event(
        names, name="Elsewhere", organiser=organiser, judge=None, paired=False, swiss_rounds=1
    )
    return world.event


def errors(response) -> dict:
    """field -> messages of an error response."""
    found: dict = {}
    for error in response.json()["errors"]:
        found.setdefault(error["field"], []).append(error["message"])
    return found


# --- the call service --------------------------------------------------------------------


def test_a_call_at_a_table_is_tied_to_the_match_playing_there(hall, judge):
    event, table = hall
    call = open_call(event, judge, question="  Can I respond to a flush?  ", table=table.table)
    assert (call.match, call.round, call.table) == (table, table.round, table.table)
    assert call.question == "Can I respond to a flush?" and call.is_open and call.judge is None


def test_a_call_for_a_match_takes_its_table(hall, judge):
    event, table = hall
    call = open_call(event, judge, question="Deck check", match=table, judge=judge)
    assert (call.table, call.round, call.judge) == (table.table, table.round, judge)


def test_a_call_at_an_empty_table_is_logged_without_a_match(hall, judge):
    event, table = hall
    call = open_call(event, judge, question="Spilled drink", table=40)
    assert call.match is None and call.table == 40 and call.round == table.round


def test_between_rounds_a_table_has_no_match(hall, judge, organiser):
    event, table = hall
    play_out(table.round, organiser)
    rounds.close_round(table.round, organiser)
    call = open_call(event, judge, question="Lost card", table=table.table)
    assert call.match is None and call.round is None


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"question": "   ", "table": 1}, "question", "Write the question"),
        ({"question": "x" * 2001, "table": 1}, "question", "keep it to 2,000"),
        ({"question": "Q", "table": 0}, "table", "from 1"),
        ({"question": "Q", "table": "1"}, "table", "whole number"),
        ({"question": "Q", "table": True}, "table", "whole number"),
        ({"question": "Q"}, "table", "Give the table"),
    ],
)
def test_open_call_refuses_what_cannot_be_logged(hall, judge, fields, field, message):
    event, _ = hall
    with pytest.raises(ServiceError, match=message) as refused:
        open_call(event, judge, **fields)
    assert refused.value.errors[0]["field"] == field
    assert not JudgeCall.objects.exists()


def test_a_question_of_exactly_2000_characters_is_kept(hall, judge):
    event, _ = hall
    assert len(open_call(event, judge, question="y" * 2000, table=1).question) == 2000


def test_open_call_refuses_another_events_match_and_a_wrong_table(hall, judge, organiser):
    event, table = hall
    elsewhere = other_event(organiser, "ann", "bea")
    their_match = rounds.pair_next_round(elsewhere, organiser).matches.get()
    with refused("not part of this event"):
        open_call(event, judge, question="Q", match=their_match)
    with refused("not table 99"):
        open_call(event, judge, question="Q", match=table, table=99)


def test_only_a_judge_of_the_event_is_assigned(hall, judge):
    event, table = hall
    with refused("is not a judge of this event"):
        open_call(event, judge, question="Q", table=1, judge=table.player_a.user)


def test_resolving_records_the_answer_and_who_gave_it(hall, judge, organiser):
    event, _ = hall
    call = open_call(event, organiser, question="Q", table=1)
    done = resolve_call(call, judge, resolution=" Yes, in order. ", minutes=4)
    assert (done.judge, done.resolution, done.minutes) == (judge, "Yes, in order.", 4)
    assert done.resolved_at is not None and not done.is_open and done.extension_minutes == 0


def test_the_judge_who_took_the_call_stays_its_judge(hall, judge, organiser):
    event, _ = hall
    call = open_call(event, judge, question="Q", table=1, judge=judge)
    assert resolve_call(call, organiser, resolution="Done", minutes=1).judge == judge


def test_a_call_is_resolved_once(hall, judge):
    event, _ = hall
    call = open_call(event, judge, question="Q", table=1)
    resolve_call(call, judge, resolution="First", minutes=2)
    with pytest.raises(ServiceError, match="already resolved"):
        resolve_call(call, judge, resolution="Second", minutes=3)
    call.refresh_from_db()
    assert call.resolution == "First"


@pytest.mark.parametrize(("minutes", "message"), [(-1, "from 0 to 180"), (181, "from 0 to 180")])
def test_minutes_must_be_0_to_180(hall, judge, minutes, message):
    event, _ = hall
    call = open_call(event, judge, question="Q", table=1)
    with pytest.raises(ServiceError, match=message):
        resolve_call(call, judge, resolution="R", minutes=minutes)
    call.refresh_from_db()
    assert call.is_open


def test_an_extension_adds_the_minutes_to_the_match_clock_903_1b(hall, judge):
    event, table = hall
    first = open_call(event, judge, question="Deck check", match=table)
    second = open_call(event, judge, question="Ruling", match=table)
    resolve_call(first, judge, resolution="Legal deck", minutes=7, grant_extension=True)
    done = resolve_call(second, judge, resolution="Answered", minutes=3, grant_extension=True)
    table.refresh_from_db()
    assert table.extension_minutes == 10 and done.extension_minutes == 3
    logged = EventLog.objects.filter(event=event, action="time_extension")
    assert sorted(e.data["minutes"] for e in logged) == [3, 7]


def test_no_extension_without_a_match_or_minutes(hall, judge):
    event, table = hall
    stray = open_call(event, judge, question="Q", table=40)
    with refused("not tied to a match"):
        resolve_call(stray, judge, resolution="R", minutes=5, grant_extension=True)
    call = open_call(event, judge, question="Q", match=table)
    with refused("at least one minute"):
        resolve_call(call, judge, resolution="R", minutes=0, grant_extension=True)


def test_no_extension_once_the_round_is_closed(hall, judge, organiser):
    event, table = hall
    call = open_call(event, judge, question="Deck check", match=table)
    play_out(table.round, organiser)
    rounds.close_round(table.round, organiser)
    with pytest.raises(ServiceError, match="Round 1 is closed") as refused:
        resolve_call(call, judge, resolution="Legal", minutes=5, grant_extension=True)
    assert refused.value.errors[0]["field"] == "grant_extension"
    table.refresh_from_db()
    call.refresh_from_db()
    assert table.extension_minutes == 0 and call.is_open
    # Without the extension the call can still be closed.
    assert not resolve_call(call, judge, resolution="Legal", minutes=5).is_open


def test_a_ruling_is_kept_with_the_call(hall, judge):
    event, _ = hall
    call = open_call(event, judge, question="How long may they search?", table=1)
    call = attach_ruling(call, judge, game="iacta", question="search-time", payload=SEARCH)
    call.refresh_from_db()
    assert (call.ruling_game, call.ruling_question, call.ruling_payload) == (
        "iacta",
        "search-time",
        SEARCH,
    )
    assert call.ruling_answer["max_warnings"] == 3 and "904.4" in call.ruling_answer["citations"]


@pytest.mark.parametrize(
    ("game", "question", "payload", "field", "message"),
    [
        ("iacta", "search-time", {"seconds": -5}, "payload.seconds", "does not fit"),
        ("iacta", "search-time", {"seconds": 5}, "payload.judged", "does not fit"),
        ("chess", "search-time", SEARCH, "game", "no game 'chess'"),
        ("iacta", "castling", SEARCH, "question", "no rules question 'castling'"),
        (None, "search-time", SEARCH, "game", "Name the game"),
    ],
)
def test_a_ruling_that_does_not_fit_is_refused(
    hall, judge, game, question, payload, field, message
):
    event, _ = hall
    call = open_call(event, judge, question="Q", table=1)
    with pytest.raises(ServiceError, match=message) as refused:
        attach_ruling(call, judge, game=game, question=question, payload=payload)
    assert field in [e["field"] for e in refused.value.errors]
    call.refresh_from_db()
    assert call.ruling_answer is None


def test_a_refused_ruling_refuses_the_whole_resolution(hall, judge):
    event, table = hall
    call = open_call(event, judge, question="Q", match=table)
    bad = {
        "game": "iacta",
        "question": "search-time",
        "payload": {"seconds": "long", "judged": True},
    }
    with pytest.raises(ServiceError) as refused:
        resolve_call(call, judge, resolution="R", minutes=5, grant_extension=True, ruling=bad)
    assert [e["field"] for e in refused.value.errors] == ["ruling.payload.seconds"]
    table.refresh_from_db()
    call.refresh_from_db()
    assert call.is_open and table.extension_minutes == 0


def test_a_resolved_calls_ruling_is_final(hall, judge):
    event, _ = hall
    call = open_call(event, judge, question="Q", table=1)
    resolve_call(call, judge, resolution="R", minutes=1)
    with refused("resolved"):
        attach_ruling(call, judge, game="iacta", question="search-time", payload=SEARCH)


# --- the API: who may ------------------------------------------------------------------


def _requests(event: Event, table: Match, judge) -> dict:
    penalty = issue_penalty(table.player_a, "slow_play", judge, match=table)
    call = open_call(event, judge, question="Q", match=table)
    body = {"match": table.pk, "player": table.player_a_id, "infraction": "slow_play", "game": 1}
    return {
        "preview": ("post", f"/api/v1/events/{event.pk}/penalties/preview/", body, 200),
        "penalties": ("get", f"/api/v1/events/{event.pk}/penalties/", None, 200),
        "issue": ("post", f"/api/v1/events/{event.pk}/penalties/", body, 201),
        "void": ("post", f"/api/v1/penalties/{penalty.pk}/void/", {"reason": "typo"}, 200),
        "calls": ("get", f"/api/v1/events/{event.pk}/calls/", None, 200),
        "open_call": (
            "post",
            f"/api/v1/events/{event.pk}/calls/",
            {"table": 1, "question": "Q"},
            201,
        ),
        "resolve": (
            "post",
            f"/api/v1/calls/{call.pk}/resolve/",
            {"resolution": "R", "minutes": 2},
            200,
        ),
    }


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize(
    "endpoint", ["preview", "penalties", "issue", "void", "calls", "open_call", "resolve"]
)
def test_only_the_events_judges_and_organisers_use_the_api(
    client, hall, judge, people, who, endpoint
):
    event, table = hall
    method, url, body, ok = _requests(event, table, judge)[endpoint]
    client = as_(client, people, who)
    if method == "get":
        response = client.get(url)
    else:
        response = client.post(url, body, content_type="application/json")
    assert response.status_code == (ok if who in ALLOWED else 403), response.content
    if who not in ALLOWED:
        assert response.json()["errors"][0]["message"]


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/events/9999/penalties/preview/",
        "/api/v1/events/9999/penalties/",
        "/api/v1/penalties/9999/void/",
        "/api/v1/events/9999/calls/",
        "/api/v1/calls/9999/resolve/",
    ],
)
def test_unknown_event_penalty_or_call_is_404(client, judge, url):
    client.force_login(judge)
    response = client.post(url, {}, content_type="application/json")
    assert response.status_code == 404 and response.json()["errors"]
    assert not Penalty.objects.exists() and not JudgeCall.objects.exists()


# --- the API: penalties -------------------------------------------------------------------


def post(client, url, body):
    return client.post(url, body, content_type="application/json")


def test_preview_then_issue_the_third_slow_play_warning(client, hall, judge):
    event, table = hall
    client.force_login(judge)
    body = {"match": table.pk, "player": table.player_a_id, "infraction": "slow_play", "game": 2}
    for _ in range(2):
        assert post(client, f"/api/v1/events/{event.pk}/penalties/", body).status_code == 201
    preview = post(client, f"/api/v1/events/{event.pk}/penalties/preview/", body).json()
    assert preview["consequences"] == [
        {"result": "game_loss", "game": 2, "rule": "905.1", "text": "Game Loss in game 2 (905.1)"}
    ]
    assert preview["summary"] == "Game Loss in game 2 (905.1)"
    assert "905.1" in preview["citations"] and preview["explanation"]
    assert preview["tallies"]["slow_play_warnings"] == 3
    assert Penalty.objects.count() == 2  # a preview issues nothing
    issued = post(
        client, f"/api/v1/events/{event.pk}/penalties/", {**body, "notes": "third"}
    ).json()
    assert issued["consequences"][0]["text"] == "Game Loss in game 2 (905.1)"
    assert issued["judge"] == "jude" and issued["notes"] == "third"
    assert issued["table"] == table.table and issued["round"] == 1 and issued["rule"] == "904.4"
    assert issued["player"] == {
        "registration": table.player_a_id,
        "name": table.player_a.display_name,
    }


def test_list_includes_voided_penalties_and_void_reports_manual_steps(client, hall, judge):
    event, table = hall
    client.force_login(judge)
    first = issue_penalty(table.player_a, "unsporting_conduct_warning", judge, match=table)
    second = issue_penalty(table.player_b, "slow_play", judge, match=table)
    voided = post(client, f"/api/v1/penalties/{first.pk}/void/", {"reason": "misheard"}).json()
    assert voided["manual"] == []
    assert voided["penalty"]["voided"] is True and voided["penalty"]["void_reason"] == "misheard"
    assert voided["penalty"]["voided_by"] == "jude" and voided["penalty"]["consequences"] == []
    listed = client.get(f"/api/v1/events/{event.pk}/penalties/").json()
    assert [p["id"] for p in listed] == [first.pk, second.pk]
    assert listed[0]["voided_at"].startswith(str(first.issued_at.year))
    assert listed[1]["issued_at"] and listed[1]["voided_at"] is None
    again = post(client, f"/api/v1/penalties/{first.pk}/void/", {"reason": "twice"})
    assert again.status_code == 400 and "already void" in again.json()["errors"][0]["message"]


def test_a_penalty_outside_a_match_is_accepted(client, hall, judge):
    event, table = hall
    client.force_login(judge)
    body = {"player": table.player_a_id, "infraction": "hate_symbols"}
    issued = post(client, f"/api/v1/events/{event.pk}/penalties/", body).json()
    assert issued["match"] is None and issued["game"] == 1
    assert issued["consequences"][0]["result"] == "disqualification"


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"player": None}, "player", "player is required"),
        ({"player": "abc"}, "player", "whole number"),
        ({"player": 1.5}, "player", "whole number"),
        ({"player": True}, "player", "whole number"),
        ({"player": 10**30}, "player", "no player"),
        ({"player": -3}, "player", "no player"),
        ({"match": "x"}, "match", "whole number"),
        ({"match": 999_999}, "match", "no match 999999"),
        ({"infraction": "jaywalking"}, "infraction", "Unknown infraction"),
        ({"infraction": ["slow_play"]}, "infraction", "Unknown infraction"),
        ({"infraction": None}, "infraction", "infraction is required"),
        ({"game": "two"}, "game", "whole number"),
        ({"game": 9}, "game", "Game 9 is not a game"),
        ({"game": 0}, "game", "Game 0 is not a game"),
        ({"notes": 5}, "notes", "must be text"),
    ],
)
@pytest.mark.parametrize("endpoint", ["penalties/preview/", "penalties/"])
def test_malformed_penalty_bodies_name_the_field(
    client, hall, judge, endpoint, change, field, message
):
    event, table = hall
    client.force_login(judge)
    body = {"match": table.pk, "player": table.player_a_id, "infraction": "slow_play", "game": 1}
    response = post(client, f"/api/v1/events/{event.pk}/{endpoint}", {**body, **change})
    if field == "notes" and endpoint.endswith("preview/"):
        assert response.status_code == 200  # a preview has no notes to check
        return
    assert response.status_code == 400
    assert any(message in m for m in errors(response)[field]), errors(response)
    assert not Penalty.objects.exists()


def test_a_player_from_another_table_or_event_is_refused(client, hall, judge, organiser):
    event, table = hall
    client.force_login(judge)
    elsewhere = other_event(organiser, "ann")
    stranger = elsewhere.registrations.first()
    other_table = table.round.matches.exclude(pk=table.pk).first()
    url = f"/api/v1/events/{event.pk}/penalties/"
    for player, message in [
        (stranger.pk, "This event has no player"),
        (other_table.player_a_id, "is not a player of table"),
    ]:
        body = {"match": table.pk, "player": player, "infraction": "slow_play"}
        response = post(client, url, body)
        assert response.status_code == 400
        assert message in errors(response)["player"][0]


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("[1, 2]", "application/json"),
        ('"text"', "application/json"),
        ("{not json", "application/json"),
        ("", "application/json"),
    ],
)
def test_a_body_that_is_no_object_is_a_400(client, hall, judge, body, content_type):
    event, _ = hall
    client.force_login(judge)
    before = database_rows()
    for url in (
        f"/api/v1/events/{event.pk}/penalties/preview/",
        f"/api/v1/events/{event.pk}/penalties/",
        f"/api/v1/events/{event.pk}/calls/",
    ):
        response = client.post(url, body, content_type=content_type)
        assert response.status_code == 400, (url, response.content)
        assert response.json()["errors"][0]["message"]
    assert database_rows() == before


def test_form_encoded_bodies_work_too(client, hall, judge):
    event, table = hall
    client.force_login(judge)
    form = {"match": str(table.pk), "player": str(table.player_a_id), "infraction": "slow_play"}
    assert client.post(f"/api/v1/events/{event.pk}/penalties/", form).status_code == 201
    issued = Penalty.objects.get()
    assert (issued.match, issued.player_id, issued.infraction) == (
        table,
        table.player_a_id,
        "slow_play",
    )


def test_void_needs_a_reason(client, hall, judge):
    _, table = hall
    client.force_login(judge)
    penalty = issue_penalty(table.player_a, "slow_play", judge, match=table)
    for body in ({}, {"reason": "  "}, {"reason": 3}):
        response = post(client, f"/api/v1/penalties/{penalty.pk}/void/", body)
        assert response.status_code == 400 and "reason" in errors(response)
    penalty.refresh_from_db()
    assert not penalty.is_void


def test_void_says_what_to_fix_by_hand(client, hall, judge, organiser):
    event, table = hall
    penalty = issue_penalty(table.player_a, "unsporting_conduct_warning", judge, match=table)
    play_out(table.round, organiser)
    rounds.close_round(table.round, organiser)
    rounds.pair_next_round(event, organiser)
    client.force_login(judge)
    voided = post(client, f"/api/v1/penalties/{penalty.pk}/void/", {"reason": "video"}).json()
    assert len(voided["manual"]) == 1 and "by hand" in voided["manual"][0]


# --- the API: calls ---------------------------------------------------------------------


def test_open_and_resolve_a_call_with_an_extension_and_a_ruling(client, hall, judge):
    event, table = hall
    client.force_login(judge)
    opened = post(
        client, f"/api/v1/events/{event.pk}/calls/", {"table": table.table, "question": "Search?"}
    )
    assert opened.status_code == 201
    call = opened.json()
    assert call["match"] == table.pk and call["open"] is True and call["round"] == 1
    resolved = post(
        client,
        f"/api/v1/calls/{call['id']}/resolve/",
        {
            "resolution": "Two warnings were right",
            "minutes": 6,
            "grant_extension": True,
            "ruling": {"game": "iacta", "question": "search-time", "payload": SEARCH},
        },
    )
    assert resolved.status_code == 200, resolved.content
    done = resolved.json()
    assert done["open"] is False and done["judge"] == "jude" and done["minutes"] == 6
    assert done["extension_minutes"] == 6 and done["match_extension_minutes"] == 6
    assert done["ruling"]["answer"]["max_warnings"] == 3
    listed = client.get(f"/api/v1/events/{event.pk}/calls/").json()
    assert [c["id"] for c in listed] == [call["id"]]
    table.refresh_from_db()
    assert table.extension_minutes == 6


def test_a_call_by_match_id(client, hall, judge):
    event, table = hall
    client.force_login(judge)
    body = {"match": table.pk, "question": "Deck check"}
    call = post(client, f"/api/v1/events/{event.pk}/calls/", body).json()
    assert call["table"] == table.table and call["match"] == table.pk


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"question": "Q"}, "table", "Give the table"),
        ({"table": 1}, "question", "question is required"),
        ({"table": 1, "question": "x" * 2001}, "question", "keep it to 2,000"),
        ({"table": 1, "question": ["Q"]}, "question", "must be text"),
        ({"table": "one", "question": "Q"}, "table", "whole number"),
        ({"table": 0, "question": "Q"}, "table", "from 1"),
        ({"table": 10**12, "question": "Q"}, "table", "from 1"),
        ({"match": 10**30, "question": "Q"}, "match", "no match"),
        ({"match": "x", "question": "Q"}, "match", "whole number"),
    ],
)
def test_malformed_call_bodies_name_the_field(client, hall, judge, body, field, message):
    event, _ = hall
    client.force_login(judge)
    response = post(client, f"/api/v1/events/{event.pk}/calls/", body)
    assert response.status_code == 400
    assert any(message in m for m in errors(response)[field]), errors(response)
    assert not JudgeCall.objects.exists()


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"minutes": 2}, "resolution", "resolution is required"),
        ({"resolution": "R"}, "minutes", "minutes is required"),
        ({"resolution": "R", "minutes": "ten"}, "minutes", "whole number"),
        ({"resolution": "R", "minutes": 2.5}, "minutes", "whole number"),
        ({"resolution": "R", "minutes": 999}, "minutes", "from 0 to 180"),
        (
            {"resolution": "R", "minutes": 2, "grant_extension": "maybe"},
            "grant_extension",
            "true or false",
        ),
        ({"resolution": "R", "minutes": 2, "ruling": ["iacta"]}, "ruling", "must be an object"),
        (
            {"resolution": "R", "minutes": 2, "ruling": {"question": "search-time"}},
            "ruling.game",
            "Name the game",
        ),
        (
            {
                "resolution": "R",
                "minutes": 2,
                "ruling": {"game": "iacta", "question": "search-time", "payload": {"seconds": -1}},
            },
            "ruling.payload.seconds",
            "",
        ),
        (
            {
                "resolution": "R",
                "minutes": 2,
                "ruling": {"game": "iacta", "question": "search-time", "payload": [1]},
            },
            "ruling.payload",
            "",
        ),
    ],
)
def test_malformed_resolutions_name_the_field(client, hall, judge, body, field, message):
    event, table = hall
    call = open_call(event, judge, question="Q", match=table)
    client.force_login(judge)
    response = post(client, f"/api/v1/calls/{call.pk}/resolve/", body)
    assert response.status_code == 400
    assert any(message in m for m in errors(response)[field]), errors(response)
    call.refresh_from_db()
    assert call.is_open


def test_api_extension_refused_after_the_round_closed(client, hall, judge, organiser):
    event, table = hall
    call = open_call(event, judge, question="Q", match=table)
    play_out(table.round, organiser)
    rounds.close_round(table.round, organiser)
    client.force_login(judge)
    body = {"resolution": "R", "minutes": 5, "grant_extension": True}
    response = post(client, f"/api/v1/calls/{call.pk}/resolve/", body)
    assert response.status_code == 400
    assert "is closed" in errors(response)["grant_extension"][0]
    again = post(client, f"/api/v1/calls/{call.pk}/resolve/", {**body, "grant_extension": False})
    assert again.status_code == 200
    second = post(client, f"/api/v1/calls/{call.pk}/resolve/", {**body, "grant_extension": False})
    assert second.status_code == 400 and "already resolved" in second.json()["errors"][0]["message"]


# --- the CSV report -----------------------------------------------------------------------


@pytest.fixture
def japanese(make_world, judge):
    """A Tokyo event: 山田太郎 gets three slow play warnings in game 2, the third a game loss."""
    world = make_world(2, name="東京オープン", swiss_rounds=1)
    event, table = world.event, world.table(1)
    taro = table.player_a
    taro.name = "山田太郎"
    taro.save(update_fields=["name"])
    first, *_ = [
        issue_penalty(taro, "slow_play", judge, game=2, match=table, notes=note)
        for note in ('=HYPERLINK("http://x")', "", "時間切れ")
    ]
    return event, table, first


def read_csv(response) -> list[dict]:
    content = response.content
    assert content.startswith(b"\xef\xbb\xbf")  # the BOM Excel needs to read UTF-8
    return list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"))))


def test_the_csv_keeps_japanese_names_and_voided_penalties(client, japanese, judge):
    event, table, first = japanese
    client.force_login(judge)
    rows = read_csv(client.get(f"/events/{event.pk}/penalties.csv"))
    assert [r["player"] for r in rows] == ["山田太郎"] * 3
    assert rows[2]["consequences"] == "Game Loss in game 2 (905.1)"
    assert rows[2]["notes"] == "時間切れ" and rows[2]["rule"] == "904.4"
    assert (
        rows[0]["round"] == "1" and rows[0]["table"] == str(table.table) and rows[0]["game"] == "2"
    )
    assert rows[0]["infraction"] == "Slow Play Warning" and rows[0]["judge"] == "jude"
    assert rows[0]["voided_at"] == "" and rows[0]["void_reason"] == ""

    void_penalty(first, judge, "wrong player, 別の人")
    rows = read_csv(client.get(f"/events/{event.pk}/penalties.csv"))
    assert rows[0]["voided_at"] and rows[0]["void_reason"] == "wrong player, 別の人"
    assert rows[2]["consequences"] == ""  # two live warnings: the game loss is gone


def test_the_csv_cannot_run_formulas_and_has_a_filename(client, japanese, organiser):
    event, *_ = japanese
    client.force_login(organiser)
    response = client.get(f"/events/{event.pk}/penalties.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    disposition = response["Content-Disposition"]
    assert disposition.startswith('attachment; filename="')
    assert "filename*=utf-8''%E6%9D%B1%E4%BA%AC" in disposition  # 東京…
    assert read_csv(response)[0]["notes"] == '\'=HYPERLINK("http://x")'
    header = response.content.decode("utf-8-sig").splitlines()[0]
    assert header == ",".join(reports.CSV_COLUMNS)


def test_an_event_without_penalties_gives_just_the_header(client, hall, judge):
    event, _ = hall
    client.force_login(judge)
    response = client.get(f"/events/{event.pk}/penalties.csv")
    assert response.status_code == 200 and read_csv(response) == []
    assert 'filename="loop-open-penalties.csv"' in response["Content-Disposition"]


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("anonymous", 302),
        ("player", 403),
        ("other_judge", 403),
        ("judge", 200),
        ("organiser", 200),
        ("superuser", 200),
    ],
)
def test_the_csv_is_for_the_events_staff(client, hall, people, who, status):
    event, _ = hall
    response = as_(client, people, who).get(f"/events/{event.pk}/penalties.csv")
    assert response.status_code == status
    if who == "anonymous":
        assert response["Location"].startswith("/accounts/login/")


# --- a player's history -------------------------------------------------------------------


@pytest.fixture
def record(hall, judge, organiser):
    """p01 (table 1 of Loop Open) has penalties here and at a second event, one voided."""
    _, table = hall
    taro = table.player_a
    warnings = [issue_penalty(taro, "slow_play", judge, match=table) for _ in range(2)]
    void_penalty(warnings[1], judge, "duplicate entry")
    second = services.create_event(organiser, name="Winter Cup", status="registration")
    services.register_player(second, taro.user)
    far = issue_penalty(second.registrations.get(user=taro.user), "rule_violation", organiser)
    return taro.user, warnings, far


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("anonymous", 302),
        ("self", 200),
        ("other_player", 403),
        ("other_judge", 403),
        ("judge", 200),
        # Organising an event the player is in is not judging it (issue 28).
        ("organiser", 403),
        ("superuser", 200),
    ],
)
def test_history_is_for_the_player_and_staff_of_their_events(
    client, hall, people, record, who, status
):
    player, *_ = record
    _, table = hall
    users = {**people, "self": player, "other_player": table.player_b.user}
    if users[who] is not None:
        client.force_login(users[who])
    response = client.get(f"/players/{player.pk}/penalties/")
    assert response.status_code == status
    if who == "anonymous":
        assert response["Location"].startswith(f"/accounts/login/?next=/players/{player.pk}/")


def test_a_judge_of_an_event_the_player_left_no_longer_sees_it(client, hall, record, judge):
    """Issue 28: only the judges of an event the player is in now; a drop ends it."""
    event, _ = hall
    player, *_ = record
    assert client_for(client, judge).get(f"/players/{player.pk}/penalties/").status_code == 200
    event.registrations.filter(user=player).update(status="dropped")
    response = client_for(client, judge).get(f"/players/{player.pk}/penalties/")
    assert response.status_code == 403
    assert "Loop Open" not in response.content.decode()


def client_for(client, user):
    client.force_login(user)
    return client


def test_history_counts_live_penalties_and_links_each_to_its_event(client, record, judge):
    player, (kept, voided), far = record
    page = client_for(client, judge).get(f"/players/{player.pk}/penalties/").content.decode()
    for penalty in (kept, voided):
        assert f'href="/events/{penalty.event_id}/penalties/#penalty-{penalty.pk}"' in page
    # An event this judge does not staff: its public page, not a page they cannot open.
    assert f'href="/events/{far.event_id}/"' in page
    assert "Winter Cup" in page and "Loop Open" in page
    counts = page.split("<h2>By infraction</h2>")[1].split("</table>")[0]
    assert 'Slow Play Warning</td><td class="num">1<' in counts
    assert 'Rule Violation Warning</td><td class="num">1<' in counts
    assert "duplicate entry" in page and "not counted (1)" in page


def test_history_of_a_player_without_penalties_says_so(client, hall):
    _, table = hall
    quiet = table.player_b.user
    page = client_for(client, quiet).get(f"/players/{quiet.pk}/penalties/").content.decode()
    assert "No penalties." in page


def test_history_of_an_unknown_user_is_404(client, judge):
    response = client_for(client, judge).get("/players/999999/penalties/")
    assert response.status_code == 404
    assert "404.html" in [template.name for template in response.templates]


def test_a_player_reading_their_history_gets_links_they_may_open(client, record):
    player, (kept, _), _ = record
    page = client_for(client, player).get(f"/players/{player.pk}/penalties/").content.decode()
    assert "/penalties/#penalty-" not in page
    assert f'href="/events/{kept.event_id}/"' in page
