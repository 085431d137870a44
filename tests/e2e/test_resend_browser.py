"""A write whose answer never came back is sent again, and counted once (issue 31).

The phone's report and the organiser's next step are sent by static/js/resend.js: when the
connection drops, the same body (same one-time token) goes again after 1, 2 and 4 s, and
the server answers a token it has already answered with its first answer, writing nothing.
Each test cuts the answer off with ``page.route``: without the script the browser shows its
own error page, and none of these outcomes (the reported state, the alert, "Done: Pair
round 1.") is ever on screen.
"""

from __future__ import annotations

import pytest

from tests.conftest import PASSWORD
from tests.e2e.conftest import PHONE
from tests.e2e.test_accessibility_axe import blocking_violations
from tournaments.models import AnsweredRequest, EventLog, Match, ResultChange, Round

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


class Posts:
    """What becomes of the POSTs sent to a path, one fate each in order: "applied" (the
    server applies it and answers, the answer is lost on the way), "dropped" (it never
    leaves), a status such as 502 (the proxy answers, the server never sees it); the POSTs
    after those go through. Every body sent is kept, in order, in ``bodies``."""

    def __init__(self, page, path: str, *fates: str | int) -> None:
        self.path, self.fates = path, list(fates)
        self.bodies: list[str] = []
        page.route(lambda url: url.split("?")[0].endswith(self.path), self.handle)

    def handle(self, route) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        self.bodies.append(request.post_data or "")
        fate = self.fates.pop(0) if self.fates else None
        if fate == "applied":
            route.fetch(max_redirects=0)
            route.abort("connectionreset")
        elif fate == "dropped":
            route.abort("connectionreset")
        elif isinstance(fate, int):
            route.fulfill(status=fate, content_type="text/html", body="<h1>Bad gateway</h1>")
        else:
            route.continue_()


def report_two_nil(page) -> None:
    """Game by game on My match: the player won games 1 and 2."""
    games = page.locator("[data-game-report] fieldset")
    games.nth(0).get_by_label("Me").check()
    games.nth(1).get_by_label("Me").check()
    page.get_by_role("button", name="Report these games").click()


@pytest.fixture
def world(make_world):
    return make_world(["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"])


def test_a_report_whose_answer_was_lost_is_sent_again_and_counted_once(phone, live_server, world):
    table = world.table(1)
    url = f"{live_server.url}/events/{world.event.pk}/my-match/"
    page = phone(table.player_a.user.username)
    page.goto(url)
    posts = Posts(page, f"/events/{world.event.pk}/my-match/", "applied")

    report_two_nil(page)
    page.get_by_text("Result reported: your opponent confirms it on their page.").wait_for(
        timeout=10000
    )
    assert "Reported" in page.inner_text(".my-match-live")
    assert len(posts.bodies) == 2 and posts.bodies[0] == posts.bodies[1]  # the same token
    assert "once=" in posts.bodies[0]
    match = Match.objects.get(pk=table.pk)
    assert match.status == Match.Status.REPORTED and match.games == [table.player_a_id] * 2
    assert ResultChange.objects.filter(match=match).count() == 1  # the resend wrote nothing
    assert AnsweredRequest.objects.filter(user=table.player_a.user).count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_no_answer_at_all_says_so_and_its_button_sends_the_same_report_once(
    phone, live_server, world
):
    """The connection refused, then the proxy's 502, 503 and 504: the server saw nothing."""
    table = world.table(1)
    page = phone(table.player_a.user.username)
    page.goto(f"{live_server.url}/events/{world.event.pk}/my-match/")
    posts = Posts(page, f"/events/{world.event.pk}/my-match/", "dropped", 502, 503, 504)

    report_two_nil(page)
    assert page.get_by_role("button", name="Report these games").is_disabled()  # no second tap
    page.get_by_text("No answer from the server — sending again (attempt 4 of 4)…").wait_for(
        timeout=10000
    )
    alert = page.get_by_role("alert")
    alert.wait_for(timeout=10000)
    assert "what you sent may not have been received" in alert.inner_text()
    assert "never counted twice" in alert.inner_text()
    assert len(posts.bodies) == 4 and len(set(posts.bodies)) == 1
    assert Match.objects.get(pk=table.pk).status == Match.Status.PENDING
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert blocking_violations(page, "My match, no answer") == []

    page.get_by_role("button", name="Send it again").click()  # the network is back
    page.get_by_text("Result reported: your opponent confirms it on their page.").wait_for(
        timeout=10000
    )
    assert len(posts.bodies) == 5 and len(set(posts.bodies)) == 1
    assert Match.objects.get(pk=table.pk).status == Match.Status.REPORTED
    assert ResultChange.objects.filter(match=table).count() == 1


def test_the_dashboards_next_step_whose_answer_was_lost_is_taken_once(
    page, live_server, log_in, make_world
):
    event = make_world(8, name="Resend Cup", judge=None, paired=False).event
    log_in("olive", PASSWORD)
    page.goto(f"{live_server.url}/events/{event.pk}/manage/")
    posts = Posts(page, f"/events/{event.pk}/next/", "applied")

    page.locator("#next-step").click()
    page.get_by_text("Done: Pair round 1.").wait_for(timeout=10000)
    assert page.locator("#next-step").inner_text() == "Start round 1"
    assert "not the next one any more" not in page.inner_text("main")  # the replay: "Done"
    assert len(posts.bodies) == 2 and posts.bodies[0] == posts.bodies[1]
    assert Round.objects.filter(event=event).count() == 1
    assert EventLog.objects.filter(event=event, action="pair").count() == 1


def test_a_form_without_its_token_is_left_to_the_browser(phone, live_server, world):
    """Without the one-time token a second send could write twice: the browser posts it, once."""
    table = world.table(1)
    page = phone(table.player_a.user.username)
    page.goto(f"{live_server.url}/events/{world.event.pk}/my-match/")
    page.evaluate("document.querySelector('[data-game-report] input[name=once]').remove()")
    posts = []
    page.on(
        "request",
        lambda request: (
            posts.append(request.is_navigation_request()) if request.method == "POST" else None
        ),
    )
    with page.expect_navigation():
        report_two_nil(page)
    assert posts == [True]  # the browser's own post (a navigation), not the script's fetch
    assert Match.objects.get(pk=table.pk).status == Match.Status.REPORTED
