"""In Chromium: a two-flight event (24 and 20 players, 4 rounds each) into a Day 2 of 3
rounds through the gate "at least 9 points or the top 16, whichever is more", then a top
8. The organiser sets it up and applies the gate on the pages; the players let through
equal a hand count of the merged standings, nobody meets a Day 1 opponent again, and the
standings, the final placings, the hall and a series that includes the event agree."""

import random

import pytest

from series import services as series_services
from series.standings import series_table
from tests.conftest import make_user
from tests.e2e.conftest import log_page_in
from tests.e2e.test_csp import Watcher
from tests.tournaments.test_phases import _opponents, _play, _run_rounds
from tournaments.event import services
from tournaments.models import Event, Round
from tournaments.record.history import EventHistory
from tournaments.record.placings import event_placings
from tournaments.rounds import services as rounds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _submit(page, form_action: str) -> None:
    page.click(f"form:has(input[name=action][value={form_action}]) button[type=submit]")
    page.wait_for_load_state()


def test_two_flights_a_gate_a_day2_and_a_top_8_agree_everywhere(page, live_server, organiser):
    rng = random.Random(2026)
    site = live_server.url
    main = services.create_event(
        organiser,
        name="Big Regional",
        game="iacta",
        status=Event.Status.REGISTRATION,
        swiss_rounds=7,
        top_cut=8,
    )
    log_page_in(page, site, "olive")
    watcher = Watcher(page)
    assert watcher.visit(f"{site}/events/{main.pk}/phases/") == []
    for name in ("A", "B"):
        page.fill("#flight-name", name)
        page.fill("#flight-rounds", "4")
        _submit(page, "flight")
        assert f"Flight {name} added." in page.locator(".messages").inner_text()
    page.fill("#gate-points", "9")
    page.fill("#gate-top", "16")
    _submit(page, "gate")
    assert "at least 9 match points or the top 16" in page.locator("#gate-rule").inner_text()

    flights = list(main.flights.order_by("pk"))
    for flight, size in zip(flights, (24, 20), strict=True):
        for i in range(size):
            services.register_player(flight, make_user(f"{flight.flight_name}{i:02d}"))
        services.check_in_everyone(flight, organiser)
        _run_rounds(flight, organiser, 4, rng)

    merged = EventHistory.read(main, plain=True).standings_rows()
    hand_count = {r["player"] for r in merged if r["match_points"] >= 9} | {
        r["player"] for r in merged[:16]
    }
    page.goto(f"{site}/events/{main.pk}/phases/")
    assert str(len(hand_count)) in page.locator("#gate-preview").inner_text()
    _submit(page, "apply")
    assert f"{len(hand_count)} players play on Day 2" in page.locator(".messages").inner_text()
    assert set(main.registrations.values_list("external_id", flat=True)) == hand_count

    day1 = _opponents([f.pk for f in flights])
    for _ in range(3):
        round_ = rounds.pair_next_round(main, organiser)
        day2 = {
            frozenset((m.player_a.public_id, m.player_b.public_id))
            for m in round_.matches.filter(is_bye=False).select_related("player_a", "player_b")
        }
        assert not day2 & day1, "a Day 1 pairing met again on Day 2"
        rounds.start_round(round_, organiser)
        _play(round_, organiser, rng)
        rounds.close_round(round_, organiser)
    rounds.start_top_cut(main, organiser)
    while True:
        last = main.rounds.order_by("-number").first()
        rounds.start_round(last, organiser)
        _play(last, organiser, rng)
        rounds.close_round(last, organiser)
        if rounds.advance_top_cut(main, organiser) is None:
            break
    main.refresh_from_db()
    assert main.rounds.filter(kind=Round.Kind.SWISS).count() == 3

    placings = event_placings(main).rows
    assert len(placings) == 44
    # The standings page: the final placings, Day 2 players first, Day 1's marked.
    assert watcher.visit(f"{site}/events/{main.pk}/standings/") == []
    shown = page.locator("table.placings tbody tr")
    assert shown.count() == 44
    for i in (0, 7, 8, 43):
        assert placings[i]["label"] in shown.nth(i).inner_text()
    page.click("text=Swiss standings")
    page.wait_for_load_state()
    assert page.locator("table.standings .day1-only").count() == 44 - len(hand_count)

    # The hall's standings screen lists the same first player.
    page.goto(f"{site}/events/{main.pk}/hall/?screen=standings")
    hall = page.locator("main").inner_text()
    assert placings[0]["label"].split(" #")[0] in hall
    assert page.content().count("(Day 1)") == 44 - len(hand_count)

    # A series that includes the event counts all 44, in the event's order.
    series = series_services.create_series(
        organiser, [main], name="Big Series", placing_points="1: 10, 2: 8, 3: 6", participation=1
    )
    table = series_table(series)
    assert len(table.rows) == 44
    assert table.rows[0].name == placings[0]["name"]
    assert watcher.visit(f"{site}/series/{series.pk}/") == []
    assert page.locator("table.series-standings tbody tr").count() == 44
