"""A player's decklist (main deck and sideboard) reaches nobody but its player and the
event's staff, through any route, until the organiser publishes lists (issue 9).

Each player's list holds two card names no other page prints (``DECK_CARDS``); every
route is read as each kind of outsider and the body searched for them. Then the
organiser publishes: all lists, or only the top cut's.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from printing.models import PrintJob
from tests.security.conftest import DECK_CARDS, World
from tournaments.models import Event, Match, Registration
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

OUTSIDERS = ("anonymous", "rival", "third", "outsider")


@dataclass(frozen=True)
class Route:
    """One way to read something from the site: method, address, and what to send."""

    method: str
    url: Callable[[World], str]
    data: Callable[[World], dict] = lambda w: {}
    card_pool: bool = False  # the card browser names cards, but never whose deck holds them


def _e(w: World) -> int:
    return w.event.pk


ROUTES: dict[str, Route] = {
    "event page": Route("get", lambda w: f"/events/{_e(w)}/"),
    "my deck page": Route("get", lambda w: f"/events/{_e(w)}/deck/"),
    "live deck check": Route(
        "post", lambda w: f"/events/{_e(w)}/deck/check/", lambda w: {"decklist": "1 Ember Tithe"}
    ),
    "decklist index": Route("get", lambda w: f"/events/{_e(w)}/decklists/"),
    "decklist detail": Route("get", lambda w: f"/events/{_e(w)}/decklists/{w.registration.pk}/"),
    "decklist API": Route(
        "get", lambda w: f"/api/v1/events/{_e(w)}/decklists/{w.registration.pk}/"
    ),
    "decklist API (mine)": Route("get", lambda w: f"/api/v1/events/{_e(w)}/decklists/mine/"),
    "sideboard check": Route(
        "post",
        lambda w: f"/events/{_e(w)}/decklists/{w.registration.pk}/sideboard/",
        lambda w: {"proposed": "4 Ember Tithe"},
    ),
    "deck checks": Route("get", lambda w: f"/events/{_e(w)}/deck-checks/?pick=1&count=2"),
    "deck check form": Route(
        "get", lambda w: f"/events/{_e(w)}/deck-checks/players/{w.registration.pk}/"
    ),
    "deck check result": Route("get", lambda w: f"/events/{_e(w)}/deck-checks/{w.deck_check.pk}/"),
    "card search": Route("get", lambda w: "/cards/search/?game=iacta&q=quill", card_pool=True),
    "card list": Route("get", lambda w: "/cards/?q=quill", card_pool=True),
    "card page": Route("get", lambda w: f"/cards/{w.card.pk}/", card_pool=True),
    "card API": Route("get", lambda w: "/api/v1/cards/?game=iacta&q=quill", card_pool=True),
    "event export API": Route("get", lambda w: f"/api/v1/events/export/?event={_e(w)}"),
    "print decklists": Route(
        "post", lambda w: f"/events/{_e(w)}/print/new/", lambda w: {"kind": "decklists"}
    ),
    "printed decklists download": Route(
        "get", lambda w: f"/events/{_e(w)}/print/jobs/{w.print_job.pk}/download/"
    ),
    "print job": Route("get", lambda w: f"/events/{_e(w)}/print/jobs/{w.print_job.pk}/"),
    "judge console": Route("get", lambda w: f"/events/{_e(w)}/judge/"),
    "judge's table page": Route("get", lambda w: f"/events/{_e(w)}/judge/tables/{w.my_match.pk}/"),
    "my match": Route("get", lambda w: f"/events/{_e(w)}/my-match/"),
    "match page": Route("get", lambda w: f"/events/{_e(w)}/matches/{w.my_match.pk}/"),
    "pairings": Route("get", lambda w: f"/events/{_e(w)}/pairings/"),
    "standings": Route("get", lambda w: f"/events/{_e(w)}/standings/"),
    "bracket": Route("get", lambda w: f"/events/{_e(w)}/bracket/"),
    "projector": Route("get", lambda w: f"/events/{_e(w)}/projector/"),
    "event API": Route("get", lambda w: f"/api/v1/events/{_e(w)}/"),
    "rounds API": Route("get", lambda w: f"/api/v1/events/{_e(w)}/rounds/"),
    "round API": Route("get", lambda w: f"/api/v1/events/{_e(w)}/rounds/1/"),
    "standings API": Route("get", lambda w: f"/api/v1/events/{_e(w)}/standings/"),
    "players API": Route("get", lambda w: f"/api/v1/events/{_e(w)}/players/"),
    "penalty history": Route("get", lambda w: f"/players/{w.player.pk}/penalties/"),
    "my events": Route("get", lambda w: "/me/events/"),
}


def body_of(response) -> str:
    """The text a client receives, files included."""
    if getattr(response, "streaming", False):
        raw = b"".join(response.streaming_content)
    else:
        raw = response.content
    return raw.decode("utf-8", errors="replace")


def fetch(client, w: World, route: Route, viewer: str):
    client.logout()
    user = w.user(viewer)
    if user is not None:
        client.force_login(user)
    url = route.url(w)
    if route.method == "get":
        return client.get(url)
    return client.post(url, route.data(w))


def owners(w: World) -> dict[str, Registration]:
    return {
        "pat": w.registration,
        "rival": w.rival_registration,
        "third": w.third_registration,
    }


def leaks(client, w: World, route: Route, viewer: str, hidden: list[str]) -> list[str]:
    """Which of the ``hidden`` players' lists (or, on card pages, names) the viewer gets."""
    response = fetch(client, w, route, viewer)
    assert response.status_code != 500
    body = body_of(response)
    found = []
    for owner in hidden:
        if route.card_pool:
            name = owners(w)[owner].display_name
            if name in body:
                found.append(f"{owner}'s name on a card page")
        else:
            found += [f"{owner}'s {card}" for card in DECK_CARDS[owner] if card in body]
    return found


def others_of(viewer: str) -> list[str]:
    return [owner for owner in DECK_CARDS if owner != viewer]


@pytest.mark.parametrize("name", ROUTES)
def test_unpublished_lists_reach_no_other_player_and_no_stranger(client, w, name):
    assert w.event.decklists_public == "none"
    found = {
        viewer: leak
        for viewer in OUTSIDERS
        if (leak := leaks(client, w, ROUTES[name], viewer, others_of(viewer)))
    }
    assert not found, f"{name} shows private decklists: {found}"


def test_the_routes_do_show_the_list_to_its_player(client, w):
    """The check above is not vacuous: the same search finds pat's cards where he may look."""
    for name in ("my deck page", "decklist detail", "decklist API", "decklist API (mine)"):
        assert leaks(client, w, ROUTES[name], "player", ["pat"]), name


@pytest.mark.parametrize("viewer", ["judge", "organiser"])
def test_staff_always_see_every_list(client, w, viewer):
    for owner, registration in owners(w).items():
        detail = Route("get", lambda w, r=registration: f"/events/{_e(w)}/decklists/{r.pk}/")
        api = Route("get", lambda w, r=registration: f"/api/v1/events/{_e(w)}/decklists/{r.pk}/")
        assert leaks(client, w, detail, viewer, [owner]) != [], (owner, viewer)
        assert leaks(client, w, api, viewer, [owner]) != [], (owner, viewer)
    assert leaks(client, w, ROUTES["deck check form"], viewer, ["pat"])


def test_only_staff_may_print_the_decklists(client, w):
    """Refused requests leave no job behind; the staff's job holds every list."""
    before = PrintJob.objects.count()
    for viewer in (*OUTSIDERS, "player"):
        response = fetch(client, w, ROUTES["print decklists"], viewer)
        assert response.status_code in (302, 403)
        if response.status_code == 302:
            assert response["Location"].startswith("/accounts/login/")
    assert PrintJob.objects.count() == before


@pytest.mark.usefixtures("eager_tasks")
def test_printed_decklists_hold_every_list_for_the_staff(client, w):
    client.force_login(w.judge)
    client.post(f"/events/{_e(w)}/print/new/", {"kind": "decklists"})
    job = PrintJob.objects.filter(event=w.event, kind="decklists").exclude(pk=w.print_job.pk).get()
    assert job.status == PrintJob.Status.DONE, job.error
    response = client.get(f"/events/{_e(w)}/print/jobs/{job.pk}/download/")
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(body_of_bytes(response))).pages)
    for main, side in DECK_CARDS.values():
        assert main in text and side in text
    client.force_login(w.rival)
    refused = client.get(f"/events/{_e(w)}/print/jobs/{job.pk}/download/")
    assert refused.status_code == 403
    assert not refused.streaming and "organiser or judges" in refused.content.decode()


def body_of_bytes(response) -> bytes:
    return b"".join(response.streaming_content)


def test_the_event_export_holds_no_decklist(client, w):
    """The interchange file goes to other sites: lists are not part of it (API and command)."""
    out = io.StringIO()
    call_command("export_event", w.event.pk, stdout=out)
    client.force_login(w.organiser)
    exported = json.dumps(client.get(f"/api/v1/events/export/?event={_e(w)}").json())
    for main, side in DECK_CARDS.values():
        for text in (out.getvalue(), exported):
            assert main not in text and side not in text


# --- publication ---------------------------------------------------------------------------


def publish(w: World, which: str) -> None:
    Event.objects.filter(pk=w.event.pk).update(decklists_public=which)


def cut_to_top_two(w: World) -> None:
    """Pat and the third player win round 1 and make the top two; the rival does not."""
    for match, winner in ((w.my_match, w.registration), (w.other_match, w.third_registration)):
        match = Match.objects.get(pk=match.pk)
        score = "2-0" if match.player_a_id == winner.pk else "0-2"
        results.enter_result(match, Score.parse(score), w.organiser)
    rounds.close_round(w.round, w.organiser)
    cut = rounds.start_top_cut(Event.objects.get(pk=w.event.pk), w.organiser)
    seated = {p.pk for m in cut.matches.all() for p in m.players()}
    assert seated == {w.registration.pk, w.third_registration.pk}


PUBLISHED_ROUTES = ("decklist index", "decklist detail", "decklist API")


def detail_routes(registration: Registration) -> list[Route]:
    return [
        Route("get", lambda w, r=registration: f"/events/{_e(w)}/decklists/{r.pk}/"),
        Route("get", lambda w, r=registration: f"/api/v1/events/{_e(w)}/decklists/{r.pk}/"),
    ]


@pytest.mark.parametrize("viewer", OUTSIDERS)
def test_published_lists_are_everyones(client, w, viewer):
    publish(w, "all")
    for owner, registration in owners(w).items():
        for route in detail_routes(registration):
            assert leaks(client, w, route, viewer, [owner]), (owner, viewer)
    index = body_of(fetch(client, w, ROUTES["decklist index"], viewer))
    for registration in owners(w).values():
        assert registration.display_name in index


@pytest.mark.parametrize("viewer", OUTSIDERS)
def test_top_cut_publication_shows_only_the_top_cut_lists(client, w, viewer):
    cut_to_top_two(w)
    publish(w, "top_cut")
    for owner in ("pat", "third"):
        for route in detail_routes(owners(w)[owner]):
            assert leaks(client, w, route, viewer, [owner]), (owner, viewer)
    if viewer != "rival":
        for route in detail_routes(w.rival_registration):
            assert not leaks(client, w, route, viewer, ["rival"]), viewer
        index = body_of(fetch(client, w, ROUTES["decklist index"], viewer))
        assert w.rival_registration.display_name not in index
        assert w.registration.display_name in index
    # and nowhere else either: the other routes still hide the rival's list
    if viewer != "rival":
        for name, route in ROUTES.items():
            if not route.card_pool:
                assert not leaks(client, w, route, viewer, ["rival"]), (name, viewer)


@pytest.mark.parametrize("viewer", ["judge", "organiser"])
def test_staff_see_lists_left_out_of_the_top_cut_publication(client, w, viewer):
    cut_to_top_two(w)
    publish(w, "top_cut")
    for route in detail_routes(w.rival_registration):
        assert leaks(client, w, route, viewer, ["rival"]), viewer
