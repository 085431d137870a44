"""What static/js writes into a page is in the page's language: Django's JavaScript
catalogue (``/jsi18n/``, the djangojs domain) loads before the site's scripts, and
live.js's "Updated … · …" line on the public pairings page follows the browser's
language. Without the catalogue the scripts keep writing English.

The live server here is WSGI: it answers no socket, so live.js settles on "reconnecting"
(polling every 30 s), a state whose words differ from one language to the next.

The translated cases need the compiled catalogue (``locale/<code>/LC_MESSAGES/djangojs.mo``,
``manage.py compilemessages``); each skips, saying so, while it is missing. The expected
words are read from that catalogue, so the test checks the page, not the wording.
"""

import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LINE = "Updated %(time)s · %(how)s"
RECONNECTING = "reconnecting: refreshing every 30 s"
CLOCK = "\0clock\0"  # stands for the clock time in a pattern built from a translation


def js_catalogue(code: str) -> gettext.GNUTranslations:
    """The compiled djangojs catalogue for ``code`` (where the site reads catalogues,
    settings.LOCALE_PATHS: locale/); the test skips without it."""
    for folder in settings.LOCALE_PATHS:
        path = Path(folder) / code / "LC_MESSAGES" / "djangojs.mo"
        if path.exists():
            with path.open("rb") as handle:
                return gettext.GNUTranslations(handle)
    pytest.skip(
        f"locale/{code}/LC_MESSAGES/djangojs.mo is not compiled yet "
        f"(makemessages -d djangojs -l {code}, then compilemessages)"
    )


def live_line(line: str, how: str) -> re.Pattern[str]:
    """The whole "Updated <clock> · <how>" line, any clock time."""
    text = line % {"time": CLOCK, "how": how}
    return re.compile("^" + re.escape(text).replace(re.escape(CLOCK), r"\S.*\S") + "$")


@pytest.fixture
def pairings_url(make_world, live_server) -> str:
    world = make_world(4)  # round 1 paired
    return f"{live_server.url}/events/{world.event.pk}/pairings/"


def reconnecting_line(page):
    """The line live.js wrote once the socket failed (not the server's placeholder)."""
    page.locator("html[data-live-state=reconnecting]").wait_for(timeout=10000)
    return page.locator("[data-live-updated]")


def test_the_live_line_is_english_by_default(page, pairings_url):
    page.goto(pairings_url)
    line = reconnecting_line(page)
    expect(line).to_have_text(live_line(LINE, RECONNECTING))
    assert page.evaluate("typeof window.gettext") == "function"  # the catalogue ran first


def test_without_the_catalogue_the_scripts_still_write_english(browser, pairings_url):
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.route("**/jsi18n/", lambda route: route.abort())
    page.goto(pairings_url)
    line = reconnecting_line(page)
    expect(line).to_have_text(live_line(LINE, RECONNECTING))
    assert page.evaluate("typeof window.gettext") == "undefined"
    context.close()


@pytest.mark.parametrize(("locale", "code"), [("de-DE", "de"), ("ja-JP", "ja")])
def test_the_live_line_follows_the_browsers_language(browser, pairings_url, locale, code):
    words = js_catalogue(code)
    line, how = words.gettext(LINE), words.gettext(RECONNECTING)
    assert line != LINE and how != RECONNECTING, f"djangojs.mo for {code} lacks live.js's words"
    context = browser.new_context(locale=locale)
    page = context.new_page()
    response = page.goto(pairings_url)
    assert response is not None and response.headers.get("content-language") == code
    expect(reconnecting_line(page)).to_have_text(live_line(line, how))
    context.close()
