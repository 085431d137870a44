"""On a 390 px phone no placeholder is cut: each one's text, measured in the field's own
font, fits the field's width inside its padding, in English, Japanese and German. A long
explanation belongs in a label or a help text, which wrap."""

import pytest

from decks.cardpool import load_demo_pools
from tests.conftest import PASSWORD
from tests.e2e.conftest import PHONE, log_page_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Each visible one-line field with a placeholder whose text is wider than its box.
CUT_PLACEHOLDERS = """() => {
  const canvas = document.createElement("canvas").getContext("2d");
  const cut = [];
  for (const field of document.querySelectorAll("input[placeholder]")) {
    if (!field.placeholder || !field.getClientRects().length || !field.clientWidth) continue;
    const style = getComputedStyle(field);
    canvas.font = style.font || `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = canvas.measureText(field.placeholder).width;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const sizes = `${Math.round(text)} > ${Math.round(room)}`;
    if (text > room + 0.5) cut.push(`${field.name}: "${field.placeholder}" ${sizes}`);
  }
  return cut;
}"""


@pytest.mark.parametrize("language", ["en", "ja", "de"])
def test_no_placeholder_is_cut_on_a_phone(browser, live_server, make_world, language):
    load_demo_pools()
    world = make_world(8, rounds_played=1, started=True, penalties=1)
    event, match = world.event, world.round.matches.filter(is_bye=False).first()
    player = match.player_a.user
    # Before round 1: the late entry's fields and the decklist editor's card search.
    spring = make_world(8, name="Spring Open", paired=False, checked_in=False).event
    pages = {
        world.organiser.username: [
            f"/events/{event.pk}/manage/",
            f"/events/{event.pk}/judge/",
            f"/events/{event.pk}/judge/tables/{match.pk}/",
            f"/events/{event.pk}/matches/{match.pk}/",
            f"/events/{event.pk}/pairings/",
            f"/events/{event.pk}/standings/",
            f"/events/{event.pk}/penalties/",
            f"/events/{event.pk}/decklists/",
            "/cards/",
            f"/rules/{event.game}/",
            f"/events/{spring.pk}/manage/",
        ],
        player.username: [
            f"/events/{event.pk}/deck/",
            f"/events/{event.pk}/my-match/",
            f"/events/{spring.pk}/deck/",
        ],
    }
    cut = []
    for username, paths in pages.items():
        context = browser.new_context(viewport=PHONE, locale=language)
        page = context.new_page()
        log_page_in(page, live_server.url, username, PASSWORD)
        for path in paths:
            response = page.goto(f"{live_server.url}{path}")
            assert response.status == 200, path
            assert page.evaluate("document.documentElement.lang") == language, path
            cut += [f"{path} {field}" for field in page.evaluate(CUT_PLACEHOLDERS)]
            wide = page.evaluate("document.documentElement.scrollWidth <= innerWidth")
            assert wide, f"{path} is wider than the phone"
        context.close()
    assert not cut, "\n".join(cut)
