"""What a thumb must reach on a 390 x 844 phone (issue 30, points 8 and 9): the footer's
language switcher under the judge pages' action bar, the standings' tiebreakers, "Report
the result" under My match's pairing banner; and notice boxes without stray bullets."""

import pytest

from tests.conftest import play_out
from tests.e2e.conftest import PHONE, wait_for_true
from tests.e2e.test_my_match_phone_browser import live_refresh
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# True when the element's centre, as the screen shows it now, is the element or inside it:
# what a tap there reaches.
HIT_AT_CENTRE = """(element) => {
  const box = element.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit !== null && (hit === element || element.contains(hit));
}"""


@pytest.fixture
def world(make_world):
    return make_world(["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"])


@pytest.mark.parametrize("page_of", ["console", "table"])
def test_the_judges_action_bar_leaves_the_language_switcher_reachable(
    phone, live_server, world, page_of
):
    page = phone("jude")
    path = {"console": "judge/", "table": f"judge/tables/{world.table(1).pk}/"}[page_of]
    page.goto(f"{live_server.url}/events/{world.event.pk}/{path}")
    bar = page.locator(".judge-actions, .table-actions").first
    assert bar.evaluate("(el) => getComputedStyle(el).position") == "fixed"  # the phone's bar
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    wait_for_true(
        page,
        "Math.ceil(window.scrollY + window.innerHeight)"
        " >= document.documentElement.scrollHeight - 1",
    )
    switcher = page.locator("footer .language-switcher select")
    assert switcher.evaluate(HIT_AT_CENTRE), "the action bar covers the language switcher"
    assert page.locator("footer .language-switcher button").evaluate(HIT_AT_CENTRE)
    switcher.select_option("de")  # and it answers a tap


def test_the_standings_tiebreakers_scroll_in_a_named_region_with_a_hint(
    browser, live_server, make_world
):
    world = make_world(8, rounds_played=1, paired=False)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/events/{world.event.pk}/standings/")
    hint = page.get_by_text("Scroll for tiebreakers →")
    assert hint.is_visible()
    region = page.get_by_role("region", name="Standings", exact=True)
    assert region.evaluate("(el) => el.scrollWidth > el.clientWidth")  # it does scroll
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    region.focus()
    assert region.evaluate("(el) => el === document.activeElement")  # keys can scroll it
    ogw = page.locator("table.standings thead th", has_text="OGW")
    ogw.scroll_into_view_if_needed()
    assert ogw.evaluate(HIT_AT_CENTRE)
    context.close()


def test_report_the_result_is_not_under_the_pairing_banner(phone, live_server, world):
    me = world.registrations[0]
    page = phone(me.user.username)
    page.goto(f"{live_server.url}/events/{world.event.pk}/my-match/")
    rounds.start_round(world.round, world.organiser)
    play_out(world.round, world.organiser)
    rounds.close_round(world.round, world.organiser)
    rounds.pair_next_round(world.event, world.organiser)
    live_refresh(page)  # the my_match notice pairing sends the player
    banner = page.locator("[data-paired-banner]")
    banner.wait_for(state="visible", timeout=5000)

    heading = page.locator("#tap-report-title")
    assert "Report the result" in heading.inner_text()
    page.get_by_text("Only the score").click()  # the score taps, under the game picker
    page.get_by_role("button", name="2-0", exact=True).click()  # asks first: the page grows
    page.locator("[data-tap-confirm]").wait_for()
    heading.evaluate("(el) => el.scrollIntoView()")
    assert page.evaluate("window.scrollY") > 0
    assert banner.bounding_box()["y"] <= 1  # stuck at the top of the screen
    assert heading.evaluate(HIT_AT_CENTRE), "the banner covers Report the result"
    first_tap = page.locator("[data-tap-score]").first
    first_tap.evaluate("(el) => el.scrollIntoView()")
    assert first_tap.evaluate(HIT_AT_CENTRE)


def test_notice_boxes_carry_no_bullets(phone, live_server, world):
    table = world.table(1)
    results.enter_result(table, Score.parse("2-1"), world.organiser)  # staff: a notice
    page = phone(table.player_a.user.username)
    page.goto(f"{live_server.url}/events/{world.event.pk}/my-match/")
    notice = page.locator(".result-notice").first
    notice.wait_for()
    # no list item of its own or around it carries a bullet
    assert notice.evaluate(
        "(el) => [el, ...(el.closest('li') ? [el.closest('li')] : [])]"
        ".every(e => getComputedStyle(e).display !== 'list-item'"
        " || getComputedStyle(e).listStyleType === 'none')"
    )
