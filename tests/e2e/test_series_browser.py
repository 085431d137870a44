"""In Chromium: two events of one series with overlapping players, the series made and
grown on the organiser's pages, its standings read by the public; then the same pages in
Japanese and German, with no string of the catalogues left in English on them."""

import re

import pytest

from series.models import Series
from series.standings import series_table
from tests.conftest import finished_event, make_user
from tests.e2e.conftest import log_page_in
from tests.i18n_pages import english_left_on_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "1: 10, 2: 8, 3-4: 6, 5-8: 4"


@pytest.fixture
def league(organiser):
    """Eight players in Week 1, six of them and two newcomers in Week 2."""
    people = [make_user(f"pl{i:02d}", first_name=f"Player{i:02d}") for i in range(1, 11)]
    week1 = finished_event(organiser, people[:8], "League Week 1", seed=101)
    week2 = finished_event(organiser, people[2:], "League Week 2", seed=102)
    return week1, week2, people


def standings_rows(page) -> list[list[str]]:
    rows = page.locator("table.series-standings tbody tr")
    return [
        [cell.strip() for cell in rows.nth(i).inner_text().split("\t")] for i in range(rows.count())
    ]


def test_two_events_of_one_series_add_up_on_its_public_page(page, live_server, league):
    week1, week2, _people = league
    site = live_server.url
    log_page_in(page, site, "olive")

    page.goto(f"{site}/series/new/")
    page.fill("#id_name", "Browser League")
    page.select_option("#id_method", "placings")
    page.fill("#id_placing_points", "1: 10, 3: 6")  # a gap: refused, naming the place
    page.fill("#id_participation", "1")
    page.check(f"input[name=events][value='{week1.pk}']")
    page.click("main form button[type=submit]")
    assert "Place 2 has no points" in page.locator("main form").inner_text()
    assert not Series.objects.exists()

    page.fill("#id_placing_points", TABLE)
    page.click("main form button[type=submit]")
    series = Series.objects.get(name="Browser League")
    page.wait_for_url(f"{site}/series/{series.pk}/")
    assert page.locator("h1").inner_text() == "Browser League"
    assert len(standings_rows(page)) == 8  # Week 1 only, so far

    page.goto(f"{site}/series/{series.pk}/manage/")
    page.select_option("select[name=event]", str(week2.pk))
    page.click("text=Add event")
    assert "now counts in Browser League" in page.locator(".messages").inner_text()

    public = page.context.browser.new_context().new_page()  # nobody logged in
    public.goto(f"{site}/series/{series.pk}/")
    shown = standings_rows(public)
    table = series_table(series)
    assert len(shown) == 10 == len(table.rows)  # 6 played both, 2 + 2 played one
    for cells, row in zip(shown, table.rows, strict=True):
        assert cells[:3] == [str(row.rank), row.name, str(row.total)]
    both = [row for row in table.rows if row.events_played == 2]
    assert len(both) == 6
    assert all(row.total == sum(s.points for s in row.scores) for row in both)

    public.click(f"text={both[0].name}")
    history = public.locator("table").inner_text()
    assert "League Week 1" in history and "League Week 2" in history
    public.context.close()


@pytest.mark.parametrize(("locale", "language"), [("ja-JP", "ja"), ("de-DE", "de")])
def test_the_series_and_event_pages_read_in_japanese_and_german(
    browser, live_server, league, organiser, locale, language
):
    week1, week2, _people = league
    from series import services

    series = services.create_series(
        organiser, [week1, week2], name="Liga", placing_points=TABLE, participation=1
    )
    context = browser.new_context(locale=locale)
    page = context.new_page()
    site = live_server.url
    leader = series_table(series).rows[0]
    paths = [
        "/series/",
        f"/series/{series.pk}/",
        f"/series/{series.pk}/players/{leader.player}/",
        f"/events/{week1.pk}/",
        f"/events/{week1.pk}/standings/",
        f"/events/{week1.pk}/pairings/",
        "/events/",
    ]
    for path in paths:
        page.goto(site + path)
        assert page.locator("html").get_attribute("lang") == language
        text = page.locator("body").inner_text()
        left = english_left_on_page(text, language)
        assert not left, f"{path} in {language}: still English: {left[:10]}"
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text) if language == "ja" else True
    context.close()
