"""The hall display uses its screen (issue 30, point 5), at 1920 x 1080 in Chromium: a
12-player round fills the width, long names and a long Japanese event name show whole
(no ellipsis, nothing cut, inside the screen, two lines at most), the "Updated" line is
AA contrast, and after the final the screen names the winner.
"""

import os

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import play_out
from tests.e2e.test_hall_browser import SCREEN
from tournaments.models import Event
from tournaments.rounds import services as rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("ARBITER_SCREENSHOTS", "")  # a folder: keep the screens as seen

LONG_NAMES = ["Björn Ödegaard-Müller", "山田 由紀宏", "Yukihiro Matsumoto-Fairweather"]
TWELVE = [
    *LONG_NAMES,
    "Ada Lovelace",
    "Grace Hopper",
    "Alan Turing",
    "Katherine Johnson",
    "Barbara Liskov",
    "Edsger Dijkstra",
    "Margaret Hamilton",
    "Donald Knuth",
    "Zhang Heng",
]
JAPANESE_TITLE = "第3回 イアクタ選手権 東京・池袋サンシャインシティ大会 2026 春季オープン"

# What keeps a text from being read whole on the screen, or [] when nothing does: an
# ellipsis, text wider than its box, more than two lines, a box outside the viewport or
# cut by an ancestor that hides its overflow.
CUT = """el => {
  const found = [];
  const style = getComputedStyle(el);
  if (style.textOverflow === "ellipsis") found.push("ellipsis");
  if (el.scrollWidth > el.clientWidth) found.push(`wider ${el.scrollWidth} > ${el.clientWidth}`);
  const box = el.getBoundingClientRect();
  const line = parseFloat(style.lineHeight);
  if (line && box.height > line * 2.4) found.push(`${box.height / line} lines`);
  if (box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight) {
    found.push(`outside the screen ${JSON.stringify(box)}`);
  }
  for (let up = el.parentElement; up; up = up.parentElement) {
    const s = getComputedStyle(up);
    if (s.overflowX === "visible" && s.overflowY === "visible") continue;
    if (up === document.body || up === document.documentElement) continue;
    const outer = up.getBoundingClientRect();
    if (box.left < outer.left - 1 || box.right > outer.right + 1 ||
        box.top < outer.top - 1 || box.bottom > outer.bottom + 1) {
      found.push(`cut by ${up.className}`);
    }
  }
  return found;
}"""

# The contrast of an element's text on the page's ground, as axe computes it: the
# colour with every opacity on the way up applied, blended over the body's background.
CONTRAST = """el => {
  if (!el.isConnected) throw new Error("replaced by a live update");
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const [r, g, b, a = 1] = rgb(getComputedStyle(el).color);
  let alpha = a;
  for (let up = el; up; up = up.parentElement) alpha *= Number(getComputedStyle(up).opacity);
  const ground = rgb(getComputedStyle(document.body).backgroundColor);
  const seen = [r, g, b].map((v, i) => v * alpha + ground[i] * (1 - alpha));
  const lum = c => {
    const [x, y, z] = c.map(v => v / 255).map(v =>
      v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * x + 0.7152 * y + 0.0722 * z;
  };
  const [hi, lo] = [lum(seen), lum(ground)].sort((p, q) => q - p);
  return (hi + 0.05) / (lo + 0.05);
}"""


def problems(locator) -> dict[str, list[str]]:
    """Each text of ``locator`` that is not shown whole, with why."""
    found = {}
    for index in range(locator.count()):
        item = locator.nth(index)
        reasons = item.evaluate(CUT)
        if reasons:
            found[item.inner_text()] = reasons
    return found


@pytest.fixture
def screen(browser):
    contexts = []

    def open_screen(locale: str = "en-GB"):
        context = browser.new_context(viewport=SCREEN, locale=locale)
        contexts.append(context)
        return context.new_page()

    yield open_screen
    for context in contexts:
        context.close()


def test_twelve_players_fill_the_screen_and_every_name_shows_whole(screen, live_server, make_world):
    world = make_world(TWELVE, name="Harbour Open", started=True)
    page = screen()
    page.goto(f"{live_server.url}/events/{world.event.pk}/hall/")
    shown = page.locator("[data-hall-page]:visible")
    rows = shown.locator(".hall-row:not(.hall-row-head)")
    assert rows.count() == 12
    names = rows.locator(".hall-name")
    assert set(LONG_NAMES) <= {name.strip() for name in names.all_inner_texts()}
    assert problems(names) == {}
    assert problems(rows.locator(".hall-opponent")) == {}
    for name in LONG_NAMES:
        cell = names.filter(has_text=name)
        assert cell.inner_text().strip() == name and cell.is_visible()
    # two columns across the screen, not one in its left half
    columns = shown.locator(".hall-column")
    assert columns.count() == 2
    right = columns.last.bounding_box()
    assert right["x"] + right["width"] > 1400
    assert shown.locator(".hall-column").first.locator(".hall-row").count() == 7  # head + 6
    # still large: read from five metres
    size = float(names.first.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
    assert size >= 28
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]
    assert page.evaluate("document.documentElement.scrollHeight") <= SCREEN["height"]
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "hall-12-players-1920x1080.png"))


def test_the_updated_line_is_aa_contrast(screen, asgi_server, make_world):
    """Live, as the hall mostly is (the line is louder while the server is away)."""
    world = make_world(TWELVE[:4], name="Harbour Open", started=True)
    page = screen()
    page.goto(f"{asgi_server.url}/events/{world.event.pk}/hall/")
    page.locator("html[data-live-state=live]").wait_for(timeout=10000)
    marker = page.locator("[data-live-updated]")
    marker.filter(has_text="Updated").wait_for(timeout=8000)
    assert contrast(marker) >= 4.5
    for muted in (".hall-qr figcaption", ".hall-opponent", ".hall-page-label"):
        assert contrast(page.locator(muted).first) >= 4.5, muted


def contrast(locator) -> float:
    """The text's contrast ratio. The live hall swaps its parts as the event changes, so an
    element found may be gone from the page when it is read (no colour then): read the
    one that replaced it."""
    for _ in range(2):
        try:
            return locator.evaluate(CONTRAST)
        except PlaywrightError:
            continue
    return locator.evaluate(CONTRAST)


def test_a_long_japanese_event_name_shows_whole(screen, live_server, make_world):
    world = make_world(TWELVE, name=JAPANESE_TITLE, started=True)
    page = screen("ja-JP")
    page.goto(f"{live_server.url}/events/{world.event.pk}/hall/")
    assert page.locator("html").get_attribute("lang") == "ja"
    title = page.locator(".hall-title h1")
    assert title.inner_text().strip() == JAPANESE_TITLE
    assert problems(title) == {}
    head = page.locator(".hall-head").bounding_box()
    box = title.bounding_box()
    assert box["y"] + box["height"] <= head["y"] + head["height"] + 1  # inside the top band
    assert problems(page.locator("[data-hall-page]:visible .hall-name")) == {}
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "hall-japanese-title-1920x1080.png"))


def test_after_the_final_the_screen_names_the_winner(screen, live_server, make_world):
    world = make_world(
        TWELVE[:8], name="Harbour Open", swiss_rounds=1, top_cut=4, rounds_played=1, paired=False
    )
    event, organiser = world.event, world.organiser
    rounds.start_top_cut(event, organiser)
    while True:
        last = event.rounds.order_by("-number").first()
        play_out(last, organiser)
        rounds.close_round(last, organiser)
        if rounds.advance_top_cut(event, organiser) is None:
            break
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    final = (
        event.rounds.order_by("-number")
        .first()
        .matches.select_related("player_a__user", "player_b__user")
        .get()
    )
    page = screen()
    page.goto(f"{live_server.url}/events/{event.pk}/hall/")
    winner = page.locator(".hall-winner-name")
    assert winner.is_visible()
    assert winner.inner_text().strip() == final.player_a.display_name  # play_out: a wins
    assert problems(winner) == {}
    assert page.locator(".hall-winner-label").inner_text().strip().lower() == "winner"
    places = page.locator(".hall-placings li")
    assert final.player_b.display_name in places.first.inner_text()
    assert problems(page.locator(".hall-placings .hall-name")) == {}
    assert page.locator(".hall-bracket").count() == 0
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "hall-winner-1920x1080.png"))
