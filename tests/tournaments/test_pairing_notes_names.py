"""Pairing notes and byes name players the way people read them: display names (with the
player number where two share a name), whole sentences, "1 point" and "3 points".
The engine explained itself with ids ("paired down: r30 has already played everyone else
on 1 points"), and the dashboard printed "Bye: bye: lowest-ranked…"."""

import re

import pytest

from arbiter import worlds
from tests.conftest import PASSWORD, play_out
from tournaments.record.rounds import latest_round
from tournaments.rounds import services as rounds
from tournaments.rounds.notes import bye_note_text, pair_note_text, points_text

pytestmark = pytest.mark.django_db

NAMES = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov"]
INTERNAL_ID = re.compile(r"\br\d+\b")


def five_players_round_two(organiser, names=NAMES):
    world = worlds.build_event(
        list(names),
        accounts=False,
        organiser=organiser,
        judge=None,
        paired=True,
        password=PASSWORD,
        swiss_rounds=3,
    )
    play_out(latest_round(world.event), organiser)
    rounds.close_round(latest_round(world.event), organiser)
    return world.event, rounds.pair_next_round(world.event, organiser)


def test_round_two_notes_are_sentences_with_names(client, organiser):
    event, round_two = five_players_round_two(organiser)
    notes = [m.explanation for m in round_two.matches.all() if m.explanation]
    assert notes, "five players after round 1: someone on 3 points plays down"
    for text in [*notes, round_two.bye_reason]:
        assert not INTERNAL_ID.search(text), text
        assert any(name in text for name in NAMES), text
        assert text.endswith("."), text
        assert " 1 points" not in text and " 3 point " not in text
    assert "plays down" in " ".join(notes)
    bye = round_two.matches.get(is_bye=True).player_a.display_name
    assert round_two.bye_reason.startswith(f"{bye} has the bye")

    client.force_login(organiser)
    page = client.get(f"/events/{event.pk}/manage/").content.decode()
    assert "Bye: bye" not in page and "bye: lowest" not in page
    assert round_two.bye_reason in page.replace("&#x27;", "'")
    for note in notes:
        assert note.replace("'", "&#x27;") in page


def test_two_players_of_the_same_name_are_told_apart_by_their_number(organiser):
    names = ["Sam Lee", "Sam Lee", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov"]
    event, round_two = five_players_round_two(organiser, names)
    texts = " ".join([m.explanation for m in round_two.matches.all()] + [round_two.bye_reason])
    numbers = {r.number for r in event.registrations.filter(name="Sam Lee")}
    assert numbers == {1, 2}
    for sam in re.findall(r"Sam Lee(?: #\d+)?", texts):
        assert re.fullmatch(r"Sam Lee #[12]", sam), texts


def test_points_are_singular_and_plural():
    assert points_text(1) == "1 point"
    assert points_text(3) == "3 points"
    assert points_text(0) == "0 points"
    assert points_text(1.5) == "1.5 points"


@pytest.mark.parametrize(
    ("why", "expected"),
    [
        ("all_played", "Ada Lovelace plays down: everyone else on 1 point is a past opponent."),
        ("only_one", "Ada Lovelace plays down: no one else is on 1 point."),
        ("odd_group", "Ada Lovelace plays down: 3 players are on 1 point, an odd number."),
    ],
)
def test_each_pair_down_reads_as_a_sentence(why, expected):
    note = {"kind": "pair_down", "why": why, "player": "r30", "points": 1, "pool": 3, "between": []}
    name = {"r30": "Ada Lovelace", "r31": "Grace Hopper"}.get
    assert pair_note_text([note], ("r30", "r31"), name) == expected


def test_a_skipped_score_group_and_a_forced_bye_are_worded_too():
    name = {"r1": "Ada Lovelace", "r2": "Grace Hopper", "r3": "Alan Turing"}.get
    down = {
        "kind": "pair_down",
        "why": "only_one",
        "player": "r1",
        "points": 9,
        "pool": 1,
        "between": [6],
    }
    assert pair_note_text([down], ("r1", "r2"), name) == (
        "Ada Lovelace plays down: no one else is on 9 points. "
        "No one on 6 points was free to play Ada Lovelace."
    )
    bye = {"why": "lowest", "player": "r3", "had_bye": False, "skipped": ["r2"]}
    assert bye_note_text(bye, name) == (
        "Alan Turing has the bye as the lowest-ranked player without one so far "
        "(a bye for Grace Hopper would have forced a rematch)."
    )


def test_pages_tell_two_players_of_the_same_name_apart_by_number(client, organiser):
    names = ["Sam Lee", "sam  lee", "Alan Turing", "Edsger Dijkstra"]
    world = worlds.build_event(
        names, accounts=False, organiser=organiser, judge=None, paired=True, password=PASSWORD
    )
    client.force_login(organiser)
    pairings = client.get(f"/events/{world.event.pk}/pairings/").content.decode()
    dashboard = client.get(f"/events/{world.event.pk}/manage/").content.decode()
    for page in (pairings, dashboard):
        assert "Sam Lee #1" in page and "sam  lee #2" in page
        assert "Alan Turing #" not in page  # a name nobody shares stays as it is
