"""The hall display's pages: what a screen shows in each state of the event, the letter
ranges that split the names between screens, the QR code to the player's page, the
parameters it refuses (a 400 naming them), drafts, and queries that do not grow."""

import html
import re

import pytest

from tests.conftest import play_out
from tournaments.clock import extensions as clock
from tournaments.models import Event
from tournaments.pages.hall import qr_svg
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

NAMES = [
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


def page(client, event, query: str = "", fragment: bool = False):
    path = f"/events/{event.pk}/hall/{'fragment/' if fragment else ''}"
    return client.get(f"{path}?{query}" if query else path)


def text(response) -> str:
    assert response.status_code == 200, response.content[:500]
    return html.unescape(response.content.decode())


def listed(body: str) -> list[str]:
    """The names in the pairings' rows, in the order shown."""
    return re.findall(r'<li class="hall-row[^"]*"><span class="hall-name">([^<]*)</span>', body)


@pytest.fixture
def paired(make_world):
    """Nine players (one bye), round 1 paired, not started."""
    return make_world(NAMES, name="Harbour Open")


def test_a_paired_round_shows_every_player_with_table_and_opponent(client, paired):
    body = text(page(client, paired.event))
    assert sorted(listed(body)) == sorted(NAMES)
    assert listed(body) == sorted(NAMES)  # alphabetical
    table = paired.table(1)
    a, b = table.player_a.display_name, table.player_b.display_name
    assert re.search(
        rf'{a}</span><span class="hall-table">{table.table}</span>'
        rf'<span class="hall-opponent">{b}</span>',
        body,
    )
    bye = paired.round.matches.get(is_bye=True).player_a.display_name
    assert re.search(rf"{bye}</span><span class=\"hall-table\">—</span>.*?<em>bye</em>", body)
    assert "Find your table" in body
    assert 'class="clock' not in body  # not started: no clock


def test_the_screen_is_its_own_page_live_on_the_events_notices(client, paired):
    body = text(page(client, paired.event, "from=a&to=k"))
    assert 'aria-label="Main"' not in body and "Log in" not in body  # no site menu
    assert "css/hall.css" in body and "pico" not in body
    for script in ("js/live.js", "js/hall.js", "js/round-clock.js"):
        assert script in body
    assert f'data-live-event="{paired.event.pk}"' in body
    assert 'data-live-refresh="pairings round result extension standings event"' in body
    assert f'data-live-url="/events/{paired.event.pk}/hall/fragment/?to=K"' in body
    raw = page(client, paired.event, "from=b&to=k&screen=pairings").content.decode()
    url = f"/events/{paired.event.pk}/hall/fragment/?screen=pairings&amp;from=B&amp;to=K"
    assert f'data-live-url="{url}"' in raw
    assert "data-live-updated" in body
    assert "<style" not in body and " style=" not in body and "<script>" not in body


def test_the_fragment_is_the_screen_alone(client, paired):
    body = text(page(client, paired.event, fragment=True))
    assert "<html" not in body and "data-live-event" not in body
    assert sorted(listed(body)) == sorted(NAMES)


def test_a_started_round_shows_its_clock_over_the_pairings(client, paired, organiser):
    rounds.start_round(paired.round, organiser)
    body = text(page(client, paired.event))
    assert re.search(r'<span class="clock hall-clock" data-ends="[^"]+">(50|49):\d\d</span>', body)
    assert sorted(listed(body)) == sorted(NAMES)
    assert "Find your table" not in body


def test_a_tables_extension_shows_on_its_row_and_with_its_own_clock(client, paired, judge):
    rounds.start_round(paired.round, paired.organiser)
    table = paired.table(2)
    clock.grant_extension(table, 5, "judge call", judge)
    body = text(page(client, paired.event, fragment=True))
    row = rf'<span class="hall-table">{table.table}<small class="hall-extra">\+5</small></span>'
    assert len(re.findall(row, body)) == 2  # both players' rows
    assert re.search(
        rf'<li>Table {table.table} <strong>\+5</strong> <span class="clock" data-ends="[^"]+" '
        r'data-extra="5">5[45]:\d\d</span></li>',
        body,
    )
    big = text(page(client, paired.event, "screen=clock"))
    assert re.search(r'<p class="clock hall-big-clock" data-ends="[^"]+">', big)
    assert f"Table {table.table} <strong>+5</strong>" in big
    assert "Still playing: 1, 2, 3, 4" in big


def test_a_closed_round_shows_the_standings(client, paired, organiser):
    rounds.start_round(paired.round, organiser)
    play_out(paired.round, organiser)
    rounds.close_round(paired.round, organiser)
    body = text(page(client, paired.event))
    assert "Standings after round 1" in body
    ranks = re.findall(r'<span class="hall-rank">(\d+)</span><span class="hall-name">([^<]*)', body)
    assert [int(r) for r, _ in ranks] == list(range(1, 10))
    assert sorted(name.strip() for _, name in ranks) == sorted(NAMES)
    assert "Round 1 is over" in body
    # asked for the pairings, a screen keeps showing them
    assert sorted(listed(text(page(client, paired.event, "screen=pairings")))) == sorted(NAMES)


def test_the_top_cut_shows_the_bracket_to_the_final(client, make_world, organiser):
    world = make_world(8, swiss_rounds=1, top_cut=4, rounds_played=1, paired=False)
    body = text(page(client, world.event))
    assert "Standings after round 1" in body
    semis = rounds.start_top_cut(world.event, organiser)
    body = text(page(client, world.event))
    assert "<h2>Semifinals</h2>" in body and "<h2>Final</h2>" in body
    for match in semis.matches.select_related("player_a__user", "player_b__user"):
        assert match.player_a.display_name in body and match.player_b.display_name in body
    assert body.count("hall-bracket-match is-empty") == 1  # the final, still to come
    # a pairings screen still lists the semifinalists' tables
    shown = listed(text(page(client, world.event, "screen=pairings")))
    assert len(shown) == 4


def play_the_cut_to_its_end(event, organiser) -> None:
    """The top cut played out, each match to its first-named player, the final included."""
    rounds.start_top_cut(event, organiser)
    while True:
        last = event.rounds.order_by("-number").first()
        play_out(last, organiser)
        rounds.close_round(last, organiser)
        if rounds.advance_top_cut(event, organiser) is None:
            return


def test_after_the_final_the_screen_names_the_winner_and_the_places_below(
    client, make_world, organiser
):
    world = make_world(8, swiss_rounds=1, top_cut=4, rounds_played=1, paired=False)
    play_the_cut_to_its_end(world.event, organiser)
    final = world.event.rounds.order_by("-number").first().matches.get()
    champion, runner_up = final.player_a, final.player_b  # play_out: the first-named wins
    body = text(page(client, world.event))
    assert 'data-hall-mode="winner-' in body and "hall-bracket" not in body
    winner = re.search(r'<p class="hall-winner-name[^"]*"[^>]*>([^<]*)</p>', body)
    assert winner and winner.group(1).strip() == champion.display_name
    placings = re.findall(
        r'<span class="hall-place">([^<]*)</span><span class="hall-name">([^<]*)', body
    )
    assert placings[0] == ("2nd", runner_up.display_name)
    assert [place for place, _ in placings[:3]] == ["2nd", "3rd\N{EN DASH}4th", "3rd\N{EN DASH}4th"]
    assert len(placings) == 7  # the places below the winner, down to the 8th
    # the bracket is still there for a screen asked for it
    assert "hall-bracket" in text(page(client, world.event, "screen=bracket"))


def test_while_the_final_is_played_the_screen_keeps_the_bracket(client, make_world, organiser):
    world = make_world(8, swiss_rounds=1, top_cut=4, rounds_played=1, paired=False)
    semis = rounds.start_top_cut(world.event, organiser)
    play_out(semis, organiser)
    rounds.close_round(semis, organiser)
    rounds.advance_top_cut(world.event, organiser)
    body = text(page(client, world.event))
    assert 'data-hall-mode="bracket-' in body and "hall-winner-name" not in body


def test_a_bracket_screen_before_any_cut_says_so(client, paired):
    assert "The top cut has not started" in text(page(client, paired.event, "screen=bracket"))


def test_before_round_one_the_screen_welcomes_and_shows_the_code(client, make_world):
    world = make_world(4, paired=False)
    body = text(page(client, world.event))
    assert "Welcome" in body and "when round 1 is paired" in body
    assert "<svg" in body


def test_a_finished_event_without_a_cut_shows_its_final_standings(client, make_world, organiser):
    world = make_world(4, swiss_rounds=1, rounds_played=1, paired=False)
    rounds.finish_event(world.event, organiser)
    body = text(page(client, world.event))
    assert "Standings after round 1 · final" in body


# --- screens that share the alphabet -------------------------------------------------------


def test_two_screens_split_the_names_by_letter_and_miss_none(client, paired):
    first = listed(text(page(client, paired.event, "from=A&to=K")))
    second = listed(text(page(client, paired.event, "from=L&to=Z")))
    assert first == [n for n in sorted(NAMES) if n[0] <= "K"]
    assert second == [n for n in sorted(NAMES) if n[0] >= "L"]
    assert sorted(first + second) == sorted(NAMES)
    assert "names A\N{EN DASH}K" in text(page(client, paired.event, "from=A&to=K"))


def test_sorted_by_surname_the_range_reads_surnames(client, paired):
    shown = listed(text(page(client, paired.event, "sort=surname&from=H&to=K")))
    assert shown == [
        "Hamilton, Margaret",
        "Heng, Zhang",
        "Hopper, Grace",
        "Johnson, Katherine",
        "Knuth, Donald",
    ]


def test_a_letter_range_with_nobody_in_it_says_so(client, paired):
    body = text(page(client, paired.event, "from=Q&to=R"))
    assert listed(body) == []
    assert "No player\N{RIGHT SINGLE QUOTATION MARK}s name from Q to R" in body


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("screen=tv", "'screen'"),
        ("from=AB", "'from'"),
        ("to=9", "'to'"),
        ("from=M&to=C", "'from'"),
        ("sort=elo", "'sort'"),
        ("seconds=0", "'seconds'"),
        ("screen=%E2%80%AE", "'screen'"),
    ],
)
@pytest.mark.parametrize("fragment", [False, True])
def test_a_parameter_the_screen_cannot_use_is_a_400_naming_it(
    client, paired, query, named, fragment
):
    response = page(client, paired.event, query, fragment)
    assert response.status_code == 400
    assert named in html.unescape(response.content.decode())


# --- the code to the player's page ---------------------------------------------------------


def test_the_code_goes_to_the_players_page_on_this_address(client, paired, settings):
    settings.PUBLIC_URL = ""
    url = f"http://testserver/events/{paired.event.pk}/my-match/"
    body = text(page(client, paired.event))
    assert f"<figcaption>{url}</figcaption>" in body
    assert qr_svg(url) in body


def test_in_venue_mode_the_code_carries_the_laptops_address(client, paired, settings):
    settings.PUBLIC_URL = "http://192.168.1.20:8000/"
    url = f"http://192.168.1.20:8000/events/{paired.event.pk}/my-match/"
    body = text(page(client, paired.event))
    assert f"<figcaption>{url}</figcaption>" in body
    assert qr_svg(url) in body


def test_the_code_is_drawn_without_inline_style():
    svg = qr_svg("http://example.org/events/1/my-match/")
    assert svg.startswith("<svg") and "style" not in svg and 'viewBox="0 0' in svg


# --- who sees it, and what it costs --------------------------------------------------------


def test_a_draft_events_screen_is_not_there_for_the_public(client, make_world):
    world = make_world(4)
    Event.objects.filter(pk=world.event.pk).update(status=Event.Status.DRAFT)
    assert page(client, world.event).status_code == 404
    assert page(client, world.event, fragment=True).status_code == 404
    client.force_login(world.organiser)
    assert page(client, world.event).status_code == 200


@pytest.mark.parametrize("state", ["paired", "running", "closed"])
def test_the_screens_queries_do_not_grow_with_the_field(
    client, make_world, organiser, django_assert_max_num_queries, state
):
    def build(players: int, name: str):
        world = make_world(players, name=name, swiss_rounds=2, organiser=organiser)
        if state != "paired":
            rounds.start_round(world.round, organiser)
        if state == "closed":
            play_out(world.round, organiser)
            rounds.close_round(world.round, organiser)
        return world.event

    small = build(6, "Small Open")
    with django_assert_max_num_queries(20) as counted:
        text(page(client, small))
    few = len(counted.captured_queries)
    big = build(60, "Big Open")
    with django_assert_max_num_queries(few):
        body = text(page(client, big))
    assert len(listed(body)) == (0 if state == "closed" else 60)
    assert body.count("data-hall-page") == 3  # 60 rows, 26 a page
    assert body.count("data-hall-page hidden") == 2  # the first shows, hall.js turns them


# --- live ----------------------------------------------------------------------------------


def test_after_a_notice_the_fragment_shows_the_next_round(client, paired, organiser):
    """What live.js fetches when the ``pairings`` notice arrives: the new round's tables."""
    rounds.start_round(paired.round, organiser)
    play_out(paired.round, organiser)
    rounds.close_round(paired.round, organiser)
    assert "Standings after round 1" in text(page(client, paired.event, fragment=True))
    rounds.pair_next_round(paired.event, organiser)
    body = text(page(client, paired.event, fragment=True))
    assert "Round 2 pairings" in body and sorted(listed(body)) == sorted(NAMES)


def test_the_organisers_dashboard_links_to_the_screens(client, paired):
    client.force_login(paired.organiser)
    body = text(client.get(f"/events/{paired.event.pk}/manage/"))
    base = f"/events/{paired.event.pk}/hall/"
    assert f'href="{base}"' in body
    for query in ("screen=clock", "from=A&to=K", "from=L&to=Z", "screen=standings"):
        assert f'href="{base}?{query}"' in body


def test_standings_asked_for_in_round_one_name_no_round_before_it(client, paired, organiser):
    rounds.start_round(paired.round, organiser)
    body = text(page(client, paired.event, "screen=standings"))
    assert "after round 0" not in body and '<p class="hall-subtitle">' in body
    assert "Standings" in body


def test_by_surname_an_accounts_last_name_is_the_surname(client, make_world):
    from tests.conftest import make_user

    people = [
        make_user("ludwig", first_name="Ludwig", last_name="van Beethoven"),
        make_user("clara", first_name="Clara", last_name="Schumann"),
        make_user("johann", first_name="Johann Sebastian", last_name="Bach"),
        make_user("fanny", first_name="Fanny", last_name="Mendelssohn Hensel"),
    ]
    world = make_world(people)
    shown = listed(text(page(client, world.event, "sort=surname")))
    assert shown == [
        "Bach, Johann Sebastian",
        "Mendelssohn Hensel, Fanny",
        "Schumann, Clara",
        "van Beethoven, Ludwig",
    ]
    assert listed(text(page(client, world.event, "sort=surname&from=V"))) == [shown[-1]]


def test_names_that_look_like_markup_are_shown_as_text_in_pairings_and_standings(
    client, make_world, organiser
):
    """The screen writes its rows itself (hall_views): a name is escaped all the same."""
    world = make_world(["Ada", "<b>Bo</b> & Co", "Cy", "Di"], paired=False)
    round_ = rounds.pair_next_round(world.event, organiser)
    for query in ("screen=pairings", "screen=standings"):
        if query == "screen=standings":
            rounds.start_round(round_, organiser)
            play_out(round_, organiser)
            rounds.close_round(round_, organiser)
        raw = page(client, world.event, query).content.decode()
        assert "<b>Bo</b>" not in raw and "&lt;b&gt;Bo&lt;/b&gt; &amp; Co" in raw
