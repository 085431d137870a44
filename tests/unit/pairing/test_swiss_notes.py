"""The engine's pairing and bye notes are typed (frozen dataclasses) in Python and keep
their JSON shape at the contract's edge: ``as_dict`` writes exactly the dicts the engine
wrote before the notes were typed, and ``from_dict`` reads them back."""

from __future__ import annotations

import dataclasses
import json

import pytest

from pairing.swiss import (
    ByeNote,
    DownNote,
    RematchNote,
    bye_reason_text,
    note_from_dict,
    note_text,
    pair_round,
)


def player(pid, points=0, opponents=(), had_bye=False):
    return {
        "id": pid,
        "points": points,
        "opponents": list(opponents),
        "had_bye": had_bye,
        "dropped": False,
    }


def round_robin(ids):
    return {a: [b for b in ids if b != a] for a in ids}


def all_met(ids, had_bye=False):
    met = round_robin(ids)
    return [player(i, 3, met[i], had_bye) for i in ids]


def only_notes(result):
    return [note for item in result.explanations for note in item.notes]


# Each case: the players, the round, and the notes the engine gave as dicts before they
# were typed (copied from its JSON output): the shape the contract keeps.
BYE_CASES = {
    "lowest": (
        [
            player("a", 6, "bcd"),
            player("b", 3, "a"),
            player("c", 3, "a"),
            player("d", 3, "a"),
            player("e", 0),
        ],
        4,
        {"why": "lowest", "player": "d", "had_bye": False, "skipped": ["e"]},
    ),
    "everyone_had_one": (
        [player(f"p{i}", 6 - i % 3, had_bye=True) for i in range(7)],
        9,
        {"why": "everyone_had_one", "player": "p5", "had_bye": True, "skipped": []},
    ),
    "no_fresh_fits": (
        [
            player("a", 0, "bd", had_bye=True),
            player("b", 0, "eac"),
            player("c", 0, "db", had_bye=True),
            player("d", 0, "cea"),
            player("e", 0, "bd", had_bye=True),
        ],
        4,
        {"why": "no_fresh_fits", "player": "e", "had_bye": True, "skipped": ["d", "b"]},
    ),
    "fewest_rematches": (
        all_met(list("abcde")),
        5,
        {"why": "fewest_rematches", "player": "e", "had_bye": False, "skipped": []},
    ),
    "fewest_rematches_again": (
        all_met(list("abcde"), had_bye=True),
        6,
        {"why": "fewest_rematches", "player": "e", "had_bye": True, "skipped": []},
    ),
}


@pytest.mark.parametrize("case", sorted(BYE_CASES))
def test_each_bye_reason_round_trips_through_the_old_dict(case):
    players, round_number, before = BYE_CASES[case]
    result = pair_round(players, round_number, seed=1)
    note = result.bye_note
    assert isinstance(note, ByeNote)
    assert note.why == before["why"] and note.player == result.bye
    assert json.dumps(note.as_dict()) == json.dumps(before)  # same keys, order and values
    assert ByeNote.from_dict(note.as_dict()) == note
    assert result.as_json()["bye_note"] == before
    assert result.bye_reason == bye_reason_text(ByeNote.from_dict(before))


def test_a_pair_down_round_trips_through_the_old_dict():
    players = [player("a", 9, ["b"]), player("b", 6, ["a"])] + [player(x, 3) for x in "cdef"]
    result = pair_round(players, 9, seed=7)
    first, second = only_notes(result)
    assert first == DownNote("only_one", "a", "c", 9, 1, (6,))
    before = {
        "kind": "pair_down",
        "why": "only_one",
        "player": "a",
        "opponent": "c",
        "points": 9,
        "pool": 1,
        "between": [6],
    }
    assert json.dumps(first.as_dict()) == json.dumps(before)
    assert json.dumps(second.as_dict()) == json.dumps(
        {
            "kind": "pair_down",
            "why": "only_one",
            "player": "b",
            "opponent": "d",
            "points": 6,
            "pool": 1,
            "between": [],
        }
    )
    for note in (first, second):
        assert DownNote.from_dict(note.as_dict()) == note
        assert note_from_dict(note.as_dict()) == note
    assert result.as_json()["explanations"][0] == {
        "pair": ["a", "c"],
        "reason": note_text(first),
        "notes": [before],
    }


def test_half_points_keep_their_type_in_the_dict():
    note = DownNote("odd_group", "x", "y", 1.5, 3, (1.0, 0.5))
    assert json.dumps(note.as_dict()) == (
        '{"kind": "pair_down", "why": "odd_group", "player": "x", "opponent": "y", '
        '"points": 1.5, "pool": 3, "between": [1.0, 0.5]}'
    )
    assert note_from_dict(json.loads(json.dumps(note.as_dict()))) == note


def test_a_forced_rematch_round_trips_through_the_old_dict():
    result = pair_round(all_met(list("abcd")), 4, seed=1)
    notes = only_notes(result)
    assert notes == [RematchNote(forced=True), RematchNote(forced=True)]
    assert json.dumps(notes[0].as_dict()) == json.dumps({"kind": "rematch", "forced": True})
    assert RematchNote.from_dict(notes[0].as_dict()) == notes[0]
    assert note_from_dict({"kind": "rematch", "forced": False}) == RematchNote(forced=False)
    assert [e["notes"] for e in result.as_json()["explanations"]] == [
        [{"kind": "rematch", "forced": True}]
    ] * 2


def test_a_note_of_another_kind_is_refused():
    with pytest.raises(ValueError, match="unknown pairing note kind: 'float'"):
        note_from_dict({"kind": "float", "forced": True})
    with pytest.raises(ValueError, match="not a rematch note"):
        RematchNote.from_dict({"kind": "pair_down", "forced": True})
    with pytest.raises(ValueError, match="not a pair_down note"):
        DownNote.from_dict({"kind": "rematch", "forced": True})


def test_notes_are_frozen_values():
    note = ByeNote("lowest", "d", False, ("e",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        note.why = "everyone_had_one"  # type: ignore[misc]
    assert hash(note) == hash(ByeNote("lowest", "d", False, ("e",)))
    assert {RematchNote(True), RematchNote(True), DownNote("cheaper", 1, 2, 3, 2)} == {
        RematchNote(True),
        DownNote("cheaper", 1, 2, 3, 2, ()),
    }
    assert (DownNote.kind, RematchNote.kind) == ("pair_down", "rematch")
