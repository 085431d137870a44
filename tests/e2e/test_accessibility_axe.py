"""axe-core on the event day's pages (issue 30's list: login, event, pairings, standings,
dashboard, the hall's two screens, judge console, judge table, My match before and after a
report, decklist editor, print page, series, penalty form; the event form, where the
zone, the dates and self check-in are set; a round's audit page (issue 34); the precedents
whose rules changed, old and new text side by side (issue 35); a finished two-phase event's
metagame page, charts and tables, and its organiser's archetypes page (issue 36); and the
match slips' HTML as printed): no serious or critical violation.

One event, mid-way: round 1 played, round 2 started, decklists in, a penalty given. Each
page is opened as the person who uses it (the phone's pages at 390 x 844, the hall at
1920 x 1080) and checked by axe-core (bundled by axe-playwright-python, no download). A
failure lists every finding as ``rule · page · target`` so it can be fixed from the log.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from series import services as series_services
from tests.conftest import finished_event, make_user
from tests.metagame_site.events import phased_event
from tournaments.record.match_games import Score
from tournaments.results import services as results

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
HALL = {"width": 1920, "height": 1080}
BLOCKING = ("serious", "critical")
# Found on these pages in issue 30's walk at a lower impact, fixed, and kept fixed.
NAMED = ("landmark-unique", "region", "empty-table-header", "label-content-name-mismatch")
# label-content-name-mismatch is one of axe's experimental rules: on by name.
OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}

AXE = Axe()


def blocking_violations(page, label: str, named: tuple[str, ...] = NAMED) -> list[str]:
    """axe's serious and critical findings on the page as it is now (and those of the
    rules in NAMED), one line each: the rule, the page's label, the element and what
    axe says is wrong."""
    found = AXE.run(page, options=OPTIONS).response.get("violations", [])
    lines = []
    for rule in found:
        if rule.get("impact") not in BLOCKING and rule["id"] not in named:
            continue
        for node in rule.get("nodes", []):
            target = " ".join(str(part) for part in node.get("target", []))
            summary = (node.get("failureSummary") or "").replace("\n", " ")[:200]
            lines.append(f"{rule['id']} · {label} · {target} · {summary}")
    return lines


def test_a_new_serious_violation_fails_the_check(page):
    """The check sees what it is for: an unlabelled field and an image without text."""
    page.set_content(
        '<!doctype html><html lang="en"><head><title>Form</title></head><body><main>'
        '<h1>Form</h1><input type="text" name="x"><img src="x.png"></main></body></html>'
    )
    rules = {line.split(" · ")[0] for line in blocking_violations(page, "made up")}
    assert {"label", "image-alt"} <= rules
    page.set_content(
        '<!doctype html><html lang="en"><head><title>Form</title></head><body><main>'
        '<h1>Form</h1><label>Name <input type="text" name="x"></label>'
        '<img src="x.png" alt="A picture"></main></body></html>'
    )
    assert blocking_violations(page, "made up") == []


def session_cookie(user: User, site: str) -> dict:
    """A signed-in session for ``user`` on the live server (no login form, no throttling)."""
    client = Client()
    client.force_login(user)
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": site,
    }


@pytest.fixture
def walk(make_world, organiser):
    """The event of the walk, and the pages to open with who opens them."""
    from judging.penalties import issue_penalty
    from precedents.models import Precedent
    from printing.models import PrintJob
    from tournaments.clock.extensions import grant_extension

    world = make_world(8, rounds_played=1, started=True, decklists=True)
    event = world.event
    first, second = world.table(1), world.table(2)
    issue_penalty(first.player_a, "slow_play", world.judge, game=1, match=first)
    grant_extension(world.table(3), 5, "Deck check", world.judge)  # "+5 min" on its link
    PrintJob.objects.create(
        event=event, kind="match_slips", round_number=2, status=PrintJob.Status.DONE, pages=1
    )
    # Table 2 has its result reported by its first player: "My match after report".
    results.report_result(second, second.player_a, Score.parse("2-1"), second.player_a.user)
    old = "202.1 A starting Deck must designate exactly one Major Syndicate."
    Precedent.objects.create(  # a rule it cites changed, another is gone: issue 35's review
        event=event,
        event_name=event.name,
        round_number=1,
        ruled_on=event.date,
        game="iacta",
        question="deck-legality",
        asked="Five copies of one card?",
        decision=Precedent.Decision.UPHELD,
        rules=["202.1", "202.9"],
        review={
            "202.1": {"old": old, "new": old.replace("exactly one", "one or two")},
            "202.9": {"old": "202.9 A rule since removed.", "new": None},
        },
        needs_review=True,
    )
    people = [make_user(f"s{i:02}", first_name=f"Series{i}") for i in range(8)]
    series = series_services.create_series(
        organiser,
        [finished_event(organiser, people, "Series Week 1", rounds_played=2)],
        name="Winter League",
        placing_points="1: 10, 2: 8, 3-4: 6, 5-8: 4",
        participation=1,
    )
    call = precedent_on_a_call(world, organiser)
    metagame = f"/events/{phased_event(organiser, published=True).pk}/metagame"
    e = f"/events/{event.pk}"
    return event, [
        # (label, who (None: signed out), viewport, path)
        ("login", None, PHONE, "/accounts/login/"),
        ("event", first.player_a.user, PHONE, f"{e}/"),
        ("my events", first.player_a.user, PHONE, "/me/events/"),  # the calendar address
        ("pairings", None, PHONE, f"{e}/pairings/"),
        ("standings", None, PHONE, f"{e}/standings/"),
        ("organiser dashboard", world.organiser, DESKTOP, f"{e}/manage/"),
        ("hall pairings", None, HALL, f"{e}/hall/?screen=pairings"),
        ("hall clock", None, HALL, f"{e}/hall/?screen=clock"),
        ("judge console", world.judge, PHONE, f"{e}/judge/"),
        ("judge table", world.judge, PHONE, f"{e}/judge/tables/{first.pk}/"),
        ("my match before report", first.player_b.user, PHONE, f"{e}/my-match/"),
        ("my match after report", second.player_a.user, PHONE, f"{e}/my-match/"),
        ("decklist editor", first.player_a.user, PHONE, f"{e}/deck/"),
        ("print page", world.organiser, DESKTOP, f"{e}/print/"),
        ("series", None, DESKTOP, f"/series/{series.pk}/"),
        ("penalty form", world.judge, PHONE, f"{e}/penalties/new/?match={first.pk}"),
        ("event form", world.organiser, PHONE, f"{e}/edit/"),  # zones, dates, check-in
        ("round audit", None, PHONE, f"{e}/rounds/2/audit/"),  # issue 34: check a pairing
        # issue 35: earlier rulings beside a call (with the marking form), the judges'
        # search and the public list
        ("judge call", world.organiser, PHONE, f"{e}/calls/{call.pk}/"),
        ("precedent search", world.judge, PHONE, "/judge/precedents/?card=Ember+Tith"),
        ("public precedents", None, PHONE, "/rules/iacta/precedents/"),
        ("precedents to review", world.organiser, PHONE, "/judge/precedents/review/"),
        # issue 36: the charts beside their tables (greyed small samples), and the
        # organiser's names, merges and moves
        ("metagame", None, DESKTOP, f"{metagame}/"),
        ("metagame on a phone", None, PHONE, f"{metagame}/?phase=day2"),
        ("metagame archetypes", organiser, DESKTOP, f"{metagame}/archetypes/"),
    ]


def precedent_on_a_call(world, organiser):
    """A resolved call on Ember Tithe kept as a public precedent, and a second call on the
    same card whose page shows it beside its ruling."""
    from judging.calls import open_call, resolve_call
    from precedents.services import mark

    deck = {
        "main": [{"name": "Ember Tithe", "count": 5}],
        "sideboard": [],
        "cards": {"Ember Tithe": {"syndicate": "EMB", "tier": "major"}},
    }
    ruling = {"game": "iacta", "question": "deck-legality", "payload": deck}
    for number in (1, 2):
        call = open_call(world.event, world.judge, question="Five copies?", table=number)
        call = resolve_call(call, world.judge, resolution="Game loss.", minutes=2, ruling=ruling)
        if number == 1:
            mark(call, organiser, decision="upheld", visibility="public", note="Count first.")
    return call


def test_the_event_days_pages_have_no_serious_violation(browser, live_server, walk):
    event_of_walk, walk = walk
    assert len(walk) == 25  # the hall, My match and the metagame twice each; slips: 26th
    findings: list[str] = []
    checked = 0
    for label, who, viewport, path in walk:
        context = browser.new_context(viewport=viewport)
        if who is not None:
            context.add_cookies([session_cookie(who, live_server.url)])
        page = context.new_page()
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status == 200, (label, path)
        page.wait_for_load_state("networkidle")
        findings += blocking_violations(page, label)
        checked += 1
        context.close()
    assert checked == len(walk)
    findings += slips_findings(browser, live_server, event_of_walk)
    assert findings == [], "\n".join(findings)


def slips_findings(browser, live_server, event) -> list[str]:
    """The match slips' HTML as WeasyPrint gets it, with its print style sheet: read on
    paper, so landmarks are not asked of it, only what axe calls serious or critical."""
    from printing.documents import get as document_kind
    from tournaments.event.local_time import event_times

    slips = document_kind("match_slips")
    with event_times(event):
        html, _ = slips.document(event, 2, slips.plan(event, 2))
    style = f'<link rel="stylesheet" href="{settings.STATIC_URL}print/print.css">'
    html = html.replace("</head>", f"{style}</head>", 1)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    address = f"{live_server.url}/slips-as-printed/"
    page.route(address, lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(address)
    page.wait_for_load_state("networkidle")
    assert "Time extension: +5 min" in page.inner_text("body")  # the slips, not an empty page
    assert page.evaluate("getComputedStyle(document.body).fontFamily") != ""
    found = blocking_violations(page, "print: match slips", named=())
    context.close()
    return found
