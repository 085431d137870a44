"""The judge console as a queue: every kind with its minutes, every table link to the
judge's table page, and the fragment that refreshes it."""

import re
from html.parser import HTMLParser

import pytest

from tests.judging.floor import busy_floor

pytestmark = pytest.mark.django_db


class Links(HTMLParser):
    """Every <a>: its href, class and text."""

    def __init__(self):
        super().__init__()
        self.links: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self._open = {**dict(attrs), "text": ""}
            self.links.append(self._open)

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data

    def handle_endtag(self, tag):
        if tag == "a":
            self._open["text"] = " ".join(self._open["text"].split())
            self._open = None


def links(html: str) -> list[dict]:
    parser = Links()
    parser.feed(html)
    return parser.links


def queue_items(html: str) -> list[tuple[str, str]]:
    """(kind, the item's markup) for each line of the queue, in page order."""
    return re.findall(r'<li class="queue-item queue-(\w+)[^"]*">(.*?)</li>', html, re.S)


def since(markup: str) -> str:
    return re.search(r'<span class="queue-since"[^>]*>([^<]*)</span>', markup)[1]


@pytest.fixture
def floor(make_world):
    return busy_floor(make_world)


def table_page(floor, number: int) -> str:
    return f"/events/{floor.event.pk}/judge/tables/{floor.tables[number].pk}/"


def test_each_kind_is_on_the_console_with_its_minutes_in_the_stated_order(client, floor, judge):
    client.force_login(judge)
    html = client.get(f"/events/{floor.event.pk}/judge/").content.decode()
    assert "Longest wait first." in html and "Newest first." in html
    items = [(kind, since(markup)) for kind, markup in queue_items(html)]
    assert items == [
        ("extension", "20 min"),
        ("dispute", "15 min"),
        ("call", "7 min"),
        ("time", "5 min"),
        ("time", "5 min"),
        ("penalty", "1 min ago"),
        ("penalty", "3 min ago"),
    ]
    labels = ["Extension running", "Disputed result", "Judge call", "Time is up, still playing"]
    assert all(label in html for label in labels)


def test_every_table_link_on_the_console_goes_to_the_judges_table_page(client, floor, judge):
    client.force_login(judge)
    html = client.get(f"/events/{floor.event.pk}/judge/").content.decode()
    items = dict((kind, markup) for kind, markup in reversed(queue_items(html)))
    expected = {"dispute": 1, "call": 2, "extension": 3, "time": 2, "penalty": 4}
    for kind, number in expected.items():
        (first,) = [a for a in links(items[kind]) if "queue-table" in a.get("class", "")]
        assert first["text"] == f"Table {number}", kind
        assert first["href"] == table_page(floor, number), kind
    # The call keeps a second link, to its own page.
    assert f'href="/events/{floor.event.pk}/calls/{floor.call.pk}/"' in items["call"]
    naming_a_table = [
        a for a in links(html) if re.fullmatch(r"(Table )?\d+( \+\d+ min)?", a["text"])
    ]
    assert len(naming_a_table) >= 5 + 2 + 4  # the queue, the penalties, the tables list
    pages = {table_page(floor, n) for n in floor.tables} | {
        f"/events/{floor.event.pk}/judge/tables/{pk}/"
        for pk in floor.event.rounds.get().matches.values_list("pk", flat=True)
    }
    assert {a["href"] for a in naming_a_table} <= pages
    tables_list = html.split('id="tables"')[1]
    # Its name says "Table 3 +10 min", the visible "3 +10 min" included (axe:
    # label-content-name-mismatch).
    link = f'href="{table_page(floor, 3)}"><span class="visually-hidden">Table </span>3 '
    assert link + "<small>+10 min</small>" in tables_list


def test_the_console_refreshes_its_queue_from_a_fragment(client, floor, judge):
    client.force_login(judge)
    url = f"/events/{floor.event.pk}/judge/queue/"
    console = client.get(f"/events/{floor.event.pk}/judge/").content.decode()
    assert f'hx-get="{url}" hx-trigger="every 20s" hx-swap="outerHTML"' in console
    response = client.get(url)
    assert response.status_code == 200
    fragment = response.content.decode()
    assert "<html" not in fragment and 'id="judge-queue"' in fragment
    assert f'hx-get="{url}" hx-trigger="every 20s"' in fragment  # it keeps polling
    assert re.search(r"Updated <time datetime=\"[^\"]+\">\d\d:\d\d:\d\d</time>", fragment)
    assert [kind for kind, _ in queue_items(fragment)] == [kind for kind, _ in queue_items(console)]


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("judge", 200), ("organiser", 200)])
def test_the_queue_fragment_is_for_the_events_staff(client, floor, organiser, judge, who, status):
    users = {"player": floor.tables[1].player_a.user, "judge": judge, "organiser": organiser}
    client.force_login(users[who])
    response = client.get(f"/events/{floor.event.pk}/judge/queue/")
    assert response.status_code == status
    assert ("Waiting for a judge" in response.content.decode()) == (status == 200)


def test_an_empty_console_says_what_will_appear(client, make_world, judge):
    world = make_world(4, paired=False)
    client.force_login(judge)
    html = client.get(f"/events/{world.event.pk}/judge/").content.decode()
    assert "Nothing is waiting for a judge." in html
    assert "Disputed results, open judge calls, tables still playing when their time is up" in html
    assert "Penalties logged at this event appear here, newest first." in html
    assert "The tables of the current round appear here when the organiser pairs it." in html
    assert queue_items(html) == []


def test_the_main_actions_are_on_the_console(client, floor, judge):
    client.force_login(judge)
    html = client.get(f"/events/{floor.event.pk}/judge/").content.decode()
    bar = html.split('class="judge-actions"')[1].split("</nav>")[0]
    hrefs = {a["text"]: a["href"] for a in links(bar)}
    assert hrefs == {
        "Log call": "#log-call",
        "Log penalty": f"/events/{floor.event.pk}/penalties/new/",
        "Search timer": f"/events/{floor.event.pk}/search-timer/",
        "Grant extension": "#grant-extension",
    }
    assert 'id="log-call"' in html and 'id="grant-extension"' in html
    # The queue comes before the forms.
    assert html.index('id="judge-queue"') < html.index('id="log-call"')
