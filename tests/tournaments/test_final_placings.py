"""The end of an event: final placings from the top cut, the winner on the public pages,
the event summary, the placings as CSV, and what My match says to those left out."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest

from tests.conftest import play_out
from tournaments.event import services
from tournaments.models import Event, Match, Registration, Round
from tournaments.record.match_games import Score
from tournaments.record.placings import event_placings
from tournaments.record.standings import results_changed, standings_rows
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

EN = "\u2013"


def close(round_: Round, organiser, score: str = "2-0") -> None:
    play_out(round_, organiser, score)
    rounds.close_round(round_, organiser)


@pytest.fixture
def swiss_done(make_world, organiser):
    """Ten players, a top 4, all three Swiss rounds played and closed; P10 dropped
    after round 2."""
    world = make_world(10, rounds_played=2, paired=False, top_cut=4)
    event = world.event
    dropped = world.registrations[9]
    services.drop_player(event, dropped, organiser, "went home")
    round3 = rounds.pair_next_round(event, organiser)
    close(round3, organiser)
    return world


def swiss_order(event: Event) -> list[str]:
    return [row["name"] for row in standings_rows(Event.objects.get(pk=event.pk))]


def cut_round(event: Event) -> Round:
    return event.rounds.filter(kind=Round.Kind.TOP_CUT).order_by("-number").first()


@pytest.fixture
def finished(swiss_done, organiser):
    """The top 4 played out: every first-named (higher seed) player wins."""
    event = swiss_done.event
    rounds.start_top_cut(event, organiser)
    close(cut_round(event), organiser)
    rounds.advance_top_cut(event, organiser)
    close(cut_round(event), organiser)
    rounds.advance_top_cut(event, organiser)  # the final was the last: the event finishes
    return swiss_done


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_after_the_cut_the_standings_page_shows_final_placings_and_the_winner(client, finished):
    event = finished.event
    seeds = swiss_order(event)
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    page = text(client.get(f"/events/{event.pk}/standings/"))
    assert "Final placings" in page
    assert f"Winner: {seeds[0]}" in page  # seed 1 beat seed 4, then seed 2
    # 1st, 2nd, the semifinal losers sharing 3rd-4th, then the Swiss order from 5th.
    assert f"1st {seeds[0]} Won the final" in page
    assert f"2nd {seeds[1]} Lost in the final" in page
    assert f"3rd{EN}4th {seeds[2]} Lost in the semifinals" in page
    assert f"3rd{EN}4th {seeds[3]} Lost in the semifinals" in page
    assert f"5th {seeds[4]}" in page
    assert page.index(f"5th {seeds[4]}") < page.index(f"6th {seeds[5]}")
    assert re.search(r"P10 dropped", page)  # the dropped player is marked
    # The Swiss standings are one link away.
    assert "Swiss standings" in page
    swiss = text(client.get(f"/events/{event.pk}/standings/?view=swiss"))
    assert "Final placings" in swiss and "OMW%" in swiss and "Lost in the final" not in swiss


def test_the_winner_shows_on_the_event_and_top_cut_pages_once_the_final_is_decided(
    client, swiss_done, organiser
):
    event = swiss_done.event
    rounds.start_top_cut(event, organiser)
    close(cut_round(event), organiser)
    rounds.advance_top_cut(event, organiser)
    final = cut_round(event).matches.get()
    for url in (f"/events/{event.pk}/", f"/events/{event.pk}/bracket/"):
        assert "Winner:" not in text(client.get(url))
    standings = text(client.get(f"/events/{event.pk}/standings/"))
    assert "Placings so far" in standings and "Top 2" in standings and "Winner:" not in standings
    results.enter_result(final, Score.parse("0-2"), organiser)  # the lower seed wins the final
    winner = final.player_b.display_name
    for url in (f"/events/{event.pk}/", f"/events/{event.pk}/bracket/"):
        assert f"Winner: {winner}" in text(client.get(url)), url


def test_an_event_without_a_cut_has_final_placings_once_its_last_round_is_closed(
    client, make_world, organiser
):
    world = make_world(6, rounds_played=2, paired=False, swiss_rounds=3)
    event = world.event
    round3 = rounds.pair_next_round(event, organiser)
    play_out(round3, organiser)
    page = text(client.get(f"/events/{event.pk}/standings/"))
    assert "Final placings" not in page and "Winner:" not in page
    rounds.close_round(round3, organiser)
    first = swiss_order(event)[0]
    page = text(client.get(f"/events/{event.pk}/standings/"))
    assert "Final placings" in page and f"Winner: {first}" in page
    assert f"1st {first}" in page
    assert f"Winner: {first}" in text(client.get(f"/events/{event.pk}/"))


def test_the_summary_page_names_the_winner_and_the_event_at_a_glance(client, finished):
    event = finished.event
    seeds = swiss_order(event)
    page = text(client.get(f"/events/{event.pk}/summary/"))
    assert "Event summary" in page and f"Winner: {seeds[0]}" in page
    assert "Players 10 (1 dropped)" in page
    assert "Swiss rounds 3 played" in page
    assert "Top cut Top 4, 2 rounds played" in page
    assert f"2nd {seeds[1]}" in page
    assert "The organiser has not published the decklists." in page


@pytest.mark.parametrize(("published", "shown"), [("none", 0), ("top_cut", 4), ("all", 10)])
def test_the_summary_links_only_the_decklists_the_organiser_published(
    client, make_world, organiser, published, shown
):
    world = make_world(10, rounds_played=3, paired=False, top_cut=4, decklists=True)
    event = world.event
    rounds.start_top_cut(event, organiser)
    Event.objects.filter(pk=event.pk).update(decklists_public=published)
    body = client.get(f"/events/{event.pk}/summary/").content.decode()
    links = re.findall(rf'href="/events/{event.pk}/decklists/(\d+)/"', body)
    assert len(links) == shown
    if published == "top_cut":
        cut = {p.pk for m in cut_round(event).matches.all() for p in m.players()}
        assert {int(pk) for pk in links} == cut
    for pk in links:  # every linked list opens for the anonymous visitor
        assert client.get(f"/events/{event.pk}/decklists/{pk}/").status_code == 200


def test_the_placings_csv_keeps_ids_records_and_marks(client, finished):
    event = finished.event
    response = client.get(f"/events/{event.pk}/placings.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    # UTF-8 with a byte-order mark, as the penalties and series CSVs: Excel reads it as UTF-8.
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == 10
    first, third = rows[0], rows[2]
    assert (first["place"], first["place_label"], first["top_cut"]) == ("1", "1st", "winner")
    assert (third["place"], third["place_to"], third["place_label"]) == ("3", "4", f"3rd{EN}4th")
    dropped = next(row for row in rows if row["name"] == "P10")
    assert dropped["status"] == "dropped"
    ids = {r.public_id for r in event.registrations.all()}
    assert {row["player_id"] for row in rows} == ids
    assert re.fullmatch(r"\d+-\d+-\d+", first["record"]) and first["match_points"].isdigit()


def test_a_name_that_looks_like_a_formula_is_text_in_the_csv(client, make_world, organiser):
    world = make_world(4, rounds_played=1, paired=False, swiss_rounds=1)
    registration = world.registrations[0]
    registration.name = "=HYPERLINK(1)"
    registration.save(update_fields=["name"])
    results_changed(world.event)  # as the service renaming a player would
    body = client.get(f"/events/{world.event.pk}/placings.csv").content.decode()
    assert "'=HYPERLINK(1)" in body


# --- My match for a player without a match -------------------------------------------------


def my_match(client, user, event) -> str:
    client.force_login(user)
    return text(client.get(f"/events/{event.pk}/my-match/"))


def test_a_player_knocked_out_of_the_cut_reads_where_they_finished(client, swiss_done, organiser):
    event = swiss_done.event
    rounds.start_top_cut(event, organiser)
    semifinal = cut_round(event).matches.order_by("table").first()
    loser = semifinal.player_b
    close(cut_round(event), organiser)
    rounds.advance_top_cut(event, organiser)
    page = my_match(client, loser.user, event)
    assert "Pairings appear here as soon as" not in page
    assert f"You finished 3rd{EN}4th." in page
    assert "You lost in the semifinals. The top cut continues with the final" in page


def test_a_player_outside_the_cut_reads_their_swiss_place(client, swiss_done, organiser):
    event = swiss_done.event
    rounds.start_top_cut(event, organiser)
    fifth = swiss_order(event)[4]
    user = next(r.user for r in swiss_done.registrations if r.display_name == fifth)
    page = my_match(client, user, event)
    assert "You finished 5th." in page
    assert "You did not make the top cut. The top cut continues with the semifinals" in page


def test_a_dropped_player_reads_that_they_dropped(client, swiss_done):
    event = swiss_done.event
    page = my_match(client, swiss_done.users[9], event)
    assert "You dropped after round 2." in page
    assert "Pairings appear here as soon as" not in page


def test_when_the_event_is_over_every_player_reads_their_final_place(client, finished):
    event = finished.event
    seeds = swiss_order(event)
    user = {r.display_name: r.user for r in finished.registrations}
    page = my_match(client, user[seeds[2]], event)  # lost a semifinal
    assert f"The event is over: you finished 3rd{EN}4th." in page
    assert "The event is over: you finished 5th." in my_match(client, user[seeds[4]], event)
    # The finalists still see their final's result.
    assert "Pairings appear here" not in my_match(client, user[seeds[0]], event)


def test_a_player_before_round_1_still_waits_for_pairings(client, make_world):
    world = make_world(6, paired=False)
    page = my_match(client, world.users[0], world.event)
    assert "Pairings appear here as soon as the organiser pairs the round." in page


def test_the_placings_come_from_the_top_cut_matches(swiss_done, organiser):
    """A final won by the lower seed puts them first (not the Swiss leader)."""
    event = swiss_done.event
    rounds.start_top_cut(event, organiser)
    close(cut_round(event), organiser, "0-2")  # both lower seeds win their semifinals
    rounds.advance_top_cut(event, organiser)
    final = cut_round(event).matches.get()
    results.enter_result(final, Score.parse("2-1"), organiser)
    placings = event_placings(Event.objects.get(pk=event.pk))
    seeds = swiss_order(event)
    assert [row["name"] for row in placings.rows[:4]] == [seeds[3], seeds[2], seeds[0], seeds[1]]
    assert placings.winner["name"] == seeds[3]
    assert Match.objects.filter(round__event=event, round__kind="top_cut").count() == 3


def test_a_disqualified_player_is_marked_and_placed_last(client, make_world, organiser):
    world = make_world(6, rounds_played=3, paired=False, swiss_rounds=3)
    event = world.event
    cheat = world.registrations[0]
    Registration.objects.filter(pk=cheat.pk).update(disqualified=True)
    results_changed(event)  # as the disqualification's service does
    rows = list(
        csv.DictReader(
            io.StringIO(client.get(f"/events/{event.pk}/placings.csv").content.decode("utf-8-sig"))
        )
    )
    assert (rows[-1]["name"], rows[-1]["status"], rows[-1]["place"]) == ("P01", "disqualified", "6")
    page = text(client.get(f"/events/{event.pk}/standings/"))
    assert "6th P01 disqualified" in page
    assert "Winner: P01" not in page
