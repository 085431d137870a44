"""``arbiter-event/1`` and phases (issue 33): a main event with Day 1 flights, its gate and
Day 2 out and back in whole; awarded byes; one-phase exports unchanged, byte for byte."""

from __future__ import annotations

import copy
import io
import json
import random

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.db import transaction

from pairing.gate import TIES
from tests.conftest import make_user
from tests.tournaments.fixtures import exporter_before_phases as before
from tests.tournaments.test_interchange import (
    _DELETE,
    _READS_LIKE_PYTHON,
    SCHEMA_FILE,
    _paths,
    _replaced,
    build_site_event,
    committed_validator,
    problems_of,
    row_counts,
    sample_document,
    small_document,
)
from tests.tournaments.test_phases import _main_with_flights, _play, _run_rounds
from tournaments.event import phases, services
from tournaments.interchange import InterchangeError, export_event, import_event
from tournaments.interchange.limits import ImportPolicy
from tournaments.interchange.schema import is_valid
from tournaments.models import Event, EventLog, Match, Registration, Round
from tournaments.record.history import EventHistory
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(organiser) -> User:
    """Olive may publish imports: these tests are of the format (drafts: test_import_bounds)."""
    organiser.user_permissions.add(Permission.objects.get(codename="import_published_event"))
    return organiser


def _finish(event: Event, organiser, rng: random.Random) -> None:
    """Day 2's remaining Swiss rounds, then the top cut to its final."""
    while (event.rounds.filter(kind=Round.Kind.SWISS).count() or 0) < 3:
        round_ = rounds.pair_next_round(event, organiser)
        rounds.start_round(round_, organiser)
        _play(round_, organiser, rng)
        rounds.close_round(round_, organiser)
    round_ = rounds.start_top_cut(event, organiser)
    while round_ is not None:
        rounds.start_round(round_, organiser)
        _play(round_, organiser, rng)
        rounds.close_round(round_, organiser)
        round_ = rounds.advance_top_cut(event, organiser)


def phased_event(organiser) -> Event:
    """Two flights (10 and 8 players, 3 rounds), one with two awarded byes and a drop;
    the gate "9 points or top 16"; Day 2 of 3 rounds with a drop; a top 8 to its final."""
    rng = random.Random(11)
    main = _main_with_flights(organiser, sizes=(10, 8), rounds_each=3)
    main.top_cut = 4
    main.save(update_fields=["top_cut"])
    flight_a, flight_b = main.flights.order_by("pk")
    invited = flight_a.registrations.order_by("pk").first()
    services.award_byes(flight_a, invited, 2, organiser)
    _run_rounds(flight_a, organiser, 1, rng)
    leaver = flight_a.registrations.exclude(pk=invited.pk).order_by("pk").first()
    services.drop_player(flight_a, leaver, organiser, reason="Train home")
    _run_rounds(flight_a, organiser, 2, rng)
    _run_rounds(flight_b, organiser, 3, rng)
    phases.apply_gate(main, organiser)
    main.refresh_from_db()
    round_ = rounds.pair_next_round(main, organiser)
    rounds.start_round(round_, organiser)
    _play(round_, organiser, rng)
    rounds.close_round(round_, organiser)
    gone = main.registrations.order_by("-pk").first()
    services.drop_player(main, gone, organiser, reason="Tired")
    _finish(main, organiser, rng)
    main.refresh_from_db()
    return main


def _rows(event: Event) -> list[dict]:
    return EventHistory.read(event, plain=True).public_rows()


def test_a_two_flight_event_with_day2_and_a_top_cut_round_trips(organiser, judge):
    main = phased_event(organiser)
    first = export_event(main)
    assert not list(committed_validator().iter_errors(first))

    ids = [p["id"] for p in first["players"]]
    assert len(ids) == len(set(ids)) == 18  # every player once, carried or not
    flights = first["phases"]["flights"]
    assert [(f["name"], f["swiss_rounds"], len(f["players"])) for f in flights] == [
        ("A", 3, 10),
        ("B", 3, 8),
    ]
    assert sorted(flights[0]["players"] + flights[1]["players"]) == sorted(ids)
    assert [r["number"] for r in flights[0]["rounds"]] == [1, 2, 3]
    assert first["phases"]["gate"] == {"points": 9, "top": 16, "ties": "tiebreakers"}
    carried = main.registrations.filter(carried_from__isnull=False).order_by("pk")
    assert first["phases"]["day2"] == [r.carried_from.public_id for r in carried]
    assert len(first["phases"]["day2"]) == 16
    # The main event's own rounds: Day 2 numbered on from Day 1's, then the top cut.
    assert [(r["number"], r["kind"]) for r in first["rounds"]] == [
        (4, "swiss"),
        (5, "swiss"),
        (6, "swiss"),
        (7, "top_cut"),
        (8, "top_cut"),
    ]
    assert [d["after_round"] for d in flights[0]["drops"]] == [1]
    assert [d["after_round"] for d in first["drops"]] == [4]
    assert [p.get("byes") for p in first["players"] if "byes" in p] == [2]

    copied = import_event(copy.deepcopy(first), judge, policy=ImportPolicy.operator())
    second = export_event(copied)
    assert json.dumps(second) == json.dumps(first)
    assert _rows(copied) == _rows(main)
    for original, flight in zip(
        main.flights.order_by("pk"), copied.flights.order_by("pk"), strict=True
    ):
        assert _rows(flight) == _rows(original)
        assert flight.name == original.name and flight.seed == original.seed

    # Day 2's entries as apply_gate makes them; the gate's log worked out again.
    for entry in copied.registrations.select_related("carried_from"):
        assert entry.carried_from.event.parent_id == copied.pk
        assert entry.external_id == entry.carried_from.public_id
    assert copied.gate_applied_at is not None
    logged = EventLog.objects.get(event=copied, action="gate").data
    original_log = EventLog.objects.get(event=main, action="gate").data
    assert logged["decisions"] == original_log["decisions"]
    assert logged["through"] == 16
    someone = copied.registrations.first()
    assert phases.player_gate_status(copied, someone).endswith("you play on Day 2.")


def test_before_the_gate_the_flights_and_the_rule_round_trip(organiser):
    main = _main_with_flights(organiser, sizes=(6, 5), rounds_each=2)
    main.refresh_from_db()  # the gate set on it
    _run_rounds(main.flights.order_by("pk").first(), organiser, 1, random.Random(2))
    first = export_event(main)
    assert "day2" not in first["phases"] and first["rounds"] == []
    copied = import_event(copy.deepcopy(first), organiser)
    assert copied.gate_applied_at is None and copied.registrations.count() == 0
    assert export_event(copied) == first
    # The copy goes on as the original would: the gate is applied when Day 1 is over.
    for flight in copied.flights.order_by("pk"):
        flight.status = Event.Status.RUNNING
        flight.save(update_fields=["status"])
        _run_rounds(flight, organiser, 2 - flight.rounds.count(), random.Random(3))
    copied.status = Event.Status.RUNNING
    copied.save(update_fields=["status"])
    assert phases.apply_gate(copied, organiser) > 0


def test_a_flight_exported_alone_names_its_main_event(organiser):
    main = _main_with_flights(organiser, sizes=(4,), rounds_each=1)
    flight = main.flights.get()
    exported = export_event(flight)
    assert exported["event"]["flight_of"] == {"event": "Regional", "flight": "A"}
    assert "phases" not in exported
    assert not list(committed_validator().iter_errors(exported))
    assert import_event(exported, organiser).parent_id is None  # an event of its own


def test_awarded_byes_round_trip(organiser):
    event = services.create_event(
        organiser, name="Byes", game="iacta", status=Event.Status.REGISTRATION, swiss_rounds=3
    )
    for i in range(7):
        services.register_player(event, make_user(f"b{i}"))
    services.check_in_everyone(event, organiser)
    ranked = event.registrations.order_by("pk").first()
    services.award_byes(event, ranked, 2, organiser)
    _run_rounds(event, organiser, 3, random.Random(5))
    first = export_event(event)
    entry = next(p for p in first["players"] if p["id"] == ranked.public_id)
    assert entry == {"id": ranked.public_id, "name": ranked.display_name, "byes": 2}
    assert sum("byes" in p for p in first["players"]) == 1

    copied = import_event(copy.deepcopy(first), organiser)
    assert export_event(copied) == first
    kept = copied.registrations.get(external_id=ranked.public_id)
    assert kept.awarded_byes == 2
    byes = Match.objects.filter(round__event=copied, player_a=kept, is_bye=True)
    assert sorted(byes.values_list("round__number", "explanation")) == [
        (1, "Awarded bye (1 of 2)"),
        (2, "Awarded bye (2 of 2)"),
    ]
    assert _rows(copied) == _rows(event)


def _bad_phases() -> dict:
    document = small_document()
    document["rounds"] = [document["rounds"][0] | {"number": 3}]
    document["players"].append({"id": "p6", "name": "Barbara Liskov", "byes": 4})
    document["drops"] = []
    document["phases"] = {
        "flights": [
            {
                "name": "A",
                "swiss_rounds": 2,
                "players": ["p1", "p2", "p3", "p9"],
                "rounds": [
                    {
                        "number": 1,
                        "matches": [
                            {"table": 1, "players": ["p1", "p4"], "games": ["p1", "p1"]},
                            {"table": None, "players": ["p3"], "bye": True},
                        ],
                    }
                ],
            },
            {"name": "A", "swiss_rounds": 3, "players": ["p4", "p5", "p1"], "rounds": []},
        ],
        "day2": ["p1", "p6"],
    }
    return document


def test_bad_phases_are_named_by_path_and_nothing_is_written(organiser):
    before_rows = row_counts()
    problems = problems_of(_bad_phases(), organiser)
    assert row_counts() == before_rows
    not_through = "did not go through to Day 2 (phases.day2): the main event's rounds are Day 2's"
    assert problems == [
        "event.swiss_rounds: must be more than Day 1's 3: the event's Swiss rounds are Day 1's "
        "and Day 2's",
        "players[5].byes: must be between 0 and 3, not 4",
        "rounds[0]: round 4 is a Swiss round beyond the event's 2 (event.swiss_rounds): raise "
        "event.swiss_rounds, or leave round 4 out of the file",
        "rounds[0].number: must be 4: Day 2's rounds are numbered on from Day 1's 3, in "
        "order, not 3",
        f'rounds[0].matches[0].players[1]: "p2" {not_through}',
        f'rounds[0].matches[1].players[0]: "p3" {not_through}',
        f'rounds[0].matches[1].players[1]: "p4" {not_through}',
        f'rounds[0].matches[2].players[0]: "p5" {not_through}',
        "phases.flights[0].swiss_rounds: must be 3, as another flight's: every flight plays the "
        "same Swiss rounds before the gate (phases.day2)",
        'phases.flights[0].players[3]: "p9" is not in players',
        "phases.flights[0].rounds: holds 1 of the flight's 2 rounds: Day 2 (phases.day2) starts "
        "once every flight has played all of them",
        'phases.flights[0].rounds[0].matches[0].players[1]: "p4" is not a player of this flight '
        "(phases.flights[0].players)",
        'phases.flights[1].name: "A" is already the name of phases.flights[0]',
        'phases.flights[1].players[2]: "p1" is already at phases.flights[0].players[0]',
        "phases.flights[1].rounds: holds 0 of the flight's 3 rounds: Day 2 (phases.day2) starts "
        "once every flight has played all of them",
        'phases.day2[1]: "p6" is in no flight: Day 2\'s players come from Day 1',
        "phases.gate: is required with phases.day2: the rule that let them through",
    ]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["phases"]["flights"][0]["rounds"].append(
                {"number": 2, "kind": "top_cut", "matches": []}
            ),
            "phases.flights[0].rounds[1].kind: a flight plays Swiss rounds only",
        ),
        (
            lambda d: d["phases"].update(gate={"points": None, "top": None}),
            "phases.gate: give points, top or both",
        ),
        (lambda d: d["phases"].update(flights=[]), "phases.flights: must hold at least one"),
        (
            lambda d: d["phases"]["flights"][0].update(name=" "),
            "phases.flights[0].name: must not be empty",
        ),
        (
            lambda d: d["phases"]["flights"][0]["rounds"][0]["matches"][0].update(players=["p1"]),
            "phases.flights[0].rounds[0].matches[0].players: a match has exactly two players",
        ),
        (
            lambda d: d.update(rounds=[{"number": 2, "matches": []}]),
            "rounds: the main event plays its rounds after the gate",
        ),
    ],
)
def test_each_phase_rule_is_checked(change, expected, organiser):
    document = {
        **small_document(),
        "rounds": [],
        "drops": [],
        "phases": {
            "flights": [
                {
                    "name": "A",
                    "swiss_rounds": 1,
                    "players": ["p1", "p2"],
                    "rounds": [
                        {
                            "number": 1,
                            "matches": [{"table": 1, "players": ["p1", "p2"], "games": ["p1"]}],
                        }
                    ],
                }
            ],
            "gate": {"points": 3, "top": None, "ties": "points"},
        },
    }
    import_event(copy.deepcopy(document), organiser)  # the unchanged document is good
    change(document)
    problems = problems_of(document, organiser)
    assert any(p.startswith(expected) for p in problems), problems


def test_a_huge_phases_section_is_counted_against_the_limits(organiser, settings):
    settings.IMPORT_MAX_ROUNDS = 2
    document = {**small_document(), "rounds": [], "drops": []}
    document["phases"] = {
        "flights": [
            {
                "name": "A",
                "swiss_rounds": 3,
                "players": [],
                "rounds": [{"number": n} for n in (1, 2, 3)],
            }
        ]
    }
    with pytest.raises(InterchangeError, match="This file has 3 rounds"):
        import_event(document, make_user("nobody"))


def test_one_phase_exports_are_byte_identical_to_before(event, organiser, judge):
    """Events without phases or byes: the same bytes as the exporter before issue 33."""
    build_site_event(event, organiser, judge)
    a, b = [r for r in event.registrations.all() if r.dropped_after_round is None][:2]
    running = Round.objects.create(event=event, number=3, status=Round.Status.RUNNING)
    Match.objects.create(round=running, table=1, player_a=a, player_b=b)
    events = [
        event,
        import_event(sample_document(), organiser),
        import_event(small_document(), None),
        services.create_event(organiser, name="Empty", game="iacta"),
    ]
    for one in events:
        old, new = before.export_event(one), export_event(one)
        assert json.dumps(new, ensure_ascii=False, indent=1) == json.dumps(
            old, ensure_ascii=False, indent=1
        )
        assert list(new) == list(old) and list(new["event"]) == list(old["event"])
    assert "left_out" in export_event(event)  # the unfinished round: compared too


def test_a_registration_with_byes_is_the_only_change_to_a_one_phase_export(organiser):
    event = import_event(small_document(), organiser)
    Registration.objects.filter(event=event, external_id="p3").update(awarded_byes=1)
    old, new = before.export_event(event), export_event(event)
    assert new["players"][2] == {"id": "p3", "name": "Alan Turing", "byes": 1}
    new["players"][2].pop("byes")
    assert json.dumps(new) == json.dumps(old)


def phased_document() -> dict:
    """Two flights of three (one round each: a match and a bye), the gate "top 4", Day 2's
    one Swiss round and a final; p3 was awarded a bye."""
    return {
        "format": "arbiter-event/1",
        "event": {
            "name": "Two Halls",
            "game": "iacta",
            "date": "2026-11-28",
            "match_format": "bo3",
            "swiss_rounds": 2,
            "top_cut": 2,
        },
        "players": [
            {"id": "p1", "name": "Ada"},
            {"id": "p2", "name": "Grace"},
            {"id": "p3", "name": "Alan", "byes": 1},
            {"id": "p4", "name": "Katherine"},
            {"id": "p5", "name": "Edsger"},
            {"id": "p6", "name": "Barbara"},
        ],
        "rounds": [
            {
                "number": 2,
                "matches": [
                    {"table": 1, "players": ["p1", "p4"], "games": ["p1", "p1"]},
                    {"table": 2, "players": ["p3", "p6"], "games": ["p6", "p6"]},
                ],
            },
            {
                "number": 3,
                "kind": "top_cut",
                "matches": [{"table": 1, "players": ["p1", "p6"], "games": ["p1", "p6", "p1"]}],
            },
        ],
        "drops": [],
        "phases": {
            "flights": [
                {
                    "name": "A",
                    "swiss_rounds": 1,
                    "players": ["p1", "p2", "p3"],
                    "rounds": [
                        {
                            "number": 1,
                            "matches": [
                                {"table": 1, "players": ["p1", "p2"], "games": ["p1", "p1"]},
                                {"table": None, "players": ["p3"], "bye": True},
                            ],
                        }
                    ],
                    "drops": [{"player": "p2", "after_round": 1}],
                },
                {
                    "name": "B",
                    "swiss_rounds": 1,
                    "players": ["p4", "p5", "p6"],
                    "rounds": [
                        {
                            "number": 1,
                            "matches": [
                                {"table": 1, "players": ["p4", "p5"], "games": ["p4", "p4"]},
                                {"table": None, "players": ["p6"], "bye": True},
                            ],
                        }
                    ],
                },
            ],
            "gate": {"points": None, "top": 4, "ties": "tiebreakers"},
            "day2": ["p1", "p3", "p4", "p6"],
        },
    }


def test_a_phased_file_from_another_tool_imports_as_the_site_would_run_it(organiser):
    event = import_event(phased_document(), organiser)
    assert event.status == Event.Status.FINISHED
    flight_a, _ = event.flights.order_by("pk")
    assert (flight_a.name, flight_a.flight_name, flight_a.swiss_rounds) == ("Two Halls — A", "A", 1)
    assert flight_a.registrations.get(external_id="p3").awarded_byes == 1
    assert flight_a.registrations.get(external_id="p2").dropped_after_round == 1
    assert list(event.rounds.values_list("number", "kind")) == [(2, "swiss"), (3, "top_cut")]
    assert sorted(event.registrations.values_list("external_id", flat=True)) == [
        "p1",
        "p3",
        "p4",
        "p6",
    ]
    rows = _rows(event)
    assert [r["day2"] for r in rows] == [True] * 4 + [False] * 2
    assert {r["player"] for r in rows[:4]} == {"p1", "p3", "p4", "p6"}
    decisions = EventLog.objects.get(event=event, action="gate").data["decisions"]
    assert sorted(d[0] for d in decisions if d[3]) == ["p1", "p3", "p4", "p6"]
    exported = export_event(event)
    expected = phased_document()["rounds"]
    expected[0]["kind"] = "swiss"  # written out
    assert exported["rounds"] == expected
    assert exported["phases"]["day2"] == ["p1", "p3", "p4", "p6"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["players"][2].update(byes=2),
            [],  # only one round played: the bye in round 1 is all there is to check
        ),
        (
            lambda d: d["players"][0].update(byes=1),
            [
                'phases.flights[0].rounds[0].matches[0].players[0]: "p1" has a bye awarded in '
                "round 1, not a match"
            ],
        ),
        (
            lambda d: d["players"][1].update(byes=1),
            [
                'phases.flights[0].rounds[0].matches[0].players[1]: "p2" has a bye awarded in '
                "round 1, not a match"
            ],
        ),
    ],
)
def test_awarded_byes_are_byes_in_the_file(change, expected, organiser):
    document = phased_document()
    change(document)
    if not expected:
        import_event(document, organiser)
        return
    assert problems_of(document, organiser) == expected


def test_a_one_phase_file_gives_its_byes_as_byes(organiser):
    document = small_document()
    document["players"][4]["byes"] = 2  # p5: byes in rounds 1 and 2? Round 2 is a match.
    assert problems_of(document, organiser) == [
        'rounds[1].matches[1].players[0]: "p5" has a bye awarded in round 2, not a match'
    ]
    document["players"][4]["byes"] = 1
    document["rounds"][0]["matches"].pop()  # p5 not seated in round 1 at all
    assert problems_of(document, organiser) == [
        'players[4].byes: "p5" has 1 awarded byes, but no bye in round 1: their first rounds '
        "are byes"
    ]


def test_the_schema_states_the_phases_limits():
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))["$defs"]
    assert schema["player"]["properties"]["byes"]["maximum"] == services.MAX_AWARDED_BYES
    assert schema["phases"]["properties"]["flights"]["maxItems"] == phases.MAX_FLIGHTS
    name = Event._meta.get_field("flight_name").max_length
    assert schema["flight"]["properties"]["name"]["maxLength"] == name
    assert schema["gate"]["properties"]["ties"]["enum"] == list(TIES)


def test_any_wrong_value_in_a_phased_file_is_a_listed_problem_never_a_crash(organiser):
    """As for one-phase files: every position, each wrong kind of value (or removed)."""
    document = phased_document()
    for where in list(_paths(document)):
        for wrong in (None, True, -1, 1.5, "x", [], {}, _DELETE):
            if wrong is _DELETE and not where:
                continue
            with_wrong = _replaced(document, where, wrong)
            try:
                with transaction.atomic():
                    import_event(with_wrong, organiser)
                    transaction.set_rollback(True)
            except InterchangeError as exc:
                assert exc.problems, (where, wrong)
                for problem in exc.problems:
                    assert not _READS_LIKE_PYTHON.search(problem.message), (where, wrong, problem)


def test_the_quick_check_agrees_with_jsonschema_on_phases():
    validator = committed_validator()
    document = phased_document()
    for where in list(_paths(document)):
        for wrong in (None, True, 0, -1, 1.5, 2.0, "x", " ", [], {}, _DELETE):
            if wrong is _DELETE and not where:
                continue
            changed = _replaced(document, where, wrong)
            assert is_valid(changed) == validator.is_valid(changed), (where, wrong)


def test_a_phased_event_exports_in_four_queries_and_the_command_imports_it(
    organiser, tmp_path, django_assert_max_num_queries
):
    event = import_event(phased_document(), organiser)
    with django_assert_max_num_queries(4):
        exported = export_event(event)
    path = tmp_path / "phased.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    out = io.StringIO()
    call_command("import_event", str(path), stdout=out)
    main = Event.objects.get(pk=int(out.getvalue().strip().splitlines()[-1]))
    assert main.parent_id is None and main.flights.count() == 2
    assert export_event(main) == exported


def test_without_the_permission_the_event_and_its_flights_are_drafts():
    event = import_event(phased_document(), make_user("newcomer"))
    assert event.status == Event.Status.DRAFT
    assert set(event.flights.values_list("status", flat=True)) == {Event.Status.DRAFT}
