"""Issue 36, done when: a browser reads the metagame page of a finished two-phase event in
English and Japanese, with the charts visible and the numbers matching the table, and
sees nothing before the decklists are published.

The event is ``phased_event``: two Day 1 flights, Day 2 and a top cut, finished. The
pictures are compared with the tables beside them (each bar's and cell's
``data-value``), and the tables with the report the API serves.
"""

from __future__ import annotations

import pytest

from metagame_site import services
from tests.conftest import PASSWORD
from tests.e2e.conftest import PHONE, log_page_in
from tests.metagame_site.events import phased_event
from tournaments.models import Event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1440, "height": 900}
PHASES = ["Whole event", "Day 1", "Day 2", "Top cut"]
MAJORS = ("EMB", "IRN", "TID")  # every demo list's Major Syndicate: in each archetype's key

# What the page shows, read in one go: the share table and the share chart's bars in
# their order, and the matchup table and the heat map's cells.
READ_PAGE = r"""() => {
  const own = (el) => {
    const title = el.querySelector(':scope > title');
    return title ? title.textContent : '';
  };
  const shares = [...document.querySelectorAll('#shares-table tbody tr[data-key]')].map(tr => {
    const cell = tr.querySelector('td[data-col=share]');
    return {key: tr.dataset.key, name: tr.querySelector('th').textContent.trim(),
            value: cell.dataset.value, text: cell.textContent.trim()};
  });
  const bars = [...document.querySelectorAll('svg#share g[id^="share-bar-"]')]
    .filter(g => /^share-bar-\d+$/.test(g.id))
    .map(g => ({index: +g.id.split('-')[2], value: g.dataset.value, title: own(g)}));
  const matchups = [...document.querySelectorAll('#matrix-table tr[data-key][data-opponent]')]
    .map(tr => ({key: tr.dataset.key, opponent: tr.dataset.opponent,
                 value: tr.querySelector('td[data-col=matchup-rate]').dataset.value}));
  const cells = [...document.querySelectorAll('svg#matrix g[id^="matrix-cell-"]')]
    .filter(g => /^matrix-cell-\d+-\d+$/.test(g.id))
    .map(g => { const [i, j] = g.id.split('-').slice(2).map(Number);
                return {i, j, value: g.dataset.value, title: own(g)}; });
  return {shares, bars, matchups, cells};
}"""


def metagame_url(site: str, event: Event, phase: str = "") -> str:
    return f"{site}/events/{event.pk}/metagame/" + (f"?phase={phase}" if phase else "")


def assert_charts_visible(page) -> None:
    """The three kinds of picture are on the page and take room on it."""
    charts = {
        "share": page.locator("svg.chart#share"),
        "conversion": page.locator('svg.chart[id^="conversion-"]').first,
        "matrix": page.locator("svg.chart#matrix"),
    }
    for name, chart in charts.items():
        assert chart.count() and chart.is_visible(), name
        box = chart.bounding_box()
        assert box and box["width"] > 0 and box["height"] > 0, (name, box)
    # Drawn in their colours: the page's Content Security Policy would drop inline
    # styles, and every shape would fall back to black.
    colours = page.evaluate(
        """() => ({
          background: getComputedStyle(document.querySelector('svg#share path')).fill,
          bar: getComputedStyle(document.querySelector('svg#share g[id^="share-bar-"] path')).fill,
        })"""
    )
    assert colours["background"] == "rgb(255, 255, 255)", colours
    assert colours["bar"] not in ("rgb(0, 0, 0)", "none"), colours


def assert_pictures_match_tables(page) -> dict:
    """Every bar of the share chart is its table row's share, named by the row; every
    heat-map cell with a value is the matchup table's rate for that pair. Returns what
    was read."""
    seen = page.evaluate(READ_PAGE)
    shares, bars = seen["shares"], sorted(seen["bars"], key=lambda bar: bar["index"])
    assert shares and len(bars) == len(shares)
    for bar, row in zip(bars, shares, strict=True):
        assert bar["value"] == row["value"], (bar, row)
        assert row["name"] in bar["title"] and row["text"] in bar["title"], (bar, row)
    keys = [row["key"] for row in shares]
    in_map = {(keys[c["i"]], keys[c["j"]]): c["value"] for c in seen["cells"] if c["value"]}
    in_table = {(m["key"], m["opponent"]): m["value"] for m in seen["matchups"]}
    assert in_map and in_map == in_table
    return seen


def assert_numbers_are_the_reports(seen: dict, event: Event, phase: str = services.ALL) -> None:
    """The shares the page shows are the report's (the API's), archetype by archetype."""
    data = services.report(services.Asked(event, phase))
    expected = [(row["key"], f"{row['share']['value']:.4f}") for row in data["rows"]]
    assert [(row["key"], row["value"]) for row in seen["shares"]] == expected


def publish_decklists(browser, site: str, event: Event, organiser) -> None:
    """The organiser publishes every decklist on the event's form."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    log_page_in(page, site, organiser.username, PASSWORD)
    page.goto(f"{site}/events/{event.pk}/edit/")
    page.select_option("#id_decklists_public", "all")
    page.click("main form[method=post] button[type=submit]")
    page.wait_for_url(f"{site}/events/{event.pk}/manage/")
    context.close()
    assert Event.objects.get(pk=event.pk).decklists_public == "all"


def test_the_metagame_shows_nothing_until_published_then_its_charts_match_its_tables(
    browser, live_server, organiser
):
    site = live_server.url
    event = phased_event(organiser, published=False)
    assert event.status == Event.Status.FINISHED

    # Before the decklists are published: a visitor reads no archetype anywhere.
    visitor = browser.new_context(viewport=DESKTOP)
    page = visitor.new_page()
    assert page.goto(metagame_url(site, event)).status == 200
    assert page.locator("#metagame-private").is_visible()
    assert page.locator("svg.chart").count() == 0
    text, html = page.locator("body").inner_text(), page.content()
    assert not [major for major in MAJORS if major in text or major in html]
    assert page.request.get(f"{site}/api/v1/events/{event.pk}/metagame/").status == 403
    assert page.request.get(f"{site}/events/{event.pk}/metagame.csv").status == 403

    publish_decklists(browser, site, event, organiser)

    # Published: the whole event, its phases, three kinds of chart, and their numbers.
    page.goto(metagame_url(site, event))
    assert page.locator("#metagame-private").count() == 0
    nav = page.locator("nav.subnav")
    assert [item.strip() for item in nav.locator("a, strong").all_inner_texts()] == PHASES
    assert nav.locator("[aria-current=page]").inner_text().strip() == "Whole event"
    assert_charts_visible(page)
    assert page.locator('svg.chart[id^="conversion-"]').count() == 2  # Day 2, top cut
    seen = assert_pictures_match_tables(page)
    assert_numbers_are_the_reports(seen, event)

    page.goto(metagame_url(site, event, "day2"))
    assert nav.locator("[aria-current=page]").inner_text().strip() == "Day 2"
    assert_charts_visible(page)
    assert_numbers_are_the_reports(assert_pictures_match_tables(page), event, "day2")
    visitor.close()

    # On a phone the document keeps to the screen's width: the wide tables and the heat
    # map scroll inside their own boxes.
    phone = browser.new_context(viewport=PHONE)
    page = phone.new_page()
    page.goto(metagame_url(site, event))
    assert page.locator("svg.chart#matrix").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for box in ("#shares-table", "#results-table", "#matrix-table", "svg#matrix"):
        assert page.locator(box).evaluate("el => !!el.closest('.table-scroll')"), box
    phone.close()


def test_the_published_metagame_reads_in_japanese(browser, live_server, organiser):
    site = live_server.url
    event = phased_event(organiser, published=True)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(metagame_url(site, event))
    english = page.evaluate(READ_PAGE)

    # The site's language switch, as a visitor uses it: back on the same page, in Japanese.
    switcher = page.locator("form.language-switcher")
    switcher.locator("select[name=language]").select_option("ja")
    with page.expect_navigation():
        switcher.locator("button[type=submit]").click()
    assert page.url == metagame_url(site, event)
    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.locator("main h1").inner_text().strip() == "メタゲーム"
    assert_charts_visible(page)
    seen = assert_pictures_match_tables(page)
    assert_numbers_are_the_reports(seen, event)
    # Percentages are written alike in every language: the same figures as in English.
    assert [row["text"] for row in seen["shares"]] == [row["text"] for row in english["shares"]]
    context.close()
