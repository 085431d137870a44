"""Every URL pattern of the site against an explicit access table (issue 9).

The walk reads ``django.urls.get_resolver()``, so a new URL fails
``test_every_url_pattern_has_a_row`` until someone decides, here, who may open it.
A row lists one or more cases (method, path parameters, query) with the outcome for
each of the four roles in the running event: anonymous, player (pat, registered and
seated, not staff), judge and organiser.

Outcomes: a status code ("200", "400", "403", "404", "405"), "login" (a redirect to the
log-in page), "302" (a redirect anywhere but the log-in page: an HTML form answering
with a message), "401/403" (the API refusing an anonymous caller), or several joined
with "|" where the answer depends on the machine (the health check).

Every POST (and PUT/DELETE) is sent with an empty body; unless the case names the roles
whose empty request legitimately changes something (a self-drop needs no fields), the
database must be exactly as before, so a refused request can never half-happen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.shortcuts import resolve_url
from django.urls import URLPattern, URLResolver, get_resolver

from tests.conftest import database_rows
from tests.security.conftest import World

ROLES = ("anonymous", "player", "judge", "organiser")
ADMIN_PREFIX = "admin/"


# --- the walk ------------------------------------------------------------------------------


def walk(resolver=None, prefix: str = "", namespace: str | None = None):
    """(key, route) for every URL pattern, recursing into includes.

    The key is ``namespace:name``; a pattern without a name is keyed by its route.
    """
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from walk(entry, route, inner)
        elif isinstance(entry, URLPattern):
            name = entry.name and (f"{namespace}:{entry.name}" if namespace else entry.name)
            yield name or route, route


def site_urls() -> dict[str, str]:
    """Every pattern outside the admin, key -> route."""
    return {key: route for key, route in walk() if not route.startswith(ADMIN_PREFIX)}


def admin_routes() -> list[str]:
    return sorted({route for _, route in walk() if route.startswith(ADMIN_PREFIX)})


PARAM = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def fill(route: str, values: dict[str, object]) -> str:
    """The route with each path parameter replaced by its value (regex anchors dropped)."""

    def value(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        if name not in values:
            raise KeyError(f"No value for path parameter {name!r} of {route!r}")
        return str(values[name])

    return "/" + PARAM.sub(value, route).replace("^", "").replace("$", "")


def default_params(w: World) -> dict[str, object]:
    """Path parameters, chosen so the player acts on someone else's object where it matters."""
    return {
        "event_id": w.event.pk,
        "number": w.round.number,
        "match_id": w.my_match.pk,
        "registration_id": w.rival_registration.pk,
        "check_id": w.deck_check.pk,
        "penalty_id": w.penalty.pk,
        "call_id": w.call.pk,
        "extension_id": w.extension.pk,
        "job_id": w.print_job.pk,
        "user_id": w.player.pk,
        "grant_id": w.judge_grant.pk,
        "pair_id": w.avoid_pair.pk,
        "card_id": w.card.pk,
        "series_id": w.series.pk,
        "webhook_id": w.webhook.pk,
        "delivery_id": w.webhook_delivery.pk,
        "offer_id": w.foreign["offer_id"],  # otto's walk-in, offered to pat
        "uid": w.precedent.uid,  # a precedent of the event, flagged for review
        "player": f"u{w.player.pk}",
        "game": "iacta",
        "question": "deck-legality",
        "action": "close",
        "who": w.rival_registration.pk,
        "uidb64": "MQ",
        "token": "not-a-token",
        # admin
        "app_label": "tournaments",
        "object_id": w.event.pk,
        "id": w.player.pk,
        "content_type_id": 1,
        "url": "no-such-page/",
    }


# --- the table -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    method: str
    expect: dict[str, str]
    params: dict[str, str] = field(default_factory=dict)  # name -> World attribute (pk)
    query: dict[str, str] = field(default_factory=dict)
    changes: frozenset[str] = frozenset()  # roles whose empty request may change the DB


def E(anonymous: str, player: str, judge: str, organiser: str) -> dict[str, str]:
    return dict(zip(ROLES, (anonymous, player, judge, organiser), strict=True))


ALL_200 = E("200", "200", "200", "200")
ALL_405 = E("405", "405", "405", "405")
LOGGED_IN = E("login", "200", "200", "200")
STAFF_PAGE = E("login", "403", "200", "200")
ORGANISER_PAGE = E("login", "403", "403", "200")
NO_ROLE_PAGE = E("login", "403", "403", "403")  # a site-wide grant that no event role gives
ORGANISER_FORM = E("login", "403", "403", "302")
STAFF_FORM = E("login", "403", "302", "302")
API_STAFF_READ = E("401/403", "403", "200", "200")
API_STAFF_WRITE = E("401/403", "403", "400", "400")
API_ORGANISER_WRITE = E("401/403", "403", "403", "400")
API_ORGANISER_READ = E("401/403", "403", "403", "200")
API_LOGGED_IN_ONLY = E("401/403", "405", "405", "405")


def get(expect, **kw) -> Case:
    return Case("get", expect, **kw)


def post(expect, **kw) -> Case:
    return Case("post", expect, **kw)


TABLE: dict[str, list[Case]] = {
    # --- site and accounts
    "home": [get(ALL_200)],
    "healthz": [get(E("200|503", "200|503", "200|503", "200|503"))],
    "signup": [get(E("200", "302", "302", "302")), post(E("200", "302", "302", "302"))],
    "confirm_email": [get(ALL_200), post(ALL_200)],  # "not-a-token": the invalid-link page
    "login": [get(ALL_200), post(ALL_200)],
    "logout": [get(ALL_405), post(E("302", "302", "302", "302"))],
    "password_change": [get(LOGGED_IN), post(LOGGED_IN)],
    "password_change_done": [get(LOGGED_IN)],
    "password_reset": [get(ALL_200), post(ALL_200)],
    "password_reset_done": [get(ALL_200)],
    "password_reset_confirm": [get(ALL_200)],
    "password_reset_complete": [get(ALL_200)],
    # a user's own API token (engineer A): empty POST names the missing action
    "api_token": [get(LOGGED_IN), post(E("login", "302", "302", "302"))],
    # A player's private calendar: "not-a-token" is nobody's, so it is not found for anyone.
    "my_calendar": [get(E("404", "404", "404", "404"))],
    # A new calendar address: an empty POST names the missing confirmation, changes nothing.
    "new_calendar_address": [get(ALL_405), post(E("login", "302", "302", "302"))],
    # the language switcher: an empty POST names the missing language, for everyone
    "set_language": [get(ALL_405), post(E("400", "400", "400", "400"))],
    "api_schema": [get(ALL_200)],
    "javascript-catalog": [get(ALL_200)],
    "api_docs": [get(ALL_200)],
    # --- events
    "tournaments:events": [get(ALL_200)],
    "tournaments:create": [get(LOGGED_IN), post(LOGGED_IN)],
    "tournaments:event": [get(ALL_200)],
    "tournaments:edit": [get(ORGANISER_PAGE), post(ORGANISER_PAGE)],
    "tournaments:manage": [get(ORGANISER_PAGE)],
    "tournaments:plan": [get(ORGANISER_PAGE), post(ORGANISER_FORM)],
    "tournaments:next_step": [get(ALL_405), post(ORGANISER_FORM)],
    "tournaments:repair": [get(ALL_405), post(ORGANISER_FORM)],
    "tournaments:swap": [get(ALL_405), post(ORGANISER_FORM)],
    "tournaments:enter_result": [get(ALL_405), post(STAFF_FORM)],
    "tournaments:check_in": [get(ALL_405), post(ORGANISER_FORM)],
    "tournaments:drop": [
        get(ALL_405),
        post(ORGANISER_FORM, changes=frozenset({"organiser"})),
    ],
    "tournaments:pin_table": [
        get(ALL_405),
        post(ORGANISER_FORM, changes=frozenset({"organiser"})),  # clears the pin, logged
    ],
    "tournaments:award_byes": [get(ALL_405), post(ORGANISER_FORM)],
    "tournaments:phases": [get(ORGANISER_PAGE), post(ORGANISER_FORM)],
    "tournaments:late_entry": [get(ALL_405), post(ORGANISER_FORM)],
    # The offer is of another event's walk-in: under this event's address, 404.
    "tournaments:withdraw_offer": [get(ALL_405), post(E("login", "403", "403", "404"))],
    # E-mails (and logs a reminder to) every player without a legal list: no fields needed.
    "tournaments:remind_decklists": [
        get(ALL_405),
        post(ORGANISER_FORM, changes=frozenset({"organiser"})),
    ],
    "tournaments:my_match": [
        get(E("login", "200", "403", "403")),
        post(E("login", "302", "403", "403")),
    ],
    # My match's live region: the player themself only, as the page.
    "tournaments:my_match_fragment": [get(E("login", "200", "403", "403"))],
    "tournaments:match": [
        get(E("login", "200", "200", "200")),
        post(E("login", "302", "200", "200")),
        # A table pat does not play at: neither its page nor its report buttons are his.
        get(E("login", "403", "200", "200"), params={"match_id": "other_match"}),
        post(E("login", "403", "200", "200"), params={"match_id": "other_match"}),
    ],
    # A player checks themself in (their own entry only); staff are not players here.
    "tournaments:check_in_self": [
        get(ALL_405),
        post(E("login", "302", "403", "403")),
    ],
    "tournaments:drop_self": [
        get(ALL_405),
        post(E("login", "302", "403", "403"), changes=frozenset({"player"})),
    ],
    "tournaments:pairings": [get(ALL_200)],
    # A Swiss round's audit (issue 34): public as the pairings are; the checker is anyone's.
    "tournaments:round_audit": [get(ALL_200)],
    "tournaments:round_audit_state": [get(ALL_200)],
    "tournaments:round_audit_pairing": [get(ALL_200)],
    "tournaments:pairing_checker": [get(ALL_200)],
    "tournaments:standings": [
        get(ALL_200),
        get(ALL_200, query={"view": "swiss", "after": "1", "q": "pat"}),
        get(E("400", "400", "400", "400"), query={"after": "99"}),
    ],
    "tournaments:summary": [get(ALL_200)],
    "tournaments:placings_csv": [get(ALL_200)],
    "tournaments:event_calendar": [get(ALL_200)],
    "tournaments:bracket": [get(ALL_200)],
    "tournaments:projector": [get(ALL_200)],
    "tournaments:hall": [
        get(ALL_200),
        get(ALL_200, query={"screen": "clock", "from": "A", "to": "K"}),
        get(E("400", "400", "400", "400"), query={"screen": "tv"}),
    ],
    "tournaments:hall_fragment": [
        get(ALL_200),
        get(E("400", "400", "400", "400"), query={"from": "Z", "to": "A"}),
    ],
    "tournaments:grant_role": [get(ALL_405), post(ORGANISER_FORM)],
    # Players kept apart in Swiss (issue 33): an empty form adds nothing; removing needs none.
    "tournaments:avoid_pairs": [get(ORGANISER_PAGE), post(ORGANISER_FORM)],
    "tournaments:remove_avoid_pair": [
        get(ALL_405),
        post(ORGANISER_FORM, changes=frozenset({"organiser"})),
    ],
    "tournaments:revoke_role": [
        get(ALL_405),
        post(ORGANISER_FORM, changes=frozenset({"organiser"})),
    ],
    "tournaments:register": [get(ALL_405), post(E("login", "302", "302", "302"))],
    "tournaments:withdraw": [get(ALL_405), post(E("login", "302", "302", "302"))],
    "tournaments:my_events": [get(LOGGED_IN)],
    # An entry offered to pat (issue 28): pat answers it; for anyone else it does not exist.
    "tournaments:accept_offer": [
        get(ALL_405),
        post(E("login", "302", "404", "404"), changes=frozenset({"player"})),
    ],
    "tournaments:decline_offer": [
        get(ALL_405),
        post(E("login", "302", "404", "404"), changes=frozenset({"player"})),
    ],
    "tournaments:judge_console": [get(LOGGED_IN)],
    # --- events API
    # An empty body names the missing name: nothing is created.
    "tournaments:api_events": [get(ALL_200), post(E("401/403", "400", "400", "400"))],
    "tournaments:api_event_export": [get(API_STAFF_READ, query={"event": "event"})],
    "tournaments:api_event_import": [
        get(API_LOGGED_IN_ONLY),
        post(E("401/403", "400", "400", "400")),
    ],
    # The arbiter-event/1 JSON Schema: public, like the format itself.
    "tournaments:api_event_schema": [get(ALL_200), post(ALL_405)],
    # An empty PATCH changes nothing (and logs nothing) for the organiser.
    "tournaments:api_event": [get(ALL_200), Case("patch", E("401/403", "403", "403", "200"))],
    # Round 1 is running: the refusal names the step that comes first.
    "tournaments:api_finish": [get(ALL_405), post(API_ORGANISER_WRITE)],
    "tournaments:api_staff": [get(API_ORGANISER_READ), post(API_ORGANISER_WRITE)],
    # Removes jude's grant (the dashboard's "remove"), as the form does.
    "tournaments:api_staff_grant": [
        get(ALL_405),
        Case("delete", E("401/403", "403", "403", "200"), changes=frozenset({"organiser"})),
    ],
    "tournaments:api_offers": [get(API_ORGANISER_READ)],
    # Players kept apart (issue 33): an empty body is refused (400, nothing added); the
    # delete removes pat's pair with the third player, as the page's "remove" does.
    "tournaments:api_avoid_pairs": [get(API_ORGANISER_READ), post(API_ORGANISER_WRITE)],
    "tournaments:api_avoid_pair": [
        get(ALL_405),
        Case("delete", E("401/403", "403", "403", "200"), changes=frozenset({"organiser"})),
    ],
    # The offer is of another event's walk-in: under this event's address, 404.
    "tournaments:api_offer_withdraw": [get(ALL_405), post(E("401/403", "403", "403", "404"))],
    # E-mails (and logs a reminder to) every player without a legal list: no fields needed.
    "tournaments:api_decklist_reminders": [
        get(ALL_405),
        post(E("401/403", "403", "403", "200"), changes=frozenset({"organiser"})),
    ],
    # A player's own check-in: pat is checked in already (200, nothing changes); staff are
    # not players here.
    "tournaments:api_check_in_self": [
        get(API_LOGGED_IN_ONLY),
        post(E("401/403", "200", "400", "400")),
    ],
    "tournaments:api_rounds": [get(ALL_200), post(API_ORGANISER_WRITE)],
    "tournaments:api_round": [get(ALL_200)],
    "tournaments:api_round_audit": [get(ALL_200)],
    "tournaments:api_round_action": [get(ALL_405), post(API_ORGANISER_WRITE)],
    "tournaments:api_top_cut": [get(ALL_405), post(API_ORGANISER_WRITE)],
    "tournaments:api_registrations": [
        get(API_LOGGED_IN_ONLY),
        post(E("401/403", "400", "400", "400")),
        Case("delete", E("401/403", "400", "400", "400")),
    ],
    "tournaments:api_drop": [
        get(API_LOGGED_IN_ONLY),
        post(E("401/403", "200", "403", "403"), changes=frozenset({"player"})),
    ],
    "tournaments:api_players": [get(API_STAFF_READ), post(API_ORGANISER_WRITE)],
    "tournaments:api_phases": [get(ALL_200), post(API_ORGANISER_WRITE)],
    "tournaments:api_plan": [get(API_ORGANISER_READ), post(API_ORGANISER_WRITE)],
    "tournaments:api_standings": [get(ALL_200)],
    "tournaments:api_match_action": [
        get(API_LOGGED_IN_ONLY),
        post(E("401/403", "400", "403", "403"), params={"action": "report"}),
        post(E("401/403", "403", "400", "400"), params={"action": "result"}),
        post(
            E("401/403", "403", "400", "400"),
            params={"action": "result", "match_id": "other_match"},
        ),
    ],
    "tournaments:api_match_extensions": [get(API_STAFF_READ), post(API_STAFF_WRITE)],
    "tournaments:api_extension_remove": [get(API_LOGGED_IN_ONLY), post(API_STAFF_WRITE)],
    # --- rules
    "rulebook:api_catalogue": [get(ALL_200)],
    "rulebook:api_rule": [get(ALL_405), post(E("400", "400", "400", "400"))],
    "rulebook:index": [get(ALL_200)],
    "rulebook:reference": [get(ALL_200)],
    "rulebook:ruling": [get(STAFF_PAGE)],
    "rulebook:ruling_result": [get(ALL_405), post(STAFF_PAGE)],
    # --- judging
    "judging:console": [get(STAFF_PAGE)],
    "judging:console_queue": [get(STAFF_PAGE)],  # the console's queue, fetched every 20 s
    # Every judge reads the roster; only organisers and the head judge change it.
    "judging:roster": [get(STAFF_PAGE), post(E("login", "403", "403", "302"))],
    "judging:end_of_round": [get(STAFF_PAGE)],
    "judging:deck_check_tables": [get(STAFF_PAGE), post(STAFF_FORM)],
    "judging:penalties": [get(STAFF_PAGE)],
    "judging:new_penalty": [get(STAFF_PAGE), post(E("login", "403", "400", "400"))],
    "judging:preview": [get(STAFF_PAGE), post(STAFF_PAGE)],
    "judging:void": [get(ALL_405), post(STAFF_FORM)],
    "judging:match": [get(STAFF_PAGE)],
    # An empty form is refused on the table page itself (400, the message by the field).
    "judging:table_result": [get(ALL_405), post(E("login", "403", "400", "400"))],
    "judging:new_call": [get(ALL_405), post(STAFF_FORM)],
    "judging:call": [get(STAFF_PAGE), post(STAFF_PAGE)],
    "judging:attach_ruling": [get(ALL_405), post(E("login", "403", "400", "400"))],
    "precedents:search": [get(STAFF_PAGE)],
    "precedents:public": [get(ALL_200)],
    "precedents:for_call": [get(STAFF_PAGE)],
    "precedents:mark": [get(ALL_405), post(E("login", "403", "403", "302"))],
    "precedents:appeal": [get(ALL_405), post(E("login", "403", "404", "404"))],
    "judging:search_timer": [get(STAFF_PAGE)],
    # An empty form names the missing table (or reason) on the page again: 400.
    "judging:grant_extension": [get(ALL_405), post(E("login", "403", "400", "400"))],
    "judging:remove_extension": [get(ALL_405), post(E("login", "403", "400", "400"))],
    # Staff only: the CSV names every player's penalties.
    "judging:penalty_report": [get(STAFF_PAGE)],
    # The player themself, site staff, and the judges of a published event the player is
    # in now; organising it is not enough (issue 28; tests/security/test_entry_consent.py).
    "judging:player_history": [
        get(E("login", "200", "200", "403")),
        get(E("login", "403", "200", "403"), params={"user_id": "rival"}),
    ],
    "judging:api_penalty_preview": [get(API_LOGGED_IN_ONLY), post(API_STAFF_WRITE)],
    "judging:api_penalties": [get(API_STAFF_READ), post(API_STAFF_WRITE)],
    "judging:api_penalty_void": [get(API_LOGGED_IN_ONLY), post(API_STAFF_WRITE)],
    "judging:api_calls": [get(API_STAFF_READ), post(API_STAFF_WRITE)],
    "judging:api_call_resolve": [get(API_LOGGED_IN_ONLY), post(API_STAFF_WRITE)],
    # --- precedents
    # Precedents whose cited rules changed: every judge and organiser reads the list; the
    # organisers and head judge of the ruling's event review it (an empty form: 400, the
    # message on the page).
    "precedents:review": [get(STAFF_PAGE)],
    "precedents:accept_review": [get(ALL_405), post(E("login", "403", "403", "400"))],
    # --- cards and decklists
    "decks:cards": [get(ALL_200)],
    # The pool is every event's: decks.edit_card_pool only, which no event role gives
    # (tests/decks/test_card_pool_owners.py: the editors group and superusers get in).
    "decks:card_upload": [get(NO_ROLE_PAGE), post(NO_ROLE_PAGE)],
    "decks:card": [get(ALL_200)],
    "decks:card_search": [get(ALL_200, query={"game": "iacta", "q": "qu"})],
    "decks:my_deck": [
        get(E("login", "200", "403", "403")),
        post(E("login", "200", "403", "403")),  # locked since round 1 started: an error
    ],
    "decks:check": [
        get(E("login", "200", "403", "403")),
        post(E("login", "200", "403", "403")),
    ],
    "decks:index": [get(STAFF_PAGE)],
    "decks:detail": [
        get(STAFF_PAGE),  # the rival's list
        get(LOGGED_IN, params={"registration_id": "registration"}),  # pat's own
    ],
    "decks:unlock": [get(ALL_405), post(ORGANISER_FORM)],
    "decks:sideboard_check": [get(ALL_405), post(STAFF_FORM)],
    "decks:deck_checks": [get(STAFF_PAGE)],
    "decks:deck_check_player": [get(STAFF_PAGE), post(STAFF_PAGE)],
    "decks:deck_check_result": [get(STAFF_PAGE), post(STAFF_FORM)],
    "decks:api_cards": [get(ALL_200, query={"game": "iacta"})],
    "decks:api_legality": [get(ALL_405), post(E("400", "400", "400", "400"))],
    "decks:api_decklist": [
        get(E("403", "403", "200", "200")),  # the rival's list
        Case("put", E("401/403", "403", "403", "403")),
        get(E("401/403", "200", "403", "403"), params={"who": "mine"}),
        Case("put", E("401/403", "400", "403", "403"), params={"who": "mine"}),
    ],
    # --- precedents API: search and export follow precedents.search.visible_to (everyone
    # gets the public ones); import is for site staff (none of these roles): 403 unread.
    "precedents:api_search": [get(ALL_200), post(ALL_405)],
    "precedents:api_export": [get(ALL_200, query={"game": "iacta"})],
    "precedents:api_import": [
        get(API_LOGGED_IN_ONLY),
        post(E("401/403", "403", "403", "403")),
    ],
    # --- series: public standings; the series' organiser changes it
    "series:list": [get(ALL_200)],
    "series:create": [get(LOGGED_IN), post(LOGGED_IN)],  # empty: the form, with its errors
    "series:detail": [get(ALL_200)],
    "series:csv": [get(ALL_200)],
    # Rendered by a worker: the file (200), or "being prepared" (202) until a worker has it.
    "series:pdf": [get(E("200|202", "200|202", "200|202", "200|202"))],
    # The event is still running: nobody has a series result yet.
    "series:player": [get(E("404", "404", "404", "404"))],
    "series:edit": [get(ORGANISER_PAGE), post(ORGANISER_PAGE)],
    "series:manage": [get(ORGANISER_PAGE)],
    "series:event": [get(ALL_405), post(ORGANISER_FORM)],
    "series:merge": [get(ALL_405), post(ORGANISER_FORM)],
    # The offer is of another organiser's walk-in (to pat): not in this series, 404.
    "series:withdraw_offer": [get(ALL_405), post(E("login", "403", "403", "404"))],
    "series:api_list": [get(ALL_200)],
    "series:api_detail": [get(ALL_200)],
    # --- the metagame (issue 36): the decklists are private here, so only the event's
    # staff read it (metagame_site.services.access); anyone once they are published.
    # The page itself answers everyone: the public read that it appears once the lists
    # are published; the staff read it (a phase not played: 400, said on the page).
    "metagame:event": [
        get(ALL_200),
        get(E("200", "200", "400", "400"), query={"phase": "day2"}),
        post(ALL_405),
    ],
    "metagame:archetypes": [get(ORGANISER_PAGE), post(ORGANISER_FORM)],
    "metagame:series": [get(ALL_200)],
    "metagame:series_csv": [get(ALL_200)],
    "metagame:api_series": [get(ALL_200), post(ALL_405)],
    "metagame:event_csv": [
        get(E("403", "403", "200", "200")),
        get(E("403", "403", "400", "400"), query={"phase": "day2"}),
    ],
    "metagame:api_event": [
        get(E("401/403", "403", "200", "200")),
        get(E("401/403", "403", "400", "400"), query={"phase": "nonsense"}),
    ],
    # --- the installable app and Web Push
    "push:manifest": [get(ALL_200)],
    "push:service_worker": [get(ALL_200)],
    # Logged in; an empty body names what a subscription needs (400).
    "push:subscribe": [get(ALL_405), post(E("login", "400", "400", "400"))],
    "push:unsubscribe": [get(ALL_405), post(E("login", "400", "400", "400"))],
    # --- printing: organisers and judges only (printed decklists included)
    "printing:page": [get(STAFF_PAGE)],
    "printing:request": [get(ALL_405), post(STAFF_FORM)],
    "printing:job": [get(STAFF_PAGE)],
    "printing:download": [get(STAFF_PAGE)],
    # --- webhooks: the event's organisers (the API: organisers of its event or series)
    "webhooks:event": [get(ORGANISER_PAGE), post(ORGANISER_FORM)],  # no url: a message
    # "replay" with no delivery named: the page says so, nothing is sent.
    "webhooks:action": [get(ALL_405), post(ORGANISER_FORM, params={"action": "replay"})],
    # Any account lists the webhooks it may see; an empty body names no event (400).
    "webhooks:api_list": [
        get(E("401/403", "200", "200", "200")),
        post(E("401/403", "400", "400", "400")),
    ],
    "webhooks:api_detail": [
        get(E("401/403", "403", "403", "200")),
        Case("patch", E("401/403", "403", "403", "200")),  # nothing sent: nothing changes
    ],
    "webhooks:api_deliveries": [get(E("401/403", "403", "403", "200"))],
    "webhooks:api_replay": [get(API_LOGGED_IN_ONLY), post(E("401/403", "403", "403", "202"))],
}

CASES = [
    pytest.param(key, index, role, id=f"{key}#{index}-{case.method}-{role}")
    for key, cases in TABLE.items()
    for index, case in enumerate(cases)
    for role in ROLES
]


# --- running a case ------------------------------------------------------------------------


def request(client, method: str, url: str, query: dict | None = None):
    """GET with the query; other methods with an empty body (JSON for the API)."""
    if method == "get":
        return client.get(url, query or {})
    if url.startswith("/api/"):
        return getattr(client, method)(url, {}, content_type="application/json")
    return getattr(client, method)(url, {})


CODES = {"401/403": (401, 403), **{str(c): (c,) for c in (200, 202, 400, 403, 404, 405, 503)}}


def matches_outcome(expected: str, response) -> bool:
    """Whether the response is one of the outcomes ``expected`` names ("a|b")."""
    location = response.get("Location", "")
    login_url = resolve_url("login")
    for option in expected.split("|"):
        if option == "login" and response.status_code == 302:
            if location.startswith(login_url):
                return True
        elif option == "302" and response.status_code == 302:
            if not location.startswith(login_url):
                return True
        elif response.status_code in CODES.get(option, ()):
            return True
    return False


GENERIC_REASON = "You may not open this page."  # the 403 handler's words when a view gives none


def unexplained(response, url: str) -> str | None:
    """What a refusal fails to tell its user, or None: the log-in redirect brings them
    back (``next=``), the API names the reason in ``errors``, a page shows it."""
    location = response.get("Location", "")
    if response.status_code == 302 and location.startswith(resolve_url("login")):
        back = parse_qs(urlsplit(location).query).get("next", [])
        return None if back == [url] else f"log-in redirect {location!r} does not return to {url}"
    if response.status_code not in (401, 403, 404, 405):
        return None
    if url.startswith("/api/"):
        errors = response.json().get("errors") or []
        return None if errors and all(e.get("message") for e in errors) else "no errors"
    reasons = [context["reason"] for context in response.context or [] if "reason" in context]
    if response.status_code == 403 and not set(reasons) - {GENERIC_REASON, ""}:
        return f"a 403 page that does not say why: {reasons}"
    return None


def resolve_value(w: World, value: str):
    """A World attribute's primary key ("rival", "other_match"), or the text itself."""
    found = getattr(w, value, None)
    return value if found is None else found.pk


@pytest.mark.parametrize(("key", "index", "role"), CASES)
def test_access(client, w, key, index, role):
    case = TABLE[key][index]
    route = site_urls()[key]
    params = default_params(w) | {k: resolve_value(w, v) for k, v in case.params.items()}
    query = {k: resolve_value(w, v) for k, v in case.query.items()}
    url = fill(route, params)
    user = w.user(role)
    if user is not None:
        client.force_login(user)
    before = database_rows()
    response = request(client, case.method, url, query)
    expected = case.expect[role]
    assert matches_outcome(expected, response), (
        f"{case.method.upper()} {url} ({key}) as {role}: expected {expected}, got "
        f"{response.status_code} {response.get('Location', '')}"
    )
    assert unexplained(response, url) is None, (key, role, unexplained(response, url))
    if case.method != "get" and role not in case.changes:
        assert database_rows() == before, f"{case.method.upper()} {url} as {role} changed the DB"
    if case.method == "get":
        assert database_rows() == before, f"GET {url} as {role} changed the DB"


def test_every_url_pattern_has_a_row():
    """A new URL cannot ship without a decision about who may open it."""
    missing = sorted(set(site_urls()) - set(TABLE))
    assert not missing, f"URL patterns with no row in the access table: {missing}"


def test_every_row_names_a_url_that_exists():
    gone = sorted(set(TABLE) - set(site_urls()))
    assert not gone, f"Rows for URL names that no longer exist: {gone}"


def test_no_path_parameter_is_left_unfilled(w):
    """Every route of the site (admin too) resolves with the world's objects."""
    params = default_params(w)
    for route in [*site_urls().values(), *admin_routes()]:
        assert "<" not in fill(route, params)


# --- another event's objects ------------------------------------------------------------------

REFUSALS = {"login", "403", "405", "401/403"}


def foreign_cases():
    """Every case the organiser may run whose path names an object of an event."""
    for key, cases in TABLE.items():
        route = site_urls().get(key, "")
        for index, case in enumerate(cases):
            names = {m.group(1) or m.group(2) for m in PARAM.finditer(route)}
            if case.expect["organiser"] in REFUSALS or case.params.get("who") == "mine":
                continue
            if names & FOREIGN_PARAMS:
                yield pytest.param(key, index, id=f"{key}#{index}-{case.method}")


FOREIGN_PARAMS = {
    "match_id",
    "registration_id",
    "who",
    "user_id",
    "grant_id",
    "pair_id",
    "penalty_id",
    "call_id",
    "extension_id",
    "check_id",
    "job_id",
    "offer_id",
    "webhook_id",
    "delivery_id",
}


# The form answers "That role grant no longer exists." on the dashboard; nothing is removed.
FOREIGN_OUTCOME = {
    "tournaments:revoke_role": "302",
    "tournaments:remove_avoid_pair": "302",  # "That pair is not listed for this event."
    # An entry offered to someone else is not found by anyone but its holder.
    "tournaments:accept_offer": "404",
    "tournaments:decline_offer": "404",
    "series:withdraw_offer": "404",
}


@pytest.mark.parametrize(("key", "index"), list(foreign_cases()))
def test_another_events_objects_are_out_of_reach(client, w, key, index):
    """Our organiser with another event's ids: 404 under our event's address (the object is
    not in it), 403 where the address names only the object (not their event)."""
    case = TABLE[key][index]
    route = site_urls()[key]
    params = default_params(w) | {k: resolve_value(w, v) for k, v in case.params.items()}
    params |= {k: v for k, v in w.foreign.items() if f"<int:{k}>" in route or k == "who"}
    url = fill(route, params)
    client.force_login(w.organiser)
    before = database_rows()
    response = request(client, case.method, url, case.query)
    expected = FOREIGN_OUTCOME.get(key, "404" if "<int:event_id>" in route else "403")
    assert matches_outcome(expected, response), (
        f"{case.method.upper()} {url} ({key}) with another event's ids: expected {expected}, "
        f"got {response.status_code} {response.get('Location', '')}"
    )
    assert unexplained(response, url) is None, (key, unexplained(response, url))
    assert database_rows() == before


# --- draft events ----------------------------------------------------------------------------

# Every public route that reads one event: a draft answers only its organisers.
DRAFT_ROUTES = [
    "tournaments:event",
    "tournaments:pairings",
    "tournaments:standings",
    "tournaments:summary",
    "tournaments:placings_csv",
    "tournaments:event_calendar",
    "tournaments:bracket",
    "tournaments:projector",
    "tournaments:hall",
    "tournaments:hall_fragment",
    "decks:index",
    "decks:detail",
    "tournaments:api_event",
    "tournaments:api_rounds",
    "tournaments:api_standings",
    "decks:api_decklist",
    "metagame:event",
    "metagame:event_csv",
    "metagame:api_event",
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("key", DRAFT_ROUTES)
def test_a_draft_event_is_visible_only_to_its_organisers(client, w, key, role):
    """Even with its decklists set to public, a draft is not there for anyone else:
    its judge and its registered player included."""
    params = default_params(w) | {
        "event_id": w.draft.pk,
        "registration_id": w.draft_registration.pk,
        "who": w.draft_registration.pk,
    }
    url = fill(site_urls()[key], params)
    user = w.user(role)
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    refused = "401/403|404" if url.startswith("/api/") else "404"
    expected = "200" if role == "organiser" else refused
    assert matches_outcome(expected, response), (
        f"GET {url} ({key}) as {role}: expected {expected}, got {response.status_code}"
    )
    assert unexplained(response, url) is None, (key, role, unexplained(response, url))
    if role != "organiser":
        assert w.draft.name not in response.content.decode()


@pytest.mark.parametrize("role", ["anonymous", "player", "judge"])
def test_draft_events_are_in_no_public_list(client, w, role):
    user = w.user(role)
    if user is not None:
        client.force_login(user)
    for url in ("/", "/events/", "/api/v1/events/"):
        body = client.get(url).content.decode()
        assert w.draft.name not in body, f"{url} lists the draft event to {role}"
        assert w.event.name in body, f"{url} should list the running event to {role}"


# --- the admin, as one group ---------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_the_admin_is_closed_to_everyone_but_site_staff(client, w, role):
    """Event roles give no admin access: every admin URL sends them to the admin's log-in
    (or its index, for log-out); only the log-in page itself answers."""
    user = w.user(role)
    if user is not None:
        client.force_login(user)
    params = default_params(w)
    wrong = []
    for route in admin_routes():
        url = fill(route, params)
        response = client.get(url)
        if route == "admin/login/":
            ok = response.status_code == 200
        else:
            ok = response.status_code == 302 and response["Location"].startswith("/admin/")
        if not ok:
            wrong.append(f"{url}: {response.status_code} {response.get('Location', '')}")
    assert not wrong, f"admin URLs served to {role}: {wrong}"


def test_site_staff_do_get_the_admin(client, w):
    admin = User.objects.create_superuser("root", "root@example.org", "x")
    client.force_login(admin)
    index = client.get("/admin/")
    assert index.status_code == 200 and "Site administration" in index.content.decode()
    change = client.get(f"/admin/tournaments/event/{w.event.pk}/change/")
    assert change.status_code == 200 and f'value="{w.event.name}"' in change.content.decode()
