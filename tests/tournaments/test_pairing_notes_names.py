"""Pairing notes and byes name players the way people read them: display names (with the
player number where two share a name), whole sentences, "1 point" and "3 points".
The engine explained itself with ids ("paired down: r30 has already played everyone else
on 1 points"), and the dashboard printed "Bye: bye: lowest-ranked…"."""

import re

import pytest

from arbiter import worlds
from pairing.swiss import ByeNote, DownNote, RematchNote, note_from_dict, pair_round
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
    note = DownNote(why=why, player="r30", opponent="r31", points=1, pool=3, between=())
    name = {"r30": "Ada Lovelace", "r31": "Grace Hopper"}.get
    assert pair_note_text([note], ("r30", "r31"), name) == expected


def test_a_skipped_score_group_and_a_forced_bye_are_worded_too():
    name = {"r1": "Ada Lovelace", "r2": "Grace Hopper", "r3": "Alan Turing"}.get
    down = DownNote(why="only_one", player="r1", opponent="r2", points=9, pool=1, between=(6,))
    assert pair_note_text([down], ("r1", "r2"), name) == (
        "Ada Lovelace plays down: no one else is on 9 points. "
        "No one on 6 points was free to play Ada Lovelace."
    )
    bye = ByeNote(why="lowest", player="r3", had_bye=False, skipped=("r2",))
    assert bye_note_text(bye, name) == (
        "Alan Turing has the bye as the lowest-ranked player without one so far "
        "(a bye for Grace Hopper would have forced a rematch)."
    )


def _player(pid, points, opponents=(), had_bye=False):
    return {
        "id": pid,
        "points": points,
        "opponents": list(opponents),
        "had_bye": had_bye,
        "dropped": False,
    }


ENGINE_NAMES = {"a": "Ada Lovelace", "b": "Grace Hopper", "c": "Alan Turing"}
ENGINE_NAMES |= {"d": "Edsger Dijkstra", "e": "Barbara Liskov"}


def test_the_engines_typed_notes_are_worded_with_names():
    """What ``pairing.swiss`` hands back (dataclasses) is what the wording reads, and a
    note read back from the engine's JSON words the same."""
    name = ENGINE_NAMES.get
    skip = [_player("a", 9, ["b"]), _player("b", 6, ["a"])]
    skip += [_player(x, 3) for x in "cdef"]
    result = pair_round(skip, 9, seed=7)
    item = result.explanations[0]
    assert item.notes == (DownNote("only_one", "a", "c", 9, 1, (6,)),)
    expected = (
        "Ada Lovelace plays down: no one else is on 9 points. "
        "No one on 6 points was free to play Ada Lovelace."
    )
    assert pair_note_text(item.notes, item.pair, name) == expected
    again = [note_from_dict(note.as_dict()) for note in item.notes]
    assert pair_note_text(again, item.pair, name) == expected

    met = {x: [y for y in "abcde" if y != x] for x in "abcde"}
    result = pair_round([_player(x, 3, met[x]) for x in "abcde"], 5, seed=1)
    item = result.explanations[0]
    assert item.notes == (RematchNote(forced=True),)
    assert pair_note_text(item.notes, item.pair, name) == (
        "Ada Lovelace and Alan Turing meet again: no pairing without a rematch exists."
    )
    assert pair_note_text([RematchNote(forced=False)], ("a", "b"), name) == (
        "Ada Lovelace and Grace Hopper meet again."
    )
    assert result.bye_note == ByeNote("fewest_rematches", "e", False)
    assert bye_note_text(result.bye_note, name) == (
        "Barbara Liskov has the bye: no pairing without a rematch exists, and of the byes "
        "that give the fewest rematches this is the lowest-ranked player without a bye so far."
    )
    assert bye_note_text(ByeNote.from_dict(result.bye_note.as_dict()), name) == (
        bye_note_text(result.bye_note, name)
    )
    assert bye_note_text(None, name) == ""


@pytest.mark.parametrize(
    ("players", "round_number", "expected"),
    [
        (
            [_player(x, 3 - i % 2, had_bye=True) for i, x in enumerate("abcde")],
            4,
            "Edsger Dijkstra has the bye: everyone has had one, so it goes to the "
            "lowest-ranked player.",  # on 2 points, listed after Grace Hopper
        ),
        (
            [
                _player("a", 0, "bd", had_bye=True),
                _player("b", 0, "eac"),
                _player("c", 0, "db", had_bye=True),
                _player("d", 0, "cea"),
                _player("e", 0, "bd", had_bye=True),
            ],
            4,
            "Barbara Liskov has a second bye: no player without one could take it without "
            "forcing a rematch, so it goes to the lowest-ranked player (a bye for Edsger "
            "Dijkstra and Grace Hopper would have forced a rematch).",
        ),
    ],
    ids=["everyone_had_one", "no_fresh_fits"],
)
def test_each_engine_bye_note_is_worded_with_names(players, round_number, expected):
    result = pair_round(players, round_number, seed=1)
    assert isinstance(result.bye_note, ByeNote)
    assert bye_note_text(result.bye_note, ENGINE_NAMES.get) == expected


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
