"""Issue 30's small things people read: counts in the right number, German print buttons
with their capitals, the standings' tiebreakers reachable on a phone, no empty header."""

import re

import pytest

from tests.conftest import refused
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


def test_a_round_that_cannot_close_counts_its_tables_in_words(make_world):
    world = make_world(4, started=True)
    with refused(re.escape("Round 1 cannot close: 2 tables have no confirmed result (1, 2).")):
        rounds.close_round(world.round, world.organiser)

    results.enter_result(world.table(1), Score.parse("2-0"), world.organiser)
    with refused(re.escape("Round 1 cannot close: 1 table has no confirmed result (2).")):
        rounds.close_round(world.round, world.organiser)


def test_checking_players_in_counts_them_in_words(client, make_world):
    world = make_world(3, checked_in=False, paired=False)
    client.force_login(world.organiser)
    one = world.registrations[0].pk
    answer = client.post(f"/events/{world.event.pk}/check-in/", {"players": [one]}, follow=True)
    assert "1 player checked in." in answer.content.decode()


def test_german_print_buttons_keep_their_capitals(client, make_world):
    world = make_world(4)
    client.force_login(world.organiser)
    page = client.get(f"/events/{world.event.pk}/print/", HTTP_ACCEPT_LANGUAGE="de")
    buttons = re.findall(
        r'<button type="submit" id="print-[a-z_]+"[^>]*>([^<]*)</button>', page.content.decode()
    )
    assert "Ergebniszettel drucken" in buttons
    assert "Paarungen nach Name drucken" in buttons
    english = client.get(f"/events/{world.event.pk}/print/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Print match slips" in english.content.decode()  # in a sentence: lower case


def test_the_standings_table_scrolls_in_a_named_focusable_region_with_a_hint(client, make_world):
    world = make_world(8, rounds_played=1, paired=False)
    html = client.get(f"/events/{world.event.pk}/standings/").content.decode()
    assert "Scroll for tiebreakers →" in html
    region = re.search(r'<div class="overflow-auto table-scroll"[^>]*>', html).group(0)
    assert 'role="region"' in region and 'tabindex="0"' in region
    assert 'aria-label="Standings"' in region


def test_the_dashboards_players_table_names_every_column(client, make_world):
    world = make_world(4, paired=False)
    client.force_login(world.organiser)
    html = client.get(f"/events/{world.event.pk}/manage/").content.decode()
    head = re.search(r'<table class="striped players">\s*<thead>(.*?)</thead>', html, re.S).group(1)
    assert '<th scope="col"></th>' not in head
