"""Issue 30's walk, one event in Chromium where its features meet: the organiser at
1440 x 900, players and a judge on 390 x 844 phones, the hall at 1920 x 1080.

Three players who registered on the site and did not check in are named before round 1,
and pairing is refused until the organiser confirms; one of them checks in from a phone
while self check-in is open. A judge logs three Slow Play Warnings in game 3 against
the winner of a confirmed 2-1; the Game Loss is not yet in the players' result, so it
becomes 1-2 with a ``ResultChange``, and both players read it on My match. Round 2 is
paired and the judge's open console shows its tables within 2 s. The hall shows
"Björn Ödegaard-Müller" and "山田 由紀宏" whole.
"""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from tests.conftest import PASSWORD, play_out
from tests.e2e.conftest import PHONE, log_page_in, press_and_wait, preview_of_game
from tests.e2e.test_hall_browser import SCREEN
from tests.e2e.test_hall_fit_browser import problems
from tests.waiting import wait_until
from tournaments.event import services as event_services
from tournaments.models import ResultChange
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESK = {"width": 1440, "height": 900}
CHECKED_IN = [
    "Ada Lovelace",
    "Björn Ödegaard-Müller",
    "山田 由紀宏",
    "Grace Hopper",
    "Alan Turing",
    "Katherine Johnson",
    "Yukihiro Matsumoto-Fairweather",
    "Hedy Lamarr",
    "Emmy Noether",
]
ON_THE_SITE_ONLY = {"ines": "Ines Late", "juno": "Juno Away", "kai": "Kai Nowhere"}


@pytest.fixture
def walk_event(make_world):
    """Nine players the organiser entered (checked in), three who registered on the site
    and did not check in; self check-in opened a minute ago."""
    world = make_world(
        CHECKED_IN,
        name="Seams Open",
        paired=False,
        self_check_in_opens=timezone.now() - datetime.timedelta(minutes=1),
    )
    for username, name in ON_THE_SITE_ONLY.items():
        first, last = name.split()
        user = get_user_model().objects.create_user(
            username, password=PASSWORD, first_name=first, last_name=last
        )
        event_services.register_player(world.event, user)
    return world


@pytest.fixture
def browse(browser, asgi_server):
    """``browse(username or None, viewport)``: a page of its own, logged in if named."""
    contexts = []

    def open_page(username, viewport):
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        if username:
            log_page_in(page, asgi_server.url, username, PASSWORD)
        return page

    yield open_page
    for context in contexts:
        context.close()


def log_slow_play_warnings_in_game_3(judge, table_page: str, slow) -> None:
    """Three Slow Play Warnings in game 3 from the table's page; the third is the Game
    Loss, which the judge says is not in the players' result yet."""
    for warning in (1, 2, 3):
        judge.goto(table_page)
        judge.get_by_role("button", name="Log a penalty here").click()
        judge.select_option("select[name=player]", str(slow.pk))
        judge.select_option("select[name=infraction]", "slow_play")
        with judge.expect_response(preview_of_game(3)):
            judge.fill("input[name=game]", "3")
        judge.fill("textarea[name=notes]", f"Warning {warning}: long thinks in game 3")
        if warning == 3:
            # the winner of a 2-1 won game 3: the form does not ask who won it
            expect(judge.locator("select[name=game_winner]")).to_have_count(0)
            judge.get_by_label("No: apply it to the result").check()
            judge.locator(".penalty-preview.changes-result").wait_for()
            assert judge.locator(".penalty-change").inner_text() == (
                f"This penalty makes game 3 a Game Loss for {slow.display_name} (905.1): "
                "the confirmed result 2-1 becomes 1-2."
            )
        else:
            judge.locator(".penalty-preview").wait_for()
        judge.locator("#confirm-penalty").click()
        judge.wait_for_url(table_page)


def test_the_walks_event_where_its_features_meet(browse, asgi_server, walk_event):
    world, site = walk_event, asgi_server.url
    event = world.event
    base = f"{site}/events/{event.pk}"

    # 1. Before round 1: the three are named, and pairing waits for a confirmation.
    organiser = browse(world.organiser.username, DESK)
    organiser.goto(f"{base}/manage/")
    listed = organiser.locator("#not-checked-in").inner_text()
    assert all(name in listed for name in ON_THE_SITE_ONLY.values())
    press_and_wait(organiser, organiser.get_by_role("button", name="Pair round 1"))
    assert "3 registered players are not checked in (" in organiser.content()
    assert not event.rounds.exists()

    ines = browse("ines", PHONE)
    ines.goto(f"{base}/my-match/")
    ines.get_by_role("button", name="Check in", exact=True).click()
    ines.wait_for_load_state()
    assert "You are checked in for round 1." in ines.locator("#check-in-state").inner_text()

    organiser.goto(f"{base}/manage/")
    press_and_wait(organiser, organiser.get_by_role("button", name="Pair round 1"))
    assert "2 registered players are not checked in (Juno Away, Kai Nowhere)" in (
        organiser.content()
    )
    assert not event.rounds.exists()
    organiser.check("#confirm-not-checked-in")
    press_and_wait(organiser, organiser.get_by_role("button", name="Pair round 1"))
    first = event.rounds.get(number=1)
    assert first.matches.count() == 5  # ten players: the nine entered and Ines
    rounds.start_round(first, world.organiser)

    # 2. A confirmed 2-1; three Slow Play Warnings in game 3 against its winner.
    confirmed = first.matches.filter(is_bye=False).order_by("table").first()
    winner, loser = confirmed.player_a, confirmed.player_b
    results.report_result(confirmed, winner, Score(2, 1), winner.user)
    results.confirm_result(confirmed, loser, loser.user)
    judge = browse(world.judge.username, PHONE)
    log_slow_play_warnings_in_game_3(judge, f"{base}/judge/tables/{confirmed.pk}/", winner)
    confirmed.refresh_from_db()
    assert results.games_of(confirmed).winner == loser.pk
    change = ResultChange.objects.filter(match=confirmed).latest("pk")
    assert (change.action, change.rule, change.before["score"], change.after["score"]) == (
        "game_loss",
        "905.1",
        "2-1",
        "1-2",
    )
    told = (
        f"A judge changed your result: round 1, table {confirmed.table}, 2-1 became 1-2 "
        f"(Game Loss in game 3 for {winner.display_name}: Slow Play Warning), rule 905.1."
    )
    for player, notice in (
        (winner, told),
        (loser, told.replace("2-1 became 1-2", "1-2 became 2-1")),
    ):
        page = browse(player.user.username, PHONE)
        page.goto(f"{base}/my-match/")
        assert notice in page.locator("main").inner_text()

    # 3. Round 2 paired: the judge's open console follows within 2 s.
    judge.goto(f"{base}/judge/")
    expect(judge.locator("html")).to_have_attribute("data-live-state", "live")
    play_out(first, world.organiser)
    rounds.close_round(first, world.organiser)
    second = rounds.pair_next_round(event, world.organiser)
    second_links = {
        f"/events/{event.pk}/judge/tables/{pk}/"
        for pk in second.matches.filter(is_bye=False).values_list("pk", flat=True)
    }
    grid = judge.locator("#tables a")
    wait_until(
        lambda: set(grid.evaluate_all("ls => ls.map(a => a.getAttribute('href'))")) == second_links,
        2,
        "the judge's grid to link to round 2's tables",
    )
    expect(judge.locator(".judge-console hgroup p")).to_contain_text("Round 2 (paired)")

    # 4. The hall at 1920 x 1080: the long names whole.
    hall = browse(None, SCREEN)
    hall.goto(f"{base}/hall/")
    names = hall.locator("[data-hall-page]:visible .hall-row:not(.hall-row-head) .hall-name")
    shown = {name.strip() for name in names.all_inner_texts()}
    assert {"Björn Ödegaard-Müller", "山田 由紀宏"} <= shown
    assert problems(names) == {}
