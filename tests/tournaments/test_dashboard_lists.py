"""The organiser dashboard shows what needs the organiser now; the round's tables and the
players come a page at a time, with a search by name or table number."""

import html
import re

import pytest

from tournaments.pages.dashboard_lists import PLAYERS_PER_PAGE, TABLES_PER_PAGE
from tournaments.record.match_games import Score
from tournaments.results import services as results

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
PLAYERS = 120  # 60 tables: more than a page of each list


@pytest.fixture
def big(make_world):
    return make_world(PLAYERS, started=True)


def text(response) -> str:
    return html.unescape(response.content.decode())


def player_names(body: str) -> list[str]:
    """The players listed in the players block, in order (P01, P02…)."""
    block = body[body.index('id="players-list"') :]
    return re.findall(r"<td>(P\d+) <small", block)


def table_numbers(body: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr id="match-\d+"[^>]*>\s*<td class="num">(\d+)', body)]


def test_the_dashboard_at_size_lists_one_page_of_players_and_tables(login, big):
    body = text(login(big.organiser).get(f"/events/{big.event.pk}/manage/"))
    assert player_names(body) == [f"P{n:02d}" for n in range(1, PLAYERS_PER_PAGE + 1)]
    assert "P120" not in player_names(body)
    assert table_numbers(body) == list(range(1, TABLES_PER_PAGE + 1))
    assert f"Players 1\N{EN DASH}{PLAYERS_PER_PAGE} of {PLAYERS}" in body
    assert f"Players ({PLAYERS} registered, {PLAYERS} checked in)" in body
    assert "Without a result: tables 1, 2, 3" in body  # what needs the organiser now


def test_page_two_shows_the_next_players_and_tables(login, big):
    client = login(big.organiser)
    url = f"/events/{big.event.pk}/manage/"
    players = text(client.get(f"{url}?part=players&ppage=2", **HTMX))
    assert "<html" not in players
    assert player_names(players) == [f"P{n:03d}" if n > 99 else f"P{n:02d}" for n in range(51, 101)]
    tables = text(client.get(f"{url}?part=round_tables&tpage=2", **HTMX))
    assert table_numbers(tables) == list(range(51, 61))
    assert f'data-live-url="{url}?part=tables&tpage=2"' in tables  # live.js keeps the page
    assert len(player_names(text(client.get(f"{url}?ppage=3")))) == 20  # without htmx


def test_search_by_name_and_by_table_number(login, big):
    client = login(big.organiser)
    url = f"/events/{big.event.pk}/manage/"
    assert player_names(text(client.get(f"{url}?part=players&pq=p117", **HTMX))) == ["P117"]
    by_table = text(client.get(f"{url}?part=round_tables&tq=42", **HTMX))
    p42 = next(
        m.table for m in big.round.matches.all() if "P42" in (m.player_a.label, m.player_b.label)
    )
    assert set(table_numbers(by_table)) == {42, p42}  # the table, and P42's table
    seated = big.table(7)
    by_name = text(client.get(f"{url}?part=round_tables&tq={seated.player_b.name or 'P'}", **HTMX))
    assert 7 in table_numbers(by_name)


def test_an_empty_search_says_so(login, big):
    client = login(big.organiser)
    url = f"/events/{big.event.pk}/manage/"
    players = text(client.get(f"{url}?part=players&pq=nobody-here", **HTMX))
    assert "No player matches “nobody-here”." in players
    tables = text(client.get(f"{url}?part=round_tables&tq=zz-none", **HTMX))
    assert "No table or player matches “zz-none”." in tables and table_numbers(tables) == []


@pytest.mark.parametrize("page", ["abc", "0", "-1", "1.5"])
def test_a_bad_page_number_is_a_clear_400(login, big, page):
    client = login(big.organiser)
    url = f"/events/{big.event.pk}/manage/"
    for asked in (f"{url}?ppage={page}", f"{url}?part=players&ppage={page}"):
        response = client.get(asked, **HTMX)
        assert response.status_code == 400
        assert "A page number is a whole number from 1 up." in text(response)
    assert client.get(f"{url}?tpage={page}").status_code == 400


def test_a_page_past_the_end_is_an_empty_state(login, big):
    client = login(big.organiser)
    url = f"/events/{big.event.pk}/manage/"
    response = client.get(f"{url}?part=players&ppage=9", **HTMX)
    assert response.status_code == 200
    assert "There is no page 9: the list has 3 pages." in text(response)
    tables = text(client.get(f"{url}?part=round_tables&tpage=9", **HTMX))
    assert "There is no page 9: the list has 2 pages." in tables


@pytest.mark.parametrize("part", ["players", "round_tables", "swap"])
def test_the_lists_are_the_organisers_only(client, login, make_world, part):
    world = make_world(4)
    url = f"/events/{world.event.pk}/manage/?part={part}&ppage=2"
    assert client.get(url, **HTMX).status_code in (302, 403)
    assert login(world.judge).get(url, **HTMX).status_code == 403
    assert login(world.users[0]).get(url, **HTMX).status_code == 403


def test_only_the_tables_without_a_result_and_the_swap_forms_on_demand(login, big):
    client = login(big.organiser)
    url = f"/events/{big.event.pk}/manage/"
    for number in (1, 2, 3):
        results.enter_result(big.table(number), Score.parse("2-0"), big.organiser)
    still = text(client.get(f"{url}?part=round_tables&show=open", **HTMX))
    assert table_numbers(still)[:2] == [4, 5] and "of 57" in still
    page = text(client.get(url))
    assert 'name="first"' not in page  # the swap forms come when opened
    swap = text(client.get(f"{url}?part=swap", **HTMX))
    assert swap.count("<option value=") == 2 * (PLAYERS + 1)
    assert 'name="first"' in text(client.get(f"{url}?swap=1"))  # without JavaScript
